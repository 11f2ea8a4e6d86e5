package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
)

// Note is what a game's referee said of one game of a batch beyond its
// result (fitness.Referee: a game whose players are processes): the
// fault that decided it and the player that made it, and the game's
// record (a chess game's PGN) when the run keeps it.
type Note struct {
	Game   int           `json:"game"` // the game's index in its batch
	Fault  fitness.Fault `json:"fault,omitempty"`
	Player string        `json:"player,omitempty"` // who faulted, as a spec names it
	Record string        `json:"record,omitempty"`
}

// Played is a batch's games as played: one result each, in order, seen
// from the game's first player (its score, or its cost in a solo game),
// and the notes of those of its games that have one, in game order.
type Played struct {
	Results []float64
	Notes   []Note
}

// referee plays ms with up to workers goroutines and returns each game's
// result seen from its first seat, or from its second where flipped (a
// score, or a solo game's cost), with the notes of the games a referee
// said something of: a fault, or a record the run keeps (keeps).
func (s *Setup) referee(ctx context.Context, ms []fitness.Match, flipped func(i int) bool, workers int, progress func(int)) (Played, error) {
	solo := s.cfg.Fitness.Objective == config.Solo
	var keep func(i int) bool
	if s.referees() {
		// Every game's record is asked for: one lost to a fault is kept
		// whatever the share, and which are lost is known only after.
		keep = func(int) bool { return true }
	}
	games, err := fitness.PlayRefereed(ctx, s.game, ms, solo, keep, workers, progress)
	if err == nil {
		err = s.audit(ctx, ms, games, workers)
	}
	out := Played{Results: make([]float64, len(games))}
	for i, g := range games {
		if solo {
			out.Results[i] = g.Cost
		} else {
			o := g.Outcome
			if flipped(i) {
				o = o.Flip()
			}
			out.Results[i] = o.Score()
		}
		if n, ok := s.note(i, ms[i].Seed, g); ok {
			out.Notes = append(out.Notes, n)
		}
	}
	out.Notes = boundRecords(out.Notes)
	return out, err
}

// The bounds of the records a batch keeps, so that its notes fit a
// journal line (rundir.MaxNotes) and a worker's answer: a record longer
// than maxRecord, and those after the batch's records reach
// maxBatchRecords, are left out, their faults kept. They depend on the
// records alone, so every pool keeps the same.
const (
	maxRecord       = 128 << 10
	maxBatchRecords = 4 << 20
)

func boundRecords(notes []Note) []Note {
	total := 0
	out := notes[:0]
	for _, n := range notes {
		if len(n.Record) > maxRecord || total+len(n.Record) > maxBatchRecords {
			n.Record = ""
		}
		total += len(n.Record)
		if n.Fault != fitness.NoFault || n.Record != "" {
			out = append(out, n)
		}
	}
	return out
}

// audit plays again the share audit: of the games of engines that no
// fault decided, chosen by their seeds, and returns an error naming the
// first whose record differs (its moves and result; the engines'
// comments, such as node counts, aside): an engine that is not
// deterministic at its limit (Stockfish's Skill Level draws from the
// clock) would make a run that cannot replay or resume exactly.
func (s *Setup) audit(ctx context.Context, ms []fitness.Match, games []fitness.Refereed, workers int) error {
	ref, ok := s.game.(fitness.Referee)
	if s.cfg.Audit <= 0 || !ok || s.engines == nil || len(s.engines.byName) == 0 {
		return nil
	}
	var picked []int
	for i, g := range games {
		if g.Fault == nil && g.Record != "" && float64(fitness.Derive(ms[i].Seed, 0, purposeAudit)>>11)/(1<<53) < s.cfg.Audit {
			picked = append(picked, i)
		}
	}
	again, err := fitness.Parallel(ctx, len(picked), workers, func(k int) (fitness.Refereed, error) {
		m := ms[picked[k]]
		return ref.PlayRefereed(ctx, m.A, m.B, m.Seed, true)
	}, nil)
	if err != nil {
		return err
	}
	for k, i := range picked {
		if a, b := games[i], again[k]; a.Outcome != b.Outcome || movesOf(a.Record) != movesOf(b.Record) {
			return fmt.Errorf("audit: the game of seed %d between %s and %s did not replay (%s): an engine is not deterministic at its limit (a clock, more than one thread, a random skill level, randomness of its own); its games cannot be reproduced, nor a run resumed exactly",
				ms[i].Seed, ms[i].A.Name(), ms[i].B.Name(), firstMoveDifference(movesOf(a.Record), movesOf(b.Record)))
		}
	}
	return nil
}

// recordComment matches a comment of a record ({+0.20/2 40N}).
var recordComment = regexp.MustCompile(`\{[^}]*\}`)

// movesOf is a record without its comments, its words single-spaced.
func movesOf(record string) string {
	return strings.Join(strings.Fields(recordComment.ReplaceAllString(record, "")), " ")
}

// firstMoveDifference says where two records' moves first differ.
func firstMoveDifference(a, b string) string {
	x, y := strings.Fields(a), strings.Fields(b)
	for i := range min(len(x), len(y)) {
		if x[i] != y[i] {
			return fmt.Sprintf("%q the first time, %q the second", x[i], y[i])
		}
	}
	return "one ended sooner"
}

