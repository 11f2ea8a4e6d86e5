package engine_test

import (
	"context"
	"fmt"
	"os"
	"sync"

	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/engine/config"
)

// countingPool plays on the local pool and counts what it was given: a
// Pool sees waves of batches and hands results back through Done.
type countingPool struct {
	engine.Pool
	mu              sync.Mutex
	waves, batches  int
	games, finished int
}

func (p *countingPool) Play(ctx context.Context, w engine.Wave) error {
	p.waves++
	for _, b := range w.Batches {
		p.batches++
		p.games += b.Games()
	}
	done := w.Done
	w.Done = func(b *engine.Batch, results engine.Played) {
		p.mu.Lock()
		p.finished++
		p.mu.Unlock()
		done(b, results)
	}
	return p.Pool.Play(ctx, w)
}

// A Pool plays a generation's games in batches; the run's files do not
// depend on which pool played them, nor on the batch size.
func ExamplePool() {
	c, err := config.Parse("pool.yaml", []byte(`
game: battleship
player: tuned
seeds: [{}]
fitness: {baselines: {games: 30}}
evolution: {population: 4, generations: 2, tournament-size: 2}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	cfg, err := engine.Prepare(c, engine.For{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer cfg.Close()
	dir, err := os.MkdirTemp("", "pool-example-")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	pool := &countingPool{Pool: engine.LocalPool(2)}
	res, err := engine.Start(context.Background(), cfg, engine.Options{Dir: dir, Pool: pool, BatchGames: 16})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%d generations: %d waves, %d batches of up to 16 games, %d games, %d batches finished\n",
		res.Generation, pool.waves, pool.batches, pool.games, pool.finished)
	// Output:
	// 2 generations: 2 waves, 16 batches of up to 16 games, 240 games, 16 batches finished
}
