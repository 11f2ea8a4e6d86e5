package engine

import (
	"path/filepath"

	"github.com/evotune/evotune/rundir"
)

// disk is the file system a run writes its files through; crash tests
// replace it.
var disk = rundir.OS

// writeFile writes name in the run's directory atomically.
func (r *runner) writeFile(name string, data []byte) error {
	return rundir.WriteAtomic(disk, filepath.Join(r.dir, name), data)
}
