package natsqueue

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/evotune/evotune/internal/fileio"
	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// DefaultAddr is where an embedded server listens unless told otherwise.
const DefaultAddr = "127.0.0.1:4222"

// MaxPayload is the largest message the embedded server accepts.
const MaxPayload = 8 << 20

// ServerOptions configure an embedded JetStream server.
type ServerOptions struct {
	// Addr is host:port to listen on; "" does not listen at all (only
	// in-process connections, for tests and a coordinator that plays
	// alone).
	Addr string
	// StoreDir holds the server's streams (the run directory's nats/).
	StoreDir string
	// Token is required of every client; a server that listens must
	// have one (see token.go).
	Token string
	// TLS, when set, serves TLS only.
	TLS *tls.Config
}

// Server is an embedded NATS server with JetStream.
type Server struct {
	ns    *server.Server
	token string
}

// Serve starts an embedded server and waits until it takes connections.
func Serve(o ServerOptions) (*Server, error) {
	opts := &server.Options{
		ServerName: "evotune",
		JetStream:  true,
		StoreDir:   o.StoreDir,
		MaxPayload: MaxPayload,
		NoSigs:     true,
		NoLog:      true,
	}
	if o.Addr == "" {
		opts.DontListen = true
	} else {
		if err := CheckListen(o.Addr, o.Token); err != nil {
			return nil, err
		}
		host, port, _ := net.SplitHostPort(o.Addr)
		opts.Host = host
		opts.Port, _ = strconv.Atoi(port)
	}
	opts.Authorization = o.Token
	if o.TLS != nil {
		opts.TLSConfig = o.TLS
		opts.TLS = true
		opts.TLSTimeout = 5
	}
	if o.Addr != "" {
		if err := CanListen(o.Addr); err != nil {
			return nil, err
		}
	}
	if err := makeStore(o.StoreDir); err != nil {
		return nil, err
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("natsqueue: start the embedded server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("natsqueue: the embedded server did not start on %s (is the port taken?)", o.Addr)
	}
	return &Server{ns: ns, token: o.Token}, nil
}

// makeStore makes the server's store directory, or checks the one there
// is a directory: never a symbolic link, which would have the server
// write its store wherever the link points, nor a file, which it could
// not start on (and would be blamed on the port).
func makeStore(dir string) error {
	if dir == "" {
		return nil
	}
	err := os.Mkdir(dir, 0o700)
	if err == nil || !errors.Is(err, fs.ErrExist) {
		if err != nil {
			return fmt.Errorf("natsqueue: make the server's store: %w", err)
		}
		return nil
	}
	fi, err := os.Lstat(dir)
	switch {
	case err != nil:
		return fmt.Errorf("natsqueue: the server's store: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("natsqueue: the server's store %s is a symbolic link; evotune writes its store only in a directory of its own (remove the link)", dir)
	case !fi.IsDir():
		return fmt.Errorf("natsqueue: the server's store %s is not a directory (remove it)", dir)
	}
	return nil
}

// CheckListen refuses a listen address that is not HOST:PORT, and a
// server that would listen without a token.
func CheckListen(addr, token string) error {
	if err := CheckAddr(addr); err != nil {
		return err
	}
	if token == "" {
		return ErrNoToken
	}
	return nil
}

// CheckAddr refuses a listen address that is not HOST:PORT.
func CheckAddr(addr string) error {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("natsqueue: listen address %q: want HOST:PORT", addr)
	}
	if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
		return fmt.Errorf("natsqueue: listen address %q: bad port", addr)
	}
	return nil
}

// CanListen reports, by listening for a moment, whether a server can
// listen on addr now: a port in use is an error in an instant, where
// the embedded server would wait for its start to time out.
func CanListen(addr string) error {
	l, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("natsqueue: cannot listen on %s (is another server there?): %w", addr, errors.Unwrap(err))
	}
	return l.Close()
}

// Loopback reports whether the host of addr (HOST:PORT) only reaches
// this machine.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// URL is the address workers connect to.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Addr is the address the server listens on (with the port it was
// given, when asked for port 0).
func (s *Server) Addr() net.Addr { return s.ns.Addr() }

// Connect opens an in-process connection to the server.
func (s *Server) Connect(name string) (*nats.Conn, error) {
	nc, err := nats.Connect("", nats.InProcessServer(s.ns), nats.Name(name), nats.Token(s.token))
	if err != nil {
		return nil, fmt.Errorf("natsqueue: connect in process: %w", err)
	}
	return nc, nil
}

// Close shuts the server down.
func (s *Server) Close() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}

