package natsqueue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/evotune/evotune/internal/english"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// helloEvery is how often a worker announces itself.
const helloEvery = 2 * time.Second

// PlayFunc plays a job's payload and returns its result. Data the
// payload refers to by a key from Coordinator.Share is had with fetch.
type PlayFunc func(ctx context.Context, payload []byte, fetch Fetch) ([]byte, error)

// Fetch returns the data a coordinator shared under key (Share).
type Fetch func(ctx context.Context, key string) ([]byte, error)

// ErrNotShared is returned by a Fetch of a key no coordinator shared.
var ErrNotShared = errors.New("not shared by the coordinator")

// fetch is the Fetch of a worker: the data of key, checked against it.
func (w *worker) fetch(ctx context.Context, key string) ([]byte, error) {
	if len(key) != 2*sha256.Size || strings.Trim(key, "0123456789abcdef") != "" {
		return nil, fmt.Errorf("natsqueue: fetch %.80q: not a key", key)
	}
	st, err := w.js.Stream(ctx, sharedStream)
	if err != nil {
		return nil, fmt.Errorf("natsqueue: fetch %s: %w", key, err)
	}
	m, err := st.GetLastMsgForSubject(ctx, sharedPrefix+key)
	switch {
	case errors.Is(err, jetstream.ErrMsgNotFound):
		return nil, fmt.Errorf("natsqueue: fetch %s: %w", key, ErrNotShared)
	case err != nil:
		return nil, fmt.Errorf("natsqueue: fetch %s: %w", key, err)
	}
	if sum := sha256.Sum256(m.Data); hex.EncodeToString(sum[:]) != key {
		return nil, fmt.Errorf("natsqueue: fetch %s: the data stored under it is not its own", key)
	}
	return m.Data, nil
}

// WorkerOptions configure Work.
type WorkerOptions struct {
	// Slots is how many jobs the worker plays at once (default 1).
	Slots int
	// Log, when not nil, is told of each failed job.
	Log func(format string, args ...any)
	// Played, when not nil, is called after each job whose result was
	// published, with how long it took.
	Played func(id string, took time.Duration)
	// Build is what the worker says of its build in its announcements,
	// for the coordinator to check (Settings.CheckWorker).
	Build string
	// CheckCoordinator, when not nil, is asked of the coordinator's build
	// (Settings.Build) once the work queue is found, before any job is
	// taken: Work returns the error it returns, so a worker of another
	// build takes no job (a job taken and handed back counts as one of
	// its deliveries).
	CheckCoordinator func(build string) error
}

// Work pulls jobs from the server nc is connected to and plays them with
// play until ctx ends. It waits for a coordinator to make the work queue,
// so workers may start first. While a job is played the worker tells the
// server it is in progress, so a long job is not delivered again; a
// worker that dies stops telling it, and the job goes to another.
//
// A slot whose jobs are short (under prefetchBelow) asks for its next job
// while it plays the current one, and publishes a result without waiting
// for the server's acknowledgement before playing on, so a short job
// costs little more than its games; a slot with long jobs holds one job
// at a time, so none waits in its hands at the end of a wave while
// another worker is idle.
func Work(ctx context.Context, nc *nats.Conn, play PlayFunc, o WorkerOptions) error {
	slots := max(1, o.Slots)
	js, err := jetstream.New(nc)
	if err != nil {
		return fmt.Errorf("natsqueue: %w", err)
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
			return fmt.Errorf("natsqueue: find the work queue: %w", err)
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(time.Second):
		}
	}
	w := &worker{ctx: ctx, js: js, cons: cons, play: play, o: o,
		ackWait: cons.CachedInfo().Config.AckWait, maxDeliver: cons.CachedInfo().Config.MaxDeliver}
	host, _ := os.Hostname()
	me := hello{ID: fmt.Sprintf("%s-%d-%p", host, os.Getpid(), nc), Slots: slots, Build: o.Build}
	if o.CheckCoordinator != nil {
		if err := o.CheckCoordinator(cons.CachedInfo().Config.Metadata[buildKey]); err != nil {
			// Announced once, so the coordinator hears who refused it.
			if data, merr := json.Marshal(me); merr == nil && nc.Publish(helloSubject, data) == nil {
				_ = nc.Flush()
			}
			return err
		}
	}
	go announce(ctx, nc, me)
	var wg sync.WaitGroup
	errs := make(chan error, slots)
	for range slots {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := w.slot(); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	w.pending.Wait()
	select {
	case err := <-errs:
		return err
	default:
		return nil
	}
}

// prefetchBelow is how short a slot's last job must have been for it to
// ask for the next one while playing.
const prefetchBelow = 25 * time.Millisecond

// worker is what a worker's slots share.
type worker struct {
	ctx        context.Context
	js         jetstream.JetStream
	cons       jetstream.Consumer
	play       PlayFunc
	o          WorkerOptions
	ackWait    time.Duration
	maxDeliver int
	pending    sync.WaitGroup // results not yet acknowledged by the server
}

// held is a job in a worker's hands: the server is told it is in
// progress until stop.
type held struct {
	m    jetstream.Msg
	stop context.CancelFunc
}

