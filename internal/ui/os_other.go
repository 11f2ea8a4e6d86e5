//go:build !unix

package ui

import "os"

// fileNode has no inode to add here: size and time alone name a version.
func fileNode(os.FileInfo) string { return "" }
