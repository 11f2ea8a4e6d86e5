package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"

	"github.com/spf13/pflag"
)

// profiles are the --cpuprofile and --memprofile flags of run, resume,
// eval and worker: where the time and the memory of the command went, for
// 'go tool pprof'.
type profiles struct {
	cpu, mem string
}

func (p *profiles) addFlags(fs *pflag.FlagSet) {
	fs.StringVar(&p.cpu, "cpuprofile", "", "write a CPU profile of the command to `FILE` (read it with 'go tool pprof FILE')")
	fs.StringVar(&p.mem, "memprofile", "", "write a heap profile (allocations and live memory) at the end to `FILE`")
}

// profileFile is a profile being written: to a temporary file beside its
// destination, renamed into place when complete, so a killed command
// leaves no torn profile.
type profileFile struct {
	f    *os.File
	path string
	err  error // the first write error: the CPU profiler drops them
}

// Write keeps the first error, so that a profile cut short (a full disk)
// is reported and never renamed into place.
func (p *profileFile) Write(b []byte) (int, error) {
	n, err := p.f.Write(b)
	if err != nil && p.err == nil {
		p.err = err
	}
	return n, err
}

func createProfile(flagName, path string) (*profileFile, error) {
	// The file is renamed into place only once the work is done, so what
	// the rename would fail on, or silently replace, is refused now.
	if err := checkOutput("--"+flagName, path, profileOutput); err != nil {
		return nil, err
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
	if p.err != nil {
		p.abandon()
		return p.err
	}
	if err := p.f.Sync(); err != nil {
		p.abandon()
		return err
	}
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
// returned stop ends the CPU profile, writes the heap profile and, if
// keep, puts both files in place; call it once the command's work is
// done, whether it succeeded or not.
func (p *profiles) start() (stop func(keep bool) error, err error) {
	var cpu, mem *profileFile
	if err := checkDistinct(outputFlag{"--cpuprofile", p.cpu}, outputFlag{"--memprofile", p.mem}); err != nil {
		return nil, err
	}
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
		if err := pprof.StartCPUProfile(cpu); err != nil {
			cpu.abandon()
			if mem != nil {
				mem.abandon()
			}
			return nil, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err)
		}
	}
	return func(keep bool) error {
		if !keep {
			if cpu != nil {
				pprof.StopCPUProfile()
				cpu.abandon()
			}
			if mem != nil {
				mem.abandon()
			}
			return nil
		}
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.commit(); err != nil {
				errs = append(errs, fmt.Errorf("--cpuprofile %s: %w", p.cpu, err))
			}
		}
		if mem != nil {
			runtime.GC() // the live-memory figures are as of the last GC
			if err := pprof.Lookup("allocs").WriteTo(mem, 0); err != nil {
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
// error, or else stop's. Work refused as bad input (exit 2) did nothing
// worth profiling: its profiles are dropped, and an earlier profile at the
// same path stays.
func (p *profiles) profiled(work func() error) error {
	stop, err := p.start()
	if err != nil {
		return err
	}
	werr := work()
	refused := exitCodeOf(werr) == ExitUsage
	if serr := stop(!refused); werr == nil {
		return serr
	}
	return werr
}
