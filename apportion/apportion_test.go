package apportion_test

import (
	"math/big"
	"slices"
	"testing"

	"pgregory.net/rapid"

	"solidarity/apportion"
)

func genWeights(t *rapid.T) []*big.Rat {
	n := rapid.IntRange(1, 30).Draw(t, "n")
	w := make([]*big.Rat, n)
	any := false
	for i := range w {
		v := rapid.Int64Range(0, 100_000_000).Draw(t, "w")
		any = any || v > 0
		w[i] = big.NewRat(v, rapid.Int64Range(1, 1000).Draw(t, "d"))
	}
	if !any {
		w[0] = big.NewRat(1, 1)
	}
	return w
}

func sum(xs []int64) int64 {
	var s int64
	for _, x := range xs {
		s += x
	}
	return s
}

// Every method keeps its promise about the sum and the distance to the quota.
func TestPromises(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWeights(t)
		total := rapid.Int64Range(0, 60_000).Draw(t, "total")
		q, err := apportion.Quotas(total, w)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range apportion.Methods() {
			got, err := apportion.Apportion(m, total, w)
			if err != nil {
				t.Fatal(err)
			}
			s := sum(got)
			switch m {
			case apportion.LargestRemainder, apportion.Webster:
				if s != total {
					t.Fatalf("%s: sum %d, want %d", m, s, total)
				}
			case apportion.RoundUp:
				if s < total || s >= total+int64(len(w)) {
					t.Fatalf("round-up: sum %d outside [%d, %d)", s, total, total+int64(len(w)))
				}
			}
			for i, x := range got {
				if x < 0 {
					t.Fatalf("%s: negative seat count", m)
				}
				diff := new(big.Rat).Sub(big.NewRat(x, 1), q[i])
				switch m {
				case apportion.LargestRemainder:
					if diff.Cmp(big.NewRat(-1, 1)) <= 0 || diff.Cmp(big.NewRat(1, 1)) >= 0 {
						t.Fatalf("hamilton: %d is not within one of quota %s", x, q[i].FloatString(3))
					}
				case apportion.RoundUp:
					if diff.Sign() < 0 || diff.Cmp(big.NewRat(1, 1)) >= 0 {
						t.Fatalf("round-up: %d is not the ceiling of %s", x, q[i].FloatString(3))
					}
				}
				if w[i].Sign() == 0 && x != 0 {
					t.Fatalf("%s: zero weight got %d", m, x)
				}
			}
		}
	})
}

// Webster is house-monotone: one more seat never takes a seat from anyone.
func TestWebsterNoAlabamaParadox(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWeights(t)
		total := rapid.Int64Range(0, 5_000).Draw(t, "total")
		a, _ := apportion.Apportion(apportion.Webster, total, w)
		b, _ := apportion.Apportion(apportion.Webster, total+1, w)
		for i := range a {
			if b[i] < a[i] {
				t.Fatalf("state %d lost a seat going from %d to %d: %d -> %d", i, total, total+1, a[i], b[i])
			}
		}
	})
}

// Webster's result is the divisor allocation: some divisor d rounds every quota to it.
// Checked through the equivalent condition max_i q_i/(s_i+½) <= min_{s_j>0} q_j/(s_j-½).
func TestWebsterIsDivisorMethod(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		w := genWeights(t)
		total := rapid.Int64Range(1, 20_000).Draw(t, "total")
		q, _ := apportion.Quotas(total, w)
		s, _ := apportion.Apportion(apportion.Webster, total, w)
		var maxNext, minLast *big.Rat
		for i := range q {
			next := new(big.Rat).Quo(q[i], big.NewRat(2*s[i]+1, 2))
			if maxNext == nil || next.Cmp(maxNext) > 0 {
				maxNext = next
			}
			if s[i] > 0 {
				last := new(big.Rat).Quo(q[i], big.NewRat(2*s[i]-1, 2))
				if minLast == nil || last.Cmp(minLast) < 0 {
					minLast = last
				}
			}
		}
		if minLast != nil && maxNext.Cmp(minLast) > 0 {
			t.Fatalf("not a divisor allocation: next priority %s > last included %s", maxNext.FloatString(6), minLast.FloatString(6))
		}
	})
}

// Relabelling (permuting) the inputs permutes the result. Only states with identical
// weights may trade places (some rule must break their tie), so results are compared
// per weight as sorted lists.
func TestPermutationInvariance(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(2, 27).Draw(t, "n")
		w := make([]*big.Rat, n)
		for i := range w {
			w[i] = big.NewRat(rapid.Int64Range(1, 1000).Draw(t, "w"), 1)
		}
		perm := rapid.Permutation(seq(n)).Draw(t, "perm")
		pw := make([]*big.Rat, n)
		for i, p := range perm {
			pw[i] = w[p]
		}
		total := rapid.Int64Range(0, 30_000).Draw(t, "total")
		for _, m := range apportion.Methods() {
			a, _ := apportion.Apportion(m, total, w)
			b, _ := apportion.Apportion(m, total, pw)
			byWeight := func(ws []*big.Rat, xs []int64) map[string][]int64 {
				out := map[string][]int64{}
				for i := range ws {
					out[ws[i].RatString()] = append(out[ws[i].RatString()], xs[i])
				}
				for _, v := range out {
					slices.Sort(v)
				}
				return out
			}
			ga, gb := byWeight(w, a), byWeight(pw, b)
			for k, v := range ga {
				if !slices.Equal(v, gb[k]) {
					t.Fatalf("%s: relabelling changed the states of weight %s: %v vs %v", m, k, v, gb[k])
				}
			}
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// The textbook example where Hamilton shows the Alabama paradox: with populations
// 6, 6, 2 the third state gets 2 of 10 seats but 1 of 11 (Balinski & Young).
func TestHamiltonAlabamaExample(t *testing.T) {
	w := []*big.Rat{big.NewRat(6, 1), big.NewRat(6, 1), big.NewRat(2, 1)}
	a, _ := apportion.Apportion(apportion.LargestRemainder, 10, w)
	b, _ := apportion.Apportion(apportion.LargestRemainder, 11, w)
	if a[2] != 2 || b[2] != 1 {
		t.Fatalf("got %v and %v, want the paradox 2 -> 1 for the small state", a, b)
	}
	wa, _ := apportion.Apportion(apportion.Webster, 10, w)
	wb, _ := apportion.Apportion(apportion.Webster, 11, w)
	if wb[2] < wa[2] {
		t.Fatalf("webster lost a seat: %v -> %v", wa, wb)
	}
}

func TestTable(t *testing.T) {
	w := []*big.Rat{big.NewRat(216890, 1), big.NewRat(160021, 1), big.NewRat(623089, 1)}
	for _, tc := range []struct {
		m    apportion.Method
		want []int64
	}{
		{apportion.RoundUp, []int64{4555, 3361, 13085}},
		{apportion.LargestRemainder, []int64{4555, 3360, 13085}},
		{apportion.Webster, []int64{4555, 3360, 13085}},
	} {
		got, err := apportion.Apportion(tc.m, 21000, w)
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Errorf("%s: got %v, want %v", tc.m, got, tc.want)
				break
			}
		}
	}
	if _, err := apportion.ParseMethod("dhondt"); err == nil {
		t.Error("unknown method accepted")
	}
	if _, err := apportion.Apportion("x", 1, w); err == nil {
		t.Error("unknown method accepted by Apportion")
	}
	if _, err := apportion.Apportion(apportion.Webster, 1, []*big.Rat{big.NewRat(0, 1)}); err == nil {
		t.Error("all-zero weights accepted")
	}
}
