package natsqueue

import (
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"
)

// TestForgedHellosAreBounded: hellos are the one message any client of
// the server may send the coordinator, so they are bounded: a slot
// count outside 1 to maxSlots is foreign, and past maxWorkers workers a
// new one is not counted. Before, two forged hellos of 2^62 slots each
// made "-9223372036854775808 games at once", and a flood of IDs grew
// the coordinator's memory without end.
func TestForgedHellosAreBounded(t *testing.T) {
	nc, c := newCoordinator(t)
	say := func(id string, slots int) {
		data, _ := json.Marshal(map[string]any{"id": id, "slots": slots})
		if err := nc.Publish(helloSubject, data); err != nil {
			t.Fatal(err)
		}
	}
	say("huge-a", 1<<62)
	say("huge-b", 1<<62)
	say("negative", math.MinInt)
	say("none", 0)
	say("just-over", maxSlots+1)
	for i := range 3 {
		say(fmt.Sprint("w", i), maxSlots)
	}
	for i := range maxWorkers + 100 {
		say(fmt.Sprint("flood", i), 1)
	}
	say("w0", 7) // a known worker is heard whatever the count: the last word
	deadline := proctest.Patience(t)
	for {
		c.mu.Lock()
		last := c.workers["w0"].Slots
		c.mu.Unlock()
		if last == 7 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the coordinator never heard the last hello")
		}
		time.Sleep(5 * time.Millisecond)
	}
	s := c.Workers()
	if want := 7 + 2*maxSlots + (maxWorkers - 3); s.Workers != maxWorkers || s.Slots != want {
		t.Fatalf("%d workers, %d slots; want %d workers (the most kept), %d slots", s.Workers, s.Slots, maxWorkers, want)
	}
}
