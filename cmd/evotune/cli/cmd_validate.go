package cli

import (
	"context"

	"github.com/evotune/evotune/engine"
	"github.com/spf13/cobra"
)

func init() { addCommand(newValidateCmd) }

// validateOptions are the argument of evotune validate.
type validateOptions struct {
	e      *env
	config string
}

func newValidateCmd(e *env) *cobra.Command {
	o := &validateOptions{e: e}
	return &cobra.Command{
		Use:   "validate CONFIG",
		Short: "Check a config and report every problem at once",
		Long: `Check a config without running it: every problem is reported at once as
file:line: key: message (exit 2); a good config prints its summary.`,
		Example:           `  evotune validate configs/hadron.yaml`,
		ValidArgsFunction: completeConfig,
		RunE: func(cmd *cobra.Command, args []string) error {
			var err error
			if o.config, err = exactlyOne(args, "CONFIG"); err != nil {
				return err
			}
			return o.run(cmd.Context())
		},
	}
}

func (o *validateOptions) run(context.Context) error {
	cfg, err := engine.Load(o.config)
	if err != nil {
		return asUsage(err)
	}
	defer cfg.Close()
	_, err = o.e.stdout.Write([]byte(cfg.Summary()))
	return err
}
