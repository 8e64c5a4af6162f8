package match

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"
	"strings"

	"solidarity"
)

// Problem is a matching problem as users write it: families, places and the scores of
// the compatible pairs, by ID. It is the problem file (docs/match-problem.md, schema
// match/schema.json); ParseProblem reads one and Compile turns it into a Model.
type Problem struct {
	// Dimensions names the capacity dimensions, e.g. children, adults, seniors.
	Dimensions []string `json:"dimensions"`
	// Weights turn a pair's components into its score; nil: every weight 1.
	Weights *Weights `json:"weights,omitempty"`
	// ExactlyOnce: every family must be placed (as if each had Must set).
	ExactlyOnce bool          `json:"exactly_once,omitzero"`
	Families    []FamilyEntry `json:"families"`
	Places      []PlaceEntry  `json:"places"`
	Groups      []GroupEntry  `json:"groups,omitempty"`
	Balance     *Balance      `json:"balance,omitempty"`
	// Revisions change places' capacities during the year (a new pledge), for a
	// replay (match/online); a solve uses the capacities of Places.
	Revisions []Revision `json:"revisions,omitempty"`
	Pairs     []Pair     `json:"pairs"`
}

// Revision sets a place's capacity from a date on (YYYY-MM-DD).
type Revision struct {
	Place    string  `json:"place"`
	From     string  `json:"from"`
	Capacity []int64 `json:"capacity"`
}

// Weights weigh the score components: score = links·Links + preference·Preference +
// integration·Integration. Each is finite, non-negative and at most MaxValue.
type Weights struct {
	Links       float64 `json:"links"`
	Preference  float64 `json:"preference"`
	Integration float64 `json:"integration"`
}

// Components are what a pair's score is made of: links (family members or a diaspora
// in the state, a common language), the family's stated preference, and a predicted
// integration outcome. Each is finite with an absolute value of at most MaxValue.
type Components struct {
	Links       float64 `json:"links"`
	Preference  float64 `json:"preference"`
	Integration float64 `json:"integration"`
}

// FamilyEntry is one family of a problem file.
type FamilyEntry struct {
	ID string `json:"id"`
	// Needs is the family's size in each dimension (0 … MaxValue).
	Needs []int64 `json:"needs"`
	// Must: the family is placed, or there is no solution.
	Must bool `json:"must,omitzero"`
	// Pinned names the place the family must go to (it implies Must); the pair with
	// that place must exist and not be forbidden.
	Pinned string `json:"pinned,omitempty"`
	// Forbidden names places the family may not go to, whatever the pairs say.
	Forbidden []string `json:"forbidden,omitempty"`
	// Arrival is the date the family arrives (YYYY-MM-DD), for a replay of the
	// year batch by batch (match/online); a solve ignores it.
	Arrival string `json:"arrival,omitempty"`
}

// PlaceEntry is one place (a locality, or a whole Member State) of a problem file.
type PlaceEntry struct {
	ID       string                 `json:"id"`
	State    solidarity.MemberState `json:"state"`
	Capacity []int64                `json:"capacity"` // per dimension, 0 … MaxValue
}

// GroupEntry is a capacity over several places: those listed, or every place of a
// Member State (exactly one of Places and State).
type GroupEntry struct {
	ID       string                 `json:"id"`
	Places   []string               `json:"places,omitempty"`
	State    solidarity.MemberState `json:"state,omitempty"`
	Capacity []int64                `json:"capacity"`
}

// Balance asks each pledging state to take at least its share of the families that
// will certainly be placed, less a tolerance. With T the persons (needs summed over
// every dimension) of the families that must be placed (Must, pinned, or every family
// under exactly_once) and P the sum of the pledges, a state pledging p receives at
// least floor((1 − Tolerance) · p · T / P) persons in its places.
type Balance struct {
	Tolerance float64                          `json:"tolerance"` // 0 … 1
	Pledges   map[solidarity.MemberState]int64 `json:"pledges"`   // places pledged, 0 … MaxValue
}