type fetched struct {
	h   *held
	err error
}

// next waits a while for a job and, once it has one, tells the server
// it is in progress every third of the ack wait.
func (w *worker) next() (*held, error) {
	m, err := w.cons.Next(jetstream.FetchMaxWait(2 * time.Second))
	if err != nil {
		return nil, err
	}
	beat, stop := context.WithCancel(context.Background())
	go func() {
		t := time.NewTicker(max(w.ackWait/3, 10*time.Millisecond))
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
	return &held{m: m, stop: stop}, nil
}

// slot plays jobs one after another until the worker's context ends.
func (w *worker) slot() error {
	var ahead chan fetched // the next job, asked for while playing
	defer func() {
		if ahead != nil {
			if f := <-ahead; f.h != nil {
				f.h.stop()
				_ = f.h.m.Nak() // stopped: let another worker have it now
			}
		}
	}()
	lastTook := prefetchBelow
	for {
		var f fetched
		switch {
		case ahead != nil:
			f = <-ahead
			ahead = nil
		case w.ctx.Err() != nil:
			return nil
		default:
			f.h, f.err = w.next()
		}
		if f.err != nil {
			if errors.Is(f.err, jetstream.ErrNoMessages) || errors.Is(f.err, nats.ErrTimeout) || w.ctx.Err() != nil {
				continue
			}
			if errors.Is(f.err, jetstream.ErrConsumerDeleted) || errors.Is(f.err, jetstream.ErrConsumerNotFound) {
				return fmt.Errorf("natsqueue: the work queue was removed: %w", f.err)
			}
			time.Sleep(time.Second) // a reconnect, most likely
			continue
		}
		if lastTook < prefetchBelow && w.ctx.Err() == nil {
			ahead = make(chan fetched, 1)
			go func() {
				var f fetched
				f.h, f.err = w.next()
				ahead <- f
			}()
		}
		lastTook = w.playOne(f.h)
	}
}

// playOne plays job h, publishes its result (or a failure report) and,
// once the server has stored it, acknowledges the job. It returns how
// long the play took.
func (w *worker) playOne(h *held) time.Duration {
	m := h.m
	subject := m.Subject()
	if len(subject) <= len(jobsPrefix) || subject[:len(jobsPrefix)] != jobsPrefix {
		h.stop()
		_ = m.Term() // not a job
		return 0
	}
	id := subject[len(jobsPrefix):]
	delivery := 1
	var seq uint64
	if md, err := m.Metadata(); err == nil {
		delivery, seq = int(md.NumDelivered), md.Sequence.Stream
	}
	began := time.Now()
	result, err := w.play(w.ctx, m.Data(), w.fetch)
	took := time.Since(began)
	if w.ctx.Err() != nil {
		h.stop()
		_ = m.Nak() // stopped: let another worker have it now
		return took
	}
	msg := &nats.Msg{Subject: resultsPrefix + id, Data: result, Header: nats.Header{}}
	// One result per delivery: the server drops a retried publish of it,
	// and the coordinator ignores all but the first result of a job.
	msgID := fmt.Sprintf("%s.s%d.d%d", id, seq, delivery)
	if err != nil {
		if w.o.Log != nil {
			w.o.Log("job %s failed (delivery %d of %d): %v", id, delivery, w.maxDeliver, err)
		}
		msg.Data = nil
		msg.Header.Set(headerError, headerValue(err.Error()))
		msg.Header.Set(headerDelivery, strconv.Itoa(delivery))
		msgID += ".failed"
	}
	fut, perr := w.js.PublishMsgAsync(msg, jetstream.WithMsgID(msgID))
	if perr != nil {
		h.stop()
		_ = m.Nak()
		return took
	}
	w.pending.Add(1)
	go func() {
		defer w.pending.Done()
		defer h.stop()
		if !stored(w.ctx, fut) {
			_ = m.Nak()
			return
		}
		// The result is stored: the job is done. A lost ack only means
		// the job is played again, and its second result ignored.
		switch {
		case err == nil:
			_ = m.Ack()
			if w.o.Played != nil {
				w.o.Played(id, took)
			}
		case delivery >= w.maxDeliver:
			_ = m.Term()
		default:
			_ = m.NakWithDelay(time.Second)
		}
	}()
	return took
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

// stored waits until the server has stored a published message (true),
// refused it, or is silent for 30 s, or 2 s after ctx ends.
func stored(ctx context.Context, fut jetstream.PubAckFuture) bool {
	timer := time.NewTimer(30 * time.Second)
	defer timer.Stop()
	for {
		select {
		case <-fut.Ok():
			return true
		case <-fut.Err():
			return false
		case <-timer.C:
			return false
		case <-ctx.Done():
			timer.Reset(2 * time.Second)
			ctx = context.Background()
		}
	}
}

// headerValue keeps a header value on one line and short.
func headerValue(s string) string {
	s = english.OneLine(s)
	if n := utf8.RuneCountInString(s); n > 1000 {
		s = string([]rune(s)[:1000])
	}
	return s
}
