package engine

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"math"
	"path/filepath"

	"github.com/evotune/evotune/rundir"
)

// beginJournal opens the match journal for generation gen: it keeps the
// batches of a journal of the same run, generation, batch size and
// genomes (a resume after a kill) and replaces any other.
func (r *runner) beginJournal(gen int, genomes [][][]float64, hof [][]Member, games int) error {
	r.journal.Close()
	hdr := rundir.JournalHeader{Run: r.runID(), Generation: gen, Games: games,
		BatchGames: r.batchGames, Genomes: genomesDigest(genomes, hof, r.cfg.Fitness.HallOfFame.Members)}
	j, torn, err := rundir.OpenJournal(filepath.Join(r.dir, rundir.JournalFile), hdr)
	if err != nil {
		r.journal = nil
		return fmt.Errorf("engine: %w", err)
	}
	r.journal = j
	if torn > 0 {
		r.logf("generation %d: %d damaged journal lines ignored (a kill during a write)", gen+1, torn)
	}
	return nil
}

// genomesDigest identifies the genomes a generation is played by.
func genomesDigest(genomes [][][]float64, hof [][]Member, members int) string {
	h := sha256.New()
	var buf [8]byte
	put := func(x uint64) { binary.LittleEndian.PutUint64(buf[:], x); h.Write(buf[:]) }
	for s := range genomes {
		put(uint64(len(genomes[s])))
		for _, g := range genomes[s] {
			put(uint64(len(g)))
			for _, x := range g {
				put(math.Float64bits(x))
			}
		}
		n := min(len(hof[s]), members)
		put(uint64(n))
		for _, m := range hof[s][:n] {
			put(uint64(len(m.Genes)))
			for _, x := range m.Genes {
				put(math.Float64bits(x))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// runID names the run in batch IDs: the config's hash and the batch size
// ("auto" when it is set per generation, whose number is in the ID), so
// batches of two runs, or of one run cut another way, never share one.
func (r *runner) runID() string {
	if r.id == "" {
		size := fmt.Sprint(r.batchGames)
		if r.autoBatch {
			size = "auto"
		}
		sum := sha256.Sum256(fmt.Appendf(nil, "%s/%s", r.Hash(), size))
		r.id = hex.EncodeToString(sum[:8])
	}
	return r.id
}

func (r *runner) batchID(gen, index int) string {
	return fmt.Sprintf("%s.%d.%d", r.runID(), gen, index)
}
