// Package figure renders gonum plots into PNG, SVG and PDF files with one
// style (Okabe–Ito colours, fonts, legend placement): the figure machinery
// shared by reports and the learner's convergence plot. It imports only
// internal/atomicio of evogp's packages.
package figure
