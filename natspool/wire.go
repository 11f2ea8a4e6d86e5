package natspool

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"strings"
	"sync"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/internal/buildinfo"
	"github.com/evotune/evotune/internal/english"
)

// The wire between a coordinator and its workers: what a Pool publishes
// of a batch (its run's description once, then the batch's own) and
// what a Worker answers, each opened by magic bytes and a format number.

// DescriptionFormat is the version of the run and batch descriptions a
// Pool writes and a Worker reads.
const DescriptionFormat = 3

// MaxDescription bounds a batch or run description a worker accepts, and
// MaxResults a result a coordinator accepts.
const (
	MaxDescription = 8 << 20
	MaxResults     = 2048 + 8*engine.MaxBatchGames + maxNotes
)

// Magic bytes open a batch description and a worker's results, so a
// message of another kind or version is told apart from a damaged one.
var (
	batchMagic   = [4]byte{'E', 'V', 'B', DescriptionFormat}
	resultsMagic = [4]byte{'E', 'V', 'R', DescriptionFormat}
)

// runDescription is what every batch of a run shares, sent once per run
// (runDescriptionOf): the config the run was started with, the
// hashes of the player files it names, and the coordinator's build, which
// a worker's must match (buildinfo.Compatible).
type runDescription struct {
	Format     int               `json:"format"`
	Config     string            `json:"config"`
	ConfigHash string            `json:"config_hash"`
	Files      map[string]string `json:"files,omitempty"` // sha256 of the player files the config names
	// Engines are the sha256 of the files each UCI engine's command names:
	// a worker plays no other build of an engine (engine.ForWorker).
	Engines map[string]map[string]string `json:"engines,omitempty"`
	Build   buildinfo.Info               `json:"build"`
}

// batchDescription is a batch as a worker sees it (engine.Batch.Plays):
// its run (the key its run description is stored under), the players
// (genomes of a species, or its baseline opponents) and the games
// between them. With its run's description it is self-contained, so any
// worker with the same build can play it, at any time, in any order.
//
// Encoded (descriptionOf) in binary, little-endian: the magic "EVB" and
// DescriptionFormat; the batch ID and the run key, each a uvarint length and
// bytes; a uvarint count of players, each a uvarint species, a kind
// byte (0: genes, a uvarint count and that many float64 bits; 1: a
// baseline, its uvarint index); a uvarint count of games, each player
// A+1 and B+1 as uvarints (0: none), the seed (8 bytes) and a flip byte.
type batchDescription struct {
	Batch   string
	Run     string
	Players []engine.BatchPlayer
	Games   []engine.BatchGame
}

// runDescriptionOf describes what every batch of b's run shares: the
// config text, its hash and the hashes of the player files it names. It
// is the same for every batch of a run, so a Pool stores it once, under
// a key of its choosing, and names the key in descriptionOf.
func runDescriptionOf(b *engine.Batch) ([]byte, error) {
	s := b.Run()
	data, err := json.Marshal(runDescription{Format: DescriptionFormat, Config: string(s.Config().Text()), ConfigHash: s.Hash(), Files: s.Files(), Engines: s.EngineFiles(), Build: buildinfo.Own()})
	if err != nil {
		return nil, fmt.Errorf("natspool: batch %s: %w", b.ID, err)
	}
	return data, nil
}

// descriptionOf encodes batch b as a description that a Worker plays,
// given a way to fetch the run description stored under key run.
func descriptionOf(b *engine.Batch, run string) []byte {
	s := batchDescription{Batch: b.ID, Run: run}
	s.Players, s.Games = b.Plays()
	return s.append(nil)
}

// append encodes s after out.
func (s *batchDescription) append(out []byte) []byte {
	out = append(out, batchMagic[:]...)
	out = appendString(out, s.Batch)
	out = appendString(out, s.Run)
	out = binary.AppendUvarint(out, uint64(len(s.Players)))
	for _, p := range s.Players {
		out = binary.AppendUvarint(out, uint64(p.Species))
		if p.Baseline >= 0 {
			out = append(out, 1)
			out = binary.AppendUvarint(out, uint64(p.Baseline))
			continue
		}
		out = append(out, 0)
		out = binary.AppendUvarint(out, uint64(len(p.Genes)))
		for _, g := range p.Genes {
			out = binary.LittleEndian.AppendUint64(out, math.Float64bits(g))
		}
	}
	out = binary.AppendUvarint(out, uint64(len(s.Games)))
	for _, g := range s.Games {
		out = binary.AppendUvarint(out, uint64(g.A+1))
		out = binary.AppendUvarint(out, uint64(g.B+1))
		out = binary.LittleEndian.AppendUint64(out, g.Seed)
		flip := byte(0)
		if g.Flip {
			flip = 1
		}
		out = append(out, flip)
	}
	return out
}

