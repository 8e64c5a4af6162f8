package match_test

import (
	"context"
	"errors"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"solidarity"
	"solidarity/match"
)

// docExample returns the JSON blocks of docs/match-problem.md.
func docExamples(tb testing.TB) []string {
	tb.Helper()
	b, err := os.ReadFile("../docs/match-problem.md")
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, m := range regexp.MustCompile("(?s)```json\n(.*?)```").FindAllStringSubmatch(string(b), -1) {
		out = append(out, m[1])
	}
	if len(out) == 0 {
		tb.Fatal("no JSON example in docs/match-problem.md")
	}
	return out
}

func mustParse(tb testing.TB, s string) *match.Problem {
	tb.Helper()
	p, err := match.ParseProblem("test.json", strings.NewReader(s))
	if err != nil {
		tb.Fatal(err)
	}
	return p
}

func mustCompile(tb testing.TB, p *match.Problem) (*match.Model, *match.Index) {
	tb.Helper()
	m, idx, err := p.Compile()
	if err != nil {
		tb.Fatal(err)
	}
	return m, idx
}

// The documented example compiles to the model the documentation describes.
func TestCompileDocExample(t *testing.T) {
	p := mustParse(t, docExamples(t)[0])
	m, idx := mustCompile(t, p)
	if m.Dims != 3 || len(m.Families) != 5 || len(m.Places) != 4 || len(m.Groups) != 2 {
		t.Fatalf("model %d dims, %d families, %d places, %d groups", m.Dims, len(m.Families), len(m.Places), len(m.Groups))
	}
	// F1 must; F3 pinned: must, one arc; F4 forbidden from Lyon: one arc left.
	if f := m.Families[0]; !f.Must || len(f.Arcs) != 2 || f.Arcs[0].Place != 0 || f.Arcs[1].Place != 2 {
		t.Errorf("F1 = %+v", f)
	}
	// F1 at Leipzig: links 0.2 + preference 1 + 2 × integration 0.41.
	if s := m.Families[0].Arcs[0].Score; s < 2.02-1e-12 || s > 2.02+1e-12 {
		t.Errorf("F1 Leipzig score %v, want 2.02", s)
	}
	if f := m.Families[2]; !f.Must || len(f.Arcs) != 1 || f.Arcs[0].Place != 0 {
		t.Errorf("F3 (pinned) = %+v", f)
	}
	if f := m.Families[3]; f.Must || len(f.Arcs) != 1 || f.Arcs[0].Place != 1 {
		t.Errorf("F4 (forbidden Lyon) = %+v", f)
	}
	// Arcs in place order, whatever the order of the pairs.
	if f := m.Families[1]; len(f.Arcs) != 2 || f.Arcs[0].Place != 1 || f.Arcs[1].Place != 3 {
		t.Errorf("F2 arcs %+v", f.Arcs)
	}
	if g := m.Groups[0]; !slices.Equal(g.Places, []int{0, 1}) || !slices.Equal(g.Cap, []int64{4, 4, 1}) {
		t.Errorf("group DE %+v", g)
	}
	if g := m.Groups[1]; !slices.Equal(g.Places, []int{1, 2}) {
		t.Errorf("group north %+v", g)
	}
	// The documented minimums: DE 2, FR 1, PT 0.
	want := map[solidarity.MemberState]int64{"DE": 2, "FR": 1, "PT": 0}
	if len(m.Mins) != 3 {
		t.Fatalf("mins %+v", m.Mins)
	}
	for r, row := range m.Mins {
		st := idx.Mins[r].State
		if row.Min != want[st] || row.Dim != -1 {
			t.Errorf("minimum for %s: %+v, want %d", st, row, want[st])
		}
		for _, pl := range row.Places {
			if idx.States[pl] != st {
				t.Errorf("minimum for %s over %s", st, idx.Places[pl])
			}
		}
	}
	if !slices.Equal(idx.Families, []string{"F1", "F2", "F3", "F4", "F5"}) || idx.Places[3] != "PT-Braga" {
		t.Errorf("index %v %v", idx.Families, idx.Places)
	}

	// The result by ID: an assignment that is feasible by hand.
	sol := &match.Solution{Status: match.Optimal, Place: []int{2, 3, 0, 1, 3}}
	v, err := m.Value(sol.Place)
	if err != nil {
		t.Fatal(err)
	}
	sol.Value, sol.Bound = v, v
	r := p.Result(sol, idx)
	if r.Placed != 5 || r.Persons != 4+1+3+2+1 || len(r.Unplaced) != 0 || r.Gap == nil || *r.Gap != 0 {
		t.Errorf("result %+v", r)
	}
	if pl := r.Placements[1]; pl.Family != "F2" || pl.Place != "PT-Braga" || pl.State != "PT" || pl.Components.Preference != 0.67 || pl.Score != 0.5+0.67+0.6 {
		t.Errorf("placement %+v", pl)
	}
	var de *match.StateIntake
	for i := range r.States {
		if r.States[i].State == "DE" {
			de = &r.States[i]
		}
	}
	if de == nil || de.Families != 2 || de.Persons != 5 || de.Min == nil || *de.Min != 2 {
		t.Errorf("DE intake %+v", de)
	}

	// The compiled model is what Solve takes (its optimality is checked against cbc
	// in cbc_test.go).
	s, err := match.Solve(context.Background(), m, match.Options{})
	if err != nil || len(s.Place) != len(m.Families) {
		t.Fatalf("Solve: %v, %+v", err, s)
	}
}

