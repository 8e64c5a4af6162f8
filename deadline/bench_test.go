package deadline_test

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
	"time"

	"solidarity/cases"
	"solidarity/deadline"
)

// openCases returns n open cases spread over the flow: random walks of legal events
// from a disembarkation, an apprehension or a presentation at the border, a few hours
// to ten days apart, dropped and redrawn when they close.
func openCases(tb testing.TB, n int) []cases.Case {
	tb.Helper()
	r := rand.New(rand.NewPCG(2018, 177))
	start := time.Date(2026, 7, 1, 8, 0, 0, 0, rome)
	out := make([]cases.Case, 0, n)
	for len(out) < n {
		c := cases.Case{Facts: cases.Facts{UnaccompaniedMinor: r.IntN(20) == 0, NoBiometrics: r.IntN(30) == 0}}
		at := start.Add(time.Duration(r.IntN(365*24)) * time.Hour)
		first := []cases.Event{cases.Disembarked, cases.Disembarked, cases.ApprehendedAtBorder, cases.PresentedAtBCP}[r.IntN(4)]
		c, _, _ = cases.Apply(c, first, at)
		for range 3 + r.IntN(22) {
			legal := cases.Allowed(c.State)
			if len(legal) == 0 {
				break
			}
			at = at.Add(time.Duration(1+r.IntN(240)) * time.Hour)
			var err error
			if c, _, err = cases.Apply(c, legal[r.IntN(len(legal))], at); err != nil {
				tb.Fatal(err)
			}
		}
		if !c.State.Terminal() {
			out = append(out, c)
		}
	}
	// Lay the histories out one after the other, as loading them from a store would,
	// rather than scattered among the garbage of the walks.
	for i := range out {
		out[i].History = slices.Clone(out[i].History)
	}
	return out
}

// BenchmarkCompute100k computes the running deadlines of 100 000 open cases: one
// operation is the whole set. The target for the deadline view is under 100 ms.
func BenchmarkCompute100k(b *testing.B) {
	cs := openCases(b, 100_000)
	runtime.GC() // not the setup's garbage: the loop's own
	p := deadline.Params{}.Prepare()
	n := 0
	for b.Loop() {
		n = 0
		for _, c := range cs {
			n += len(deadline.Compute(c, p))
		}
	}
	b.ReportMetric(float64(n)/float64(len(cs)), "dues/case")
}

// BenchmarkView100k is the deadline view: every case's deadlines, counted when
// overdue or due within a week, with Italian holidays and the 1182/71 roll-over.
func BenchmarkView100k(b *testing.B) {
	cs := openCases(b, 100_000)
	runtime.GC()
	p := deadline.Params{RollOver: true, Holidays: []time.Time{day("2026-08-15"), day("2026-11-01"), day("2026-12-08"),
		day("2026-12-25")}}.Prepare()
	now := time.Date(2026, 12, 1, 9, 0, 0, 0, rome)
	var overdue, soon int
	var buf []deadline.Due
	for b.Loop() {
		overdue, soon = 0, 0
		for _, c := range cs {
			buf = deadline.AppendCompute(buf[:0], c, p)
			// if/else, not a tagless switch: a switch whose cases call methods of the
			// range variable inside b.Loop crashes the go1.26.8 compiler.
			for _, d := range buf {
				if d.Overdue(now) {
					overdue++
				} else if d.Within(now, 7*24*time.Hour) {
					soon++
				}
			}
		}
	}
	b.ReportMetric(float64(overdue), "overdue")
	b.ReportMetric(float64(soon), "soon")
}