// Pair is a compatible family and place and the components of its score. A family
// may only go to places it has a pair with.
type Pair struct {
	Family string `json:"family"`
	Place  string `json:"place"`
	Components
}

// MaxValue bounds needs, capacities, pledges, weights and components, so that no sum
// over a problem of up to 64 MiB overflows or loses the integers.
const MaxValue = 1_000_000_000

// maxDims bounds the number of dimensions.
const maxDims = 16

// Index maps a compiled Model's indices back to the problem's IDs.
type Index struct {
	Families []string                 // by family index
	Places   []string                 // by place index
	States   []solidarity.MemberState // the state of each place
	// Arcs holds, for each family, its arcs with their score components (parallel
	// to Model.Families[i].Arcs).
	Arcs   [][]IndexArc
	Groups []string   // by group index
	Mins   []IndexMin // by minimum row
	// Persons is each family's needs summed over the dimensions.
	Persons []int64
	// Dimensions are the names of the dimensions (Problem.Dimensions).
	Dimensions []string
}

// IndexArc is an arc of the model with the components of its score.
type IndexArc struct {
	Arc
	Components
}

// IndexMin says which state a minimum row is for.
type IndexMin struct {
	State solidarity.MemberState
	Min   int64
}

// invalid returns an EINVALID error located at a JSON path.
func invalid(path, format string, args ...any) *solidarity.Error {
	return &solidarity.Error{Code: solidarity.EINVALID, Path: path, Message: fmt.Sprintf(format, args...)}
}

// conflict returns an ECONFLICT error: the problem is well formed but a constraint
// can be seen not to hold before solving.
func conflict(path, format string, args ...any) *solidarity.Error {
	return &solidarity.Error{Code: solidarity.ECONFLICT, Path: path, Message: fmt.Sprintf(format, args...)}
}

func checkAmounts(path, what string, v []int64, dims int) error {
	if len(v) != dims {
		return invalid(path, "%s has %d values, want one per dimension (%d)", what, len(v), dims)
	}
	for d, x := range v {
		if x < 0 || x > MaxValue {
			return invalid(fmt.Sprintf("%s[%d]", path, d), "%s %d out of range 0…%d", what, x, MaxValue)
		}
	}
	return nil
}

func checkReal(path, what string, x float64, nonNegative bool) error {
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0):
		return invalid(path, "%s is not a finite number", what)
	case nonNegative && x < 0:
		return invalid(path, "%s %v is negative", what, x)
	case math.Abs(x) > MaxValue:
		return invalid(path, "%s %v out of range (absolute value at most %d)", what, x, MaxValue)
	}
	return nil
}

// Compile checks the problem and returns its Model and the Index of its IDs. Errors
// are *solidarity.Error located by JSON path (Error.Path, e.g. "families[3].needs"):
// EINVALID for a malformed problem (wrong lengths, out-of-range or non-finite numbers,
// unknown or duplicate IDs, a pin to an incompatible or forbidden place), ECONFLICT for
// one that is well formed but visibly infeasible (pinned families exceeding a place's
// capacity, a family that must be placed with no place that can take it, a minimum
// above the capacity of its places).
func (pr *Problem) Compile() (*Model, *Index, error) {
	c := &compiler{pr: pr}
	for _, step := range []func() error{c.dimensions, c.weights, c.places, c.families, c.pairs, c.groups, c.balance} {
		if err := step(); err != nil {
			return nil, nil, err
		}
	}
	m, idx := c.m, c.idx
	if err := staticConflicts(pr, m, idx, c.pinned); err != nil {
		return nil, nil, err
	}
	if err := m.Validate(); err != nil { // a bug in Compile if it fails
		return nil, nil, &solidarity.Error{Code: solidarity.EINTERNAL, Message: err.Error()}
	}
	return m, idx, nil
}

// compiler is the state of a Compile, built section by section in the order of
// the problem file: each step checks its section and adds it to the model and the
// index.
type compiler struct {
	pr          *Problem
	dims        int
	w           Weights
	m           *Model
	idx         *Index
	placeIdx    map[string]int                   // place ID → index
	statePlaces map[solidarity.MemberState][]int // the places in each state
	famIdx      map[string]int                   // family ID → index
	pinned      []int                            // per family: its pin, or -1
	forbidden   []map[int]bool                   // per family: the places it may not go to
}

