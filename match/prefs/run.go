package prefs

import (
	"context"
	"fmt"

	"solidarity/match"
)

// A Mechanism places families from a model and preferences.
type Mechanism struct {
	Name string
	// Property is what DKT prove of it, for reports.
	Property string
	Place    func(m *match.Model, p *Prefs) ([]int, error)
}

// Mechanisms are the mechanisms by name, in report order.
var Mechanisms = []Mechanism{
	{Name: "mttc", Property: "strategy-proof and Pareto-efficient for families (DKT Proposition 1)", Place: MTTC},
	{Name: "tmda", Property: "strategy-proof and weakly envy-free: no strong envy (DKT Theorem 6)", Place: TMDA},
}

// OptimalProperty describes the score-optimal placement, for reports.
const OptimalProperty = "maximises the total score (match.Solve); uses no preferences"

// Lookup finds a mechanism by name.
func Lookup(name string) (Mechanism, bool) {
	for _, mc := range Mechanisms {
		if mc.Name == name {
			return mc, true
		}
	}
	return Mechanism{}, false
}

// Config is a run over seeded draws.
type Config struct {
	Mechanisms []Mechanism
	Draws      int    // ≥ 1
	Seed       uint64 // draw d uses Seed + d
	Kind       Kind
	// Prefs, when set, is used for every draw instead of Draw (Draws should be 1).
	Prefs *Prefs
}

// Summary is the mean metrics of each mechanism, and of the score-optimal
// placement measured against the same preferences.
type Summary struct {
	Draws   int      `json:"draws"`
	Seed    uint64   `json:"seed"`
	Kind    string   `json:"kind"`
	Results []Result `json:"results"`
}

// Result is one mechanism's means over the draws.
type Result struct {
	Mechanism string `json:"mechanism"`
	Property  string `json:"property"`
	Mean      Mean   `json:"mean"`
}

// Mean is Metrics averaged over draws.
type Mean struct {
	Placed           float64   `json:"placed"`
	Unplaced         float64   `json:"unplaced"`
	AverageRank      float64   `json:"average_rank"`
	Ranks            []float64 `json:"ranks"`
	Unranked         float64   `json:"unranked"`
	JustifiedEnvy    float64   `json:"justified_envy"`
	Blocking         float64   `json:"blocking"`
	Envy             float64   `json:"envy"`
	StrongEnvy       float64   `json:"strong_envy_pairs"`
	Unfilled         []float64 `json:"unfilled"`
	UnfilledFraction float64   `json:"unfilled_fraction"`
	Score            float64   `json:"score"`
}

// scale divides the sums by the number of draws (summed first, then divided: a
// count the same in every draw comes out exact).
func (a *Mean) scale(n int) {
	w := 1 / float64(n)
	a.Placed *= w
	a.Unplaced *= w
	a.AverageRank *= w
	for r := range a.Ranks {
		a.Ranks[r] *= w
	}
	a.Unranked *= w
	a.JustifiedEnvy *= w
	a.Blocking *= w
	a.Envy *= w
	a.StrongEnvy *= w
	for d := range a.Unfilled {
		a.Unfilled[d] *= w
	}
	a.UnfilledFraction *= w
	a.Score *= w
}

func (a *Mean) add(mt *Metrics) {
	a.Placed += float64(mt.Placed)
	a.Unplaced += float64(mt.Unplaced)
	a.AverageRank += mt.AverageRank
	for len(a.Ranks) < len(mt.Ranks) {
		a.Ranks = append(a.Ranks, 0)
	}
	for r, c := range mt.Ranks {
		a.Ranks[r] += float64(c)
	}
	a.Unranked += float64(mt.Unranked)
	a.JustifiedEnvy += float64(mt.JustifiedEnvy)
	a.Blocking += float64(mt.Blocking)
	a.Envy += float64(mt.Envy)
	a.StrongEnvy += float64(mt.StrongEnvy)
	for len(a.Unfilled) < len(mt.Unfilled) {
		a.Unfilled = append(a.Unfilled, 0)
	}
	for d, u := range mt.Unfilled {
		a.Unfilled[d] += float64(u)
	}
	a.UnfilledFraction += mt.UnfilledFraction
	a.Score += mt.Score
}

// Run runs every mechanism on cfg.Draws preference draws and measures it, beside
// the score-optimal placement (one solve: it does not depend on the preferences).
func Run(ctx context.Context, m *match.Model, cfg Config) (*Summary, error) {
	if cfg.Draws < 1 {
		return nil, fmt.Errorf("prefs: %d draws", cfg.Draws)
	}
	sol, err := match.Solve(ctx, m, match.Options{})
	if err != nil {
		return nil, err
	}
	if sol.Status == match.Infeasible {
		return nil, fmt.Errorf("prefs: the score-optimal problem is infeasible: %s", sol.Reason)
	}
	s := &Summary{Draws: cfg.Draws, Seed: cfg.Seed, Kind: cfg.Kind.String(), Results: make([]Result, len(cfg.Mechanisms)+1)}
	for k, mc := range cfg.Mechanisms {
		s.Results[k] = Result{Mechanism: mc.Name, Property: mc.Property}
	}
	s.Results[len(cfg.Mechanisms)] = Result{Mechanism: "optimal", Property: OptimalProperty}
	for d := range cfg.Draws {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := cfg.Prefs
		if p == nil {
			p = Draw(m, cfg.Seed+uint64(d), cfg.Kind)
		}
		mk, err := newMarket(m, p)
		if err != nil {
			return nil, err
		}
		for k, mc := range cfg.Mechanisms {
			assign, err := mc.Place(m, p)
			if err != nil {
				return nil, err
			}
			mt, err := mk.measure(assign)
			if err != nil {
				return nil, fmt.Errorf("prefs: %s: %w", mc.Name, err)
			}
			s.Results[k].Mean.add(mt)
		}
		mt, err := mk.measure(sol.Place)
		if err != nil {
			return nil, fmt.Errorf("prefs: optimal: %w", err)
		}
		s.Results[len(cfg.Mechanisms)].Mean.add(mt)
	}
	for k := range s.Results {
		s.Results[k].Mean.scale(cfg.Draws)
	}
	return s, nil
}
