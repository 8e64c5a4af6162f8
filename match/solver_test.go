package match_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity/match"
)

// randomSmallModel is a small model: up to nf families, np places, dims dimensions, with
// random needs, arcs, Must flags, and (when rich) groups and minimums.
func randomSmallModel(r *rand.Rand, nf, np, dims int, rich bool) *match.Model {
	m := &match.Model{Dims: dims}
	for range np {
		cp := make([]int64, dims)
		for d := range cp {
			cp[d] = int64(r.IntN(6))
		}
		m.Places = append(m.Places, match.Place{Cap: cp})
	}
	for range nf {
		need := make([]int64, dims)
		for d := range need {
			need[d] = int64(r.IntN(3))
		}
		f := match.Family{Need: need, Must: rich && r.IntN(4) == 0}
		for p := range np {
			if r.IntN(3) > 0 {
				f.Arcs = append(f.Arcs, match.Arc{Place: p, Score: math.Round((r.Float64()*2-0.3)*1000) / 1000})
			}
		}
		m.Families = append(m.Families, f)
	}
	if rich && np >= 2 && r.IntN(2) == 0 {
		g := match.Group{Places: []int{0, 1}, Cap: make([]int64, dims)}
		for d := range g.Cap {
			g.Cap[d] = int64(r.IntN(8))
		}
		m.Groups = append(m.Groups, g)
	}
	if rich && r.IntN(3) == 0 {
		m.Mins = append(m.Mins, match.MinRow{Places: []int{np - 1}, Dim: r.IntN(dims+1) - 1, Min: int64(r.IntN(4))})
	}
	return m
}

// enumerateBest enumerates every assignment: the best value, or ok=false if none is
// feasible.
func enumerateBest(m *match.Model) (best float64, ok bool) {
	n := len(m.Families)
	place := make([]int, n)
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			if v, err := m.Value(place); err == nil && (!ok || v > best) {
				best, ok = v, true
			}
			return
		}
		place[i] = -1
		rec(i + 1)
		for _, a := range m.Families[i].Arcs {
			place[i] = a.Place
			rec(i + 1)
		}
	}
	rec(0)
	return best, ok
}

func TestSolveAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 300 {
		nf, np := 1+r.IntN(7), 1+r.IntN(4)
		if i%50 == 0 {
			nf = 8
		}
		m := randomSmallModel(r, nf, np, 1+r.IntN(3), i%2 == 0)
		want, feasible := enumerateBest(m)
		s, err := match.Solve(context.Background(), m, match.Options{})
		if err != nil {
			t.Fatalf("model %d: %v", i, err)
		}
		if !feasible {
			if s.Status != match.Infeasible || s.Reason == "" {
				t.Fatalf("model %d: infeasible by enumeration, solver says %s %q", i, s.Status, s.Reason)
			}
			continue
		}
		if s.Status != match.Optimal {
			t.Fatalf("model %d: status %s (%s) value %v bound %v, want optimal %v", i, s.Status, s.Reason, s.Value, s.Bound, want)
		}
		if math.Abs(s.Value-want) > 1e-9 {
			t.Fatalf("model %d: value %v, brute force %v", i, s.Value, want)
		}
		if s.Bound < s.Value-1e-9 {
			t.Fatalf("model %d: bound %v < value %v", i, s.Bound, s.Value)
		}
	}
}

func TestInfeasibleReasons(t *testing.T) {
	tests := []struct {
		name string
		m    *match.Model
		want string
	}{
		{"no arcs", &match.Model{Dims: 1, Places: []match.Place{{Cap: []int64{5}}},
			Families: []match.Family{{Need: []int64{1}, Must: true}}},
			"family 0 must be placed but has no allowed place"},
		{"no room", &match.Model{Dims: 2, Places: []match.Place{{Cap: []int64{5, 2}}},
			Families: []match.Family{{Need: []int64{1, 3}, Must: true, Arcs: []match.Arc{{Place: 0, Score: 1}}}}},
			"family 0 must be placed but no place has room: place 0 dimension 1 capacity 2 < need 3"},
		{"pins", &match.Model{Dims: 1, Places: []match.Place{{Cap: []int64{10}}, {Cap: []int64{10}}},
			Families: []match.Family{
				{Need: []int64{6}, Must: true, Arcs: []match.Arc{{Place: 1, Score: 1}}},
				{Need: []int64{8}, Must: true, Arcs: []match.Arc{{Place: 1, Score: 1}}},
			}},
			"place 1: the families that must go there (0, 1) need 14 > capacity 10 in dimension 0"},
		{"minimum", &match.Model{Dims: 1, Places: []match.Place{{Cap: []int64{10}}},
			Families: []match.Family{{Need: []int64{2}, Arcs: []match.Arc{{Place: 0, Score: 1}}}},
			Mins:     []match.MinRow{{Places: []int{0}, Dim: -1, Min: 3}}},
			"minimum 0"},
		{"packing", &match.Model{Dims: 1, Places: []match.Place{{Cap: []int64{3}}, {Cap: []int64{3}}},
			Families: []match.Family{
				{Need: []int64{2}, Must: true, Arcs: []match.Arc{{Place: 0, Score: 1}, {Place: 1, Score: 1}}},
				{Need: []int64{2}, Must: true, Arcs: []match.Arc{{Place: 0, Score: 1}, {Place: 1, Score: 1}}},
				{Need: []int64{2}, Must: true, Arcs: []match.Arc{{Place: 0, Score: 1}, {Place: 1, Score: 1}}},
			}},
			"cannot all be packed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := match.Solve(context.Background(), tt.m, match.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if s.Status != match.Infeasible || !strings.Contains(s.Reason, tt.want) {
				t.Fatalf("got %s %q, want infeasible containing %q", s.Status, s.Reason, tt.want)
			}
			if s.Place != nil {
				t.Errorf("an infeasible model returned a placement")
			}
		})
	}
}