// dimensions checks the dimensions' names.
func (c *compiler) dimensions() error {
	pr := c.pr
	dims := len(pr.Dimensions)
	c.dims = dims
	if dims < 1 || dims > maxDims {
		return invalid("dimensions", "%d dimensions, want 1 to %d", dims, maxDims)
	}
	seenDim := map[string]bool{}
	for d, name := range pr.Dimensions {
		if strings.TrimSpace(name) == "" || seenDim[name] {
			return invalid(fmt.Sprintf("dimensions[%d]", d), "dimension name %q is empty or repeated", name)
		}
		seenDim[name] = true
	}
	return nil
}

// weights checks the weights (1, 1, 1 when absent) and makes the model and the
// index.
func (c *compiler) weights() error {
	pr := c.pr
	w := Weights{1, 1, 1}
	if pr.Weights != nil {
		w = *pr.Weights
		for _, x := range []struct {
			name string
			v    float64
		}{{"links", w.Links}, {"preference", w.Preference}, {"integration", w.Integration}} {
			if err := checkReal("weights."+x.name, "weight", x.v, true); err != nil {
				return err
			}
		}
	}
	c.w = w
	dims := c.dims
	c.m = &Model{Dims: dims, Places: make([]Place, len(pr.Places)), Families: make([]Family, len(pr.Families))}
	c.idx = &Index{
		Families: make([]string, len(pr.Families)),
		Places:   make([]string, len(pr.Places)),
		States:   make([]solidarity.MemberState, len(pr.Places)),
		Arcs:     make([][]IndexArc, len(pr.Families)),
		Persons:  make([]int64, len(pr.Families)),
		// The dimensions' names, for reasons that speak of them (Names).
		Dimensions: slices.Clone(pr.Dimensions),
	}
	return nil
}

// places checks the places and indexes them by ID and by state.
func (c *compiler) places() error {
	pr := c.pr
	c.placeIdx = make(map[string]int, len(pr.Places))
	c.statePlaces = map[solidarity.MemberState][]int{}
	m, idx, dims := c.m, c.idx, c.dims
	for i, p := range pr.Places {
		path := fmt.Sprintf("places[%d]", i)
		if p.ID == "" {
			return invalid(path+".id", "place %d has no id", i)
		}
		if j, dup := c.placeIdx[p.ID]; dup {
			return invalid(path+".id", "place %q is also places[%d]", p.ID, j)
		}
		c.placeIdx[p.ID] = i
		st, ok := solidarity.ParseMemberState(string(p.State))
		if !ok {
			return invalid(path+".state", "place %q: %q is not a Member State code", p.ID, p.State)
		}
		if err := checkAmounts(path+".capacity", fmt.Sprintf("place %q: capacity", p.ID), p.Capacity, dims); err != nil {
			return err
		}
		m.Places[i] = Place{Cap: slices.Clone(p.Capacity)}
		idx.Places[i], idx.States[i] = p.ID, st
		c.statePlaces[st] = append(c.statePlaces[st], i)
	}
	return nil
}

