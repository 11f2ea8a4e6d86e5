package plot

import (
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// TestPicturesAreWellFormed: every picture is one well-formed SVG
// document however its text reads: a name holding markup, a quote or a
// control character is escaped (Esc) and shown as written.
func TestPicturesAreWellFormed(t *testing.T) {
	const name = `<b>"x" & 'y'` + "\x1b"
	for _, tc := range []struct {
		name string
		svg  []byte
	}{
		{"medians", Medians{Title: name, RefName: name, Ref: []float64{1}, Lines: []MedianLine{
			{Name: name, Points: [][4]float64{{10, 1, 0.5, 1.5}, {20, 2, 1.5, 2.5}}},
			{Name: "b+racing", Dashed: true, Points: [][4]float64{{10, 1.2, 1, 1.4}}},
		}}.SVG()},
		{"reach", Reach{Title: name, MaxGames: 100, Rows: []ReachRow{{Name: name, Points: []ReachPoint{{Games: 40, Reached: true}, {Games: 100, Done: true}, {Games: 7}}}}}.SVG()},
		{"curves", Curves{Title: name, First: name, Steps: 2, Lines: []Curve{{Legend: name, Y: []float64{1, 2}, Lo: []float64{0, 1}, Hi: []float64{2, 3}}}}.SVG()},
		{"report", Report{Chart: Chart{Title: name, Lines: []Line{{Name: name, Y: []float64{1, 2}}}}, Generations: 2, Note: name, Bars: &Bars{Title: name, Played: []int{3, 4}, Saved: []int{1, 0}}}.SVG()},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dec := xml.NewDecoder(strings.NewReader(string(tc.svg)))
			var texts []string
			for {
				tok, err := dec.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("not well-formed: %v\n%s", err, tc.svg)
				}
				if cd, ok := tok.(xml.CharData); ok {
					texts = append(texts, string(cd))
				}
			}
			if !strings.Contains(strings.Join(texts, "\n"), `<b>"x" & 'y'\x1b`) {
				t.Errorf("the name is not shown as written (its control character escaped): %q", texts)
			}
		})
	}
}
