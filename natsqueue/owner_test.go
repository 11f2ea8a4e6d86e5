//go:build linux

package natsqueue

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestServerUIDFindsTheServersEnd: the owner of the server's end of a
// connection is found in the kernel's tables for an IPv4 listener, an
// IPv6 one and a dual-stack one taking IPv4 (whose sockets the kernel
// lists as IPv4 mapped into IPv6); a connection's own end is not taken
// for the server's.
func TestServerUIDFindsTheServersEnd(t *testing.T) {
	for _, tc := range []struct{ listen, dial string }{
		{"127.0.0.1:0", "127.0.0.1"},
		{"[::1]:0", "::1"},
		{"[::]:0", "127.0.0.1"},
	} {
		t.Run(tc.listen, func(t *testing.T) {
			l, err := net.Listen("tcp", tc.listen)
			if err != nil {
				t.Skipf("listen: %v", err)
			}
			defer l.Close()
			c, err := net.Dial("tcp", net.JoinHostPort(tc.dial, strconv.Itoa(l.Addr().(*net.TCPAddr).Port)))
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			local, remote := c.LocalAddr().(*net.TCPAddr), c.RemoteAddr().(*net.TCPAddr)
			uid, found, err := serverUID(local, remote)
			if err != nil || !found || uid != os.Getuid() {
				t.Fatalf("serverUID: uid %d, found %v, %v; want uid %d", uid, found, err, os.Getuid())
			}
			if err := checkOwner(c); err != nil {
				t.Fatalf("checkOwner of this user's server: %v", err)
			}
			// Swapped, the addresses name the client's end of nothing.
			if _, found, _ := serverUID(&net.TCPAddr{IP: remote.IP, Port: remote.Port}, &net.TCPAddr{IP: local.IP, Port: local.Port + 1}); found {
				t.Fatal("found a server end for a connection that does not exist")
			}
		})
	}
}

// TestHelperListen listens on a loopback port, prints it and holds every
// connection, when it runs as the child of TestServerOfAnotherUser.
func TestHelperListen(t *testing.T) {
	if os.Getenv("NATSQUEUE_HELPER_LISTEN") != "1" {
		t.Skip("a helper of TestServerOfAnotherUser")
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(l.Addr())
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close() // held open until the helper is killed
	}
}

// TestHelperDial dials the address in NATSQUEUE_HELPER_DIAL and prints
// what checkOwner says of it, when it runs as a child of
// TestServerOfAnotherUser.
func TestHelperDial(t *testing.T) {
	addr := os.Getenv("NATSQUEUE_HELPER_DIAL")
	if addr == "" {
		t.Skip("a helper of TestServerOfAnotherUser")
	}
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := checkOwner(c); err != nil {
		fmt.Println("refused:", err)
		return
	}
	fmt.Println("accepted")
}

// TestServerOfAnotherUser: a server on this machine whose socket belongs
// to another user is told apart from its client's own end: its owner is
// found in the kernel's tables as that user's, and the connection is
// refused before a token could be sent. Every other test ran client and
// server as one user, so reading the owner of the client's own end (root
// here, always allowed) passed them all.
func TestServerOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to run a server as another user (nobody)")
	}
	dir, err := os.MkdirTemp("", "evotune-owner-")
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
	bin := filepath.Join(dir, "natsqueue.test")
	if err := os.WriteFile(bin, src, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-test.run=^TestHelperListen$")
	cmd.Env = append(os.Environ(), "NATSQUEUE_HELPER_LISTEN=1")
	cmd.Dir = dir
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	addr := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(out).ReadString('\n')
		addr <- strings.TrimSpace(line)
	}()
	var a string
	select {
	case a = <-addr:
	case <-time.After(time.Minute):
		t.Fatal("the other user's server printed no address within a minute")
	}
	c, err := net.Dial("tcp", a)
	if err != nil {
		t.Fatalf("dial the other user's server at %q: %v", a, err)
	}
	defer c.Close()
	uid, found, err := serverUID(c.LocalAddr().(*net.TCPAddr), c.RemoteAddr().(*net.TCPAddr))
	if err != nil || !found || uid != 65534 {
		t.Fatalf("serverUID: uid %d, found %v, %v; want the server's owner, 65534, not the client's", uid, found, err)
	}
	if err := checkOwner(c); !errors.Is(err, ErrNotOwnServer) || !strings.Contains(err.Error(), "belongs to uid 65534") {
		t.Fatalf("checkOwner: %v; want ErrNotOwnServer naming uid 65534", err)
	}
	// Clients of other users: the server's own user's client takes it;
	// a third user's refuses it (the owner of its own end is its own);
	// root's server is taken by anyone.
	root, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	go func() {
		for {
			c, err := root.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	for _, tc := range []struct {
		name   string
		uid    uint32
		server string
		want   string
	}{
		{"the server's own user", 65534, a, "accepted"},
		{"a third user", 65533, a, "refused: natsqueue: the server at " + a + " belongs to another user: it belongs to uid 65534, not to this user (uid 65533)"},
		{"a user, root's server", 65533, root.Addr().String(), "accepted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, "-test.run=^TestHelperDial$")
			cmd.Env = append(os.Environ(), "NATSQUEUE_HELPER_DIAL="+tc.server)
			cmd.Dir = dir
			cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: tc.uid, Gid: tc.uid}}
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if line, _, _ := strings.Cut(string(out), "\n"); !strings.HasPrefix(line, tc.want) {
				t.Fatalf("uid %d dialling %s: %q, want %q", tc.uid, tc.server, line, tc.want)
			}
		})
	}
	// Through the dialer the NATS client uses: refused, and remembered
	// for Connect's message.
	var d ownDialer
	if c2, err := d.Dial("tcp", a); err == nil || !errors.Is(d.refusal(), ErrNotOwnServer) {
		if c2 != nil {
			c2.Close()
		}
		t.Fatalf("ownDialer: %v, refusal %v; want the other user's server refused", err, d.refusal())
	}
}
