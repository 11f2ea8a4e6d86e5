package cli

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestSecretFilesAreBounded: the certificate, key, authority and
// credentials files of run, resume and worker are read before anything
// else is done, through the same limits as every input: a device, a
// FIFO, an oversized or a malformed one is one line and exit 2, with no
// run directory made, never a read that does not end (a --tls-cert of
// /dev/zero grew to 24 GB) or a hang on a FIFO.
func TestSecretFilesAreBounded(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.pem")
	if err := os.WriteFile(big, make([]byte, 1<<20+1), 0o644); err != nil {
		t.Fatal(err)
	}
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join("..", "..", "..", "configs", "quickstart.yaml")
	out := filepath.Join(dir, "run")
	serve := []string{"run", cfg, "--out", out, "--quiet", "--serve=127.0.0.1:1"}
	nats := []string{"run", cfg, "--out", out, "--quiet", "--nats", "nats://127.0.0.1:1"}
	worker := []string{"worker", "nats://127.0.0.1:1", "--wait", "0s"}
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"cert a device", append(serve, "--tls-cert", "/dev/zero", "--tls-key", "/dev/zero"), "--tls-cert /dev/zero: not a regular file (character device)"},
		{"cert a FIFO", append(serve, "--tls-cert", fifo, "--tls-key", notPEM), "--tls-cert " + fifo + ": not a regular file (FIFO)"},
		{"key too large", append(serve, "--tls-cert", notPEM, "--tls-key", big), "--tls-key " + big + ": too large"},
		{"cert not PEM", append(serve, "--tls-cert", notPEM, "--tls-key", notPEM), "--tls-cert " + notPEM + ", --tls-key " + notPEM + ": tls: failed to find any PEM data"},
		{"authority a device", append(nats, "--tls-ca", "/dev/zero"), "--tls-ca /dev/zero: not a regular file (character device)"},
		{"authority not PEM", append(nats, "--tls-ca", notPEM), "--tls-ca " + notPEM + ": no PEM certificate in it"},
		{"credentials a FIFO", append(nats, "--creds", fifo), "--creds " + fifo + ": not a regular file (FIFO)"},
		{"worker's authority a device", append(worker, "--tls-ca", "/dev/zero"), "--tls-ca /dev/zero: not a regular file (character device)"},
		{"worker's credentials too large", append(worker, "--creds", big), "--creds " + big + ": too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, errs := run(t, tc.args...)
			if code != ExitUsage || stdout != "" || !strings.Contains(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Fatalf("exit %d, stdout %q, stderr %q: want exit 2 and one line containing %q", code, stdout, errs, tc.want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Fatalf("the refused command made %s: %v", out, err)
			}
		})
	}
}

// TestServeOnATakenPort: --serve on an address something else listens
// on fails at once (it waited 30 s for the embedded server), in one
// line, exit 1, with no run directory made.
func TestServeOnATakenPort(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, errs := run(t, "run", filepath.Join("..", "..", "..", "configs", "quickstart.yaml"), "--out", out, "--quiet", "--serve="+l.Addr().String())
	want := "cannot listen on " + l.Addr().String()
	if code != ExitFailure || stdout != "" || !strings.Contains(errs, want) || strings.Count(errs, "\n") != 1 {
		t.Fatalf("exit %d, stdout %q, stderr %q: want exit 1 and one line containing %q", code, stdout, errs, want)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Fatalf("the refused run made %s: %v", out, err)
	}
}
