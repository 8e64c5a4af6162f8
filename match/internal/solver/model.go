package solver

import (
	"fmt"
	"math"
	"time"
)

// Model is a matching problem in indices.
type Model struct {
	// Dims is the number of capacity dimensions (e.g. 3: children, adults, seniors).
	Dims     int
	Families []Family
	Places   []Place
	Groups   []Group  // capacity rows over several places; may be empty
	Mins     []MinRow // lower bounds on intake; may be empty
}

// Family is one family: indivisible, placed whole or not at all.
type Family struct {
	Need []int64 // len Dims, ≥ 0
	// Arcs are the places the family may go to, with the score of each, in increasing
	// place order, no place twice. A forbidden placement is an arc left out; a pinned
	// one is a family with that single arc and Must set.
	Arcs []Arc
	// Must: the family is placed exactly once (else at most once).
	Must bool
}

// Arc is an allowed placement and its score (finite).
type Arc struct {
	Place int
	Score float64
}

// Place is a place with a capacity in each dimension.
type Place struct {
	Cap []int64 // len Dims, ≥ 0
}

// Group is a capacity over several places, in each dimension.
type Group struct {
	Places []int
	Cap    []int64 // len Dims
}

// MinRow asks that the families placed in Places need at least Min in dimension Dim
// summed (Dim = -1: the sum over all dimensions, the number of persons).
type MinRow struct {
	Places []int
	Dim    int
	Min    int64
}

// Status says what Solve found.
type Status string

const (
	Optimal    Status = "optimal"    // Value proven optimal: Bound − Value within Options.Gap
	Feasible   Status = "feasible"   // a solution, stopped by the time limit or the gap: see Bound
	Infeasible Status = "infeasible" // no assignment meets the constraints: see Reason
)

// Solution is an assignment and what is proven about it.
type Solution struct {
	Status Status
	// Place is, for each family, the index of its place or -1.
	Place []int
	// Value is the objective of Place; Bound is a proven upper bound on the optimum.
	Value float64
	Bound float64
	// Reason says, for an infeasible model, which constraint cannot be met.
	Reason string
	// Prices, from the Lagrangian method (large models), let a re-solve from Place
	// start where this solve ended (Options.Prices); nil otherwise.
	Prices *Prices `json:"-"`
	// Work done, for reports and benchmarks.
	Nodes      int
	Iterations int
	Elapsed    time.Duration
}

// Gap is the relative gap between the bound and the value: 0 when proven optimal.
func (s *Solution) Gap() float64 {
	if s.Status == Infeasible {
		return math.Inf(1)
	}
	d := s.Bound - s.Value
	if d <= 0 {
		return 0
	}
	return d / math.Max(1, math.Abs(s.Bound))
}

// Options tune Solve.
type Options struct {
	// TimeLimit stops the search; the best solution found is returned with its
	// bound. Zero: no limit (the context still applies).
	TimeLimit time.Duration
	// Gap is the relative gap at which a solution counts as optimal; zero means 1e-9.
	Gap float64
	// Start is a solution to start from (a previous solve before an override), by
	// family; it need not be feasible.
	Start []int
	// Prices are the previous solve's Solution.Prices, used with Start (Resolve
	// passes them on).
	Prices *Prices
}

// Validate checks a model's shape: dimensions, non-negative needs and capacities,
// arcs in range, sorted and finite. Solve validates first.
func (m *Model) Validate() error {
	if m.Dims < 1 {
		return fmt.Errorf("match: model has %d dimensions", m.Dims)
	}
	for i, p := range m.Places {
		if len(p.Cap) != m.Dims {
			return fmt.Errorf("match: place %d has %d capacities, want %d", i, len(p.Cap), m.Dims)
		}
		for d, c := range p.Cap {
			if c < 0 {
				return fmt.Errorf("match: place %d dimension %d: negative capacity %d", i, d, c)
			}
		}
	}
	for i, f := range m.Families {
		if len(f.Need) != m.Dims {
			return fmt.Errorf("match: family %d has %d needs, want %d", i, len(f.Need), m.Dims)
		}
		for d, n := range f.Need {
			if n < 0 {
				return fmt.Errorf("match: family %d dimension %d: negative need %d", i, d, n)
			}
		}
		for j, a := range f.Arcs {
			if a.Place < 0 || a.Place >= len(m.Places) {
				return fmt.Errorf("match: family %d arc %d: no place %d", i, j, a.Place)
			}
			if j > 0 && a.Place <= f.Arcs[j-1].Place {
				return fmt.Errorf("match: family %d: arcs not in increasing place order", i)
			}
			if math.IsNaN(a.Score) || math.IsInf(a.Score, 0) {
				return fmt.Errorf("match: family %d arc %d: score %v", i, j, a.Score)
			}
		}
	}
	for i, g := range m.Groups {
		if len(g.Cap) != m.Dims {
			return fmt.Errorf("match: group %d has %d capacities, want %d", i, len(g.Cap), m.Dims)
		}
		for _, p := range g.Places {
			if p < 0 || p >= len(m.Places) {
				return fmt.Errorf("match: group %d: no place %d", i, p)
			}
		}
	}
	for i, r := range m.Mins {
		if r.Dim < -1 || r.Dim >= m.Dims {
			return fmt.Errorf("match: minimum %d: no dimension %d", i, r.Dim)
		}
		for _, p := range r.Places {
			if p < 0 || p >= len(m.Places) {
				return fmt.Errorf("match: minimum %d: no place %d", i, p)
			}
		}
	}
	return nil
}

// Value returns the objective of an assignment (by family: place index or -1), and
// an error naming the first constraint it breaks.
func (m *Model) Value(place []int) (float64, error) {
	if len(place) != len(m.Families) {
		return 0, fmt.Errorf("match: assignment of %d families, model has %d", len(place), len(m.Families))
	}
	used := make([][]int64, len(m.Places))
	for i := range used {
		used[i] = make([]int64, m.Dims)
	}
	var v float64
	for i, p := range place {
		f := &m.Families[i]
		if p < 0 {
			if f.Must {
				return 0, fmt.Errorf("match: family %d must be placed", i)
			}
			continue
		}
		ok := false
		for _, a := range f.Arcs {
			if a.Place == p {
				v += a.Score
				ok = true
				break
			}
		}
		if !ok {
			return 0, fmt.Errorf("match: family %d cannot go to place %d", i, p)
		}
		for d := range m.Dims {
			used[p][d] += f.Need[d]
		}
	}
	for p := range m.Places {
		for d := range m.Dims {
			if used[p][d] > m.Places[p].Cap[d] {
				return 0, fmt.Errorf("match: place %d dimension %d: %d placed, capacity %d", p, d, used[p][d], m.Places[p].Cap[d])
			}
		}
	}
	for g, gr := range m.Groups {
		for d := range m.Dims {
			var s int64
			for _, p := range gr.Places {
				s += used[p][d]
			}
			if s > gr.Cap[d] {
				return 0, fmt.Errorf("match: group %d dimension %d: %d placed, capacity %d", g, d, s, gr.Cap[d])
			}
		}
	}
	for r, row := range m.Mins {
		var s int64
		for _, p := range row.Places {
			for d := range m.Dims {
				if row.Dim == -1 || row.Dim == d {
					s += used[p][d]
				}
			}
		}
		if s < row.Min {
			return 0, fmt.Errorf("match: minimum %d: %d placed, at least %d", r, s, row.Min)
		}
	}
	return v, nil
}
