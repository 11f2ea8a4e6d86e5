package natsqueue

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
)

// ErrNotOwnServer is returned for a server on this machine whose socket
// belongs to another user.
var ErrNotOwnServer = errors.New("belongs to another user")

// ownDialer dials a server and, when the server is on this machine,
// hands the connection to the NATS client (which sends the token in its
// first message, in the clear unless TLS) only if the server's socket
// belongs to this process's user or to root. On a shared machine any
// user may take a port: a coordinator's before it listens, or after it
// stops while its workers reconnect; the loopback proves nothing.
type ownDialer struct {
	d    net.Dialer
	mu   sync.Mutex
	last error // the last refusal, for Connect's message
}

func (o *ownDialer) Dial(network, address string) (net.Conn, error) {
	c, err := o.d.Dial(network, address)
	if err != nil {
		return nil, err
	}
	if err := checkOwner(c); err != nil {
		c.Close()
		if errors.Is(err, errOwnerNotFound) {
			// The connection was reset before its server's end could be
			// read (a coordinator's port check, say): not a refusal.
			return nil, err
		}
		o.mu.Lock()
		o.last = err
		o.mu.Unlock()
		return nil, err
	}
	return c, nil
}

// errOwnerNotFound: a loopback connection's server end is not in the
// kernel's list, which happens when the connection is reset as it is
// made; Connect tries again.
var errOwnerNotFound = errors.New("its socket is not in the kernel's list")

// refusal returns the last server the dialer refused, if any.
func (o *ownDialer) refusal() error {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.last
}

// checkOwner refuses a connection whose server, on this machine, runs as
// another user than this process's and root.
func checkOwner(c net.Conn) error {
	local, ok1 := c.LocalAddr().(*net.TCPAddr)
	remote, ok2 := c.RemoteAddr().(*net.TCPAddr)
	if !ok1 || !ok2 || !canTellOwner {
		return nil // not TCP, or no way to tell (see owner_other.go)
	}
	uid, found, err := serverUID(local, remote)
	switch {
	case err != nil:
		return fmt.Errorf("natsqueue: the server at %s: cannot tell whose it is: %w", remote, err)
	case !found && remote.IP.IsLoopback():
		return fmt.Errorf("natsqueue: the server at %s: cannot tell whose it is (%w)", remote, errOwnerNotFound)
	case !found:
		return nil // another machine's: TLS (--tls-ca) is what proves it
	case uid != os.Getuid() && uid != 0:
		return fmt.Errorf("natsqueue: the server at %s %w: it belongs to uid %d, not to this user (uid %d) or root; "+
			"another user may have taken the coordinator's port, so the token is not sent (a server of another user proves itself with TLS: --tls-ca)",
			remote, ErrNotOwnServer, uid, os.Getuid())
	}
	return nil
}
