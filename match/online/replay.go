package online

import (
	"context"
	"fmt"
	"time"

	"solidarity/match"
)

// Report is a replay of one or more orderings (seeds) of a year by several methods,
// against the hindsight optimum.
type Report struct {
	Families  int             `json:"families"`
	Batches   int             `json:"batches"`
	Runs      int             `json:"runs"`
	Hindsight HindsightResult `json:"hindsight"`
	Methods   []MethodReport  `json:"methods"`
}

// HindsightResult is the whole year solved knowing every arrival: the exact
// engine's value, its proven bound and the gap between them.
type HindsightResult struct {
	Status  match.Status  `json:"status"`
	Value   float64       `json:"value"`
	Bound   float64       `json:"bound"`
	Gap     float64       `json:"gap"`
	Placed  int           `json:"placed"`
	Elapsed time.Duration `json:"elapsed_ns"`
}

// MethodReport is one method over every run.
type MethodReport struct {
	Name string `json:"name"`
	// MeanRatio is the mean over runs of the method's value over the hindsight
	// optimum's value; MinRatio the worst run's; BoundRatio the mean of its value
	// over the hindsight's proven bound (what is proven, whatever the status).
	MeanRatio  float64 `json:"mean_ratio"`
	MinRatio   float64 `json:"min_ratio"`
	BoundRatio float64 `json:"bound_ratio"`
	MeanValue  float64 `json:"mean_value"`
	// FreeRatio, with balance, is MeanRatio of the same runs without it: the
	// balance costs FreeRatio − MeanRatio of the hindsight optimum.
	FreeRatio float64 `json:"free_ratio,omitzero"`
	// MaxBelow and MaxAbove are the largest distances of a state's intake below
	// and above its pro-rata share at any batch of any run, in families of the
	// largest size seen (balance keeps MaxBelow at most 1).
	MaxBelow   float64       `json:"max_below"`
	MaxAbove   float64       `json:"max_above"`
	Unbalanced int           `json:"unbalanced_batches,omitzero"`
	FloorsOnly int           `json:"floors_only_batches,omitzero"`
	Elapsed    time.Duration `json:"elapsed_ns"`
	Runs       []Run         `json:"runs"`
}

// Run is one method on one ordering.
type Run struct {
	Value  float64 `json:"value"`
	Placed int     `json:"placed"`
	Ratio  float64 `json:"ratio"`
	// Weeks are per batch: its value, the hindsight's for the same families, and
	// the cumulative ratio.
	Weeks []Week `json:"weeks,omitempty"`
	// Unbalanced counts the batches placed without the balance floors, which
	// could not all be met.
	Unbalanced int `json:"unbalanced_batches,omitzero"`
	// FloorsOnly counts the batches placed with the floors alone: the ceilings
	// could not be met as well.
	FloorsOnly int `json:"floors_only_batches,omitzero"`
	// Place is the placement of every family of the year (−1: not placed).
	Place []int `json:"-"`
}

// Week is one batch of a run.
type Week struct {
	Value     float64 `json:"value"`
	Hindsight float64 `json:"hindsight"`
	Ratio     float64 `json:"ratio"`
	CumRatio  float64 `json:"cum_ratio"`
	Below     float64 `json:"below"`
	Above     float64 `json:"above"`
}

