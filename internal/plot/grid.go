package plot

import (
	"bytes"
	"fmt"
	"math"
)

// Grid is a weight grid's cells, row by row.
type Grid struct {
	Name       string
	Rows, Cols int
	Cells      []float64
	Note       string  // after the name: the symmetry searched
	Size       float64 // the heat map's side; 0 means GridSize
	// Scale, when its ends differ, is the range white to dark red spans
	// (grids compared side by side share one); else the grid's own.
	Scale [2]float64
	block int // a block grid's side of its blocks, in cells
}

// MaxGridSide is the most cells a heat map draws along a side.
const MaxGridSide = 64

// blocks is g as the means of f x f blocks of its cells (the last row
// and column of blocks may hold fewer).
func (g *Grid) blocks(f int) Grid {
	out := *g
	out.Rows, out.Cols, out.block = (g.Rows+f-1)/f, (g.Cols+f-1)/f, f
	out.Cells = make([]float64, out.Rows*out.Cols)
	counts := make([]int, len(out.Cells))
	for r := range g.Rows {
		for c := range g.Cols {
			i := (r/f)*out.Cols + c/f
			out.Cells[i] += g.Cells[r*g.Cols+c]
			counts[i]++
		}
	}
	for i := range out.Cells {
		out.Cells[i] /= float64(counts[i])
	}
	return out
}

// GridSize is the side of a grid's heat map.
const GridSize = 280.0

// DrawGrid draws g at (left, top) as a heat map g.Size wide: white at
// its smallest cell, dark red at its largest, each value written in its
// cell where cells are wide enough to hold it, and in each cell's title
// (shown on hover) always.
//
// A grid wider or taller than MaxGridSide cells is drawn as the means of
// square blocks of cells, at most MaxGridSide a side, and says so: a
// protocol player's grid may have 65,536 cells, which drawn one by one
// would make each report some megabytes.
func DrawGrid(b *bytes.Buffer, left, top float64, g *Grid) {
	if g.Rows < 1 || g.Cols < 1 || len(g.Cells) != g.Rows*g.Cols {
		return
	}
	if f := (max(g.Rows, g.Cols) + MaxGridSide - 1) / MaxGridSide; f > 1 {
		blocks := g.blocks(f)
		g = &blocks
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, c := range g.Cells {
		lo, hi = min(lo, c), max(hi, c)
	}
	if g.Scale[1] > g.Scale[0] {
		lo, hi = min(lo, g.Scale[0]), max(hi, g.Scale[1])
	}
	title := g.Name
	if g.Note != "" {
		title += " (" + g.Note + ")"
	}
	what := "row %d, column %d"
	if g.block > 1 {
		title += fmt.Sprintf(", means of %dx%d blocks", g.block, g.block)
		what = "block row %d, column %d"
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="14" font-weight="bold">best %s</text>`+"\n", left, top+16, Esc(title))
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%d" fill="%s">white %s to dark red %s</text>`+"\n", left, top+32, smallFontSize, colourNote, Num(lo), Num(hi))
	top += 40
	size := g.side()
	cw, ch := size/float64(g.Cols), size/float64(g.Rows)
	font := math.Min(10, cw/3.6)
	for r := range g.Rows {
		for c := range g.Cols {
			v := g.Cells[r*g.Cols+c]
			t := 0.0
			if hi > lo {
				t = (v - lo) / (hi - lo)
			}
			red, other := 255-int(t*100), 255-int(t*220)
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="rgb(%d,%d,%d)" stroke="#ccc"><title>`+what+`: %s</title></rect>`,
				left+float64(c)*cw, top+float64(r)*ch, cw, ch, red, other, other, r+1, c+1, num(v))
			if font >= 6 {
				fill := "black"
				if t > 0.6 {
					fill = "white"
				}
				fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%.1f" text-anchor="middle" fill="%s">%s</text>`,
					left+(float64(c)+0.5)*cw, top+(float64(r)+0.5)*ch+font/3, font, fill, cellLabel(v))
			}
		}
		b.WriteString("\n")
	}
}

func (g *Grid) side() float64 {
	if g.Size > 0 {
		return g.Size
	}
	return GridSize
}

// Height is the height DrawGrid takes.
func (g *Grid) Height() float64 { return g.side() + 44 }

// SVG draws the grid alone.
func (g *Grid) SVG() []byte {
	var b bytes.Buffer
	w, h := max(g.side()+4, 240), g.Height()
	open(&b, "", w, h)
	DrawGrid(&b, 2, 0, g)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// cellLabel writes a cell's value in few characters.
func cellLabel(v float64) string {
	if math.Abs(v) >= 100 {
		return fmt.Sprintf("%.0f", v)
	}
	if math.Abs(v) >= 10 {
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.2f", v)
}
