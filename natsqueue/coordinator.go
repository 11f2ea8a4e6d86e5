package natsqueue

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/printable"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nuid"
)

// The streams, consumer and subjects evotune uses on a NATS server.
const (
	jobsStream     = "EVOTUNE_JOBS"
	resultsStream  = "EVOTUNE_RESULTS"
	sharedStream   = "EVOTUNE_SHARED"
	workerConsumer = "evotune-workers"
	// buildKey is the workers' consumer's metadata key of the
	// coordinator's build (Settings.Build).
	buildKey      = "evotune-build"
	jobsPrefix    = "evotune.jobs."
	resultsPrefix = "evotune.results."
	sharedPrefix  = "evotune.shared."
	helloSubject  = "evotune.workers.hello"
	// headerError marks a result message as a worker's failure report;
	// its value is the error.
	headerError = "Evotune-Error"
	// headerDelivery is the delivery of the job a failure report is of.
	headerDelivery = "Evotune-Delivery"
	// headerRefused marks a result message as a worker's refusal of a
	// job's run (ErrRefused); its value is why.
	headerRefused = "Evotune-Refused"
	// headerWorker names the worker that refused, as its hellos do.
	headerWorker = "Evotune-Worker"
)

// ErrRefused marks an error of a PlayFunc that cannot play any job of
// the job's run (the run's first ID token) on this worker: it is not the
// job's fault, so it never counts against the job. The worker hands the
// job back, to be queued again for others, and takes no more of that
// run's jobs while any are queued.
var ErrRefused = errors.New("the worker refuses the run")

// Refuse wraps err as a refusal (ErrRefused).
func Refuse(err error) error { return refused{err} }

type refused struct{ err error }

func (r refused) Error() string   { return r.err.Error() }
func (r refused) Unwrap() []error { return []error{r.err, ErrRefused} }

// Settings of the work queue; the zero value of each means its default.
type Settings struct {
	// AckWait is how long a job may go without a worker's heartbeat
	// before it is delivered to another worker (default 30s).
	AckWait time.Duration
	// MaxDeliver is how many times a job is delivered before the run
	// gives up on it (default 4).
	MaxDeliver int
	// Build is what the coordinator says of its build: workers read it
	// before they take a job (WorkerOptions.CheckCoordinator), so a
	// worker of another build refuses the queue without touching it.
	Build string
	// CheckWorker, when not nil, is asked of every worker's build, as
	// the worker announces it (WorkerOptions.Build): a worker it refuses
	// is not counted among the workers, and OnRefused is told of it once.
	// (The worker refuses the coordinator's jobs itself: a coordinator
	// cannot tell one worker's results from another's.)
	CheckWorker func(build string) error
	// OnRefused, when not nil, is told of each worker CheckWorker
	// refuses, once.
	OnRefused func(worker string, err error)
}

func (s Settings) withDefaults() Settings {
	if s.AckWait == 0 {
		s.AckWait = 30 * time.Second
	}
	if s.MaxDeliver == 0 {
		s.MaxDeliver = 4
	}
	return s
}

// Job is one work unit: an ID, unique in its run and the same after a
// restart (dot-separated tokens of letters, digits, '-' and '_'), and
// the payload a worker plays.
type Job struct {
	ID      string
	Payload []byte
}

var idPattern = regexp.MustCompile(`^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$`)

// Wave is a list of jobs to play at once: every job's ID starts with
// Group and a dot.
type Wave struct {
	Group string
	Jobs  []Job
	// Accept takes job i's result; an error means the result is not one
	// (malformed): it is logged and the job played again.
	Accept func(i int, result []byte) error
	// Progress, when not nil, is told how many jobs are done.
	Progress func(done int)
	// Log, when not nil, is told of ignored messages, failures and
	// retries instead of the Coordinator's Log.
	Log func(format string, args ...any)
}

// Status is what a coordinator knows of its workers.
type Status struct {
	Workers  int // worker processes heard from lately that play the run
	Slots    int // the batches they play at once
	Refusing int // worker processes heard from lately that refused the run
	// Disconnected says the coordinator has lost its server (it
	// reconnects): it hears of no worker meanwhile.
	Disconnected bool
}