// families checks the families, their pins and forbidden places.
func (c *compiler) families() error {
	pr := c.pr
	c.famIdx = make(map[string]int, len(pr.Families))
	c.pinned = make([]int, len(pr.Families))
	c.forbidden = make([]map[int]bool, len(pr.Families))
	m, idx, dims, famIdx, pinned, forbidden := c.m, c.idx, c.dims, c.famIdx, c.pinned, c.forbidden
	for i, f := range pr.Families {
		path := fmt.Sprintf("families[%d]", i)
		if f.ID == "" {
			return invalid(path+".id", "family %d has no id", i)
		}
		if j, dup := famIdx[f.ID]; dup {
			return invalid(path+".id", "family %q is also families[%d]", f.ID, j)
		}
		famIdx[f.ID] = i
		if err := checkAmounts(path+".needs", fmt.Sprintf("family %q: needs", f.ID), f.Needs, dims); err != nil {
			return err
		}
		pinned[i] = -1
		if f.Pinned != "" {
			p, ok := c.placeIdx[f.Pinned]
			if !ok {
				return invalid(path+".pinned", "family %q is pinned to %q, which is not a place", f.ID, f.Pinned)
			}
			pinned[i] = p
		}
		for k, id := range f.Forbidden {
			p, ok := c.placeIdx[id]
			if !ok {
				return invalid(fmt.Sprintf("%s.forbidden[%d]", path, k), "family %q: forbidden place %q is not a place", f.ID, id)
			}
			if forbidden[i] == nil {
				forbidden[i] = map[int]bool{}
			}
			forbidden[i][p] = true
		}
		if pinned[i] >= 0 && forbidden[i][pinned[i]] {
			return invalid(path+".pinned", "family %q is pinned to %q and forbidden from it", f.ID, f.Pinned)
		}
		m.Families[i] = Family{Need: slices.Clone(f.Needs), Must: f.Must || pr.ExactlyOnce || pinned[i] >= 0}
		idx.Families[i] = f.ID
		for _, n := range f.Needs {
			idx.Persons[i] += n
		}
	}
	return nil
}

// pairs checks the compatible pairs and makes each family's arcs, with its score by
// the weights, but those its pin or its forbidden places rule out.
func (c *compiler) pairs() error {
	pr := c.pr
	m, w, famIdx, pinned, forbidden := c.m, c.w, c.famIdx, c.pinned, c.forbidden
	arcs := c.idx.Arcs
	seenPair := make(map[[2]int]int, len(pr.Pairs))
	for k, pa := range pr.Pairs {
		path := fmt.Sprintf("pairs[%d]", k)
		f, ok := famIdx[pa.Family]
		if !ok {
			return invalid(path+".family", "pair with unknown family %q", pa.Family)
		}
		p, ok := c.placeIdx[pa.Place]
		if !ok {
			return invalid(path+".place", "pair of family %q with unknown place %q", pa.Family, pa.Place)
		}
		if j, dup := seenPair[[2]int{f, p}]; dup {
			return invalid(path, "family %q and place %q are also pairs[%d]", pa.Family, pa.Place, j)
		}
		seenPair[[2]int{f, p}] = k
		for _, x := range []struct {
			name string
			v    float64
		}{{"links", pa.Links}, {"preference", pa.Preference}, {"integration", pa.Integration}} {
			if err := checkReal(path+"."+x.name, fmt.Sprintf("pair %q–%q: %s", pa.Family, pa.Place, x.name), x.v, false); err != nil {
				return err
			}
		}
		if forbidden[f][p] || (pinned[f] >= 0 && pinned[f] != p) {
			continue
		}
		score := w.Links*pa.Links + w.Preference*pa.Preference + w.Integration*pa.Integration
		arcs[f] = append(arcs[f], IndexArc{Arc{Place: p, Score: score}, pa.Components})
	}
	for i := range arcs {
		slices.SortFunc(arcs[i], func(a, b IndexArc) int { return a.Place - b.Place })
		m.Families[i].Arcs = make([]Arc, len(arcs[i]))
		for j, a := range arcs[i] {
			m.Families[i].Arcs[j] = a.Arc
		}
		if pinned[i] >= 0 && len(arcs[i]) == 0 {
			return invalid(fmt.Sprintf("families[%d].pinned", i), "family %q is pinned to %q but has no pair with it (not compatible)", pr.Families[i].ID, pr.Families[i].Pinned)
		}
	}
	return nil
}

