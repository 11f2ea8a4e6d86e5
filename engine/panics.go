package engine

import (
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sync"
)

// errGamePanicked is returned when a game panicked during a generation:
// a defect in a game or player, which the run reports as a runtime
// failure (exit 1) with the game's seed, the stack going to run.log,
// rather than crashing with exit 2 as a bad config would.
var errGamePanicked = errors.New("a game panicked")

// panicTrap catches the first panic of a generation's games.
type panicTrap struct {
	once  sync.Once
	err   error
	stack []byte
}

// recover is deferred around one game: it turns a panic into a NaN result
// and keeps the first panic's value, seed and stack.
func (p *panicTrap) recover(seed uint64, x *float64) {
	v := recover()
	if v == nil {
		return
	}
	p.once.Do(func() {
		p.err = fmt.Errorf("%w (seed %d): %v", errGamePanicked, seed, v)
		p.stack = debug.Stack()
	})
	*x = math.NaN()
}