// ConnectOptions say how to reach a NATS server.
type ConnectOptions struct {
	Name  string
	Token string // also accepted in the URL: nats://TOKEN@host:4222
	// CAFile, when set, is the certificate authority a TLS server's
	// certificate must be signed by.
	CAFile string
	// Creds is a NATS credentials file (of a NATS deployment).
	Creds string
	// Wait is how long to keep trying while no server answers at url
	// (a worker started before its coordinator); 0 tries once.
	Wait time.Duration
	// Waiting, when not nil, is called once if the first try finds no
	// server.
	Waiting func()
	// TokenFrom says where Token came from, for the refusal's message
	// ("" for a token the user gave).
	TokenFrom string
}

// MaxSecretFile bounds a certificate, key, authority or credentials
// file: real ones are a few KiB, and a device or a runaway file must be
// a one-line refusal, not a read that never ends.
const MaxSecretFile = 1 << 20

// readSecret reads a regular file of at most MaxSecretFile bytes.
func readSecret(flag, path string) ([]byte, error) {
	data, err := fileio.ReadFile(path, MaxSecretFile)
	if err != nil {
		return nil, fmt.Errorf("%s %w", flag, err)
	}
	return data, nil
}

// LoadKeyPair reads a TLS server's certificate and key, PEM files
// checked as readSecret does.
func LoadKeyPair(certFile, keyFile string) (tls.Certificate, error) {
	cert, err := readSecret("--tls-cert", certFile)
	if err != nil {
		return tls.Certificate{}, err
	}
	key, err := readSecret("--tls-key", keyFile)
	if err != nil {
		return tls.Certificate{}, err
	}
	pair, err := tls.X509KeyPair(cert, key)
	if err != nil {
		return tls.Certificate{}, fmt.Errorf("--tls-cert %s, --tls-key %s: %w", certFile, keyFile, err)
	}
	return pair, nil
}

// Check reads the files o names (the authority, the credentials) as
// Connect will, so that a missing, oversized or malformed one is
// refused before anything else is done.
func (o ConnectOptions) Check() error {
	_, err := o.fileOptions()
	return err
}

// fileOptions are the client options o's files give.
func (o ConnectOptions) fileOptions() ([]nats.Option, error) {
	var opts []nats.Option
	if o.CAFile != "" {
		pem, err := readSecret("--tls-ca", o.CAFile)
		if err != nil {
			return nil, err
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("--tls-ca %s: no PEM certificate in it", o.CAFile)
		}
		opts = append(opts, nats.Secure(&tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}))
	}
	if o.Creds != "" {
		// The client reads the file again at every connection; it is
		// checked here so that it cannot be a device or a FIFO.
		if _, err := readSecret("--creds", o.Creds); err != nil {
			return nil, err
		}
		opts = append(opts, nats.UserCredentials(o.Creds))
	}
	return opts, nil
}

// Connect connects to the NATS server at url, retrying for a while so a
// worker may start before its coordinator, until ctx ends. A refused
// token is an error that says so.
func Connect(ctx context.Context, addr string, o ConnectOptions) (*nats.Conn, error) {
	opts := []nats.Option{nats.Name(o.Name), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second)}
	if o.Token != "" {
		opts = append(opts, nats.Token(o.Token))
	}
	files, err := o.fileOptions()
	if err != nil {
		return nil, err
	}
	opts = append(opts, files...)
	// Without a certificate authority to prove the server, the token
	// goes only to a server of this user's on this machine (ownDialer).
	own := &ownDialer{d: net.Dialer{Timeout: nats.DefaultTimeout}}
	if o.CAFile == "" {
		opts = append(opts, nats.SetCustomDialer(own))
	}
	deadline := time.Now().Add(o.Wait)
	nc, err := nats.Connect(addr, opts...)
	for notServingYet(err) && own.refusal() == nil && time.Now().Before(deadline) {
		if o.Waiting != nil {
			o.Waiting()
			o.Waiting = nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
		nc, err = nats.Connect(addr, opts...)
	}
	switch refused := own.refusal(); {
	case err != nil && refused != nil:
		return nil, refused
	case (errors.Is(err, nats.ErrAuthorization) || (err != nil && isAuthError(err))) && o.Token == "" && !URLHasSecret(addr):
		return nil, fmt.Errorf("natsqueue: %s asks for a token: give the coordinator's (--token-file FILE, EVOTUNE_NATS_TOKEN or --token)", Redact(addr))
	case (errors.Is(err, nats.ErrAuthorization) || (err != nil && isAuthError(err))) && o.TokenFrom != "":
		return nil, fmt.Errorf("natsqueue: %s refused the token in %s: give the coordinator's (--token-file FILE, EVOTUNE_NATS_TOKEN or --token)", Redact(addr), o.TokenFrom)
	case errors.Is(err, nats.ErrAuthorization) || (err != nil && isAuthError(err)):
		return nil, fmt.Errorf("natsqueue: %s refused the token given: give the coordinator's (--token-file FILE, EVOTUNE_NATS_TOKEN or --token)", Redact(addr))
	case err != nil:
		return nil, fmt.Errorf("natsqueue: connect to %s: %w", Redact(addr), err)
	}
	return nc, nil
}