// groups checks the groups (a list of places or a state's) and their capacities.
func (c *compiler) groups() error {
	pr := c.pr
	m, idx := c.m, c.idx
	groupIdx := map[string]int{}
	for g, gr := range pr.Groups {
		path := fmt.Sprintf("groups[%d]", g)
		if gr.ID == "" {
			return invalid(path+".id", "group %d has no id", g)
		}
		if j, dup := groupIdx[gr.ID]; dup {
			return invalid(path+".id", "group %q is also groups[%d]", gr.ID, j)
		}
		groupIdx[gr.ID] = g
		var places []int
		switch {
		case gr.State != "" && len(gr.Places) > 0:
			return invalid(path, "group %q has both places and state; give one", gr.ID)
		case gr.State != "":
			st, ok := solidarity.ParseMemberState(string(gr.State))
			if !ok {
				return invalid(path+".state", "group %q: %q is not a Member State code", gr.ID, gr.State)
			}
			places = c.statePlaces[st]
			if len(places) == 0 {
				return invalid(path+".state", "group %q: no place is in %s", gr.ID, st)
			}
		case len(gr.Places) > 0:
			seen := map[int]bool{}
			for k, id := range gr.Places {
				p, ok := c.placeIdx[id]
				if !ok {
					return invalid(fmt.Sprintf("%s.places[%d]", path, k), "group %q: %q is not a place", gr.ID, id)
				}
				if seen[p] {
					return invalid(fmt.Sprintf("%s.places[%d]", path, k), "group %q lists %q twice", gr.ID, id)
				}
				seen[p] = true
				places = append(places, p)
			}
			slices.Sort(places)
		default:
			return invalid(path, "group %q has neither places nor state", gr.ID)
		}
		if err := checkAmounts(path+".capacity", fmt.Sprintf("group %q: capacity", gr.ID), gr.Capacity, c.dims); err != nil {
			return err
		}
		m.Groups = append(m.Groups, Group{Places: slices.Clone(places), Cap: slices.Clone(gr.Capacity)})
		idx.Groups = append(idx.Groups, gr.ID)
	}
	return nil
}

// balance adds a minimum row per Member State that pledged, from the balance
// section: at least (1 − tolerance) of its share of the persons who must be placed.
func (c *compiler) balance() error {
	b, m, idx := c.pr.Balance, c.m, c.idx
	if b == nil {
		return nil
	}
	if math.IsNaN(b.Tolerance) || b.Tolerance < 0 || b.Tolerance > 1 {
		return invalid("balance.tolerance", "tolerance %v out of range 0…1", b.Tolerance)
	}
	states := make([]solidarity.MemberState, 0, len(b.Pledges))
	canon := map[solidarity.MemberState]int64{}
	var total int64
	keys := slices.Sorted(maps.Keys(b.Pledges)) // errors name the same pledge every run
	for _, s := range keys {
		n := b.Pledges[s]
		st, ok := solidarity.ParseMemberState(string(s))
		if !ok {
			return invalid("balance.pledges."+string(s), "%q is not a Member State code", s)
		}
		if _, dup := canon[st]; dup {
			return invalid("balance.pledges."+string(s), "%s pledged twice", st)
		}
		if n < 0 || n > MaxValue {
			return invalid("balance.pledges."+string(s), "pledge %d out of range 0…%d", n, MaxValue)
		}
		canon[st] = n
		total += n
		states = append(states, st)
	}
	slices.SortFunc(states, func(a, b solidarity.MemberState) int { return a.Index() - b.Index() })
	if len(states) > 0 && total == 0 {
		return invalid("balance.pledges", "every pledge is zero")
	}
	var persons int64 // of the families that must be placed
	for _, f := range m.Families {
		if f.Must {
			for _, n := range f.Need {
				persons += n
			}
		}
	}
	keep := new(big.Rat).Sub(big.NewRat(1, 1), new(big.Rat).SetFloat64(b.Tolerance))
	for _, st := range states {
		if canon[st] == 0 {
			continue
		}
		q := new(big.Rat).Mul(keep, big.NewRat(canon[st], 1))
		q.Mul(q, big.NewRat(persons, total))
		floor := new(big.Int).Quo(q.Num(), q.Denom()).Int64()
		places := c.statePlaces[st]
		if floor > 0 && len(places) == 0 {
			return conflict("balance.pledges."+string(st), "%s must receive at least %d persons but has no place", st, floor)
		}
		m.Mins = append(m.Mins, MinRow{Places: slices.Clone(places), Dim: -1, Min: floor})
		idx.Mins = append(idx.Mins, IndexMin{State: st, Min: floor})
	}
	return nil
}

