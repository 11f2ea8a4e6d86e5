package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/catalog"
	"github.com/evotune/evotune/rundir"
	"github.com/spf13/cobra"
)

// Shell completion (evotune completion bash|zsh|fish|powershell) comes from
// cobra; these functions add what cobra cannot know: config files, run
// run directories, game names, player names and rule options. They are cheap:
// the catalog's games only, never a --command program.

// completeConfig completes a CONFIG argument with YAML files.
func completeConfig(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return []string{"yaml", "yml"}, cobra.ShellCompDirectiveFilterFileExt
}

// completeRunDir completes a RUN_DIR argument with run directories (those
// holding a checkpoint), and, to reach them, the directories that hold
// run directories within runDirDepth levels, which end in a slash.
func completeRunDir(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	dir, base := filepath.Split(toComplete)
	var out []string
	directive := cobra.ShellCompDirectiveNoFileComp
	for _, name := range subdirs(filepath.Clean(dir + ".")) {
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		path := dir + name
		switch {
		case rundir.Readable(path):
			out = append(out, path)
		case holdsRunDirs(path, runDirDepth):
			out = append(out, path+"/")
			directive |= cobra.ShellCompDirectiveNoSpace
		}
	}
	return out, directive
}

// runDirDepth is how deep completion looks for run directories under a
// directory it offers on the way (runs/ holds runs/quickstart).
const runDirDepth = 2

// maxCompletionEntries bounds the entries completion reads of one
// directory, so that a huge one cannot stall the shell.
const maxCompletionEntries = 1000

// subdirs returns the names of dir's subdirectories (links to
// directories included), at most maxCompletionEntries of its entries read.
func subdirs(dir string) []string {
	f, err := os.Open(dir)
	if err != nil {
		return nil
	}
	defer f.Close()
	entries, _ := f.ReadDir(maxCompletionEntries)
	var names []string
	for _, e := range entries {
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			fi, err := os.Stat(filepath.Join(dir, e.Name()))
			isDir = err == nil && fi.IsDir()
		}
		if isDir {
			names = append(names, e.Name())
		}
	}
	slices.Sort(names)
	return names
}

// holdsRunDirs reports whether a run directory lies under dir, at most
// depth levels down.
func holdsRunDirs(dir string, depth int) bool {
	if depth < 1 {
		return false
	}
	for _, name := range subdirs(dir) {
		if sub := filepath.Join(dir, name); rundir.Readable(sub) || holdsRunDirs(sub, depth-1) {
			return true
		}
	}
	return false
}

// completeGame completes a GAME argument with the catalog's games.
func completeGame(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for _, g := range catalog.All() {
		names = append(names, g.Name+"\t"+g.Summary)
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// completePerftGame completes perft's GAME with the catalog's games that
// have a move generator to count (under their default rules): perft
// refuses the others.
func completePerftGame(_ *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var names []string
	for _, info := range catalog.All() {
		g, err := info.New(nil)
		if err != nil {
			continue
		}
		if _, ok := g.(fitness.Perfter); ok {
			names = append(names, info.Name+"\t"+info.Summary)
		}
		fitness.Close(g)
	}
	return names, cobra.ShellCompDirectiveNoFileComp
}

// completedGame builds the game a command line names as its first
// argument, under the --rule options given so far; false without one.
func completedGame(cmd *cobra.Command, args []string) (fitness.GameInfo, fitness.Game, bool) {
	if len(args) == 0 {
		return fitness.GameInfo{}, nil, false
	}
	info, err := catalog.Lookup(args[0])
	if err != nil {
		return fitness.GameInfo{}, nil, false
	}
	rules := map[string]string{}
	if f := cmd.Flags().Lookup("rule"); f != nil {
		if kv, ok := f.Value.(kvFlag); ok {
			rules = kv
		}
	}
	g, err := info.New(rules)
	if err != nil {
		return info, nil, false
	}
	return info, g, true
}

// completeRuleFlag completes --rule with the game's options, as KEY=.
func completeRuleFlag(cmd *cobra.Command) {
	_ = cmd.RegisterFlagCompletionFunc("rule", func(cmd *cobra.Command, args []string, _ string) ([]string, cobra.ShellCompDirective) {
		if len(args) == 0 {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		info, err := catalog.Lookup(args[0])
		if err != nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		var opts []string
		for _, o := range info.Options {
			opts = append(opts, o.Name+"=\t"+o.Summary+" (default "+o.Default+")")
		}
		return opts, cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
	})
}

// completePlayerFlags completes --rule, and the player flags a command
// has (--player, --vs: the game's first role; --opponent, --placer: its
// solo opponent's), with the players of the game named. A --command
// program is never started to complete.
func completePlayerFlags(cmd *cobra.Command, program *programFlags) {
	completeRuleFlag(cmd)
	players := func(solo bool) cobra.CompletionFunc {
		return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			if program.command != "" {
				return nil, cobra.ShellCompDirectiveDefault
			}
			_, g, ok := completedGame(cmd, args)
			if !ok {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			defer fitness.Close(g)
			role := g.Roles()[0]
			if solo {
				s, ok := fitness.SoloOf(g)
				if !ok || s.Opponent == "" {
					return nil, cobra.ShellCompDirectiveNoFileComp
				}
				role = s.Opponent
			}
			if name, file, ok := strings.Cut(toComplete, ":"); ok {
				for _, p := range g.Players() {
					if p.Role == role && p.Name == name && p.Tunable() {
						files, dirs := completeParamsFile(name, file)
						directive := cobra.ShellCompDirectiveNoFileComp
						if dirs {
							directive |= cobra.ShellCompDirectiveNoSpace
						}
						return files, directive
					}
				}
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			var names []string
			for _, p := range g.Players() {
				if p.Role == role {
					names = append(names, p.Name+"\t"+p.Summary)
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		}
	}
	for _, f := range []struct {
		name string
		solo bool
	}{{"player", false}, {"vs", false}, {"opponent", true}, {"placer", true}} {
		if cmd.Flags().Lookup(f.name) != nil {
			_ = cmd.RegisterFlagCompletionFunc(f.name, players(f.solo))
		}
	}
}

// completeParamsFile completes the FILE of a NAME:FILE player spec: the
// directories and YAML or JSON files that start with file, each prefixed
// with NAME: because the shell completes the whole word. Directories end
// in a slash; dirs reports whether there are any, so that the shell adds
// no space after one and completion can go on into it.
func completeParamsFile(name, file string) (out []string, dirs bool) {
	dir, base := filepath.Split(file)
	entries, err := os.ReadDir(filepath.Clean(dir + "."))
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		n := e.Name()
		if !strings.HasPrefix(n, base) || (strings.HasPrefix(n, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		switch {
		case e.IsDir():
			out, dirs = append(out, name+":"+dir+n+"/"), true
		case strings.HasSuffix(n, ".yaml"), strings.HasSuffix(n, ".yml"), strings.HasSuffix(n, ".json"):
			out = append(out, name+":"+dir+n)
		}
	}
	return out, dirs
}
