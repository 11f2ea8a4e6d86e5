// Package cli is the evotune command: subcommands, flags, progress and
// exit codes. cmd/evotune's main is one line that calls Main; a Go module
// with games of its own registers them with catalog.Register and calls
// Main (or Run) too, and gets every command, run, resume, export, eval
// and games, for its games exactly as for the built-in ones.
//
// The commands are github.com/spf13/cobra commands, one file each
// (cmd_run.go, cmd_eval.go, ...): an options struct, a constructor that
// binds the flags to it and registers itself from init (addCommand), and
// a run(ctx) method that does the work. What they share is one place
// each: exitcode.go maps errors to the exit-code table, signals.go is the
// interrupt handling of every long command, flags.go the KEY=VALUE flag
// (--rule, the one syntax of rule options) and the older spellings still
// read, completion.go the shell completion, progress.go the progress bar.
package cli
