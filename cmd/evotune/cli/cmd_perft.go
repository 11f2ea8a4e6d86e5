package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
)

const perftUsage = `Usage: evotune perft GAME --depth D [--OPTION VALUE ...] [--json]

--json prints one JSON document: {"game", "options", "perft": [{"depth", "nodes"}]}.

Count the distinct legal move sequences of exactly d moves from the start,
for d = 1..D (a game that ends earlier is not extended). Every other
--OPTION VALUE is a rule option of the game, e.g.
  evotune perft hadron --size 9 --depth 4
  evotune perft mnk --m 3 --n 3 --k 3 --depth 9
  evotune perft mnk --m 7 --n 6 --k 4 --gravity true --depth 9   # Connect Four
`

// maxPerftDepth bounds perft --depth: no game here has a perft beyond a
// few dozen plies within reach, and the counts are kept per depth.
const maxPerftDepth = 64

func runPerft(ctx context.Context, e *env, args []string) error {
	depth, asJSON := 0, false
	opts := map[string]string{}
	var pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			pos = append(pos, a)
			continue
		}
		key, val, hasVal := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch key {
		case "h", "help":
			fmt.Fprint(e.stdout, perftUsage)
			return nil
		case "json":
			asJSON = true
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return usagef("flag --%s needs a value", key)
			}
			i++
			val = args[i]
		}
		if key == "depth" {
			d, err := strconv.Atoi(val)
			if err != nil || d < 1 {
				return usagef("--depth %q: want a whole number of at least 1", val)
			}
			if d > maxPerftDepth {
				return usagef("--depth %d: more than the limit of %d", d, maxPerftDepth)
			}
			depth = d
			continue
		}
		opts[key] = val
	}
	if len(pos) != 1 {
		return usagef("want exactly one GAME; usage: evotune perft GAME --depth D [--OPTION VALUE ...]")
	}
	if depth == 0 {
		return usagef("--depth is required and must be at least 1")
	}
	g, err := catalog.New(pos[0], opts)
	if err != nil {
		return asUsage(err)
	}
	p, ok := g.(fitness.Perfter)
	if !ok {
		return usagef("%s has no move generator to count", g.Name())
	}
	counts := p.Perft(depth)
	if asJSON {
		type row struct {
			Depth int    `json:"depth"`
			Nodes uint64 `json:"nodes"`
		}
		doc := struct {
			Game    string            `json:"game"`
			Options map[string]string `json:"options"`
			Perft   []row             `json:"perft"`
		}{Game: g.Name(), Options: opts}
		for i, n := range counts {
			doc.Perft = append(doc.Perft, row{i + 1, n})
		}
		enc := json.NewEncoder(e.stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(doc)
	}
	for i, n := range counts {
		fmt.Fprintf(e.stdout, "perft(%d) = %d\n", i+1, n)
	}
	return ctx.Err()
}
