//go:build linux

package natsqueue

import (
	"net"
	"os"
	"strconv"
	"testing"
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
