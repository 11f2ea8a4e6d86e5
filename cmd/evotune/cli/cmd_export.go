package cli

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/english"
	"github.com/spf13/cobra"
)

func init() { addCommand(newExportCmd) }

// exportOptions are the flags and argument of evotune export.
type exportOptions struct {
	e      *env
	dir    string
	top    int
	format string
	json   bool
	out    string
	// formatGiven says --format was given, which --json then contradicts
	// unless it says json too.
	formatGiven bool
	rivals      bool
}

func newExportCmd(e *env) *cobra.Command {
	o := &exportOptions{e: e}
	cmd := &cobra.Command{
		Use:   "export RUN_DIR",
		Short: "Write a run's best parameter sets",
		Long: `Write the best K parameter sets of a run's hall of fame with their fitness,
games and 95% interval. The file loads directly as --player NAME:FILE in eval
(--opponent NAME:FILE for co-evolved solo opponents, such as placers).`,
		Example: `  evotune export runs/quickstart -o best.yaml
  evotune export runs/quickstart --top 5 --json
  evotune export runs/coevolve --rivals -o placers.yaml`,
		ValidArgsFunction: completeRunDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.dir, err = exactlyOne(args, "RUN_DIR"); err != nil {
				return err
			}
			o.formatGiven = cmd.Flags().Changed("format")
			return o.run(cmd.Context())
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.top, "top", 1, "how many parameter sets (at most the run's evolution.hall-of-fame)")
	fs.BoolVar(&o.json, "json", false, "write JSON instead of YAML")
	fs.StringVar(&o.format, "format", "yaml", "yaml or json (--json is --format json)")
	_ = fs.MarkHidden("format") // the older spelling of --json
	fs.StringVarP(&o.out, "output", "o", "", "write to `FILE` (atomically; \"-\": stdout, the default); an existing FILE must be an export")
	fs.BoolVar(&o.rivals, "rivals", false, "export the co-evolved rival species (e.g. placers) instead")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"yaml", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func (o *exportOptions) run(context.Context) error {
	f, err := engine.ParseFormat(o.format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	if o.json {
		if o.formatGiven && f != engine.JSON {
			return usagef("--json and --format %s ask for two formats: give --json alone", o.format)
		}
		f = engine.JSON
	}
	if o.top < 1 {
		return usagef("--top must be at least 1, got %d", o.top)
	}
	toStdout := o.out == "" || o.out == "-"
	if !toStdout {
		if err := checkOutput("-o", o.out, exportOutput); err != nil {
			return err
		}
	}
	data, n, err := engine.Export(o.dir, o.top, f, o.rivals)
	if err != nil {
		return err
	}
	if n < o.top {
		fmt.Fprintf(o.e.stderr, "evotune export: --top %d, but the hall of fame holds %s: exporting %d\n", o.top, english.Count(n, "parameter set"), n)
	}
	if toStdout {
		_, err = o.e.stdout.Write(data)
		return err
	}
	return engine.WriteFile(o.out, data)
}
