package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/fitness"
)

// TestFailedStdoutExitsOne: results that cannot be written to stdout are
// a failure with a message. Before, eval's text output to /dev/full
// exited 0 with the output lost (--json already exited 1).
func TestFailedStdoutExitsOne(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	tests := []struct {
		name string
		args []string
	}{
		{"eval text", []string{"eval", "battleship", "--player", "random", "--games", "10"}},
		{"eval --json", []string{"eval", "battleship", "--player", "random", "--games", "10", "--json"}},
		{"games", []string{"games"}},
		{"games GAME", []string{"games", "hadron"}},
		{"export to stdout", []string{"export", "testdata/no-rivals"}},
		{"validate", []string{"validate", "../../../configs/quickstart.yaml"}},
		{"perft", []string{"perft", "mnk", "--depth", "2"}},
		{"help", []string{"help"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			proc(t, full, tc.args...).expect(t, 1, "no space left on device")
		})
	}
}

// TestExportRefusesSpecialOutputs: export -o writes by rename, which
// replaced a device, FIFO or symbolic link with a regular file; it must
// refuse them, and directories, and leave them as they were.
func TestExportRefusesSpecialOutputs(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(dir, "target.yaml")
	if err := os.WriteFile(target, []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.yaml")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	// A device of our own, so no test ever touches a system one.
	dev := filepath.Join(dir, "null")
	if err := syscall.Mknod(dev, syscall.S_IFCHR|0o666, 1<<8|3); err != nil { // 1,3: /dev/null
		dev = ""
	}
	tests := []struct {
		name, path, want string
	}{
		{"FIFO", fifo, "is a FIFO"},
		{"symbolic link", link, "is a symbolic link"},
		{"directory", dir, "is a directory"},
		{"character device", dev, "is a character device"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if tc.path == "" {
				t.Skip("cannot make a device node here")
			}
			before, _ := os.Lstat(tc.path)
			proc(t, nil, "export", "testdata/no-rivals", "-o", tc.path).expect(t, 2, tc.want)
			after, err := os.Lstat(tc.path)
			if err != nil || after.Mode() != before.Mode() {
				t.Fatalf("%s was replaced: %v -> %v (%v)", tc.path, before.Mode(), after.Mode(), err)
			}
		})
	}
	if data, _ := os.ReadFile(target); string(data) != "mine\n" {
		t.Fatalf("the link's target changed: %q", data)
	}
	// Profiles are written by rename too.
	proc(t, nil, "eval", "mnk", "--player", "random", "--vs", "random", "--games", "2", "--cpuprofile", fifo).expect(t, 2, "--cpuprofile "+fifo+": is a FIFO")
	proc(t, nil, "eval", "mnk", "--player", "random", "--vs", "random", "--games", "2", "--memprofile", link).expect(t, 2, "--memprofile "+link+": is a symbolic link")
	// An absent file is written, and then replaced: it is an export.
	for _, p := range []string{filepath.Join(dir, "new.yaml"), filepath.Join(dir, "new.yaml")} {
		if r := proc(t, nil, "export", "testdata/no-rivals", "-o", p); r.code != 0 {
			t.Fatalf("export -o %s: exit %d: %s", p, r.code, r.stderr)
		}
		if data, _ := os.ReadFile(p); !strings.Contains(string(data), "players:") {
			t.Fatalf("%s: %q", p, data)
		}
	}
}

// TestETANeverNegative: an ETA beyond what time.Duration holds turned
// negative; it is capped instead.
func TestETANeverNegative(t *testing.T) {
	var b strings.Builder
	p := newRunProgress(&env{stderr: &b})
	p.StartGeneration(0, 100000, 10)
	p.start = time.Now().Add(-200000 * time.Hour) // a generation of 23 years
	p.EndGeneration(0, engineStats(), engineBest())
	if strings.Contains(b.String(), "ETA -") || !strings.Contains(b.String(), "ETA 36500d0h") { // 876,000 hours
		t.Fatalf("progress line: %s", b.String())
	}
}

func engineStats() engine.GenStats {
	return engine.GenStats{Generation: 1, Best: 40, Mean: 50, Games: 10}
}
func engineBest() engine.Member {
	return engine.Member{Figure: fitness.Figure{Fitness: 40, Games: 10, CI95: [2]float64{39, 41}}}
}
