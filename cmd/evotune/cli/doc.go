// Package cli is the evotune command: subcommands, flags, progress and
// exit codes. cmd/evotune's main is one line that calls Main; a Go module
// with games of its own registers them with catalog.Register and calls
// Main (or Run) too, and gets every command, run, resume, export, eval
// and games, for its games exactly as for the built-in ones.
package cli
