package engine

import (
	"fmt"
	"strconv"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/genome"
)

// exportFile lists the top k members of a species' hall of fame, with
// their ratings and fresh-deal figures when the run has them, and says
// which eval flag loads the first. A finished run's remeasure orders the
// members it measured by their fresh figures, the recommended one first
// with its verdict; the others follow in hall-of-fame order.
func (s *Setup) exportFile(sp *species, st SpeciesState, k int) (*fitness.ParamsFile, string) {
	f := &fitness.ParamsFile{Game: s.cfg.Game, Player: sp.player, Role: sp.role, Rules: s.cfg.Rules, Objective: s.cfg.ObjectiveName(), Settings: sp.settings}
	flag := "--player"
	if s.hasSolo && sp.role == s.solo.Opponent && sp.role != s.role {
		flag = "--opponent"
	}
	order := exportOrder(sp, st)
	for i := 0; i < k && i < len(order); i++ {
		m, rank := order[i].Member, order[i].Rank
		vals, err := sp.space.Decode(m.Genes)
		if err != nil {
			continue // checked when the checkpoint was read
		}
		p := fitness.RankedParams{Rank: i + 1, Generation: m.Generation + 1, Figure: rounded(m.Figure), Params: readable(vals)}
		if m.Rating != nil {
			rt := *m.Rating
			rt.Elo, rt.CI95 = round6(rt.Elo), round6s(rt.CI95)
			p.Rating = &rt
		}
		for _, rm := range st.Remeasured {
			if rm.Rank == rank {
				f := rounded(rm.Figure)
				p.Remeasured = &f
				p.HallOfFameRank = rank
				if rank == modelPick {
					p.From = s.pickFrom()
				}
			}
		}
		if v := st.Verdict; v != nil && v.Rank == rank && v.Games > 0 {
			p.Fresh = &fitness.Fresh{Against: v.Against, Figure: rounded(v.Figure)}
			if v.Start != nil {
				start := rounded(*v.Start)
				p.Fresh.Start = &start
			}
			if d := v.Difference; d != nil {
				p.Fresh.VsStart = &fitness.Difference{Difference: round6(d.Value), Games: d.N, CI95: round6s(d.CI95)}
			}
		}
		f.Players = append(f.Players, p)
	}
	return f, flag
}

// An offered player is one an export lists: a hall-of-fame member, or
// the model's own recommendation (Rank modelPick), which has no figure
// from selection: its Figure is the remeasure's.
type offered struct {
	Rank int // its place in the hall of fame, from 1; modelPick for the model's
	Member
}

// exportOrder is the order of the players an export lists: the
// remeasured ones by their fresh figures when the run has a verdict,
// best first, then the rest of the hall of fame in its order.
func exportOrder(sp *species, st SpeciesState) []offered {
	var order []offered
	taken := make([]bool, len(st.HallOfFame))
	if st.Verdict != nil {
		for _, rm := range winnerOrder(st.Remeasured, sp.minimise) {
			if rm.Rank == modelPick {
				order = append(order, offered{Rank: modelPick, Member: Member{Genes: rm.Genes, Figure: rm.Figure, Generation: len(st.History) - 1}})
				continue
			}
			order = append(order, offered{Rank: rm.Rank, Member: st.HallOfFame[rm.Rank-1]})
			taken[rm.Rank-1] = true
		}
	}
	for i, m := range st.HallOfFame {
		if !taken[i] {
			order = append(order, offered{Rank: i + 1, Member: m})
		}
	}
	return order
}

// rounded is a figure with its fitness and interval rounded by round6.
func rounded(f fitness.Figure) fitness.Figure {
	return fitness.Figure{Fitness: round6(f.Fitness), Games: f.Games, CI95: round6s(f.CI95)}
}

// round6s rounds both ends of an interval.
func round6s(ci [2]float64) [2]float64 { return [2]float64{round6(ci[0]), round6(ci[1])} }

// exportYAML renders the top k as a YAML parameter file whose comment
// says how to load it.
func (s *Setup) exportYAML(sp *species, st SpeciesState, k int) ([]byte, error) {
	file, comment := s.paramsFile(sp, st, k)
	return file.YAML(comment)
}

// ParamsFile is the parameter file of the best k of the run whose
// checkpoint is ck, of its main species or of its co-evolved rivals (the
// caller checks it has them), and the comment that says, above its
// YAML, how to load it: what best.yaml holds of the first, and evotune
// export of k.
func (s *Setup) ParamsFile(ck *Checkpoint, rivals bool, k int) (*fitness.ParamsFile, string) {
	i := 0
	if rivals {
		i = 1
	}
	return s.paramsFile(s.species[i], ck.states()[i], k)
}

func (s *Setup) paramsFile(sp *species, st SpeciesState, k int) (*fitness.ParamsFile, string) {
	file, flag := s.exportFile(sp, st, k)
	return file, fmt.Sprintf("evotune export: the best %d %s %s parameter set(s); the first loads with %s %s:FILE",
		len(file.Players), file.Player, file.Role, flag, file.Player)
}

// round6 keeps 6 significant digits: figures with noise in the second
// decimal read better without 45.013000000000005.
func round6(x float64) float64 {
	y, _ := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	return y
}

// readable renders values for people: grids as rows.
func readable(v genome.Values) map[string]any {
	m := v.Map()
	for _, p := range v.Schema() {
		if p.Kind != genome.Grid {
			continue
		}
		cells := m[p.Name].([]float64)
		rows := make([][]float64, p.Rows)
		for r := range rows {
			rows[r] = cells[r*p.Cols : (r+1)*p.Cols]
		}
		m[p.Name] = rows
	}
	return m
}
