package external

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Defaults of a Command's zero fields.
const (
	DefaultTimeout = 30 * time.Second
	DefaultRetries = 2
	// MinStartup is the least wait for the hello when Startup is 0: a
	// short per-game Timeout must not fail an interpreter that takes a
	// second to start.
	MinStartup = 10 * time.Second
)

// Command says how to start the user's program.
type Command struct {
	// Argv is the program and its arguments. Argv[0] is looked up in PATH
	// when it has no slash; a relative path with a slash is taken against
	// Dir.
	Argv []string
	// Dir is the program's working directory; "" is evotune's.
	Dir string
	// Env holds extra KEY=VALUE pairs added to evotune's environment.
	Env []string
	// Timeout bounds, while games are in flight on a process, the wait
	// for its next reply: a program that stays silent longer is hung. 0
	// means DefaultTimeout.
	Timeout time.Duration
	// Startup bounds the wait for the answer to the hello; 0 means the
	// longer of Timeout and MinStartup.
	Startup time.Duration
	// Retries is how many more times a failing game is played (each time
	// alone, on a restarted process) before the game fails; 0 means
	// DefaultRetries, a negative value means none.
	Retries int
	// Stderr receives the program's stderr, line by line, each line
	// prefixed with the process's pid, within a budget per process and
	// per game (docs/protocol.md); nil discards it.
	Stderr io.Writer
	// StderrShown says Stderr is read where evotune's errors are (a
	// command's own stderr, not a run's log): an error then leaves out
	// the program's last stderr lines, shown there just before it, so
	// that they are read once.
	StderrShown bool
	// Audit is the fraction of games, in [0, 1], replayed to check that
	// the program is deterministic, on processes that play nothing but
	// replays (each replaced after 256 of them): a result that depends on
	// what a process played before, or on when it started, shows. The
	// sample is a pure function of the games (their seeds and players),
	// never of time. 0 turns the audit off.
	Audit float64
}

func (c Command) timeout() time.Duration {
	if c.Timeout <= 0 {
		return DefaultTimeout
	}
	return c.Timeout
}

func (c Command) startup() time.Duration {
	if c.Startup > 0 {
		return c.Startup
	}
	return max(c.timeout(), MinStartup)
}

func (c Command) retries() int {
	switch {
	case c.Retries == 0:
		return DefaultRetries
	case c.Retries < 0:
		return 0
	}
	return c.Retries
}

// check reports what is wrong with the command itself.
func (c Command) check() error {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return errors.New("no program to run (empty command)")
	}
	for _, kv := range c.Env {
		if k, _, ok := strings.Cut(kv, "="); !ok || k == "" {
			return fmt.Errorf("env entry %q is not KEY=VALUE", kv)
		}
	}
	if c.Audit < 0 || c.Audit > 1 || c.Audit != c.Audit {
		return fmt.Errorf("audit fraction %v is outside [0, 1]", c.Audit)
	}
	return nil
}

// program resolves Argv[0] to the file that will run.
func (c Command) program() (string, error) {
	name := c.Argv[0]
	if !strings.Contains(name, "/") {
		path, err := exec.LookPath(name)
		if err != nil {
			return "", fmt.Errorf("program %q not found in PATH", name)
		}
		return path, nil
	}
	if !filepath.IsAbs(name) && c.Dir != "" {
		name = filepath.Join(c.Dir, name)
	}
	st, err := os.Stat(name)
	if err != nil {
		return "", fmt.Errorf("program %s: %w", name, err)
	}
	if st.IsDir() || st.Mode()&0o111 == 0 {
		return "", fmt.Errorf("program %s is not an executable file", name)
	}
	return name, nil
}

// FileHashes returns the SHA-256 (hex) of every existing regular file the
// argv names: the resolved program, and each argument that names a file
// (relative to Dir), such as a script. Keys are the argv entries as
// written. A checkpoint stores them so that resume can tell a changed
// program from the one that ran.
func (c Command) FileHashes() (map[string]string, error) {
	if err := c.check(); err != nil {
		return nil, err
	}
	out := map[string]string{}
	prog, err := c.program()
	if err != nil {
		return nil, err
	}
	for i, arg := range c.Argv {
		path := prog
		if i > 0 {
			path = arg
			if !filepath.IsAbs(path) && c.Dir != "" {
				path = filepath.Join(c.Dir, path)
			}
		}
		st, err := os.Stat(path)
		if err != nil || !st.Mode().IsRegular() {
			continue // an argument that is not a file
		}
		h, err := hashFile(path)
		if err != nil {
			return nil, err
		}
		out[arg] = h
	}
	return out, nil
}

func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("external: hash %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
