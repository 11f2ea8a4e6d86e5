package cli

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/fitness/chess/uci"
	"github.com/evotune/evotune/fitness/external"
	"github.com/evotune/evotune/genome"
	"github.com/evotune/evotune/internal/printable"
	"github.com/spf13/cobra"
	"gopkg.in/yaml.v3"
)

func init() { addCommand(newGamesCmd) }

// gamesOptions are the flags and argument of evotune games.
type gamesOptions struct {
	e       *env
	args    []string
	rules   kvFlag
	program programFlags
	json    bool
	uci     string // an engine's command: list its options as a space
}

func newGamesCmd(e *env) *cobra.Command {
	o := &gamesOptions{e: e, rules: kvFlag{}}
	cmd := &cobra.Command{
		Use:   "games [GAME]",
		Short: "List games, their rule options, players and tunable parameters",
		Long: `List the games; with GAME, its rule options, players and their tunable parameters
with ranges and defaults, under the default rules or those given with --rule
(the knobs of some players depend on the rules, e.g. mnk's tuned under gravity).`,
		Example: `  evotune games
  evotune games battleship
  evotune games mnk --rule m=7 --rule n=6 --rule k=4 --rule gravity=true
  evotune games battleship --json
  evotune games --command "python3 bots/pig.py"
  evotune games --uci /usr/games/toga2`,
		ValidArgsFunction: completeGame,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.args = args
			return o.run(cmd.Context())
		},
	}
	addRuleFlag(cmd.Flags(), o.rules)
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON document instead of lines (parameters as the player protocol writes them)")
	o.program.add(cmd)
	cmd.Flags().Var(nonEmpty{&o.uci, "a UCI engine and its arguments, such as /usr/games/toga2"}, "uci", "list the options of the UCI engine `COMMAND` (with its arguments, split at spaces)\nas a config's space: for engine players (docs/engines.md)")
	completePlayerFlags(cmd, &o.program)
	return cmd
}

func (o *gamesOptions) run(ctx context.Context) error {
	e := o.e
	if o.uci != "" {
		return o.runUCI(ctx)
	}
	switch {
	case len(o.args) == 0 && o.program.command == "":
		if len(o.rules) > 0 {
			return usagef("--rule needs a GAME")
		}
		if o.json {
			var list gamesList
			for _, g := range catalog.All() {
				list.Games = append(list.Games, gameEntry{g.Name, g.Summary})
			}
			return writeJSON(e.stdout, list)
		}
		for _, g := range catalog.All() {
			fmt.Fprintf(e.stdout, "%-11s %s\n", g.Name, printable.Escape(g.Summary))
		}
		return nil
	case len(o.args) <= 1:
		name, err := oneGame(o.args, &o.program)
		if err != nil {
			return err
		}
		info, err := o.program.lookup(ctx, e, name)
		if err != nil {
			return err
		}
		g, err := info.New(o.rules)
		if err != nil {
			return asUsage(err)
		}
		defer fitness.Close(g)
		if o.json {
			return writeJSON(e.stdout, gameDoc(info, g, o.rules))
		}
		writeGame(e.stdout, info, g)
		return nil
	}
	return usagef("want at most one GAME, got %d", len(o.args))
}

func writeGame(w io.Writer, info fitness.GameInfo, g fitness.Game) {
	// An outside program wrote the names, summaries and choices: each
	// line is escaped (printable), so none can drive the terminal.
	// A line ends with its text: a summary left empty pads nothing.
	line := func(format string, args ...any) {
		fmt.Fprintln(w, strings.TrimRight(printable.Escape(fmt.Sprintf(format, args...)), " "))
	}
	line("%s: %s", info.Name, info.Summary)
	if len(info.Options) > 0 {
		fmt.Fprintln(w, "\nRule options (--rule KEY=VALUE, or rules: in a config):")
	}
	width := 10 // the names' column, as wide as the longest name
	for _, o := range info.Options {
		width = max(width, len(o.Name))
	}
	for _, o := range info.Options {
		line("  %-*s default %-10s %s", width, o.Name, o.Default, o.Summary)
	}
	if len(g.Roles()) > 1 {
		fmt.Fprintln(w)
		line("Roles: %s (head-to-head games; a config's player:), %s (coevolve: player:)", g.Roles()[0], fitness.JoinRoles(g.Roles()[1:]))
	}
	if solo, ok := fitness.SoloOf(g); ok {
		against := "alone"
		if solo.Opponent != "" {
			against = fmt.Sprintf("against a %v (default %s; eval --opponent SPEC)", solo.Opponent, solo.DefaultOpponent)
		}
		fmt.Fprintln(w)
		line("Solo measure: %s, lower is better, played %s", solo.Measure, against)
	}
	fmt.Fprintln(w, "\nPlayers (a SPEC: NAME, NAME@SETTING=VALUE,..., NAME:FILE for a tunable player's values):")
	for _, p := range g.Players() {
		role := ""
		if p.Role != fitness.Mover {
			role = " (" + p.Role.String() + ")"
		}
		if p.Summary == "" {
			line("  %s%s", p.Name, role)
		} else {
			line("  %s%s: %s", p.Name, role, p.Summary)
		}
		for _, s := range p.Settings {
			line("      @%-15s %-6s %-28s default %-10s %s", s.Name, "", p.Name+"@"+s.Name+"=VALUE", s.Default, s.Summary)
		}
		for i := range p.Schema {
			q := &p.Schema[i]
			line("      %-16s %-6s %-28s default %-10s %s%s", q.Name, q.Kind, q.Range(), formatDefault(q), q.Summary, optInNote(q))
		}
	}
}

