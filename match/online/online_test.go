package online_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"solidarity/match"
	"solidarity/match/online"
)

// randomYear is a small year: families of 1–3 persons in up to 2 dimensions,
// places with tight capacities, random arcs, random batches, and, when revise,
// capacity revisions (raises and cuts).
func randomYear(rng *rand.Rand, nf, np, batches int, revise bool) *online.Year {
	dims := 1 + rng.IntN(2)
	m := &match.Model{Dims: dims}
	for range np {
		c := make([]int64, dims)
		for d := range c {
			c[d] = int64(rng.IntN(5))
		}
		m.Places = append(m.Places, match.Place{Cap: c})
	}
	if np > 1 && rng.IntN(3) == 0 {
		c := make([]int64, dims)
		for d := range c {
			c[d] = int64(1 + rng.IntN(5))
		}
		m.Groups = append(m.Groups, match.Group{Places: []int{0, 1}, Cap: c})
	}
	y := &online.Year{Model: m, Batches: batches, State: make([]int, np), Pledge: make([]float64, np)}
	for range nf {
		need := make([]int64, dims)
		for d := range need {
			need[d] = int64(rng.IntN(3))
		}
		f := match.Family{Need: need}
		for pl := range np {
			if rng.IntN(3) > 0 {
				f.Arcs = append(f.Arcs, match.Arc{Place: pl, Score: math.Round(rng.Float64()*100) / 10})
			}
		}
		m.Families = append(m.Families, f)
		y.Batch = append(y.Batch, rng.IntN(batches))
	}
	for pl := range np {
		y.State[pl] = pl
		y.Pledge[pl] = 1 + float64(rng.IntN(4))
	}
	if revise {
		for b := 1; b < batches; b++ {
			if rng.IntN(2) == 0 {
				c := make([]int64, dims)
				for d := range c {
					c[d] = int64(rng.IntN(6))
				}
				y.Revisions = append(y.Revisions, online.Revision{Batch: b, Place: rng.IntN(np), Cap: c})
			}
		}
	}
	return y
}

// checkCapacities checks a year's placement batch by batch, from the model
// alone: each batch takes at most the room left at each place (its capacity in
// force less what earlier batches took, none where that is negative) and each
// group; every placement is an arc.
func checkCapacities(t *testing.T, y *online.Year, place []int) {
	t.Helper()
	m := y.Model
	used := make([][]int64, len(m.Places))
	for pl := range used {
		used[pl] = make([]int64, m.Dims)
	}
	gused := make([][]int64, len(m.Groups))
	for g := range gused {
		gused[g] = make([]int64, m.Dims)
	}
	caps := make([][]int64, len(m.Places))
	for pl, p := range m.Places {
		caps[pl] = p.Cap
	}
	rev := 0
	for b, batch := range y.Arrivals() {
		for rev < len(y.Revisions) && y.Revisions[rev].Batch <= b {
			caps[y.Revisions[rev].Place] = y.Revisions[rev].Cap
			rev++
		}
		before := make([][]int64, len(used))
		for pl := range used {
			before[pl] = append([]int64(nil), used[pl]...)
		}
		for _, f := range batch {
			pl := place[f]
			if pl < 0 {
				continue
			}
			ok := false
			for _, a := range m.Families[f].Arcs {
				ok = ok || a.Place == pl
			}
			if !ok {
				t.Fatalf("family %d at place %d: no arc", f, pl)
			}
			for d, n := range m.Families[f].Need {
				used[pl][d] += n
				for g, gr := range m.Groups {
					for _, gp := range gr.Places {
						if gp == pl {
							gused[g][d] += n
						}
					}
				}
			}
		}
		for pl := range used {
			for d := range used[pl] {
				if room := max(0, caps[pl][d]-before[pl][d]); used[pl][d]-before[pl][d] > room {
					t.Fatalf("batch %d place %d dim %d: took %d, room %d", b, pl, d, used[pl][d]-before[pl][d], room)
				}
			}
		}
		for g, gr := range m.Groups {
			for d := range gused[g] {
				if gused[g][d] > gr.Cap[d] {
					t.Fatalf("batch %d group %d dim %d: %d over %d", b, g, d, gused[g][d], gr.Cap[d])
				}
			}
		}
	}
}

