package match_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"solidarity"
	"solidarity/match"
)

// indexLeak matches a solver index left in a reason: "family 0", "place 1",
// "dimension 0", "group 2", "minimum 0:".
var indexLeak = regexp.MustCompile(`\b(family|place|group|dimension) \d+\b|\bminimum \d+[:(]`)

// TestNamesRewritesSolverReasons: each form of reason the solvers give, in indices,
// reads with the problem's IDs and dimension names.
func TestNamesRewritesSolverReasons(t *testing.T) {
	idx := &match.Index{Families: []string{"F-17", "F-23"}, Places: []string{"Roma", "DE"},
		States: []solidarity.MemberState{"IT", "DE"}, Groups: []string{"north"},
		Mins: []match.IndexMin{{State: "DE", Min: 4}}, Dimensions: []string{"adults", "children"}}
	for _, c := range []struct{ in, want string }{
		{"family 0 must be placed but has no allowed place", "family F-17 must be placed but has no allowed place"},
		{"family 1 must be placed but no place has room: place 0 dimension 1 capacity 0 < need 1",
			"family F-23 must be placed but no place has room: the capacity of place Roma (IT) in children is 0, the family needs 1"},
		{"family 0 must be placed but no place has room: group 0 (with place 1) dimension 0 capacity 2 < need 3",
			"family F-17 must be placed but no place has room: the capacity of group north (with place DE) in adults is 2, the family needs 3"},
		{"place 1: the families that must go there (0, 1) need 5 > capacity 3 in dimension 0",
			"place DE: the families that must go there (F-17, F-23) need 5 > capacity 3 in adults"},
		{"minimum 0: all the families that may go to its places need only 2 < minimum 4 in persons",
			"the minimum intake of DE: all the families that may go to its places need only 2 < minimum 4 in persons"},
		{"family 0 must be placed, but the families that must be placed cannot all fit: place 0 dimension 0 capacity 1 full",
			"family F-17 must be placed, but the families that must be placed cannot all fit: the capacity of place Roma (IT) in adults is 1 full"},
		{"family 9 must be placed but has no allowed place", "family 9 must be placed but has no allowed place"}, // out of range: kept
		// Places whose IDs are numbers: what one pass wrote is not read again.
		{"place 0 dimension 0 capacity 0 < need 1 at family 1", "the capacity of place Roma (IT) in adults is 0, the family needs 1 at family F-23"},
		{"", ""},
	} {
		if got := idx.Names(c.in); got != c.want {
			t.Errorf("Names(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestInfeasibleReasonsNameIDs: two families that must be placed and overfill their
// only place make the problem infeasible; the result's reason names them, the place and the dimension,
// not the solver's indices. The next-best place of an explanation that the family
// alone overfills is infeasible with the rows that say why, by name.
// TestNamesNumericIDs: with numeric place and family IDs, each reference is named
// once, by its index: "place 0" is the place whose ID is "1", never then place 1.
func TestNamesNumericIDs(t *testing.T) {
	idx := &match.Index{Families: []string{"1", "2"}, Places: []string{"1", "2"},
		States: []solidarity.MemberState{"DE", "FR"}, Dimensions: []string{"persons"}}
	got := idx.Names("family 0 must be placed but no place has room: place 0 dimension 0 capacity 0 < need 1")
	want := "family 1 must be placed but no place has room: the capacity of place 1 (DE) in persons is 0, the family needs 1"
	if got != want {
		t.Fatalf("Names\n got %q\nwant %q", got, want)
	}
}

func TestInfeasibleReasonsNameIDs(t *testing.T) {
	pr := &match.Problem{Dimensions: []string{"adults", "children"},
		Families: []match.FamilyEntry{{ID: "F-17", Needs: []int64{3, 1}, Must: true}, {ID: "F-18", Needs: []int64{2, 0}, Must: true}},
		Places:   []match.PlaceEntry{{ID: "Roma", State: "IT", Capacity: []int64{4, 5}}},
		Pairs:    []match.Pair{{Family: "F-17", Place: "Roma"}, {Family: "F-18", Place: "Roma"}}}
	_, idx, sol := MustCompileSolve(t, pr)
	if sol.Status != match.Infeasible {
		t.Fatalf("status %s, want infeasible", sol.Status)
	}
	r := idx.Result(sol)
	for _, want := range []string{"F-17", "F-18", "Roma (IT)", "adults"} {
		if !strings.Contains(r.Reason, want) {
			t.Errorf("reason %q does not name %q", r.Reason, want)
		}
	}
	if indexLeak.MatchString(r.Reason) {
		t.Errorf("reason %q leaks a solver index", r.Reason)
	}

	pr = &match.Problem{Dimensions: []string{"adults", "children"},
		Families: []match.FamilyEntry{{ID: "F-23", Needs: []int64{3, 1}}},
		Places:   []match.PlaceEntry{{ID: "Roma", State: "IT", Capacity: []int64{2, 5}}, {ID: "Berlin", State: "DE", Capacity: []int64{5, 5}}},
		Pairs: []match.Pair{{Family: "F-23", Place: "Roma", Components: match.Components{Links: 1}},
			{Family: "F-23", Place: "Berlin", Components: match.Components{Links: 0.5}}}}
	m, idx, sol := MustCompileSolve(t, pr)
	e, err := match.Explain(context.Background(), pr, m, idx, sol, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e.Place != "Berlin" || e.NextBest == nil || e.NextBest.Place != "Roma" || e.NextBest.Feasible {
		t.Fatalf("explanation %+v, next best %+v: want Berlin, Roma infeasible", e, e.NextBest)
	}
	rows := e.NextBest.Rows
	if len(rows) != 1 || rows[0].ID != "Roma" || rows[0].Dimension != "adults" || rows[0].Capacity != 2 || rows[0].Need != 3 {
		t.Errorf("next-best rows %+v, want Roma's adults row: capacity 2, need 3", rows)
	}
	for _, s := range []string{e.NextBest.Reason, e.Text} {
		if indexLeak.MatchString(s) {
			t.Errorf("%q leaks a solver index", s)
		}
	}
}
