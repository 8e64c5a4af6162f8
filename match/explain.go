package match

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"solidarity"
)

// Explanations (issue 5): every placement carries a machine-readable reason (an
// Explanation) and a plain-English one (its Text): the score broken down by component,
// the capacity rows that bind at the place, the next-best place and what choosing it
// would cost, found by solving again with the family pinned there. Override and
// Resolve are the officer's side: pin or forbid a placement and solve again, keeping
// the other families where they were as far as the optimum allows.

// ExplainTimeLimit is how long Explain's re-solve (the family pinned to its next-best
// place) may run; beyond it the cost is reported as a bound.
const ExplainTimeLimit = 2 * time.Second

// Explanation says why a family is placed where it is, or not placed.
type Explanation struct {
	Family  string `json:"family"`
	Persons int64  `json:"persons"`
	Placed  bool   `json:"placed"`
	// Place, State, Score and Components are those of the family's place (placed
	// families only). Terms are the weighted components: Score is their sum.
	Place      string                 `json:"place,omitempty"`
	State      solidarity.MemberState `json:"state,omitempty"`
	Score      float64                `json:"score"`
	Components Components             `json:"components"`
	Weights    Weights                `json:"weights"`
	Terms      Components             `json:"terms"`
	// Binding are the capacity rows at the family's place that are full or nearly
	// full in the solution (see Binding).
	Binding []Binding `json:"binding"`
	// Better are the compatible places scoring higher than the family's place, with
	// the rows that leave no room for it there.
	Better []Blocked `json:"better"`
	// NextBest is the compatible place with the highest score other than the family's
	// place (for an unplaced family: its best compatible place), nil when there is
	// none, with the cost of choosing it.
	NextBest *Alternative `json:"next_best,omitempty"`
	// Why says, for an unplaced family, why it is not placed; Full names the
	// compatible places without room for it.
	Why  string    `json:"why,omitempty"`
	Full []Blocked `json:"full,omitempty"`
	// WhyCode is Why as one of the Why… codes, for a page that says it in the
	// reader's language.
	WhyCode string `json:"-"`
	// Value is the score of the solution explained: the sum of the placed families'
	// scores from their components.
	Value float64 `json:"value"`
	// Text is all of the above as a paragraph of plain English.
	Text string `json:"text"`
}

// Binding is a capacity row that binds at a place: the place's own capacity or a
// group's over it, in one dimension where the family needs something, whose slack
// (capacity − placed) is smaller than the family's need there: no family of this
// size could be added. Tight: the slack is zero. A minimum row (Kind "minimum",
// Dimension "persons") binds when taking the family away would break it.
type Binding struct {
	Kind      string `json:"kind"` // "place", "group" or "minimum"
	ID        string `json:"id"`   // the place, the group, or the state of the minimum
	Dimension string `json:"dimension"`
	Placed    int64  `json:"placed"`
	Capacity  int64  `json:"capacity"` // for a minimum: the minimum
	Slack     int64  `json:"slack"`
	Need      int64  `json:"need"` // the family's need in the dimension
	Tight     bool   `json:"tight"`
}

// Blocked is a compatible place and the capacity rows that leave no room there for
// the family in the solution (each: slack below the family's need).
type Blocked struct {
	Place string                 `json:"place"`
	State solidarity.MemberState `json:"state"`
	Score float64                `json:"score"`
	Rows  []Binding              `json:"rows"`
}

