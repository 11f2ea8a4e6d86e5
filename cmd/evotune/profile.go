package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/evotune/evotune/internal/fileio"
)

// profiles are the --cpuprofile and --memprofile flags of run, resume and
// eval: where the time and the memory of the command went, for
// 'go tool pprof'.
type profiles struct {
	cpu, mem string
}

func (p *profiles) addFlags(fs *flag.FlagSet) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the command to `FILE` (read it with 'go tool pprof FILE')")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile (allocations and live memory) at the end to `FILE`")
}

// profileFile is a profile being written: to a temporary file beside its
// destination, renamed into place when complete, so a killed command
// leaves no torn profile.
type profileFile struct {
	f    *os.File
	path string
}

func createProfile(flagName, path string) (*profileFile, error) {
	// The rename would replace a link, device or FIFO with a file.
	if err := fileio.CheckReplaceable(path); err != nil {
		return nil, usagef("--%s %v", flagName, err)
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		cause := err
		if u := errors.Unwrap(err); u != nil {
			cause = u // the reason, without the temporary file's name
		}
		return nil, usagef("--%s %s: cannot create a file in %s: %w", flagName, path, filepath.Dir(path), cause)
	}
	return &profileFile{f: f, path: path}, nil
}

func (p *profileFile) commit() error {
	if err := p.f.Close(); err != nil {
		os.Remove(p.f.Name())
		return err
	}
	if err := os.Chmod(p.f.Name(), 0o644); err != nil {
		os.Remove(p.f.Name())
		return err
	}
	if err := os.Rename(p.f.Name(), p.path); err != nil {
		os.Remove(p.f.Name())
		return err
	}
	return nil
}

func (p *profileFile) abandon() {
	p.f.Close()
	os.Remove(p.f.Name())
}

// start opens both profiles before any work, so a path that cannot be
// written is an error at once (exit 2), and starts the CPU profile. The
// returned stop ends the CPU profile, writes the heap profile and puts
// both files in place; call it once the command's work is done, whether
// it succeeded or not.
func (p *profiles) start() (stop func() error, err error) {
	var cpu, mem *profileFile
	if p.cpu != "" {
		if cpu, err = createProfile("cpuprofile", p.cpu); err != nil {
			return nil, err
		}
	}
	if p.mem != "" {
		if mem, err = createProfile("memprofile", p.mem); err != nil {
			if cpu != nil {
				cpu.abandon()
			}
			return nil, err
		}
	}
	if cpu != nil {
		if err := pprof.StartCPUProfile(cpu.f); err != nil {
			cpu.abandon()
			if mem != nil {
				mem.abandon()
			}
			return nil, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err)
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.commit(); err != nil {
				errs = append(errs, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err))
			}
		}
		if mem != nil {
			runtime.GC() // the live-memory figures are as of the last GC
			if err := pprof.Lookup("allocs").WriteTo(mem.f, 0); err != nil {
				mem.abandon()
				errs = append(errs, fmt.Errorf("--memprofile %s: %w", p.mem, err))
			} else if err := mem.commit(); err != nil {
				errs = append(errs, fmt.Errorf("--memprofile %s: %w", p.mem, err))
			}
		}
		return errors.Join(errs...)
	}, nil
}

// profiled runs work between p.start and its stop, and returns work's
// error, or else stop's.
func (p *profiles) profiled(work func() error) error {
	stop, err := p.start()
	if err != nil {
		return err
	}
	werr := work()
	if serr := stop(); werr == nil {
		return serr
	}
	return werr
}
