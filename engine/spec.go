package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"sync"

	"github.com/evotune/evotune/fitness"
)

// SpecFormat is the version of the batch descriptions Batch.Spec writes
// and a Worker reads.
const SpecFormat = 1

// MaxSpec bounds a batch description a worker accepts, and
// MaxSpecResults a result a coordinator accepts.
const (
	MaxSpec        = 8 << 20
	MaxSpecResults = 64 + 24*MaxBatchGames
)

// batchSpec is a batch as a worker sees it: the config the run was
// started with, the players (genomes of a species, or its baseline
// opponents) and the games between them. It is self-contained, so any
// worker with the same build can play it, at any time, in any order.
type batchSpec struct {
	Format     int               `json:"format"`
	Batch      string            `json:"batch"`
	Config     string            `json:"config"`
	ConfigHash string            `json:"config_hash"`
	Files      map[string]string `json:"files,omitempty"` // sha256 of the player files the config names
	Players    []specPlayer      `json:"players"`
	Games      []specGame        `json:"games"`
}

// specPlayer is a genome of species Species, or, with Baseline set, that
// species' baseline opponent of that index.
type specPlayer struct {
	Species  int       `json:"species"`
	Genes    []float64 `json:"genes,omitempty"`
	Baseline *int      `json:"baseline,omitempty"`
}

// specGame is one game: players A and B (-1: none) in their seats as
// played, its seed, and whether the result is seen from B's side.
type specGame struct {
	A    int    `json:"a"`
	B    int    `json:"b"`
	Seed uint64 `json:"seed"`
	Flip bool   `json:"flip,omitempty"`
}

// specResults is a worker's answer: the results' bits, exactly.
type specResults struct {
	Batch   string   `json:"batch"`
	Results []uint64 `json:"results"`
}

// spec describes batch b (see Batch.Spec).
func (r *runner) spec(b *Batch) ([]byte, error) {
	st := b.in
	s := batchSpec{Format: SpecFormat, Batch: b.ID, Config: string(r.cfg.text), ConfigHash: r.cfg.Hash(), Files: r.cfg.files}
	index := map[[3]int]int{} // (kind, species, i) -> player
	ref := func(kind, sp, i int) int {
		k := [3]int{kind, sp, i}
		if n, ok := index[k]; ok {
			return n
		}
		p := specPlayer{Species: sp}
		switch kind {
		case 0:
			p.Genes = st.pools[sp][i]
		case 1:
			p.Baseline = &i
		case 2:
			// The hall of fame a species meets is the other's (its own
			// when alone): member i of species sp's hall.
			p.Genes = st.hofOf[sp][i].Genes
		}
		index[k] = len(s.Players)
		s.Players = append(s.Players, p)
		return index[k]
	}
	for _, j := range b.jobs {
		a := ref(0, j.sp, j.a)
		var opp int
		switch {
		case j.b >= 0:
			opp = ref(0, j.bsp, j.b)
		case j.mode == modeHallOfFame:
			opp = ref(2, len(r.cfg.species)-1-j.sp, j.opi)
		default:
			opp = ref(1, j.sp, j.opi)
		}
		g := specGame{A: a, B: opp, Seed: j.seed, Flip: j.swap}
		if j.swap || (j.solo && r.cfg.species[j.sp].role != r.cfg.role) {
			g.A, g.B = g.B, g.A
		}
		s.Games = append(s.Games, g)
	}
	data, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("engine: batch %s: %w", b.ID, err)
	}
	return data, nil
}

// DecodeResults reads a worker's answer to batch b: one finite result per
// game. Anything else is an error naming what is wrong.
func DecodeResults(b *Batch, data []byte) ([]float64, error) {
	if len(data) > MaxSpecResults {
		return nil, fmt.Errorf("engine: results of %d bytes for batch %s", len(data), b.ID)
	}
	var res specResults
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&res); err != nil {
		return nil, fmt.Errorf("engine: malformed results for batch %s: %w", b.ID, err)
	}
	if res.Batch != b.ID {
		return nil, fmt.Errorf("engine: results for batch %q where %s was expected", res.Batch, b.ID)
	}
	if len(res.Results) != len(b.jobs) {
		return nil, fmt.Errorf("engine: %d results for the %d games of batch %s", len(res.Results), len(b.jobs), b.ID)
	}
	out := make([]float64, len(res.Results))
	for i, bits := range res.Results {
		out[i] = math.Float64frombits(bits)
		if math.IsNaN(out[i]) || math.IsInf(out[i], 0) {
			return nil, fmt.Errorf("engine: batch %s: game %d: %w", b.ID, i, ErrNotFinite)
		}
	}
	return out, nil
}

// ErrProgramRefused is returned by a Worker told to play the games of an
// outside program when it was not allowed to run programs.
var ErrProgramRefused = errors.New("the config plays an outside program, which this worker does not run (start it with --allow-programs)")

