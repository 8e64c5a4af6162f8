package knapsack

import (
	"math"
	"math/rand/v2"
	"testing"
)

type item struct {
	w  []int
	pr float64
}

func randomInstance(r *rand.Rand) (Space, []item) {
	D := 1 + r.IntN(3)
	caps := make([]int, D)
	for d := range caps {
		caps[d] = r.IntN(5)
	}
	sp, ok := NewSpace(caps, 1<<20)
	if !ok {
		panic("space")
	}
	items := make([]item, 1+r.IntN(7))
	for i := range items {
		w := make([]int, D)
		for d := range w {
			w[d] = r.IntN(4)
		}
		items[i] = item{w: w, pr: float64(r.IntN(21)-5) / 4}
	}
	return sp, items
}

// coords is the state at index s.
func (sp Space) coords(s int) []int {
	co := make([]int, len(sp.Caps))
	for d := range co {
		co[d] = s / sp.Stride[d] % (sp.Caps[d] + 1)
	}
	return co
}

// brute is, by enumeration of every subset, the best profit of the subsets (with
// every item of forced among them) that fit in state co, or −Inf when none does.
func brute(items []item, co []int, forced int) float64 {
	best := math.Inf(-1)
	for mask := range 1 << len(items) {
		if mask&forced != forced {
			continue
		}
		if v, ok := subset(items, mask, co); ok {
			best = math.Max(best, v)
		}
	}
	return best
}

func subset(items []item, mask int, co []int) (float64, bool) {
	load := make([]int, len(co))
	v := 0.0
	for i, it := range items {
		if mask&(1<<i) != 0 {
			v += it.pr
			for d := range load {
				load[d] += it.w[d]
			}
		}
	}
	return v, Fits(co, load)
}

// TestStepBrute: the program of Step, in a single row updated in place and in a row
// per item, is worth at every state the best subset that fits there, and Trace
// gives a subset that fits and is worth it.
func TestStepBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		sp, items := randomInstance(r)
		S, n := sp.States, len(items)
		single := make([]float64, S)
		rows := make([]float64, (n+1)*S)
		take := make([]bool, n*S)
		for i, it := range items {
			off := sp.Offset(it.w)
			sp.Step(it.w, off, it.pr, 0, single, single, nil, sp.Caps)
			prev, cur := rows[i*S:(i+1)*S], rows[(i+1)*S:(i+2)*S]
			copy(cur, prev)
			sp.Step(it.w, off, it.pr, 1e-12, prev, cur, take[i*S:(i+1)*S], sp.Caps)
		}
		for s := range S {
			co := sp.coords(s)
			want := brute(items, co, 0)
			if math.Abs(single[s]-want) > 1e-9 || math.Abs(rows[n*S+s]-want) > 1e-9 {
				t.Fatalf("trial %d state %v: in place %v, by rows %v, best subset %v", trial, co, single[s], rows[n*S+s], want)
			}
		}
		mask := 0
		off := func(i int) int { return sp.Offset(items[i].w) }
		sp.Trace(take, n, S-1, off, func(i int) { mask |= 1 << i })
		if v, ok := subset(items, mask, sp.Caps); !ok || math.Abs(v-rows[n*S+S-1]) > 1e-9 {
			t.Fatalf("trial %d: traced subset %b worth %v (fits %v), program %v", trial, mask, v, ok, rows[n*S+S-1])
		}
	}
}

// TestGrowForceBrute: a program that grows its region with the items (each item on
// the states up to the items' total weight so far, capped, Grow filling the new
// states) and takes the first items as forced (Force) is worth, at the full corner,
// the best subset that holds the forced items, or −Inf when they do not fit.
func TestGrowForceBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for trial := range 500 {
		sp, items := randomInstance(r)
		D, S := len(sp.Caps), sp.States
		nForced := r.IntN(min(3, len(items)) + 1)
		dp := make([]float64, S)
		tk := make([]bool, S)
		prev := make([]int, D)
		for j, it := range items {
			hi := make([]int, D)
			for d := range D {
				hi[d] = min(sp.Caps[d], prev[d]+it.w[d])
			}
			sp.Grow(dp, prev, hi)
			if j < nForced {
				sp.Force(it.w, sp.Offset(it.w), it.pr, dp, tk, hi)
			} else {
				sp.Step(it.w, sp.Offset(it.w), it.pr, 0, dp, dp, tk, hi)
			}
			prev = hi
		}
		// The last corner's value is the full corner's (at most semantics).
		got := dp[sp.Offset(prev)]
		want := brute(items, sp.Caps, 1<<nForced-1)
		if !(got == want || math.Abs(got-want) <= 1e-9) {
			t.Fatalf("trial %d (%d forced): program %v, best subset %v", trial, nForced, got, want)
		}
	}
}

func TestNewSpaceLimit(t *testing.T) {
	if _, ok := NewSpace([]int{9, 9}, 99); ok {
		t.Fatal("100 states accepted under a limit of 99")
	}
	sp, ok := NewSpace([]int{9, 9}, 100)
	if !ok || sp.States != 100 || sp.Stride[0] != 1 || sp.Stride[1] != 10 {
		t.Fatalf("space %+v, %v", sp, ok)
	}
}