// Coordinator publishes jobs and collects their results.
type Coordinator struct {
	nc  *nats.Conn
	js  jetstream.JetStream
	set Settings
	// Log, when not nil, is told of ignored messages and retries.
	Log func(format string, args ...any)
	// OnStatus, when not nil, is told the workers connected, every few
	// seconds while a wave is played.
	OnStatus func(Status)
	// OnRefusal, when not nil, is told once per worker that refuses the
	// run's jobs, with its reason (text from the network: escape it).
	OnRefusal func(worker, reason string)

	mu       sync.Mutex
	workers  map[string]hello    // by worker id
	refusers map[string]struct{} // workers that refused the run
	refused  map[string]bool     // workers CheckWorker refused, by id
	hellos   *nats.Subscription
}

// maxWorkers bounds the workers a coordinator keeps track of, and
// maxSlots the slots one may announce, so forged hellos can neither
// grow its memory nor overflow the count of slots.
const (
	maxWorkers = 10_000
	maxSlots   = 1 << 16
)

// hello is a worker's periodic announcement.
type hello struct {
	ID    string    `json:"id"`
	Slots int       `json:"slots"`
	Build string    `json:"build,omitempty"` // WorkerOptions.Build
	seen  time.Time // when it was heard
}

// maxHello bounds a hello; a longer message is foreign.
const maxHello = 4096

// NewCoordinator makes the streams and the workers' consumer on nc's
// server (or checks they are there) and listens for workers.
func NewCoordinator(ctx context.Context, nc *nats.Conn, set Settings) (*Coordinator, error) {
	set = set.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("natsqueue: %w", err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: jobsStream, Subjects: []string{jobsPrefix + ">"}, Retention: jetstream.WorkQueuePolicy,
		Storage: jetstream.FileStorage, Duplicates: time.Hour, MaxMsgSize: MaxPayload,
	}); err != nil {
		return nil, fmt.Errorf("natsqueue: make the jobs stream: %w", err)
	}
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: resultsStream, Subjects: []string{resultsPrefix + ">"}, Retention: jetstream.LimitsPolicy,
		Storage: jetstream.FileStorage, Duplicates: time.Hour, MaxAge: 7 * 24 * time.Hour, MaxMsgSize: MaxPayload,
	}); err != nil {
		return nil, fmt.Errorf("natsqueue: make the results stream: %w", err)
	}
	// What the jobs of a run share, stored once (the last copy of each
	// key kept) and read by each worker once.
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{
		Name: sharedStream, Subjects: []string{sharedPrefix + "*"}, Retention: jetstream.LimitsPolicy,
		Storage: jetstream.FileStorage, MaxMsgsPerSubject: 1, MaxAge: 7 * 24 * time.Hour, MaxMsgSize: MaxPayload,
		AllowDirect: true,
	}); err != nil {
		return nil, fmt.Errorf("natsqueue: make the shared stream: %w", err)
	}
	c := &Coordinator{nc: nc, js: js, set: set, workers: map[string]hello{}, refusers: map[string]struct{}{}, refused: map[string]bool{}}
	c.hellos, err = nc.Subscribe(helloSubject, func(m *nats.Msg) {
		var h hello
		if len(m.Data) > maxHello || json.Unmarshal(m.Data, &h) != nil || h.ID == "" || h.Slots < 1 || h.Slots > maxSlots {
			return // foreign
		}
		h.ID = printable.Escape(headerValue(h.ID))
		h.seen = time.Now()
		if set.CheckWorker != nil {
			if err := set.CheckWorker(h.Build); err != nil {
				c.mu.Lock()
				first := !c.refused[h.ID] && len(c.refused) < maxWorkers
				if first {
					c.refused[h.ID] = true
				}
				c.mu.Unlock()
				if first && set.OnRefused != nil {
					set.OnRefused(h.ID, err)
				}
				return
			}
		}
		c.mu.Lock()
		if _, known := c.workers[h.ID]; known || len(c.workers) < maxWorkers {
			c.workers[h.ID] = h
		}
		c.mu.Unlock()
	})
	if err != nil {
		return nil, fmt.Errorf("natsqueue: %w", err)
	}
	// A worker that refuses this coordinator says hello once, as soon as
	// it finds the workers' consumer: the server holds the subscription
	// before the consumer is made.
	if err := nc.Flush(); err != nil {
		c.hellos.Unsubscribe()
		return nil, fmt.Errorf("natsqueue: %w", err)
	}
	if _, err := js.CreateOrUpdateConsumer(ctx, jobsStream, jetstream.ConsumerConfig{
		Durable: workerConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: set.AckWait,
		MaxDeliver: set.MaxDeliver, MaxAckPending: 10_000, Metadata: map[string]string{buildKey: set.Build},
	}); err != nil {
		c.hellos.Unsubscribe()
		return nil, fmt.Errorf("natsqueue: make the workers' consumer: %w", err)
	}
	return c, nil
}

