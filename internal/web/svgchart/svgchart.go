// Package svgchart draws the pages' charts as SVG on the server: no script, an
// accessible name (<title>) and description (<desc>) on every chart, and text that is
// always escaped. A chart is a picture of figures the page also gives as a table; it
// never is the only place a number is shown.
package svgchart

import (
	"html"
	"html/template"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Format writes an axis value or a figure (the page's locale).
type Format func(float64) string

// Point is one value of a series at x (for time, days since the Unix epoch).
type Point struct{ X, Y float64 }

// Series is a named line of a line chart.
type Series struct {
	Label  string
	Colour string
	Dashed bool
	// Square draws the series' points (a lone value, the last point) and its legend
	// key as squares instead of circles, so that two series of one-point values are
	// told apart without their colour.
	Square bool
	Points []Point
}

// Band is a range drawn as a shaded area between two lines over the same x values:
// the 5–95 % band of a figure over seeded runs, say. Low and High are paired by
// index; the shorter one sets the number of points.
type Band struct {
	Label     string
	Colour    string
	Low, High []Point
}

// Line is a line chart: series over a common x axis, with an optional vertical marker
// (today's line).
type Line struct {
	ID, Title, Desc string
	Series          []Series
	// Bands are drawn under the series, each with a key in the legend.
	Bands       []Band
	XMin, XMax  float64 // the x range; equal: from the points
	XLabels     [2]string
	Marker      *float64 // x of a vertical line, nil for none
	MarkerLabel string
	YFormat     Format
	// Left is the margin for the y axis's labels (0: 70), wider for long ones
	// ("EUR 500,000,000").
	Left          float64
	Width, Height int // 0: 640 × 260
	EmptyText     string
}

const (
	legendRow = 16.0
	// charW is the width of a character of the charts' text, wide enough for most
	// Latin, Greek and Cyrillic letters at the charts' font size.
	charW              = 6.5
	defaultW, defaultH = 640, 260
	left, right        = 70.0, 20.0
	bottom, topM       = 40.0, 20.0
)

func ff(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		v = 0
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

func esc(s string) string { return html.EscapeString(s) }

// finite is v, or 0 when v is not a finite number: a chart never writes NaN.
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// NiceCeil rounds v up to 1, 2 or 5 times a power of ten, for an axis; 1 for v ≤ 0.
func NiceCeil(v float64) float64 {
	v = finite(v)
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func open(b *strings.Builder, id, title, desc string, w, h int) {
	b.WriteString(`<svg id="` + esc(id) + `" class="chart" viewBox="0 0 ` + strconv.Itoa(w) + " " + strconv.Itoa(h) +
		`" role="img" aria-labelledby="` + esc(id) + `-title ` + esc(id) + `-desc" xmlns="http://www.w3.org/2000/svg">`)
	b.WriteString(`<title id="` + esc(id) + `-title">` + esc(title) + `</title><desc id="` + esc(id) + `-desc">` + esc(desc) + `</desc>`)
	b.WriteString(`<rect width="100%" height="100%" fill="#ffffff"/>`)
}

// plain is f, or a format of the shortest decimal when f is nil.
func plain(f Format) Format {
	if f != nil {
		return f
	}
	return func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
}

// rule draws a line from (x1, y1) to (x2, y2): an axis or a grid line.
func rule(b *strings.Builder, x1, y1, x2, y2 float64, stroke string) {
	b.WriteString(`<line x1="` + ff(x1) + `" y1="` + ff(y1) + `" x2="` + ff(x2) + `" y2="` + ff(y2) + `" stroke="` + stroke + `"/>`)
}

func text(b *strings.Builder, x, y float64, anchor, s string) {
	b.WriteString(`<text x="` + ff(x) + `" y="` + ff(y) + `" text-anchor="` + anchor + `" font-size="12" fill="#4a4a4a">` + esc(s) + `</text>`)
}

// SVG draws the chart.
func (c Line) SVG() template.HTML {
	w, h := c.Width, c.Height
	if w <= 0 || h <= 0 {
		w, h = defaultW, defaultH
	}
	f := plain(c.YFormat)
	xmin, xmax, ymax := c.xRange()
	top := NiceCeil(ymax)
	x0, x1, y0 := left, float64(w)-right, float64(h)-bottom
	if c.Left > 0 {
		x0 = min(c.Left, x1-1)
	}
	keys := c.legend(x0, x1)
	// The legend takes a row above the plot, or more when its keys do not fit in one.
	y1 := topM + legendRow*float64(keys.rows)
	px := func(x float64) float64 { return x0 + (min(max(finite(x), xmin), xmax)-xmin)/(xmax-xmin)*(x1-x0) }
	py := func(y float64) float64 { return y0 - min(max(finite(y), 0), top)/top*(y0-y1) }

	var b strings.Builder
	open(&b, c.ID, c.Title, c.Desc, w, h)
	rule(&b, x0, y0, x1, y0, "#767676")
	rule(&b, x0, y0, x0, y1, "#767676")
	rule(&b, x0, y1, x1, y1, "#e0e0e0")
	text(&b, x0-6, y0+4, "end", f(0))
	text(&b, x0-6, y1+4, "end", f(top))
	text(&b, x0, float64(h)-14, "start", c.XLabels[0])
	text(&b, x1, float64(h)-14, "end", c.XLabels[1])
	keys.draw(&b, c)
	points := 0
	for i, band := range c.Bands {
		n := min(len(band.Low), len(band.High))
		if n == 0 {
			continue
		}
		points += n
		var d strings.Builder
		d.WriteString("M")
		for j := range n {
			if j > 0 {
				d.WriteString("L")
			}
			d.WriteString(ff(px(band.High[j].X)) + " " + ff(py(band.High[j].Y)))
		}
		for j := n - 1; j >= 0; j-- {
			d.WriteString("L" + ff(px(band.Low[j].X)) + " " + ff(py(band.Low[j].Y)))
		}
		b.WriteString(`<path class="band b` + strconv.Itoa(i) + `" d="` + d.String() + `Z" fill="` + esc(band.Colour) + `" fill-opacity=".25" stroke="none"/>`)
	}
	for i, s := range c.Series {
		if len(s.Points) == 0 {
			continue
		}
		points += len(s.Points)
		var d strings.Builder
		for j, p := range s.Points {
			if j == 0 {
				d.WriteString("M")
			} else {
				d.WriteString("L")
			}
			d.WriteString(ff(px(p.X)) + " " + ff(py(p.Y)))
		}
		b.WriteString(`<path class="series s` + strconv.Itoa(i) + `" d="` + d.String() + `" fill="none" stroke="` + esc(s.Colour) + `" stroke-width="2"` + s.dash() + `/>`)
		last := s.Points[len(s.Points)-1]
		r := 3.0
		if len(s.Points) == 1 {
			r = 5 // a lone value: a dot that can be seen
		}
		dot(&b, "", px(last.X), py(last.Y), r, s)
	}
	if c.Marker != nil {
		mx := px(*c.Marker)
		b.WriteString(`<line class="marker" x1="` + ff(mx) + `" y1="` + ff(y0) + `" x2="` + ff(mx) + `" y2="` + ff(y1) + `" stroke="#555555" stroke-dasharray="2 3"/>`)
		text(&b, mx, y1-4, "middle", c.MarkerLabel)
	}
	if points == 0 && c.EmptyText != "" {
		text(&b, (x0+x1)/2, (y0+y1)/2, "middle", c.EmptyText)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text above is escaped
}

// xRange is the chart's x range (XMin to XMax, or the points' when they are equal)
// and the largest y of its series and of its bands' tops.
func (c Line) xRange() (xmin, xmax, ymax float64) {
	xmin, xmax = finite(c.XMin), finite(c.XMax)
	if xmin >= xmax {
		first := true
		span := func(ps []Point) {
			for _, p := range ps {
				x := finite(p.X)
				if first || x < xmin {
					xmin = x
				}
				if first || x > xmax {
					xmax = x
				}
				first = false
			}
		}
		for _, s := range c.Series {
			span(s.Points)
		}
		for _, b := range c.Bands {
			span(b.Low)
			span(b.High)
		}
	}
	if xmax <= xmin {
		xmax = xmin + 1
	}
	for _, s := range c.Series {
		for _, p := range s.Points {
			ymax = max(ymax, finite(p.Y))
		}
	}
	for _, b := range c.Bands {
		for _, p := range b.High {
			ymax = max(ymax, finite(p.Y))
		}
	}
	return xmin, xmax, ymax
}

// dash is the stroke attribute of a dashed series, "" for a solid one.
func (s Series) dash() string {
	if s.Dashed {
		return ` stroke-dasharray="6 4"`
	}
	return ""
}

// dot draws a point of s: a circle of radius r, or a square of side 2r.
func dot(b *strings.Builder, class string, x, y, r float64, s Series) {
	if class != "" {
		class = ` class="` + class + `"`
	}
	if s.Square {
		b.WriteString(`<rect` + class + ` x="` + ff(x-r) + `" y="` + ff(y-r) + `" width="` + ff(2*r) + `" height="` + ff(2*r) + `" fill="` + esc(s.Colour) + `"/>`)
		return
	}
	b.WriteString(`<circle` + class + ` cx="` + ff(x) + `" cy="` + ff(y) + `" r="` + strconv.FormatFloat(r, 'f', -1, 64) + `" fill="` + esc(s.Colour) + `"/>`)
}

// lineLegend places a line chart's keys, the series' and then the bands', in rows
// from x0 that wrap before x1.
type lineLegend struct {
	rows int
	at   [][2]float64 // x and y of each key, series first
}

func (c Line) legend(x0, x1 float64) lineLegend {
	l := lineLegend{rows: 1}
	x, y := x0, topM
	place := func(label string) {
		wd := 40 + 7*float64(utf8.RuneCountInString(label))
		if x > x0 && x+wd-16 > x1 {
			x, y = x0, y+legendRow
			l.rows++
		}
		l.at = append(l.at, [2]float64{x, y})
		x += wd
	}
	for _, s := range c.Series {
		place(s.Label)
	}
	for _, b := range c.Bands {
		place(b.Label)
	}
	return l
}

func (l lineLegend) draw(b *strings.Builder, c Line) {
	for i, s := range c.Series {
		lx, ly := l.at[i][0], l.at[i][1]
		if len(s.Points) == 1 {
			dot(b, "key s"+strconv.Itoa(i), lx+12, ly-4, 5, s)
		} else {
			b.WriteString(`<line class="key s` + strconv.Itoa(i) + `" x1="` + ff(lx) + `" y1="` + ff(ly-4) + `" x2="` + ff(lx+24) + `" y2="` + ff(ly-4) + `" stroke="` + esc(s.Colour) + `" stroke-width="2"` + s.dash() + `/>`)
		}
		text(b, lx+30, ly, "start", s.Label)
	}
	for i, band := range c.Bands {
		lx, ly := l.at[len(c.Series)+i][0], l.at[len(c.Series)+i][1]
		b.WriteString(`<rect class="key b` + strconv.Itoa(i) + `" x="` + ff(lx) + `" y="` + ff(ly-10) + `" width="24" height="12" fill="` + esc(band.Colour) + `" fill-opacity=".25" stroke="` + esc(band.Colour) + `"/>`)
		text(b, lx+30, ly, "start", band.Label)
	}
}

// Segment is one part of a stacked bar.
type Segment struct {
	Label string
	Value float64
}

// Bar is one row of a stacked bar chart.
type Bar struct {
	Label    string
	Segments []Segment // in the order of the chart's Keys
}

// Stacked is a horizontal stacked bar chart: one bar per category, one colour and one
// pattern per key, so that the keys are told apart without colour.
type Stacked struct {
	ID, Title, Desc string
	Keys            []string // the segments' names, in order
	Colours         []string // one per key
	Bars            []Bar
	Format          Format
	Width           int // 0: 640
	EmptyText       string
}

// patterns are drawn over the colours, one per key in turn, so that neighbouring
// segments differ by more than their colour.
var patterns = []string{"", `<path d="M0 6L6 0" stroke="#000" stroke-opacity=".45" stroke-width="1.5"/>`,
	`<circle cx="3" cy="3" r="1.3" fill="#000" fill-opacity=".45"/>`, `<path d="M0 3H6" stroke="#fff" stroke-opacity=".8" stroke-width="1.5"/>`,
	`<path d="M0 0L6 6" stroke="#fff" stroke-opacity=".8" stroke-width="1.5"/>`}

// SVG draws the chart.
func (c Stacked) SVG() template.HTML {
	const rowH, barH = 22.0, 14.0
	fr, w := newBarFrame(c.ID, c.Keys, c.Colours, c.Width, c.Format, 3)
	h := fr.height(rowH, len(c.Bars))
	total := 0.0
	for _, br := range c.Bars {
		t := 0.0
		for _, s := range br.Segments {
			t += max(finite(s.Value), 0)
		}
		total = max(total, t)
	}
	top := NiceCeil(total)

	var b strings.Builder
	y := fr.head(&b, c.Title, c.Desc, w, h)
	for _, br := range c.Bars {
		text(&b, fr.lft-6, y+barH-3, "end", br.Label)
		x := fr.lft
		for i, s := range br.Segments {
			wd := fr.px(s.Value, top)
			if wd <= 0 {
				continue
			}
			b.WriteString(`<rect x="` + ff(x) + `" y="` + ff(y) + `" width="` + ff(wd) + `" height="` + ff(barH) + `" fill="` + fr.fill(i) + `" stroke="#ffffff" stroke-width=".5"><title>` +
				esc(br.Label+" — "+s.Label+": "+fr.f(s.Value)) + `</title></rect>`)
			x += wd
		}
		y += rowH
	}
	return fr.foot(&b, y, top, noBars(len(c.Bars), c.EmptyText), rowH, barH-3)
}

func colour(cs []string, i int) string {
	if i < len(cs) {
		return cs[i]
	}
	return "#767676"
}
