package engine

import (
	"context"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/internal/spsa"
)

// TestModelSpreadReplaysTheRun: CMA-ES's spread is its model rebuilt
// from the run's checkpoint, one row a generation, starting at the step
// size the search starts with (0.15 in every gene); a model without one
// says so, and a replay past maxReplay is refused. SPSA's follows its
// gain schedule.
func TestModelSpreadReplaysTheRun(t *testing.T) {
	text := strings.Replace(crashConfig, "  population: 4\n", "  model: cmaes\n  population: 12\n", 1)
	text = strings.Replace(text, "  elitism: 1\n", "", 1)
	text = strings.Replace(text, "  tournament-size: 2\n", "", 1)
	dir := runTo(t, text)
	ck, cfg, err := ReadRun(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg.Close()
	sp, ok, err := cfg.ModelSpread(ck)
	if err != nil || !ok {
		t.Fatalf("spread of a CMA-ES run: %v, %v", ok, err)
	}
	if len(sp.RMS) != ck.Generation || len(sp.Min) != ck.Generation || len(sp.Max) != ck.Generation {
		t.Fatalf("%d, %d, %d rows for %d generations", len(sp.RMS), len(sp.Min), len(sp.Max), ck.Generation)
	}
	for g := range sp.RMS {
		if !(sp.Min[g] <= sp.RMS[g] && sp.RMS[g] <= sp.Max[g] && sp.Min[g] > 0) {
			t.Errorf("generation %d: min %v, rms %v, max %v", g+1, sp.Min[g], sp.RMS[g], sp.Max[g])
		}
	}
	if r := sp.RMS[0]; r < 0.1 || r > 0.2 {
		t.Errorf("the first generation's spread is %v, the search starts at %v", r, model.DefaultStepSize)
	}
	long := *ck
	dim := float64(cfg.Space().Len())
	long.Generation = int(maxReplay/(dim*dim*float64(len(ck.Population)))) + 1
	if _, _, err := cfg.ModelSpread(&long); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("a replay of %d generations: %v", long.Generation, err)
	}
	other := finishedRun(t)
	ck2, cfg2, err := ReadRun(other)
	if err != nil {
		t.Fatal(err)
	}
	defer cfg2.Close()
	if _, ok, err := cfg2.ModelSpread(ck2); ok || err != nil {
		t.Errorf("a generational run has a spread (%v, %v)", ok, err)
	}
	// SPSA's is c_k = c/(k+1)^gamma of each generation's first pair, c
	// = c_end * pairs^gamma: 2 iterations a generation of 6 pairs each,
	// 36 pairs planned over 3 generations, at the defaults.
	text = strings.Replace(crashConfig, "  population: 4\n", "  model: spsa\n  population: 4\n", 1)
	text = strings.Replace(text, "  elitism: 1\n", "", 1)
	text = strings.Replace(text, "  tournament-size: 2\n", "", 1)
	ck3, cfg3, err := ReadRun(runTo(t, text))
	if err != nil {
		t.Fatal(err)
	}
	defer cfg3.Close()
	sp, ok, err = cfg3.ModelSpread(ck3)
	if err != nil || !ok || len(sp.RMS) != ck3.Generation || ck3.Generation != 3 {
		t.Fatalf("spread of an SPSA run: %v, %v, %d rows for %d generations", ok, err, len(sp.RMS), ck3.Generation)
	}
	// SPSA's replay reads its state: a run as long as CMA-ES's refused one
	// is drawn (before, CMA-ES's bound refused it).
	long3 := *ck3
	dim3 := float64(cfg3.Space().Len())
	long3.Generation = int(maxReplay/(dim3*dim3*float64(len(ck3.Population)))) + 1
	if _, ok, err := cfg3.ModelSpread(&long3); !ok || err != nil {
		t.Errorf("an SPSA replay of %d generations: %v, %v", long3.Generation, ok, err)
	}
	c := spsa.StockfishCEnd * math.Pow(36, spsa.DefaultGamma)
	for g := range sp.RMS {
		want := c / math.Pow(float64(12*g+1), spsa.DefaultGamma)
		for _, got := range []float64{sp.RMS[g], sp.Min[g], sp.Max[g]} {
			if math.Abs(got-want) > 1e-12 {
				t.Errorf("SPSA generation %d: min %v, rms %v, max %v, want c_k %v", g+1, sp.Min[g], sp.RMS[g], sp.Max[g], want)
				break
			}
		}
	}
}

// finishedRun runs crashConfig to its end in a fresh directory.
func finishedRun(t *testing.T) string { return runTo(t, crashConfig) }

// runTo runs config text to its end in a fresh directory.
func runTo(t *testing.T, text string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "run")
	if _, err := Start(context.Background(), loadText(t, t.TempDir(), text), Options{Dir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	return dir
}
