package rundir_test

import (
	"errors"
	"fmt"
	"os"

	"github.com/evotune/evotune/rundir"
)

// LockRunDir gives one process a run directory: run and resume hold it,
// and so must anything else that writes there, such as a coordinator of
// distributed workers. A second holder is refused at once.
func ExampleLockRunDir() {
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)

	lock, err := rundir.LockRunDir(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	_, err = rundir.LockRunDir(dir)
	fmt.Println("second holder refused:", errors.Is(err, rundir.ErrLocked))

	lock.Close() // or the process ends: the kernel releases the lock
	again, err := rundir.LockRunDir(dir)
	fmt.Println("after release:", err == nil)
	again.Close()
	// Output:
	// second holder refused: true
	// after release: true
}