func appendString(out []byte, s string) []byte {
	out = binary.AppendUvarint(out, uint64(len(s)))
	return append(out, s...)
}

// descReader reads a binary description; its first error sticks, and
// every count is bounded by the bytes left, so a damaged or hostile
// message cannot make it allocate more than its own size.
type descReader struct {
	data []byte
	size int // the whole message's length, for positions
	err  error
}

func (r *descReader) fail(what string) {
	if r.err == nil {
		r.err = fmt.Errorf("%s at byte %d", what, r.pos())
	}
}

func (r *descReader) pos() int { return r.size - len(r.data) }

// errOtherFormat marks a description or result of another format.
var errOtherFormat = errors.New("another version's format")

func (r *descReader) magic(m [4]byte, what string) {
	switch {
	case len(r.data) < 4 || r.data[0] != m[0] || r.data[1] != m[1] || r.data[2] != m[2]:
		r.err = fmt.Errorf("not %s", what)
	case r.data[3] != m[3]:
		r.err = fmt.Errorf("%s of format %d, this evotune reads %d: %w", what, r.data[3], m[3], errOtherFormat)
	default:
		r.data = r.data[4:]
	}
}

// uint reads a uvarint no larger than limit.
func (r *descReader) uint(limit uint64, what string) uint64 {
	return r.bounded(func() uint64 { return limit }, what)
}

// count reads a count of items of at least size bytes each: no more than
// limit, nor than the bytes after it hold.
func (r *descReader) count(size int, limit uint64, what string) int {
	return int(r.bounded(func() uint64 { return min(limit, uint64(len(r.data)/size)) }, what))
}

// bounded reads a uvarint no larger than limit() once it is read.
func (r *descReader) bounded(limit func() uint64, what string) uint64 {
	if r.err != nil {
		return 0
	}
	x, n := binary.Uvarint(r.data)
	if n <= 0 {
		r.fail("truncated or bad " + what)
		return 0
	}
	r.data = r.data[n:]
	if l := limit(); x > l {
		r.fail(fmt.Sprintf("%s %d, more than %d", what, x, l))
		return 0
	}
	return x
}

func (r *descReader) byte(what string) byte {
	if r.err != nil {
		return 0
	}
	if len(r.data) == 0 {
		r.fail("truncated " + what)
		return 0
	}
	b := r.data[0]
	r.data = r.data[1:]
	return b
}

func (r *descReader) u64(what string) uint64 {
	if r.err != nil {
		return 0
	}
	if len(r.data) < 8 {
		r.fail("truncated " + what)
		return 0
	}
	x := binary.LittleEndian.Uint64(r.data)
	r.data = r.data[8:]
	return x
}

func (r *descReader) string(limit int, what string) string {
	n := r.count(1, uint64(limit), what+" length")
	if r.err != nil {
		return ""
	}
	s := string(r.data[:n])
	r.data = r.data[n:]
	return s
}

func (r *descReader) end() {
	if r.err == nil && len(r.data) > 0 {
		r.fail(fmt.Sprintf("%d bytes after the end", len(r.data)))
	}
}

