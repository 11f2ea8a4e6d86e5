//go:build unix

package buildinfo

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// TestHelperPrintOwn prints the process's own build as JSON when it runs
// as the child of TestUnreadableBinaries.
func TestHelperPrintOwn(t *testing.T) {
	if os.Getenv("EVOTUNE_PRINT_OWN") != "1" {
		t.Skip("a helper of TestUnreadableBinaries")
	}
	data, err := json.Marshal(Own())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(string(data))
}

// TestUnreadableBinaries: a binary its user may run but not read (mode
// 111) has no SHA-256 to show, and two such builds are one build only as
// far as the rest of what they say agrees: an empty hash equal to an
// empty hash proves nothing. This test binary, unread, run as another
// user, is refused beside itself read (whose hash is known), and beside
// another unread copy, for it names no commit (go test does not stamp
// one).
func TestUnreadableBinaries(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a binary as a user who cannot read it")
	}
	dir, err := os.MkdirTemp("", "evotune-unread-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile(os.Args[0])
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "unread")
	if err := os.WriteFile(bin, src, 0o111); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(bin, 0o111); err != nil {
		t.Fatal(err)
	}
	run := func() Info {
		cmd := exec.Command(bin, "-test.run=^TestHelperPrintOwn$")
		cmd.Env = append(os.Environ(), "EVOTUNE_PRINT_OWN=1")
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("the unread binary as nobody: %v\n%s", err, out)
		}
		line, _, _ := strings.Cut(string(out), "\n")
		var in Info
		if err := json.Unmarshal([]byte(line), &in); err != nil {
			t.Fatalf("%v: %q", err, out)
		}
		return in
	}
	unread := run()
	if unread.Executable != "" || unread.Go != runtime.Version() || unread.OS != runtime.GOOS || unread.Arch != runtime.GOARCH {
		t.Fatalf("the unread binary says %+v; want no hash, this build's Go and platform", unread)
	}
	own := Own()
	if own.Executable == "" {
		t.Skip("this binary cannot be read either")
	}
	if own.Revision != "" {
		t.Skip("a stamped build: its clean commit would make the two one build")
	}
	for _, pair := range [][2]Info{{own, unread}, {unread, own}, {unread, run()}} {
		if err := Compatible(pair[0], pair[1]); !errors.Is(err, ErrOtherBuild) || !strings.Contains(err.Error(), "of no known commit") {
			t.Errorf("coordinator %s, worker %s: %v; want them refused, no commit known", pair[0].Short(), pair[1].Short(), err)
		}
	}
}
