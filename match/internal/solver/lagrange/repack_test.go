package lagrange

import (
	"context"
	"math"
	"slices"
	"testing"

	"solidarity/match/internal/solver"
)

// setup prepares a generated model for the Lagrangian method's parts: the
// problem, a solver after a short dual schedule (prices, reduced scores), and an
// assignment built greedily from them.
func setup(t *testing.T, m *solver.Model) (*search, *primal) {
	t.Helper()
	p, err := solver.NewProb(m)
	if err != nil {
		t.Fatal(err)
	}
	s := &search{ctx: context.Background(), p: p, opts: solver.Options{Gap: 1e-9}, u: newDual(p), work: newPrimal(p),
		bound: math.Inf(1), kbound: math.Inf(1), scale: 1}
	s.tau = tauStart
	for range 4 {
		s.pass(false)
		s.iters += s.u.smoothOpt(s.tau, levelIters)
		s.tau *= tauFactor
	}
	s.pass(false)
	e := newPrimal(p)
	s.u.quickPrimal(e)
	if !e.Feasible() {
		t.Fatal("the greedy assignment breaks the model")
	}
	return s, e
}

// checkAssignment fails unless e is feasible and its value and row use are those of
// its arcs.
func checkAssignment(t *testing.T, what string, e *primal) {
	t.Helper()
	p := e.P
	if !e.Feasible() {
		t.Fatalf("%s: infeasible", what)
	}
	v := 0.0
	used := make([]float64, p.K0)
	for f, a := range e.Arc {
		if a < 0 {
			continue
		}
		v += p.ArcScore[a]
		for _, k := range e.RowsOf(a) {
			used[k] += p.Coef(f, p.RowDim[k])
		}
		if !slices.Contains(e.At[p.ArcPlace[a]], int32(f)) {
			t.Fatalf("%s: family %d not listed at its place", what, f)
		}
	}
	if math.Abs(v-e.Value) > 1e-6 {
		t.Fatalf("%s: value %v, its arcs add up to %v", what, e.Value, v)
	}
	for k := range used {
		if math.Abs(used[k]-e.Used[k]) > 1e-6 {
			t.Fatalf("%s: row %d use %v, its arcs add up to %v", what, k, e.Used[k], used[k])
		}
	}
}

// CheckRepackSound: repacking small places keeps the assignment feasible and
// consistent, never loses value, and gains on a greedy assignment of a model with
// small localities.
// (The models are match.Generate's, which this package cannot import: the tests in
// generated_test.go make them and call these.)
func CheckRepackSound(t *testing.T, m *solver.Model) {
	s, e := setup(t, m)
	cs, ca := s.u.topArcs(searchArcs)
	r := newRepacker(e, cs, ca)
	v0 := e.Value
	g := r.run()
	checkAssignment(t, "repack", e)
	if g < 0 || math.Abs(e.Value-v0-g) > 1e-6 {
		t.Fatalf("value %v → %v, gain reported %v", v0, e.Value, g)
	}
	if g <= 0 {
		t.Fatalf("no gain from repacking a greedy assignment (value %v)", v0)
	}
	// Again: only the places the first run changed are repacked, still soundly.
	v1 := e.Value
	if g2 := r.run(); g2 < 0 || math.Abs(e.Value-v1-g2) > 1e-6 {
		t.Fatalf("second run: value %v → %v, gain reported %v", v1, e.Value, g2)
	}
	checkAssignment(t, "repack again", e)
	t.Logf("greedy %.4f, repacked %.4f", v0, e.Value)
}

// CheckDiveSound: a dive builds a feasible, consistent assignment and leaves the
// solver's prices and reduced scores as they were.
func CheckDiveSound(t *testing.T, m *solver.Model) {
	s, _ := setup(t, m)
	lam, red := slices.Clone(s.u.lam), slices.Clone(s.u.red)
	var d diveState
	for _, first := range []float64{0.8, 0.5} {
		e := newPrimal(s.p)
		s.dive(e, &d, first)
		checkAssignment(t, "dive", e)
		if !slices.Equal(lam, s.u.lam) || !slices.Equal(red, s.u.red) {
			t.Fatal("the dive changed the solver's prices")
		}
		t.Logf("dive %.2f: %.4f", first, e.Value)
	}
}

// CheckPlaceMust: a family pinned to a place it does not fit as things stand is
// placed there by moving one family out of the way; the assignment stays feasible
// and consistent.
func CheckPlaceMust(t *testing.T, m0 *solver.Model) {
	_, e := setup(t, m0)
	p, m := e.P, e.P.M
	placed := 0
	for f := 0; f < p.N && placed < 10; f++ {
		a := e.Arc[f]
		if a < 0 {
			continue
		}
		// A place f does not fit with the others where they are.
		e.Set(f, -1)
		pl := int32(-1)
		for x := p.FamStart[f]; x < p.FamStart[f+1]; x++ {
			if x != a && !e.Fits(f, x) {
				pl = p.ArcPlace[x]
				break
			}
		}
		start := e.Places()
		e.Set(f, a)
		if pl < 0 {
			continue
		}
		pinned := *m
		pinned.Families = slices.Clone(m.Families)
		i := slices.IndexFunc(m.Families[f].Arcs, func(x solver.Arc) bool { return x.Place == int(pl) })
		pinned.Families[f].Arcs, pinned.Families[f].Must = []solver.Arc{m.Families[f].Arcs[i]}, true
		p2, err := solver.NewProb(&pinned)
		if err != nil {
			t.Fatal(err)
		}
		e2 := newPrimal(p2)
		e2.FromPlaces(start)
		if e2.Arc[f] >= 0 || e2.Feasible() {
			t.Fatalf("family %d: placed %d before the pin is met", f, e2.Arc[f])
		}
		if !e2.placeMust(f) {
			continue
		}
		placed++
		if got := p2.ArcPlace[e2.Arc[f]]; got != pl {
			t.Fatalf("family %d at place %d, pinned to %d", f, got, pl)
		}
		checkAssignment(t, "pin", e2)
	}
	if placed == 0 {
		t.Fatal("no pin met")
	}
	t.Logf("%d pins met", placed)
}
