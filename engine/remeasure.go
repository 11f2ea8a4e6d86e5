package engine

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/fitness/stats"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/rundir"
)

// Remeasured is the fresh-deal figure of one hall-of-fame member, or of
// the model's own recommendation (rank 0: model.Recommender).
type Remeasured struct {
	Rank  int       `json:"rank"` // its place in the hall of fame, from 1; 0 for the model's pick
	Genes []float64 `json:"genes"`
	fitness.Figure
}

// modelPick is the rank of the model's own recommendation among the
// remeasured: it has no place in the hall of fame.
const modelPick = 0

// The opponents a verdict's figure is measured against.
const (
	AgainstBaselines = "baselines" // the baseline opponents, beside the start
	AgainstStart     = "start"     // the starting point, head to head
	AgainstRunnerUp  = "runner-up" // no start point: the second of the remeasure
)

// Verdict is a finished run's account of the player it recommends, from a
// second fresh sample: deals neither selection nor the remeasure's
// ranking saw, so the figure is not the one that chose the player.
type Verdict struct {
	Rank    int       `json:"rank"` // the winner's place in the hall of fame, from 1
	Genes   []float64 `json:"genes"`
	Against string    `json:"against"` // baselines, start or runner-up
	// Figure is the winner's figure against them: its headline.
	fitness.Figure
	// StartGenes is the run's starting point: the first seed, else the
	// player's defaults (absent when the space excludes them).
	StartGenes []float64 `json:"start_genes,omitempty"`
	// Against baselines: the start's figure on the same deals and the
	// paired difference winner - start, per deal (a pair's mean score
	// head to head).
	Start      *fitness.Figure `json:"start,omitempty"`
	Difference *stats.Estimate `json:"difference,omitempty"`
	// Head to head against the start or the runner-up: the winner's pairs.
	Pairs *stats.Pentanomial `json:"pentanomial,omitempty"`
}

// defaultRemeasureGames, when positive, replaces the default's games in
// what a run plays (not in what validate says): a variable only so the
// package's tests, which finish many small runs, can keep the default on
// and cheap.
var defaultRemeasureGames = 0

// remeasureConfig is the remeasure the run does: what the config wrote,
// else the default; ok is false with remeasure: off.
func (s *Setup) remeasureConfig() (rc config.Remeasure, ok bool) {
	switch {
	case s.cfg.Remeasure == nil:
		rc := config.DefaultRemeasure()
		if defaultRemeasureGames > 0 {
			rc.Games = defaultRemeasureGames
		}
		return rc, true
	case s.cfg.Remeasure.Off:
		return config.Remeasure{}, false
	}
	return *s.cfg.Remeasure, true
}

// remeasures reports whether species sp is re-measured at the end of a
// run: against its baselines, or, head to head, among its best.
func (s *Setup) remeasures(sp *species) bool {
	if _, on := s.remeasureConfig(); !on {
		return false
	}
	return len(sp.baselines) > 0 || s.cfg.Fitness.Objective == config.Score && sp.role == s.role
}

// endGames counts the games the end of a run to generations plays: for
// every species it re-measures, the best of its hall of fame on fresh
// deals (against each baseline opponent, or each two of them head to
// head), then the winner again on a second fresh sample, beside the
// starting point (against it head to head; the runner-up when there is
// no starting point).
func (s *Setup) endGames(generations int) int {
	rc, _ := s.remeasureConfig()
	n := 0
	for _, sp := range s.species {
		if !s.remeasures(sp) {
			continue
		}
		// The hall of fame holds at most every genome the run made; the
		// model's own pick is one more (or the next member in its place:
		// candidates), unless the hall of fame holds no more than the top
		// and the pick is one of them.
		k := s.genomesMade(generations, min(rc.Top, s.cfg.Evolution.HallOfFame))
		if sp == s.species[0] && s.recommends() {
			k++
		}
		start := startGenes(sp) != nil
		if b := len(sp.baselines); b > 0 {
			n += k * b * rc.Games // the ranking sample
			if start {
				n += 2 * b * rc.Games // the winner and the start, on the same deals
			} else {
				n += b * rc.Games
			}
			continue
		}
		n += k * (k - 1) / 2 * rc.Games
		if start || k > 1 {
			n += rc.Games
		}
	}
	return n
}

