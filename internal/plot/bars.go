package plot

import (
	"bytes"
	"fmt"
)

// Bars are two counts per generation stacked: racing's games played and
// the games it saved.
type Bars struct {
	Title         string
	Played, Saved []int
	Width, Height float64 // 0 means 760 by 220
	ID            string
}

// SVG draws the bars.
func (bs *Bars) SVG() []byte {
	var b bytes.Buffer
	w, h := bs.Width, bs.Height
	if w == 0 {
		w = 760
	}
	if h == 0 {
		h = 220
	}
	open(&b, bs.ID, w, h)
	bs.Draw(&b, 0, w, h)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// Draw draws the bars in the box from top, w by h, of a larger picture.
func (bs *Bars) Draw(b *bytes.Buffer, top, w, h float64) {
	n := min(len(bs.Played), len(bs.Saved))
	most, played, saved := 0, 0, 0
	for i := range n {
		most = max(most, bs.Played[i]+bs.Saved[i])
		played += bs.Played[i]
		saved += bs.Saved[i]
	}
	share := 0.0
	if played+saved > 0 {
		share = 100 * float64(saved) / float64(played+saved)
	}
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" font-size="14" font-weight="bold">%s</text>`+"\n", padLeft-54, top+18, Esc(bs.Title))
	fmt.Fprintf(b, `<text x="%.0f" y="%.0f" font-size="%d" fill="%s">%d played, %d saved (%.1f%% of the full budget)</text>`+"\n",
		padLeft, top+36, smallFontSize, colourNote, played, saved, share)
	legend := legendItem{"played", ColourPlayed, 'b'}
	legend.draw(b, w-260, top+36)
	legend = legendItem{"saved", ColourSaved, 'b'}
	legend.draw(b, w-160, top+36)
	if n == 0 || most == 0 {
		return
	}
	f := frame{left: padLeft, top: top + 48, right: w - 20, bottom: top + h - padBottom, lo: 0, hi: float64(most), n: n}
	for _, t := range Ticks(0, float64(most), 4) {
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/><text x="%.1f" y="%.1f" text-anchor="end" font-size="%d">%s</text>`+"\n",
			f.left, f.y(t), f.right, f.y(t), colourGrid, f.left-5, f.y(t)+4, smallFontSize, TickLabel(t, 0, float64(most)))
	}
	slot := (f.right - f.left) / float64(n)
	// Past a pixel a bar, bars merge: draw the played and saved areas as
	// outlines over the generations instead.
	if slot < 1.5 {
		pl, sv := make([]float64, n), make([]float64, n)
		for i := range n {
			pl[i], sv[i] = float64(bs.Played[i]), float64(bs.Played[i]+bs.Saved[i])
		}
		zero := make([]float64, n)
		drawBand(b, f, Band{Colour: ColourSaved, Lo: pl, Hi: sv})
		drawBand(b, f, Band{Colour: ColourPlayed, Lo: zero, Hi: pl})
	} else {
		for i := range n {
			x := f.left + float64(i)*slot + slot*0.1
			bw := slot * 0.8
			p, s := float64(bs.Played[i]), float64(bs.Saved[i])
			fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, x, f.y(p), bw, f.bottom-f.y(p), ColourPlayed)
			if s > 0 {
				fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, x, f.y(p+s), bw, f.y(p)-f.y(p+s), ColourSaved)
			}
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s"/>`+"\n", f.left, f.bottom, f.right, f.bottom, colourAxis)
	fmt.Fprintf(b, `<text x="%.1f" y="%.1f" font-size="%d">generation 1</text><text x="%.1f" y="%.1f" text-anchor="end" font-size="%d">%d</text>`+"\n",
		f.left, f.bottom+16, smallFontSize, f.right, f.bottom+16, smallFontSize, n)
}
