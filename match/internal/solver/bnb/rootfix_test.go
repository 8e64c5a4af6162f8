package bnb

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"solidarity/match/internal/solver"
)

// TestRootFixSkipsRemovedArcs: a model on which the root's reduced-cost fixing set an
// arc to 1 for the whole search although the knapsack bound had removed it (set it
// to 0) in the root LP: the arc had left the basis at its upper bound, 0, so its
// status was atUpper and its reduced cost read as the loss of setting it to 0. The
// search, held to the arc, proved 231.00 optimal; cbc proves 231.05.
func TestRootFixSkipsRemovedArcs(t *testing.T) {
	raw, err := os.ReadFile("testdata/rootfix-removed-arc.json")
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Optimum float64
		Model   *solver.Model
	}
	if err := json.Unmarshal(raw, &c); err != nil {
		t.Fatal(err)
	}
	s, err := solver.Solve(context.Background(), c.Model, solver.Options{}, testMethods())
	if err != nil {
		t.Fatal(err)
	}
	if s.Status != solver.Optimal || math.Abs(s.Value-c.Optimum) > 1e-6 || s.Bound < c.Optimum-1e-6 {
		t.Errorf("%s value %v bound %v, optimum %v", s.Status, s.Value, s.Bound, c.Optimum)
	}
}
