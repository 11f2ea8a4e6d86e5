package natsqueue

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
)

// canTellOwner: the kernel lists every socket's owner.
const canTellOwner = true

// serverUID finds the server's end of the TCP connection from local to
// remote in the kernel's socket tables (/proc/net/tcp and tcp6) and
// returns its owner: an accepted socket has its listener's. found is
// false when the server's end is not on this machine.
func serverUID(local, remote *net.TCPAddr) (uid int, found bool, err error) {
	for _, table := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(table)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			return 0, false, err
		}
		six := strings.HasSuffix(table, "6")
		// The server's end: its local address is our remote one.
		want := [2]string{procAddr(remote, six), procAddr(local, six)}
		if want[0] == "" || want[1] == "" {
			continue
		}
		sc := bufio.NewScanner(bytes.NewReader(data))
		for sc.Scan() {
			f := strings.Fields(sc.Text())
			// sl local rem st tx:rx tr:when retrnsmt uid timeout inode
			if len(f) < 8 || f[1] != want[0] || f[2] != want[1] {
				continue
			}
			uid, err := strconv.Atoi(f[7])
			if err != nil {
				return 0, false, fmt.Errorf("%s: uid %q", table, f[7])
			}
			return uid, true, nil
		}
	}
	return 0, false, nil
}

// procAddr writes an address as /proc/net/tcp (six false, IPv4 only) or
// tcp6 (IPv6, or IPv4 mapped into it, as a dual-stack listener's
// sockets hold it) does: each 32-bit word of the address as the host
// reads it, then the port, in upper-case hex.
func procAddr(a *net.TCPAddr, six bool) string {
	ip := a.IP.To4()
	if six {
		ip = a.IP.To16()
	} else if ip == nil {
		return ""
	}
	var b strings.Builder
	for i := 0; i < len(ip); i += 4 {
		fmt.Fprintf(&b, "%08X", binary.NativeEndian.Uint32(ip[i:i+4]))
	}
	fmt.Fprintf(&b, ":%04X", a.Port)
	return b.String()
}
