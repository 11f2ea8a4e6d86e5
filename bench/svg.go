package main

import (
	"bytes"
	"fmt"
	"sort"
)

type svgPoint struct {
	games         int
	reached, done bool
}

type svgRow struct {
	name   string
	points []svgPoint
}

// drawSVG draws one row per method: a filled dot per run that reached
// the target at the games it took, a hollow one at the right edge per
// run out of budget, a grey one per run still going at its games so far,
// and a bar at the median of the finished runs.
func drawSVG(title string, maxGames int, rows []svgRow) []byte {
	const left, right, top, rowH = 170.0, 40.0, 50.0, 40.0
	const w = 760.0
	h := top + rowH*float64(len(rows)) + 50
	x := func(g int) float64 { return left + float64(g)/float64(maxGames)*(w-left-right) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", w, h)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="10" y="20" font-size="14">%s</text>`+"\n", title)
	fmt.Fprintf(&b, `<text x="10" y="36" fill="#555">filled: reached; hollow: not within %d games; grey: still running; bar: median of finished runs</text>`+"\n", maxGames)
	axisY := top + rowH*float64(len(rows))
	fmt.Fprintf(&b, `<line x1="%.0f" y1="%.0f" x2="%.0f" y2="%.0f" stroke="black"/>`+"\n", left, axisY, w-right, axisY)
	for k := 0; k <= 4; k++ {
		g := maxGames * k / 4
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.0f" x2="%.1f" y2="%.0f" stroke="#ddd"/>`+"\n", x(g), top, x(g), axisY)
		fmt.Fprintf(&b, `<text x="%.1f" y="%.0f" text-anchor="middle">%d</text>`+"\n", x(g), axisY+16, g)
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">games played by the run</text>`+"\n", (left+w-right)/2, axisY+34)
	for i, r := range rows {
		y := top + rowH*(float64(i)+0.5)
		fmt.Fprintf(&b, `<text x="%.0f" y="%.1f" text-anchor="end">%s</text>`+"\n", left-10, y+4, r.name)
		var done []int
		for j, p := range r.points {
			dy := float64(j%5-2) * 4 // spread the runs of a row so equal figures stay visible
			switch {
			case p.reached:
				done = append(done, p.games)
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="#3182bd"/>`+"\n", x(p.games), y+dy)
			case p.done:
				done = append(done, maxGames+1)
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="4" fill="none" stroke="#d62728"/>`+"\n", x(maxGames), y+dy)
			default:
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#bbb"/>`+"\n", x(p.games), y+dy)
			}
		}
		if len(done) > 0 {
			sort.Ints(done)
			m := (done[(len(done)-1)/2] + done[len(done)/2]) / 2
			if m <= maxGames {
				fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black" stroke-width="2"/>`+"\n", x(m), y-12, x(m), y+12)
			}
		}
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
