// Package tablefile reads and writes tables of Go structs as Parquet or CSV
// (by file extension), atomically and with a row check: the table machinery
// shared by reports and the learner's generation log. Columns are the
// parquet tags of the struct's fields. It imports only internal/atomicio of
// evogp's packages.
package tablefile
