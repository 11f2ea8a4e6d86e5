package plot

import (
	"bytes"
	"fmt"
	"math"
)

// Knob is one knob's trajectory: its value in the run's best after each
// generation, in the knob's own units.
type Knob struct {
	Name string
	// Min and Max are the searched range; Log draws it on a log scale.
	Min, Max float64
	Log      bool
	// Levels name the values of a knob that takes few (a choice's names,
	// a bool's false and true): Values are then indices into them.
	Levels []string
	Values []float64 // per generation; NaN where the generation has none
	Best   string    // the best's value, written as a config would
	Range  string    // the searched range, written for people
}

// t is the knob's scale: the value itself, or its log on a log scale.
func (k *Knob) t(v float64) float64 {
	if k.Log && k.Min > 0 && v > 0 {
		return math.Log(v)
	}
	return v
}

func (k *Knob) untransform(t float64) float64 {
	if k.Log && k.Min > 0 {
		return math.Exp(t)
	}
	return t
}

// window is the part of the knob's scale its strip shows: the values it
// took, widened to at least a tenth of the searched range and kept inside
// it, so a knob that moved little in a wide range still shows how, and
// noise does not look like a swing. A knob of levels shows them all.
func (k *Knob) window() (lo, hi float64) {
	if len(k.Levels) > 0 {
		return 0, float64(max(1, len(k.Levels)-1))
	}
	full0, full1 := k.t(k.Min), k.t(k.Max)
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range k.Values {
		if finite(v) {
			lo, hi = min(lo, k.t(v)), max(hi, k.t(v))
		}
	}
	if lo > hi || !(full1 > full0) {
		return full0, full1
	}
	if least := (full1 - full0) / 10; hi-lo < least {
		mid := (lo + hi) / 2
		lo, hi = mid-least/2, mid+least/2
		if lo < full0 {
			lo, hi = full0, full0+least
		}
		if hi > full1 {
			lo, hi = full1-least, full1
		}
	}
	return lo, hi
}

// Ends are the values at the bottom and the top of the knob's strip.
func (k *Knob) Ends() (string, string) {
	if len(k.Levels) > 0 {
		return k.Levels[0], k.Levels[len(k.Levels)-1]
	}
	lo, hi := k.window()
	return Num(k.untransform(lo)), Num(k.untransform(hi))
}

// drawStrip draws the knob's trajectory in the box (x, y, w, h) over n
// generations: a pale strip, the line, and a dot at the last value. With
// labels, the values of the strip's bottom and top are written left of
// it, right-aligned at x-3.
func (k *Knob) drawStrip(b *bytes.Buffer, x, y, w, h float64, n int, labels bool) {
	fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#f4f4f4" stroke="#ddd"/>`, x, y, w, h)
	if labels {
		bottom, top := k.Ends()
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="8" fill="%s" text-anchor="end">%s</text><text x="%.1f" y="%.1f" font-size="8" fill="%s" text-anchor="end">%s</text>`,
			x-3, y+h-1, colourNote, Esc(bottom), x-3, y+7, colourNote, Esc(top))
	}
	inner := y + 2
	ih := h - 4
	px := func(i int) float64 {
		if n <= 1 {
			return x + w/2
		}
		return x + float64(i)*w/float64(n-1)
	}
	lo, hi := k.window()
	py := func(v float64) float64 {
		t := 0.5
		if len(k.Levels) > 0 {
			t = v / hi
		} else if hi > lo {
			t = (k.t(v) - lo) / (hi - lo)
		}
		return inner + ih - min(1, max(0, t))*ih
	}
	last := -1
	for _, r := range runs(k.Values) {
		pts := prune(decimate(r.ys, w))
		var p bytes.Buffer
		for _, pt := range pts {
			fmt.Fprintf(&p, "%.1f,%.1f ", px(r.first+pt.i), py(pt.v))
		}
		if len(pts) > 1 {
			fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="1.5"/>`, bytes.TrimSpace(p.Bytes()), ColourKnob)
		}
		last = r.first + len(r.ys) - 1
	}
	if last >= 0 {
		fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="%s"/>`, px(last), py(k.Values[last]), ColourKnob)
	}
	b.WriteString("\n")
}

// SVG draws the knob's strip alone, w by h, over n generations (a
// dashboard table's cell).
func (k *Knob) SVG(w, h float64, n int) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="strip" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="%s">`, w, h, w, h, fontFamily)
	k.drawStrip(&b, 0.5, 0.5, w-1, h-1, n, false)
	b.WriteString("</svg>")
	return b.Bytes()
}

// Knob table layout.
const (
	knobRowHeight = 24.0
	knobNameWidth = 150.0
	knobValWidth  = 110.0
	knobEndsWidth = 40.0
)

// KnobsHeight is the height KnobTable takes for k knobs.
func KnobsHeight(k int) float64 {
	if k == 0 {
		return 0
	}
	return 44 + knobRowHeight*float64(k)
}

// DrawKnobTable draws, from (x, y) and w wide, one row per knob: its
// name, its trajectory over the n generations, the best's value and the
// searched range.
func DrawKnobTable(b *bytes.Buffer, x, y, w float64, knobs []Knob, n int) {
	if len(knobs) == 0 {
		return
	}
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="14" font-weight="bold">knobs of the best after each generation</text>`+"\n", x, y+16)
	stripW := w - knobNameWidth - 2*knobValWidth - 20
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%d" fill="%s">generation 1 to %d</text>`,
		x+knobNameWidth+knobEndsWidth, y+34, smallFontSize, colourNote, n)
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%d" fill="%s">best's value</text><text x="%.1f" y="%.1f" font-size="%d" fill="%s">searched range</text>`+"\n",
		x+knobNameWidth+stripW+10, y+34, smallFontSize, colourNote, x+knobNameWidth+stripW+10+knobValWidth, y+34, smallFontSize, colourNote)
	for i := range knobs {
		k := &knobs[i]
		top := y + 40 + knobRowHeight*float64(i)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f">%s</text>`, x, top+knobRowHeight/2+4, Esc(clipText(k.Name, knobNameWidth-8)))
		k.drawStrip(b, x+knobNameWidth+knobEndsWidth, top+2, stripW-knobEndsWidth, knobRowHeight-4, n, true)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-weight="bold">%s</text><text x="%.1f" y="%.1f" font-size="%d" fill="%s">%s</text>`+"\n",
			x+knobNameWidth+stripW+10, top+knobRowHeight/2+4, Esc(clipText(k.Best, knobValWidth-8)),
			x+knobNameWidth+stripW+10+knobValWidth, top+knobRowHeight/2+4, smallFontSize, colourNote, Esc(clipText(k.Range, knobValWidth+10)))
	}
}

// clipText shortens s to about w pixels of text.
func clipText(s string, w float64) string {
	r := []rune(s)
	n := int(w / charWidth)
	if len(r) <= n || n < 2 {
		return s
	}
	return string(r[:n-1]) + "…"
}
