package web

import (
	"html/template"

	"solidarity/internal/i18n"
	"solidarity/internal/web/svgchart"
	"solidarity/simulation"
)

// The What-if page's charts, drawn on the server (svgchart): each is a picture of a
// table the page also shows, A and B told apart by line style and pattern as well as
// colour.

// The sides' colours: A blue, B orange (distinct for the common colour blindnesses).
const colourA, colourB = "#08519c", "#d95f02"

// statesChart draws each state's obligation and the relocations it delivered
// (median) under A and B, for the states with an obligation under either.
func statesChart(l *i18n.Locale, rows []whatIfRow) template.HTML {
	c := svgchart.Grouped{ID: "whatif-states-chart",
		Title:     l.T("Obligations and relocations delivered per state, A and B"),
		Desc:      l.T("Grouped bars: for each state with an obligation, its obligation and the relocations it delivered (median of the runs) under scenario A and scenario B; the table of states gives the figures."),
		Keys:      []string{l.T("%s: obligation", "A"), l.T("%s: relocations delivered", "A"), l.T("%s: obligation", "B"), l.T("%s: relocations delivered", "B")},
		Colours:   []string{"#9ecae1", colourA, "#fdae6b", colourB},
		Format:    func(v float64) string { return l.Float(v, 0) },
		EmptyText: l.T("No state has an obligation in either scenario."),
	}
	for _, r := range rows {
		if r.A.Obligation <= 0 && r.B.Obligation <= 0 {
			continue
		}
		c.Groups = append(c.Groups, svgchart.Group{Label: string(r.State),
			Values: []float64{r.A.Obligation, r.A.Relocated.Median, r.B.Obligation, r.B.Relocated.Median}})
	}
	return c.SVG()
}

// whatIfMonth is one month of the coverage chart's table.
type whatIfMonth struct {
	Month string
	A, B  simulation.Band
}

// coverageChart draws the pool's delivered coverage at the end of each month, median
// and 5–95 %% band, under A and B.
func coverageChart(l *i18n.Locale, a, b *simulation.Result) ([]whatIfMonth, template.HTML) {
	var months []whatIfMonth
	line := func(r *simulation.Result, label, band, colour string, dashed bool) (svgchart.Series, svgchart.Band) {
		s := svgchart.Series{Label: label, Colour: colour, Dashed: dashed}
		bd := svgchart.Band{Label: band, Colour: colour}
		for t, c := range r.Coverage {
			x := float64(t)
			s.Points = append(s.Points, svgchart.Point{X: x, Y: c.Median})
			bd.Low = append(bd.Low, svgchart.Point{X: x, Y: c.P5})
			bd.High = append(bd.High, svgchart.Point{X: x, Y: c.P95})
		}
		return s, bd
	}
	sa, ba := line(a, l.T("%s: median", "A"), l.T("%s: 5–95 %% of runs", "A"), colourA, true)
	sb, bb := line(b, l.T("%s: median", "B"), l.T("%s: 5–95 %% of runs", "B"), colourB, false)
	for t, m := range a.Months {
		row := whatIfMonth{Month: m, A: a.Coverage[t]}
		if t < len(b.Coverage) {
			row.B = b.Coverage[t]
		}
		months = append(months, row)
	}
	c := svgchart.Line{ID: "whatif-coverage-chart",
		Title:     l.T("Coverage of the pool over the months, A and B"),
		Desc:      l.T("Lines of the share of the need delivered by the end of each month, median of the runs, with the band from the 5th to the 95th percentile shaded, under scenario A (dashed) and B (solid); the table of months gives the figures."),
		Series:    []svgchart.Series{sa, sb},
		Bands:     []svgchart.Band{ba, bb},
		YFormat:   l.Pct,
		EmptyText: l.T("The scenario has no months."),
	}
	if n := len(a.Months); n > 0 {
		c.XLabels = [2]string{a.Months[0], a.Months[n-1]}
		c.XMin, c.XMax = 0, float64(n-1)
	}
	return months, c.SVG()
}

// whatIfFrontier is one line of the frontier's table: a state whose choice B changes,
// or the Union (State ""), under A and B.
type whatIfFrontier struct {
	State      simulation.Code
	Name       string
	A, B       frontierPoint
	PriceA     float64
	PriceB     float64
	HasA, HasB bool
}

