package web

import (
	"cmp"
	"context"
	"html/template"
	"slices"
	"strconv"
	"time"

	"solidarity"
	"solidarity/cases/state"
	"solidarity/internal/i18n"
	"solidarity/internal/report"
	"solidarity/internal/web/svgchart"
)

// A benefitting state's page (Arts. 58–59): what it receives from the pool — its
// arrivals, the relocations out of it by Member State of relocation, in flight and
// done, from the case flow — and its offsets, from the ledger; and the state pages'
// charts over time.

// receipts is what a benefitting state receives; Msg says why it is not shown.
type receipts struct {
	Arrivals, Persons int
	Out               []relocationsTo // by state of relocation, in protocol order
	InFlight, Done    int
	Msg               string
}

type relocationsTo struct {
	State          solidarity.MemberState
	InFlight, Done int
}

// receiptsOf reads the case flow for a benefitting state m in cycle year: arrivals
// landed in the year, and their cases allocated to a Member State of relocation.
func (s *Server) receiptsOf(ctx context.Context, u *solidarity.User, l *i18n.Locale, m solidarity.MemberState, year int) (*receipts, error) {
	out := &receipts{}
	if s.cases == nil {
		out.Msg = l.T("This server has no case flow: arrivals and relocations are not recorded here.")
		return out, nil
	}
	if !mayReadCases(u) {
		out.Msg = l.T("Arrivals and relocations are shown to the coordinator, auditors and the officers of the states involved; log in to see them.")
		return out, nil
	}
	// The arrivals landed in the year, page after page (latest first: the pages stop at
	// the first arrival of an earlier year), and then each one's cases: no figure of
	// the year is cut by a page's limit.
	refused := func() (*receipts, error) {
		out.Msg = l.T("Arrivals and relocations are shown to the coordinator, auditors and the officers of the states involved.")
		return out, nil
	}
	var inYear []solidarity.ArrivalID
	af := solidarity.ArrivalFilter{Benefitting: &m, Limit: solidarity.MaxPageLimit}
	for done := false; !done; {
		as, err := s.cases.Arrivals(ctx, af)
		switch {
		case solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED:
			return refused()
		case err != nil:
			return nil, err
		}
		for _, a := range as {
			switch y := a.At.UTC().Year(); {
			case y == year:
				inYear = append(inYear, a.ID)
				out.Arrivals++
				out.Persons += a.Persons
			case y < year:
				done = true
			}
		}
		if len(as) < af.Limit {
			break
		}
		last := as[len(as)-1]
		af.After = &solidarity.ArrivalKey{At: last.At, ID: last.ID}
	}
	var rs []*solidarity.CaseRecord
	for _, id := range inYear {
		cf := solidarity.CaseFilter{Arrival: &id, Limit: solidarity.MaxCaseLimit}
		for {
			page, err := s.cases.Cases(ctx, cf)
			switch {
			case solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED:
				return refused()
			case err != nil:
				return nil, err
			}
			rs = append(rs, page...)
			if len(page) < cf.Limit {
				break
			}
			cf.After = page[len(page)-1].ID
		}
	}
	by := map[solidarity.MemberState]*relocationsTo{}
	for _, r := range rs {
		if r.Benefitting != m || r.Allocated == "" {
			continue
		}
		t := by[r.Allocated]
		if t == nil {
			t = &relocationsTo{State: r.Allocated}
			by[r.Allocated] = t
		}
		if r.State.Relocation() == state.Relocated {
			t.Done++
			out.Done++
		} else {
			t.InFlight++
			out.InFlight++
		}
	}
	for _, ms := range solidarity.MemberStates() {
		if t := by[ms]; t != nil {
			out.Out = append(out.Out, *t)
		}
	}
	return out, nil
}

// offsetEntries reads a state's offset requests, offers and replies (Arts. 63, 69)
// in a cycle, oldest first.
func (s *Server) offsetEntries(ctx context.Context, year int, m solidarity.MemberState) ([]*solidarity.Entry, error) {
	// Each type read on its own, page after page: a state's many deliveries must not
	// push its offsets out of one page of its entries.
	var out []*solidarity.Entry
	for _, t := range []solidarity.EntryType{solidarity.OffsetRequested, solidarity.OffsetOffered, solidarity.OffsetReplied} {
		f := solidarity.EntryFilter{Cycle: &year, State: &m, Type: &t, Limit: solidarity.MaxPageLimit}
		for {
			es, err := s.ledger.Entries(ctx, f)
			if err != nil {
				return nil, err
			}
			out = append(out, es...)
			if len(es) < f.Limit {
				break
			}
			f.AfterSeq = es[len(es)-1].Seq
		}
	}
	slices.SortFunc(out, func(a, b *solidarity.Entry) int { return cmp.Compare(a.Seq, b.Seq) })
	return out, nil
}

// dayPoint is a day of the delivered-over-time chart's table.
type dayPoint struct {
	Day       string
	Delivered int64 // relocations delivered that day
	Total     int64 // and up to it
}

