package cli

import (
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/spf13/pflag"
)

// repoRoot is the module's root, from this package's directory.
var repoRoot = filepath.Join("..", "..", "..")

// docFiles are the user documentation: the README, the changelog, every
// page under docs/, and the READMEs of bench/ and examples/ (paths
// relative to repoRoot).
func docFiles(t *testing.T) []string {
	t.Helper()
	files := []string{"README.md", "CHANGELOG.md", "bench/README.md"}
	examples, err := filepath.Glob(filepath.Join(repoRoot, "examples", "*", "README.md"))
	if err != nil || len(examples) == 0 {
		t.Fatalf("no examples' READMEs: %v", err)
	}
	for _, e := range examples {
		rel, _ := filepath.Rel(repoRoot, e)
		files = append(files, rel)
	}
	err = filepath.WalkDir(filepath.Join(repoRoot, "docs"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".md") {
			rel, _ := filepath.Rel(repoRoot, path)
			files = append(files, rel)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fence is one fenced code block of a markdown file.
type fence struct {
	line  int    // of the opening fence, from 1
	info  string // the language after the backticks
	lines []string
}

// fences returns the fenced code blocks of markdown text, their
// indentation removed, and the text with them blanked out (for links).
func fences(text string) (blocks []fence, prose string) {
	lines := strings.Split(text, "\n")
	var cur *fence
	indent := ""
	out := make([]string, len(lines))
	for i, l := range lines {
		trimmed := strings.TrimLeft(l, " ")
		switch {
		case cur == nil && strings.HasPrefix(trimmed, "```"):
			indent = l[:len(l)-len(trimmed)]
			cur = &fence{line: i + 1, info: strings.TrimSpace(strings.TrimPrefix(trimmed, "```"))}
		case cur != nil && strings.TrimSpace(l) == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.lines = append(cur.lines, strings.TrimPrefix(l, indent))
		default:
			out[i] = l
		}
	}
	return blocks, strings.Join(out, "\n")
}

// shellInfo are the languages of blocks of shell commands.
var shellInfo = []string{"sh", "bash", "shell", "console"}

// shellLines returns the command lines of a shell block: continuation
// lines joined, a console block's prompts stripped (its other lines are
// output).
func shellLines(b fence) []string {
	var out []string
	cur := ""
	for _, l := range b.lines {
		if b.info == "console" {
			if !strings.HasPrefix(l, "$ ") && cur == "" {
				continue
			}
			l = strings.TrimPrefix(l, "$ ")
		}
		if s, ok := strings.CutSuffix(l, "\\"); ok {
			cur += s + " "
			continue
		}
		out = append(out, cur+l)
		cur = ""
	}
	if cur != "" {
		out = append(out, cur)
	}
	return out
}

// shellWords splits a command line into words and operators, as a shell
// would for the purpose here: quotes group (and are removed), a word
// starting with # begins a comment, and | ; & ( ) < > (and a file
// descriptor before a redirection) are operators of their own.
func shellWords(line string) []string {
	var words []string
	var w strings.Builder
	inWord := false
	quote := rune(0)
	flush := func() {
		if inWord {
			words = append(words, w.String())
		}
		w.Reset()
		inWord = false
	}
	rs := []rune(line)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			} else {
				w.WriteRune(c)
			}
		case c == '\'' || c == '"':
			quote, inWord = c, true
		case c == '#' && !inWord:
			flush()
			return words
		case unicode.IsSpace(c):
			flush()
		case strings.ContainsRune("|;&()<>", c):
			if (c == '>' || c == '<') && inWord && strings.Trim(w.String(), "0123456789") == "" {
				w.Reset() // 2> : the descriptor belongs to the operator
				inWord = false
			}
			if c == '(' && inWord && strings.HasSuffix(w.String(), "$") {
				w.WriteRune(c) // $( inside a word: part of the word
				continue
			}
			flush()
			op := string(c)
			for i+1 < len(rs) && strings.ContainsRune("|&>", rs[i+1]) && rs[i+1] == c {
				op += string(rs[i+1])
				i++
			}
			words = append(words, op)
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	flush()
	return words
}

// binarySpellings are the ways a command block may invoke evotune.
const (
	spellInstalled = "evotune"
	spellGoRun     = "go run ./cmd/evotune"
)

// evotuneCommand is one evotune invocation found in a shell line.
type evotuneCommand struct {
	spelling string
	args     []string
}

// evotuneCommands returns the evotune invocations of a command line: each
// segment between operators whose command word (after environment
// assignments and the wrappers nice, time, env, exec) is evotune.
func evotuneCommands(line string) []evotuneCommand {
	var out []evotuneCommand
	var seg []string
	end := func() {
		if c, ok := commandOf(seg); ok {
			out = append(out, c)
		}
		seg = nil
	}
	words := shellWords(line)
	for i := 0; i < len(words); i++ {
		switch w := words[i]; w {
		case "|", "||", "&&", ";", "&", "(", ")", "do", "then", "done":
			end()
		case ">", ">>", "<":
			if i+1 < len(words) && words[i+1] == "(" {
				end() // <(command): a process substitution
				i++
				continue
			}
			i++ // the file
		default:
			seg = append(seg, w)
		}
	}
	end()
	return out
}

var assignment = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*=`)

// commandOf reads one segment of words as an evotune invocation.
func commandOf(seg []string) (evotuneCommand, bool) {
	i := 0
	for i < len(seg) {
		switch w := seg[i]; {
		case assignment.MatchString(w):
			i++
		case w == "nice":
			i++
			if i+1 < len(seg) && seg[i] == "-n" {
				i += 2
			}
		case w == "time" || w == "/usr/bin/time":
			i++
			for i < len(seg) && strings.HasPrefix(seg[i], "-") {
				if seg[i] == "-f" || seg[i] == "-o" {
					i++
				}
				i++
			}
		case w == "env" || w == "exec":
			i++
		default:
			rest := seg[i:]
			switch {
			case rest[0] == "evotune":
				return evotuneCommand{spellInstalled, rest[1:]}, true
			case len(rest) >= 3 && rest[0] == "go" && rest[1] == "run" && rest[2] == "./cmd/evotune":
				return evotuneCommand{spellGoRun, rest[3:]}, true
			case strings.HasSuffix(rest[0], "/evotune"):
				return evotuneCommand{rest[0], rest[1:]}, true
			}
			return evotuneCommand{}, false
		}
	}
	return evotuneCommand{}, false
}

// placeholder reports whether a word stands for a value the reader
// supplies ($VAR, ..., ALL-CAPS names such as RUN_DIR).
func placeholder(w string) bool {
	return strings.Contains(w, "$") || strings.Contains(w, "...") || placeholderName.MatchString(w)
}

// placeholderName is a word in capitals: N, FILE, RUN_DIR.
var placeholderName = regexp.MustCompile(`^[A-Z][A-Z_0-9]*$`)

// sampleValue is a value of a flag's type that stands in for a
// placeholder, so the flags around it still parse.
func sampleValue(f *pflag.Flag) string {
	switch f.Value.Type() {
	case "int", "uint64", "float64":
		return "1"
	case "duration":
		return "1s"
	case "bool":
		return "true"
	case "KEY=VALUE":
		return "k=v"
	}
	return "x"
}

// checkCommand parses args with the real command tree, as Main would, and
// checks what the docs can know to be right: the command exists, its
// flags exist and their values parse, its positional arguments are as
// many as its usage says, its GAME is a known game whose rules and
// players it names exist, and the repository files it names exist.
func checkCommand(args []string) error {
	root := newRootCmd(&env{stdout: io.Discard, stderr: io.Discard})
	cmd, _, err := root.Find(args)
	if err != nil {
		return fmt.Errorf("unknown command: %v", err)
	}
	if cmd == root && len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		return fmt.Errorf("unknown command %q", args[0])
	}
	args, _ = rewriteArgs(cmd, args)
	args = joinServeAddr(args)
	cmd.InitDefaultHelpFlag()
	// Placeholders stand in for values of the flag's type.
	fs := cmd.Flags()
	vals := slices.Clone(args)
	for i := 0; i < len(vals); i++ {
		name, _, hasVal := strings.Cut(strings.TrimLeft(vals[i], "-"), "=")
		if !strings.HasPrefix(vals[i], "-") || hasVal || i+1 >= len(vals) {
			continue
		}
		f := fs.Lookup(name)
		if f == nil && len(name) == 1 {
			f = fs.ShorthandLookup(name)
		}
		if f != nil && f.NoOptDefVal == "" && f.Value.Type() != "bool" {
			if placeholder(vals[i+1]) {
				vals[i+1] = sampleValue(f)
			}
			i++
		}
	}
	var path []string
	for c := cmd; c != root; c = c.Parent() {
		path = append([]string{c.Name()}, path...)
	}
	if err := fs.Parse(vals[len(path):]); err != nil {
		return fmt.Errorf("flags: %v", err)
	}
	pos := fs.Args()
	program := fs.Lookup("command") != nil && fs.Changed("command")
	min, max := usageArgs(cmd.Use)
	if program && strings.Contains(cmd.Use, "GAME") {
		min = 0
	}
	if len(pos) < min || len(pos) > max {
		return fmt.Errorf("%d positional arguments (%q); %s wants %d to %d", len(pos), pos, cmd.Name(), min, max)
	}
	for _, p := range pos {
		if err := repoFile(p); err != nil {
			return err
		}
	}
	if !strings.Contains(cmd.Use, "GAME") || len(pos) == 0 || placeholder(pos[0]) || program {
		return nil
	}
	info, err := catalog.Lookup(pos[0])
	if err != nil {
		return err
	}
	rules := map[string]string{}
	if f := fs.Lookup("rule"); f != nil {
		rules = f.Value.(kvFlag)
	}
	g, err := info.New(rules)
	if err != nil {
		return err
	}
	defer fitness.Close(g)
	for _, flag := range []string{"player", "vs", "opponent", "placer"} {
		f := fs.Lookup(flag)
		if f == nil || !f.Changed {
			continue
		}
		role := g.Roles()[0]
		if flag == "opponent" || flag == "placer" {
			s, _ := fitness.SoloOf(g)
			role = s.Opponent
		}
		var specs []string
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			specs = sv.GetSlice()
		} else {
			specs = []string{f.Value.String()}
		}
		for _, spec := range specs {
			// NAME[@KEY=VALUE,...][:FILE]: the settings' keys are the
			// player's to check when it is built.
			head, file, hasFile := fitness.CutFile(spec)
			name, _, _ := strings.Cut(head, "@")
			if placeholder(name) {
				continue
			}
			if kind, _, guest := strings.Cut(name, ":"); guest && slices.Contains(fitness.GuestKinds, kind) {
				// A guest (uci:dev) is the --engines file's, which a doc
				// names without shipping: only its name's form is checked.
				if _, err := fitness.SplitSpec(spec); err != nil {
					return err
				}
				continue
			}
			if _, ok := fitness.Info(g, role, name); !ok {
				return fmt.Errorf("--%s %s: %s has no %v %q", flag, spec, info.Name, role, name)
			}
			if hasFile {
				if err := repoFile(file); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// usageArgs reads how many positional arguments a command's usage line
// asks for: its required WORDS, then its optional [WORDS], any number
// where it says "...".
func usageArgs(use string) (min, max int) {
	for _, w := range strings.Fields(use)[1:] {
		switch {
		case strings.HasPrefix(w, "-") || strings.HasPrefix(w, "[-"):
			return min, max
		case strings.Contains(w, "..."):
			max = math.MaxInt
		case strings.HasPrefix(w, "["):
			max++
		default:
			min++
			max++
		}
	}
	return min, max
}

// shipped are the directories of files the repository ships, whose paths
// in the docs must exist.
var shipped = []string{"configs/", "examples/", "docs/", "bench/"}

// repoFile refuses a path into the repository's shipped files that does
// not exist.
func repoFile(p string) error {
	if placeholder(p) {
		return nil
	}
	for _, dir := range shipped {
		if strings.HasPrefix(p, dir) && !strings.HasPrefix(p, "examples/bridge/bridge") { // the bridge is built
			if _, err := os.Stat(filepath.Join(repoRoot, p)); err != nil {
				return fmt.Errorf("%s: no such file in the repository", p)
			}
		}
	}
	return nil
}

var linkRE = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)
var inlineCode = regexp.MustCompile("`[^`]*`")

// anchors returns the GitHub anchors of a markdown file's headings.
func anchors(text string) map[string]bool {
	_, prose := fences(text)
	seen := map[string]int{}
	out := map[string]bool{}
	for _, l := range strings.Split(prose, "\n") {
		h, ok := strings.CutPrefix(l, "#")
		if !ok {
			continue
		}
		h = strings.TrimSpace(strings.TrimLeft(h, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(h) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[fmt.Sprintf("%s-%d", a, n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}

// TestDocs: in the README and every page of docs/ (and the READMEs of
// bench/ and examples/), every code block says its language; every
// evotune command line of a shell block parses against the real command
// tree (command, flags and their values, positional arguments, games,
// rules, players and shipped files); each block spells the binary one
// way, and only the README's first block, run before evotune is
// installed, spells it go run ./cmd/evotune; every relative link and
// anchor resolves; and no page quotes an internal issue number or a
// commit hash.
func TestDocs(t *testing.T) {
	issueRE := regexp.MustCompile(`(?i)\bissues?\s+#?\d+`)
	hashRE := regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)
	commands := 0
	for _, file := range docFiles(t) {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join(repoRoot, file))
			if err != nil {
				t.Fatal(err)
			}
			blocks, prose := fences(string(data))
			for k, b := range blocks {
				where := fmt.Sprintf("%s:%d", file, b.line)
				if b.info == "" {
					t.Errorf("%s: a code block without a language (sh, text, yaml, ...)", where)
				}
				if !slices.Contains(shellInfo, b.info) {
					continue
				}
				spellings := map[string]bool{}
				for _, line := range shellLines(b) {
					for _, c := range evotuneCommands(line) {
						commands++
						spellings[c.spelling] = true
						if err := checkCommand(c.args); err != nil {
							t.Errorf("%s: %s: %v", where, strings.TrimSpace(line), err)
						}
					}
				}
				for s := range spellings {
					if s == spellInstalled || s == spellGoRun && file == "README.md" && k == 0 {
						continue
					}
					t.Errorf("%s: the binary spelled %q; write evotune (installed)", where, s)
				}
				if len(spellings) > 1 {
					t.Errorf("%s: the binary spelled %d ways in one block", where, len(spellings))
				}
			}
			text := inlineCode.ReplaceAllString(prose, "")
			for _, m := range linkRE.FindAllStringSubmatch(text, -1) {
				target := m[1]
				if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
					continue
				}
				path, anchor, _ := strings.Cut(target, "#")
				dest := filepath.Join(repoRoot, filepath.Dir(file), path)
				if path == "" {
					dest = filepath.Join(repoRoot, file)
				}
				body, err := os.ReadFile(dest)
				if err != nil && !isDir(dest) {
					t.Errorf("%s: link %s: %v", file, target, err)
					continue
				}
				if anchor != "" && !anchors(string(body))[anchor] {
					t.Errorf("%s: link %s: no heading %q there", file, target, anchor)
				}
			}
			if m := issueRE.FindString(string(data)); m != "" {
				t.Errorf("%s: an internal issue number: %q", file, m)
			}
			for _, h := range hashRE.FindAllString(inlineCode.ReplaceAllString(prose, ""), -1) {
				if strings.ContainsAny(h, "0123456789") {
					t.Errorf("%s: a commit hash: %q", file, h)
				}
			}
		})
	}
	t.Logf("%d evotune command lines checked", commands)
	if commands < 30 {
		t.Errorf("%d evotune command lines in the docs; the parser finds too few", commands)
	}
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// TestReadmeIsAGuide: the README is at most 250 lines as a reader sees
// it (the comments that name the commands of its figures are not read)
// and starts with its two commands: a real tuning run on a fresh machine
// with Go, and the tests (the test command .ci/run runs, under the race
// detector).
func TestReadmeIsAGuide(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	read := commentLines.ReplaceAllString(string(data), "")
	if n := strings.Count(read, "\n"); n > 250 {
		t.Errorf("README.md has %d lines a reader sees; at most 250", n)
	}
	blocks, _ := fences(string(data))
	if len(blocks) == 0 {
		t.Fatal("README.md has no code block")
	}
	var cmds []string
	for _, l := range shellLines(blocks[0]) {
		if w := shellWords(l); len(w) > 0 {
			cmds = append(cmds, strings.Join(w, " "))
		}
	}
	want := []string{"go run ./cmd/evotune run configs/quickstart.yaml", "go test ./..."}
	if !slices.Equal(cmds, want) {
		t.Errorf("the README starts with %q, want %q", cmds, want)
	}
	ci, err := os.ReadFile(filepath.Join(repoRoot, ".ci", "run"))
	if err != nil || !regexp.MustCompile(`(?m)^go test -race -timeout [0-9]+m \./\.\.\.( |$)`).Match(ci) {
		t.Errorf(".ci/run does not run the README's test command under -race (%v)", err)
	}
}

// commentLines are whole lines of an HTML comment, which a reader of the
// rendered page does not see.
var commentLines = regexp.MustCompile(`(?m)^[ \t]*<!--(?s:.*?)-->[ \t]*\n`)

// TestDocCommandParser: the parser the doc tests rely on finds evotune
// commands where a shell would, and the checks refuse what is wrong.
func TestDocCommandParser(t *testing.T) {
	found := []struct {
		line string
		want [][]string
	}{
		{`evotune run configs/quickstart.yaml   # a comment`, [][]string{{"run", "configs/quickstart.yaml"}}},
		{`EVOTUNE_NATS_TOKEN=... evotune worker nats://coord:4222 --workers 8`, [][]string{{"worker", "nats://coord:4222", "--workers", "8"}}},
		{`source <(evotune completion bash)                  # bash, this shell`, [][]string{{"completion", "bash"}}},
		{`evotune completion zsh > "${fpath[1]}/_evotune"`, [][]string{{"completion", "zsh"}}},
		{`for w in 1 2; do /usr/bin/time -f '%e s wall' evotune run c.yaml --workers $w -o "$(mktemp -d)/run"; done`,
			[][]string{{"run", "c.yaml", "--workers", "$w", "-o", "$(mktemp -d)/run"}}},
		{`evotune eval x 2> err.txt | head`, [][]string{{"eval", "x"}}},
		{`go build -o evotune ./cmd/evotune`, nil},
		{`nice -n 19 evotune run CONFIG --quiet`, [][]string{{"run", "CONFIG", "--quiet"}}},
	}
	for _, tc := range found {
		var got [][]string
		for _, c := range evotuneCommands(tc.line) {
			got = append(got, c.args)
		}
		if fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: %q, want %q", tc.line, got, tc.want)
		}
	}
	checks := []struct {
		args []string
		bad  string // "" when it must pass
	}{
		{[]string{"run", "configs/quickstart.yaml", "-o", "DIR", "--workers", "N"}, ""},
		{[]string{"run", "configs/quickstart.yaml", "--out", "x"}, ""},
		{[]string{"eval", "battleship", "--player", "tuned:runs/x/best.yaml", "--vs", "over9000", "--games", "20"}, ""},
		{[]string{"eval", "--command", "python3 examples/pig/pig.py", "--player", "tuned:x.yaml", "--vs", "hold20"}, ""},
		{[]string{"run", "configs/hadron.yaml", "--serve", "0.0.0.0:4222", "--play", "2"}, ""},
		{[]string{"--version"}, ""},
		{[]string{"rnu", "configs/quickstart.yaml"}, "unknown command"},
		{[]string{"run", "configs/quickstart.yaml", "--frobnicate"}, "unknown flag"},
		{[]string{"eval", "battleship", "--player", "random", "--games", "many"}, "invalid argument"},
		{[]string{"run", "configs/nope.yaml"}, "no such file"},
		{[]string{"run"}, "0 positional arguments"},
		{[]string{"validate", "a.yaml", "b.yaml"}, "2 positional arguments"},
		{[]string{"eval", "shogi", "--player", "random"}, "unknown game"},
		{[]string{"eval", "battleship", "--player", "nobody"}, `battleship has no shooter "nobody"`},
		{[]string{"eval", "battleship", "--player", "random", "--placer", "over9000"}, `has no placer "over9000"`},
		{[]string{"eval", "battleship", "--player", "tuned:configs/players/none.yaml"}, "no such file"},
		{[]string{"eval", "hadron", "--player", "aenigma@depth=6", "--vs", "tuned@depth=3:configs/players/battleship-posterior-1024.yaml"}, ""},
		{[]string{"eval", "hadron", "--player", "nobody@depth=6", "--vs", "aenigma"}, `hadron has no mover "nobody"`},
		{[]string{"eval", "hadron", "--player", "tuned@depth=3:configs/players/none.yaml", "--vs", "aenigma"}, "no such file"},
		{[]string{"perft", "mnk", "--rule", "colour=red", "--depth", "2"}, "colour"},
	}
	for _, tc := range checks {
		err := checkCommand(tc.args)
		if tc.bad == "" && err != nil || tc.bad != "" && (err == nil || !strings.Contains(err.Error(), tc.bad)) {
			t.Errorf("%q: %v; want %q", tc.args, err, tc.bad)
		}
	}
}

// TestSynopsis: the synopsis of docs/cli.md lists every command once and,
// on the lines that name it, every flag it shows in its help and none it
// has not.
func TestSynopsis(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "cli.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "\n## Synopsis\n")
	if !ok {
		t.Fatal("docs/cli.md has no ## Synopsis")
	}
	_, block, _ := strings.Cut(after, "```text\n")
	block, _, _ = strings.Cut(block, "```")
	// An indented line goes on with the line above it.
	block = regexp.MustCompile(`\n\s+`).ReplaceAllString(block, " ")
	flagRE := regexp.MustCompile(`(^|[\s\[|])(--?[a-z][a-z0-9-]*)`)
	for _, c := range ourCommands(t) {
		t.Run(c.Name(), func(t *testing.T) {
			var lines []string
			own := 0 // lines of this command alone, beside those it shares (run|resume ...)
			for _, l := range strings.Split(block, "\n") {
				f := strings.Fields(l)
				if len(f) > 1 && f[0] == "evotune" && slices.Contains(strings.Split(f[1], "|"), c.Name()) {
					lines = append(lines, l)
					if f[1] == c.Name() {
						own++
					}
				}
			}
			if own != 1 {
				t.Fatalf("%d lines of its own, want 1:\n%s", own, strings.Join(lines, "\n"))
			}
			text := strings.Join(lines, "\n")
			c.Flags().VisitAll(func(f *pflag.Flag) {
				if f.Name != "help" && !f.Hidden && !strings.Contains(text, "--"+f.Name) && (f.Shorthand == "" || !strings.Contains(text, "-"+f.Shorthand+" ")) {
					t.Errorf("--%s missing", f.Name)
				}
			})
			for _, m := range flagRE.FindAllStringSubmatch(text, -1) {
				name := strings.TrimLeft(m[2], "-")
				if f := c.Flags().Lookup(name); (f == nil || f.Hidden) && (len(name) != 1 || c.Flags().ShorthandLookup(name) == nil) {
					t.Errorf("%s: %s has no such flag in its help", m[2], c.Name())
				}
			}
		})
	}
}
