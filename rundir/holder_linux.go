package rundir

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/evotune/evotune/internal/fileio"
)

// Holder reports whether a live process holds the lock of the run
// directory dir, and that process's id (0 when it cannot be told). On
// Linux it reads the kernel's table of locks (/proc/locks), so watching a
// directory takes no lock, not even for an instant, and cannot make a
// resume starting at that moment find the directory busy; elsewhere it
// probes as export does.
func Holder(dir string) (pid int, held bool) {
	fi, err := os.Lstat(filepath.Join(dir, LockFile))
	if err != nil || !fi.Mode().IsRegular() {
		return 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return probeHolder(dir)
	}
	table, err := fileio.ReadFile("/proc/locks", 16<<20)
	if err != nil {
		return probeHolder(dir)
	}
	return flockHolder(table, uint64(st.Dev), st.Ino)
}

// flockHolder finds, in a /proc/locks table, the process holding a flock
// on the file of device dev and inode ino. A line reads
// "1: FLOCK  ADVISORY  WRITE 1234 08:01:5678 0 EOF" (the device's major
// and minor in hex, the inode in decimal); "1: -> FLOCK ..." is a waiter.
func flockHolder(table []byte, dev, ino uint64) (int, bool) {
	major := (dev>>8)&0xfff | (dev>>32)&^uint64(0xfff)
	minor := dev&0xff | (dev>>12)&^uint64(0xff)
	sc := bufio.NewScanner(bytes.NewReader(table))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 6 || f[1] != "FLOCK" {
			continue
		}
		id := strings.Split(f[5], ":")
		if len(id) != 3 {
			continue
		}
		maj, err1 := strconv.ParseUint(id[0], 16, 64)
		mnr, err2 := strconv.ParseUint(id[1], 16, 64)
		in, err3 := strconv.ParseUint(id[2], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil || maj != major || mnr != minor || in != ino {
			continue
		}
		pid, err := strconv.Atoi(f[4])
		if err != nil || pid < 0 {
			pid = 0
		}
		return pid, true
	}
	return 0, false
}
