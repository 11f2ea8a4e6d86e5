//go:build !unix

package natsqueue

import "os"

// fileUID cannot tell a file's owner here: the mode check alone guards
// the token file.
func fileUID(os.FileInfo) (uid int, ok bool) { return 0, false }
