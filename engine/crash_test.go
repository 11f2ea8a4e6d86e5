package engine

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/rundir"
)

// crash is the panic value of a simulated kill: the process stops where
// it is, runs no more of writeAtomic and removes nothing.
type crash struct{}

// diskOp is one operation writeAtomic asked of the file system, named by
// the file it is about to replace.
type diskOp struct{ kind, file string }

func (o diskOp) String() string { return o.kind + " " + o.file }

// faultFS is the real file system with a recorder and a kill switch: at
// operation crashAt (counted from 0) it does what a killed process
// leaves behind and panics with crash. A torn write puts half the bytes
// in the temporary file first.
type faultFS struct {
	ops     []diskOp
	crashAt int // -1: never
	failAt  int // 1 + the operation that returns errInjected instead; 0: never
	renamed string
}

var errInjected = errors.New("injected failure")

func (f *faultFS) step(kind, file string) error {
	f.ops = append(f.ops, diskOp{kind, file})
	switch len(f.ops) {
	case f.crashAt + 1:
		panic(crash{})
	case f.failAt:
		return errInjected
	}
	return nil
}

// target is the file a temporary file of writeAtomic becomes.
func target(tmp string) string {
	name := strings.TrimPrefix(filepath.Base(tmp), ".")
	return name[:strings.Index(name, ".tmp-")]
}

func (f *faultFS) CreateTemp(dir, pattern string) (rundir.TempFile, error) {
	tf, err := os.CreateTemp(dir, pattern)
	if err != nil {
		return nil, err
	}
	if err := f.step("create", target(tf.Name())); err != nil {
		tf.Close()
		os.Remove(tf.Name())
		return nil, err
	}
	return &faultFile{File: tf, fs: f}, nil
}

func (f *faultFS) Rename(oldpath, newpath string) error {
	if err := f.step("rename", filepath.Base(newpath)); err != nil {
		return err
	}
	f.renamed = filepath.Base(newpath)
	return os.Rename(oldpath, newpath)
}

func (f *faultFS) Remove(name string) error { return os.Remove(name) }

func (f *faultFS) SyncDir(dir string) error {
	return f.step("syncdir", f.renamed) // recorded, not done: a simulated kill loses no cache, and fsync is slow
}

type faultFile struct {
	*os.File
	fs *faultFS
}

func (t *faultFile) Chmod(mode os.FileMode) error {
	if err := t.fs.step("chmod", target(t.Name())); err != nil {
		return err
	}
	return t.File.Chmod(mode)
}

func (t *faultFile) Write(b []byte) (int, error) {
	if len(t.fs.ops) == t.fs.crashAt {
		t.File.Write(b[:len(b)/2]) // torn: the kill lands mid-write
	}
	if err := t.fs.step("write", target(t.Name())); err != nil {
		n, _ := t.File.Write(b[:len(b)/2]) // a short write: the disk filled up
		return n, err
	}
	return t.File.Write(b)
}

func (t *faultFile) Sync() error {
	return t.fs.step("sync", target(t.Name())) // recorded, not done, as SyncDir
}

func (t *faultFile) Close() error {
	err := t.fs.step("close", target(t.Name()))
	if cerr := t.File.Close(); err == nil {
		err = cerr
	}
	return err
}

// useDisk makes the run write through f until the test ends.
func useDisk(t testing.TB, f rundir.FS) {
	t.Helper()
	old := disk
	disk = f
	t.Cleanup(func() { disk = old })
}

// survive runs fn and reports whether it was killed by a simulated crash.
func survive(fn func() error) (killed bool, err error) {
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(crash); !ok {
				panic(v)
			}
			killed = true
		}
	}()
	return false, fn()
}

// crashConfig is a run of three short generations with a hall of fame.
const crashConfig = `name: crash
seed: 11
game: battleship
player: tuned
seeds:
  - {}
fitness:
  baselines:
    games: 6
evolution:
  population: 4
  generations: 3
  tournament-size: 2
  elitism: 1
  hall-of-fame: 3
`

// readDir reads every file of a run directory except run.log (which holds
// clock values), with the top-3 export; it fails on leftover temporary
// files.
func readDir(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		if e.Name() != rundir.LogFile {
			names = append(names, e.Name())
		}
	}
	for _, n := range names {
		if strings.Contains(n, ".tmp-") {
			t.Errorf("temporary file %s left in the run directory", n)
		}
	}
	out := map[string][]byte{}
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err != nil {
			t.Fatal(err)
		}
		out[n] = data
	}
	return withExport(t, dir, out, false)
}