// Close stops listening; the connection stays the caller's.
func (c *Coordinator) Close() {
	if c.hellos != nil {
		c.hellos.Unsubscribe()
	}
}

// Workers is what the coordinator heard of its workers in the last
// helloEvery*3, those that refused its run left out.
func (c *Coordinator) Workers() Status {
	c.mu.Lock()
	defer c.mu.Unlock()
	var s Status
	for id, h := range c.workers {
		if time.Since(h.seen) > 3*helloEvery {
			delete(c.workers, id)
			continue
		}
		if _, ok := c.refusers[id]; ok {
			s.Refusing++
			continue
		}
		s.Workers++
		s.Slots += h.Slots // at most maxWorkers * maxSlots
	}
	s.Disconnected = !c.nc.IsConnected()
	return s
}

func (c *Coordinator) logf(format string, args ...any) {
	if c.Log != nil {
		c.Log(format, args...)
	}
}

// Share stores data that jobs refer to (what every job of a run has in
// common) where workers fetch it once (see Fetch), and returns its key:
// the SHA-256 of data, so a worker can check what it fetched. Sharing
// the same data again refreshes its copy; a caller shares it before
// each wave that refers to it, so its copy never outlives its use.
func (c *Coordinator) Share(ctx context.Context, data []byte) (string, error) {
	sum := sha256.Sum256(data)
	key := hex.EncodeToString(sum[:])
	if _, err := c.js.Publish(ctx, sharedPrefix+key, data); err != nil {
		return "", fmt.Errorf("natsqueue: share %d bytes: %w", len(data), err)
	}
	return key, nil
}

// ErrJobFailed is returned when a job failed on every delivery.
var ErrJobFailed = errors.New("failed on every delivery")

