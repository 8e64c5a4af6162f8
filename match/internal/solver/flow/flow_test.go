package flow

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/bnb"
)

// randomModel is a small random flow-shaped model: one-person families (and some
// that need nothing), some that must be placed, scores on a coarse grid (ties) that
// may be negative or zero, small capacities, and a random laminar family of groups
// (a chain of nested sets plus disjoint ones), all with small capacities so that the
// rows bind.
func randomModel(r *rand.Rand, nf, np, dims int) *solver.Model {
	m := &solver.Model{Dims: dims}
	for range np {
		c := make([]int64, dims)
		for d := range c {
			c[d] = int64(r.IntN(4))
		}
		m.Places = append(m.Places, solver.Place{Cap: c})
	}
	for range nf {
		need := make([]int64, dims)
		if r.IntN(6) > 0 {
			need[r.IntN(dims)] = 1
		}
		f := solver.Family{Need: need, Must: r.IntN(5) == 0}
		for p := range np {
			if r.IntN(3) > 0 {
				f.Arcs = append(f.Arcs, solver.Arc{Place: p, Score: float64(r.IntN(21)-6) / 10})
			}
		}
		m.Families = append(m.Families, f)
	}
	// Laminar groups: a random permutation of the places; prefixes of it are nested,
	// and single places from the rest are disjoint from one another.
	perm := r.Perm(np)
	capOf := func() []int64 {
		c := make([]int64, dims)
		for d := range c {
			c[d] = int64(r.IntN(5))
		}
		return c
	}
	for k := 2; k <= np; k++ {
		if r.IntN(2) == 0 {
			m.Groups = append(m.Groups, solver.Group{Places: slices.Clone(perm[:k]), Cap: capOf()})
		}
	}
	if np >= 3 && r.IntN(2) == 0 {
		m.Groups = append(m.Groups, solver.Group{Places: []int{perm[np-1]}, Cap: capOf()})
	}
	return m
}

