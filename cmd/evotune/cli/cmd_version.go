package cli

import (
	"context"
	"io"
	"strings"

	"github.com/evotune/evotune/internal/buildinfo"
	"github.com/spf13/cobra"
)

func init() { addCommand(newVersionCmd) }

// versionOptions are the flags of evotune version.
type versionOptions struct {
	e    *env
	json bool
}

func newVersionCmd(e *env) *cobra.Command {
	o := &versionOptions{e: e}
	cmd := &cobra.Command{
		Use:   "version",
		Short: "Print evotune's version, commit, Go version and platform",
		Long: `Print the build of this evotune: the module version, the commit it was built
from (and whether the tree had uncommitted changes), the Go version and the
OS and architecture. 'evotune --version' prints the same.`,
		Example: `  evotune version
  evotune version --json`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return usagef("want no arguments, got %d (%s)", len(args), strings.Join(args, " "))
			}
			return o.run(cmd.Context())
		},
	}
	cmd.Flags().BoolVar(&o.json, "json", false, "print one JSON document instead of lines")
	return cmd
}

func (o *versionOptions) run(context.Context) error {
	in := buildinfo.Read()
	if o.json {
		return writeJSON(o.e.stdout, in)
	}
	_, err := io.WriteString(o.e.stdout, in.String())
	return err
}