// frontierPoint is where a choice stands on the pay-versus-relocate line: the
// obligation, the relocations planned and the euro planned at the scenario's price.
type frontierPoint struct {
	Obligation, Relocations, EUR, AllPaid float64
}

// price is the scenario's own price of a relocation not carried out, from its
// frontier (0 when its rule set has none).
func price(r *simulation.Result) float64 {
	for _, f := range r.Frontier {
		for _, p := range f.Prices {
			if p.Rules == r.Rules {
				return p.Price
			}
		}
	}
	return 0
}

// frontierOf sums r's frontier over the states keep selects.
func frontierOf(r *simulation.Result, keep func(simulation.Code) bool) (frontierPoint, bool) {
	var p frontierPoint
	found := false
	pr := price(r)
	for _, f := range r.Frontier {
		if !keep(f.State) {
			continue
		}
		found = true
		p.Obligation += f.Obligation
		p.Relocations += f.ChosenRelocations
		p.EUR += f.ChosenEUR
		p.AllPaid += f.Obligation * pr
	}
	return p, found
}

// frontierChart draws the Union's pay-versus-relocate frontier under A and B: the
// line from relocating everything to paying for everything at the scenario's price,
// and the point the states' choices take on it. The table beside it gives the Union
// and each state whose choice B changes.
func frontierChart(l *i18n.Locale, a, b *simulation.Result, rows []whatIfRow) ([]whatIfFrontier, template.HTML) {
	all := func(simulation.Code) bool { return true }
	var out []whatIfFrontier
	u := whatIfFrontier{Name: l.T("Union"), PriceA: price(a), PriceB: price(b)}
	u.A, u.HasA = frontierOf(a, all)
	u.B, u.HasB = frontierOf(b, all)
	out = append(out, u)
	for _, r := range rows {
		if !r.Changed {
			continue
		}
		one := func(c simulation.Code) bool { return c == r.State }
		x := whatIfFrontier{State: r.State, Name: l.T(r.Name), PriceA: u.PriceA, PriceB: u.PriceB}
		x.A, x.HasA = frontierOf(a, one)
		x.B, x.HasB = frontierOf(b, one)
		out = append(out, x)
	}
	c := svgchart.Line{ID: "whatif-frontier-chart",
		Title:     l.T("Pay-versus-relocate frontier of the Union, A and B"),
		Desc:      l.T("For each scenario a line from relocating the whole obligation (no euro) to paying for all of it at the scenario's price, and the point the states' choices take: relocations planned across, euro planned up; scenario A dashed with a round point, B solid with a square point. The frontier table gives the figures."),
		YFormat:   func(v float64) string { return l.T("EUR %s", l.Float(v, 0)) },
		Left:      120, // room for "EUR 500,000,000"
		EmptyText: l.T("This rule set puts no price on a relocation: there is no frontier."),
	}
	if u.PriceA <= 0 && u.PriceB <= 0 {
		return out, c.SVG()
	}
	c.Series = []svgchart.Series{
		{Label: l.T("%s: frontier", "A"), Colour: colourA, Dashed: true, Points: []svgchart.Point{{X: 0, Y: u.A.AllPaid}, {X: u.A.Obligation, Y: 0}}},
		{Label: l.T("%s: frontier", "B"), Colour: colourB, Points: []svgchart.Point{{X: 0, Y: u.B.AllPaid}, {X: u.B.Obligation, Y: 0}}},
		{Label: l.T("%s: the choices", "A"), Colour: colourA, Points: []svgchart.Point{{X: u.A.Relocations, Y: u.A.EUR}}},
		{Label: l.T("%s: the choices", "B"), Colour: colourB, Square: true, Points: []svgchart.Point{{X: u.B.Relocations, Y: u.B.EUR}}},
	}
	c.XMin, c.XMax = 0, svgchart.NiceCeil(max(u.A.Obligation, u.B.Obligation))
	c.XLabels = [2]string{l.T("0 relocations"), l.T("%s relocations", l.Float(c.XMax, 0))}
	return out, c.SVG()
}
