package plot

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestYRangeHoldsTheRegionOfInterest: the quickstart's first generation
// has a mean of 60.8 with a spread of 12.9 while the best moves between
// 43.7 and 45.2; the range is chosen from the bests, the recommended
// interval and the reference lines, and the mean widens it by at most
// that span, so the bests fill a good part of the height.
func TestYRangeHoldsTheRegionOfInterest(t *testing.T) {
	best := []float64{44.9, 45.1, 45.2, 44.7, 43.8, 44.6, 43.76}
	mean := []float64{60.8, 53.6, 50.5, 48.2, 46.5, 45.9, 44.2}
	tests := []struct {
		name   string
		chart  Chart
		lo, hi float64 // the range must lie within [lo, hi] ...
		holds  []float64
	}{
		{"bests and the mean", Chart{Lines: []Line{{Y: mean}, {Y: best, Core: true}},
			Bands: []Band{{Lo: []float64{47.9}, Hi: []float64{73.7}}}}, 43, 47.2, []float64{43.76, 45.2}},
		{"a mark's interval widens it", Chart{Lines: []Line{{Y: mean}, {Y: best, Core: true}},
			Marks: []Mark{{Value: 43.76, Lo: 43.2, Hi: 44.3}}}, 42.9, 47.5, []float64{43.2, 45.2}},
		{"a reference line widens it", Chart{Lines: []Line{{Y: []float64{0.6, 0.7}, Core: true}},
			Refs: []Ref{{Value: 0.5}}, Bounds: [2]float64{0, 1}}, 0.48, 0.72, []float64{0.5, 0.7}},
		{"bounds clip the padding", Chart{Lines: []Line{{Y: []float64{0, 1}, Core: true}}, Bounds: [2]float64{0, 1}}, 0, 1, []float64{0, 1}},
		{"a flat line gets a span", Chart{Lines: []Line{{Y: []float64{0.5, 0.5}, Core: true}}}, 0.2, 0.8, []float64{0.5}},
		{"no core: the lines decide", Chart{Lines: []Line{{Y: []float64{3, 5}}}}, 2.8, 5.2, []float64{3, 5}},
		{"NaN and infinities are ignored", Chart{Lines: []Line{{Y: []float64{math.NaN(), 2, math.Inf(1), 4}, Core: true}}}, 1.8, 4.2, []float64{2, 4}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := tc.chart.YRange()
			if lo < tc.lo || hi > tc.hi || !(hi > lo) {
				t.Errorf("range [%v, %v], want within [%v, %v]", lo, hi, tc.lo, tc.hi)
			}
			for _, v := range tc.holds {
				if v < lo || v > hi {
					t.Errorf("range [%v, %v] leaves out %v", lo, hi, v)
				}
			}
		})
	}
}

// TestDecimateKeepsExtremes: a line of more points than pixels keeps, in
// every pixel's bucket, its lowest and highest values, so a one-generation
// spike survives.
func TestDecimateKeepsExtremes(t *testing.T) {
	ys := make([]float64, 10_000)
	for i := range ys {
		ys[i] = math.Sin(float64(i) / 300)
	}
	ys[4321] = 5
	ys[777] = -5
	pts := decimate(ys, 200)
	if len(pts) > 400 {
		t.Fatalf("%d points for 200 pixels", len(pts))
	}
	found := map[int]bool{}
	last := -1
	for _, p := range pts {
		if p.i <= last {
			t.Fatalf("points out of order: %d after %d", p.i, last)
		}
		last = p.i
		if ys[p.i] != p.v {
			t.Fatalf("point %d has value %v, the line %v", p.i, p.v, ys[p.i])
		}
		found[p.i] = true
	}
	if !found[4321] || !found[777] {
		t.Errorf("a spike was lost: 4321 kept %v, 777 kept %v", found[4321], found[777])
	}
	if short := decimate([]float64{1, 2, 3}, 200); len(short) != 3 {
		t.Errorf("a short line lost points: %v", short)
	}
}

// TestChartDrawsEveryGeneration: a line of n generations spans the plot
// from the first to the last; a line with a gap is drawn as two.
func TestChartDrawsEveryGeneration(t *testing.T) {
	c := Chart{Lines: []Line{{Name: "a", Colour: "red", Y: []float64{1, 2, math.NaN(), 4, 5}, Core: true}}, ID: "x"}
	svg := string(c.SVG())
	if n := strings.Count(svg, `<polyline class="line"`); n != 2 {
		t.Errorf("%d polylines, want 2 (the gap splits the line)\n%s", n, svg)
	}
	if !strings.Contains(svg, `id="x"`) || !strings.Contains(svg, `clip-path="url(#x-clip)"`) {
		t.Error("the chart's id and clip path are not its own")
	}
}