// decodeBatch reads a batch description.
func decodeBatch(data []byte) (*batchDescription, error) {
	r := &descReader{data: data, size: len(data)}
	r.magic(batchMagic, "a batch description")
	s := &batchDescription{Batch: r.string(1000, "batch ID"), Run: r.string(1000, "run key")}
	s.Players = make([]engine.BatchPlayer, r.count(2, engine.MaxBatchGames*2, "players"))
	for i := range s.Players {
		p := &s.Players[i]
		p.Species = int(r.uint(1000, "species"))
		p.Baseline = -1
		switch r.byte("player kind") {
		case 0:
			p.Genes = make([]float64, r.count(8, 1<<20, "genes"))
			for k := range p.Genes {
				p.Genes[k] = math.Float64frombits(r.u64("gene"))
			}
		case 1:
			p.Baseline = int(r.uint(1<<20, "baseline"))
		default:
			r.fail("bad player kind")
		}
	}
	s.Games = make([]engine.BatchGame, r.count(11, engine.MaxBatchGames, "games"))
	for i := range s.Games {
		g := &s.Games[i]
		g.A = int(r.uint(uint64(len(s.Players)), "player A")) - 1
		g.B = int(r.uint(uint64(len(s.Players)), "player B")) - 1
		g.Seed = r.u64("seed")
		switch r.byte("flip") {
		case 0:
		case 1:
			g.Flip = true
		default:
			r.fail("bad flip")
		}
	}
	r.end()
	if r.err != nil {
		return nil, fmt.Errorf("natspool: malformed batch description: %w", r.err)
	}
	return s, nil
}

// maxNotes bounds the notes of a worker's answer (engine.Note as JSON:
// the faults and records of the batch's games).
const maxNotes = 6 << 20

// encodeResults is a worker's answer to batch id: the results' bits,
// exactly, and the games' notes: the magic "EVR" and DescriptionFormat,
// the batch ID (a uvarint length and bytes), a uvarint count and that
// many float64 bits, then the notes as JSON (a uvarint length and bytes;
// 0 for none).
func encodeResults(id string, p engine.Played) []byte {
	notes := []byte(nil)
	if len(p.Notes) > 0 {
		notes, _ = json.Marshal(p.Notes) // plain data: it marshals
	}
	out := make([]byte, 0, 4+binary.MaxVarintLen64*3+len(id)+8*len(p.Results)+len(notes))
	out = append(out, resultsMagic[:]...)
	out = appendString(out, id)
	out = binary.AppendUvarint(out, uint64(len(p.Results)))
	for _, x := range p.Results {
		out = binary.LittleEndian.AppendUint64(out, math.Float64bits(x))
	}
	out = binary.AppendUvarint(out, uint64(len(notes)))
	return append(out, notes...)
}

// decodeResults reads a worker's answer to batch b: one result per game
// that a game can give (engine.Batch.Check). Anything else is an error
// naming what is wrong.
func decodeResults(b *engine.Batch, data []byte) (engine.Played, error) {
	out, err := readResults(b.ID, b.Games(), data)
	if err != nil {
		return engine.Played{}, err
	}
	if err := b.Check(out); err != nil {
		return engine.Played{}, err
	}
	return out, nil
}

// readResults reads a worker's answer to batch id of games games, as
// encodeResults wrote it.
func readResults(id string, games int, data []byte) (engine.Played, error) {
	if len(data) > MaxResults {
		return engine.Played{}, fmt.Errorf("natspool: results of %d bytes for batch %s", len(data), id)
	}
	r := &descReader{data: data, size: len(data)}
	r.magic(resultsMagic, "results")
	got := r.string(1000, "batch ID")
	var out engine.Played
	out.Results = make([]float64, r.count(8, engine.MaxBatchGames, "results"))
	for i := range out.Results {
		out.Results[i] = math.Float64frombits(r.u64("result"))
	}
	notes := r.string(maxNotes, "notes")
	r.end()
	switch {
	case r.err != nil:
		return engine.Played{}, fmt.Errorf("natspool: malformed results for batch %s: %w", id, r.err)
	case got != id:
		return engine.Played{}, fmt.Errorf("natspool: results for batch %q where %s was expected", got, id)
	case len(out.Results) != games:
		return engine.Played{}, fmt.Errorf("natspool: %d results for the %d games of batch %s", len(out.Results), games, id)
	}
	if notes != "" {
		dec := json.NewDecoder(strings.NewReader(notes))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&out.Notes); err != nil {
			return engine.Played{}, fmt.Errorf("natspool: malformed notes for batch %s: %w", id, err)
		}
	}
	return out, nil
}