// referees reports whether the config's games are played through a
// referee (fitness.Referee, or fitness.SoloReferee for a solo measure),
// which says what it saw beside their results.
func (s *Setup) referees() bool {
	if s.cfg.Fitness.Objective == config.Solo {
		_, ok := s.game.(fitness.SoloReferee)
		return ok
	}
	_, ok := s.game.(fitness.Referee)
	return ok
}

// note is game i's note, if the referee said anything the run keeps.
func (s *Setup) note(i int, seed uint64, g fitness.Refereed) (Note, bool) {
	n := Note{Game: i}
	if g.Fault != nil {
		n.Fault, n.Player = g.Fault.Kind, g.Fault.Player
	}
	if g.Record != "" && (g.Fault != nil || s.keeps(seed)) {
		n.Record = g.Record
	}
	return n, n.Fault != fitness.NoFault || n.Record != ""
}

// keeps reports whether the run keeps the record of the game played from
// seed beside those lost to faults: a share record: of the games, drawn
// from the seed alone, so every worker and resume keeps the same.
func (s *Setup) keeps(seed uint64) bool {
	f := s.cfg.Record
	return f > 0 && float64(fitness.Derive(seed, 0, purposeRecord)>>11)/(1<<53) < f
}

// FaultCounts are games lost to faults, by the player that faulted (as a
// spec names it: "uci:dev") and the fault's kind ("crash").
type FaultCounts map[string]map[string]int

// add counts the faults of notes.
func (fc FaultCounts) add(notes []Note) {
	for _, n := range notes {
		if n.Fault == fitness.NoFault {
			continue
		}
		if fc[n.Player] == nil {
			fc[n.Player] = map[string]int{}
		}
		fc[n.Player][n.Fault.String()]++
	}
}

// String says the counts in a line: "uci:dev 2 crash, 1 time; uci:base 1
// stall".
func (fc FaultCounts) String() string {
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(fc)) {
		var kinds []string
		for _, k := range fitness.Faults() {
			if n := fc[p][k.String()]; n > 0 {
				kinds = append(kinds, fmt.Sprintf("%d %s", n, k))
			}
		}
		parts = append(parts, p+" "+strings.Join(kinds, ", "))
	}
	return strings.Join(parts, "; ")
}

// encodeNotes is a batch's notes as its journal line holds them; nil for
// none.
func encodeNotes(notes []Note) json.RawMessage {
	if len(notes) == 0 {
		return nil
	}
	data, err := json.Marshal(notes)
	if err != nil {
		return nil // a note is plain data: it marshals
	}
	return data
}

// decodeNotes reads a batch's notes of a batch of games games, as a
// journal line or a worker holds them, refusing what no referee writes.
func decodeNotes(data []byte, games int) ([]Note, error) {
	if len(data) == 0 {
		return nil, nil
	}
	var notes []Note
	if err := json.Unmarshal(data, &notes); err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	return notes, checkNotes(notes, games)
}

// checkNotes refuses notes no referee writes: a game out of the batch or
// out of order, a note that says nothing, a fault without a player.
func checkNotes(notes []Note, games int) error {
	last := -1
	for _, n := range notes {
		switch {
		case n.Game <= last || n.Game >= games:
			return fmt.Errorf("notes: game %d of a batch of %d, after game %d", n.Game, games, last)
		case n.Fault > fitness.FaultGarbage:
			return fmt.Errorf("notes: game %d: fault %d", n.Game, n.Fault)
		case n.Fault == fitness.NoFault && (n.Record == "" || n.Player != ""):
			return fmt.Errorf("notes: game %d: a note without a fault names a record and no player", n.Game)
		case n.Fault != fitness.NoFault && n.Player == "":
			return fmt.Errorf("notes: game %d: a fault without its player", n.Game)
		}
		last = n.Game
	}
	return nil
}

// noted takes batch b's notes into the generation's: its faults counted,
// its records kept in batch order.
func (r *runner) noted(b *Batch, notes []Note) {
	if r.gen == nil {
		return
	}
	r.gen.faults.add(notes)
	for _, n := range notes {
		if n.Record != "" {
			r.gen.records = append(r.gen.records, n.Record)
		}
	}
}

// genNotes are what the referee said of the generation in play.
type genNotes struct {
	faults  FaultCounts
	records []string
}

// recordExt is the extension of the game's records: ".pgn" for a game
// whose records are PGN, else ".txt".
func (s *Setup) recordExt() string {
	if x, ok := s.game.(interface{ RecordExtension() string }); ok {
		return x.RecordExtension()
	}
	return ".txt"
}

// writeRecords writes generation gen's records (RecordFile), if it kept
// any, each game after a blank line.
func (r *runner) writeRecords(gen int) error {
	if r.gen == nil || len(r.gen.records) == 0 {
		return nil
	}
	var b strings.Builder
	for i, rec := range r.gen.records {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(rec)
		if !strings.HasSuffix(rec, "\n") {
			b.WriteByte('\n')
		}
	}
	return r.writeFile(rundir.RecordFile(gen+1, r.recordExt()), []byte(b.String()))
}