// EndGames counts the games the species' remeasure and verdict played at
// the end of its run: a round among the best counts each game for both
// its players.
func (st SpeciesState) EndGames() int {
	n := 0
	for _, rm := range st.Remeasured {
		n += rm.Games
	}
	v := st.Verdict
	if v != nil && v.Against != AgainstBaselines {
		n /= 2
	}
	if v != nil {
		n += v.Games
		if v.Start != nil {
			n += v.Start.Games
		}
	}
	return n
}

// remeasureGames is what the end-of-run remeasure and verdict of every
// species are expected to play, before they do (for the ETA).
func (r *runner) remeasureGames() int { return r.endGames(r.budget) }

// remeasureMissing reports whether a finished checkpoint lacks the figures
// the config asks for (a run killed between its last generation and them
// cannot be, since both are in one checkpoint; an older evotune's can, and
// one of before the verdict has the remeasure without it).
func (r *runner) remeasureMissing(ck *Checkpoint) bool {
	for s, st := range ck.states() {
		if r.remeasures(r.species[s]) && (len(st.Remeasured) == 0 || st.Verdict == nil) {
			return true
		}
	}
	return false
}

// remeasure plays the top of every species' hall of fame on fresh deals,
// picks the winner by them and measures it on a second fresh sample, and
// records the figures in states. The deals depend on the run's seed
// only, not on the generation the run ended at, so a run resumed with a
// raised budget re-measures as a straight run to that budget does.
func (r *runner) remeasure(ctx context.Context, states []SpeciesState) error {
	r.endHere = true
	// The progress display counts a generation's games; these are not one.
	saved := r.progress
	r.progress = nil
	defer func() { r.progress = saved }()
	// The last generation's race and ratings are done with; these games
	// are not theirs to record.
	r.race, r.rated, r.ratings = nil, nil, nil
	rc, _ := r.remeasureConfig()
	for s, sp := range r.species {
		if !r.remeasures(sp) {
			continue
		}
		top := r.candidates(s, states[s].HallOfFame, rc.Top)
		var out []Remeasured
		var err error
		if len(sp.baselines) > 0 {
			out, err = r.remeasureOnBaselines(ctx, s, sp, top, rc.Games)
		} else {
			out, err = r.roundRobin(ctx, s, sp, top, rc.Games)
		}
		if err != nil {
			return err
		}
		states[s].Remeasured = out
		if states[s].Verdict, err = r.verdict(ctx, s, sp, out, rc.Games); err != nil {
			return err
		}
	}
	return nil
}

// candidates are what species s's remeasure plays: the top members of
// its hall of fame, and its model's own recommendation when it makes one
// (model.Recommender). A recommendation that is a member's genome is
// played as that member, and if it is one of the top, the next member
// takes its place: the remeasure plays top+1 players whatever its model
// recommends (so far as the hall of fame holds them), and lists no
// genome twice.
func (r *runner) candidates(s int, hof []Member, top int) []Remeasured {
	var pick []float64
	if s < len(r.models) {
		if rec, ok := r.models[s].(model.Recommender); ok {
			pick = rec.Recommendation()
		}
	}
	n := min(top, len(hof))
	out := make([]Remeasured, 0, n+1)
	for i, m := range hof[:n] {
		out = append(out, Remeasured{Rank: i + 1, Genes: slices.Clone(m.Genes)})
	}
	if pick == nil {
		return out
	}
	switch i := slices.IndexFunc(hof, func(m Member) bool { return slices.Equal(m.Genes, pick) }); {
	case i < 0:
		out = append(out, Remeasured{Rank: modelPick, Genes: slices.Clone(pick)})
	case i >= n:
		out = append(out, Remeasured{Rank: i + 1, Genes: slices.Clone(hof[i].Genes)})
	case n < len(hof):
		out = append(out, Remeasured{Rank: n + 1, Genes: slices.Clone(hof[n].Genes)})
	}
	return out
}