// Replay runs each method over each year (the same year in several orders, or
// several years) and reports them against each year's hindsight optimum. Years
// that share a model and have no revisions share one hindsight solve.
func Replay(ctx context.Context, years []*Year, methods []Method, cfg *Config) (*Report, error) {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	if len(years) == 0 {
		return nil, fmt.Errorf("online: no year to replay")
	}
	rep := &Report{Families: len(years[0].Model.Families), Batches: years[0].Batches, Runs: len(years)}
	for _, m := range methods {
		rep.Methods = append(rep.Methods, MethodReport{Name: m.Name(), MinRatio: 1e300})
	}
	var hs *HindsightResult
	var hplace []int
	for r, y := range years {
		if err := y.Validate(); err != nil {
			return nil, err
		}
		if hs == nil || len(y.Revisions) > 0 || y.Model != years[r-1].Model {
			var err error
			if hs, hplace, err = SolveHindsight(ctx, y, cfg); err != nil {
				return nil, err
			}
		}
		if r == 0 {
			rep.Hindsight = *hs
		}
		for i, m := range methods {
			t := time.Now()
			run, err := RunYear(ctx, y, m, cfg, uint64(r+1), hplace)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", m.Name(), err)
			}
			mr := &rep.Methods[i]
			mr.Elapsed += time.Since(t)
			mr.Unbalanced += run.Unbalanced
			mr.FloorsOnly += run.FloorsOnly
			run.Ratio = ratio(run.Value, hs.Value)
			mr.MeanRatio += run.Ratio / float64(len(years))
			mr.MinRatio = min(mr.MinRatio, run.Ratio)
			mr.BoundRatio += ratio(run.Value, hs.Bound) / float64(len(years))
			mr.MeanValue += run.Value / float64(len(years))
			for _, w := range run.Weeks {
				mr.MaxBelow, mr.MaxAbove = max(mr.MaxBelow, w.Below), max(mr.MaxAbove, w.Above)
			}
			if cfg.Balance {
				// What balance costs: the same run without it.
				free := *cfg
				free.Balance = false
				fr, err := RunYear(ctx, y, m, &free, uint64(r+1), nil)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", m.Name(), err)
				}
				mr.FreeRatio += ratio(fr.Value, hs.Value) / float64(len(years))
			}
			mr.Runs = append(mr.Runs, *run)
		}
	}
	return rep, nil
}

// SolveHindsight solves the year's hindsight model (Year.Hindsight) and returns
// the result and the placement of each family.
func SolveHindsight(ctx context.Context, y *Year, cfg *Config) (*HindsightResult, []int, error) {
	h, back := y.Hindsight()
	sol, err := match.Solve(ctx, h, match.Options{TimeLimit: cfg.HindsightTimeLimit})
	if err != nil {
		return nil, nil, fmt.Errorf("hindsight: %w", err)
	}
	if sol.Status == match.Infeasible {
		return nil, nil, fmt.Errorf("hindsight: infeasible: %s", sol.Reason)
	}
	place := back(sol.Place)
	res := &HindsightResult{Status: sol.Status, Value: sol.Value, Bound: sol.Bound, Gap: sol.Gap(), Elapsed: sol.Elapsed}
	for _, p := range place {
		if p >= 0 {
			res.Placed++
		}
	}
	return res, place, nil
}

// RunYear runs method m over year y, batch by batch; seed draws its futures.
// hindsight, when not nil, is the hindsight placement the weeks are compared with.
func RunYear(ctx context.Context, y *Year, m Method, cfg *Config, seed uint64, hindsight []int) (*Run, error) {
	if cfg == nil {
		cfg = DefaultConfig()
	}
	st := newState(y, cfg, seed)
	run := &Run{Place: make([]int, len(y.Model.Families))}
	for i := range run.Place {
		run.Place[i] = -1
	}
	var cum, hcum float64
	for b, batch := range y.Arrivals() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		st.begin(b, batch)
		var place []int
		if len(batch) > 0 {
			var err error
			if place, err = m.Place(ctx, st, batch); err != nil {
				return nil, fmt.Errorf("batch %d: %w", b, err)
			}
		}
		if err := st.commit(batch, place); err != nil {
			return nil, err
		}
		var wk Week
		for i, f := range batch {
			wk.Value += score(y.Model, f, place[i])
			if hindsight != nil {
				wk.Hindsight += score(y.Model, f, hindsight[f])
			}
			run.Place[f] = place[i]
			if place[i] >= 0 {
				run.Placed++
			}
		}
		cum += wk.Value
		hcum += wk.Hindsight
		wk.Ratio, wk.CumRatio = ratio(wk.Value, wk.Hindsight), ratio(cum, hcum)
		if y.Pledge != nil {
			wk.Below, wk.Above = st.deviation()
		}
		run.Weeks = append(run.Weeks, wk)
	}
	run.Value = cum
	run.Unbalanced, run.FloorsOnly = st.unbalanced, st.partial
	return run, nil
}

func score(m *match.Model, f, pl int) float64 {
	if pl < 0 {
		return 0
	}
	for _, a := range m.Families[f].Arcs {
		if a.Place == pl {
			return a.Score
		}
	}
	return 0
}

func ratio(a, b float64) float64 {
	if b == 0 {
		if a == 0 {
			return 1
		}
		return 0
	}
	return a / b
}
