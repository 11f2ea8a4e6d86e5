package engine

import (
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/evotune/evotune/engine/config"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/fileio"
)

// checkHeader refuses a checkpoint whose scalar fields are missing or out
// of range. A zero is never written, so it means the field is missing:
// `{}` and `null` are corrupt, not "format 0".
func (ck *Checkpoint) checkHeader() error {
	switch {
	case ck.Format == 0:
		return fmt.Errorf("format: missing")
	case ck.Format < 0:
		return fmt.Errorf("format: %d", ck.Format)
	case ck.ConfigHash == "":
		return fmt.Errorf("config_hash: missing")
	case ck.Config == "":
		return fmt.Errorf("config: missing")
	case len(ck.Config) > fileio.MaxConfig:
		return fmt.Errorf("config: %d bytes, more than the limit of %s", len(ck.Config), fileio.Size(fileio.MaxConfig))
	case ck.Generation < 1 || ck.Generation > config.MaxGenerations:
		return fmt.Errorf("generation: %d, want 1 to %d", ck.Generation, config.MaxGenerations)
	case ck.Budget < 0 || ck.Budget > config.MaxGenerations:
		return fmt.Errorf("budget: %d, want 1 to %d (or none)", ck.Budget, config.MaxGenerations)
	}
	return nil
}

// checkFiles refuses player-file hashes for files the config does not
// name: the section can only be as large as the config's list of specs.
// (Whether a named file changed is resume's question, not corruption.)
func (ck *Checkpoint) checkFiles(run *Setup) error {
	for _, spec := range slices.Sorted(maps.Keys(ck.Files)) {
		if _, named := run.files[spec]; !named {
			return fmt.Errorf("files: %q is not a player file the config names", trimForMessage(spec))
		}
	}
	return nil
}

// trimForMessage keeps a message one readable line however long s is.
func trimForMessage(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// checkSpecies checks species s's state against its config: section
// sizes, genomes in the space, and every figure finite and in range.
func (ck *Checkpoint) checkSpecies(run *Setup, s int, st SpeciesState) error {
	sp := run.species[s]
	prefix := ""
	if s > 0 {
		prefix = "rivals."
	}
	switch {
	case st.Population == nil:
		return fmt.Errorf("%spopulation: missing", prefix)
	case len(st.Population) != run.cfg.Evolution.Size(ck.Generation-1):
		return fmt.Errorf("%spopulation: %d members, the config breeds %d", prefix, len(st.Population), run.cfg.Evolution.Size(ck.Generation-1))
	case len(st.HallOfFame) == 0:
		return fmt.Errorf("%shall_of_fame: empty", prefix)
	case len(st.HallOfFame) > run.cfg.Evolution.HallOfFame:
		return fmt.Errorf("%shall_of_fame: %d members, the config keeps at most %d", prefix, len(st.HallOfFame), run.cfg.Evolution.HallOfFame)
	case len(st.History) != ck.Generation:
		return fmt.Errorf("%shistory: %s for %s", prefix, english.Count(len(st.History), "row"), english.Count(ck.Generation, "generation"))
	}
	score := run.cfg.Fitness.Objective == config.Score
	inRange := func(x float64) bool {
		return !math.IsNaN(x) && !math.IsInf(x, 0) && x >= 0 && (!score || x <= 1)
	}
	for _, list := range []struct {
		name    string
		members []Member
	}{{"population", st.Population}, {"hall_of_fame", st.HallOfFame}} {
		for i, m := range list.members {
			field := fmt.Sprintf("%s%s[%d]", prefix, list.name, i)
			if n, want := len(m.Genes), sp.space.Len(); n != want {
				// Not damage, most likely: the player gained or lost
				// parameters since the run started (another evotune).
				return fmt.Errorf("%s.genes: %d genes, but the config's space has %d: the player's parameters changed since this run started (resume it with the evotune that started it)", field, n, want)
			}
			if err := sp.space.Check(m.Genes); err != nil {
				return fmt.Errorf("%s.genes: %v", field, err)
			}
			switch {
			case !inRange(m.Fitness):
				return fmt.Errorf("%s.fitness: %v is out of range", field, m.Fitness)
			case !finite(m.CI95[0], m.CI95[1]) || m.CI95[0] > m.Fitness || m.CI95[1] < m.Fitness ||
				score && (m.CI95[0] < 0 || m.CI95[1] > 1):
				return fmt.Errorf("%s.ci95: [%v, %v] does not hold its fitness %v", field, m.CI95[0], m.CI95[1], m.Fitness)
			case m.Generation >= ck.Generation:
				return fmt.Errorf("%s.generation: %d, from after the checkpoint's %d generations", field, m.Generation, ck.Generation)
			}
			if err := checkRating(field, m); err != nil {
				return err
			}
		}
	}
	told := inRange
	if run.cfg.Racing != nil {
		// A dropped individual's figure a model was told may lie outside
		// the objective's range (CMA-ES's raceCosts).
		told = func(x float64) bool { return finite(x) }
	}
	if err := run.cfg.Evolution.CheckState(ck.Generation, st.Model, told); err != nil {
		return fmt.Errorf("%s%w", prefix, err)
	}
	if err := checkRemeasured(prefix, st, sp.space, score); err != nil {
		return err
	}
	if err := checkVerdict(prefix, st, sp.space, score); err != nil {
		return err
	}
	for i, row := range st.History {
		field := fmt.Sprintf("%shistory[%d]", prefix, i)
		switch {
		case row.Generation != i+1:
			return fmt.Errorf("%s.generation: %d, want %d", field, row.Generation, i+1)
		case row.Games < 0 || row.Games > config.MaxMemberGames:
			return fmt.Errorf("%s.games: %d", field, row.Games)
		case row.Saved < 0:
			return fmt.Errorf("%s.saved: %d", field, row.Saved)
		case !inRange(row.Best):
			return fmt.Errorf("%s.best: %v is out of range", field, row.Best)
		case !inRange(row.Mean):
			return fmt.Errorf("%s.mean: %v is out of range", field, row.Mean)
		case !finite(row.SD) || row.SD < 0:
			return fmt.Errorf("%s.sd: %v is out of range", field, row.SD)
		case row.BestGenes != nil && sp.space.Check(row.BestGenes) != nil:
			return fmt.Errorf("%s.best_genes: %v", field, sp.space.Check(row.BestGenes))
		}
	}
	return nil
}
