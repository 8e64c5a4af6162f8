package bnb

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"solidarity/match/internal/solver"
)

// TestKnapsackPlaceBrute checks each place's knapsack program (knapsack.go), in one
// to three dimensions, against enumeration of every subset of its families: the
// value must be the best subset's and the chosen families must fit and add up to it.
// In every other trial some families are forced in (as node bounds do): the best
// subset holding them, −Inf when they do not fit together.
func TestKnapsackPlaceBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 17))
	for trial := range 300 {
		D := 1 + r.IntN(3)
		m := randomKnapModel(r, D, 1+r.IntN(9), 7, 4)
		p, err := solver.NewProb(m)
		if err != nil {
			continue // statically infeasible: not this test's subject
		}
		k := newKnapLag(p)
		if k == nil {
			t.Fatalf("trial %d: no knapsack Lagrangian for a capacity-only model", trial)
		}
		for f := range p.N {
			k.u[f] = math.Round(r.Float64()*30) / 10
		}
		if trial%2 == 1 {
			k.forced = make([]bool, len(p.ArcPlace))
			for a := range k.forced {
				k.forced[a] = r.IntN(5) == 0
			}
		}
		for pl := range k.places {
			got := k.solvePlace(pl)
			items := k.places[pl].items
			best := bruteBest(k, m, pl, func(a int32) bool { return k.forced != nil && k.forced[a] })
			if got != best && math.Abs(got-best) > 1e-9 {
				t.Fatalf("trial %d place %d (D=%d): knapsack %v, brute force %v", trial, pl, D, got, best)
			}
			if math.IsInf(best, -1) {
				continue
			}
			for _, a := range items {
				if k.forced != nil && k.forced[a] && !slices.Contains(k.sel[pl], a) {
					t.Fatalf("trial %d place %d: forced arc %d not chosen", trial, pl, a)
				}
			}
			checkChoice(t, k, m, pl, got, trial)
		}
	}
}

// TestKnapsackGrowingMatchesFull checks the growing-region program (solveGrowing,
// which skips items of non-positive profit and the states beyond the items' total
// weight) against the program over every state and item (table), on places too
// large to enumerate, with removed arcs: the same value, and a choice that fits and
// adds up to it.
func TestKnapsackGrowingMatchesFull(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 23))
	for trial := range 200 {
		D := 1 + r.IntN(3)
		m := randomKnapModel(r, D, 5+r.IntN(40), 15, 3)
		p, err := solver.NewProb(m)
		if err != nil {
			continue
		}
		k := newKnapLag(p)
		if k == nil {
			t.Fatalf("trial %d: no knapsack Lagrangian", trial)
		}
		for f := range p.N {
			k.u[f] = math.Round(r.Float64()*60) / 10
		}
		for a := range k.dead {
			k.dead[a] = r.IntN(8) == 0
		}
		for pl := range k.places {
			kp := &k.places[pl]
			got := k.solvePlace(pl)
			order := make([]int, len(kp.items))
			for i := range order {
				order[i] = i
			}
			k.table(kp, order, k.dp, false)
			if want := k.dp[kp.States-1]; math.Abs(got-want) > 1e-9 {
				t.Fatalf("trial %d place %d (D=%d, %d items): growing %v, full %v", trial, pl, D, len(kp.items), got, want)
			}
			checkChoice(t, k, m, pl, got, trial)
		}
	}
}

