package dist

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// helloEvery is how often a worker announces itself.
const helloEvery = 2 * time.Second

// PlayFunc plays a job's payload and returns its result.
type PlayFunc func(ctx context.Context, payload []byte) ([]byte, error)

// WorkerOptions configure Work.
type WorkerOptions struct {
	// Slots is how many jobs the worker plays at once (default 1).
	Slots int
	// Log, when not nil, is told of each failed job.
	Log func(format string, args ...any)
	// Played, when not nil, is called after each job whose result was
	// published, with how long it took.
	Played func(id string, took time.Duration)
}

// Work pulls jobs from the server nc is connected to and plays them with
// play until ctx ends. It waits for a coordinator to make the work queue,
// so workers may start first. While a job is played the worker tells the
// server it is in progress, so a long job is not delivered again; a
// worker that dies stops telling it, and the job goes to another.
func Work(ctx context.Context, nc *nats.Conn, play PlayFunc, o WorkerOptions) error {
	slots := max(1, o.Slots)
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("dist: %w", err)
	}
	var cons jetstream.Consumer
	for {
		cons, err = js.Consumer(ctx, jobsStream, workerConsumer)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		if !errors.Is(err, jetstream.ErrStreamNotFound) && !errors.Is(err, jetstream.ErrConsumerNotFound) {
			return fmt.Errorf("dist: find the work queue: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	ackWait := cons.CachedInfo().Config.AckWait
	maxDeliver := cons.CachedInfo().Config.MaxDeliver
	host, _ := os.Hostname()
	me := hello{ID: fmt.Sprintf("%s-%d-%p", host, os.Getpid(), nc), Slots: slots}
	go announce(ctx, nc, me)
	var wg sync.WaitGroup
	errs := make(chan error, slots)
	for range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				m, err := cons.Next(jetstream.FetchMaxWait(2 * time.Second))
				if err != nil {
					if errors.Is(err, jetstream.ErrNoMessages) || errors.Is(err, nats.ErrTimeout) || ctx.Err() != nil {
						continue
					}
					if errors.Is(err, jetstream.ErrConsumerDeleted) || errors.Is(err, jetstream.ErrConsumerNotFound) {
						errs <- fmt.Errorf("dist: the work queue was removed: %w", err)
						return
					}
					time.Sleep(time.Second) // a reconnect, most likely
					continue
				}
				playOne(ctx, js, m, play, ackWait, maxDeliver, o)
			}
		}()
	}
	wg.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// announce tells coordinators the worker is there, until ctx ends.
func announce(ctx context.Context, nc *nats.Conn, me hello) {
	data, _ := json.Marshal(me)
	t := time.NewTicker(helloEvery)
	defer t.Stop()
	for {
		_ = nc.Publish(helloSubject, data)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// playOne plays job m with in-progress heartbeats and publishes its
// result (or a failure report), then acknowledges it.
func playOne(ctx context.Context, js jetstream.JetStream, m jetstream.Msg, play PlayFunc, ackWait time.Duration, maxDeliver int, o WorkerOptions) {
	subject := m.Subject()
	if len(subject) <= len(jobsPrefix) || subject[:len(jobsPrefix)] != jobsPrefix {
		_ = m.Term() // not a job
		return
	}
	id := subject[len(jobsPrefix):]
	delivery := 1
	var seq uint64
	if md, err := m.Metadata(); err == nil {
		delivery, seq = int(md.NumDelivered), md.Sequence.Stream
	}
	beat, stopBeat := context.WithCancel(ctx)
	go func() {
		t := time.NewTicker(max(ackWait/3, 10*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-beat.Done():
				return
			case <-t.C:
				_ = m.InProgress()
			}
		}
	}()
	began := time.Now()
	result, err := play(ctx, m.Data())
	stopBeat()
	if ctx.Err() != nil {
		_ = m.Nak() // stopped: let another worker have it now
		return
	}
	msg := &nats.Msg{Subject: resultsPrefix + id, Data: result, Header: nats.Header{}}
	// One result per delivery: the server drops a retried publish of it,
	// and the coordinator ignores all but the first result of a job.
	msgID := fmt.Sprintf("%s.s%d.d%d", id, seq, delivery)
	if err != nil {
		if o.Log != nil {
			o.Log("job %s failed (delivery %d of %d): %v", id, delivery, maxDeliver, err)
		}
		msg.Data = nil
		msg.Header.Set(headerError, oneLine(err.Error()))
		msg.Header.Set(headerDelivery, strconv.Itoa(delivery))
		msgID += ".failed"
	}
	pctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, perr := js.PublishMsg(pctx, msg, jetstream.WithMsgID(msgID)); perr != nil {
		_ = m.Nak()
		return
	}
	if err != nil {
		if delivery >= maxDeliver {
			_ = m.Term()
		} else {
			_ = m.NakWithDelay(time.Second)
		}
		return
	}
	_ = m.DoubleAck(pctx)
	if o.Played != nil {
		o.Played(id, time.Since(began))
	}
}

// oneLine keeps a header value on one line and short.
func oneLine(s string) string {
	out := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		out = append(out, r)
		if len(out) == 1000 {
			break
		}
	}
	return string(out)
}