// Alternative is another place for a family and what choosing it would cost: the
// solution's score less the score of the optimum with the family pinned there
// (others may move: Moved counts them). Feasible is false when no assignment has the family there (see
// Reason). Exact: the re-solve was proven optimal, so Cost is exact; otherwise Cost
// is an upper bound and CostAtLeast a lower one.
type Alternative struct {
	Place       string                 `json:"place"`
	State       solidarity.MemberState `json:"state"`
	Score       float64                `json:"score"`
	Components  Components             `json:"components"`
	Feasible    bool                   `json:"feasible"`
	Value       float64                `json:"value,omitempty"`
	Cost        float64                `json:"cost,omitempty"`
	CostAtLeast float64                `json:"cost_at_least,omitempty"`
	Exact       bool                   `json:"exact"`
	Moved       int                    `json:"moved"`
	// Unplaced is how many persons fewer the re-solve places (a model whose
	// objective values placing persons beyond the scores: see Explain).
	Unplaced int64 `json:"unplaced,omitzero"`
	// Reason says why an infeasible alternative is (by IDs and names, never the
	// solver's indices); Rows are the capacity rows at the place that the family
	// alone exceeds, when that is why.
	Reason string `json:"reason,omitempty"`
	// Rows are not in the JSON (yet): the OpenAPI document's Alternative has no such
	// property.
	Rows []Binding `json:"-"`
}

// rowUse is how much of every row a solution uses.
type rowUse struct {
	place [][]int64 // place × dimension
	group [][]int64 // group × dimension
	min   []int64   // minimum row
}

func rowUseOf(m *Model, place []int) *rowUse {
	u := &rowUse{place: make([][]int64, len(m.Places)), group: make([][]int64, len(m.Groups)), min: make([]int64, len(m.Mins))}
	for p := range u.place {
		u.place[p] = make([]int64, m.Dims)
	}
	for f, p := range place {
		if p < 0 || p >= len(m.Places) {
			continue
		}
		for d, n := range m.Families[f].Need {
			u.place[p][d] += n
		}
	}
	for g, gr := range m.Groups {
		u.group[g] = make([]int64, m.Dims)
		for _, p := range gr.Places {
			for d := range m.Dims {
				u.group[g][d] += u.place[p][d]
			}
		}
	}
	for r, row := range m.Mins {
		for _, p := range row.Places {
			for d := range m.Dims {
				if row.Dim == -1 || row.Dim == d {
					u.min[r] += u.place[p][d]
				}
			}
		}
	}
	return u
}

// fullRows returns the capacity rows at place p (its own, its groups') whose slack under
// usage u is below need in a dimension where need is positive.
func fullRows(pr *Problem, m *Model, idx *Index, u *rowUse, p int, need []int64) []Binding {
	var out []Binding
	for d, n := range need {
		if n <= 0 {
			continue
		}
		used, c := u.place[p][d], m.Places[p].Cap[d]
		if c-used < n {
			out = append(out, Binding{Kind: "place", ID: idx.Places[p], Dimension: pr.Dimensions[d], Placed: used, Capacity: c,
				Slack: c - used, Need: n, Tight: c == used})
		}
	}
	for g, gr := range m.Groups {
		if !slices.Contains(gr.Places, p) {
			continue
		}
		for d, n := range need {
			if n <= 0 {
				continue
			}
			used, c := u.group[g][d], gr.Cap[d]
			if c-used < n {
				out = append(out, Binding{Kind: "group", ID: idx.Groups[g], Dimension: pr.Dimensions[d], Placed: used, Capacity: c,
					Slack: c - used, Need: n, Tight: c == used})
			}
		}
	}
	return out
}

func sumNeeds(need []int64) int64 {
	var s int64
	for _, n := range need {
		s += n
	}
	return s
}

func problemWeights(pr *Problem) Weights {
	if pr.Weights != nil {
		return *pr.Weights
	}
	return Weights{1, 1, 1}
}

