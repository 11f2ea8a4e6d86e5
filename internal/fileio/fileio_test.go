package fileio

import (
	"cmp"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// fixtures makes one of each kind of path in a fresh directory.
func fixtures(t *testing.T) map[string]string {
	t.Helper()
	dir := t.TempDir()
	p := func(name string) string { return filepath.Join(dir, name) }
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(p("small"), []byte("game: mnk\n"), 0o644))
	must(os.WriteFile(p("big"), make([]byte, 2048), 0o644))
	must(syscall.Mkfifo(p("fifo"), 0o644))
	must(os.Mkdir(p("dir"), 0o755))
	must(os.Symlink("/dev/zero", p("link-to-zero")))
	must(os.Symlink(p("small"), p("link-to-small")))
	must(os.Symlink(p("elsewhere"), p("dangling")))
	return map[string]string{
		"small": p("small"), "big": p("big"), "fifo": p("fifo"), "dir": p("dir"),
		"zero": "/dev/zero", "link-to-zero": p("link-to-zero"), "link-to-small": p("link-to-small"),
		"dangling": p("dangling"), "absent": p("absent"),
	}
}

// TestReadFile: the readers read regular files through their limit and
// refuse everything else without blocking; the dashboard's
// ReadFileNoFollow refuses links too (they could lead out of the
// directories it serves).
func TestReadFile(t *testing.T) {
	f := fixtures(t)
	tests := []struct {
		name     string
		path     string
		want     error // nil: read succeeds
		noFollow error // ReadFileNoFollow's, where it differs
	}{
		{name: "regular file", path: f["small"]},
		{name: "link to a regular file", path: f["link-to-small"], noFollow: ErrLink},
		{name: "dangling link", path: f["dangling"], want: os.ErrNotExist, noFollow: ErrLink},
		{name: "over the limit", path: f["big"], want: ErrTooLarge},
		{name: "FIFO, without blocking", path: f["fifo"], want: ErrNotRegular},
		{name: "directory", path: f["dir"], want: ErrNotRegular},
		{name: "/dev/zero", path: f["zero"], want: ErrNotRegular},
		{name: "link to /dev/zero", path: f["link-to-zero"], want: ErrNotRegular, noFollow: ErrLink},
		{name: "absent", path: f["absent"], want: os.ErrNotExist},
	}
	for _, tc := range tests {
		for _, r := range []struct {
			name string
			read func(string, int64) ([]byte, error)
			want error
		}{{"ReadFile", ReadFile, tc.want}, {"ReadFileNoFollow", ReadFileNoFollow, cmp.Or(tc.noFollow, tc.want)}} {
			t.Run(r.name+"/"+tc.name, func(t *testing.T) {
				data, err := r.read(tc.path, 1024)
				if r.want == nil {
					if err != nil || string(data) != "game: mnk\n" {
						t.Fatalf("got %q, %v", data, err)
					}
					return
				}
				if !errors.Is(err, r.want) {
					t.Fatalf("err %v, want %v", err, r.want)
				}
			})
		}
	}
}

func TestOpenAppendRefusesLinksAndSpecialFiles(t *testing.T) {
	f := fixtures(t)
	tests := []struct {
		name string
		path string
		want error
	}{
		{"absent: created", f["absent"], nil},
		{"regular file", f["small"], nil},
		{"link to a regular file", f["link-to-small"], ErrLink},
		{"dangling link: nothing created", f["dangling"], ErrLink},
		{"FIFO", f["fifo"], ErrNotRegular},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fh, err := OpenAppend(tc.path)
			if tc.want == nil {
				if err != nil {
					t.Fatal(err)
				}
				fh.Close()
				return
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("err %v, want %v", err, tc.want)
			}
		})
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(f["dangling"]), "elsewhere")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a dangling link's target was created: %v", err)
	}
}

// TestReadTail reads the end of a file through its limit, and refuses
// what ReadFileNoFollow refuses.
func TestReadTail(t *testing.T) {
	f := fixtures(t)
	data, cut, err := ReadTail(f["small"], 4)
	if err != nil || string(data) != "mnk\n" || !cut {
		t.Errorf("the last 4 bytes: %q, cut %v, %v", data, cut, err)
	}
	data, cut, err = ReadTail(f["small"], 100)
	if err != nil || string(data) != "game: mnk\n" || cut {
		t.Errorf("the whole file: %q, cut %v, %v", data, cut, err)
	}
	for _, name := range []string{"link-to-small", "fifo", "zero", "dir"} {
		if _, _, err := ReadTail(f[name], 100); err == nil {
			t.Errorf("%s: read", name)
		}
	}
}
