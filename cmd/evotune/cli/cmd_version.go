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
from (and whether the tree had uncommitted changes), the Go version, the OS and
architecture, and the SHA-256 of the binary. 'evotune --version' prints the
same. A coordinator's workers must run its build: the same binary, or one built
from the same clean commit by the same Go for the same platform.`,
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
	in := buildinfo.Own()
	if o.json {
		return writeJSON(o.e.stdout, in)
	}
	_, err := io.WriteString(o.e.stdout, in.String())
	return err
}
