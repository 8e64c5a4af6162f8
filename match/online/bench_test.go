package online_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"solidarity/match"
	"solidarity/match/hias"
	"solidarity/match/online"
)

// The benchmarks of docs/match-online.md and BENCHMARKS.md ("Online matching"):
// each reports the ratios it measured as metrics (ratio_% of the hindsight
// optimum, per method), so that scripts/bench writes the report from one run.

func hiasModel(b *testing.B, which string) *match.Model {
	b.Helper()
	d, err := hias.Read("../hias/testdata/fy2017")
	if err != nil {
		b.Fatal(err)
	}
	m, err := d.Model(which)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// hiasYears are HIAS FY2017 model which in 20 seeded orders of 52 batches.
func hiasYears(b *testing.B, which string) []*online.Year {
	m := hiasModel(b, which)
	years := make([]*online.Year, 20)
	for s := range years {
		years[s] = online.Shuffled(m, 52, uint64(s+1))
	}
	return years
}

// BenchmarkHIASYear replays HIAS FY2017 in 20 seeded orders of 52 weekly batches
// by every method, with the hindsight proof; per method its mean ratio and time.
func BenchmarkHIASYear(b *testing.B) {
	for _, which := range []string{"A", "B"} {
		b.Run(which, func(b *testing.B) {
			years := hiasYears(b, which)
			for b.Loop() {
				rep, err := online.Replay(context.Background(), years, online.Methods, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(rep.Hindsight.Elapsed.Seconds(), "hindsight_s")
				b.ReportMetric(rep.Hindsight.Gap, "hindsight_gap")
				for _, mr := range rep.Methods {
					b.ReportMetric(100*mr.MeanRatio, mr.Name+"_%")
					b.ReportMetric(100*mr.MinRatio, mr.Name+"_worst_%")
					b.ReportMetric(mr.Elapsed.Seconds(), mr.Name+"_s")
				}
			}
		})
	}
}

// BenchmarkHIASBalance is the potentials method with balance (each affiliate
// within one family of its share of what is placed, at every batch), its ratio,
// the same runs' without balance, and the largest deviations.
func BenchmarkHIASBalance(b *testing.B) {
	for _, which := range []string{"A", "B"} {
		b.Run(which, func(b *testing.B) {
			m := hiasModel(b, which)
			years := make([]*online.Year, 20)
			for s := range years {
				y := &online.Year{Model: m, State: make([]int, len(m.Places)), Pledge: make([]float64, len(m.Places))}
				for pl, p := range m.Places {
					y.State[pl] = pl
					for _, c := range p.Cap {
						y.Pledge[pl] += float64(c)
					}
				}
				years[s] = y.Shuffled(52, uint64(s+1))
			}
			cfg := online.DefaultConfig()
			cfg.Balance = true
			for b.Loop() {
				rep, err := online.Replay(context.Background(), years, []online.Method{online.Potentials{}}, cfg)
				if err != nil {
					b.Fatal(err)
				}
				mr := rep.Methods[0]
				b.ReportMetric(100*mr.MeanRatio, "balanced_%")
				b.ReportMetric(100*mr.FreeRatio, "unbalanced_%")
				b.ReportMetric(mr.MaxBelow, "below_families")
				b.ReportMetric(mr.MaxAbove, "above_families")
				b.ReportMetric(float64(mr.FloorsOnly), "relaxed_batches")
			}
		})
	}
}

// BenchmarkClairvoyantHIAS is the reference: the potentials told the real rest of
// the year (not an online method), 20 orders.
func BenchmarkClairvoyantHIAS(b *testing.B) {
	for _, which := range []string{"A", "B"} {
		b.Run(which, func(b *testing.B) {
			years := hiasYears(b, which)
			for b.Loop() {
				rep, err := online.Replay(context.Background(), years, []online.Method{clairvoyant{}}, nil)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(100*rep.Methods[0].MeanRatio, "clairvoyant_%")
			}
		})
	}
}

// euYear is a generated EU year: 31 200 families (600 a week) over the 26 Part IV
// states × 40 localities, 3 dimensions, arrival dates over 52 weeks.
var euYear = sync.OnceValues(func() (*online.Year, error) {
	pr := match.Generate(1, match.GenConfig{Families: 31200, Weeks: 52})
	y, _, err := online.FromProblem(pr, 7*24*time.Hour)
	return y, err
})

// euWeek is week 10 of the EU year as a batch model over the full capacities,
// and the families of weeks 0–9 (the pool the potentials learn from).
func euWeek(b *testing.B) (*match.Model, []match.Family, int) {
	y, err := euYear()
	if err != nil {
		b.Fatal(err)
	}
	m := y.Model
	arr := y.Arrivals()
	var pool []match.Family
	for w := range 10 {
		for _, f := range arr[w] {
			pool = append(pool, m.Families[f])
		}
	}
	batch := &match.Model{Dims: m.Dims, Places: m.Places, Groups: m.Groups}
	for _, f := range arr[10] {
		batch.Families = append(batch.Families, m.Families[f])
	}
	return batch, pool, len(pool) * 41 / 10
}

// BenchmarkEUPotentials: the potentials of one EU week from 20 sampled futures
// of the rest of the year (41 weeks, about 24 600 families each).
func BenchmarkEUPotentials(b *testing.B) {
	batch, pool, future := euWeek(b)
	for b.Loop() {
		if _, err := online.BatchPotentials(context.Background(), batch, pool, future, 20, 1); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(batch.Families)), "families")
	b.ReportMetric(float64(len(batch.Places)), "places")
}

// BenchmarkEUWeek: one EU week (about 600 families, 1 040 places, 3 dimensions)
// placed at its optimum given the potentials.
func BenchmarkEUWeek(b *testing.B) {
	batch, pool, future := euWeek(b)
	pp, err := online.BatchPotentials(context.Background(), batch, pool, future, 20, 1)
	if err != nil {
		b.Fatal(err)
	}
	red := &match.Model{Dims: batch.Dims, Places: batch.Places, Groups: batch.Groups}
	for _, f := range batch.Families {
		nf := match.Family{Need: f.Need}
		for _, a := range f.Arcs {
			nf.Arcs = append(nf.Arcs, match.Arc{Place: a.Place, Score: pp.Reduced(a.Score, f.Need, a.Place)})
		}
		red.Families = append(red.Families, nf)
	}
	var sol *match.Solution
	for b.Loop() {
		if sol, err = match.Solve(context.Background(), red, match.Options{TimeLimit: time.Second, Gap: 1e-4}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(batch.Families)), "families")
	b.ReportMetric(100*sol.Gap(), "gap_%")
}

// BenchmarkEUYear replays the generated EU year (52 weekly batches) by every
// method, with the hindsight solve (60 s limit): ratios and times per method.
// About ten minutes.
func BenchmarkEUYear(b *testing.B) {
	if testing.Short() {
		b.Skip("about ten minutes")
	}
	y, err := euYear()
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		rep, err := online.Replay(context.Background(), []*online.Year{y}, online.Methods, nil)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(rep.Hindsight.Elapsed.Seconds(), "hindsight_s")
		b.ReportMetric(100*rep.Hindsight.Gap, "hindsight_gap_%")
		for _, mr := range rep.Methods {
			b.ReportMetric(100*mr.MeanRatio, mr.Name+"_%")
			b.ReportMetric(100*mr.BoundRatio, mr.Name+"_vs_bound_%")
			b.ReportMetric(mr.Elapsed.Seconds(), mr.Name+"_s")
		}
	}
}
