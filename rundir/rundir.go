// Package rundir is a run directory's files: the one list of them, how
// each is written (atomically, through a file-system seam that crash
// tests replace), the lock that gives one process the directory, and the
// match journal of the generation in flight. It knows what the files are
// called and how they are written, not what the engine puts in them.
package rundir

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// The files of a run directory.
const (
	ConfigFile      = "config.yaml"     // the config as given; resume reads it and compares hashes
	CheckpointFile  = "checkpoint.json" // the truth a run continues from
	GenerationsFile = "generations.csv" // derived from the checkpoint: one row per generation
	BestFile        = "best.yaml"       // derived: the best, loadable by tuned:FILE
	ReportFile      = "report.svg"      // derived: the run in pictures
	LogFile         = "run.log"         // timestamps and events; appended, never compared
	JournalFile     = "games.journal"   // the finished batches of the generation in flight
	StoreDir        = "nats"            // a directory: the embedded NATS server's store (run --serve)
	LockFile        = ".evotune.lock"   // the lock; its presence marks the directory as evotune's
)

// File describes one of a run directory's files.
type File struct {
	Name string
	// Atomic files are written whole by WriteAtomic (a kill leaves the
	// old file or the new one); the others are appended to or a
	// directory.
	Atomic bool
	// Result files are the same, byte for byte, in two runs of one
	// config, straight or resumed, at any worker count.
	Result bool
	// PerSpecies files exist once per species: a co-evolved species'
	// carry its label as a prefix (ForSpecies).
	PerSpecies bool
}

// Files is the one list of a run directory's files.
var Files = []File{
	{Name: ConfigFile, Atomic: true, Result: true},
	{Name: CheckpointFile, Atomic: true, Result: true},
	{Name: GenerationsFile, Atomic: true, Result: true, PerSpecies: true},
	{Name: BestFile, Atomic: true, Result: true, PerSpecies: true},
	{Name: ReportFile, Atomic: true, Result: true, PerSpecies: true},
	{Name: LogFile},
	{Name: JournalFile, Atomic: true},
	{Name: StoreDir},
	{Name: LockFile},
}

// RecordFile names generation gen's records (counted from 1): the
// games whose records a run keeps (those lost to faults, and a share of
// the rest: record:), in batch order, in a file of their own, written
// atomically before the generation's checkpoint, ext the records'
// extension (".pgn"). A result file: two runs of one config write the
// same.
func RecordFile(gen int, ext string) string { return fmt.Sprintf("games-%04d%s", gen, ext) }

// IsRecordFile reports whether name is a RecordFile's name.
func IsRecordFile(name string) bool { return recordFile.MatchString(name) }

var recordFile = regexp.MustCompile(`^games-[0-9]{4,}\.[a-z]+$`)

// Rivals is the label of the co-evolved species, the prefix of its files.
const Rivals = "rivals"

// ForSpecies names a per-species file of the species labelled label:
// the main species ("") has name itself, the rivals "rivals-NAME".
func ForSpecies(label, name string) string {
	if label == "" {
		return name
	}
	return label + "-" + name
}

// Results lists the files that two runs of one config hold byte for
// byte, the rivals' too when rivals.
func Results(rivals bool) []string {
	var out []string
	for _, f := range Files {
		if f.Result {
			out = append(out, f.Name)
		}
	}
	if rivals {
		for _, f := range Files {
			if f.Result && f.PerSpecies {
				out = append(out, ForSpecies(Rivals, f.Name))
			}
		}
	}
	return out
}

// known reports whether name is the name of one of Files that match, or
// that name with the rivals' prefix.
func known(name string, match func(File) bool) bool {
	name = strings.TrimPrefix(name, Rivals+"-")
	return slices.ContainsFunc(Files, func(f File) bool { return match(f) && f.Name == name })
}

// IsRunFile reports whether path names one of a run's own files (its
// checkpoint, config, derived files, log, journal, lock or server store,
// the rivals' too): path's directory holds a run (a lock file or a
// checkpoint) and its name is one evotune keeps there, whether or not it
// exists yet. A command's output flag must never replace one: an export
// over the checkpoint loses the run, one over the lock file lets a second
// process run beside the first.
func IsRunFile(path string) bool {
	if !known(filepath.Base(path), func(File) bool { return true }) {
		return false
	}
	return IsRunDir(filepath.Dir(path))
}

// IsRunDir reports whether dir holds a run: a lock file or a checkpoint
// (a run in its first generation has only the lock), of whatever kind.
func IsRunDir(dir string) bool {
	for _, f := range []string{LockFile, CheckpointFile} {
		if _, err := os.Lstat(filepath.Join(dir, f)); err == nil {
			return true
		}
	}
	return false
}

// Readable reports whether dir is a run directory that resume and export
// can read: it holds a checkpoint (a regular file, as resume wants).
func Readable(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, CheckpointFile))
	return err == nil && fi.Mode().IsRegular()
}

// CheckOwnership refuses to start a run in a directory that is neither
// empty nor evotune's, naming what is in it: its files are the user's.
func CheckOwnership(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("rundir: %w", err)
	}
	if len(entries) == 0 {
		return nil
	}
	var names []string
	for _, e := range entries {
		if e.Name() == LockFile || e.Name() == CheckpointFile {
			return nil
		}
		names = append(names, e.Name())
	}
	slices.Sort(names)
	if len(names) > 5 {
		names = append(names[:5], fmt.Sprintf("and %d more", len(names)-5))
	}
	return fmt.Errorf("%s %w (found %s): choose another -o/--output, or empty it", dir, ErrNotEvotuneDir, strings.Join(names, ", "))
}

// tempName matches the temporary files WriteAtomic makes for the files of
// a run directory (".checkpoint.json.tmp-123456"); a process killed
// between creating and renaming one leaves it behind.
var tempName = regexp.MustCompile(`^\.(.+)\.tmp-[0-9]+$`)

// isOwnTemp reports whether name is a temporary file of one of the
// directory's atomic files.
func isOwnTemp(name string) bool {
	m := tempName.FindStringSubmatch(name)
	return m != nil && known(m[1], func(f File) bool { return f.Atomic })
}
