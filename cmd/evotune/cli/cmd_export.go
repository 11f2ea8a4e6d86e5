package cli

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/engine/runs"

	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/rundir"
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
			if err := o.check(); err != nil {
				return err
			}
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

// check checks every flag once parsed, changing nothing.
func (o *exportOptions) check() error {
	f, err := runs.ParseFormat(o.format)
	if err != nil {
		return usagef("--format: %v", err)
	}
	if o.json && o.formatGiven && f != runs.JSON {
		return usagef("--json and --format %s ask for two formats: give --json alone", o.format)
	}
	if o.top < 1 {
		return usagef("--top must be at least 1, got %d", o.top)
	}
	if !o.toStdout() {
		return checkOutput("-o", o.out, exportOutput)
	}
	return nil
}

// toStdout says whether the export goes to standard output.
func (o *exportOptions) toStdout() bool { return o.out == "" || o.out == "-" }

func (o *exportOptions) run(context.Context) error {
	f, _ := runs.ParseFormat(o.format) // checked
	if o.json {
		f = runs.JSON
	}
	data, n, err := runs.Export(o.dir, o.top, f, o.rivals)
	if err != nil {
		return err
	}
	if n < o.top {
		fmt.Fprintf(o.e.stderr, "evotune export: --top %d, but the hall of fame holds %s: exporting %d\n", o.top, english.Count(n, "parameter set"), n)
	}
	if o.toStdout() {
		_, err = o.e.stdout.Write(data)
		return err
	}
	return rundir.WriteFile(o.out, data)
}
