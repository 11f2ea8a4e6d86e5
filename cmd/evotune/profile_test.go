package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkProfile demands a pprof profile at path: gzip whose content is a
// well-formed protocol buffer (every top-level field's key, wire type and
// length consistent up to the last byte) with the fields of a
// perftools.profiles.Profile that every profile has, sample_type (1) and
// string_table (6), and naming each of want in its strings.
func checkProfile(t *testing.T, path string, want ...string) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatalf("%s: not gzip: %v", path, err)
	}
	pb, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	fields, err := topLevelFields(pb)
	if err != nil || !fields[1] || !fields[6] {
		t.Fatalf("%s: %d bytes, not a pprof profile (fields %v, %v)", path, len(pb), fields, err)
	}
	for _, w := range want {
		if !bytes.Contains(pb, []byte(w)) {
			t.Errorf("%s: no %q in the profile", path, w)
		}
	}
	if stray, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*.tmp")); len(stray) > 0 {
		t.Errorf("temporary files left: %v", stray)
	}
}

// topLevelFields walks a protocol buffer's top-level fields and returns
// the field numbers seen.
func topLevelFields(pb []byte) (map[uint64]bool, error) {
	seen := map[uint64]bool{}
	for len(pb) > 0 {
		key, n := binary.Uvarint(pb)
		if n <= 0 {
			return seen, errors.New("bad key")
		}
		pb = pb[n:]
		switch key & 7 {
		case 0:
			if _, n = binary.Uvarint(pb); n <= 0 {
				return seen, errors.New("bad varint")
			}
		case 1:
			n = 8
		case 2:
			l, m := binary.Uvarint(pb)
			if m <= 0 || l > uint64(len(pb)-m) {
				return seen, errors.New("bad length")
			}
			n = m + int(l)
		case 5:
			n = 4
		default:
			return seen, fmt.Errorf("wire type %d", key&7)
		}
		if n > len(pb) {
			return seen, errors.New("truncated")
		}
		pb, seen[key>>3] = pb[n:], true
	}
	return seen, nil
}

// TestProfileFlags runs run, resume and eval with --cpuprofile and
// --memprofile: each writes a CPU profile (samples of cpu time) and a
// heap profile (allocations and live memory).
func TestProfileFlags(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(cfg, []byte(strings.Replace(killConfig, "generations: 6", "generations: 2", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	runDir := filepath.Join(dir, "run")
	tests := []struct {
		name string
		args []string
	}{
		{"run", []string{"run", cfg, "--out", runDir, "--quiet", "--workers", "1"}},
		{"resume", []string{"resume", runDir, "--generations", "3", "--quiet", "--workers", "1"}},
		{"eval", []string{"eval", "battleship", "--player", "tuned", "--games", "200", "--workers", "1"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cpu, mem := filepath.Join(dir, tc.name+".cpu.prof"), filepath.Join(dir, tc.name+".mem.prof")
			code, _, errs := run(t, append(tc.args, "--cpuprofile", cpu, "--memprofile", mem)...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			checkProfile(t, cpu, "samples", "cpu", "nanoseconds")
			checkProfile(t, mem, "alloc_space", "inuse_space")
		})
	}
}

// TestProfileUnwritable: a profile path that cannot be written is a usage
// error reported at once, in one line naming the flag, before any work.
func TestProfileUnwritable(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no", "such", "dir", "x.prof")
	for _, flagName := range []string{"--cpuprofile", "--memprofile"} {
		for _, args := range [][]string{
			{"eval", "battleship", "--player", "random", "--games", "10"},
			{"run", filepath.Join("..", "..", "configs", "quickstart.yaml"), "--out", filepath.Join(t.TempDir(), "run"), "--quiet"},
		} {
			t.Run(args[0]+flagName, func(t *testing.T) {
				code, out, errs := run(t, append(args, flagName, missing)...)
				if code != ExitUsage {
					t.Fatalf("exit %d, want %d: %s", code, ExitUsage, errs)
				}
				if want := "evotune " + args[0] + ": " + flagName + " " + missing + ": cannot create a file in "; !strings.HasPrefix(errs, want) ||
					strings.Count(errs, "\n") != 1 || out != "" {
					t.Fatalf("stderr %q, stdout %q; want one line starting %q", errs, out, want)
				}
			})
		}
	}
}