// Families pinned in a group need more than its capacity.
func TestCompilePinnedOverGroup(t *testing.T) {
	s := strings.NewReplacer(`{"id": "a", "needs": [1, 1]}`, `{"id": "a", "needs": [1, 1], "pinned": "p"}`,
		`"pairs"`, `"groups": [{"id": "g", "state": "DE", "capacity": [0, 9]}], "pairs"`).Replace(base)
	_, _, err := mustParse(t, s).Compile()
	if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.ECONFLICT || e.Path != "groups[0].capacity[0]" ||
		!strings.Contains(e.Message, `families pinned in group "g" need 1 children, capacity 0`) {
		t.Errorf("got %v", err)
	}
}

// base is a valid problem that the bad cases below break one thing at a time.
const base = `{
  "dimensions": ["children", "adults"],
  "families": [
    {"id": "a", "needs": [1, 1]},
    {"id": "b", "needs": [0, 2]}
  ],
  "places": [
    {"id": "p", "state": "DE", "capacity": [2, 2]},
    {"id": "q", "state": "FR", "capacity": [1, 3]}
  ],
  "pairs": [
    {"family": "a", "place": "p", "links": 1},
    {"family": "b", "place": "q", "integration": 0.5},
    {"family": "b", "place": "p"}
  ]
}`

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct {
		name, old, new  string
		code, path, msg string
	}{
		{"no dimensions", `["children", "adults"]`, `[]`, solidarity.EINVALID, "dimensions", "0 dimensions"},
		{"repeated dimension", `["children", "adults"]`, `["a", "a"]`, solidarity.EINVALID, "dimensions[1]", "repeated"},
		{"needs length", `"needs": [0, 2]`, `"needs": [0, 2, 1]`, solidarity.EINVALID, "families[1].needs", `family "b": needs has 3 values`},
		{"negative need", `"needs": [0, 2]`, `"needs": [0, -2]`, solidarity.EINVALID, "families[1].needs[1]", "out of range"},
		{"huge need", `"needs": [0, 2]`, `"needs": [0, 2000000000]`, solidarity.EINVALID, "families[1].needs[1]", "out of range"},
		{"negative capacity", `"capacity": [1, 3]`, `"capacity": [-1, 3]`, solidarity.EINVALID, "places[1].capacity[0]", `place "q": capacity -1`},
		{"capacity length", `"capacity": [1, 3]`, `"capacity": [1]`, solidarity.EINVALID, "places[1].capacity", "1 values"},
		{"duplicate family", `{"id": "b", "needs"`, `{"id": "a", "needs"`, solidarity.EINVALID, "families[1].id", `family "a" is also families[0]`},
		{"duplicate place", `{"id": "q", "state"`, `{"id": "p", "state"`, solidarity.EINVALID, "places[1].id", `place "p" is also places[0]`},
		{"empty id", `{"id": "b", "needs"`, `{"id": "", "needs"`, solidarity.EINVALID, "families[1].id", "no id"},
		{"bad state", `"state": "FR"`, `"state": "NO"`, solidarity.EINVALID, "places[1].state", "not a Member State"},
		{"unknown family in pair", `{"family": "b", "place": "p"}`, `{"family": "z", "place": "p"}`, solidarity.EINVALID, "pairs[2].family", `unknown family "z"`},
		{"unknown place in pair", `{"family": "b", "place": "p"}`, `{"family": "b", "place": "z"}`, solidarity.EINVALID, "pairs[2].place", `unknown place "z"`},
		{"duplicate pair", `{"family": "b", "place": "p"}`, `{"family": "b", "place": "q"}`, solidarity.EINVALID, "pairs[2]", "also pairs[1]"},
		{"huge component", `"integration": 0.5`, `"integration": 1e300`, solidarity.EINVALID, "pairs[1].integration", "out of range"},
		{"negative weight", `"dimensions"`, `"weights": {"links": -1}, "dimensions"`, solidarity.EINVALID, "weights.links", "negative"},
		{"pin to unknown", `{"id": "a", "needs": [1, 1]}`, `{"id": "a", "needs": [1, 1], "pinned": "z"}`, solidarity.EINVALID, "families[0].pinned", `pinned to "z", which is not a place`},
		{"pin without pair", `{"id": "a", "needs": [1, 1]}`, `{"id": "a", "needs": [1, 1], "pinned": "q"}`, solidarity.EINVALID, "families[0].pinned", "no pair"},
		{"pin forbidden", `{"id": "a", "needs": [1, 1]}`, `{"id": "a", "needs": [1, 1], "pinned": "p", "forbidden": ["p"]}`, solidarity.EINVALID, "families[0].pinned", "forbidden"},
		{"forbidden unknown", `{"id": "a", "needs": [1, 1]}`, `{"id": "a", "needs": [1, 1], "forbidden": ["q", "z"]}`, solidarity.EINVALID, "families[0].forbidden[1]", `"z" is not a place`},
		{"group both", `"pairs"`, `"groups": [{"id": "g", "state": "DE", "places": ["p"], "capacity": [1, 1]}], "pairs"`, solidarity.EINVALID, "groups[0]", "both"},
		{"group neither", `"pairs"`, `"groups": [{"id": "g", "capacity": [1, 1]}], "pairs"`, solidarity.EINVALID, "groups[0]", "neither"},
		{"group unknown place", `"pairs"`, `"groups": [{"id": "g", "places": ["p", "z"], "capacity": [1, 1]}], "pairs"`, solidarity.EINVALID, "groups[0].places[1]", `"z" is not a place`},
		{"group empty state", `"pairs"`, `"groups": [{"id": "g", "state": "IT", "capacity": [1, 1]}], "pairs"`, solidarity.EINVALID, "groups[0].state", "no place is in IT"},
		{"group capacity", `"pairs"`, `"groups": [{"id": "g", "state": "DE", "capacity": [1]}], "pairs"`, solidarity.EINVALID, "groups[0].capacity", "1 values"},
		{"tolerance", `"pairs"`, `"balance": {"tolerance": 1.5, "pledges": {"DE": 1}}, "pairs"`, solidarity.EINVALID, "balance.tolerance", "out of range"},
		{"pledge state", `"pairs"`, `"balance": {"tolerance": 0, "pledges": {"XX": 1}}, "pairs"`, solidarity.EINVALID, "balance.pledges.XX", "not a Member State"},
		{"pledge twice", `"pairs"`, `"balance": {"tolerance": 0, "pledges": {"DE": 1, "de": 2}}, "pairs"`, solidarity.EINVALID, "balance.pledges.de", "DE pledged twice"},
		{"zero pledges", `"pairs"`, `"balance": {"tolerance": 0, "pledges": {"DE": 0}}, "pairs"`, solidarity.EINVALID, "balance.pledges", "every pledge is zero"},
		// Visibly infeasible.
		{"must without place", `{"id": "a", "needs": [1, 1]}`, `{"id": "a", "needs": [1, 1], "must": true, "forbidden": ["p"]}`, solidarity.ECONFLICT, "families[0]", `family "a" must be placed but has no compatible place`},
		{"must too big", `{"id": "b", "needs": [0, 2]}`, `{"id": "b", "needs": [0, 4], "must": true}`, solidarity.ECONFLICT, "families[1]", "needs more than the capacity"},
		{"pins exceed", `{"id": "a", "needs": [1, 1]},
    {"id": "b", "needs": [0, 2]}`, `{"id": "a", "needs": [1, 1], "pinned": "p"},
    {"id": "b", "needs": [0, 2], "pinned": "p"}`, solidarity.ECONFLICT, "places[0].capacity[1]", `families pinned to "p" (a, b) need 3 adults, capacity 2`},
		{"min above capacity", `"pairs"`, `"exactly_once": true, "balance": {"tolerance": 0, "pledges": {"DE": 1, "PT": 100}}, "pairs"`, solidarity.ECONFLICT, "balance.pledges.PT", "PT must receive at least 3 persons but has no place"},
		{"min above state capacity", `"capacity": [1, 3]`, `"capacity": [1, 2]}], "exactly_once": true, "balance": {"tolerance": 0, "pledges": {"FR": 1}}, "groups": [{"id": "g", "state": "FR", "capacity": [9, 9]`, solidarity.ECONFLICT, "balance.pledges.FR", "FR must receive at least 4 persons but its places hold 3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(base, c.old) {
				t.Fatalf("base has no %q", c.old)
			}
			p := mustParse(t, strings.Replace(base, c.old, c.new, 1))
			_, _, err := p.Compile()
			e, ok := errors.AsType[*solidarity.Error](err)
			if !ok {
				t.Fatalf("error %v (%T), want *solidarity.Error", err, err)
			}
			if e.Code != c.code || e.Path != c.path || !strings.Contains(e.Message, c.msg) {
				t.Errorf("got %s %q %q, want %s %q containing %q", e.Code, e.Path, e.Message, c.code, c.path, c.msg)
			}
		})
	}
}
