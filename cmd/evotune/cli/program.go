package cli

import (
	"context"
	"strings"
	"time"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/external"
	"github.com/spf13/cobra"
)

// programFlags name an outside program that plays a game (docs/protocol.md),
// for the commands that take a GAME.
type programFlags struct {
	command string
	dir     string
	env     kvFlag
	timeout time.Duration
	// engines is a config file or run directory whose engines: the
	// command plays (uci:NAME players); book a book file, --rule book=.
	engines string
	book    string
}

func (p *programFlags) add(cmd *cobra.Command) {
	fs := cmd.Flags()
	p.env = kvFlag{}
	fs.Var(nonEmpty{&p.command, `a program and its arguments, such as "python3 bots/pig.py"`}, "command", "`PROGRAM` that plays the game through evotune's protocol, with its arguments\nsplit at spaces (\"python3 bots/pig.py\"); GAME may then be left out")
	fs.StringVar(&p.dir, "dir", "", "working `DIR` of the --command program (default: the current directory)")
	fs.Var(p.env, "env", "extra environment variable `KEY=VALUE` of the --command program (repeatable)")
	fs.DurationVar(&p.timeout, "timeout", 0, "longest wait for a --command program's reply, per game (default 30s)")
	_ = cmd.MarkFlagDirname("dir")
	fs.Var(nonEmpty{&p.engines, "a config file or a run directory"}, "engines", "the UCI engines of `PATH`'s engines: section (a config file, or a run directory:\nits run's), played as uci:NAME")
	fs.Var(nonEmpty{&p.book, "an EPD or PGN file"}, "book", "the openings of an EPD or PGN `FILE` (--rule book=FILE, for chess)")
}

// lookup returns the game called name: from the catalog, or, with
// --command, the program's (whose game name must then match, if given).
// The program's stderr goes to e.stderr.
func (p *programFlags) lookup(ctx context.Context, e *env, name string) (fitness.GameInfo, error) {
	if p.command == "" {
		for _, f := range []struct {
			name string
			set  bool
		}{{"--dir", p.dir != ""}, {"--env", len(p.env) > 0}, {"--timeout", p.timeout != 0}} {
			if f.set {
				return fitness.GameInfo{}, usagef("%s belongs to --command, and there is none", f.name)
			}
		}
		if name == "" {
			return fitness.GameInfo{}, usagef("name a GAME (see 'evotune games') or a --command")
		}
		info, err := catalog.Lookup(name)
		return info, asUsage(err)
	}
	if p.timeout < 0 {
		return fitness.GameInfo{}, usagef("--timeout %v: want a positive duration", p.timeout)
	}
	argv := strings.Fields(p.command)
	c := external.NewCommand(argv, ".", p.dir, p.env)
	c.Timeout, c.Stderr = p.timeout, e.stderr
	c.StderrShown = true // its lines reach the terminal as it writes them
	desc, err := external.Describe(ctx, c)
	if err != nil {
		return fitness.GameInfo{}, asUsage(err)
	}
	if name != "" && name != desc.Game {
		return fitness.GameInfo{}, usagef("GAME %s, but %s plays %s", name, p.command, desc.Game)
	}
	return desc.Info(c), nil
}

// oneGame reads the optional GAME argument of a command that takes at
// most one.
func oneGame(pos []string, p *programFlags) (string, error) {
	switch {
	case len(pos) == 1:
		return pos[0], nil
	case len(pos) == 0 && p.command != "":
		return "", nil
	}
	return "", usagef("want exactly one GAME, got %d arguments (%s); see 'evotune games'", len(pos), strings.Join(pos, " "))
}