// TestFixArcsBrute checks the removal of arcs by the knapsack bound (fixArcs)
// against enumeration: an arc is removed exactly when the best subset of its place
// that holds it brings the bound to at most the limit. Items of positive profit
// (among the programs) and the others (one lookup) take different paths there.
func TestFixArcsBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 3))
	removed, kept := 0, 0
	for trial := range 300 {
		D := 1 + r.IntN(3)
		m := randomKnapModel(r, D, 1+r.IntN(9), 7, 4)
		p, err := solver.NewProb(m)
		if err != nil {
			continue
		}
		k := newKnapLag(p)
		for f := range p.N {
			k.u[f] = math.Round(r.Float64()*60) / 10
		}
		L := k.evaluate()
		lim := L - r.Float64()*5
		// The bound with arc a forced in, by enumeration of its place's subsets.
		forcedBound := func(a int32) float64 {
			pl := int(p.ArcPlace[a])
			return L - k.vals[pl] + bruteBest(k, m, pl, func(b int32) bool { return b == a })
		}
		want := make([]bool, len(p.ArcPlace))
		for a := range want {
			want[a] = forcedBound(int32(a)) <= lim
		}
		out := k.fixArcs(L, lim)
		got := make([]bool, len(p.ArcPlace))
		for _, a := range out {
			got[a] = true
		}
		for a := range want {
			fb := forcedBound(int32(a))
			if math.Abs(fb-lim) < 1e-9 {
				continue // on the limit: rounding decides
			}
			if got[a] != want[a] {
				t.Fatalf("trial %d arc %d (profit %v): removed %v, want %v (bound with it %v, limit %v)",
					trial, a, k.profit(int32(a)), got[a], want[a], fb, lim)
			}
			if got[a] {
				removed++
			} else {
				kept++
			}
		}
	}
	if removed == 0 || kept == 0 {
		t.Fatalf("removed %d, kept %d: the test does not exercise both outcomes", removed, kept)
	}
}

// randomKnapModel draws a capacity-only model of n families over one to three
// places in D dimensions: capacities 0…maxCap−1, needs 0…3, each pair present with
// chance 1 − 1/arcOneIn, scores with one decimal in 0…10.
func randomKnapModel(r *rand.Rand, D, n, maxCap, arcOneIn int) *solver.Model {
	m := &solver.Model{Dims: D}
	nPl := 1 + r.IntN(3)
	for range nPl {
		c := make([]int64, D)
		for d := range c {
			c[d] = int64(r.IntN(maxCap))
		}
		m.Places = append(m.Places, solver.Place{Cap: c})
	}
	for range n {
		need := make([]int64, D)
		for d := range need {
			need[d] = int64(r.IntN(4))
		}
		f := solver.Family{Need: need}
		for pl := range nPl {
			if r.IntN(arcOneIn) > 0 {
				f.Arcs = append(f.Arcs, solver.Arc{Place: pl, Score: math.Round(r.Float64()*100) / 10})
			}
		}
		m.Families = append(m.Families, f)
	}
	return m
}

// bruteBest enumerates the subsets of place pl's arcs that hold every required arc
// and fit its capacities, and returns the best profit at k's multipliers (−Inf
// when none does).
func bruteBest(k *knapLag, m *solver.Model, pl int, required func(a int32) bool) float64 {
	p, D := k.p, m.Dims
	items := k.places[pl].items
	best := math.Inf(-1)
	for mask := 0; mask < 1<<len(items); mask++ {
		load := make([]int64, D)
		v, ok := 0.0, true
		for i, a := range items {
			if mask&(1<<i) == 0 {
				ok = ok && !required(a)
				continue
			}
			v += k.profit(a)
			for d := range D {
				load[d] += int64(p.Need[int(p.ArcFam[a])*D+d])
			}
		}
		for d := range D {
			ok = ok && load[d] <= m.Places[pl].Cap[d]
		}
		if ok {
			best = max(best, v)
		}
	}
	return best
}

// checkChoice checks place pl's last knapsack solution (k.sel[pl]): no removed arc,
// within the capacities, and its profits adding up to the value got.
func checkChoice(t *testing.T, k *knapLag, m *solver.Model, pl int, got float64, trial int) {
	t.Helper()
	p, D := k.p, m.Dims
	sum := 0.0
	load := make([]int64, D)
	for _, a := range k.sel[pl] {
		if k.dead[a] {
			t.Fatalf("trial %d place %d: a removed arc chosen", trial, pl)
		}
		sum += k.profit(a)
		for d := range D {
			load[d] += int64(p.Need[int(p.ArcFam[a])*D+d])
		}
	}
	for d := range D {
		if load[d] > m.Places[pl].Cap[d] {
			t.Fatalf("trial %d place %d: chosen families overfill dimension %d", trial, pl, d)
		}
	}
	if math.Abs(sum-got) > 1e-9 {
		t.Fatalf("trial %d place %d: chosen families sum to %v, value %v", trial, pl, sum, got)
	}
}
