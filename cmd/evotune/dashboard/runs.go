package dashboard

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/internal/fileio"
	"github.com/evotune/evotune/rundir"
)

// Limits of the search for runs under a directory, so a directory of a
// million entries costs a bounded walk and says so.
const (
	maxDepth   = 4     // levels below a given directory
	maxVisited = 20000 // directories looked at
	maxRuns    = 1000  // runs listed
)

// root is a directory given on the command line.
type root struct {
	arg string // as given, for display and commands
	abs string // absolute, its links resolved: every path served lies under it
}

// entry is a run directory found under a root.
type entry struct {
	id string // "<root index>/<path below it, with />": the page's address
	// dir is the path as a user would type it (the root as given, joined
	// with the path), and name how the list names it (the path below its
	// root), both with control characters escaped (cleanText): they are
	// shown, and a file name is anyone's to choose.
	dir  string
	abs  string
	name string
	// sprt marks a test's state file (evotune sprt --output) in place of
	// a run directory.
	sprt bool
}

// discover lists the runs under the roots: a root that is a run, else
// its subdirectories to maxDepth, not following links and not looking
// inside a run or a hidden directory (.git, caches: runs are not kept
// there, and their trees would spend maxVisited). notes say what was
// left out.
func discover(roots []root) (runs []entry, notes []string) {
	visited := 0
	for i, r := range roots {
		var walk func(abs, rel string, depth int)
		walk = func(abs, rel string, depth int) {
			if len(runs) >= maxRuns || visited >= maxVisited {
				return
			}
			visited++
			if rundir.IsRunDir(abs) {
				name := filepath.ToSlash(rel)
				if name == "" || len(roots) > 1 {
					name = filepath.Join(r.arg, rel)
				}
				runs = append(runs, entry{id: strconv.Itoa(i) + "/" + filepath.ToSlash(rel), dir: cleanText(filepath.Join(r.arg, rel)), abs: abs, name: cleanText(name)})
				return
			}
			if depth == maxDepth {
				return
			}
			des, err := os.ReadDir(abs)
			if err != nil {
				if rel == "" {
					notes = append(notes, fmt.Sprintf("%s: %v", r.arg, fileio.Cause(err)))
				}
				return
			}
			for _, de := range des {
				name := de.Name()
				if de.Type().IsRegular() && sprtfile.IsName(name) && len(runs) < maxRuns {
					frel := filepath.Join(rel, name)
					runs = append(runs, entry{id: strconv.Itoa(i) + "/" + filepath.ToSlash(frel), dir: cleanText(filepath.Join(r.arg, frel)),
						abs: filepath.Join(abs, name), name: cleanText(filepath.ToSlash(frel)), sprt: true})
					continue
				}
				if !de.IsDir() || strings.HasPrefix(name, ".") || name == rundir.StoreDir {
					continue // links are not followed: their type is not a directory
				}
				walk(filepath.Join(abs, name), filepath.Join(rel, name), depth+1)
			}
		}
		walk(r.abs, "", 0)
	}
	if len(runs) >= maxRuns {
		notes = append(notes, fmt.Sprintf("only the first %d runs are listed", maxRuns))
	}
	if visited >= maxVisited {
		notes = append(notes, fmt.Sprintf("the search stopped after %d directories: give the directory of the runs you want", maxVisited))
	}
	return runs, notes
}

// errRefused is a path outside the directories served.
var errRefused = errors.New("not under the directories this dashboard serves")

// resolve turns a run's id into its directory (or a test's state file),
// refusing anything that is not under its root once links are resolved:
// "..", an absolute path, a link that leads out.
func resolve(roots []root, id string) (entry, error) {
	n, rel, ok := strings.Cut(id, "/")
	i, err := strconv.Atoi(n)
	if !ok || err != nil || i < 0 || i >= len(roots) || strconv.Itoa(i) != n {
		return entry{}, fmt.Errorf("%q: %w", id, errRefused)
	}
	if strings.ContainsAny(rel, "\x00\\") || strings.HasPrefix(rel, "/") ||
		slices.Contains(strings.Split(rel, "/"), "..") || (rel != "" && filepath.ToSlash(filepath.Clean(rel)) != rel) {
		return entry{}, fmt.Errorf("%q: %w", id, errRefused)
	}
	r := roots[i]
	abs := filepath.Join(r.abs, filepath.FromSlash(rel))
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return entry{}, fmt.Errorf("%s: no such run directory", filepath.Join(r.arg, rel))
	}
	if !within(r.abs, real) {
		return entry{}, fmt.Errorf("%q: %w (a link leads out)", id, errRefused)
	}
	fi, err := os.Stat(real)
	switch {
	case err == nil && fi.Mode().IsRegular() && sprtfile.IsName(filepath.Base(real)):
		return entry{id: id, dir: cleanText(filepath.Join(r.arg, rel)), abs: real, sprt: true}, nil
	case err != nil || !fi.IsDir():
		return entry{}, fmt.Errorf("%s: not a directory", filepath.Join(r.arg, rel))
	}
	return entry{id: id, dir: cleanText(filepath.Join(r.arg, rel)), abs: real}, nil
}

// within reports whether path is base or lies under it.
func within(base, path string) bool {
	rel, err := filepath.Rel(base, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// newRoots checks the directories given and resolves their links once.
func newRoots(dirs []string) ([]root, error) {
	var out []root
	for _, d := range dirs {
		abs, err := filepath.Abs(d)
		if err != nil {
			return nil, fmt.Errorf("ui: %s: %w", d, err)
		}
		real, err := filepath.EvalSymlinks(abs)
		if err != nil {
			return nil, fmt.Errorf("ui: %s: %w", d, fileio.Cause(err))
		}
		if fi, err := os.Stat(real); err != nil || !fi.IsDir() {
			return nil, fmt.Errorf("ui: %s: not a directory", d)
		}
		out = append(out, root{arg: d, abs: real})
	}
	return out, nil
}

// Path is the run's directory as a user would type it.
func (e entry) Path() string { return e.dir }