// sameFiles is sameRun that also demands the same set of files.
func sameFiles(t testing.TB, want, got map[string][]byte, what string) {
	t.Helper()
	var a, b []string
	for k := range want {
		a = append(a, k)
	}
	for k := range got {
		b = append(b, k)
	}
	slices.Sort(a)
	slices.Sort(b)
	if !slices.Equal(a, b) {
		t.Errorf("%s: files %v, want %v", what, b, a)
	}
	sameRun(t, want, got, what)
}

// TestAtomicWritesSyncBeforeRename records a run's disk operations: every
// file is written to a temporary file, synced, closed, renamed over its
// name and its directory synced, in that order; the checkpoint of each
// generation is written before the files derived from it.
func TestAtomicWritesSyncBeforeRename(t *testing.T) {
	rec := &faultFS{crashAt: -1}
	useDisk(t, rec)
	startText(t, crashConfig, Options{Dir: t.TempDir(), Workers: 1})
	var files []string
	for i := 0; i < len(rec.ops); i += 7 {
		f := rec.ops[i].file
		files = append(files, f)
		want := []diskOp{{"create", f}, {"chmod", f}, {"write", f}, {"sync", f}, {"close", f}, {"rename", f}, {"syncdir", f}}
		if got := rec.ops[i:min(i+7, len(rec.ops))]; !slices.Equal(got, want) {
			t.Fatalf("write of %s: operations %v, want %v", f, got, want)
		}
	}
	want := []string{rundir.ConfigFile}
	for range 3 {
		want = append(want, rundir.CheckpointFile, rundir.GenerationsFile, rundir.BestFile, rundir.ReportFile)
	}
	if !slices.Equal(files, want) {
		t.Fatalf("files written in order %v, want %v", files, want)
	}
}

// TestKillAtEveryWriteStepResumesExactly kills a run (in simulation) at
// every step of every file write: mid-write (a torn temporary file),
// before the sync, before the rename and before the directory sync. The
// checkpoint left behind must always load, and resuming (or starting
// again, if no checkpoint was written yet) must end with the very files
// of a run never killed, with no temporary files left over.
func TestKillAtEveryWriteStepResumesExactly(t *testing.T) {
	cfgDir := t.TempDir()
	rec := &faultFS{crashAt: -1}
	useDisk(t, rec)
	straight := t.TempDir()
	if _, err := Start(context.Background(), loadText(t, cfgDir, crashConfig), Options{Dir: straight, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	want := readDir(t, straight)
	steps := rec.ops
	for k, op := range steps {
		if op.kind != "write" && op.kind != "rename" && op.kind != "syncdir" {
			continue // the same files on disk as at one of these
		}
		if w := k / 7; w >= 5 && w <= 8 {
			continue // generation 2's writes: as generation 1's, resumed from a checkpoint like 3's
		}
		t.Run(fmt.Sprintf("%02d %v", k, op), func(t *testing.T) {
			killAtStepAndResume(t, cfgDir, crashConfig, k, 2, want)
		})
	}
}

// killAtStepAndResume starts a run of text that a simulated kill stops
// at disk operation k, resumes it (or starts it again, if the kill came
// before the first checkpoint) at workers, and demands the files want.
func killAtStepAndResume(t *testing.T, cfgDir, text string, k, workers int, want map[string][]byte) {
	t.Helper()
	dir := t.TempDir()
	fs := &faultFS{crashAt: k}
	useDisk(t, fs)
	killed, err := survive(func() error {
		_, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: 1})
		return err
	})
	if !killed {
		t.Fatalf("no kill at step %d: %v; operations %v", k, err, fs.ops)
	}
	fs.crashAt = -1
	if _, err := os.Stat(filepath.Join(dir, rundir.CheckpointFile)); err == nil {
		if _, _, err := ReadRun(dir); err != nil {
			t.Fatalf("the kill left an unreadable checkpoint: %v", err)
		}
		if _, err := Resume(context.Background(), Options{Dir: dir, Workers: workers}); err != nil {
			t.Fatal(err)
		}
	} else if _, err := Start(context.Background(), loadText(t, cfgDir, text), Options{Dir: dir, Workers: workers}); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, want, readDir(t, dir), "killed, resumed")
}

// hofCheck is a Progress that, after every generation, reads the
// checkpoint just written and replays the hall of fame's update from the
// previous checkpoint's hall of fame and this generation's population.
type hofCheck struct {
	t    testing.TB
	dir  string
	r    *runner
	prev []Member
}