// Explain explains the placement of family (an index of m) in sol: pr, m and idx are
// the problem, its compiled model and index (Compile), sol a solution of m. For the
// next-best place it solves m again with the family pinned there (Options.Start =
// sol.Place, ExplainTimeLimit).
//
// Scores and costs are reported from the components (idx.Arcs), the solving is done
// on m: a caller may raise m's arc scores beyond the components (a value for placing
// persons at all, so that the most persons are placed first); the cost of the next-
// best place is then the loss of score among the optima of m, with the persons it
// leaves unplaced (Alternative.Unplaced). Errors: EINVALID for a family out of range or a
// solution of another model; the context's error.
func Explain(ctx context.Context, pr *Problem, m *Model, idx *Index, sol *Solution, family int) (*Explanation, error) {
	if family < 0 || family >= len(m.Families) {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("match: no family %d", family)}
	}
	if len(sol.Place) != len(m.Families) || len(idx.Families) != len(m.Families) {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: "match: the solution is not of this model"}
	}
	f := &m.Families[family]
	w := problemWeights(pr)
	e := &Explanation{Family: idx.Families[family], Persons: sumNeeds(f.Need), Weights: w, Binding: []Binding{},
		Better: []Blocked{}, Value: scoreOf(idx, sol.Place)}
	if sol.Status == Infeasible {
		e.Why, e.WhyCode = "there is no solution: "+idx.Names(sol.Reason), WhyNoSolution
		e.Text = fmt.Sprintf("Family %s is not placed: there is no solution (%s).", e.Family, idx.Names(sol.Reason))
		return e, nil
	}
	u := rowUseOf(m, sol.Place)
	arcs := idx.Arcs[family]
	p := sol.Place[family]
	if p >= 0 {
		i := slices.IndexFunc(arcs, func(a IndexArc) bool { return a.Place == p })
		if i < 0 {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("match: family %s is at place %d, which it has no arc to", e.Family, p)}
		}
		a := arcs[i]
		e.Placed, e.Place, e.State, e.Score, e.Components = true, idx.Places[p], idx.States[p], a.Score, a.Components
		e.Terms = Components{Links: w.Links * a.Links, Preference: w.Preference * a.Preference, Integration: w.Integration * a.Integration}
		// The family is at p: its rows there bind when another family of its size
		// would not fit.
		e.Binding = append(e.Binding, fullRows(pr, m, idx, u, p, f.Need)...)
		for r, row := range m.Mins {
			if !slices.Contains(row.Places, p) {
				continue
			}
			var n int64
			for d, x := range f.Need {
				if row.Dim == -1 || row.Dim == d {
					n += x
				}
			}
			if n > 0 && u.min[r]-n < row.Min {
				dim := "persons"
				if row.Dim >= 0 {
					dim = pr.Dimensions[row.Dim]
				}
				e.Binding = append(e.Binding, Binding{Kind: "minimum", ID: string(idx.Mins[r].State), Dimension: dim,
					Placed: u.min[r], Capacity: row.Min, Slack: u.min[r] - row.Min, Need: n, Tight: u.min[r] == row.Min})
			}
		}
		// Would a better place have room for the family, were it not at p? (A group
		// over both places keeps its usage when the family moves.)
		without := slices.Clone(sol.Place)
		without[family] = -1
		uw := rowUseOf(m, without)
		for _, b := range arcs {
			if b.Place == p || b.Score <= a.Score {
				continue
			}
			e.Better = append(e.Better, Blocked{Place: idx.Places[b.Place], State: idx.States[b.Place], Score: b.Score,
				Rows: nonNil(fullRows(pr, m, idx, uw, b.Place, f.Need))})
		}
	}

	// The next-best place: the highest score other than p; ties to the lower index.
	best := -1
	for i, b := range arcs {
		if b.Place == p {
			continue
		}
		if best < 0 || b.Score > arcs[best].Score {
			best = i
		}
	}
	if best >= 0 {
		alt, err := alternativeTo(ctx, pr, m, idx, sol, family, arcs[best])
		if err != nil {
			return nil, err
		}
		e.NextBest = alt
	}

	if p < 0 {
		e.WhyCode, e.Why, e.Full = unplacedReason(pr, m, idx, u, sol, family)
	}
	e.Text = e.text()
	return e, nil
}

// WhyUnplaced says why family is not placed in sol, without solving anything (the
// cheap part of Explain, for listing many unplaced families): no compatible place,
// every compatible place full (named in full, with the rows that leave no room), or
// why not otherwise. "" for a placed family.
func WhyUnplaced(pr *Problem, m *Model, idx *Index, sol *Solution, family int) (why string, full []Blocked) {
	_, why, full = WhyUnplacedCode(pr, m, idx, sol, family)
	return why, full
}

