package wire_test

import (
	"bufio"
	"errors"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness/external/internal/wire"
)

// TestReadLine: both sides of the protocol read their lines with
// ReadLine: whole lines without the newline, a line over the limit
// refused (the newline counts), a last line without its newline refused,
// and io.EOF at the end.
func TestReadLine(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		limit int
		want  []string
		err   error
	}{
		{name: "lines", in: "a\nbc\n\n", limit: 10, want: []string{"a", "bc", ""}, err: io.EOF},
		{name: "at the limit", in: "abcd\n", limit: 5, want: []string{"abcd"}, err: io.EOF},
		{name: "over the limit", in: "abcde\n", limit: 5, err: wire.ErrLineTooLong},
		{name: "longer than the buffer", in: strings.Repeat("x", 40) + "\n", limit: 100, want: []string{strings.Repeat("x", 40)}, err: io.EOF},
		{name: "over the limit across the buffer", in: strings.Repeat("x", 40) + "\n", limit: 30, err: wire.ErrLineTooLong},
		{name: "partial", in: "a\nb", limit: 10, want: []string{"a"}, err: wire.ErrPartialLine},
		{name: "empty", in: "", limit: 10, err: io.EOF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := bufio.NewReaderSize(strings.NewReader(tc.in), 16)
			var got []string
			for {
				line, err := wire.ReadLine(r, tc.limit)
				if err != nil {
					if !errors.Is(err, tc.err) {
						t.Fatalf("error %v, want %v", err, tc.err)
					}
					break
				}
				got = append(got, string(line))
			}
			if !slices.Equal(got, tc.want) {
				t.Fatalf("lines %q, want %q", got, tc.want)
			}
		})
	}
}
