package match_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"solidarity"
	"solidarity/match"
)

// MustCompileSolve compiles and solves pr, failing the test on an error.
func MustCompileSolve(tb testing.TB, pr *match.Problem) (*match.Model, *match.Index, *match.Solution) {
	tb.Helper()
	m, idx, err := pr.Compile()
	if err != nil {
		tb.Fatalf("compile: %v", err)
	}
	sol, err := match.Solve(context.Background(), m, match.Options{})
	if err != nil {
		tb.Fatalf("solve: %v", err)
	}
	return m, idx, sol
}

// bruteBest returns the best value of m over every assignment with family f at place
// q (q = -2: anywhere), and whether there is one.
func bruteBest(m *match.Model, f, q int) (float64, bool) {
	n := len(m.Families)
	place := make([]int, n)
	best, found := math.Inf(-1), false
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			if v, err := m.Value(place); err == nil && v > best {
				best, found = v, true
			}
			return
		}
		opts := []int{-1}
		for _, a := range m.Families[i].Arcs {
			opts = append(opts, a.Place)
		}
		for _, p := range opts {
			if i == f && q != -2 && p != q {
				continue
			}
			place[i] = p
			rec(i + 1)
		}
	}
	rec(0)
	return best, found
}

// randomProblem is a small problem: up to 6 families, 2–3 places in one or two
// dimensions, maybe a group over the first two places, random components.
func randomProblem(r *rand.Rand) *match.Problem {
	dims := []string{"persons"}
	if r.IntN(2) == 0 {
		dims = append(dims, "children")
	}
	pr := &match.Problem{Dimensions: dims, Weights: &match.Weights{Links: 2, Preference: 1, Integration: 0.5}}
	states := []solidarity.MemberState{"DE", "FR", "ES"}
	np := 2 + r.IntN(2)
	for p := range np {
		c := make([]int64, len(dims))
		for d := range c {
			c[d] = int64(r.IntN(6))
		}
		pr.Places = append(pr.Places, match.PlaceEntry{ID: string(states[p]), State: states[p], Capacity: c})
	}
	if r.IntN(3) == 0 {
		c := make([]int64, len(dims))
		for d := range c {
			c[d] = int64(2 + r.IntN(5))
		}
		pr.Groups = append(pr.Groups, match.GroupEntry{ID: "G", Places: []string{"DE", "FR"}, Capacity: c})
	}
	nf := 2 + r.IntN(5)
	for f := range nf {
		need := make([]int64, len(dims))
		for d := range need {
			need[d] = int64(r.IntN(3))
		}
		need[0]++
		id := fmt.Sprintf("F%d", f)
		pr.Families = append(pr.Families, match.FamilyEntry{ID: id, Needs: need})
		for p := range np {
			if r.IntN(4) == 0 {
				continue
			}
			pr.Pairs = append(pr.Pairs, match.Pair{Family: id, Place: pr.Places[p].ID, Components: match.Components{
				Links: float64(r.IntN(3)), Preference: []float64{0, 0.25, 0.5, 1}[r.IntN(4)], Integration: float64(r.IntN(2)) * 0.5}})
		}
	}
	return pr
}

