package external

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/evotune/evotune/internal/childproc"
	"github.com/evotune/evotune/internal/fileio"
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
	// Files lists more files and directories of the program (modules a
	// script imports), relative to Dir, for FileHashes.
	Files []string
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

// NewCommand is the Command of argv run in dir, relative to base (a
// config's directory), with the extra environment env, in name order;
// the other fields are the caller's to set.
func NewCommand(argv []string, base, dir string, env map[string]string) Command {
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(base, dir)
	}
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	c := Command{Argv: argv, Dir: dir}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		c.Env = append(c.Env, k+"="+env[k])
	}
	return c
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

// envName is what an environment variable's name may be: a name every
// shell and exec takes, so none holds '=' (which would make NAME=VALUE
// mean another variable) or a space.
var envName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// CheckEnv reports what is wrong with an environment variable of a
// program: a name other than letters, digits and '_' (not starting
// with a digit), or a value holding a NUL byte, which no environment
// can hold.
func CheckEnv(name, value string) error {
	if !envName.MatchString(name) {
		return fmt.Errorf("environment variable %q: want a name of letters, digits and _, not starting with a digit", name)
	}
	if strings.ContainsRune(value, 0) {
		return fmt.Errorf("environment variable %s: its value holds a NUL byte", name)
	}
	return nil
}

// check reports what is wrong with the command itself.
func (c Command) check() error {
	if len(c.Argv) == 0 || c.Argv[0] == "" {
		return errors.New("no program to run (empty command)")
	}
	for _, kv := range c.Env {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			return fmt.Errorf("env entry %q is not KEY=VALUE", kv)
		}
		if err := CheckEnv(k, v); err != nil {
			return err
		}
	}
	if c.Audit < 0 || c.Audit > 1 || c.Audit != c.Audit {
		return fmt.Errorf("audit fraction %v is outside [0, 1]", c.Audit)
	}
	return nil
}

// program resolves Argv[0] to the file that will run.
func (c Command) program() (string, error) { return childproc.LookPath(c.Argv[0], c.Dir) }

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
	for i, f := range c.Files {
		path := f
		if !filepath.IsAbs(path) && c.Dir != "" {
			path = filepath.Join(c.Dir, path)
		}
		h, err := hashTree(path)
		if err != nil {
			return nil, &FileError{Index: i, Err: err}
		}
		out[f] = h
	}
	return out, nil
}

// FileError is a failure to hash entry Index of Command.Files.
type FileError struct {
	Index int
	Err   error
}

func (e *FileError) Error() string { return "external: " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// Bounds of what Command.Files may name in all: a directory listed by
// mistake (a home, a root) is refused, not read for an hour.
const (
	maxTreeFiles = 10_000
	maxTreeBytes = 1 << 30
)

// hashTree returns the SHA-256 of a regular file, or of a directory:
// of the sorted list of its regular files' paths (relative to it) and
// SHA-256s, found recursively without following links. Anything else
// (a link to follow, a device, a FIFO) is refused.
func hashTree(root string) (string, error) {
	st, err := os.Lstat(root)
	switch {
	case err != nil:
		return "", err
	case st.Mode().IsRegular():
		return hashFile(root)
	case !st.IsDir():
		return "", fmt.Errorf("%s: not a regular file or a directory", root)
	}
	h := sha256.New()
	files, size := 0, int64(0)
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || d.Type()&fs.ModeSymlink != 0 {
			return nil // a link is not followed, nor part of the program's content
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file", path)
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if files++; files > maxTreeFiles {
			return fmt.Errorf("%s: more than %d files", root, maxTreeFiles)
		}
		if size += info.Size(); size > maxTreeBytes {
			return fmt.Errorf("%s: more than %s", root, fileio.Size(maxTreeBytes))
		}
		sum, err := hashFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s\x00%s\n", filepath.ToSlash(rel), sum)
		return nil
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
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