// gamesList is 'games --json' without a GAME.
type gamesList struct {
	Games []gameEntry `json:"games"`
}

type gameEntry struct {
	Name    string `json:"name"`
	Summary string `json:"summary"`
}

// gameJSON is 'games GAME --json': what the text says, as fields.
type gameJSON struct {
	Name    string            `json:"name"`
	Summary string            `json:"summary"`
	Rules   map[string]string `json:"rules"` // the rule options given with --rule
	Options []optionJSON      `json:"options"`
	Roles   []string          `json:"roles"`
	// HeadToHead says players of the first role meet in seat-swapped
	// pairs (eval --vs, a config's score objective).
	HeadToHead bool        `json:"head_to_head"`
	Solo       *soloJSON   `json:"solo,omitempty"`
	Players    []playerDoc `json:"players"`
}

type optionJSON struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Summary string `json:"summary"`
}

// soloJSON is a game's solo measure; lower is better.
type soloJSON struct {
	Measure         string `json:"measure"`
	Opponent        string `json:"opponent_role,omitempty"`
	DefaultOpponent string `json:"default_opponent,omitempty"`
}

type playerDoc struct {
	Name    string           `json:"name"`
	Role    string           `json:"role"`
	Summary string           `json:"summary"`
	Params  []external.Param `json:"params"`
	// Settings are the player's own settings (NAME@KEY=VALUE).
	Settings []settingJSON `json:"settings"`
}

type settingJSON struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Summary string `json:"summary"`
}

// gameDoc is the JSON of game g under rules.
func gameDoc(info fitness.GameInfo, g fitness.Game, rules map[string]string) gameJSON {
	doc := gameJSON{Name: info.Name, Summary: info.Summary, Rules: rules, HeadToHead: fitness.HasHeadToHead(g)}
	for _, o := range info.Options {
		doc.Options = append(doc.Options, optionJSON{o.Name, o.Default, o.Summary})
	}
	for _, r := range g.Roles() {
		doc.Roles = append(doc.Roles, r.String())
	}
	if solo, ok := fitness.SoloOf(g); ok {
		doc.Solo = &soloJSON{Measure: solo.Measure, Opponent: solo.Opponent.String(), DefaultOpponent: solo.DefaultOpponent}
	}
	for _, p := range g.Players() {
		pd := playerDoc{Name: p.Name, Role: p.Role.String(), Summary: p.Summary, Settings: []settingJSON{}}
		for _, st := range p.Settings {
			pd.Settings = append(pd.Settings, settingJSON{st.Name, st.Default, st.Summary})
		}
		for _, q := range p.Schema {
			pd.Params = append(pd.Params, external.ParamOf(q))
		}
		doc.Players = append(doc.Players, pd)
	}
	return doc
}