// TestExplainCostBruteForce: on random small problems the cost Explain gives for
// the next-best place is the solution's value less the best value, by enumeration,
// with the family pinned there; infeasible exactly when no assignment has it there.
func TestExplainCostBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 2027))
	checked := 0
	for trial := range 300 {
		pr := randomProblem(r)
		m, idx, sol := MustCompileSolve(t, pr)
		if best, _ := bruteBest(m, -1, -2); math.Abs(best-sol.Value) > 1e-6 {
			t.Fatalf("trial %d: solver value %v, brute force %v", trial, sol.Value, best)
		}
		for f := range m.Families {
			e, err := match.Explain(context.Background(), pr, m, idx, sol, f)
			if err != nil {
				t.Fatalf("trial %d family %d: %v", trial, f, err)
			}
			if e.Placed != (sol.Place[f] >= 0) {
				t.Fatalf("trial %d family %d: placed %v, solution %d", trial, f, e.Placed, sol.Place[f])
			}
			if e.Placed {
				w := pr.Weights
				sum := w.Links*e.Components.Links + w.Preference*e.Components.Preference + w.Integration*e.Components.Integration
				if math.Abs(sum-e.Score) > 1e-9 || math.Abs(e.Terms.Links+e.Terms.Preference+e.Terms.Integration-e.Score) > 1e-9 {
					t.Fatalf("trial %d family %d: score %v, components give %v, terms %+v", trial, f, e.Score, sum, e.Terms)
				}
			}
			if e.NextBest == nil {
				continue
			}
			q := slices.Index(idx.Places, e.NextBest.Place)
			best, ok := bruteBest(m, f, q)
			if ok != e.NextBest.Feasible {
				t.Fatalf("trial %d family %s at %s: feasible %v, brute force %v (%s)", trial, e.Family, e.NextBest.Place, e.NextBest.Feasible, ok, e.NextBest.Reason)
			}
			if ok {
				if !e.NextBest.Exact {
					t.Fatalf("trial %d: re-solve not proven optimal", trial)
				}
				if want := sol.Value - best; math.Abs(e.NextBest.Cost-want) > 1e-6 {
					t.Fatalf("trial %d family %s to %s: cost %v, brute force %v", trial, e.Family, e.NextBest.Place, e.NextBest.Cost, want)
				}
				checked++
			}
			// The next-best place is the compatible place with the highest score
			// other than the family's own.
			for _, a := range idx.Arcs[f] {
				if a.Place != sol.Place[f] && a.Score > e.NextBest.Score {
					t.Fatalf("trial %d family %s: %s scores %v, more than the next-best %s %v", trial, e.Family, idx.Places[a.Place], a.Score, e.NextBest.Place, e.NextBest.Score)
				}
			}
		}
	}
	if checked < 100 {
		t.Fatalf("only %d costs checked", checked)
	}
}

// TestExplainBinding: the capacity rows at a family's place are binding exactly when
// their slack is below the family's need, tight at zero slack; a group over the
// place counts too.
func TestExplainBinding(t *testing.T) {
	pr := &match.Problem{
		Dimensions: []string{"persons", "children"},
		Families: []match.FamilyEntry{
			{ID: "A", Needs: []int64{4, 0}},
			{ID: "B", Needs: []int64{2, 0}},
			{ID: "C", Needs: []int64{3, 0}},
		},
		Places: []match.PlaceEntry{
			{ID: "DE", State: "DE", Capacity: []int64{4, 5}},  // A fills persons exactly
			{ID: "FR", State: "FR", Capacity: []int64{10, 0}}, // B: slack 8
			{ID: "ES", State: "ES", Capacity: []int64{4, 0}},  // C: slack 1 < 3, not tight
		},
		Groups: []match.GroupEntry{{ID: "south", Places: []string{"FR", "ES"}, Capacity: []int64{6, 0}}},
		Pairs: []match.Pair{
			{Family: "A", Place: "DE", Components: match.Components{Preference: 1}},
			{Family: "A", Place: "FR", Components: match.Components{Preference: 0.5}},
			{Family: "B", Place: "FR", Components: match.Components{Links: 1}},
			{Family: "C", Place: "ES", Components: match.Components{Integration: 0.5}},
		},
	}
	m, idx, sol := MustCompileSolve(t, pr)
	want := map[string][]match.Binding{
		"A": {{Kind: "place", ID: "DE", Dimension: "persons", Placed: 4, Capacity: 4, Slack: 0, Need: 4, Tight: true}},
		"B": {{Kind: "group", ID: "south", Dimension: "persons", Placed: 5, Capacity: 6, Slack: 1, Need: 2}},
		"C": {
			{Kind: "place", ID: "ES", Dimension: "persons", Placed: 3, Capacity: 4, Slack: 1, Need: 3},
			{Kind: "group", ID: "south", Dimension: "persons", Placed: 5, Capacity: 6, Slack: 1, Need: 3},
		},
	}
	for f, id := range idx.Families {
		e, err := match.Explain(context.Background(), pr, m, idx, sol, f)
		if err != nil {
			t.Fatal(err)
		}
		if !e.Placed {
			t.Fatalf("%s not placed: %s", id, e.Text)
		}
		if !slices.Equal(e.Binding, want[id]) {
			t.Errorf("%s binding %+v, want %+v", id, e.Binding, want[id])
		}
	}
	// A's next-best is FR: FR alone holds 10 but the group 6, so with A (4) and B (2)
	// there, C (3) must leave ES.
	e, err := match.Explain(context.Background(), pr, m, idx, sol, 0)
	if err != nil {
		t.Fatal(err)
	}
	if e.NextBest == nil || e.NextBest.Place != "FR" || !e.NextBest.Feasible {
		t.Fatalf("next-best %+v", e.NextBest)
	}
	// Value 1 + 1 + 0.5 = 2.5; with A in FR: 0.5 + 1 (B) and C out (group 6 = 4 + 2).
	if math.Abs(e.NextBest.Cost-1) > 1e-9 || e.NextBest.Moved != 1 {
		t.Errorf("cost %v moved %d, want 1 and 1", e.NextBest.Cost, e.NextBest.Moved)
	}
	for _, w := range []string{"links", "preference", "integration", "next-best place is FR", "lower the total score by 1"} {
		if !strings.Contains(e.Text, w) {
			t.Errorf("text lacks %q: %s", w, e.Text)
		}
	}
}

