package tiny_test

import (
	"fmt"

	"github.com/corentings/chess/v2"
	"github.com/evotune/evotune/fitness/chess/tiny"
)

// A back-rank mate in one, found at depth 1.
func ExampleSearch() {
	var pos chess.Position
	if err := pos.UnmarshalText([]byte("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")); err != nil {
		panic(err)
	}
	r, ok := tiny.Search(&pos, tiny.Defaults(), 1, 0)
	m := r.Move
	fmt.Println(ok, chess.UCINotation{}.Encode(&pos, &m), "mate", r.Mate())
	// Output: true a1a8 mate 1
}
