package main

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/genome"
)

func runGames(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "games", "[GAME] [--rule KEY=VALUE ...]",
		"List the games; with GAME, its rule options, players and their tunable parameters\n"+
			"with ranges and defaults, under the default rules or those given with --rule\n"+
			"(the knobs of some players depend on the rules, e.g. mnk's tuned under gravity)")
	rules := optionsFlag{}
	fs.Var(rules, "rule", "rule option `KEY=VALUE` (repeatable)")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	switch len(pos) {
	case 0:
		if len(rules) > 0 {
			return usagef("--rule needs a GAME")
		}
		for _, g := range catalog.All() {
			fmt.Fprintf(e.stdout, "%-11s %s\n", g.Name, g.Summary)
		}
		return nil
	case 1:
		info, err := catalog.Lookup(pos[0])
		if err != nil {
			return asUsage(err)
		}
		g, err := info.New(rules)
		if err != nil {
			return asUsage(err)
		}
		writeGame(e.stdout, info, g)
		return nil
	}
	return usagef("want at most one GAME, got %d", len(pos))
}

func writeGame(w io.Writer, info fitness.GameInfo, g fitness.Game) {
	fmt.Fprintf(w, "%s: %s\n\nRule options (--rule KEY=VALUE, or rules: in a config):\n", info.Name, info.Summary)
	for _, o := range info.Options {
		fmt.Fprintf(w, "  %-10s default %-10s %s\n", o.Name, o.Default, o.Summary)
	}
	fmt.Fprintln(w, "\nPlayers:")
	for _, p := range g.Players() {
		role := ""
		if p.Role != fitness.Mover {
			role = " (" + p.Role.String() + ")"
		}
		fmt.Fprintf(w, "  %s%s: %s\n", p.Name, role, p.Summary)
		for i := range p.Schema {
			q := &p.Schema[i]
			fmt.Fprintf(w, "      %-16s %-6s %-28s default %-10s %s\n", q.Name, q.Kind, q.Range(), formatDefault(q), q.Summary)
		}
	}
}

// formatDefault shows a grid's default by its free weights under its own
// symmetry, which is how a person reads a ring grid.
func formatDefault(p *genome.Param) string {
	if p.Kind != genome.Grid {
		return p.Format(p.Default)
	}
	free := genome.Reduce(p.Default.Cells, p.Rows, p.Cols, p.Symmetry)
	parts := make([]string, len(free))
	for i, x := range free {
		parts[i] = fmt.Sprintf("%g", x)
	}
	if len(parts) > 6 {
		parts = append(parts[:6], "...")
	}
	return "[" + strings.Join(parts, " ") + "]"
}
