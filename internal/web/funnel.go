package web

import (
	"strings"

	"solidarity/internal/casesvc"
	"solidarity/internal/i18n"
)

// The case funnel of an arrival, drawn on the server as SVG (no JavaScript): one
// bar per stage (casesvc.Funnel), its length the stage's share of the cases
// registered, the narrower stages indented under the one they narrow. This file lays
// the chart out; arrival.html writes the SVG from the layout (escaped by the
// template). The chart is an image (role="img", named by its <title> and <desc>) with
// nothing focusable inside; the table beside it says the same figures.

func init() {
	messageSources = append(messageSources, casesvc.FunnelLabels)
}

// funnelRow is a stage as the page shows it: its label translated, its count and
// share of the first stage in the locale's form, and where its bar is drawn.
type funnelRow struct {
	casesvc.FunnelStage
	Text  string // the label, translated
	Count string
	Share string
	Child bool // narrows a stage other than the first: indented further
	// The bar's geometry: the label at (LabelX, TextY), the bar from BarX, Y with
	// width W, the count at (CountX, TextY).
	LabelX, Y, W, TextY, CountX int
}

// funnelView is the chart and its table.
type funnelView struct {
	ID          string // prefixes the ids the image is named by
	Width       int
	Height      int
	BarX, BarH  int
	Title, Desc string
	Rows        []funnelRow
}

// The chart's geometry, in SVG user units (the image scales to its box).
const (
	// Narrow enough that the labels stay readable when a phone scales the image
	// down to its 350 px column.
	funnelWidth  = 480
	funnelLabelW = 165 // the labels' column
	funnelIndent = 14  // a narrower stage's indent
	funnelRowH   = 30
	funnelBarH   = 18
	funnelTop    = 8
	funnelCountW = 60 // room for the count after the longest bar
)

// newFunnelView lays out stages (the first is every case) in l. id prefixes the
// elements' ids (the title and description the image is named by).
func newFunnelView(l *i18n.Locale, id string, stages []casesvc.FunnelStage) *funnelView {
	v := &funnelView{ID: id, Width: funnelWidth, Height: funnelTop*2 + funnelRowH*len(stages), BarX: funnelLabelW, BarH: funnelBarH,
		Title: l.T("Case funnel of this arrival")}
	if len(stages) == 0 {
		return v
	}
	total, first := stages[0].N, stages[0].Key
	barMax := funnelWidth - funnelLabelW - funnelCountW
	var desc []string
	for i, s := range stages {
		r := funnelRow{FunnelStage: s, Text: l.T(s.Label), Count: l.Int(int64(s.N)), Share: "—",
			Child: s.Parent != "" && s.Parent != first}
		if total > 0 {
			r.Share = l.Pct(float64(s.N) / float64(total))
			r.W = s.N * barMax / total
		}
		if s.N > 0 && r.W < 2 {
			r.W = 2 // a stage reached by few still shows
		}
		switch {
		case r.Child:
			r.LabelX = funnelIndent
		case s.Parent != "":
			r.LabelX = funnelIndent / 2
		}
		r.Y = funnelTop + i*funnelRowH
		r.TextY = r.Y + funnelBarH - 4
		r.CountX = funnelLabelW + r.W + 6
		v.Rows = append(v.Rows, r)
		desc = append(desc, l.T("%s: %s cases (%s)", r.Text, r.Count, r.Share))
	}
	v.Desc = strings.Join(desc, "; ")
	return v
}
