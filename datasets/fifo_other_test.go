//go:build !unix

package datasets

import "errors"

func mkfifo(string) error { return errors.New("no named pipes on this system") }