// The reasons a family is not placed, as codes (Explanation.WhyCode).
const (
	WhyNoSolution = "no-solution"         // the problem has no solution
	WhyNoPlace    = "no-compatible-place" // the family has no compatible place
	WhyAllFull    = "all-full"            // every compatible place is full (Full)
	WhyNoGain     = "no-gain"             // places with room score it at zero or less
	WhyStopped    = "stopped"             // the solver stopped before placing it
)

// WhyUnplacedCode is WhyUnplaced with the reason's code (WhyNoSolution …).
func WhyUnplacedCode(pr *Problem, m *Model, idx *Index, sol *Solution, family int) (code, why string, full []Blocked) {
	if family < 0 || family >= len(m.Families) || len(sol.Place) != len(m.Families) || sol.Place[family] >= 0 {
		return "", "", nil
	}
	if sol.Status == Infeasible {
		return WhyNoSolution, "there is no solution: " + idx.Names(sol.Reason), nil
	}
	return unplacedReason(pr, m, idx, rowUseOf(m, sol.Place), sol, family)
}

func unplacedReason(pr *Problem, m *Model, idx *Index, u *rowUse, sol *Solution, family int) (code, why string, full []Blocked) {
	arcs, need := idx.Arcs[family], m.Families[family].Need
	if len(arcs) == 0 {
		return WhyNoPlace, "it has no compatible place", nil
	}
	var room []string
	for _, b := range arcs {
		rows := fullRows(pr, m, idx, u, b.Place, need)
		if len(rows) > 0 {
			full = append(full, Blocked{Place: idx.Places[b.Place], State: idx.States[b.Place], Score: b.Score, Rows: rows})
		} else {
			room = append(room, fmt.Sprintf("%s (score %s)", idx.Places[b.Place], scoreText(b.Score)))
		}
	}
	switch {
	case len(room) == 0:
		names := make([]string, len(full))
		for i, b := range full {
			names[i] = b.Place
		}
		return WhyAllFull, "every compatible place is full: " + strings.Join(names, ", "), full
	case sol.Status == Optimal:
		return WhyNoGain, "placing it would not raise the total score: the places with room for it, " + strings.Join(room, ", ") + ", score it at zero or less", full
	}
	return WhyStopped, "the solver stopped (" + string(sol.Status) + ") before placing it; places with room: " + strings.Join(room, ", "), full
}

func nonNil(b []Binding) []Binding {
	if b == nil {
		return []Binding{}
	}
	return b
}

// scoreOf is the score of an assignment by the index's arcs: the sum of the
// placed families' scores from their components.
func scoreOf(idx *Index, place []int) float64 {
	var v float64
	for f, p := range place {
		if p < 0 || f >= len(idx.Arcs) {
			continue
		}
		for _, a := range idx.Arcs[f] {
			if a.Place == p {
				v += a.Score
				break
			}
		}
	}
	return v
}

// placedPersons counts the persons an assignment places.
func placedPersons(m *Model, place []int) int64 {
	var n int64
	for f, p := range place {
		if p >= 0 {
			n += sumNeeds(m.Families[f].Need)
		}
	}
	return n
}

