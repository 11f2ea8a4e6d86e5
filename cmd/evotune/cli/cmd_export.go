package cli

import (
	"context"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/fileio"
)

func runExport(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "export", "RUN_DIR [--top K] [--format yaml|json] [-o FILE] [--rivals]",
		"Write the best K parameter sets of a run's hall of fame with their fitness, games and 95%\n"+
			"interval. The file loads directly as --player NAME:FILE in eval (--opponent NAME:FILE for\n"+
			"co-evolved solo opponents, such as placers)")
	top := fs.Int("top", 1, "how many parameter sets (at most the run's evolution.hall-of-fame)")
	format := fs.String("format", "yaml", "yaml or json")
	out := fs.String("o", "", "write to `FILE` (atomically) instead of stdout")
	rivals := fs.Bool("rivals", false, "export the co-evolved rival species (e.g. placers) instead")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one RUN_DIR, got %d arguments", len(pos))
	}
	f, err := engine.ParseFormat(*format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	if *top < 1 {
		return usagef("--top must be at least 1, got %d", *top)
	}
	data, err := engine.Export(pos[0], *top, f, *rivals)
	if err != nil {
		return err
	}
	if *out == "" {
		_, err = e.stdout.Write(data)
		return err
	}
	// Writing by rename would replace a link, device or FIFO with a file.
	if err := fileio.CheckReplaceable(*out); err != nil {
		return usagef("-o %v", err)
	}
	return engine.WriteFile(*out, data)
}

func runValidate(ctx context.Context, e *env, args []string) error {
	fs := newFlagSet(e, "validate", "CONFIG",
		"Check a config without running it: every problem is reported at once as file:line: key: message")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("want exactly one CONFIG, got %d arguments", len(pos))
	}
	cfg, err := engine.Load(pos[0])
	if err != nil {
		return asUsage(err)
	}
	defer cfg.Close()
	_, err = e.stdout.Write([]byte(cfg.Summary()))
	return err
}