// ErrRefused marks what a Worker returns when it cannot play a run's
// batches at all, whichever batch it is given: a batch format of another
// version, a run description it cannot fetch or read, a config that does
// not load here (an outside program it may not run or cannot start,
// player files it lacks) or that means something else here. It is the
// worker's failing, not the batch's: another worker may play it.
var ErrRefused = errors.New("this worker cannot play the run")

// refusal is an error of a worker that cannot play a run (ErrRefused).
type refusal struct{ err error }

func (r refusal) Error() string   { return r.err.Error() }
func (r refusal) Unwrap() []error { return []error{r.err, ErrRefused} }

// Worker plays batch descriptions (descriptionOf) for a coordinator on
// another machine. It keeps the configs it has loaded, by run key.
type Worker struct {
	// AllowPrograms lets configs that play an outside program run it
	// here (the command the config names, from this machine).
	AllowPrograms bool

	mu      sync.Mutex
	configs map[string]*engine.Setup // by run key
}

// Fetch returns the run description (runDescriptionOf) stored under key.
type Fetch func(ctx context.Context, key string) ([]byte, error)

// Close releases the configs the worker loaded (and their programs).
func (w *Worker) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.configs {
		c.Close()
	}
	w.configs = nil
}

// config is the config of run key, loaded once from its description.
func (w *Worker) config(ctx context.Context, batch, key string, fetch Fetch) (*engine.Setup, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.configs[key]; ok {
		return c, nil
	}
	data, err := fetch(ctx, key)
	if err != nil {
		return nil, fmt.Errorf("natspool: batch %s: the run's description: %w", batch, err)
	}
	if len(data) > MaxDescription {
		return nil, fmt.Errorf("natspool: a run description of %d bytes, more than %d", len(data), MaxDescription)
	}
	var s runDescription
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("natspool: malformed run description: %w", err)
	}
	if s.Format != DescriptionFormat {
		return nil, fmt.Errorf("natspool: run description format %d, this evotune reads %d", s.Format, DescriptionFormat)
	}
	// Results count only from a build known to compute the
	// coordinator's: another one may compute other results, silently.
	if err := buildinfo.Compatible(s.Build, buildinfo.Own()); err != nil {
		return nil, fmt.Errorf("natspool: batch %s: %w", batch, err)
	}
	c, err := config.Parse("batch "+batch+"#config", []byte(s.Config))
	var cfg *engine.Setup
	if err == nil {
		cfg, err = engine.Prepare(c, engine.ForWorker(w.AllowPrograms, s.Files, s.ConfigHash, s.Engines))
	}
	if errors.Is(err, engine.ErrProgramRefused) {
		return nil, engine.ErrProgramRefused
	}
	if err != nil {
		return nil, fmt.Errorf("natspool: the run's config does not load on this worker: %s", english.OneLine(err.Error()))
	}
	if cfg.Hash() != s.ConfigHash {
		cfg.Close()
		return nil, fmt.Errorf("natspool: the run's config has another meaning on this worker (another evotune version?)")
	}
	if !maps.Equal(cfg.Files(), s.Files) {
		cfg.Close()
		return nil, fmt.Errorf("natspool: the player files the config names differ on this worker; copy them beside it")
	}
	if w.configs == nil {
		w.configs = map[string]*engine.Setup{}
	}
	w.configs[key] = cfg
	return cfg, nil
}

// PlayBatch plays a batch description with up to workers goroutines,
// fetching its run's description the first time it meets the run, and
// returns the answer decodeResults reads. Errors of a worker that cannot
// play the run at all wrap ErrRefused; the others (a malformed
// description, a game's failure) are the batch's.
func (w *Worker) PlayBatch(ctx context.Context, data []byte, workers int, fetch Fetch) ([]byte, error) {
	if len(data) > MaxDescription {
		return nil, fmt.Errorf("natspool: a batch description of %d bytes, more than %d", len(data), MaxDescription)
	}
	s, err := decodeBatch(data)
	if errors.Is(err, errOtherFormat) {
		return nil, refusal{err}
	}
	if err != nil {
		return nil, err
	}
	cfg, err := w.config(ctx, s.Batch, s.Run, fetch)
	if err != nil {
		return nil, refusal{err}
	}
	results, err := cfg.PlayBatch(ctx, s.Batch, s.Players, s.Games, workers)
	if err != nil {
		return nil, err
	}
	return encodeResults(s.Batch, results), nil
}