// optInNote tells that a knob is searched only where a config names it.
func optInNote(p *genome.Param) string {
	if p.OptIn {
		return " (opt-in: searched only if space: names it)"
	}
	return ""
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

// runUCI lists a UCI engine's options: its knobs as a config's space:
// section, then the options that are not knobs.
func (o *gamesOptions) runUCI(ctx context.Context) error {
	switch {
	case len(o.args) > 0:
		return usagef("--uci lists an engine's options; it takes no GAME (engines play chess)")
	case o.program.command != "":
		return usagef("--uci and --command name two programs; give one")
	case len(o.rules) > 0:
		return usagef("--rule belongs to a GAME, and --uci lists an engine")
	}
	info, err := uci.Describe(ctx, strings.Fields(o.uci), "", nil, 0)
	if err != nil {
		return asUsage(err)
	}
	schema, err := uci.Knobs(info, nil, nil)
	if err != nil {
		return asUsage(err)
	}
	if o.json {
		return writeJSON(o.e.stdout, engineDoc(info, schema))
	}
	writeEngine(o.e.stdout, info, schema)
	return nil
}

// writeEngine writes an engine's options: the knobs as a space: section
// a config can take as it is, one knob a line, the rest as comments.
func writeEngine(w io.Writer, info uci.EngineInfo, schema genome.Schema) {
	line := func(format string, args ...any) {
		fmt.Fprintln(w, printable.Escape(fmt.Sprintf(format, args...)))
	}
	line("# %s by %s", orUnnamed(info.Name), orUnnamed(info.Author))
	fmt.Fprintln(w, "# Its knobs, as a config's space: for player uci:NAME. Each is opt-in: the")
	fmt.Fprintln(w, "# lines kept are tuned, the rest stay at the engine's defaults; narrow a")
	fmt.Fprintln(w, "# range with min: and max:, and see docs/engines.md.")
	fmt.Fprintln(w, "space:")
	entries := make([]string, len(schema))
	width := 0
	for i := range schema {
		p := &schema[i]
		entry := "{}"
		switch p.Kind {
		case genome.Int, genome.Float:
			entry = fmt.Sprintf("{min: %s, max: %s}", p.Format(genome.Value{Num: p.Min}), p.Format(genome.Value{Num: p.Max}))
		case genome.Choice:
			entry = "{choices: [" + strings.Join(yamlWords(p.Choices), ", ") + "]}"
		}
		entries[i] = yamlWord(p.Name) + ": " + entry
		width = max(width, len(entries[i]))
	}
	for i := range schema {
		p := &schema[i]
		line("  %-*s  # %s, default %s", width, entries[i], p.Kind, p.Format(p.Default))
	}
	var rest []uci.Option
	for _, opt := range info.Options {
		if _, ok := schema.Lookup(opt.Name); !ok {
			rest = append(rest, opt)
		}
	}
	if len(rest) > 0 {
		fmt.Fprintln(w, "# Options that are not knobs (a config's options: may set them):")
		for _, opt := range rest {
			switch opt.Type {
			case uci.Spin:
				line("#   %s: %s [%d, %d], default %d", opt.Name, opt.Type, opt.Min, opt.Max, opt.Def)
			case uci.Button:
				line("#   %s: button", opt.Name)
			default:
				line("#   %s: %s, default %q", opt.Name, opt.Type, opt.Default)
			}
		}
	}
	for _, u := range info.Unparsed {
		line("# left out: %s", u)
	}
	fmt.Fprintln(w, "# Settings of uci:NAME (uci:NAME@KEY=VALUE): nodes, depth, movetime, tc, margin")
}

func orUnnamed(s string) string {
	if s == "" {
		return "(it did not say)"
	}
	return s
}

// yamlWord quotes a name YAML would not read back as written.
func yamlWord(s string) string {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte("k: "+s), &n); err == nil && len(n.Content) == 1 && len(n.Content[0].Content) == 2 &&
		n.Content[0].Content[1].Value == s && n.Content[0].Content[1].Tag == "!!str" && !strings.ContainsAny(s, "#:{}[],&*!|>'\"%@`") {
		return s
	}
	return strconv.Quote(s)
}

func yamlWords(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = yamlWord(s)
	}
	return out
}

// engineJSON is 'games --uci COMMAND --json'.
type engineJSON struct {
	Name    string           `json:"name"`
	Author  string           `json:"author"`
	Knobs   []external.Param `json:"knobs"`
	Options []optionDoc      `json:"options"` // every option, knob or not, as declared
	// Unparsed says what was wrong with each option line left out.
	Unparsed []string `json:"unparsed"`
}

type optionDoc struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Default string   `json:"default"`
	Min     *int64   `json:"min,omitempty"`
	Max     *int64   `json:"max,omitempty"`
	Vars    []string `json:"vars,omitempty"`
}

func engineDoc(info uci.EngineInfo, schema genome.Schema) engineJSON {
	doc := engineJSON{Name: info.Name, Author: info.Author, Unparsed: info.Unparsed}
	for _, q := range schema {
		doc.Knobs = append(doc.Knobs, external.ParamOf(q))
	}
	for _, opt := range info.Options {
		d := optionDoc{Name: opt.Name, Type: opt.Type.String(), Default: opt.Default, Vars: opt.Vars}
		if opt.Type == uci.Spin {
			d.Min, d.Max = &opt.Min, &opt.Max
		}
		doc.Options = append(doc.Options, d)
	}
	return doc
}