// remeasureOnBaselines plays the candidates against every baseline
// opponent on the remeasure's fresh deals.
func (r *runner) remeasureOnBaselines(ctx context.Context, s int, sp *species, top []Remeasured, games int) ([]Remeasured, error) {
	players, err := r.speciesPlayers(s, sp, genesOf(top)...)
	if err != nil {
		return nil, err
	}
	stats := make([][][nModes]modeStats, len(r.species))
	stats[s] = make([][nModes]modeStats, len(top))
	solo := r.cfg.Fitness.Objective == config.Solo
	chunk := make([]job, 0, min(jobChunk, len(top)*len(sp.baselines)*games))
	played := 0
	flush := func() error {
		if len(chunk) == 0 {
			return nil
		}
		if err := r.playChunk(ctx, r.budget-1, chunk, played, players, stats); err != nil {
			return fmt.Errorf("remeasuring the best: %w", err)
		}
		played += len(chunk)
		chunk = chunk[:0]
		return nil
	}
	for i := range top {
		for o, opp := range sp.baselines {
			for g := range games {
				j := job{sp: s, a: i, b: -1, opp: opp, mode: modeBaselines, solo: solo}
				// The generation slot holds 0 and the purpose is one
				// selection never draws from: these deals are fresh.
				j.seed = r.stream(0, sp.offset+purposeRemeasure, uint64(o), uint64(g))
				if !solo {
					j.seed, j.swap = r.stream(0, sp.offset+purposeRemeasure, uint64(o), uint64(g/2)), g%2 == 1
				}
				chunk = append(chunk, j)
				if len(chunk) == jobChunk {
					if err := flush(); err != nil {
						return nil, err
					}
				}
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	out := slices.Clone(top)
	for i := range out {
		c, err := r.figure(sp, candidateName(out[i]), stats[s][i])
		if err != nil {
			return nil, err
		}
		out[i].Figure = c.Figure
	}
	return out, nil
}

// recommends reports whether the main species' model recommends a point
// of its own (model.Recommender: its one statement of it), which the
// remeasure plays beside the hall of fame's best. It asks a model of the
// run, started and closed here: what it is, not what it was told.
func (s *Setup) recommends() bool {
	m, err := s.newModel(s.species[0], nil)
	if err != nil {
		return false
	}
	defer m.Close()
	_, ok := m.(model.Recommender)
	return ok
}

// pickFrom names where the model's own recommendation comes from, as
// best.yaml, the summary and the dashboard say it: "model spsa".
func (s *Setup) pickFrom() string { return "model " + s.cfg.Evolution.Model.Name }

// candidateName names a remeasured player in an error.
func candidateName(rm Remeasured) string {
	if rm.Rank == modelPick {
		return "the model's recommendation"
	}
	return fmt.Sprintf("hall-of-fame member %d", rm.Rank)
}

// genesOf lists the remeasured players' genomes.
func genesOf(rms []Remeasured) [][]float64 {
	out := make([][]float64, len(rms))
	for i, m := range rms {
		out[i] = m.Genes
	}
	return out
}

// speciesPlayers builds the players of genomes of species s, placed as
// r.play and r.playChunk want them: players[s][i] plays genes[i].
func (r *runner) speciesPlayers(s int, sp *species, genes ...[]float64) ([][]fitness.Player, error) {
	players := make([][]fitness.Player, len(r.species))
	for _, g := range genes {
		p, err := r.player(sp, g)
		if err != nil {
			return nil, err
		}
		players[s] = append(players[s], p)
	}
	return players, nil
}

// figure is a member's fitness from its games in one mode, checked
// finite, a score's interval clipped to [0, 1].
func (r *runner) figure(sp *species, who string, st [nModes]modeStats) (Member, error) {
	mode := modeBaselines
	if st[modeBaselines].n == 0 {
		mode = modePopulation
	}
	var w [nModes]float64
	w[mode] = 1
	c := combine(nil, 0, st, w)
	if !finite(c.Fitness, c.CI95[0], c.CI95[1]) {
		return Member{}, fmt.Errorf("engine: remeasuring the best: %w: %s%s scored %v", errNotFinite, who, labelled(sp), c.Fitness)
	}
	if r.cfg.Fitness.Objective == config.Score {
		c.CI95 = [2]float64{max(0, c.CI95[0]), min(1, c.CI95[1])}
	}
	return c, nil
}

// roundRobin plays every two of the candidates against each other,
// games seat-swapped games each, on fresh deals: a candidate's figure is
// its mean score against the others (head to head without baselines).
func (r *runner) roundRobin(ctx context.Context, s int, sp *species, top []Remeasured, games int) ([]Remeasured, error) {
	players, err := r.speciesPlayers(s, sp, genesOf(top)...)
	if err != nil {
		return nil, err
	}
	var jobs []job
	for i := range top {
		for k := i + 1; k < len(top); k++ {
			for g := range games {
				jobs = append(jobs, job{sp: s, a: i, bsp: s, b: k, mode: modePopulation,
					seed: r.stream(0, sp.offset+purposeRemeasure, uint64(i), uint64(k), uint64(g/2)), swap: g%2 == 1})
			}
		}
	}
	res, err := r.playResults(ctx, "remeasure", jobs, players)
	if err != nil {
		return nil, fmt.Errorf("remeasuring the best: %w", err)
	}
	st := make([][nModes]modeStats, len(top))
	for n, j := range jobs {
		st[j.a][modePopulation].addPaired(res[n], j.swap)
		st[j.b][modePopulation].addPaired(1-res[n], j.swap)
	}
	out := slices.Clone(top)
	for i := range out {
		out[i].Figure = fitness.Figure{Games: int(st[i][modePopulation].n)}
		if len(top) == 1 {
			// Nobody to meet: the winner by default, with no figure.
			out[i].Fitness, out[i].CI95 = 0.5, [2]float64{0, 1}
			continue
		}
		c, err := r.figure(sp, candidateName(out[i]), st[i])
		if err != nil {
			return nil, err
		}
		out[i].Fitness, out[i].CI95 = c.Fitness, c.CI95
	}
	return out, nil
}

// winnerOrder lists the remeasured members best first by their fresh
// figures, ties in hall-of-fame order.
func winnerOrder(rm []Remeasured, minimise bool) []Remeasured {
	out := slices.Clone(rm)
	slices.SortStableFunc(out, func(a, b Remeasured) int {
		if minimise {
			return cmp.Compare(a.Fitness, b.Fitness)
		}
		return cmp.Compare(b.Fitness, a.Fitness)
	})
	return out
}

// startGenes is a species' starting point: its first seed, else its
// player's defaults (nil when the space excludes them).
func startGenes(sp *species) []float64 {
	if len(sp.starts) > 0 {
		return slices.Clone(sp.starts[0])
	}
	genes, err := sp.space.Encode(sp.space.Schema().Defaults())
	if err != nil {
		return nil
	}
	return genes
}

// verdict measures the remeasure's winner on a second fresh sample
// (purposeVerdict): against the baselines beside the starting point on
// the same deals, or, without baselines, head to head against the
// starting point (the runner-up when there is none).
func (r *runner) verdict(ctx context.Context, s int, sp *species, rm []Remeasured, games int) (*Verdict, error) {
	order := winnerOrder(rm, sp.minimise)
	w := order[0]
	v := &Verdict{Rank: w.Rank, Genes: slices.Clone(w.Genes), StartGenes: startGenes(sp)}
	other := v.StartGenes
	v.Against = AgainstStart
	switch {
	case len(sp.baselines) > 0:
		v.Against = AgainstBaselines
	case other == nil && len(order) > 1:
		other, v.Against = order[1].Genes, AgainstRunnerUp
	case other == nil:
		return v, nil // one member, no start: nothing to measure against
	}
	genes := [][]float64{w.Genes}
	if other != nil {
		genes = append(genes, other)
	}
	players, err := r.speciesPlayers(s, sp, genes...)
	if err != nil {
		return nil, err
	}
	solo := r.cfg.Fitness.Objective == config.Solo
	var jobs []job
	if v.Against == AgainstBaselines {
		for o, opp := range sp.baselines {
			for g := range games {
				seed, swap := r.stream(0, sp.offset+purposeVerdict, uint64(o), uint64(g)), false
				if !solo {
					seed, swap = r.stream(0, sp.offset+purposeVerdict, uint64(o), uint64(g/2)), g%2 == 1
				}
				for i := range players[s] {
					jobs = append(jobs, job{sp: s, a: i, b: -1, opp: opp, mode: modeBaselines, solo: solo, seed: seed, swap: swap})
				}
			}
		}
	} else {
		for g := range games {
			jobs = append(jobs, job{sp: s, a: 0, bsp: s, b: 1, mode: modePopulation,
				seed: r.stream(0, sp.offset+purposeVerdict, 0, uint64(g/2)), swap: g%2 == 1})
		}
	}
	res, err := r.playResults(ctx, "verdict", jobs, players)
	if err != nil {
		return nil, fmt.Errorf("measuring the recommended player: %w", err)
	}
	st := make([][nModes]modeStats, len(players[s]))
	if v.Against != AgainstBaselines {
		var pairs stats.Pentanomial
		for n, j := range jobs {
			st[0][modePopulation].addPaired(res[n], j.swap)
			if j.swap {
				pairs.Add(res[n-1], res[n])
			}
		}
		c, err := r.figure(sp, "the recommended player", st[0])
		if err != nil {
			return nil, err
		}
		v.Fitness, v.Games, v.CI95, v.Pairs = c.Fitness, c.Games, c.CI95, &pairs
		return v, nil
	}
	// Per deal (head to head: per pair), the winner's result minus the
	// start's: the deals' luck cancels.
	var diffs []float64
	per := len(players[s])
	for n := 0; n < len(jobs); n += per {
		j := jobs[n]
		for i := range per {
			if solo {
				st[i][modeBaselines].add(res[n+i])
			} else {
				st[i][modeBaselines].addPaired(res[n+i], j.swap)
			}
		}
		if per == 2 {
			switch {
			case solo:
				diffs = append(diffs, res[n]-res[n+1])
			case j.swap:
				diffs = append(diffs, (res[n-2]+res[n])/2-(res[n-1]+res[n+1])/2)
			}
		}
	}
	c, err := r.figure(sp, "the recommended player", st[0])
	if err != nil {
		return nil, err
	}
	v.Figure = c.Figure
	if per == 2 {
		sc, err := r.figure(sp, "the starting point", st[1])
		if err != nil {
			return nil, err
		}
		v.Start = &sc.Figure
		if len(diffs) > 1 { // one difference has no interval
			d := stats.Mean(diffs)
			v.Difference = &d
		}
	}
	return v, nil
}

// checkRemeasured checks a checkpoint's fresh-deal figures against its
// hall of fame; the model's pick, at most one, is a genome of the space.
func checkRemeasured(prefix string, st SpeciesState, space interface{ Check([]float64) error }, score bool) error {
	picks := 0
	for i, m := range st.Remeasured {
		field := fmt.Sprintf("%sremeasured[%d]", prefix, i)
		if m.Rank == modelPick {
			picks++
		}
		switch {
		case m.Rank == modelPick && picks > 1:
			return fmt.Errorf("%s.rank: a second model's recommendation (rank %d)", field, modelPick)
		case m.Rank == modelPick && space.Check(m.Genes) != nil:
			return fmt.Errorf("%s.genes: %v", field, space.Check(m.Genes))
		case m.Rank != modelPick && (m.Rank < 1 || m.Rank > len(st.HallOfFame)):
			return fmt.Errorf("%s.rank: %d, the hall of fame has %d members (and %d is the model's recommendation)", field, m.Rank, len(st.HallOfFame), modelPick)
		case m.Rank != modelPick && !slices.Equal(m.Genes, st.HallOfFame[m.Rank-1].Genes):
			return fmt.Errorf("%s.genes: not those of hall-of-fame member %d", field, m.Rank)
		case m.Games < 1 && !aloneHeadToHead(st):
			return fmt.Errorf("%s.games: %d", field, m.Games)
		case !finite(m.Fitness) || m.Fitness < 0 || score && m.Fitness > 1:
			return fmt.Errorf("%s.fitness: %v is out of range", field, m.Fitness)
		case !finite(m.CI95[0], m.CI95[1]) || m.CI95[0] > m.Fitness || m.CI95[1] < m.Fitness:
			return fmt.Errorf("%s.ci95: [%v, %v] does not hold its fitness %v", field, m.CI95[0], m.CI95[1], m.Fitness)
		}
	}
	return nil
}

// remeasuredGenes is the genome the remeasure played as rank; played is
// false when it played none.
func remeasuredGenes(st SpeciesState, rank int) (genes []float64, played bool) {
	i := slices.IndexFunc(st.Remeasured, func(m Remeasured) bool { return m.Rank == rank })
	if i < 0 {
		return nil, false
	}
	return st.Remeasured[i].Genes, true
}

// aloneHeadToHead reports whether a remeasure without baselines had one
// member, who met nobody: it is the winner without a game.
func aloneHeadToHead(st SpeciesState) bool {
	return len(st.Remeasured) == 1 && st.Verdict != nil && st.Verdict.Against != AgainstBaselines
}

// checkVerdict checks a checkpoint's verdict against its hall of fame
// and remeasure.
func checkVerdict(prefix string, st SpeciesState, space interface{ Check([]float64) error }, score bool) error {
	v := st.Verdict
	if v == nil {
		return nil
	}
	field := prefix + "verdict"
	inRange := func(x float64) bool { return finite(x) && x >= 0 && (!score || x <= 1) }
	holds := func(x float64, ci [2]float64) bool { return finite(ci[0], ci[1]) && ci[0] <= x && x <= ci[1] }
	genes, played := remeasuredGenes(st, v.Rank)
	switch {
	case len(st.Remeasured) == 0:
		return fmt.Errorf("%s: a verdict without the remeasure that chose it", field)
	case !played:
		return fmt.Errorf("%s.rank: %d, not one the remeasure played", field, v.Rank)
	case !slices.Equal(v.Genes, genes):
		return fmt.Errorf("%s.genes: not those of the remeasured player of rank %d", field, v.Rank)
	case v.Against != AgainstBaselines && v.Against != AgainstStart && v.Against != AgainstRunnerUp:
		return fmt.Errorf("%s.against: %q", field, v.Against)
	case v.StartGenes != nil && space.Check(v.StartGenes) != nil:
		return fmt.Errorf("%s.start_genes: %v", field, space.Check(v.StartGenes))
	case v.Games > 0 && (!inRange(v.Fitness) || !holds(v.Fitness, v.CI95)):
		return fmt.Errorf("%s: %v [%v, %v] is not a figure in its interval", field, v.Fitness, v.CI95[0], v.CI95[1])
	case v.Start != nil && (v.Start.Games < 1 || !inRange(v.Start.Fitness) || !holds(v.Start.Fitness, v.Start.CI95)):
		return fmt.Errorf("%s.start: %v [%v, %v] over %d games is not a figure in its interval", field, v.Start.Fitness, v.Start.CI95[0], v.Start.CI95[1], v.Start.Games)
	case v.Difference != nil && (!finite(v.Difference.Value) || v.Difference.N < 1 ||
		!(v.Difference.CI95[0] <= v.Difference.Value && v.Difference.Value <= v.Difference.CI95[1])):
		return fmt.Errorf("%s.difference: %v [%v, %v] is not a figure in its interval", field, v.Difference.Value, v.Difference.CI95[0], v.Difference.CI95[1])
	case v.Pairs != nil && v.Pairs.Games() != v.Games:
		return fmt.Errorf("%s.pentanomial: %d games in pairs, the verdict has %d", field, v.Pairs.Games(), v.Games)
	}
	return nil
}

// finishRemeasure adds the missing figures to a finished run's checkpoint.
func (r *runner) finishRemeasure(ctx context.Context, ck *Checkpoint) error {
	states := ck.states()
	if err := r.remeasure(ctx, states); err != nil {
		return err
	}
	ck.SpeciesState = states[0]
	if len(states) > 1 {
		ck.Rivals = &states[1]
	}
	data, err := ck.encode()
	if err != nil {
		return err
	}
	r.logf("remeasured the best of the finished run on fresh deals")
	return r.writeFile(rundir.CheckpointFile, data)
}

// spendingSummary is what validate says of racing, ratings, the stop
// rule and the remeasure: nothing for a config without them.
func (s *Setup) spendingSummary() string {
	var out string
	if rc := s.cfg.Racing; rc != nil {
		out += fmt.Sprintf("  racing: %s at confidence %g, keeping the best %d\n", english.Count(rc.Rounds, "round"), rc.Confidence, s.cfg.Evolution.Kept())
	}
	if s.cfg.Rates() {
		out += "  population mode rated by Bradley-Terry; the hall of fame admits by rating\n"
	}
	if note := s.cfg.Evolution.CostNote(); note != "" {
		out += "  " + note + "\n"
	}
	if sc := s.cfg.Stop; sc != nil {
		if sc.Window > 0 {
			out += fmt.Sprintf("  stop: once a line through the last %d generations' mean fitness shows no improvement\n    at confidence %g\n", sc.Window, sc.Confidence)
		}
		if sc.Games > 0 {
			out += fmt.Sprintf("  stop: after the generation that brings the games to %s\n", english.Thousands(sc.Games))
		}
	}
	rc, on := s.remeasureConfig()
	if s.cfg.Remeasure == nil {
		rc = config.DefaultRemeasure() // what a run plays outside the tests
	}
	if on && len(s.species) > 0 {
		who, br := fmt.Sprintf("the best %d", rc.Top), " "
		if s.recommends() {
			who, br = fmt.Sprintf("the best %d and %s's own recommendation", rc.Top, s.pickFrom()), "\n    "
		}
		switch sp := s.species[0]; {
		case len(sp.baselines) > 0:
			per := " per baseline opponent"
			if s.alone() {
				per = ""
			}
			out += fmt.Sprintf("  remeasure: %s%son %d fresh games%s at the end; the winner again,\n    beside the starting point, on a second fresh sample\n", who, br, rc.Games, per)
		case s.cfg.Fitness.Objective == config.Score:
			out += fmt.Sprintf("  remeasure: %s%sagainst each other, %d fresh games a pair, at the end; the winner against\n    the starting point on a second fresh sample\n", who, br, rc.Games)
		}
	}
	return out
}
