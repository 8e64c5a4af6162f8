package svgchart

import (
	"html/template"
	"strconv"
	"strings"
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
	const barH, gap = 7.0, 8.0
	fr, w := newBarFrame(c.ID, c.Keys, c.Colours, c.Width, c.Format, 2)
	groupH := barH*float64(max(len(c.Keys), 1)) + gap
	h := fr.height(groupH, len(c.Groups))
	top := 0.0
	for _, g := range c.Groups {
		for _, v := range g.Values {
			top = max(top, finite(v))
		}
	}
	top = NiceCeil(top)

	var b strings.Builder
	y := fr.head(&b, c.Title, c.Desc, w, h)
	for _, g := range c.Groups {
		text(&b, fr.lft-6, y+groupH/2, "end", g.Label)
		for i := range c.Keys {
			v := 0.0
			if i < len(g.Values) {
				v = g.Values[i]
			}
			by := y + float64(i)*barH
			// A zero is drawn as a hairline, so that "nothing" is seen, not missed.
			wd := max(fr.px(v, top), 0.5)
			b.WriteString(`<rect class="bar k` + strconv.Itoa(i) + `" x="` + ff(fr.lft) + `" y="` + ff(by) + `" width="` + ff(wd) + `" height="` + ff(barH-1) +
				`" fill="` + fr.fill(i) + `"><title>` + esc(g.Label+" — "+c.Keys[i]+": "+fr.f(finite(v))) + `</title></rect>`)
		}
		y += groupH
	}
	return fr.foot(&b, y, top, noBars(len(c.Groups), c.EmptyText), groupH, groupH/2)
}
