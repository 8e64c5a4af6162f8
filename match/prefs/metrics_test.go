package prefs

import (
	"math/rand/v2"
	"slices"
	"testing"

	"solidarity/match"
)

// naiveMetrics computes the envy counts straight from their definitions.
func naiveMetrics(m *match.Model, p *Prefs, assign []int) (justified, blocking, envy, strong int) {
	pos := func(l, i int) int {
		if k := slices.Index(p.Place[l], i); k >= 0 && listed(m, p, l, i) {
			return k
		}
		return len(m.Families) + 1
	}
	fits := func(i, l int, others func(g int) bool) bool {
		for d := range m.Dims {
			sum := m.Families[i].Need[d]
			for g, at := range assign {
				if at == l && g != i && others(g) {
					sum += m.Families[g].Need[d]
				}
			}
			if sum > m.Places[l].Cap[d] {
				return false
			}
		}
		return true
	}
	for i := range assign {
		je, bl, en := false, false, false
		for l := range m.Places {
			if !listed(m, p, l, i) || trueRank(p, i, l) >= trueRank(p, i, assign[i]) {
				continue
			}
			if fits(i, l, func(g int) bool { return pos(l, g) < pos(l, i) }) {
				bl = true
			}
			for j, at := range assign {
				if at != l || j == i || pos(l, i) >= pos(l, j) {
					continue
				}
				en = true
				if fits(i, l, func(g int) bool { return g != j }) {
					je = true
				}
			}
		}
		if je {
			justified++
		}
		if bl {
			blocking++
		}
		if en {
			envy++
		}
		for f2 := range assign {
			if strongEnvy(m, p, assign, i, f2) {
				strong++
			}
		}
	}
	return
}

func TestMetricsBrute(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	seen := [4]int{}
	for c := range 150 {
		m, p := randomMarket(rng)
		mk, err := newMarket(m, p)
		if err != nil {
			t.Fatal(err)
		}
		feasible(m, func(assign []int) {
			mt, err := mk.measure(assign)
			if err != nil {
				t.Fatalf("case %d: %v", c, err)
			}
			je, bl, en, se := naiveMetrics(m, p, assign)
			if mt.JustifiedEnvy != je || mt.Blocking != bl || mt.Envy != en || mt.StrongEnvy != se {
				t.Fatalf("case %d, %v: justified %d blocking %d envy %d strong %d; want %d %d %d %d",
					c, assign, mt.JustifiedEnvy, mt.Blocking, mt.Envy, mt.StrongEnvy, je, bl, en, se)
			}
			for k, v := range []int{je, bl, en, se} {
				if v > 0 {
					seen[k]++
				}
			}
			if mt.Placed+mt.Unplaced != len(m.Families) || mt.Placed != mt.Unranked+sum(mt.Ranks) {
				t.Fatalf("case %d: counts do not add up: %+v", c, mt)
			}
		})
	}
	for k, n := range seen {
		if n == 0 {
			t.Errorf("metric %d never positive: the markets are too easy", k)
		}
	}
}

func sum(xs []int) int {
	s := 0
	for _, x := range xs {
		s += x
	}
	return s
}

func TestMeasureRejectsOverCapacity(t *testing.T) {
	m := &match.Model{Dims: 2,
		Places:   []match.Place{{Cap: []int64{2, 1}}},
		Families: []match.Family{{Need: []int64{1, 1}, Arcs: []match.Arc{{Place: 0, Score: 1}}}, {Need: []int64{1, 1}, Arcs: []match.Arc{{Place: 0, Score: 2}}}}}
	p := &Prefs{Family: [][]int{{0}, {0}}, Place: [][]int{{1, 0}}}
	if _, err := Measure(m, p, []int{0, 0}); err == nil {
		t.Fatal("two families needing 1 of a capacity of 1 in dimension 1: no error")
	}
	mt, err := Measure(m, p, []int{0, -1})
	if err != nil {
		t.Fatal(err)
	}
	// Family 1 has the higher priority and would fit if family 0 left: justified envy.
	if mt.JustifiedEnvy != 1 || mt.Envy != 1 || mt.Score != 1 || !slices.Equal(mt.Unfilled, []int64{1, 0}) {
		t.Fatalf("%+v", mt)
	}
	if _, err := Measure(m, &Prefs{Family: [][]int{{0}, {0, 0}}, Place: [][]int{{1, 0}}}, []int{0, -1}); err == nil {
		t.Fatal("a place ranked twice: no error")
	}
}