// TestExplainUnplaced: an unplaced family's explanation names the full places, or
// says it has no compatible place; the pinned re-solve says when it is infeasible.
func TestExplainUnplaced(t *testing.T) {
	pr := &match.Problem{
		Dimensions: []string{"persons"},
		Families: []match.FamilyEntry{
			{ID: "big", Needs: []int64{5}, Must: true},
			{ID: "late", Needs: []int64{2}},
			{ID: "none", Needs: []int64{1}, Forbidden: []string{"DE"}},
		},
		Places: []match.PlaceEntry{{ID: "DE", State: "DE", Capacity: []int64{6}}},
		Pairs: []match.Pair{
			{Family: "big", Place: "DE", Components: match.Components{Preference: 1}},
			{Family: "late", Place: "DE", Components: match.Components{Preference: 1}},
			{Family: "none", Place: "DE", Components: match.Components{Preference: 1}},
		},
	}
	m, idx, sol := MustCompileSolve(t, pr)
	late, _ := match.FamilyIndex(idx, "late")
	e, err := match.Explain(context.Background(), pr, m, idx, sol, late)
	if err != nil {
		t.Fatal(err)
	}
	if e.Placed || len(e.Full) != 1 || e.Full[0].Place != "DE" || !strings.Contains(e.Why, "every compatible place is full: DE") {
		t.Fatalf("late: %+v", e)
	}
	if e.NextBest == nil || e.NextBest.Feasible || !strings.Contains(e.Text, "infeasible") {
		t.Errorf("pinning late to DE (where big must go) should be infeasible: %+v; %s", e.NextBest, e.Text)
	}
	if why, full := match.WhyUnplaced(pr, m, idx, sol, late); why != e.Why || len(full) != 1 {
		t.Errorf("WhyUnplaced %q %v, Explain %q", why, full, e.Why)
	}
	none, _ := match.FamilyIndex(idx, "none")
	if e, err = match.Explain(context.Background(), pr, m, idx, sol, none); err != nil {
		t.Fatal(err)
	}
	if e.Placed || e.Why != "it has no compatible place" || e.NextBest != nil {
		t.Errorf("none: %+v", e)
	}
}

