package uci

// Pids lists the process ids of the engine's live processes, for tests
// that check none outlives Close.
func Pids(e *Engine) []int {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []int
	for c := range e.live {
		out = append(out, c.p.Pid())
	}
	return out
}