// TestKnobWindow: a knob's strip shows the values it took, widened to a
// tenth of its range and kept inside it; on a log scale in logs.
func TestKnobWindow(t *testing.T) {
	tests := []struct {
		name   string
		k      Knob
		lo, hi float64
	}{
		{"moves widely", Knob{Min: 0, Max: 10, Values: []float64{2, 8}}, 2, 8},
		{"moves a little: a tenth of the range", Knob{Min: 0, Max: 10, Values: []float64{5, 5.1}}, 4.55, 5.55},
		{"at the bottom end", Knob{Min: 0, Max: 10, Values: []float64{0, 0.1}}, 0, 1},
		{"at the top end", Knob{Min: 0, Max: 10, Values: []float64{10}}, 9, 10},
		{"log", Knob{Min: 1, Max: 1000, Log: true, Values: []float64{10, 100}}, math.Log(10), math.Log(100)},
		{"levels", Knob{Levels: []string{"a", "b", "c"}, Values: []float64{1}}, 0, 2},
		{"no values", Knob{Min: 1, Max: 2, Values: []float64{math.NaN()}}, 1, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			lo, hi := tc.k.window()
			if math.Abs(lo-tc.lo) > 1e-9 || math.Abs(hi-tc.hi) > 1e-9 {
				t.Errorf("window [%v, %v], want [%v, %v]", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

// TestEscapes: text from a file is never markup, and control characters
// show as escapes.
func TestEscapes(t *testing.T) {
	got := Esc("a<b>&\"c'\x1b[31m\u0085")
	want := `a&lt;b&gt;&amp;&#34;c&#39;\x1b[31m\x85`
	if got != want {
		t.Errorf("Esc = %s, want %s", got, want)
	}
}

// TestTicks are round numbers inside the range.
func TestTicks(t *testing.T) {
	tests := []struct {
		lo, hi float64
		want   []float64
	}{
		{43, 47.2, []float64{43, 44, 45, 46, 47}},
		{0.48, 0.72, []float64{0.5, 0.55, 0.6, 0.65, 0.7}},
		{-1, 1, []float64{-1, -0.5, 0, 0.5, 1}},
	}
	for _, tc := range tests {
		got := Ticks(tc.lo, tc.hi, 6)
		if len(got) != len(tc.want) {
			t.Errorf("Ticks(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-tc.want[i]) > 1e-9 {
				t.Errorf("Ticks(%v, %v) = %v, want %v", tc.lo, tc.hi, got, tc.want)
				break
			}
		}
	}
}

// TestBarsMergeWhenNarrow: past a pixel a generation, racing's bars are
// drawn as two areas rather than thousands of rectangles.
func TestBarsMergeWhenNarrow(t *testing.T) {
	n := 5000
	bs := Bars{Played: make([]int, n), Saved: make([]int, n)}
	for i := range n {
		bs.Played[i], bs.Saved[i] = 100, i%50
	}
	var b bytes.Buffer
	bs.Draw(&b, 0, 760, 220)
	if r := strings.Count(b.String(), "<rect"); r > 10 {
		t.Errorf("%d rectangles for %d generations", r, n)
	}
	if p := strings.Count(b.String(), "<polygon"); p != 2 {
		t.Errorf("%d areas, want played and saved", p)
	}
}

// TestPruneKeepsTheLine: the points inside a stretch of equal values go,
// the stretch's ends stay, so the line drawn is the same.
func TestPruneKeepsTheLine(t *testing.T) {
	var pts []point
	for i, v := range []float64{1, 1, 1, 1, 2, 2, 3, 3, 3} {
		pts = append(pts, point{i, v})
	}
	got := prune(pts)
	var idx []int
	for _, p := range got {
		idx = append(idx, p.i)
	}
	want := []int{0, 3, 4, 5, 6, 8}
	if len(idx) != len(want) {
		t.Fatalf("kept %v, want %v", idx, want)
	}
	for i := range want {
		if idx[i] != want[i] {
			t.Fatalf("kept %v, want %v", idx, want)
		}
	}
}

// TestReferenceLabelsDoNotOverlap: two reference lines at one level (a
// start that plays as the baselines do, at their 1/2) share one label,
// their names side by side; lines near each other get labels a line
// apart, each above its line; lines far apart, each its own just above
// it.
func TestReferenceLabelsDoNotOverlap(t *testing.T) {
	labels := func(refs ...Ref) [][2]string { // each label's y and text
		c := Chart{Lines: []Line{{Y: []float64{0.4, 0.6}, Core: true}}, Refs: refs, Width: 800, Height: 400}
		var out [][2]string
		for _, m := range refLabel.FindAllStringSubmatch(string(c.SVG()), -1) {
			out = append(out, [2]string{m[1], tspan.ReplaceAllString(m[2], "")})
		}
		return out
	}
	ys := func(ls [][2]string) []float64 {
		var out []float64
		for _, l := range ls {
			y, _ := strconv.ParseFloat(l[0], 64)
			out = append(out, y)
		}
		return out
	}
	t.Run("one level", func(t *testing.T) {
		got := labels(Ref{Name: "first", Value: 0.5}, Ref{Name: "second", Value: 0.5})
		if len(got) != 1 || got[0][1] != "first · second" {
			t.Errorf("labels %q, want one: first · second", got)
		}
	})
	t.Run("near", func(t *testing.T) {
		got := ys(labels(Ref{Name: "first", Value: 0.5}, Ref{Name: "second", Value: 0.501}))
		if len(got) != 2 || math.Abs(got[0]-got[1]) < smallFontSize+2 {
			t.Errorf("labels at %v, want two a line apart", got)
		}
	})
	t.Run("apart", func(t *testing.T) {
		got := ys(labels(Ref{Name: "first", Value: 0.45}, Ref{Name: "second", Value: 0.55}))
		if len(got) != 2 || math.Abs(got[0]-got[1]) < 50 {
			t.Errorf("labels at %v, want each by its own line", got)
		}
	})
}

var (
	refLabel = regexp.MustCompile(`<text class="ref-label" x="[0-9.]+" y="([0-9.]+)"[^>]*>(.*?)</text>`)
	tspan    = regexp.MustCompile(`</?tspan[^>]*>`)
)

// TestGridScaleIsShared: grids compared side by side take one colour
// scale: a shade is one value in each, and the legend says the shared
// ends; alone, a grid spans its own.
func TestGridScaleIsShared(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scale  [2]float64
		legend string
		first  string // the fill of the first cell, valued 1
	}{
		{"its own", [2]float64{}, "white 1 to dark red 2", "rgb(255,255,255)"},
		{"shared", [2]float64{0, 4}, "white 0 to dark red 4", "rgb(230,200,200)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := Grid{Name: "w", Rows: 1, Cols: 2, Cells: []float64{1, 2}, Scale: tc.scale}
			svg := string(g.SVG())
			if !strings.Contains(svg, ">"+tc.legend+"<") {
				t.Errorf("no legend %q in\n%s", tc.legend, svg)
			}
			if !strings.Contains(svg, `fill="`+tc.first+`" stroke="#ccc"><title>row 1, column 1: 1</title>`) {
				t.Errorf("the first cell is not %s:\n%s", tc.first, svg)
			}
		})
	}
}

// TestLargeGridsAreDrawnInBlocks: a grid wider than MaxGridSide cells is
// drawn as the means of square blocks, at most MaxGridSide a side, each
// block's value the mean of its cells, and its title says so; a small
// grid is drawn cell by cell.
func TestLargeGridsAreDrawnInBlocks(t *testing.T) {
	const side = 256
	g := Grid{Name: "w", Rows: side, Cols: side, Cells: make([]float64, side*side)}
	for r := range side {
		for c := range side {
			g.Cells[r*side+c] = float64(r*side + c)
		}
	}
	svg := string(g.SVG())
	if n := strings.Count(svg, "<rect "); n > MaxGridSide*MaxGridSide+2 {
		t.Fatalf("%d rectangles, want at most %d blocks", n, MaxGridSide*MaxGridSide)
	}
	if !strings.Contains(svg, "means of 4x4 blocks") {
		t.Error("the title does not say the cells are block means")
	}
	// Block row 1, column 2 holds rows 0-3 and columns 4-7: its mean is
	// that of r*256+c over them, 1.5*256 + 5.5.
	if want := "block row 1, column 2: " + num(1.5*side+5.5); !strings.Contains(svg, want) {
		t.Errorf("no %q in the picture", want)
	}
	small := Grid{Name: "s", Rows: 3, Cols: 2, Cells: []float64{1, 2, 3, 4, 5, 6}}
	if svg := string(small.SVG()); strings.Contains(svg, "blocks") || !strings.Contains(svg, "row 3, column 2: "+num(6)) {
		t.Error("a small grid is not drawn cell by cell")
	}
}
