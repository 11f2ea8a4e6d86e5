//go:build !unix

package fileio

import "os"

// CheckOwn is, where the system has no Unix owners, only that path
// exists.
func CheckOwn(path string) error {
	_, err := os.Stat(path)
	return err
}