// Play publishes the wave's jobs (a job already published under its ID,
// by this coordinator or one before a restart, is not queued again) and
// waits until each has a result Accept took, a job fails on every
// delivery, or ctx ends. Results already in the results stream, of a
// previous coordinator, count.
//
// What counts against a job is what the server did, never what a
// message claims: a job fails when the server has delivered its copy
// MaxDeliver times without its being played (its max-deliveries
// advisory), or when MaxDeliver copies each came back with a result
// Accept refused. A result counts as its copy's only when its message ID
// names the copy's stream sequence, once per copy; a failure report only
// gives the reason quoted when the job fails; a worker's refusal
// (ErrRefused) queues the job again, counting nothing. Anything else on
// the results subjects (malformed, oversized, duplicate or foreign
// messages) is logged and ignored. Text from messages is escaped
// (package printable) before it is logged or returned.
func (c *Coordinator) Play(ctx context.Context, w Wave) error {
	if !idPattern.MatchString(w.Group) {
		return fmt.Errorf("natsqueue: bad job group %q", w.Group)
	}
	index := make(map[string]int, len(w.Jobs))
	for i, j := range w.Jobs {
		if !idPattern.MatchString(j.ID) || !strings.HasPrefix(j.ID, w.Group+".") {
			return fmt.Errorf("natsqueue: bad job id %q in group %q", j.ID, w.Group)
		}
		index[j.ID] = i
	}
	logf := c.logf
	if w.Log != nil {
		logf = w.Log
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// Listen before publishing, so no result is missed.
	results, err := c.js.OrderedConsumer(ctx, resultsStream, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{resultsPrefix + w.Group + ".>"}, DeliverPolicy: jetstream.DeliverAllPolicy,
	})
	if err != nil {
		return fmt.Errorf("natsqueue: read results: %w", err)
	}
	msgs, err := results.Messages()
	if err != nil {
		return fmt.Errorf("natsqueue: read results: %w", err)
	}
	defer msgs.Stop()
	go func() { <-ctx.Done(); msgs.Stop() }() // Next takes no context
	var (
		mu       sync.Mutex
		current  = make([]uint64, len(w.Jobs)) // stream sequence of each job's live copy
		reasons  = make([]string, len(w.Jobs)) // the last failure a worker reported
		failed   error
		copies   = make([]int, len(w.Jobs)) // copies published of each job
		rejected = make([]int, len(w.Jobs)) // copies whose result Accept refused
		counted  = map[uint64]bool{}        // copies already judged
	)
	stop := func(err error) {
		mu.Lock()
		if failed == nil {
			failed = err
		}
		mu.Unlock()
		cancel()
	}
	publish := func(i int) error {
		id := w.Jobs[i].ID
		msgID := id
		if copies[i] > 0 {
			msgID = id + ".retry" + strconv.Itoa(copies[i])
		}
		copies[i]++
		ack, err := c.js.Publish(ctx, jobsPrefix+id, w.Jobs[i].Payload, jetstream.WithMsgID(msgID))
		if err != nil {
			return fmt.Errorf("natsqueue: publish job %s: %w", id, err)
		}
		if ack.Duplicate && c.consumed(ctx, ack.Sequence) {
			// Published before (by a coordinator before a restart, or a
			// run of the same config) and already played: its result
			// may have been purged with its wave, so queue it again
			// under a fresh ID; a second result is ignored.
			if ack, err = c.js.Publish(ctx, jobsPrefix+id, w.Jobs[i].Payload, jetstream.WithMsgID(msgID+".again."+nuid.Next())); err != nil {
				return fmt.Errorf("natsqueue: publish job %s: %w", id, err)
			}
		}
		mu.Lock()
		current[i] = ack.Sequence
		mu.Unlock()
		return nil
	}
	// A job whose copy the server delivered MaxDeliver times without a
	// result (its workers failed, died or were too slow) ends the wave:
	// the server's advisory says so.
	adv, err := c.nc.Subscribe("$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES."+jobsStream+"."+workerConsumer, func(m *nats.Msg) {
		var a struct {
			StreamSeq  uint64 `json:"stream_seq"`
			Deliveries int    `json:"deliveries"`
		}
		if len(m.Data) > 4096 || json.Unmarshal(m.Data, &a) != nil {
			return
		}
		mu.Lock()
		i := slices.Index(current, a.StreamSeq)
		reason := ""
		if i >= 0 {
			reason = reasons[i]
		}
		mu.Unlock()
		switch {
		case i < 0 || a.StreamSeq == 0:
		case reason != "":
			stop(fmt.Errorf("natsqueue: job %s %w (%s): %s", w.Jobs[i].ID, ErrJobFailed, english.Count(a.Deliveries, "delivery"), reason))
		default:
			stop(fmt.Errorf("natsqueue: job %s was delivered %s and no worker finished it (workers died on it, or it runs longer than they live): %w",
				w.Jobs[i].ID, english.Count(a.Deliveries, "time"), ErrJobFailed))
		}
	})
	if err != nil {
		return fmt.Errorf("natsqueue: %w", err)
	}
	defer adv.Unsubscribe()
	for i := range w.Jobs {
		if err := publish(i); err != nil {
			return err
		}
	}
	go c.watch(ctx)
	// judge reports whether a message of job i is its live copy's, the
	// first such: what it says counts against the job (or queues it
	// again) once per copy.
	judge := func(i int, m jetstream.Msg) bool {
		seq, ok := copyOf(m.Headers().Get(jetstream.MsgIDHeader), w.Jobs[i].ID)
		mu.Lock()
		defer mu.Unlock()
		if !ok || seq != current[i] || counted[seq] {
			return false
		}
		counted[seq] = true
		return true
	}
	done := make([]bool, len(w.Jobs))
	left := len(w.Jobs)
	for left > 0 {
		m, err := msgs.Next()
		if err != nil {
			mu.Lock()
			f := failed
			mu.Unlock()
			switch {
			case f != nil:
				return f
			case ctx.Err() != nil:
				return context.Cause(ctx)
			}
			return fmt.Errorf("natsqueue: read results: %w", err)
		}
		id := strings.TrimPrefix(m.Subject(), resultsPrefix)
		i, ok := index[id]
		if !ok {
			logf("a result on %s, of no job of this wave: ignored", printable.Escape(m.Subject()))
			continue
		}
		if done[i] {
			continue // a late duplicate
		}
		if reason := m.Headers().Get(headerRefused); reason != "" {
			reason, worker := printable.Escape(headerValue(reason)), printable.Escape(headerValue(m.Headers().Get(headerWorker)))
			c.refusedBy(worker, reason)
			if !judge(i, m) {
				logf("a refusal of job %s by worker %s, of no copy in play: ignored", id, worker)
				continue
			}
			logf("worker %s refuses job %s: %s; queued again for another worker", worker, id, reason)
			if err := publish(i); err != nil {
				return err
			}
			continue
		}
		if reason := m.Headers().Get(headerError); reason != "" {
			reason = printable.Escape(headerValue(reason))
			mu.Lock()
			reasons[i] = reason
			mu.Unlock()
			logf("job %s failed (delivery %s): %s", id, printable.Escape(headerValue(m.Headers().Get(headerDelivery))), reason)
			continue
		}
		var bad error
		if len(m.Data()) > MaxPayload {
			bad = fmt.Errorf("a result of %d bytes", len(m.Data()))
		} else {
			bad = w.Accept(i, m.Data())
		}
		if bad != nil {
			msg := printable.Escape(headerValue(bad.Error()))
			if !judge(i, m) {
				logf("job %s: %s, of no copy in play: ignored", id, msg)
				continue
			}
			rejected[i]++
			if rejected[i] >= c.set.MaxDeliver {
				return fmt.Errorf("natsqueue: job %s: %w (%s, none good): %s", id, ErrJobFailed, english.Count(rejected[i], "result"), msg)
			}
			logf("job %s: %s; queued again", id, msg)
			if err := publish(i); err != nil {
				return err
			}
			continue
		}
		done[i] = true
		left--
		if w.Progress != nil {
			w.Progress(len(w.Jobs) - left)
		}
	}
	c.purge(ctx, w.Group)
	return nil
}

