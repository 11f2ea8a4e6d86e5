package program_test

import (
	"bufio"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/evotune/evotune/internal/proctest"

	"github.com/evotune/evotune/fitness/external/program"
)

// With Concurrency, every reply reaches evotune without more input, even
// one written by a goroutine that was slow to write it while another
// answered the last request and flushed. Bursts of three requests on two
// goroutines, the first of each burst stalled before its reply.
func TestConcurrentRepliesAreFlushed(t *testing.T) {
	defer program.SetTestHookBeforeReply(func(id uint64) {
		if id%3 == 0 {
			time.Sleep(2 * time.Millisecond)
		}
	})()
	g := game()
	g.Concurrency = 2
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- program.Serve(g, inR, outW) }()
	lines := make(chan string)
	go func() {
		out := bufio.NewReader(outR)
		for {
			l, err := out.ReadString('\n')
			if err != nil {
				close(lines)
				return
			}
			lines <- l
		}
	}()
	fmt.Fprint(inW, hello)
	<-lines
	for burst := range 50 {
		for k := range 3 {
			fmt.Fprint(inW, seatLine(3*burst+k, "9", "a", "b"))
		}
		for k := range 3 {
			select {
			case <-lines:
			case <-time.After(time.Until(proctest.Patience(t))):
				t.Fatalf("burst %d: reply %d of 3 never came", burst, k+1)
			}
		}
	}
	inW.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
