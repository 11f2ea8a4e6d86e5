// Package natsqueue plays work units on other machines through a NATS
// JetStream: a coordinator publishes jobs to a work queue and reads their
// results back from a stream; workers, the same binary on any machine,
// pull jobs, play them and publish results.
//
// The package moves opaque payloads and knows no game: the engine says
// what a job is (a batch of games, with its description) and how to play
// it; the CLI wires the two. Job IDs are stable across restarts, so a
// job published twice is deduplicated by the server, and results are
// handed back by job, never by arrival order, so a caller reducing them
// in job order gets the same answer however many workers played them.
//
// What the jobs of a run have in common (a config) is shared once
// (Coordinator.Share, stored under its SHA-256) and fetched by each
// worker once, checked against its key, so a job carries only its own
// part.
//
// Faults: a worker that dies holding a job stops sending in-progress
// heartbeats, the job's ack wait runs out and the server delivers it to
// another worker; a job that fails on every delivery, or that no worker
// survives, ends the coordinator's wait with one error naming it; a
// malformed, oversized or foreign message is logged and ignored.
//
// What a worker runs: only evotune's own games, built into its binary,
// with parameters from the job; a config that plays an outside program
// is refused unless the worker was started with --allow-programs, and
// then the program the config names is run from the worker's machine.
package natsqueue
