package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

func init() { addCommand(newPerftCmd) }

// maxPerftDepth bounds perft --depth: no game here has a perft beyond a
// few dozen plies within reach, and the counts are kept per depth.
const maxPerftDepth = 64

// perftOptions are the flags and argument of evotune perft.
type perftOptions struct {
	e     *env
	game  string
	depth int
	json  bool
	rules kvFlag
}

func newPerftCmd(e *env) *cobra.Command {
	o := &perftOptions{e: e, rules: kvFlag{}}
	cmd := &cobra.Command{
		Use:   "perft GAME --depth D",
		Short: "Count move sequences (hadron, mnk)",
		Long: `Count the distinct legal move sequences of exactly d moves from the start, for
d = 1..D (a game that ends earlier is not extended), under the game's rule
options. --json prints one JSON document:
{"game", "options", "perft": [{"depth", "nodes"}]}.

The rule options were once written --OPTION VALUE (--size 9); that form still
works, with a note to write --rule OPTION=VALUE instead.`,
		Example: `  evotune perft hadron --rule size=9 --depth 4
  evotune perft mnk --rule m=3 --rule n=3 --rule k=3 --depth 9
  evotune perft mnk --rule m=7 --rule n=6 --rule k=4 --rule gravity=true --depth 9   # Connect Four`,
		Annotations:       map[string]string{legacyRuleFlags: ""},
		ValidArgsFunction: completePerftGame,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("want exactly one GAME, got %d arguments; usage: evotune perft GAME --depth D [--rule KEY=VALUE ...]", len(args))
			}
			o.game = args[0]
			if err := o.check(cmd.Flags()); err != nil {
				return err
			}
			return onInterrupt(cmd.Context(), e, "", func(ctx context.Context, _ <-chan struct{}) error {
				return o.run(ctx)
			})
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.depth, "depth", 0, "count sequences of 1 to `D` moves (required)")
	fs.BoolVar(&o.json, "json", false, "print one JSON document instead of lines")
	addRuleFlag(fs, o.rules)
	completeRuleFlag(cmd)
	return cmd
}

// check checks every flag once parsed, changing nothing.
func (o *perftOptions) check(fs *pflag.FlagSet) error {
	switch {
	case !fs.Changed("depth"):
		return usagef("--depth is required and must be at least 1")
	case o.depth < 1:
		return usagef("--depth %q: want a whole number of at least 1", strconv.Itoa(o.depth))
	case o.depth > maxPerftDepth:
		return usagef("--depth %d: more than the limit of %d", o.depth, maxPerftDepth)
	}
	return nil
}

func (o *perftOptions) run(ctx context.Context) error {
	g, err := catalog.New(o.game, o.rules)
	if err != nil {
		return asUsage(err)
	}
	p, ok := g.(fitness.Perfter)
	if !ok {
		return usagef("%s has no move generator to count", g.Name())
	}
	// Perft does not stop midway; an interrupt returns at once and leaves
	// the count to finish unseen (the process is about to exit).
	done := make(chan []uint64, 1)
	go func() { done <- p.Perft(o.depth) }()
	var counts []uint64
	select {
	case counts = <-done:
	case <-ctx.Done():
		return ctx.Err()
	}
	if o.json {
		type row struct {
			Depth int    `json:"depth"`
			Nodes uint64 `json:"nodes"`
		}
		doc := struct {
			Game    string            `json:"game"`
			Options map[string]string `json:"options"`
			Perft   []row             `json:"perft"`
		}{Game: g.Name(), Options: o.rules}
		for i, n := range counts {
			doc.Perft = append(doc.Perft, row{i + 1, n})
		}
		return writeJSON(o.e.stdout, doc)
	}
	for i, n := range counts {
		fmt.Fprintf(o.e.stdout, "perft(%d) = %d\n", i+1, n)
	}
	return nil
}
