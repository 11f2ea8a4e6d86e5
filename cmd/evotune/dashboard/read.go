package dashboard

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// journalLimit bounds the part of a match journal counted for the
// generation in flight.
const journalLimit = 64 << 20

// State is where a run stands.
type State string

const (
	Running    State = "running"    // a process holds the directory's lock
	Stopped    State = "stopped"    // no process, budget not reached: resume continues it
	Finished   State = "finished"   // its budget reached
	Starting   State = "starting"   // held, no checkpoint yet: its first generation
	Unreadable State = "unreadable" // nothing could be read of it
)

// run is what the pages show of a run directory.
type run struct {
	entry
	Ins     *runs.Inspection // nil when the directory could not be read at all
	Err     error            // what could not be read, if anything
	State   State
	Updated time.Time // the checkpoint's modification time
	Log     runLog
	LogErr  error
	Flight  *rundir.InFlight
	Version string
}

// Generation is the number of generations checkpointed.
func (r *run) Generation() int {
	if r.Ins == nil || r.Ins.Checkpoint == nil {
		return 0
	}
	return r.Ins.Checkpoint.Generation
}

// Budget is the generation budget the run was last started or resumed
// with (run.log), else its config's.
func (r *run) Budget() int {
	if r.Log.Budget > 0 {
		return r.Log.Budget
	}
	if r.Ins != nil {
		return r.Ins.Header.Generations
	}
	return 0
}

// maxCached bounds the inspections kept.
const maxCached = 512

// reader reads runs, keeping each inspection until its checkpoint
// changes: a page of a run that did not move since costs a few stats.
type reader struct {
	mu    sync.Mutex
	cache map[string]cached // by absolute directory
	// slots bounds the inspections read at once: a checkpoint may be
	// hundreds of MiB.
	slots chan struct{}
}

type cached struct {
	key string
	ins *runs.Inspection
	err error
}

func newReader() *reader {
	return &reader{cache: map[string]cached{}, slots: make(chan struct{}, 2)}
}

// identity names a file's version: device, inode, size and modification
// time, so an atomic replacement (a new inode) is a new version even
// within one clock tick. "" when the file is absent.
func identity(path string) string {
	fi, err := os.Lstat(path)
	if err != nil {
		return ""
	}
	id := fmt.Sprintf("%d.%d", fi.Size(), fi.ModTime().UnixNano())
	id += fileNode(fi)
	return id
}

// version changes whenever what a run's page shows may have: a new
// checkpoint, a line in run.log, a batch in the journal, the lock taken
// or released.
func version(dir string) string {
	pid, held := rundir.Holder(dir)
	return fmt.Sprintf("%s|%s|%s|%s|%v.%d", identity(filepath.Join(dir, rundir.CheckpointFile)), identity(filepath.Join(dir, rundir.ConfigFile)),
		identity(filepath.Join(dir, rundir.LogFile)), identity(filepath.Join(dir, rundir.JournalFile)), held, pid)
}

// read reads the run e as it stands.
func (rd *reader) read(e entry) *run {
	r := &run{entry: e}
	r.Version = version(e.abs)
	key := identity(filepath.Join(e.abs, rundir.CheckpointFile)) + "|" + identity(filepath.Join(e.abs, rundir.ConfigFile))
	rd.mu.Lock()
	c, ok := rd.cache[e.abs]
	rd.mu.Unlock()
	if !ok || c.key != key {
		rd.slots <- struct{}{}
		c.ins, c.err = runs.Inspect(e.abs)
		<-rd.slots
		c.key = key
		rd.mu.Lock()
		if len(rd.cache) >= maxCached {
			clear(rd.cache)
		}
		rd.cache[e.abs] = c
		rd.mu.Unlock()
	}
	r.Err = c.err
	if c.ins != nil {
		// The lock is looked at on every read: it is not in the key. The
		// cached inspection is shared, so the run gets a copy.
		ins := *c.ins
		ins.Holder, ins.Held = rundir.Holder(e.abs)
		r.Ins = &ins
	}
	if fi, err := os.Lstat(filepath.Join(e.abs, rundir.CheckpointFile)); err == nil {
		r.Updated = fi.ModTime()
	}
	data, cut, err := fileio.ReadTail(filepath.Join(e.abs, rundir.LogFile), logLimit)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.LogErr = err
	}
	r.Log = parseLog(data, cut)
	if in, ok, err := rundir.JournalProgress(e.abs, journalLimit); err == nil && ok {
		r.Flight = &in
	}
	r.State = r.state()
	return r
}

func (r *run) state() State {
	switch {
	case r.Ins == nil:
		return Unreadable
	case r.Ins.Held && r.Ins.Checkpoint == nil:
		return Starting
	case r.Ins.Held:
		return Running
	case r.Ins.Checkpoint == nil && errors.Is(r.Err, runs.ErrNoCheckpointYet):
		return Stopped // before its first generation ended
	case r.Ins.Checkpoint == nil:
		return Unreadable
	case r.Log.Finish || (r.Budget() > 0 && r.Generation() >= r.Budget()):
		return Finished
	}
	return Stopped
}
