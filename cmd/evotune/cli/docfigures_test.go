package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/docfigures"
	"github.com/evotune/evotune/internal/proctest"
)

// figureLinted are the pages every figure of which must lie in a figures
// block that names its commands (docfigures.Unmarked): a figure added to
// them without its command fails here. The other pages' blocks are
// checked, and the pages join this list as their figures get blocks.
var figureLinted = []string{"README.md", "examples/pig/README.md"}

// notFigures are numbers with a point that the linted pages write and
// that are no figures: Go versions.
var notFigures = []string{"1.26", "1.21"}

// TestDocFigures: every figures block of the docs names commands that
// parse (evotune's against its command tree) or a script of .ci/; the
// linted pages hold no figure outside a block; and the blocks of the ci
// tier are run here, every figure they quote found in what their
// commands print. EVOTUNE_DOC_FIGURES=release runs the release tier too
// (whole runs of the shipped configs: .ci/doc-figures), =long the
// benchmarks' as well (.ci/doc-figures --long).
func TestDocFigures(t *testing.T) {
	tier := docfigures.CI
	if s := os.Getenv("EVOTUNE_DOC_FIGURES"); s != "" {
		var err error
		if tier, err = docfigures.ParseTier(s); err != nil {
			t.Fatal(err)
		}
	}
	var blocks []docfigures.Block
	for _, file := range docFiles(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, file))
		if err != nil {
			t.Fatal(err)
		}
		bs, err := docfigures.Parse(file, string(data))
		if err != nil {
			t.Error(err)
		}
		for _, b := range bs {
			for _, c := range b.Commands {
				if err := checkFigureCommand(c); err != nil {
					t.Errorf("%s: %s: %v", b, c, err)
				}
			}
		}
		blocks = append(blocks, bs...)
		for _, linted := range figureLinted {
			if file == linted {
				for _, f := range docfigures.Unmarked(string(data), notFigures) {
					t.Errorf("%s: %s is a figure outside a figures block: name the command it comes from", file, f)
				}
			}
		}
	}
	if len(blocks) < 10 {
		t.Errorf("%d figures blocks in the docs; the parser finds too few", len(blocks))
	}
	// EVOTUNE_DOC_FIGURES_ONLY=README.md,docs/cli.md checks those pages'
	// blocks alone (a page being edited).
	only := strings.Split(os.Getenv("EVOTUNE_DOC_FIGURES_ONLY"), ",")
	run := newFigureRunner(t)
	checked := 0
	for _, b := range blocks {
		if b.Tier > tier || only[0] != "" && !slices.Contains(only, b.File) {
			continue
		}
		var outputs []string
		for _, c := range b.Commands {
			outputs = append(outputs, run.output(c))
		}
		for _, p := range docfigures.Check(b, outputs) {
			t.Error(p)
		}
		checked++
	}
	t.Logf("%d figures blocks of %d checked (tier %v and cheaper)", checked, len(blocks), tier)
}

// checkFigureCommand checks that a block's command is one a reader can
// run: an evotune command line that parses, or a script of .ci/.
func checkFigureCommand(line string) error {
	if strings.HasPrefix(line, ".ci/") {
		script := strings.Fields(line)[0]
		if _, err := os.Stat(filepath.Join(repoRoot, script)); err != nil {
			return err
		}
		return nil
	}
	cmds := evotuneCommands(line)
	if len(cmds) == 0 {
		return fmt.Errorf("no evotune command, nor a script of .ci/")
	}
	for _, c := range cmds {
		if err := checkCommand(c.args); err != nil {
			return err
		}
	}
	return nil
}

// figureRunner runs the blocks' commands, each once, in a directory of
// its own that sees the repository's configs and examples, with the
// evotune built for the tests first on PATH: runs/ is written there, in
// the order the blocks name the commands.
type figureRunner struct {
	t    *testing.T
	dir  string
	path string
	done map[string]string
}

func newFigureRunner(t *testing.T) *figureRunner {
	root, err := filepath.Abs(repoRoot)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, sub := range []string{"configs", "examples"} {
		if err := os.Symlink(filepath.Join(root, sub), filepath.Join(dir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	return &figureRunner{t: t, dir: dir, done: map[string]string{}}
}

func (r *figureRunner) output(command string) string {
	if out, ok := r.done[command]; ok {
		return out
	}
	if r.path == "" {
		r.path = filepath.Dir(proctest.Evotune(r.t))
	}
	line := strings.Replace(command, spellGoRun, spellInstalled, 1)
	if strings.HasPrefix(line, ".ci/") {
		root, _ := filepath.Abs(repoRoot)
		line = filepath.Join(root, line)
	}
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "PATH="+r.path+string(os.PathListSeparator)+os.Getenv("PATH"))
	began := time.Now()
	out, err := cmd.CombinedOutput()
	r.t.Logf("%s: %.1f s", command, time.Since(began).Seconds())
	if code := cmd.ProcessState.ExitCode(); err != nil && code != int(ExitH0) && code != int(ExitInconclusive) {
		r.t.Errorf("%s: %v\n%s", command, err, out)
	}
	r.done[command] = string(out)
	return string(out)
}