// TestOverride: a pin and forbids land on a copy; the original is unchanged; bad IDs
// and a pin to a forbidden place are EINVALID.
func TestOverride(t *testing.T) {
	pr := &match.Problem{Dimensions: []string{"persons"},
		Families: []match.FamilyEntry{{ID: "A", Needs: []int64{1}, Forbidden: []string{"ES"}}},
		Places:   []match.PlaceEntry{{ID: "DE", State: "DE", Capacity: []int64{1}}, {ID: "FR", State: "FR", Capacity: []int64{1}}, {ID: "ES", State: "ES", Capacity: []int64{1}}}}
	out, err := match.Override(pr, "A", "DE", []string{"FR", "ES"})
	if err != nil {
		t.Fatal(err)
	}
	if f := out.Families[0]; f.Pinned != "DE" || !slices.Equal(f.Forbidden, []string{"ES", "FR"}) {
		t.Errorf("override %+v", f)
	}
	if f := pr.Families[0]; f.Pinned != "" || !slices.Equal(f.Forbidden, []string{"ES"}) {
		t.Errorf("original changed: %+v", f)
	}
	for _, bad := range []struct {
		family, pin string
		forbid      []string
	}{{"B", "", nil}, {"A", "IT", nil}, {"A", "", []string{"IT"}}, {"A", "ES", nil}} {
		if _, err := match.Override(pr, bad.family, bad.pin, bad.forbid); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Errorf("override %+v: %v, want EINVALID", bad, err)
		}
	}
}

// TestResolveStable: after a forbid, the families the forbid does not concern stay
// where they were, even where another placement of the same value exists; only the
// forbidden family and those that must make room move.
func TestResolveStable(t *testing.T) {
	pr := &match.Problem{Dimensions: []string{"persons"},
		Places: []match.PlaceEntry{{ID: "DE", State: "DE", Capacity: []int64{10}}, {ID: "FR", State: "FR", Capacity: []int64{10}},
			{ID: "ES", State: "ES", Capacity: []int64{2}}}}
	for i := range 8 {
		id := fmt.Sprintf("F%d", i)
		pr.Families = append(pr.Families, match.FamilyEntry{ID: id, Needs: []int64{1}})
		// Indifferent between DE and FR: many optimal solutions.
		pr.Pairs = append(pr.Pairs, match.Pair{Family: id, Place: "DE", Components: match.Components{Preference: 1}},
			match.Pair{Family: id, Place: "FR", Components: match.Components{Preference: 1}})
	}
	pr.Families = append(pr.Families, match.FamilyEntry{ID: "X", Needs: []int64{2}})
	pr.Pairs = append(pr.Pairs, match.Pair{Family: "X", Place: "ES", Components: match.Components{Preference: 1, Links: 1}},
		match.Pair{Family: "X", Place: "DE", Components: match.Components{Preference: 0.5}})
	_, idx, sol := MustCompileSolve(t, pr)
	before := map[string]string{}
	for f, p := range sol.Place {
		if p >= 0 {
			before[idx.Families[f]] = idx.Places[p]
		}
	}
	if before["X"] != "ES" {
		t.Fatalf("X at %q, want ES", before["X"])
	}
	pr2, err := match.Override(pr, "X", "", []string{"ES"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := match.Resolve(context.Background(), pr2, sol, idx, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Solution.Status != match.Optimal || math.Abs(res.Solution.Value-(8+0.5)) > 1e-9 {
		t.Fatalf("re-solve %s value %v", res.Solution.Status, res.Solution.Value)
	}
	if !slices.Equal(res.Moved, []string{"X"}) {
		t.Errorf("moved %v, want only X", res.Moved)
	}
	// A pin that needs room: X pinned to DE when DE is full moves one family only.
	pr3 := *pr
	pr3.Places = slices.Clone(pr.Places)
	pr3.Places[0].Capacity = []int64{8}
	pr3.Places[1].Capacity = []int64{4}
	_, idx3, sol3 := MustCompileSolve(t, &pr3)
	pr4, err := match.Override(&pr3, "X", "DE", nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err = match.Resolve(context.Background(), pr4, sol3, idx3, match.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// DE 8 + FR 4 hold 12; X (2) in DE and the 8 others: 10 persons, so others
	// move out of DE only as far as X needs.
	var inDE int
	for f, p := range sol3.Place {
		if p == 0 && idx3.Families[f] != "X" {
			inDE++
		}
	}
	wantMoved := 1 + max(0, inDE+2-8)
	if len(res.Moved) != wantMoved {
		t.Errorf("moved %v, want %d families (X and those making room)", res.Moved, wantMoved)
	}
}
