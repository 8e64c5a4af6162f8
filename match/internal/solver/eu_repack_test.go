package solver

import (
	"context"
	"math"
	"slices"
	"testing"
)

// euSetup prepares a generated model for the Lagrangian method's parts: the
// problem, a solver after a short dual schedule (prices, reduced scores), and an
// assignment built greedily from them.
func euSetup(t *testing.T, m *Model) (*lagSolver, *euPrimal) {
	t.Helper()
	p, err := newProb(m)
	if err != nil {
		t.Fatal(err)
	}
	s := &lagSolver{ctx: context.Background(), p: p, opts: Options{Gap: 1e-9}, u: newEUDual(p), work: newEUPrimal(p),
		bound: math.Inf(1), kbound: math.Inf(1), scale: 1}
	s.tau = lagTau0
	for range 4 {
		s.pass(false)
		s.iters += s.u.smoothOpt(s.tau, lagIters)
		s.tau *= lagTauF
	}
	s.pass(false)
	e := newEUPrimal(p)
	s.u.quickPrimal(e)
	if !e.feasible() {
		t.Fatal("the greedy assignment breaks the model")
	}
	return s, e
}

// checkAssignment fails unless e is feasible and its value and row use are those of
// its arcs.
func checkAssignment(t *testing.T, what string, e *euPrimal) {
	t.Helper()
	p := e.p
	if !e.feasible() {
		t.Fatalf("%s: infeasible", what)
	}
	v := 0.0
	used := make([]float64, p.K0)
	for f, a := range e.arc {
		if a < 0 {
			continue
		}
		v += p.arcScore[a]
		for _, k := range e.rowsOf(a) {
			used[k] += p.coef(f, p.rowDim[k])
		}
		if !slices.Contains(e.at[p.arcPlace[a]], int32(f)) {
			t.Fatalf("%s: family %d not listed at its place", what, f)
		}
	}
	if math.Abs(v-e.value) > 1e-6 {
		t.Fatalf("%s: value %v, its arcs add up to %v", what, e.value, v)
	}
	for k := range used {
		if math.Abs(used[k]-e.used[k]) > 1e-6 {
			t.Fatalf("%s: row %d use %v, its arcs add up to %v", what, k, e.used[k], used[k])
		}
	}
}

// CheckRepackSound: repacking small places keeps the assignment feasible and
// consistent, never loses value, and gains on a greedy assignment of a model with
// small localities.
// (The models are match.Generate's, which this package cannot import: the tests in
// generated_test.go make them and call these.)
func CheckRepackSound(t *testing.T, m *Model) {
	s, e := euSetup(t, m)
	cs, ca := s.u.topArcs(lagPrimArcs)
	r := newRepacker(e, cs, ca)
	v0 := e.value
	g := r.run()
	checkAssignment(t, "repack", e)
	if g < 0 || math.Abs(e.value-v0-g) > 1e-6 {
		t.Fatalf("value %v → %v, gain reported %v", v0, e.value, g)
	}
	if g <= 0 {
		t.Fatalf("no gain from repacking a greedy assignment (value %v)", v0)
	}
	// Again: only the places the first run changed are repacked, still soundly.
	v1 := e.value
	if g2 := r.run(); g2 < 0 || math.Abs(e.value-v1-g2) > 1e-6 {
		t.Fatalf("second run: value %v → %v, gain reported %v", v1, e.value, g2)
	}
	checkAssignment(t, "repack again", e)
	t.Logf("greedy %.4f, repacked %.4f", v0, e.value)
}

// CheckDiveSound: a dive builds a feasible, consistent assignment and leaves the
// solver's prices and reduced scores as they were.
func CheckDiveSound(t *testing.T, m *Model) {
	s, _ := euSetup(t, m)
	lam, red := slices.Clone(s.u.lam), slices.Clone(s.u.red)
	var d diveState
	for _, first := range []float64{0.8, 0.5} {
		e := newEUPrimal(s.p)
		s.dive(e, &d, first)
		checkAssignment(t, "dive", e)
		if !slices.Equal(lam, s.u.lam) || !slices.Equal(red, s.u.red) {
			t.Fatal("the dive changed the solver's prices")
		}
		t.Logf("dive %.2f: %.4f", first, e.value)
	}
}

// CheckPlaceMust: a family pinned to a place it does not fit as things stand is
// placed there by moving one family out of the way; the assignment stays feasible
// and consistent.
func CheckPlaceMust(t *testing.T, m0 *Model) {
	_, e := euSetup(t, m0)
	p, m := e.p, e.p.m
	placed := 0
	for f := 0; f < p.n && placed < 10; f++ {
		a := e.arc[f]
		if a < 0 {
			continue
		}
		// A place f does not fit with the others where they are.
		e.set(f, -1)
		pl := int32(-1)
		for x := p.famStart[f]; x < p.famStart[f+1]; x++ {
			if x != a && !e.fits(f, x) {
				pl = p.arcPlace[x]
				break
			}
		}
		start := e.places()
		e.set(f, a)
		if pl < 0 {
			continue
		}
		pinned := *m
		pinned.Families = slices.Clone(m.Families)
		i := slices.IndexFunc(m.Families[f].Arcs, func(x Arc) bool { return x.Place == int(pl) })
		pinned.Families[f].Arcs, pinned.Families[f].Must = []Arc{m.Families[f].Arcs[i]}, true
		p2, err := newProb(&pinned)
		if err != nil {
			t.Fatal(err)
		}
		e2 := newEUPrimal(p2)
		e2.fromPlaces(start)
		if e2.arc[f] >= 0 || e2.feasible() {
			t.Fatalf("family %d: placed %d before the pin is met", f, e2.arc[f])
		}
		if !e2.placeMust(f) {
			continue
		}
		placed++
		if got := p2.arcPlace[e2.arc[f]]; got != pl {
			t.Fatalf("family %d at place %d, pinned to %d", f, got, pl)
		}
		checkAssignment(t, "pin", e2)
	}
	if placed == 0 {
		t.Fatal("no pin met")
	}
	t.Logf("%d pins met", placed)
}