// copyOf reads the stream sequence of the job copy a worker's result
// message is of, from its message ID: "<job>.s<seq>.d<delivery>" and a
// suffix.
func copyOf(msgID, job string) (uint64, bool) {
	rest, ok := strings.CutPrefix(msgID, job+".s")
	if !ok {
		return 0, false
	}
	digits, _, _ := strings.Cut(rest, ".")
	seq, err := strconv.ParseUint(digits, 10, 64)
	return seq, err == nil && seq > 0
}

// refusedBy notes that worker refuses the run, telling OnRefusal the
// first time.
func (c *Coordinator) refusedBy(worker, reason string) {
	c.mu.Lock()
	_, seen := c.refusers[worker]
	if !seen && len(c.refusers) < maxWorkers {
		c.refusers[worker] = struct{}{}
	}
	c.mu.Unlock()
	if !seen && c.OnRefusal != nil {
		c.OnRefusal(worker, reason)
	}
}

// purge drops the wave's results, which the caller has taken (and
// journalled), and any copy of its jobs still queued, so the store does
// not grow with the run and no worker plays a finished job again.
func (c *Coordinator) purge(ctx context.Context, group string) {
	for _, p := range []struct{ stream, subject string }{
		{resultsStream, resultsPrefix + group + ".>"}, {jobsStream, jobsPrefix + group + ".>"},
	} {
		s, err := c.js.Stream(ctx, p.stream)
		if err == nil {
			err = s.Purge(ctx, jetstream.WithPurgeSubject(p.subject))
		}
		if err != nil {
			c.logf("purge %s: %v", p.subject, err)
		}
	}
}

// consumed reports whether the job at seq has left the work queue
// (played, or given up on).
func (c *Coordinator) consumed(ctx context.Context, seq uint64) bool {
	s, err := c.js.Stream(ctx, jobsStream)
	if err != nil {
		return false
	}
	_, err = s.GetMsg(ctx, seq)
	return errors.Is(err, jetstream.ErrMsgNotFound)
}

// watch reports the workers while a wave is played.
func (c *Coordinator) watch(ctx context.Context) {
	if c.OnStatus == nil {
		return
	}
	t := time.NewTicker(helloEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			c.OnStatus(c.Workers())
		}
	}
}
