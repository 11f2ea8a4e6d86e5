// Package runs reads runs from outside them: what the dashboard shows of
// a run directory (Inspect), a finished run's account of itself
// (Summarize), its best parameter sets (Export), and runs measured
// against each other on fresh deals (Compare). Each reads a run the one
// way engine.ReadRun does: its checkpoint, and its config prepared for a
// reader, which starts no program. It stands above engine, which the
// readers need nothing of but what it exports, and below the CLI and
// the dashboard.
package runs
