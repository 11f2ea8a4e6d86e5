package cli

import (
	"context"

	"github.com/evotune/evotune/engine"
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
	out    string
	rivals bool
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
  evotune export runs/quickstart --top 5 --format json
  evotune export runs/coevolve --rivals -o placers.yaml`,
		ValidArgsFunction: completeDir,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.dir, err = exactlyOne(args, "RUN_DIR"); err != nil {
				return err
			}
			if err := o.check(); err != nil {
				return err
			}
			return o.run(cmd.Context())
		},
	}
	fs := cmd.Flags()
	fs.IntVar(&o.top, "top", 1, "how many parameter sets (at most the run's evolution.hall-of-fame)")
	fs.StringVar(&o.format, "format", "yaml", "yaml or json")
	fs.StringVarP(&o.out, "output", "o", "", "write to `FILE` (atomically; \"-\": stdout, the default); an existing FILE must be an export")
	fs.BoolVar(&o.rivals, "rivals", false, "export the co-evolved rival species (e.g. placers) instead")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"yaml", "json"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

// check checks every flag once parsed, changing nothing.
func (o *exportOptions) check() error {
	if _, err := engine.ParseFormat(o.format); err != nil {
		return usagef("--format: %v", err)
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
	f, _ := engine.ParseFormat(o.format) // checked
	data, err := engine.Export(o.dir, o.top, f, o.rivals)
	if err != nil {
		return err
	}
	if o.toStdout() {
		_, err = o.e.stdout.Write(data)
		return err
	}
	return rundir.WriteFile(o.out, data)
}
