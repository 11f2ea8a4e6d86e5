package natsqueue

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

func TestLoopback(t *testing.T) {
	for _, tc := range []struct {
		addr string
		want bool
	}{
		{"127.0.0.1:4222", true},
		{"localhost:4222", true},
		{"[::1]:4222", true},
		{"127.8.9.10:1", true},
		{"0.0.0.0:4222", false},
		{"[::]:4222", false},
		{"coord.example:4222", false},
		{"10.0.0.1:4222", false},
		{"127.0.0.1", false}, // not HOST:PORT
	} {
		if got := Loopback(tc.addr); got != tc.want {
			t.Errorf("Loopback(%q) = %v, want %v", tc.addr, got, tc.want)
		}
	}
}

// TestReadTokenFile: a token file is read only when no one but its
// owner can read or write it, is the file itself, and holds one word.
func TestReadTokenFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil { // past the umask
			t.Fatal(err)
		}
		return p
	}
	good := write("good", "s3cret\n", 0o600)
	link := filepath.Join(dir, "link")
	if err := os.Symlink(good, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, want, wantErr string
	}{
		{"owner only", good, "s3cret", ""},
		{"read-only for its owner", write("ro", "abc", 0o400), "abc", ""},
		{"readable by others", write("world", "abc\n", 0o644), "", "lets other users read or write it; run: chmod 600"},
		{"readable by the group", write("group", "abc\n", 0o640), "", "mode 0640"},
		{"writable by others", write("ww", "abc\n", 0o602), "", "mode 0602"},
		{"a link", link, "", "a symbolic link"},
		{"empty", write("empty", "\n\n", 0o600), "", "empty token"},
		{"two words", write("two", "abc def\n", 0o600), "", "one word"},
		{"a control character", write("ctl", "ab\x1bc\n", 0o600), "", "one word"},
		{"missing", filepath.Join(dir, "none"), "", "no such file"},
		{"too large", write("big", strings.Repeat("a", maxTokenFile+1), 0o600), "", "too large"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ReadTokenFile(tc.path, true)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("got %q, %v; want an error saying %q", got, err, tc.wantErr)
			case got != tc.want:
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestUserTokenIsMadeOnceAndPrivate: the first use makes a token file
// only its owner can read, in a directory only its owner can enter; later
// uses, and uses racing the first, all get that one token.
func TestUserTokenIsMadeOnceAndPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "config", "evotune", "token")
	const racers = 8
	toks := make([]string, racers)
	made := make([]bool, racers)
	errs := make([]error, racers)
	var wg sync.WaitGroup
	for i := range racers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			toks[i], made[i], errs[i] = UserToken(path)
		}()
	}
	wg.Wait()
	makers := 0
	for i := range racers {
		if errs[i] != nil {
			t.Fatalf("racer %d: %v", i, errs[i])
		}
		if toks[i] != toks[0] {
			t.Fatalf("racers got two tokens: %q and %q", toks[0], toks[i])
		}
		if made[i] {
			makers++
		}
	}
	if makers != 1 {
		t.Fatalf("%d racers say they made the file, want 1", makers)
	}
	if len(toks[0]) != 2*TokenBytes {
		t.Fatalf("token %q: want %d hex digits", toks[0], 2*TokenBytes)
	}
	for p, want := range map[string]os.FileMode{path: 0o600, filepath.Dir(path): 0o700} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %04o, want %04o", p, fi.Mode().Perm(), want)
		}
	}
	again, made2, err := UserToken(path)
	if err != nil || again != toks[0] || made2 {
		t.Fatalf("second use: %q, made %v, %v; want %q, not made", again, made2, err, toks[0])
	}
	entries, err := os.ReadDir(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 1 {
		t.Fatalf("the token's directory holds %d entries, want the token alone (no temporary files left)", len(entries))
	}
	other, _, err := UserToken(filepath.Join(t.TempDir(), "token"))
	if err != nil || other == toks[0] {
		t.Fatalf("another user's token %q (%v) is this one's", other, err)
	}
}

// TestServeRefusesNoToken: a server that listens, on the loopback too,
// is refused without a token; an in-process one needs none.
func TestServeRefusesNoToken(t *testing.T) {
	if _, err := Serve(ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir()}); err != ErrNoToken {
		t.Fatalf("Serve on the loopback without a token: %v, want ErrNoToken", err)
	}
	srv, err := Serve(ServerOptions{StoreDir: t.TempDir()})
	if err != nil {
		t.Fatalf("an in-process server: %v", err)
	}
	srv.Close()
}

// openServer starts a NATS server on a loopback port that asks its
// clients for nothing, as a plain `nats-server` does.
func openServer(t *testing.T) string {
	t.Helper()
	ns, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true})
	if err != nil {
		t.Fatal(err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		t.Fatal("the open server did not start")
	}
	t.Cleanup(ns.Shutdown)
	return ns.ClientURL()
}

// TestAuthenticates: a server that takes a client with a random token
// (an open one) is told apart from one that asks for its token, whatever
// token the URL carries.
func TestAuthenticates(t *testing.T) {
	open := openServer(t)
	if err := Authenticates(open, ConnectOptions{Name: "test"}); !errors.Is(err, ErrOpenServer) {
		t.Fatalf("an open server: %v, want ErrOpenServer", err)
	}
	srv, err := Serve(ServerOptions{Addr: "127.0.0.1:0", StoreDir: t.TempDir(), Token: "s3cret"})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	closed := "nats://" + srv.Addr().String()
	for _, u := range []string{closed, "nats://s3cret@" + srv.Addr().String()} {
		if err := Authenticates(u, ConnectOptions{Name: "test"}); err != nil {
			t.Fatalf("%s: %v, want nil", Redact(u), err)
		}
	}
	if err := Authenticates("nats://127.0.0.1:1", ConnectOptions{Name: "test"}); err == nil || errors.Is(err, ErrOpenServer) {
		t.Fatalf("no server: %v, want an error other than ErrOpenServer", err)
	}
}