func (h *hofCheck) StartGeneration(int, int, int) {}
func (h *hofCheck) Games(int)                     {}
func (h *hofCheck) EndGeneration(gen int, _ GenStats, best Member) {
	t := h.t
	data, err := os.ReadFile(filepath.Join(h.dir, rundir.CheckpointFile))
	if err != nil {
		t.Fatal(err)
	}
	ck, _, err := ReadRun(h.dir)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := ck.encode(); err != nil || string(again) != string(data) {
		t.Fatalf("generation %d: the checkpoint does not survive a read and a write (%v)", gen+1, err)
	}
	want := h.r.updateHallOfFame(h.r.species[0], h.prev, ck.Population)
	if len(want) != h.r.cfg.Evolution.HallOfFame {
		t.Fatalf("generation %d: %d distinct genomes so far, want at least %d for this test", gen+1, len(want), h.r.cfg.Evolution.HallOfFame)
	}
	if fmt.Sprint(ck.HallOfFame) != fmt.Sprint(want) {
		t.Fatalf("generation %d: checkpoint's hall of fame\n%v\nwant\n%v", gen+1, ck.HallOfFame, want)
	}
	if fmt.Sprint(best) != fmt.Sprint(want[0]) {
		t.Fatalf("generation %d: best %v, the hall of fame's first %v", gen+1, best, want[0])
	}
	h.prev = ck.HallOfFame
}

// TestCheckpointCarriesTheWholeHallOfFame: every generation's checkpoint
// holds the full hall of fame (as many members as evolution.hall-of-fame
// keeps), exactly as the update from the previous one makes it, and reads
// back to the same bytes.
func TestCheckpointCarriesTheWholeHallOfFame(t *testing.T) {
	cfg := loadText(t, t.TempDir(), crashConfig)
	dir := t.TempDir()
	h := &hofCheck{t: t, dir: dir, r: newRunner(cfg, Options{Dir: dir})}
	if _, err := Start(context.Background(), cfg, Options{Dir: dir, Workers: 2, Progress: h}); err != nil {
		t.Fatal(err)
	}
	if len(h.prev) != 3 {
		t.Fatalf("hall of fame of %d after the run, want 3", len(h.prev))
	}
}

// TestFailedWritesLeaveTheOldFile makes each step of writing one file
// fail (as a full disk or an I/O error would): writeAtomic reports the
// error naming the file, the file keeps its old contents and no
// temporary file is left.
func TestFailedWritesLeaveTheOldFile(t *testing.T) {
	for _, step := range []string{"create", "chmod", "write", "sync", "close", "rename"} {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, rundir.BestFile)
			write(t, dir, rundir.BestFile, []byte("old\n"))
			rec := &faultFS{crashAt: -1}
			useDisk(t, rec)
			if err := rundir.WriteAtomic(disk, path, []byte("new contents\n")); err != nil {
				t.Fatal(err)
			}
			k := slices.IndexFunc(rec.ops, func(o diskOp) bool { return o.kind == step })
			write(t, dir, rundir.BestFile, []byte("old\n"))
			useDisk(t, &faultFS{crashAt: -1, failAt: k + 1})
			err := rundir.WriteAtomic(disk, path, []byte("new contents\n"))
			if !errors.Is(err, errInjected) || !strings.Contains(err.Error(), "cannot write "+path) {
				t.Fatalf("failed %s: %v, want the injected error naming %s", step, err, path)
			}
			entries, _ := os.ReadDir(dir)
			if data, _ := os.ReadFile(path); string(data) != "old\n" || len(entries) != 1 {
				t.Fatalf("after a failed %s: %q in %s, %d files", step, data, rundir.BestFile, len(entries))
			}
		})
	}
	t.Run("syncdir", func(t *testing.T) {
		dir := t.TempDir()
		useDisk(t, &faultFS{crashAt: -1, failAt: 7})
		if err := rundir.WriteAtomic(disk, filepath.Join(dir, rundir.BestFile), []byte("new\n")); !errors.Is(err, errInjected) {
			t.Fatalf("failed directory sync: %v", err)
		}
	})
}

// TestResumeRemovesOnlyItsTemporaryFiles: resume removes the temporary
// files of the run's own files and leaves anything else alone.
func TestResumeRemovesOnlyItsTemporaryFiles(t *testing.T) {
	dir := t.TempDir()
	startText(t, crashConfig, Options{Dir: dir, Generations: 1})
	gone := []string{".checkpoint.json.tmp-1", ".rivals-best.yaml.tmp-2", ".report.svg.tmp-3", ".config.yaml.tmp-4", ".generations.csv.tmp-5"}
	kept := []string{".notes.tmp-1", "best.yaml.tmp-2", ".best.yaml.bak", "notes.txt"}
	for _, f := range append(slices.Clone(gone), kept...) {
		write(t, dir, f, []byte("x"))
	}
	if err := os.Mkdir(filepath.Join(dir, ".best.yaml.tmp-dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	kept = append(kept, ".best.yaml.tmp-dir")
	if _, err := Resume(context.Background(), Options{Dir: dir, Generations: 1}); err != nil {
		t.Fatal(err)
	}
	for _, f := range gone {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s left", f)
		}
	}
	for _, f := range kept {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s removed: %v", f, err)
		}
	}
}
