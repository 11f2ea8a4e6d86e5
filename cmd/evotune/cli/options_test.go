package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

// TestCommandsChangeNoOption: a command checks its options in one place
// (check) and neither that nor its run changes them: a --workers of 0
// stays 0 (all cores is worked out where it is used), the rules given
// stay as given when --opponent sets the rule that names the opponent,
// and the distribution flags' token and certificate are resolved into a
// setup of their own.
func TestCommandsChangeNoOption(t *testing.T) {
	var out, errb bytes.Buffer
	e := &env{stdout: &out, stderr: &errb}
	snapshot := func(v any) string { return fmt.Sprintf("%#v", v) }

	eval := &evalOptions{e: e, game: "battleship", player: []string{"random"}, opponent: "blockhalf",
		rules: kvFlag{"size": "6", "fleet": "3 2"}, games: 4, seed: 1}
	before := snapshot(eval)
	if err := eval.check(); err != nil {
		t.Fatal(err)
	}
	if err := eval.run(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(eval); after != before {
		t.Errorf("eval changed its options:\n%s\n%s", before, after)
	}

	sprt := &sprtOptions{e: e, game: "battleship", player: "random", vs: "random", rules: kvFlag{"size": "5", "fleet": "2"},
		opponent: "blockhalf", alpha: 0.05, beta: 0.05, batch: 2, maxGames: 4, diff0: 0, diff1: 1, seed: 1, model: "logistic"}
	before = snapshot(sprt)
	var status exitStatus
	if err := sprt.run(context.Background()); err != nil && !errors.As(err, &status) {
		t.Fatal(err)
	}
	if after := snapshot(sprt); after != before {
		t.Errorf("sprt changed its options:\n%s\n%s", before, after)
	}

	worker := &workerOptions{e: e, url: "nats://127.0.0.1:4222", wait: time.Second}
	before = snapshot(worker)
	if err := worker.check(); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(worker); after != before {
		t.Errorf("worker's check changed its options:\n%s\n%s", before, after)
	}

	export := &exportOptions{e: e, dir: "runs/x", top: 1, format: "json"}
	before = snapshot(export)
	if err := export.check(); err != nil {
		t.Fatal(err)
	}
	if after := snapshot(export); after != before {
		t.Errorf("export's check changed its options:\n%s\n%s", before, after)
	}

	d := &distFlags{serve: "127.0.0.1:0", ackWait: time.Second, maxDeliver: 4}
	t.Setenv(tokenEnv, "a-token-of-enough-length-0123456789")
	before = snapshot(d)
	if err := d.check(); err != nil {
		t.Fatal(err)
	}
	s, err := d.resolve()
	if err != nil {
		t.Fatal(err)
	}
	if after := snapshot(d); after != before {
		t.Errorf("the distribution flags changed:\n%s\n%s", before, after)
	}
	if s.token == "" {
		t.Error("resolve found no token")
	}
}