// TestNoCapacityBroken: every method, on random years with revisions and groups,
// keeps every capacity at every batch; and the hindsight optimum, proven, is never
// below a method's value (nor its bound).
func TestNoCapacityBroken(t *testing.T) {
	ctx := context.Background()
	cfg := online.DefaultConfig()
	cfg.Samples = 5
	for seed := range uint64(60) {
		rng := rand.New(rand.NewPCG(seed, 1))
		y := randomYear(rng, 4+rng.IntN(12), 1+rng.IntN(4), 1+rng.IntN(5), seed%2 == 0)
		cfg.Balance = seed%3 == 0
		if err := y.Validate(); err != nil {
			t.Fatal(err)
		}
		hs, _, err := online.SolveHindsight(ctx, y, cfg)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range online.Methods {
			run, err := online.RunYear(ctx, y, m, cfg, seed, nil)
			if err != nil {
				t.Fatalf("seed %d %s: %v", seed, m.Name(), err)
			}
			checkCapacities(t, y, run.Place)
			if run.Value > hs.Bound+1e-9 || (hs.Status == match.Optimal && run.Value > hs.Value+1e-9) {
				t.Fatalf("seed %d %s: online %.4f above the hindsight %.4f (bound %.4f, %s)", seed, m.Name(), run.Value, hs.Value, hs.Bound, hs.Status)
			}
		}
	}
}

// TestHindsightBruteForce: the hindsight model's optimum is the best assignment
// of the year under the capacities in force at each batch (revisions that only
// raise capacities), found by enumeration.
func TestHindsightBruteForce(t *testing.T) {
	ctx := context.Background()
	for seed := range uint64(80) {
		rng := rand.New(rand.NewPCG(seed, 2))
		y := randomYear(rng, 2+rng.IntN(5), 1+rng.IntN(3), 1+rng.IntN(4), false)
		y.Model.Groups = nil
		// Raises only: each revision at least the capacity before it.
		for b := 1; b < y.Batches; b++ {
			if rng.IntN(2) == 0 {
				pl := rng.IntN(len(y.Model.Places))
				c := append([]int64(nil), y.Model.Places[pl].Cap...)
				for _, r := range y.Revisions {
					if r.Place == pl {
						c = append([]int64(nil), r.Cap...)
					}
				}
				for d := range c {
					c[d] += int64(rng.IntN(3))
				}
				y.Revisions = append(y.Revisions, online.Revision{Batch: b, Place: pl, Cap: c})
			}
		}
		hs, place, err := online.SolveHindsight(ctx, y, online.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		best := bruteForce(y)
		if math.Abs(hs.Value-best) > 1e-9 || hs.Status != match.Optimal {
			t.Fatalf("seed %d: hindsight %.4f (%s), enumeration %.4f", seed, hs.Value, hs.Status, best)
		}
		checkCapacities(t, y, place)
	}
}

// bruteForce enumerates every assignment of the year and returns the best value
// of those that keep, at every batch, each place's intake so far within its
// capacity in force.
func bruteForce(y *online.Year) float64 {
	m := y.Model
	n := len(m.Families)
	place := make([]int, n)
	best := 0.0
	var rec func(i int, v float64)
	rec = func(i int, v float64) {
		if i == n {
			if feasibleByBatch(y, place) {
				best = max(best, v)
			}
			return
		}
		place[i] = -1
		rec(i+1, v)
		for _, a := range m.Families[i].Arcs {
			place[i] = a.Place
			rec(i+1, v+a.Score)
		}
	}
	rec(0, 0)
	return best
}

func feasibleByBatch(y *online.Year, place []int) bool {
	m := y.Model
	for b := range y.Batches {
		caps := make([][]int64, len(m.Places))
		for pl, p := range m.Places {
			caps[pl] = p.Cap
		}
		for _, r := range y.Revisions {
			if r.Batch <= b {
				caps[r.Place] = r.Cap
			}
		}
		for pl := range m.Places {
			for d := range m.Dims {
				var used int64
				for f, p := range place {
					if p == pl && y.Batch[f] <= b {
						used += m.Families[f].Need[d]
					}
				}
				if used > caps[pl][d] {
					return false
				}
			}
		}
	}
	return true
}

// TestSingleBatchIsStatic: with one batch there is no future; every method places
// the year at the static optimum (without the per-person bonus, which would
// otherwise trade score for persons placed).
func TestSingleBatchIsStatic(t *testing.T) {
	ctx := context.Background()
	cfg := online.DefaultConfig()
	cfg.Eps = 0
	for seed := range uint64(40) {
		rng := rand.New(rand.NewPCG(seed, 3))
		y := randomYear(rng, 3+rng.IntN(10), 1+rng.IntN(4), 1, false)
		sol, err := match.Solve(ctx, y.Model, match.Options{})
		if err != nil || sol.Status != match.Optimal {
			t.Fatalf("seed %d: %v %v", seed, err, sol)
		}
		for _, m := range online.Methods {
			run, err := online.RunYear(ctx, y, m, cfg, seed, nil)
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(run.Value-sol.Value) > 1e-9 {
				t.Fatalf("seed %d %s: one batch %.4f, static optimum %.4f", seed, m.Name(), run.Value, sol.Value)
			}
		}
	}
}
