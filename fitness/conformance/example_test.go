package conformance_test

import (
	"context"
	"fmt"

	"github.com/evotune/evotune/fitness/conformance"
	"github.com/evotune/evotune/fitness/mnk"
)

// CheckAll runs the suite outside a test, here over tic-tac-toe: nil
// means the game keeps every clause of the contract. In a test,
// conformance.Run(t, mnk.Info, opts) runs each clause as a subtest.
func ExampleCheckAll() {
	err := conformance.CheckAll(context.Background(), mnk.Info, conformance.Options{Seeds: 2})
	fmt.Println("breaches:", err)
	// Output: breaches: <nil>
}
