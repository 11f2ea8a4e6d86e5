package natsqueue

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/evotune/evotune/internal/fileio"
)

// A coordinator's embedded server always asks its clients for a token:
// the loopback is no trust boundary on a machine with other users, and a
// client of the server can queue work for a worker that runs programs,
// forge results and stop the run. Without a token given, the coordinator
// uses the one kept in the user's token file (UserTokenFile), made on
// first use with random bytes and readable by its owner only; the
// user's own workers read it from there.

// TokenBytes is the number of random bytes in a made token (hex-encoded).
const TokenBytes = 32

// maxTokenFile bounds a token file: a token is a line of text.
const maxTokenFile = 4 << 10

// ErrNoToken is returned for a server that would listen without a token.
var ErrNoToken = errors.New("natsqueue: a server that listens needs a token")

// UserTokenFile is where the user's token is kept: evotune/token under
// the user's configuration directory ($XDG_CONFIG_HOME or ~/.config).
func UserTokenFile() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("natsqueue: no place for the user's token file: %w", err)
	}
	return filepath.Join(dir, "evotune", "token"), nil
}

// NewToken returns TokenBytes random bytes, hex-encoded.
func NewToken() (string, error) {
	b := make([]byte, TokenBytes)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("natsqueue: make a token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// ReadTokenFile reads the token in path: a regular file (not a link)
// that no one but its owner may read or write, holding one line of
// printable text, owned by this process's user or root (another owner
// can read it). own requires this process's user, as the user's own
// token file must (a file planted by another user would hand them the
// coordinator's clients).
func ReadTokenFile(path string, own bool) (string, error) {
	if own {
		if err := checkTokenDir(filepath.Dir(path)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("token file %s: %w", path, err)
		}
	}
	fi, err := os.Lstat(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		return "", fmt.Errorf("token file %s: a symbolic link; give the file itself", path)
	}
	f, err := fileio.Open(path)
	if err != nil {
		return "", fmt.Errorf("token file %w", err)
	}
	defer f.Close()
	// What is read is what was checked: the open file's own mode and
	// owner, and the same file Lstat saw (not one swapped in since).
	opened, err := f.Stat()
	if err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	if !os.SameFile(fi, opened) {
		return "", fmt.Errorf("token file %s: replaced while it was read", path)
	}
	if perm := opened.Mode().Perm(); perm&0o077 != 0 {
		return "", fmt.Errorf("token file %s: mode %04o lets other users read or write it; run: chmod 600 %s", path, perm, path)
	}
	if uid, ok := fileUID(opened); ok {
		// Its owner can read it: a file of another user (but root) is a
		// token that user knows, and the user's own file must be theirs.
		switch {
		case own && uid != os.Getuid():
			return "", fmt.Errorf("token file %s: owned by uid %d, not by this user (uid %d)", path, uid, os.Getuid())
		case uid != os.Getuid() && uid != 0:
			return "", fmt.Errorf("token file %s: owned by uid %d, who can read it: give a file of this user's (uid %d) or root's", path, uid, os.Getuid())
		}
	}
	data, err := io.ReadAll(io.LimitReader(f, maxTokenFile+1))
	if err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	if len(data) > maxTokenFile {
		return "", fmt.Errorf("token file %s: %w: more than the limit of %s", path, fileio.ErrTooLarge, fileio.Size(maxTokenFile))
	}
	tok := strings.TrimSpace(string(data))
	if err := CheckToken(tok); err != nil {
		return "", fmt.Errorf("token file %s: %w", path, err)
	}
	return tok, nil
}

// checkTokenDir refuses the directory of the user's own token file when
// another user could remove or replace the file in it: the directory is
// another user's, or others may write it. (A token file they replaced
// would be refused as theirs; one they removed would be made again, with
// a token the user's workers do not have: either way the user's
// coordinators and workers could no longer meet.) Where a file's owner
// cannot be told (fileUID), nothing is checked.
func checkTokenDir(dir string) error {
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	uid, ok := fileUID(fi)
	switch {
	case !ok:
		return nil
	case !fi.IsDir():
		return fmt.Errorf("%s is not a directory", dir)
	case uid != os.Getuid():
		return fmt.Errorf("its directory %s belongs to uid %d, not to this user (uid %d), and its owner could remove or replace the token", dir, uid, os.Getuid())
	case fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("its directory %s has mode %04o: other users could remove or replace the token; run: chmod go-w %s", dir, fi.Mode().Perm(), dir)
	}
	return nil
}

// CheckToken refuses a token that cannot be given on a NATS connection:
// empty, or holding spaces or control characters.
func CheckToken(tok string) error {
	if tok == "" {
		return errors.New("empty token")
	}
	for _, r := range tok {
		if r <= ' ' || r == 0x7f {
			return errors.New("a token is one word of printable characters")
		}
	}
	return nil
}

// UserToken returns the token in the user's token file path, making the
// file (mode 0600, in a directory of mode 0700) with a new token if
// there is none. Two processes making it at once agree on one token:
// the file appears whole, by a hard link, or not at all.
func UserToken(path string) (tok string, made bool, err error) {
	tok, err = ReadTokenFile(path, true)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return tok, false, err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", false, fmt.Errorf("natsqueue: make the token file's directory: %w", err)
	}
	if err := checkTokenDir(dir); err != nil {
		return "", false, fmt.Errorf("token file %s: %w", path, err)
	}
	if tok, err = NewToken(); err != nil {
		return "", false, err
	}
	tmp, err := os.CreateTemp(dir, ".token-*")
	if err != nil {
		return "", false, fmt.Errorf("natsqueue: make the token file: %w", err)
	}
	defer os.Remove(tmp.Name())
	_, werr := tmp.WriteString(tok + "\n")
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return "", false, fmt.Errorf("natsqueue: write the token file: %w", werr)
	}
	switch err := os.Link(tmp.Name(), path); {
	case errors.Is(err, fs.ErrExist):
		// Another process made it first: its token is the one.
		tok, err = ReadTokenFile(path, true)
		return tok, false, err
	case err != nil:
		return "", false, fmt.Errorf("natsqueue: make the token file: %w", err)
	}
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		_ = d.Close()
	}
	return tok, true, nil
}
