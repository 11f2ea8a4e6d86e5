package engine

import (
	"fmt"

	"github.com/evotune/evotune/engine/model"
)

// maxReplay bounds the work ModelSpread may take on, in generations times
// genes squared times the population (CMA-ES's replay grows so; a model
// whose replay costs otherwise says what: model.ReplayCoster): about a
// second or two on a busy core, so a page never waits long on it.
const maxReplay = 4e7

// ModelSpread rebuilds the main species' model from checkpoint ck as
// resume does, and returns its sampling width by generation when the
// model has one (model.Spreader: CMA-ES's step size, SPSA's c_k); ok is
// false when it has not. No game is played.
func (s *Setup) ModelSpread(ck *Checkpoint) (spread model.Spread, ok bool, err error) {
	sp := s.species[0]
	m, err := s.newModel(sp, nil)
	if err != nil {
		return spread, false, err
	}
	defer m.Close()
	sm, ok := m.(model.Spreader)
	if !ok {
		return spread, false, nil
	}
	dim := float64(sp.space.Len())
	work := float64(ck.Generation) * dim * dim * float64(len(ck.Population))
	if rc, ok := m.(model.ReplayCoster); ok {
		work = rc.ReplayWork(ck.Generation, sp.space.Len(), len(ck.Population))
	}
	if work > maxReplay {
		return spread, true, fmt.Errorf("engine: replaying %d generations of %d genes is too long to do here", ck.Generation, sp.space.Len())
	}
	if err := sp.resumeModel(m, ck.Generation, ck.SpeciesState); err != nil {
		return spread, true, err
	}
	return sm.Spread(), true, nil
}