// staticConflicts finds constraints that cannot hold whatever the solver does.
func staticConflicts(pr *Problem, m *Model, idx *Index, pinned []int) error {
	// Pinned families' needs against each place's capacity and each group's.
	load := make([][]int64, len(m.Places))
	for i, p := range pinned {
		if p < 0 {
			continue
		}
		if load[p] == nil {
			load[p] = make([]int64, m.Dims)
		}
		for d, n := range m.Families[i].Need {
			load[p][d] += n
		}
	}
	for p, l := range load {
		for d := range l {
			if l[d] > m.Places[p].Cap[d] {
				return conflict(fmt.Sprintf("places[%d].capacity[%d]", p, d), "families pinned to %q (%s) need %d %s, capacity %d",
					idx.Places[p], pinnedTo(pr, pinned, p), l[d], pr.Dimensions[d], m.Places[p].Cap[d])
			}
		}
	}
	for g, gr := range m.Groups {
		for d := range m.Dims {
			var s int64
			for _, p := range gr.Places {
				if load[p] != nil {
					s += load[p][d]
				}
			}
			if s > gr.Cap[d] {
				return conflict(fmt.Sprintf("groups[%d].capacity[%d]", g, d), "families pinned in group %q need %d %s, capacity %d",
					idx.Groups[g], s, pr.Dimensions[d], gr.Cap[d])
			}
		}
	}
	// A family that must be placed needs a place that could hold it alone.
	for i, f := range m.Families {
		if !f.Must {
			continue
		}
		fits := false
		for _, a := range f.Arcs {
			if fitsAlone(f.Need, m.Places[a.Place].Cap) {
				fits = true
				break
			}
		}
		if !fits {
			what := "has no compatible place"
			if len(f.Arcs) > 0 {
				what = "needs more than the capacity of each of its compatible places"
			}
			return conflict(fmt.Sprintf("families[%d]", i), "family %q must be placed but %s", idx.Families[i], what)
		}
	}
	// A minimum above the capacity of its places.
	for r, row := range m.Mins {
		var c int64
		for _, p := range row.Places {
			for _, x := range m.Places[p].Cap {
				c += x
			}
		}
		if row.Min > c {
			return conflict("balance.pledges."+string(idx.Mins[r].State), "%s must receive at least %d persons but its places hold %d", idx.Mins[r].State, row.Min, c)
		}
	}
	return nil
}

func fitsAlone(need, cap []int64) bool {
	for d := range need {
		if need[d] > cap[d] {
			return false
		}
	}
	return true
}

func pinnedTo(pr *Problem, pinned []int, p int) string {
	var ids []string
	for i, q := range pinned {
		if q == p {
			ids = append(ids, pr.Families[i].ID)
		}
	}
	if len(ids) > 5 {
		return strings.Join(ids[:5], ", ") + fmt.Sprintf(" and %d more", len(ids)-5)
	}
	return strings.Join(ids, ", ")
}

// Result is a solution by ID, ready for JSON or a table.
type Result struct {
	Status Status  `json:"status"`
	Reason string  `json:"reason,omitempty"`
	Value  float64 `json:"value"`
	// Bound and Gap are absent when not finite (an infeasible model).
	Bound      *float64      `json:"bound,omitempty"`
	Gap        *float64      `json:"gap,omitempty"`
	Families   int           `json:"families"` // in the problem
	Placed     int           `json:"placed"`
	Persons    int64         `json:"persons_placed"`
	Placements []Placement   `json:"placements"`
	Unplaced   []string      `json:"unplaced"`
	States     []StateIntake `json:"states"`
	Nodes      int           `json:"nodes"`
	ElapsedMS  float64       `json:"elapsed_ms"`
	// FloorPrice, for a problem with balance floors, is what the floors cost in
	// score (FloorsPrice).
	FloorPrice *FloorPrice `json:"floor_price,omitempty"`
}