// deliveredOverTime reads state m's relocation deliveries per UTC day of a cycle.
func (s *Server) deliveredOverTime(ctx context.Context, year int, m solidarity.MemberState) ([]dayPoint, error) {
	days, err := s.ledger.DailyTotals(ctx, year, m)
	if err != nil {
		return nil, err
	}
	var out []dayPoint
	var total int64
	for _, d := range days {
		n := d.Delivered.Of(solidarity.RelocationDelivered)
		if n == 0 {
			continue
		}
		total += n
		out = append(out, dayPoint{Day: d.Day, Delivered: n, Total: total})
	}
	slices.SortFunc(out, func(a, b dayPoint) int {
		if a.Day < b.Day {
			return -1
		}
		if a.Day > b.Day {
			return 1
		}
		return 0
	})
	return out, nil
}

// dayTime is the day of a day number (days since 1970-01-01).
func dayTime(day float64) time.Time { return time.Unix(int64(day)*86400, 0).UTC() }

func dayNumber(s string) (float64, bool) {
	t, err := time.Parse(time.DateOnly, s)
	if err != nil {
		return 0, false
	}
	return float64(t.Unix() / 86400), true
}

// pledgedDeliveredChart draws a state's relocation pledge against its relocations
// delivered, day by day, from the pool's start (or the first delivery) to today.
func pledgedDeliveredChart(l *i18n.Locale, p *report.Pool, st report.PoolState, days []dayPoint, now time.Time) template.HTML {
	var pledged float64
	if st.PledgeKnown && st.Pledged != nil {
		pledged = float64(st.Pledged.RelocationApplicants + st.Pledged.RelocationBeneficiaries)
	}
	today := float64(now.Unix() / 86400)
	start, ok := dayNumber(p.Cycle.PoolStart)
	if !ok && len(days) > 0 {
		start, _ = dayNumber(days[0].Day)
	}
	if !ok && len(days) == 0 {
		start = today - 1
	}
	end := max(today, start+1)
	if dl, ok := dayNumber(p.Cycle.Deadline); ok {
		end = max(end, dl)
	}
	del := svgchart.Series{Label: l.T("relocations delivered"), Colour: "#1a9850", Points: []svgchart.Point{{X: start, Y: 0}}}
	for _, d := range days { // a step: the sum holds until the next day of deliveries
		x, _ := dayNumber(d.Day)
		del.Points = append(del.Points, svgchart.Point{X: x, Y: float64(d.Total - d.Delivered)}, svgchart.Point{X: x, Y: float64(d.Total)})
	}
	last := del.Points[len(del.Points)-1]
	del.Points = append(del.Points, svgchart.Point{X: max(min(today, end), last.X), Y: last.Y})
	c := svgchart.Line{ID: "delivered-chart", XMin: start, XMax: end, Marker: &today, MarkerLabel: l.T("today"),
		Title:   l.T("Relocations pledged and delivered by %s", l.T(st.Name)),
		Desc:    l.T("The relocation pledge (%s) as a flat line and the relocations delivered, summed day by day; the table gives the figures.", l.Int(int64(pledged))),
		XLabels: [2]string{l.Date(dayTime(start)), l.Date(dayTime(end))},
		YFormat: func(v float64) string { return l.Float(v, 0) },
		Series:  []svgchart.Series{{Label: l.T("relocations pledged"), Colour: "#08519c", Dashed: true, Points: []svgchart.Point{{X: start, Y: pledged}, {X: end, Y: pledged}}}, del}}
	return c.SVG()
}

// paceSVG draws Art. 60(3): the non-financial pledge expected in proportion over the
// operational period (dashed), what was delivered by today, and today's line.
func paceSVG(l *i18n.Locale, p *report.Pool, b *report.StateBalance) template.HTML {
	start, ok1 := dayNumber(p.Cycle.PoolStart)
	end, ok2 := dayNumber(p.Cycle.Deadline)
	if b == nil || !ok1 || !ok2 || end <= start {
		return ""
	}
	f := func(n report.Num) float64 { v, _ := strconv.ParseFloat(string(n), 64); return v }
	elapsed := f(b.Pace.Elapsed)
	today := start + elapsed*(end-start)
	c := svgchart.Line{ID: "pace-chart", XMin: start, XMax: end, Marker: &today, MarkerLabel: l.T("today"),
		Title: l.T("Art. 60(3) pace of %s", l.T(b.Name)),
		Desc: l.T("Expected by now %s, delivered %s, of %s non-financial pledged, at %s of the period.",
			l.Dec(string(b.Pace.ExpectedByNow), 2), l.Dec(string(b.Pace.NonFinancialDelivered), 2), l.Dec(string(b.Pace.NonFinancialPledged), 2), l.Pct(elapsed)),
		XLabels: [2]string{l.Date(dayTime(start)), l.Date(dayTime(end))},
		YFormat: func(v float64) string { return l.Float(v, 0) },
		Series: []svgchart.Series{
			{Label: l.T("expected"), Colour: "#08519c", Dashed: true, Points: []svgchart.Point{{X: start, Y: 0}, {X: end, Y: f(b.Pace.NonFinancialPledged)}}},
			// What was delivered is known as of today, not day by day (offsets accepted
			// have no day): a point on today's line.
			{Label: l.T("delivered by today"), Colour: "#1a9850", Points: []svgchart.Point{{X: today, Y: f(b.Pace.NonFinancialDelivered)}}},
		}}
	return c.SVG()
}
