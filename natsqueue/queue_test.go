package natsqueue

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		name, url, wantErr string // wantErr "": accepted
	}{
		{"nats", "nats://127.0.0.1:4222", ""},
		{"no scheme", "10.0.0.5:4222", ""},
		{"a list", "nats://a:4222, tls://b:4222", ""},
		{"websocket", "wss://nats.example.org", ""},
		{"token hidden", "nats://s3cret@:4222", "natsqueue: nats://REDACTED@:4222: no host"},
		{"space in host", "not a url", `natsqueue: not a url: not a server URL`},
		{"http", "http://127.0.0.1:4222", `natsqueue: http://127.0.0.1:4222: scheme "http", want nats, tls, ws or wss`},
		{"empty", "", "natsqueue: : no host"},
		{"empty in a list", "nats://a:4222,", "natsqueue: nats://a:4222,: no host"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckURL(tc.url)
			got := ""
			if err != nil {
				got = err.Error()
			}
			if got != tc.wantErr {
				t.Fatalf("CheckURL(%q) = %q, want %q", tc.url, got, tc.wantErr)
			}
		})
	}
}

func TestCheckListen(t *testing.T) {
	for _, tc := range []struct {
		name, addr, token string
		want              error // nil: accepted
		wantText          string
	}{
		{"loopback without token", "127.0.0.1:4222", "", ErrNoToken, "needs a token"},
		{"localhost without token", "localhost:0", "", ErrNoToken, "needs a token"},
		{"ipv6 loopback without token", "[::1]:4222", "", ErrNoToken, "needs a token"},
		{"all addresses without token", "0.0.0.0:4222", "", ErrNoToken, "needs a token"},
		{"loopback with token", "127.0.0.1:4222", "s3cret", nil, ""},
		{"all addresses with token", "0.0.0.0:4222", "s3cret", nil, ""},
		{"no port", "127.0.0.1", "s3cret", nil, "want HOST:PORT"},
		{"bad port", "127.0.0.1:99999", "s3cret", nil, "bad port"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckListen(tc.addr, tc.token)
			switch {
			case tc.wantText == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantText != "" && (err == nil || !strings.Contains(err.Error(), tc.wantText)):
				t.Fatalf("got %v, want an error saying %q", err, tc.wantText)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
}

// selfSigned writes a certificate for 127.0.0.1 and its key, and returns
// their paths.
func selfSigned(t *testing.T) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "evotune test"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, IsCA: true, BasicConstraintsValid: true,
		KeyUsage: x509.KeyUsageDigitalSignature | x509.KeyUsageCertSign, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	kder, err := x509.MarshalECPrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cert, key = filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	if err := os.WriteFile(cert, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600); err != nil {
		t.Fatal(err)
	}
	return cert, key
}

// TestTLSAndToken: a TLS server with a token takes a client that trusts
// its certificate and gives the token, and refuses one without the
// token (saying so) or without the certificate authority.
func TestTLSAndToken(t *testing.T) {
	certFile, keyFile := selfSigned(t)
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := Serve(ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "s3cret",
		TLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	url := "tls://" + srv.Addr().String()
	for _, tc := range []struct {
		name     string
		o        ConnectOptions
		wantText string // "": connects
	}{
		{"token and authority", ConnectOptions{Token: "s3cret", CAFile: certFile}, ""},
		{"wrong token", ConnectOptions{Token: "guess", CAFile: certFile}, "refused the token given"},
		{"no authority", ConnectOptions{Token: "s3cret"}, "certificate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			nc, err := Connect(context.Background(), url, tc.o)
			if tc.wantText == "" {
				if err != nil {
					t.Fatal(err)
				}
				nc.Close()
				return
			}
			if err == nil {
				nc.Close()
				t.Fatal("connected")
			}
			if !strings.Contains(err.Error(), tc.wantText) || strings.Contains(err.Error(), "s3cret") {
				t.Fatalf("got %q, want an error saying %q that does not show the token", err, tc.wantText)
			}
		})
	}
}

// newCoordinator serves an embedded server and makes a coordinator on a
// connection to it, all closed at the test's end.
func newCoordinator(t *testing.T) (*nats.Conn, *Coordinator) {
	t.Helper()
	srv, err := Serve(ServerOptions{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	nc, err := srv.Connect("test")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	c, err := NewCoordinator(context.Background(), nc, Settings{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return nc, c
}

// TestShareAndFetch: a worker fetches what the coordinator shared, by its
// hash, and refuses a key that is not one, one never shared, data stored
// under another's hash and data beyond the server's limit.
func TestShareAndFetch(t *testing.T) {
	nc, c := newCoordinator(t)
	ctx := context.Background()
	key, err := c.Share(ctx, []byte("the config"))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := c.Share(ctx, []byte("the config")); err != nil || again != key {
		t.Fatalf("shared again: %q, %v; want %q", again, err, key)
	}
	forged := strings.Repeat("ab", 32)
	if err := nc.Publish(sharedPrefix+forged, []byte("not what ab… is the hash of")); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Share(ctx, make([]byte, MaxPayload+1)); err == nil {
		t.Error("shared more than the server's limit")
	}
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	w := &worker{js: js}
	for _, tc := range []struct {
		name, key string
		want      string // "": fetched
	}{
		{"shared", key, ""},
		{"not a key", "../jobs", "not a key"},
		{"upper case", strings.ToUpper(key), "not a key"},
		{"never shared", strings.Repeat("0", 64), "not shared by the coordinator"},
		{"forged", forged, "is not its own"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var data []byte
			var err error
			// Until the test's own deadline (less a few seconds): the
			// store may be slow on a busy machine, never wrong.
			deadline := proctest.Patience(t)
			for {
				data, err = w.fetch(ctx, tc.key)
				// The forged message was published without waiting for
				// the server to store it.
				if tc.name != "forged" || !errors.Is(err, ErrNotShared) || time.Now().After(deadline) {
					break
				}
				time.Sleep(10 * time.Millisecond)
			}
			switch {
			case tc.want == "" && (err != nil || string(data) != "the config"):
				t.Fatalf("fetched %q, %v", data, err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestBuildsMeet: a worker whose CheckCoordinator refuses the
// coordinator's build (Settings.Build) returns that error before it takes
// a job; the coordinator, hearing the worker's build in its hello,
// refuses it once (OnRefused) and does not count it. The job is
// untouched: with one delivery allowed, a worker of the coordinator's
// build then plays it.
func TestBuildsMeet(t *testing.T) {
	srv, err := Serve(ServerOptions{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	conn := func() *nats.Conn {
		nc, err := srv.Connect("test")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	sameAs := func(want string) func(string) error {
		return func(b string) error {
			if b != want {
				return fmt.Errorf("build %q, not %q", b, want)
			}
			return nil
		}
	}
	var mu sync.Mutex
	var refused []string
	c, err := NewCoordinator(ctx, conn(), Settings{MaxDeliver: 1, Build: "A", CheckWorker: sameAs("A"),
		OnRefused: func(id string, err error) { mu.Lock(); refused = append(refused, id+": "+err.Error()); mu.Unlock() }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	played := make(chan error, 1)
	go func() {
		played <- c.Play(ctx, Wave{Group: "r.0", Jobs: []Job{{ID: "r.0.0", Payload: []byte("job")}},
			Accept: func(_ int, result []byte) error {
				if string(result) != "job played" {
					return fmt.Errorf("result %q", result)
				}
				return nil
			}})
	}()
	other := Work(ctx, conn(), func(context.Context, []byte, Fetch) ([]byte, error) {
		t.Error("a worker of another build played a job")
		return nil, errors.New("another build")
	}, WorkerOptions{Build: "B", CheckCoordinator: sameAs("B")})
	if other == nil || other.Error() != `build "A", not "B"` {
		t.Fatalf("the other build's worker: %v", other)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(refused)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the coordinator was not told of the refused worker")
		}
	}
	if s := c.Workers(); s.Workers != 0 {
		t.Fatalf("a refused worker counted: %+v", s)
	}
	good, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() {
		done <- Work(good, conn(), func(_ context.Context, payload []byte, _ Fetch) ([]byte, error) {
			return append(payload, " played"...), nil
		}, WorkerOptions{Build: "A", CheckCoordinator: sameAs("A")})
	}()
	if err := <-played; err != nil {
		t.Fatalf("the wave: %v", err)
	}
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 1 || !strings.Contains(refused[0], `: build "B", not "A"`) {
		t.Fatalf("refusals: %q; want the other build's worker, once", refused)
	}
}