// notServingYet reports whether a failed connection is one to a
// coordinator that does not serve yet, which Connect waits for: nothing
// listens, or the connection was reset or closed before the server
// spoke. A coordinator checks that its port is free by listening on it
// for a moment before its server does, and a worker started beside it
// may be reset by that listener.
func notServingYet(err error) bool {
	return errors.Is(err, nats.ErrNoServers) || errors.Is(err, errOwnerNotFound) ||
		errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ECONNABORTED) ||
		errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF)
}

// ErrOpenServer is returned by Authenticates for a server that takes
// clients without its token.
var ErrOpenServer = errors.New("takes clients without its token or credentials")

// Authenticates checks that the server at addr refuses a client that
// gives neither its token nor credentials, by trying to connect as one:
// with a random token, o's authority, and nothing else. A worker that
// runs programs takes work only from such a server. It returns
// ErrOpenServer for a server that takes the client.
func Authenticates(addr string, o ConnectOptions) error {
	probe, err := NewToken()
	if err != nil {
		return err
	}
	opts := []nats.Option{nats.Name(o.Name + " (checking the server asks for a token)"), nats.Token(probe), nats.MaxReconnects(0)}
	if o.CAFile != "" {
		files, err := ConnectOptions{CAFile: o.CAFile}.fileOptions()
		if err != nil {
			return err
		}
		opts = append(opts, files...)
	}
	nc, err := nats.Connect(withoutSecrets(addr), opts...)
	switch {
	case err == nil:
		nc.Close()
		return fmt.Errorf("natsqueue: the server at %s %w", Redact(addr), ErrOpenServer)
	case errors.Is(err, nats.ErrAuthorization) || isAuthError(err):
		return nil
	default:
		return fmt.Errorf("natsqueue: check that %s asks for a token: %w", Redact(addr), err)
	}
}

// withoutSecrets is a server URL (or a comma-separated list) without the
// tokens or passwords written in it.
func withoutSecrets(raw string) string {
	parts := strings.Split(raw, ",")
	for i, part := range parts {
		part = strings.TrimSpace(part)
		if !strings.Contains(part, "://") {
			part = "nats://" + part
		}
		if u, err := url.Parse(part); err == nil {
			u.User = nil
			part = u.String()
		}
		parts[i] = part
	}
	return strings.Join(parts, ",")
}

// URLHasSecret reports whether a server URL (or a comma-separated list)
// carries a token or a user and password of its own.
func URLHasSecret(raw string) bool {
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		if !strings.Contains(part, "://") {
			part = "nats://" + part
		}
		if u, err := url.Parse(part); err == nil && u.User != nil {
			return true
		}
	}
	return false
}

func isAuthError(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "authorization") || strings.Contains(s, "authentication")
}

// CheckURL refuses a server URL that cannot name a server: a comma-separated
// list of nats://, tls://, ws:// or wss:// URLs with a host, the scheme
// nats:// when none is written, as the client reads them.
func CheckURL(raw string) error {
	for _, part := range strings.Split(raw, ",") {
		part = strings.TrimSpace(part)
		if !strings.Contains(part, "://") {
			part = "nats://" + part
		}
		u, err := url.Parse(part)
		switch {
		case err != nil:
			return fmt.Errorf("natsqueue: %s: not a server URL", Redact(raw))
		case u.Scheme != "nats" && u.Scheme != "tls" && u.Scheme != "ws" && u.Scheme != "wss":
			return fmt.Errorf("natsqueue: %s: scheme %q, want nats, tls, ws or wss", Redact(raw), u.Scheme)
		case u.Hostname() == "":
			return fmt.Errorf("natsqueue: %s: no host", Redact(raw))
		}
	}
	return nil
}

// Redact hides a token or password written in a URL, or in each URL of
// a comma-separated list, parsed or not.
func Redact(raw string) string {
	parts := strings.Split(raw, ",")
	for i, part := range parts {
		u, err := url.Parse(strings.TrimSpace(part))
		switch {
		case err == nil && u.User == nil && !strings.Contains(part, "@"):
		case err == nil && u.User != nil:
			u.User = url.User("REDACTED")
			parts[i] = strings.Replace(part, strings.TrimSpace(part), u.String(), 1)
		default:
			// Not a URL Go parses: hide whatever stands before an @.
			parts[i] = userinfo.ReplaceAllString(part, "${1}REDACTED@")
		}
	}
	return strings.Join(parts, ",")
}

// userinfo is what may stand for a user, password or token in a URL.
var userinfo = regexp.MustCompile(`^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*://)?)[^/]*@`)
