package match_test

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"solidarity/match"
)

// TestStressAgainstCBC is the long cross-check, run by hand after a change to the
// search (MATCH_STRESS=N: N random models; MATCH_STRESS_SEED picks another series):
// capacity-only models (where the knapsack Lagrangian, root fixing and RINS apply),
// and every fourth with groups, minimums or families that must be placed. Every
// answer must be sound: a bound never below cbc's optimum, a placement that breaks
// nothing and is worth no more than the optimum, a claimed optimum equal to cbc's.
//
// cbc 2.10 is not always right under its default settings: on one model of the
// 2026-12-01 run it claimed 188.24 optimal where the engine's placement, feasible,
// is worth 188.33, as cbc itself finds with -preprocess off. So a placement worth more
// than cbc's optimum is checked once more with cbc's preprocessing off, and only a
// disagreement with that answer fails.
func TestStressAgainstCBC(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("MATCH_STRESS"))
	if n <= 0 {
		t.Skip("MATCH_STRESS not set: the long cross-check against cbc runs by hand")
	}
	seed, _ := strconv.ParseUint(os.Getenv("MATCH_STRESS_SEED"), 10, 64)
	cbc := needCBC(t)
	rng := rand.New(rand.NewPCG(99+seed, 7))
	proven, unproven, cbcWrong := 0, 0, 0
	for i := range n {
		np := 2 + rng.IntN(12)
		s := randomSpec{families: 10 + rng.IntN(140), places: np, dims: 1 + rng.IntN(3),
			density: min(0.9, (2+5*rng.Float64())/float64(np)), tight: 0.3 + 0.7*rng.Float64()}
		if i%4 == 3 {
			s.groups, s.mins, s.must = rng.IntN(3), rng.IntN(2), 0.2*rng.Float64()
		}
		m := randomModel(rng, s)
		want := runCBC(t, cbc, m, "lp", 60*time.Second)
		got, err := match.Solve(context.Background(), m, match.Options{TimeLimit: 20 * time.Second})
		if err != nil {
			t.Fatalf("model %d (%+v): %v", i, s, err)
		}
		if want.infeasible() || got.Status == match.Infeasible {
			if want.infeasible() != (got.Status == match.Infeasible) {
				t.Errorf("model %d (%+v): cbc %s, engine %s", i, s, want.status, got.Status)
			}
			continue
		}
		if !want.optimal() {
			continue // no reference
		}
		v, err := m.Value(got.Place)
		if err != nil {
			t.Errorf("model %d (%+v): the engine's placement breaks the model: %v", i, s, err)
			continue
		}
		tol := 1e-6 * math.Max(1, math.Abs(want.value))
		if v > want.value+tol {
			if again := runCBC(t, cbc, m, "lp", 60*time.Second, "-preprocess", "off"); again.optimal() && math.Abs(again.value-v) <= tol {
				t.Logf("model %d: cbc claimed %v optimal, %v with preprocessing off, as the engine", i, want.value, again.value)
				cbcWrong++
				want = again
			}
		}
		switch {
		case got.Bound < want.value-tol:
			t.Errorf("model %d (%+v): bound %v below cbc's optimum %v", i, s, got.Bound, want.value)
		case v > want.value+tol:
			t.Errorf("model %d (%+v): placement worth %v, above cbc's optimum %v", i, s, v, want.value)
		case got.Status == match.Optimal && math.Abs(v-want.value) > tol:
			t.Errorf("model %d (%+v): claims %v optimal, cbc proves %v", i, s, v, want.value)
		case got.Status == match.Optimal:
			proven++
		default:
			unproven++
		}
	}
	t.Logf("%d models: %d proven as cbc, %d sound but not proven in 20 s; cbc wrong under its defaults on %d",
		n, proven, unproven, cbcWrong)
}
