package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"github.com/evotune/evotune/natsqueue"
	"github.com/spf13/pflag"
)

// tokenEnv names the environment variable a token may come from, so it
// need not show in the process list.
const tokenEnv = "EVOTUNE_NATS_TOKEN"

// tokenFlags are the flags that give the token coordinators and workers
// share: --token, --token-file, or $EVOTUNE_NATS_TOKEN.
type tokenFlags struct {
	token string
	file  string
}

func (t *tokenFlags) addFlags(fs *pflag.FlagSet, what string) {
	fs.StringVar(&t.token, "token", "", what+" (default $"+tokenEnv+", else the user's token file;\nprefer --token-file or the variable: a flag shows in the process list)")
	fs.StringVar(&t.file, "token-file", "", "read the token from `FILE`, which only its owner may read (mode 600)")
}

// given is the token the flags or the environment give, and where it
// came from; "" when none does.
func (t *tokenFlags) given() (tok, from string, err error) {
	switch {
	case t.token != "" && t.file != "":
		return "", "", usagef("--token and --token-file: choose one")
	case t.token != "":
		if err := natsqueue.CheckToken(t.token); err != nil {
			return "", "", usagef("--token: %v", err)
		}
		return t.token, "--token", nil
	case t.file != "":
		tok, err := natsqueue.ReadTokenFile(t.file, false)
		if err != nil {
			return "", "", usageError{err}
		}
		return tok, "--token-file", nil
	}
	if tok := os.Getenv(tokenEnv); tok != "" {
		if err := natsqueue.CheckToken(tok); err != nil {
			return "", "", usagef("$%s: %v", tokenEnv, err)
		}
		return tok, "$" + tokenEnv, nil
	}
	return "", "", nil
}

// userToken reads the user's token file; make makes it when there is
// none. A file that is not there and not made is no token, not an error.
func userToken(make bool) (tok, path string, made bool, err error) {
	path, err = natsqueue.UserTokenFile()
	if err != nil {
		return "", "", false, err
	}
	if make {
		tok, made, err = natsqueue.UserToken(path)
	} else if tok, err = natsqueue.ReadTokenFile(path, true); errors.Is(err, fs.ErrNotExist) {
		return "", path, false, nil
	}
	if err != nil {
		return "", path, false, usageError{err}
	}
	return tok, path, made, nil
}

// noTokenForPrograms is a worker's refusal to run programs with no
// token to give: the user's token file has no place (why).
func noTokenForPrograms(why error) error {
	return usagef("--allow-programs needs the coordinator's token (--token-file FILE, $%s or --token) or --creds, and %v", tokenEnv, why)
}

// tokenHint says how a user's other workers find the token.
func tokenHint(path string, made bool) string {
	if made {
		return fmt.Sprintf("evotune: made a token for this user's coordinators and workers in %s (mode 600); workers of another user or machine need it: --token-file FILE or $%s", path, tokenEnv)
	}
	return fmt.Sprintf("evotune: workers authenticate with the token in %s; workers of another user or machine need it: --token-file FILE or $%s", path, tokenEnv)
}
