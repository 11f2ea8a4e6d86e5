//go:build linux

package cli

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/evotune/evotune/internal/proctest"
)

// squat is what another local user runs to catch the clients of a
// coordinator that is not (or no longer) listening on its port: it
// takes the port, greets every client as a NATS server that asks for a
// token, and appends each client's CONNECT line, which holds its
// token, to out.
func squat(addr, out string) {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Println("squatter:", err)
		return
	}
	fmt.Println("listening")
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		go func() {
			defer c.Close()
			fmt.Fprintf(c, "INFO {\"server_id\":\"squatter\",\"version\":\"2.12.0\",\"proto\":1,\"go\":\"go1.26\",\"host\":\"127.0.0.1\",\"max_payload\":1048576,\"auth_required\":true}\r\n")
			line, _ := bufio.NewReader(c).ReadString('\n')
			if f, err := os.OpenFile(out, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644); err == nil {
				f.WriteString(line)
				f.Close()
			}
		}()
	}
}

// TestTokenGoesOnlyToTheUsersOwnServer: on a shared machine another
// local user may take the loopback port of a coordinator that is not
// listening yet (or has stopped, while its workers reconnect). A NATS
// client sends its token in the clear to whatever answers; before, a
// root worker with --allow-programs gave the squatter its token (the
// key to the real coordinator's server, and so to running programs as
// root) before it checked anything. Now a client sends its token to a
// loopback server only when the server's socket belongs to its own user
// or to root, and says whose it is otherwise.
func TestTokenGoesOnlyToTheUsersOwnServer(t *testing.T) {
	dir := openDir(t)
	bin := copyBinary(t, dir)
	out := filepath.Join(dir, "caught")
	addr := freeAddr(t)
	squatter := exec.Command(bin)
	squatter.Env = append(os.Environ(), "EVOTUNE_AS_SQUATTER="+addr, "EVOTUNE_SQUATTER_OUT="+out)
	if !asSecondUser(squatter) {
		t.Skip("needs root, to run the squatter as another user (nobody)")
	}
	said := &proctest.Buffer{}
	squatter.Stdout = said
	if err := squatter.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = squatter.Process.Kill(); _ = squatter.Wait() }()
	proctest.WaitFor(t, "the squatter's port", saysAny(said, "listening", "squatter:"))
	if !strings.Contains(said.String(), "listening") {
		t.Fatal(said.String())
	}
	for _, args := range [][]string{
		{"worker", "nats://" + addr, "--allow-programs", "--token", "s3cret", "--wait", "0s"},
		{"worker", "nats://" + addr, "--token", "s3cret", "--wait", "0s"},
		{"run", writeConfig(t, distConfig), "--out", filepath.Join(t.TempDir(), "run"), "--nats", "nats://" + addr, "--token", "s3cret", "--quiet"},
	} {
		r := proc(t, nil, args...)
		if r.code != int(ExitFailure) || !strings.Contains(r.stderr, "belongs to uid 65534") {
			t.Errorf("evotune %s: exit %d, want %d saying whose the server is:\n%s", args[0], r.code, ExitFailure, r.stderr)
		}
	}
	// A client of a third user (not root, which every test above ran as
	// and which is always allowed its own end): the owner of the client's
	// own end would be its own user, so only the server's end, the
	// squatter's, says whose the server is.
	for _, args := range [][]string{
		{"worker", "nats://" + addr, "--token", "s3cret", "--wait", "0s"},
		{"worker", "nats://" + addr, "--allow-programs", "--token", "s3cret", "--wait", "0s"},
	} {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "EVOTUNE_AS_MAIN=1", "HOME="+dir, "XDG_CONFIG_HOME="+dir)
		cmd.Dir = dir
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65533, Gid: 65533}}
		var errb strings.Builder
		cmd.Stderr = &errb
		err := runWatched(t, cmd)
		var exitErr *exec.ExitError
		if !errors.As(err, &exitErr) || exitErr.ExitCode() != int(ExitFailure) ||
			!strings.Contains(errb.String(), "belongs to uid 65534, not to this user (uid 65533)") {
			t.Errorf("evotune %s as uid 65533: %v, want exit %d saying whose the server is:\n%s", strings.Join(args, " "), err, ExitFailure, errb.String())
		}
	}
	_ = squatter.Process.Kill()
	_ = squatter.Wait()
	if caught, _ := os.ReadFile(out); strings.Contains(string(caught), "s3cret") {
		t.Fatalf("another user's server caught the token: %s", caught)
	}
}