// alternativeTo solves m again with family pinned to a's place: the family's only
// arc is that one, and it must be placed.
func alternativeTo(ctx context.Context, pr *Problem, m *Model, idx *Index, sol *Solution, family int, a IndexArc) (*Alternative, error) {
	alt := &Alternative{Place: idx.Places[a.Place], State: idx.States[a.Place], Score: a.Score, Components: a.Components}
	pinned := *m
	pinned.Families = slices.Clone(m.Families)
	f := &pinned.Families[family]
	i := slices.IndexFunc(f.Arcs, func(b Arc) bool { return b.Place == a.Place })
	if i < 0 {
		return nil, &solidarity.Error{Code: solidarity.EINTERNAL, Message: "match: the index and the model disagree"}
	}
	f.Arcs, f.Must = []Arc{f.Arcs[i]}, true
	s2, err := Solve(ctx, &pinned, Options{TimeLimit: ExplainTimeLimit, Start: sol.Place, Prices: sol.Prices})
	if err != nil {
		return nil, err
	}
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	switch s2.Status {
	case Infeasible:
		alt.Exact = true
		// The family alone may be too big for the place: say so by the rows.
		empty := make([]int, len(m.Families))
		for i := range empty {
			empty[i] = -1
		}
		alt.Rows = fullRows(pr, m, idx, rowUseOf(m, empty), a.Place, m.Families[family].Need)
		switch {
		case len(alt.Rows) > 0:
			alt.Reason = "the place has no room for the family: " + rowsText(alt.Rows)
		case s2.Reason != "":
			alt.Reason = idx.Names(s2.Reason)
		default:
			alt.Reason = "no assignment places the family there"
		}
	case Feasible, Optimal:
		alt.Feasible = true
		base := scoreOf(idx, sol.Place)
		alt.Value = scoreOf(idx, s2.Place)
		alt.Cost = base - alt.Value
		alt.Unplaced = placedPersons(m, sol.Place) - placedPersons(m, s2.Place)
		alt.Exact = s2.Status == Optimal
		alt.CostAtLeast = alt.Cost
		if !alt.Exact && finite(s2.Bound) && math.Abs(base-sol.Value) < 1e-9 { // m scores by the components
			alt.CostAtLeast = sol.Value - s2.Bound
		}
		for g, p := range s2.Place {
			if g != family && p != sol.Place[g] {
				alt.Moved++
			}
		}
	}
	return alt, nil
}

// scoreText prints a score briefly: 2.75, 1, -0.5.
func scoreText(x float64) string {
	if x == 0 {
		return "0"
	}
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", x), "0"), ".")
}

func (e *Explanation) text() string {
	var b strings.Builder
	who := fmt.Sprintf("Family %s (%d %s)", e.Family, e.Persons, plural(e.Persons, "person", "persons"))
	if e.Placed {
		fmt.Fprintf(&b, "%s is placed in %s", who, placeName(e.Place, e.State))
		fmt.Fprintf(&b, " with score %s = links %s × weight %s + preference %s × weight %s + integration %s × weight %s.",
			scoreText(e.Score), scoreText(e.Components.Links), scoreText(e.Weights.Links), scoreText(e.Components.Preference), scoreText(e.Weights.Preference),
			scoreText(e.Components.Integration), scoreText(e.Weights.Integration))
		if len(e.Binding) == 0 {
			b.WriteString(" No capacity binds there: it has room for another family of this size.")
		} else {
			b.WriteString(" Binding there: ")
			b.WriteString(rowsText(e.Binding))
			b.WriteString(".")
		}
		for _, x := range e.Better {
			if len(x.Rows) > 0 {
				fmt.Fprintf(&b, " %s scores higher (%s) but has no room for it: %s.", placeName(x.Place, x.State), scoreText(x.Score), rowsText(x.Rows))
			} else {
				fmt.Fprintf(&b, " %s scores higher (%s) and has room, but placing the family there would lower the total.", placeName(x.Place, x.State), scoreText(x.Score))
			}
		}
	} else {
		fmt.Fprintf(&b, "%s is not placed: %s.", who, e.Why)
		for _, x := range e.Full {
			fmt.Fprintf(&b, " %s: %s.", placeName(x.Place, x.State), rowsText(x.Rows))
		}
	}
	if a := e.NextBest; a != nil {
		lead := "The next-best place is"
		if !e.Placed {
			lead = "Its best compatible place is"
		}
		fmt.Fprintf(&b, " %s %s (score %s = links %s, preference %s, integration %s)", lead, placeName(a.Place, a.State), scoreText(a.Score),
			scoreText(a.Components.Links), scoreText(a.Components.Preference), scoreText(a.Components.Integration))
		switch {
		case !a.Feasible:
			fmt.Fprintf(&b, "; choosing it is infeasible: %s.", a.Reason)
		case a.Exact:
			fmt.Fprintf(&b, "; choosing it would %s (total %s instead of %s)%s%s.", costText(a.Cost), scoreText(a.Value), scoreText(e.Value), movedText(a.Moved), unplacedText(a.Unplaced))
		default:
			fmt.Fprintf(&b, "; choosing it would cost between %s and %s of the total score (not proven within %v)%s.",
				scoreText(a.CostAtLeast), scoreText(a.Cost), ExplainTimeLimit, movedText(a.Moved)+unplacedText(a.Unplaced))
		}
	} else if e.Placed {
		b.WriteString(" There is no other compatible place.")
	}
	return b.String()
}

