package svgchart

import (
	"html/template"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Group is one category of a grouped bar chart: one value per key of the chart.
type Group struct {
	Label  string
	Values []float64 // in the order of the chart's Keys
}

// Grouped is a horizontal grouped bar chart: one group of bars per category, one bar
// per key, each key with its colour and pattern (as in Stacked) so that the bars are
// told apart without colour, and every bar titled with its category, key and value.
// It compares figures that do not add up, where Stacked shows parts of a whole: a
// state's obligation and what it delivered, under two scenarios.
type Grouped struct {
	ID, Title, Desc string
	Keys            []string // the bars of each group, in order
	Colours         []string // one per key
	Groups          []Group
	Format          Format
	Width           int // 0: 640
	EmptyText       string
}

// SVG draws the chart.
func (c Grouped) SVG() template.HTML {
	w := c.Width
	if w <= 0 {
		w = defaultW
	}
	const barH, gap, legendH = 7.0, 8.0, 22.0
	lft := 46.0
	x1 := float64(w) - right
	cols := 2
	longest := 0
	for _, k := range c.Keys {
		longest = max(longest, utf8.RuneCountInString(k))
	}
	for cols > 1 && 22+float64(longest)*charW > (x1-lft)/float64(cols) {
		cols--
	}
	groupH := barH*float64(max(len(c.Keys), 1)) + gap
	h := int(topM + legendH*float64((len(c.Keys)+cols-1)/cols) + groupH*float64(max(len(c.Groups), 1)) + bottom)
	f := c.Format
	if f == nil {
		f = func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	}
	top := 0.0
	for _, g := range c.Groups {
		for _, v := range g.Values {
			top = max(top, finite(v))
		}
	}
	top = NiceCeil(top)
	px := func(v float64) float64 { return max(finite(v), 0) / top * (x1 - lft) }

	var b strings.Builder
	open(&b, c.ID, c.Title, c.Desc, w, h)
	b.WriteString(`<defs>`)
	for i := range c.Keys {
		b.WriteString(`<pattern id="` + esc(c.ID) + `-k` + strconv.Itoa(i) + `" width="6" height="6" patternUnits="userSpaceOnUse">`)
		b.WriteString(`<rect width="6" height="6" fill="` + esc(colour(c.Colours, i)) + `"/>` + patterns[i%len(patterns)] + `</pattern>`)
	}
	b.WriteString(`</defs>`)
	y := topM
	for i, k := range c.Keys {
		x := lft + float64(i%cols)*(x1-lft)/float64(cols)
		if i > 0 && i%cols == 0 {
			y += legendH
		}
		b.WriteString(`<rect x="` + ff(x) + `" y="` + ff(y-10) + `" width="14" height="12" fill="url(#` + esc(c.ID) + `-k` + strconv.Itoa(i) + `)" stroke="#555"/>`)
		text(&b, x+18, y, "start", k)
	}
	y += legendH
	for _, g := range c.Groups {
		text(&b, lft-6, y+groupH/2, "end", g.Label)
		for i := range c.Keys {
			v := 0.0
			if i < len(g.Values) {
				v = g.Values[i]
			}
			by := y + float64(i)*barH
			// A zero is drawn as a hairline, so that "nothing" is seen, not missed.
			wd := max(px(v), 0.5)
			b.WriteString(`<rect class="bar k` + strconv.Itoa(i) + `" x="` + ff(lft) + `" y="` + ff(by) + `" width="` + ff(wd) + `" height="` + ff(barH-1) +
				`" fill="url(#` + esc(c.ID) + `-k` + strconv.Itoa(i) + `)"><title>` + esc(g.Label+" — "+c.Keys[i]+": "+f(finite(v))) + `</title></rect>`)
		}
		y += groupH
	}
	if len(c.Groups) == 0 && c.EmptyText != "" {
		text(&b, (lft+x1)/2, y+groupH/2, "middle", c.EmptyText)
		y += groupH
	}
	b.WriteString(`<line x1="` + ff(lft) + `" y1="` + ff(y) + `" x2="` + ff(x1) + `" y2="` + ff(y) + `" stroke="#767676"/>`)
	text(&b, lft, y+16, "start", f(0))
	text(&b, x1, y+16, "end", f(top))
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text above is escaped
}
