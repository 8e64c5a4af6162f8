package simulation_test

import (
	"context"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/apportion"
	"solidarity/simulation"
)

func mustRun(t interface {
	Helper()
	Fatal(...any)
}, s *simulation.Scenario, runs int, seed uint64) *simulation.Result {
	t.Helper()
	r, err := simulation.Run(context.Background(), s, runs, seed)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// Fair shares sum to the reference number with a method that sums (largest
// remainder, Webster), and exceed it by fewer than one per state with round-up
// (Art. 66; apportion); what the benefitting states keep and the others owe make up
// the fair shares exactly.
func TestPropertyFairSharesSumToReference(t *testing.T) {
	base := year(t)
	rapid.Check(t, func(t *rapid.T) {
		s := *base
		ref := rapid.Int64Range(1, 200_000).Draw(t, "reference")
		s.Params.Reference = known(float64(ref), "reference")
		s.Params.Method = rapid.SampledFrom(apportion.Methods()).Draw(t, "method")
		r := mustRun(t, &s, 0, 1)
		var fair int64
		var owed, kept float64
		for _, st := range r.States {
			fair += st.FairShare
			if st.Benefitting {
				kept += float64(st.FairShare)
			} else {
				owed += st.Obligation
			}
		}
		if s.Params.Method == apportion.RoundUp {
			if fair < ref || fair >= ref+int64(len(r.States)) {
				t.Fatalf("round-up: fair shares sum to %d for a reference of %d", fair, ref)
			}
		} else if fair != ref {
			t.Fatalf("%s: fair shares sum to %d, want the reference %d", s.Params.Method, fair, ref)
		}
		if math.Abs(owed+kept-float64(fair)) > 1e-6 {
			t.Fatalf("obligations %v + kept %v ≠ fair shares %d", owed, kept, fair)
		}
	})
}

// With every state paying, nobody is relocated and the payments are the fair shares
// times the price (Art. 64(2): EUR 20 000).
func TestPropertyEveryonePays(t *testing.T) {
	base := year(t)
	rapid.Check(t, func(t *rapid.T) {
		s := *base
		s.DefaultChoice = simulation.Choice{Pay: 1, Known: true}
		price := float64(rapid.IntRange(1, 300_000).Draw(t, "price"))
		s.Params.Price = known(price, "price")
		s.Params.Reference = known(float64(rapid.Int64Range(1, 100_000).Draw(t, "reference")), "reference")
		r := mustRun(t, &s, rapid.IntRange(0, 50).Draw(t, "runs"), rapid.Uint64().Draw(t, "seed"))
		if r.Union.Relocations != (simulation.Band{}) {
			t.Fatalf("relocations %v with everyone paying", r.Union.Relocations)
		}
		var want float64
		for _, st := range r.States {
			if !st.Benefitting {
				want += float64(st.FairShare) * price
			}
			if st.Relocated != (simulation.Band{}) || st.Form != "pay" {
				t.Fatalf("%s: relocated %v, form %q", st.State, st.Relocated, st.Form)
			}
		}
		if got := r.Union.Payments.Median; math.Abs(got-want) > 1e-6*want {
			t.Fatalf("payments %v, want Σ fair shares × price = %v", got, want)
		}
	})
}

// Raising a state's arrivals never lowers its pressure, so never takes away its
// eligibility to request a deduction (Art. 61(1)).
func TestPropertyArrivalsNeverLowerEligibility(t *testing.T) {
	base := year(t)
	states := solidarity.PartIV()
	rapid.Check(t, func(t *rapid.T) {
		st := rapid.SampledFrom(states).Draw(t, "state")
		extra := rapid.Float64Range(0, 50_000).Draw(t, "extra")
		month := rapid.IntRange(0, 11).Draw(t, "month")
		before := mustRun(t, base, 0, 1)
		s := *base
		s.Arrivals = append(slices.Clone(base.Arrivals), simulation.Arrival{Month: month, State: st, Mean: extra})
		after := mustRun(t, &s, 0, 1)
		b, a := find(before, st), find(after, st)
		if a.Pressure.Median < b.Pressure.Median-1e-12 {
			t.Fatalf("%s: pressure fell from %v to %v with %v more arrivals", st, b.Pressure.Median, a.Pressure.Median, extra)
		}
		if b.MayRequestDeduction && !a.MayRequestDeduction {
			t.Fatalf("%s: lost its eligibility with more arrivals", st)
		}
	})
}

func find(r *simulation.Result, c solidarity.MemberState) simulation.StateResult {
	for _, s := range r.States {
		if s.State == c {
			return s
		}
	}
	panic("no state " + c)
}

// The same seed gives the same result, and the order of the states changes nothing
// but the order of the rows.
func TestPropertySeedAndOrder(t *testing.T) {
	base := year(t)
	rapid.Check(t, func(t *rapid.T) {
		seed := rapid.Uint64().Draw(t, "seed")
		runs := rapid.IntRange(1, 300).Draw(t, "runs")
		a, b := mustRun(t, base, runs, seed), mustRun(t, base, runs, seed)
		if !reflect.DeepEqual(a, b) {
			t.Fatal("two runs with the same seed differ")
		}
		s := *base
		s.Participating = slices.Clone(base.Participating)
		rng := rand.New(rand.NewPCG(seed, 1))
		rng.Shuffle(len(s.Participating), func(i, j int) { s.Participating[i], s.Participating[j] = s.Participating[j], s.Participating[i] })
		c := mustRun(t, &s, runs, seed)
		for _, st := range a.States {
			other := find(c, st.State)
			if !close(reflect.ValueOf(st), reflect.ValueOf(other)) {
				t.Fatalf("%s differs when the states are shuffled:\n%+v\n%+v", st.State, st, other)
			}
		}
		if !close(reflect.ValueOf(a.Union), reflect.ValueOf(c.Union)) || !close(reflect.ValueOf(a.Coverage), reflect.ValueOf(c.Coverage)) {
			t.Fatalf("Union differs when the states are shuffled:\n%+v\n%+v", a.Union, c.Union)
		}
	})
}

// close compares two values field by field, floats to a relative 1e-9 (sums in
// another order round differently in the last bits).
func close(a, b reflect.Value) bool {
	switch a.Kind() {
	case reflect.Float64:
		x, y := a.Float(), b.Float()
		return math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y)))
	case reflect.Struct:
		for i := range a.NumField() {
			if !close(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if a.Len() != b.Len() {
			return false
		}
		for i := range a.Len() {
			if !close(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}