func costText(c float64) string {
	switch {
	case math.Abs(c) < 1e-9:
		return "cost nothing"
	case c > 0:
		return "lower the total score by " + scoreText(c)
	}
	return "raise the total score by " + scoreText(-c)
}

func movedText(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(", moving %d other %s", n, plural(int64(n), "family", "families"))
}

func unplacedText(n int64) string {
	if n <= 0 {
		return ""
	}
	return fmt.Sprintf(" and leaving %d more %s unplaced", n, plural(n, "person", "persons"))
}

func rowsText(rows []Binding) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		switch r.Kind {
		case "minimum":
			parts[i] = fmt.Sprintf("the minimum intake of %s (%d %s placed, at least %d; the family counts %d)", r.ID, r.Placed, r.Dimension, r.Capacity, r.Need)
		default:
			what := "the capacity"
			if r.Kind == "group" {
				what = "the capacity of group " + r.ID
			}
			state := "nearly full"
			if r.Tight {
				state = "full"
			}
			parts[i] = fmt.Sprintf("%s in %s is %s (%d of %d used, the family needs %d)", what, r.Dimension, state, r.Placed, r.Capacity, r.Need)
		}
	}
	return strings.Join(parts, "; ")
}

func placeName(id string, st solidarity.MemberState) string {
	if id == string(st) || st == "" {
		return id
	}
	return fmt.Sprintf("%s (%s)", id, st)
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Override returns a copy of pr with family pinned to place pin (unless pin is "")
// and forbidden from the places in forbid, added to what the family had. pr is not
// changed. Errors (EINVALID, located by JSON path): an unknown family or place, a
// family pinned to a place it is also forbidden. That the pin is compatible is
// checked by Compile.
func Override(pr *Problem, family string, pin string, forbid []string) (*Problem, error) {
	i := slices.IndexFunc(pr.Families, func(f FamilyEntry) bool { return f.ID == family })
	if i < 0 {
		return nil, invalid("families", "no family %q", family)
	}
	known := func(id string) bool {
		return slices.ContainsFunc(pr.Places, func(p PlaceEntry) bool { return p.ID == id })
	}
	path := fmt.Sprintf("families[%d]", i)
	if pin != "" && !known(pin) {
		return nil, invalid(path+".pinned", "family %q: %q is not a place", family, pin)
	}
	out := *pr
	out.Families = slices.Clone(pr.Families)
	fe := &out.Families[i]
	fe.Forbidden = slices.Clone(fe.Forbidden)
	for k, id := range forbid {
		if !known(id) {
			return nil, invalid(fmt.Sprintf("%s.forbidden[%d]", path, k), "family %q: %q is not a place", family, id)
		}
		if !slices.Contains(fe.Forbidden, id) {
			fe.Forbidden = append(fe.Forbidden, id)
		}
	}
	if pin != "" {
		fe.Pinned = pin
	}
	if fe.Pinned != "" && slices.Contains(fe.Forbidden, fe.Pinned) {
		return nil, invalid(path+".pinned", "family %q is pinned to %q and forbidden from it", family, fe.Pinned)
	}
	return &out, nil
}

// StabilityBonus is what Resolve adds to the score of each family's previous place,
// relative to the largest absolute score: a tie-breaker among solutions of equal
// value, so that a re-solve keeps families where they were unless moving them
// raises the total. It gives up at most StabilityBonus × the largest score × the
// number of families of the optimum.
const StabilityBonus = 1e-6

// Resolved is the outcome of Resolve.
type Resolved struct {
	Model    *Model
	Index    *Index
	Solution *Solution // Value is the objective of the problem itself, without the bonus
	// Moved are the families whose place differs from the previous solution (placed,
	// unplaced or moved), in family order.
	Moved []string
}

// Resolve solves pr again after an override (Override), starting from prev, a
// solution of an earlier version of the problem whose IDs prevIdx gives: each family
// starts at its previous place (by ID) and earns StabilityBonus there, so that the
// families the override does not concern stay where they were when that costs
// nothing. opts.Start is ignored. Errors are Compile's and Solve's.
func Resolve(ctx context.Context, pr *Problem, prev *Solution, prevIdx *Index, opts Options) (*Resolved, error) {
	m, idx, err := pr.Compile()
	if err != nil {
		return nil, err
	}
	return ResolveModel(ctx, m, idx, prev, prevIdx, opts)
}

// ResolveModel is Resolve on a compiled model (whose arc scores the caller may have
// adjusted, as Explain allows).
func ResolveModel(ctx context.Context, m *Model, idx *Index, prev *Solution, prevIdx *Index, opts Options) (*Resolved, error) {
	before := previousPlaces(idx, prev, prevIdx)
	opts.Start = before
	if opts.Prices == nil {
		opts.Prices = prev.Prices // used only if the families are the same (Start matches)
	}
	// The bonus model shares nothing with m that Solve could change.
	mb := *m
	mb.Families = slices.Clone(m.Families)
	maxScore := 0.0
	for _, f := range m.Families {
		for _, a := range f.Arcs {
			maxScore = math.Max(maxScore, math.Abs(a.Score))
		}
	}
	bonus := StabilityBonus * math.Max(1, maxScore)
	for i, p := range before {
		if p < 0 {
			continue
		}
		arcs := slices.Clone(m.Families[i].Arcs)
		for j := range arcs {
			if arcs[j].Place == p {
				arcs[j].Score += bonus
			}
		}
		mb.Families[i].Arcs = arcs
	}
	sol, err := Solve(ctx, &mb, opts)
	if err != nil {
		return nil, err
	}
	if sol.Status != Infeasible {
		v, verr := m.Value(sol.Place)
		if verr != nil {
			return nil, &solidarity.Error{Code: solidarity.EINTERNAL, Message: verr.Error()}
		}
		sol.Value = v
		sol.Bound = math.Max(sol.Bound, v)
	}
	r := &Resolved{Model: m, Index: idx, Solution: sol, Moved: []string{}}
	for i, p := range before {
		now := -1
		if sol.Status != Infeasible {
			now = sol.Place[i]
		}
		if now != p {
			r.Moved = append(r.Moved, idx.Families[i])
		}
	}
	return r, nil
}

// previousPlaces maps prev's placements onto idx's indices by ID: -1 for a family or
// place the earlier problem did not have.
func previousPlaces(idx *Index, prev *Solution, prevIdx *Index) []int {
	out := make([]int, len(idx.Families))
	for i := range out {
		out[i] = -1
	}
	if prev == nil || prevIdx == nil || prev.Status == Infeasible {
		return out
	}
	placeAt := make(map[string]int, len(idx.Places))
	for i, id := range idx.Places {
		placeAt[id] = i
	}
	famAt := make(map[string]int, len(idx.Families))
	for i, id := range idx.Families {
		famAt[id] = i
	}
	for f, p := range prev.Place {
		if p < 0 || f >= len(prevIdx.Families) || p >= len(prevIdx.Places) {
			continue
		}
		i, ok := famAt[prevIdx.Families[f]]
		if !ok {
			continue
		}
		if q, ok := placeAt[prevIdx.Places[p]]; ok {
			out[i] = q
		}
	}
	return out
}

// FamilyIndex returns the index of the family with the given ID in idx, or
// ENOTFOUND.
func FamilyIndex(idx *Index, id string) (int, error) {
	i := slices.Index(idx.Families, id)
	if i < 0 {
		return -1, &solidarity.Error{Code: solidarity.ENOTFOUND, Message: fmt.Sprintf("match: no family %q", id)}
	}
	return i, nil
}