// Worker plays batch descriptions (Batch.Spec) for a coordinator on
// another machine. It keeps the configs it has loaded, by hash.
type Worker struct {
	// AllowPrograms lets configs that play an outside program run it
	// here (the command the config names, from this machine).
	AllowPrograms bool

	mu      sync.Mutex
	configs map[string]*Config
}

// Close releases the configs the worker loaded (and their programs).
func (w *Worker) Close() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, c := range w.configs {
		c.Close()
	}
	w.configs = nil
}

func (w *Worker) config(s *batchSpec) (*Config, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if c, ok := w.configs[s.ConfigHash]; ok {
		return c, nil
	}
	cfg, err := parseIn("batch "+s.Batch+"#config", []byte(s.Config), ".")
	if err != nil {
		return nil, fmt.Errorf("engine: the run's config does not load on this worker: %s", oneLine(err))
	}
	if cfg.program != nil && !w.AllowPrograms {
		cfg.Close()
		return nil, ErrProgramRefused
	}
	if cfg.Hash() != s.ConfigHash {
		cfg.Close()
		return nil, fmt.Errorf("engine: the run's config has another meaning on this worker (another evotune version?)")
	}
	if !maps.Equal(cfg.files, s.Files) {
		cfg.Close()
		return nil, fmt.Errorf("engine: the player files the config names differ on this worker; copy them beside it")
	}
	if w.configs == nil {
		w.configs = map[string]*Config{}
	}
	w.configs[s.ConfigHash] = cfg
	return cfg, nil
}

// PlaySpec plays a batch description with up to workers goroutines and
// returns the answer DecodeResults reads. Errors that no other worker
// would avoid (a malformed description, a game's failure) are permanent;
// the coordinator stops the run on them.
func (w *Worker) PlaySpec(ctx context.Context, data []byte, workers int) ([]byte, error) {
	if len(data) > MaxSpec {
		return nil, fmt.Errorf("engine: a batch description of %d bytes, more than %d", len(data), MaxSpec)
	}
	var s batchSpec
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("engine: malformed batch description: %w", err)
	}
	if s.Format != SpecFormat {
		return nil, fmt.Errorf("engine: batch description format %d, this evotune reads %d", s.Format, SpecFormat)
	}
	cfg, err := w.config(&s)
	if err != nil {
		return nil, err
	}
	players := make([]fitness.Player, len(s.Players))
	for i, p := range s.Players {
		if p.Species < 0 || p.Species >= len(cfg.species) {
			return nil, fmt.Errorf("engine: batch %s: player %d of species %d", s.Batch, i, p.Species)
		}
		sp := cfg.species[p.Species]
		if p.Baseline != nil {
			if *p.Baseline < 0 || *p.Baseline >= len(sp.baselines) {
				return nil, fmt.Errorf("engine: batch %s: baseline %d of %d", s.Batch, *p.Baseline, len(sp.baselines))
			}
			players[i] = sp.baselines[*p.Baseline]
			continue
		}
		vals, err := sp.space.Decode(p.Genes)
		if err != nil {
			return nil, fmt.Errorf("engine: batch %s: %w", s.Batch, err)
		}
		if players[i], err = cfg.game.NewPlayer(sp.role, sp.player, vals); err != nil {
			return nil, fmt.Errorf("engine: batch %s: %w", s.Batch, err)
		}
	}
	get := func(i int) (fitness.Player, error) {
		if i == -1 {
			return nil, nil
		}
		if i < 0 || i >= len(players) {
			return nil, fmt.Errorf("engine: batch %s: no player %d", s.Batch, i)
		}
		return players[i], nil
	}
	ms := make([]fitness.Match, len(s.Games))
	for i, g := range s.Games {
		a, err := get(g.A)
		if err != nil {
			return nil, err
		}
		b, err := get(g.B)
		if err != nil {
			return nil, err
		}
		ms[i] = fitness.Match{A: a, B: b, Seed: g.Seed}
	}
	var results []float64
	if cfg.Fitness.Objective == Solo {
		results, err = fitness.PlaySoloMatches(ctx, cfg.game.(fitness.SoloGame), ms, workers, nil)
	} else {
		var outs []fitness.Outcome
		outs, err = fitness.PlayMatches(ctx, cfg.game, ms, workers, nil)
		results = make([]float64, len(outs))
		for i, o := range outs {
			if s.Games[i].Flip {
				o = o.Flip()
			}
			results[i] = o.Score()
		}
	}
	if err != nil {
		return nil, fmt.Errorf("engine: batch %s: %w", s.Batch, err)
	}
	out := specResults{Batch: s.Batch, Results: make([]uint64, len(results))}
	for i, x := range results {
		out.Results[i] = math.Float64bits(x)
	}
	return json.Marshal(out)
}
