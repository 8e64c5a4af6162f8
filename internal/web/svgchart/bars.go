package svgchart

import (
	"html/template"
	"strconv"
	"strings"
	"unicode/utf8"
)

// barFrame is what the horizontal bar charts (Stacked, Grouped) share: a key per
// colour and pattern, a legend of the keys in columns above the bars, and the value
// axis under them.
type barFrame struct {
	id      string
	keys    []string
	colours []string
	f       Format
	lft, x1 float64 // the bars' left end (at 0) and the axis's right end (at the top value)
	cols    int     // the legend's columns
}

const (
	barLeft    = 46.0
	barLegendH = 22.0
)

// newBarFrame lays out a bar chart of width w (0: 640) whose legend has at most
// maxCols columns: fewer when the longest name (in a language that says it longer)
// would run into the next column's swatch.
func newBarFrame(id string, keys, colours []string, w int, f Format, maxCols int) (barFrame, int) {
	if w <= 0 {
		w = defaultW
	}
	fr := barFrame{id: id, keys: keys, colours: colours, f: plain(f), lft: barLeft, x1: float64(w) - right, cols: maxCols}
	longest := 0
	for _, k := range keys {
		longest = max(longest, utf8.RuneCountInString(k))
	}
	for fr.cols > 1 && 22+float64(longest)*charW > (fr.x1-fr.lft)/float64(fr.cols) {
		fr.cols--
	}
	return fr, w
}

// height is the chart's height for n rows of rowH (one at least, for the empty text).
func (fr barFrame) height(rowH float64, n int) int {
	return int(topM + barLegendH*float64((len(fr.keys)+fr.cols-1)/fr.cols) + rowH*float64(max(n, 1)) + bottom)
}

// px is the length of a bar of value v on an axis from 0 to top.
func (fr barFrame) px(v, top float64) float64 { return max(finite(v), 0) / top * (fr.x1 - fr.lft) }

// fill is key i's colour and pattern.
func (fr barFrame) fill(i int) string { return `url(#` + esc(fr.id) + `-k` + strconv.Itoa(i) + `)` }

// head opens the chart and draws the keys' patterns and the legend; it returns the y
// where the bars start.
func (fr barFrame) head(b *strings.Builder, title, desc string, w, h int) float64 {
	open(b, fr.id, title, desc, w, h)
	b.WriteString(`<defs>`)
	for i := range fr.keys {
		b.WriteString(`<pattern id="` + esc(fr.id) + `-k` + strconv.Itoa(i) + `" width="6" height="6" patternUnits="userSpaceOnUse">`)
		b.WriteString(`<rect width="6" height="6" fill="` + esc(colour(fr.colours, i)) + `"/>` + patterns[i%len(patterns)] + `</pattern>`)
	}
	b.WriteString(`</defs>`)
	// The legend: swatch (colour and pattern) and name of each key.
	y := topM
	for i, k := range fr.keys {
		x := fr.lft + float64(i%fr.cols)*(fr.x1-fr.lft)/float64(fr.cols)
		if i > 0 && i%fr.cols == 0 {
			y += barLegendH
		}
		b.WriteString(`<rect x="` + ff(x) + `" y="` + ff(y-10) + `" width="14" height="12" fill="` + fr.fill(i) + `" stroke="#555"/>`)
		text(b, x+18, y, "start", k)
	}
	return y + barLegendH
}

// foot writes empty, when it is not "", in a row of rowH at y (its text at y+dy),
// then the value axis from 0 to top under the bars, and ends the chart.
func (fr barFrame) foot(b *strings.Builder, y, top float64, empty string, rowH, dy float64) template.HTML {
	if empty != "" {
		text(b, (fr.lft+fr.x1)/2, y+dy, "middle", empty)
		y += rowH
	}
	rule(b, fr.lft, y, fr.x1, y, "#767676")
	text(b, fr.lft, y+16, "start", fr.f(0))
	text(b, fr.x1, y+16, "end", fr.f(top))
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text is escaped
}

// noBars is the text of a chart with n bars: empty when there are none, else "".
func noBars(n int, empty string) string {
	if n == 0 {
		return empty
	}
	return ""
}
