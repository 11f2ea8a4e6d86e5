package cli

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"
)

// TestVersion: 'evotune version' and 'evotune --version' print the same
// build lines, naming this binary's Go version and platform; --json
// carries the same figures.
func TestVersion(t *testing.T) {
	code, out, errs := run(t, "version")
	if code != ExitOK || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	for _, want := range []string{"evotune ", "\ncommit:   ", "\ngo:       " + runtime.Version() + "\n", "\nplatform: " + runtime.GOOS + "/" + runtime.GOARCH} {
		if !strings.Contains(out, want) {
			t.Errorf("version does not say %q:\n%s", want, out)
		}
	}
	code, flag, errs := run(t, "--version")
	if code != ExitOK || errs != "" || flag != out {
		t.Fatalf("--version: exit %d, stderr %q, stdout %q; want %q", code, errs, flag, out)
	}
	code, doc, errs := run(t, "version", "--json")
	var v struct {
		Go, OS, Arch, Version string
		Modified              *bool
	}
	if code != ExitOK || errs != "" || json.Unmarshal([]byte(doc), &v) != nil {
		t.Fatalf("--json: exit %d, stderr %q, stdout %q", code, errs, doc)
	}
	if v.Go != runtime.Version() || v.OS != runtime.GOOS || v.Arch != runtime.GOARCH || v.Version == "" || v.Modified == nil {
		t.Fatalf("--json: %s", doc)
	}
	if code, _, errs := run(t, "version", "extra"); code != ExitUsage || errs != "evotune version: want no arguments, got 1 (extra)\n" {
		t.Fatalf("version extra: exit %d, stderr %q", code, errs)
	}
}
