package genome

import "testing"

// TestLineErrorText: a known line leads the message; line 0 means unknown
// and is left out rather than printed as "line 0".
func TestLineErrorText(t *testing.T) {
	for _, tc := range []struct {
		name string
		e    LineError
		want string
	}{
		{"known line", LineError{Line: 3, Key: "space.edge.min", Msg: "want a number"}, "line 3: space.edge.min: want a number"},
		{"first line", LineError{Line: 1, Key: "space", Msg: "empty"}, "line 1: space: empty"},
		{"unknown line", LineError{Line: 0, Key: "space.edge", Msg: "min above max"}, "space.edge: min above max"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.e.Error(); got != tc.want {
				t.Fatalf("Error() = %q, want %q", got, tc.want)
			}
		})
	}
}
