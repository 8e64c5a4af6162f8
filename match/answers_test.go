package match_test

import (
	"context"
	"fmt"
	"hash/fnv"
	"testing"

	"solidarity/match"
)

// TestAnswersKept pins the Lagrangian method's answer on generated models whose
// greedy start needs the repairs (families that must be placed, balance minimums),
// at the value, bound and placement the engine gave before the solvers moved into
// packages of their own (issue 13). A search that walks a place's families in
// another order, or repacks other places, moves these figures: the placement hash
// says which families went where.
func TestAnswersKept(t *testing.T) {
	for _, c := range []struct {
		seed         uint64
		value, bound float64
		hash         uint64
	}{
		{1, 3684.8458, 3693.1150380736, 0xcfd7f5440c2366bb},
		{4, 3631.9676, 3637.3822762715, 0xf89d1a28f7d08961},
	} {
		m, _, err := match.Generate(c.seed, match.GenConfig{Families: 2000, Groups: true, Balance: new(0.5), Must: 0.3}).Compile()
		if err != nil {
			t.Fatal(err)
		}
		s, err := match.Solve(context.Background(), m, match.Options{Gap: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		h := fnv.New64a()
		fmt.Fprint(h, s.Place)
		if got := fmt.Sprintf("%.4f %.10f %x", s.Value, s.Bound, h.Sum64()); got != fmt.Sprintf("%.4f %.10f %x", c.value, c.bound, c.hash) {
			t.Errorf("seed %d: value, bound, placement %s; want %.4f %.10f %x", c.seed, got, c.value, c.bound, c.hash)
		}
	}
}
