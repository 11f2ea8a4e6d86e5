//go:build !linux

package natsqueue

import "net"

// canTellOwner: no portable list of sockets' owners.
const canTellOwner = false

// serverUID cannot tell a socket's owner here: servers on this machine
// count as another machine's (TLS proves them).
func serverUID(local, remote *net.TCPAddr) (uid int, found bool, err error) {
	return 0, false, nil
}
