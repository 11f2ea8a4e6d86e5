//go:build unix

package fileio

import (
	"errors"
	"fmt"
	"os"
	"syscall"
)

func openNonBlocking(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
}

func openNoFollow(path string, flag int, perm os.FileMode) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, perm)
	if errors.Is(err, syscall.ELOOP) {
		return nil, fmt.Errorf("%s %w", path, ErrLink)
	}
	if errors.Is(err, syscall.ENXIO) { // a FIFO nobody reads
		return nil, fmt.Errorf("%s: %w (FIFO)", path, ErrNotRegular)
	}
	return f, err
}