// FloorPrice is the price of a problem's floors (its balance minimums): the
// optimum without them, and what they cost, in score and in percent of that.
type FloorPrice struct {
	Without float64 `json:"without"`
	Status  Status  `json:"without_status"`
	Cost    float64 `json:"cost"`
	Percent float64 `json:"percent"`
}

// FloorsPrice solves m without its minimum rows and returns the price of the
// floors for a solve that reached value with them: the score they cost (never
// below zero: a time-limited solve with them may beat one without) and its share
// of the value without. nil when m has no floors or the solve fails.
func FloorsPrice(ctx context.Context, m *Model, value float64, opts Options) *FloorPrice {
	if len(m.Mins) == 0 {
		return nil
	}
	free := *m
	free.Mins = nil
	sol, err := Solve(ctx, &free, opts)
	if err != nil || sol.Status == Infeasible {
		return nil
	}
	fp := &FloorPrice{Without: sol.Value, Status: sol.Status, Cost: max(0, sol.Value-value)}
	if sol.Value > 0 {
		fp.Percent = 100 * fp.Cost / sol.Value
	}
	return fp
}

// Placement is one family's place and why: its score and the score's components.
type Placement struct {
	Family     string                 `json:"family"`
	Place      string                 `json:"place"`
	State      solidarity.MemberState `json:"state"`
	Persons    int64                  `json:"persons"`
	Score      float64                `json:"score"`
	Components Components             `json:"components"`
}

// StateIntake sums the placements in one Member State.
type StateIntake struct {
	State    solidarity.MemberState `json:"state"`
	Families int                    `json:"families"`
	Persons  int64                  `json:"persons"`
	Min      *int64                 `json:"min,omitempty"` // the balance minimum, if any
}

// Result returns sol by ID. sol and idx come from Solve and Compile on this problem.
func (pr *Problem) Result(sol *Solution, idx *Index) *Result { return idx.Result(sol) }

// Result returns sol, a solution of the model idx indexes, by ID. Places without a
// state (an index built by hand for data from outside the EU) count in no state.
func (idx *Index) Result(sol *Solution) *Result {
	r := &Result{Status: sol.Status, Reason: idx.Names(sol.Reason), Value: sol.Value, Families: len(idx.Families),
		Placements: []Placement{}, Unplaced: []string{}, States: []StateIntake{},
		Nodes: sol.Nodes, ElapsedMS: float64(sol.Elapsed.Microseconds()) / 1000}
	if finite(sol.Bound) && sol.Status != Infeasible {
		b, g := sol.Bound, sol.Gap()
		r.Bound, r.Gap = &b, &g
	}
	if sol.Status == Infeasible {
		r.Value = 0
	}
	intake := map[solidarity.MemberState]*StateIntake{}
	for f, p := range sol.Place {
		if f >= len(idx.Families) {
			break
		}
		if p < 0 || sol.Status == Infeasible || p >= len(idx.Places) {
			r.Unplaced = append(r.Unplaced, idx.Families[f])
			continue
		}
		var persons int64
		if f < len(idx.Persons) {
			persons = idx.Persons[f]
		}
		pl := Placement{Family: idx.Families[f], Place: idx.Places[p], State: idx.States[p], Persons: persons}
		if f < len(idx.Arcs) {
			for _, a := range idx.Arcs[f] {
				if a.Place == p {
					pl.Score, pl.Components = a.Score, a.Components
				}
			}
		}
		r.Placements = append(r.Placements, pl)
		r.Placed++
		r.Persons += persons
		if pl.State == "" {
			continue
		}
		si := intake[pl.State]
		if si == nil {
			si = &StateIntake{State: pl.State}
			intake[pl.State] = si
		}
		si.Families++
		si.Persons += persons
	}
	for _, mr := range idx.Mins {
		si := intake[mr.State]
		if si == nil {
			si = &StateIntake{State: mr.State}
			intake[mr.State] = si
		}
		si.Min = &mr.Min
	}
	for _, si := range intake {
		r.States = append(r.States, *si)
	}
	slices.SortFunc(r.States, func(a, b StateIntake) int { return a.State.Index() - b.State.Index() })
	return r
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