// bruteBest enumerates every assignment: the best value, or ok=false if none is
// feasible.
func bruteBest(m *solver.Model) (best float64, ok bool) {
	place := make([]int, len(m.Families))
	var rec func(i int)
	rec = func(i int) {
		if i == len(place) {
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

// solveShaped prepares m and solves it with solve, as solve would: a model NewProb
// already finds infeasible comes back Infeasible.
func solveShaped(t *testing.T, m *solver.Model) *solver.Solution {
	t.Helper()
	p, err := solver.NewProb(m)
	if ie, ok := errors.AsType[*solver.InfeasibleError](err); ok {
		return &solver.Solution{Status: solver.Infeasible, Reason: ie.Reason}
	}
	if err != nil {
		t.Fatal(err)
	}
	if !Shaped(p) {
		_, why := laminarTrees(p)
		t.Fatalf("not flow-shaped: %s", why)
	}
	s, err := solve(context.Background(), p, solver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// check checks an optimal solution against the model and the expected value.
func check(t *testing.T, m *solver.Model, s *solver.Solution, want float64) {
	t.Helper()
	if s.Status != solver.Optimal {
		t.Fatalf("status %s (%s), want optimal %v", s.Status, s.Reason, want)
	}
	v, err := m.Value(s.Place)
	if err != nil {
		t.Fatalf("invalid assignment: %v", err)
	}
	tol := 1e-9 * math.Max(1, math.Abs(want))
	if math.Abs(v-want) > tol || math.Abs(s.Value-v) > tol {
		t.Fatalf("value %v (reported %v), want %v", v, s.Value, want)
	}
	if s.Bound != s.Value {
		t.Fatalf("bound %v != value %v", s.Bound, s.Value)
	}
}

func TestFlowAgainstBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	var optimal, infeasible, infeasibleModel, mustPlaced, bound int
	for i := range 600 {
		m := randomModel(r, 1+r.IntN(6), 1+r.IntN(4), 1+r.IntN(3))
		want, ok := bruteBest(m)
		s := solveShaped(t, m)
		if !ok {
			if s.Status != solver.Infeasible || s.Reason == "" {
				t.Fatalf("model %d: brute force finds it infeasible, solveFlow says %s (%q)", i, s.Status, s.Reason)
			}
			infeasible++
			if strings.HasPrefix(s.Reason, "family") { // found by solve, not NewProb
				infeasibleModel++
			}
			continue
		}
		check(t, m, s, want)
		optimal++
		if want < unbound(m)-1e-9 {
			bound++
		}
		for f, fam := range m.Families {
			if fam.Must && s.Place[f] >= 0 {
				mustPlaced++
			}
		}
	}
	// The generator must exercise both outcomes and families that must be placed.
	t.Logf("%d optimal (%d bind), %d infeasible (%d flow), %d must placed", optimal, bound, infeasible, infeasibleModel, mustPlaced)
	if optimal < 300 || bound < 150 || infeasible < 20 || infeasibleModel < 10 || mustPlaced < 100 {
		t.Fatalf("weak sample: %d optimal (%d where capacity binds), %d infeasible (%d found by solveFlow), %d placed must families",
			optimal, bound, infeasible, infeasibleModel, mustPlaced)
	}
}

// unbound is the value of every family at its best arc (if it gains or must go),
// capacities ignored: above the optimum when a capacity binds.
func unbound(m *solver.Model) float64 {
	var v float64
	for _, f := range m.Families {
		best := math.Inf(-1)
		for _, a := range f.Arcs {
			best = max(best, a.Score)
		}
		if f.Must || best > 0 {
			v += best
		}
	}
	return v
}

// mediumModel is a flow-shaped model of nf families and np places in two
// dimensions, with two disjoint groups and one over both, and a few families that
// must be placed.
func mediumModel(r *rand.Rand, nf, np int) *solver.Model {
	m := &solver.Model{Dims: 2}
	for range np {
		m.Places = append(m.Places, solver.Place{Cap: []int64{int64(2 + r.IntN(4)), int64(2 + r.IntN(4))}})
	}
	for range nf {
		need := []int64{0, 0}
		if r.IntN(10) > 0 {
			need[r.IntN(2)] = 1
		}
		f := solver.Family{Need: need, Must: r.IntN(15) == 0}
		for p := range np {
			if r.IntN(3) > 0 {
				f.Arcs = append(f.Arcs, solver.Arc{Place: p, Score: r.Float64()*1.2 - 0.2})
			}
		}
		m.Families = append(m.Families, f)
	}
	half := np / 2
	var a, b, all []int
	for p := range np {
		all = append(all, p)
		if p < half {
			a = append(a, p)
		} else {
			b = append(b, p)
		}
	}
	m.Groups = []solver.Group{
		{Places: a, Cap: []int64{int64(nf / 5), int64(nf / 5)}},
		{Places: b, Cap: []int64{int64(nf / 6), int64(nf / 6)}},
		{Places: all, Cap: []int64{int64(nf / 3), int64(nf / 3)}},
	}
	return m
}

func TestFlowAgainstBnB(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 5))
	for i := range 12 {
		m := mediumModel(r, 60, 8)
		p, err := solver.NewProb(m)
		if err != nil {
			t.Fatalf("model %d: %v", i, err)
		}
		if !Shaped(p) {
			t.Fatalf("model %d: not flow-shaped", i)
		}
		want, err := bnb.Method{Methods: testMethods()}.Solve(context.Background(), p, solver.Options{Gap: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		if want.Status != solver.Optimal {
			t.Fatalf("model %d: branch-and-bound %s", i, want.Status)
		}
		s, err := solve(context.Background(), p, solver.Options{})
		if err != nil {
			t.Fatal(err)
		}
		// The branch-and-bound stops within its gap of the optimum, below or at it.
		check(t, m, s, s.Value)
		if s.Value >= unbound(m)-1e-9 {
			t.Fatalf("model %d: no capacity binds", i)
		}
		if d := s.Value - want.Value; d < -1e-9*math.Max(1, math.Abs(s.Value)) || d > 1e-9*math.Max(1, math.Abs(s.Value)) {
			t.Fatalf("model %d: flow %v, branch-and-bound %v", i, s.Value, want.Value)
		}
	}
}

func TestFlowShaped(t *testing.T) {
	base := func() *solver.Model {
		m := &solver.Model{Dims: 2}
		for range 3 {
			m.Places = append(m.Places, solver.Place{Cap: []int64{1, 1}})
		}
		for f := range 6 {
			need := []int64{0, 0}
			need[f%2] = 1
			m.Families = append(m.Families, solver.Family{Need: need,
				Arcs: []solver.Arc{{Place: 0, Score: 1}, {Place: 1, Score: 2}, {Place: 2, Score: 3}}})
		}
		return m
	}
	shaped := func(m *solver.Model) bool {
		t.Helper()
		p, err := solver.NewProb(m)
		if err != nil {
			t.Fatal(err)
		}
		return Shaped(p)
	}
	if m := base(); !shaped(m) {
		t.Fatal("one-person families, no group: not flow-shaped")
	}
	m := base()
	m.Families = append(m.Families, solver.Family{Need: []int64{0, 0}, Arcs: []solver.Arc{{Place: 1, Score: 1}}})
	m.Groups = []solver.Group{{Places: []int{0, 1}, Cap: []int64{1, 1}}, {Places: []int{0, 1, 2}, Cap: []int64{2, 2}}, {Places: []int{2}, Cap: []int64{0, 1}}}
	if !shaped(m) {
		t.Fatal("nested and disjoint groups, a family needing nothing: not flow-shaped")
	}
	m = base()
	m.Families[0].Need = []int64{1, 1}
	if shaped(m) {
		t.Fatal("a two-person family: flow-shaped")
	}
	m = base()
	m.Families[0].Need = []int64{2, 0}
	if shaped(m) {
		t.Fatal("a family of two in one dimension: flow-shaped")
	}
	m = base()
	m.Groups = []solver.Group{{Places: []int{0, 1}, Cap: []int64{1, 1}}, {Places: []int{1, 2}, Cap: []int64{1, 1}}}
	if shaped(m) {
		t.Fatal("overlapping groups: flow-shaped")
	}
	m = base()
	m.Groups = []solver.Group{{Places: []int{0, 0, 1}, Cap: []int64{1, 1}}}
	if shaped(m) {
		t.Fatal("a group listing a place twice: flow-shaped")
	}
	m = base()
	m.Mins = []solver.MinRow{{Places: []int{0}, Dim: -1, Min: 1}}
	if shaped(m) {
		t.Fatal("a minimum: flow-shaped")
	}
	// Rows that can never bind are dropped by NewProb and do not count: overlapping
	// groups with room for everyone are no constraint.
	m = base()
	m.Groups = []solver.Group{{Places: []int{0, 1}, Cap: []int64{9, 9}}, {Places: []int{1, 2}, Cap: []int64{1, 1}}}
	if !shaped(m) {
		t.Fatal("an overlapping group that cannot bind: not flow-shaped")
	}
	m = base()
	m.Mins = []solver.MinRow{{Places: []int{0}, Dim: -1, Min: 0}}
	if !shaped(m) {
		t.Fatal("a minimum of 0: not flow-shaped")
	}
}

func TestFlowInfeasibleReason(t *testing.T) {
	// Three families must go to places 0 or 1, whose group holds two.
	m := &solver.Model{Dims: 1,
		Places: []solver.Place{{Cap: []int64{1}}, {Cap: []int64{2}}, {Cap: []int64{5}}},
		Groups: []solver.Group{{Places: []int{0, 1}, Cap: []int64{2}}}}
	for range 3 {
		m.Families = append(m.Families, solver.Family{Need: []int64{1}, Must: true,
			Arcs: []solver.Arc{{Place: 0, Score: 1}, {Place: 1, Score: -1}}})
	}
	m.Families = append(m.Families, solver.Family{Need: []int64{1}, Arcs: []solver.Arc{{Place: 0, Score: 5}, {Place: 2, Score: 1}}})
	s := solveShaped(t, m)
	if s.Status != solver.Infeasible || !strings.Contains(s.Reason, "must be placed") || !strings.Contains(s.Reason, "group 0") {
		t.Fatalf("got %s %q, want infeasible naming group 0", s.Status, s.Reason)
	}
	// Two that must be placed fill the group, one of them at a loss (place 0 holds
	// one); the other family, which would rather have place 0, goes to place 2.
	m.Families = m.Families[1:]
	s = solveShaped(t, m)
	check(t, m, s, 1+(-1)+1)
}

func TestFlowCancelled(t *testing.T) {
	m := euFlowModel(1, 2000, 4, 10, 30, 0)
	p, err := solver.NewProb(m)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := solve(ctx, p, solver.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
}

func TestFlowEUSmall(t *testing.T) {
	// A reduced EU-like model: checked against itself (two runs, the same answer),
	// the model (valid), and its own dual (Bound = Value).
	m := euFlowModel(2, 3000, 8, 10, 60, 0.02)
	s1, s2 := solveShaped(t, m), solveShaped(t, m)
	check(t, m, s1, s1.Value)
	if !slices.Equal(s1.Place, s2.Place) {
		t.Fatal("two runs differ")
	}
}

// euFlowModel is an EU-scale flow-shaped model (the shape of euModel in
// match/solver_eu_test.go, with one-person families): nf persons, 20 % children, 70 %
// adults, 10 % seniors, a fraction mustFrac of them to be placed; states × localities
// places with capacities adding up to 1.05 × the demand of each dimension, each
// state capped at 90 % of its localities (a group); about arcs compatible places per
// person, scored by the person's prospects times the locality's labour market plus
// noise.
func euFlowModel(seed uint64, nf, states, localities, arcs int, mustFrac float64) *solver.Model {
	r := rand.New(rand.NewPCG(seed, 66))
	np := states * localities
	m := &solver.Model{Dims: 3}
	var total [3]int64
	for range nf {
		need := make([]int64, 3)
		d := 1
		switch x := r.Float64(); {
		case x < 0.2:
			d = 0
		case x > 0.9:
			d = 2
		}
		need[d] = 1
		total[d]++
		m.Families = append(m.Families, solver.Family{Need: need, Must: r.Float64() < mustFrac})
	}
	weight := make([]float64, np)
	sum := 0.0
	for p := range np {
		weight[p] = 0.5 + r.Float64()
		sum += weight[p]
	}
	labour := make([]float64, np)
	for p := range np {
		c := make([]int64, 3)
		for d := range 3 {
			c[d] = int64(float64(total[d])*1.05*weight[p]/sum + r.Float64())
		}
		m.Places = append(m.Places, solver.Place{Cap: c})
		labour[p] = 0.3 + 0.7*r.Float64()
	}
	for s := range states {
		g := solver.Group{Cap: make([]int64, 3)}
		for l := range localities {
			p := s*localities + l
			g.Places = append(g.Places, p)
			for d := range 3 {
				g.Cap[d] += m.Places[p].Cap[d]
			}
		}
		for d := range 3 {
			g.Cap[d] = g.Cap[d] * 9 / 10
		}
		m.Groups = append(m.Groups, g)
	}
	mark := make([]bool, np)
	for i := range m.Families {
		f := &m.Families[i]
		prospects := r.Float64()
		k := arcs/2 + r.IntN(arcs+1)
		for range k {
			mark[r.IntN(np)] = true
		}
		for p := range np {
			if mark[p] {
				mark[p] = false
				f.Arcs = append(f.Arcs, solver.Arc{Place: p, Score: prospects*labour[p] + 0.1*r.Float64()})
			}
		}
	}
	return m
}

// BenchmarkFlowEU solves the EU-scale model: 30 000 persons, 26 states × 40
// localities, about 200 arcs each (5.4 million after NewProb), 2 % that must be
// placed. NewProb is not timed.
func BenchmarkFlowEU(b *testing.B) {
	m := euFlowModel(1, 30000, 26, 40, 200, 0.02)
	p, err := solver.NewProb(m)
	if err != nil {
		b.Fatal(err)
	}
	var s *solver.Solution
	for b.Loop() {
		if s, err = solve(context.Background(), p, solver.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	if s.Status != solver.Optimal {
		b.Fatalf("status %s", s.Status)
	}
	if _, err := m.Value(s.Place); err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(s.Iterations), "bids")
}

// The time limit stops the flow before it is done: Solve answers with the greedy
// fallback, a valid assignment whose bound is at least the true optimum.
func TestFlowTimeLimit(t *testing.T) {
	m := euFlowModel(3, 20000, 26, 40, 100, 0.02)
	exact, err := solver.Solve(context.Background(), m, solver.Options{}, testMethods())
	if err != nil || exact.Status != solver.Optimal {
		t.Fatalf("exact: %v %v", exact, err)
	}
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	s, err := solver.Solve(ctx, m, solver.Options{}, testMethods())
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != solver.Feasible {
		t.Fatalf("status %s, want feasible (the flow cannot have finished)", s.Status)
	}
	v, err := m.Value(s.Place)
	if err != nil {
		t.Fatal(err)
	}
	if v != s.Value || v > exact.Value+1e-9 || s.Bound < exact.Value-1e-9 {
		t.Fatalf("value %v (model %v) bound %v, optimum %v", s.Value, v, s.Bound, exact.Value)
	}
	// A cancellation that is not the time limit is still an error.
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := solver.Solve(ctx, m, solver.Options{}, testMethods()); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: got %v", err)
	}
}

// Fallback against brute force on small models: valid, below the optimum, its
// bound above it.
func TestFlowFallback(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	checked := 0
	for i := range 300 {
		m := randomModel(r, 1+r.IntN(7), 1+r.IntN(4), 1+r.IntN(2))
		best, ok := bruteBest(m)
		p, err := solver.NewProb(m)
		if err != nil {
			if ok {
				t.Fatalf("model %d: newProb: %v but feasible", i, err)
			}
			continue
		}
		s := Fallback(p)
		if s == nil {
			continue // a must family left out: the caller reports the stop
		}
		v, err := m.Value(s.Place)
		if err != nil {
			t.Fatalf("model %d: %v", i, err)
		}
		if !ok || math.Abs(v-s.Value) > 1e-9 || v > best+1e-9 || s.Bound < best-1e-9 {
			t.Fatalf("model %d: value %v (model %v) bound %v, optimum %v (feasible %v)", i, s.Value, v, s.Bound, best, ok)
		}
		checked++
	}
	if checked < 150 {
		t.Fatalf("only %d of 300 models gave a fallback answer", checked)
	}
}