// TestSolveProperties: whatever the model, a returned assignment breaks no
// constraint, its value is what Value says, and the bound is not below it.
func TestSolveProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		r := rand.New(rand.NewPCG(seed, 7))
		m := randomSmallModel(r, rapid.IntRange(1, 30).Draw(t, "families"), rapid.IntRange(1, 6).Draw(t, "places"),
			rapid.IntRange(1, 3).Draw(t, "dims"), rapid.Bool().Draw(t, "rich"))
		s, err := match.Solve(context.Background(), m, match.Options{TimeLimit: 2 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if s.Status == match.Infeasible {
			if s.Reason == "" {
				t.Fatal("infeasible without a reason")
			}
			return
		}
		v, err := m.Value(s.Place)
		if err != nil {
			t.Fatalf("invalid assignment: %v", err)
		}
		if math.Abs(v-s.Value) > 1e-9 {
			t.Fatalf("value %v, model says %v", s.Value, v)
		}
		if s.Bound < s.Value-1e-9 {
			t.Fatalf("bound %v < value %v", s.Bound, s.Value)
		}
	})
}

func TestDeterministic(t *testing.T) {
	for _, m := range []*match.Model{mediumModel(3), euModel(5, 3000, 10, 15)} {
		a, err := match.Solve(context.Background(), m, match.Options{Gap: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		b, err := match.Solve(context.Background(), m, match.Options{Gap: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.Place, b.Place) || a.Value != b.Value {
			t.Fatalf("two solves differ: %v vs %v", a.Value, b.Value)
		}
	}
}

func TestTimeLimit(t *testing.T) {
	m := euModel(11, 12000, 26, 40)
	s, err := match.Solve(context.Background(), m, match.Options{TimeLimit: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != match.Feasible || s.Bound < s.Value {
		t.Fatalf("status %s value %v bound %v", s.Status, s.Value, s.Bound)
	}
	if s.Elapsed > time.Second {
		t.Errorf("took %v with a 100 ms limit", s.Elapsed)
	}
	if _, err := m.Value(s.Place); err != nil {
		t.Fatal(err)
	}
}

// mediumModel is a HIAS-sized model (300 families, 20 places, 2 dimensions).
func mediumModel(seed uint64) *match.Model {
	r := rand.New(rand.NewPCG(seed, 99))
	m := &match.Model{Dims: 2}
	for range 20 {
		m.Places = append(m.Places, match.Place{Cap: []int64{int64(5 + r.IntN(30)), int64(5 + r.IntN(30))}})
	}
	for range 300 {
		f := match.Family{Need: []int64{int64(r.IntN(3)), int64(1 + r.IntN(3))}}
		base := r.Float64()
		for p := range 20 {
			if r.IntN(4) > 0 {
				f.Arcs = append(f.Arcs, match.Arc{Place: p, Score: base + 0.3*r.Float64()})
			}
		}
		m.Families = append(m.Families, f)
	}
	return m
}

// TestRootLPTimeLimit: on 400 families × 150 places the root LP's dense
// re-inversions take several seconds; under a time limit it gets half the time,
// then the Lagrangian method the rest (issue 17). The answer is a valid placement
// (checked against the
// model alone), within 5 % of its bound.
func TestRootLPTimeLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(0, 17))
	m := randomModel(rng, randomSpec{families: 400, places: 150, dims: 2, density: 0.15, must: 0.1, tight: 0.8, groups: 3})
	sol, err := match.Solve(context.Background(), m, match.Options{TimeLimit: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	v, err := m.Value(sol.Place)
	if err != nil || math.Abs(v-sol.Value) > 1e-6 || sol.Bound < sol.Value {
		t.Fatalf("status %s value %v (model %v, %v) bound %v", sol.Status, sol.Value, v, err, sol.Bound)
	}
	// The root LP alone would have left a greedy fill and a bound 11 % above it;
	// the Lagrangian method in the time left gets within 2 %.
	if sol.Status != match.Feasible || sol.Gap() > 0.05 {
		t.Fatalf("2 s: %s %.2f, bound %.2f (gap %.3f)", sol.Status, sol.Value, sol.Bound, sol.Gap())
	}
}
