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
		{"readable by others alone", write("wr", "abc\n", 0o604), "", "mode 0604"},
		{"writable by the group alone", write("gw", "abc\n", 0o620), "", "mode 0620"},
		{"executable by others alone", write("wx", "abc\n", 0o601), "", "mode 0601"},
		{"a link", link, "", "a symbolic link"},
		{"empty", write("empty", "\n\n", 0o600), "", "empty token"},
		{"two words", write("two", "abc def\n", 0o600), "", "one word"},
		{"a control character", write("ctl", "ab\x1bc\n", 0o600), "", "one word"},
		{"a DEL", write("del", "ab\x7fc\n", 0o600), "", "one word"},
		{"a tab inside", write("tab", "ab\tc\n", 0o600), "", "one word"},
		{"the printable ends", write("ends", "!~\n", 0o600), "!~", ""},
		// Blanks about the token are the line's, not the token's: a file
		// saved with CR LF line ends, or with a space after the token.
		{"a CR LF line end", write("crlf", "abc\r\n", 0o600), "abc", ""},
		{"blanks about it", write("blanks", " \tabc \n\n", 0o600), "abc", ""},
		{"missing", filepath.Join(dir, "none"), "", "no such file"},
		{"too large", write("big", strings.Repeat("a", maxTokenFile+1), 0o600), "", "too large"},
		{"as large as allowed", write("most", strings.Repeat("a", maxTokenFile), 0o600), strings.Repeat("a", maxTokenFile), ""},
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

// TestTokenFileOfAnotherUser: a token file another user owns (but root)
// is a token that user can read, so it is refused even where this user
// may read it (root reads every file): before, a root worker given
// --token-file in a shared directory used a token its owner, nobody,
// had written and knew. A file of this user's or root's is read.
func TestTokenFileOfAnotherUser(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("needs root, to give a file to another user (nobody)")
	}
	dir := t.TempDir()
	theirs := filepath.Join(dir, "theirs")
	if err := os.WriteFile(theirs, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chown(theirs, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	for _, own := range []bool{false, true} {
		if got, err := ReadTokenFile(theirs, own); err == nil || !strings.Contains(err.Error(), "owned by uid 65534") {
			t.Errorf("own %v: got %q, %v; want a refusal naming its owner", own, got, err)
		}
	}
	mine := filepath.Join(dir, "mine")
	if err := os.WriteFile(mine, []byte("s3cret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadTokenFile(mine, false); err != nil || got != "s3cret" {
		t.Errorf("this user's file: %q, %v", got, err)
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

// TestRedact: a token or password in a URL, in each URL of a list, or in
// something Go's parser refuses, never survives Redact.
func TestRedact(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"nats://127.0.0.1:4222", "nats://127.0.0.1:4222"},
		{"nats://s3cret@127.0.0.1:4222", "nats://REDACTED@127.0.0.1:4222"},
		{"nats://u:s3cret@host:4222", "nats://REDACTED@host:4222"},
		{"nats://a:1, nats://s3cret@b:2", "nats://a:1, nats://REDACTED@b:2"},
		{"nats://s3cret@[::1:4222", "nats://REDACTED@[::1:4222"},
		{"s3cret@host:4222", "REDACTED@host:4222"},
		{"nats://s3c%zzret@host:4222", "nats://REDACTED@host:4222"},
	} {
		if got := Redact(tc.in); got != tc.want || strings.Contains(got, "s3c") {
			t.Errorf("Redact(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestTokenDirectoryIsTheUsers: the user's own token file is read, or
// made, only in a directory no other user can change: another user who
// owned ~/.config/evotune, or could write it, could remove the token (its
// owner's coordinators and workers would no longer meet) or replace it.
// A directory others may read but not write is the user's still.
func TestTokenDirectoryIsTheUsers(t *testing.T) {
	for _, tc := range []struct {
		name    string
		mode    os.FileMode
		uid     int // -1: this user
		wantErr string
	}{
		{"this user's, 700", 0o700, -1, ""},
		{"this user's, others may read it", 0o755, -1, ""},
		{"this user's, the group may read it", 0o750, -1, ""},
		{"the group may write it", 0o770, -1, "has mode 0770: other users could remove or replace the token; run: chmod go-w"},
		{"only the group may write it", 0o720, -1, "has mode 0720"},
		{"others may write it", 0o702, -1, "has mode 0702"},
		{"others may write it, sticky or not", 0o777, -1, "has mode 0777"},
		{"another user's, 700", 0o700, 65534, "belongs to uid 65534"},
		{"another user's, open to all", 0o755, 65534, "belongs to uid 65534"},
		{"root's", 0o700, 0, "belongs to uid 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.uid >= 0 && os.Getuid() != 0 {
				t.Skip("needs root, to give a directory to another user")
			}
			if tc.uid == os.Getuid() {
				t.Skip("root's own directory is this user's")
			}
			dir := filepath.Join(t.TempDir(), "evotune")
			if err := os.Mkdir(dir, 0o700); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, "token")
			if err := os.WriteFile(path, []byte("s3cret\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(dir, tc.mode); err != nil {
				t.Fatal(err)
			}
			if tc.uid >= 0 {
				if err := os.Chown(dir, tc.uid, tc.uid); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ReadTokenFile(path, true)
			made, _, err2 := UserToken(path)
			switch {
			case tc.wantErr == "" && (err != nil || got != "s3cret" || err2 != nil || made != "s3cret"):
				t.Fatalf("refused: %q, %v; %q, %v", got, err, made, err2)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), dir)):
				t.Fatalf("read %q, %v; want an error saying %q", got, err, tc.wantErr)
			case tc.wantErr != "" && (err2 == nil || !strings.Contains(err2.Error(), tc.wantErr)):
				t.Fatalf("UserToken: %q, %v; want an error saying %q", made, err2, tc.wantErr)
			}
			// A file given with --token-file is not the user's own: its
			// directory is the user's to choose.
			if got, err := ReadTokenFile(path, false); err != nil || got != "s3cret" {
				t.Fatalf("--token-file in that directory: %q, %v", got, err)
			}
		})
	}
	// Made in a directory of another user's, the token is refused before
	// any file is written.
	if os.Getuid() == 0 {
		dir := filepath.Join(t.TempDir(), "evotune")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		if _, _, err := UserToken(filepath.Join(dir, "token")); err == nil || !strings.Contains(err.Error(), "belongs to uid 65534") {
			t.Fatalf("made in another user's directory: %v", err)
		}
		if entries, _ := os.ReadDir(dir); len(entries) != 0 {
			t.Fatalf("files left in another user's directory: %v", entries)
		}
	}
}
