// Package golden compares what a test produced with a golden file under
// testdata, or rewrites the file when the test runs with -update (each
// test package declares its own update flag and passes it in).
package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// Check compares got with the file at path; with update it writes got to
// the file instead.
func Check(tb testing.TB, path, got string, update bool) {
	tb.Helper()
	if update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			tb.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run the test with -update to create it)", err)
	}
	if got != string(want) {
		tb.Errorf("%s differs:\n--- got\n%s--- want\n%s", filepath.Base(path), got, want)
	}
}
