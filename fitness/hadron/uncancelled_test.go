package hadron

import "context"

// move is next for the tests that never cancel a game.
func (s *searcher) move(b *Board) int { return mustPick(s, b) }

func (m greedyMover) move(b *Board) int { return mustPick(m, b) }

func mustPick(m mover, b *Board) int {
	i, err := m.next(context.Background(), b)
	if err != nil {
		panic(err) // only a cancelled context fails a move
	}
	return i
}
