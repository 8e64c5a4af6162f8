package casesvc

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/match"
	"solidarity/rules"
)

// The matching engine in the case flow (issue 5): the coordinator asks for a proposal
// for the relocation candidates against the current pledges, reviews it (placements,
// and an explanation per family), pins or forbids placements and asks again, and
// accepts: each accepted placement is an allocation (Assign), which starts the
// relocation steps.
//
// The problem given to the engine (match.Problem) is pseudonymous: families by
// FamilyID, places by Member State code, needs and scores as numbers. The personal
// records are read (each read logged with purpose "matching") only to compute the
// score components; nothing personal leaves this file, in a proposal, an explanation,
// an error or a log.
//
// The choices made here, none of them read in the legal text (tag M, modelled):
//
//   - One capacity dimension, "persons": a state's room is its relocation pledge for
//     the year (applicants and beneficiaries, Art. 56(2)(a) AMMR) less what it has
//     delivered and less the persons allocated to it and not yet transferred — the
//     same room Assign checks.
//   - Families with an unaccompanied minor are left out of the proposal (Excluded):
//     their relocation waits for the best interests assessment, and no pledge says
//     whether a state has places for unaccompanied minors. The coordinator may still
//     allocate them by hand (Assign). A second dimension ("uam-places") is where this
//     would go once pledges carry such places.
//   - A family may go to every pledging state except its benefitting one.
//   - Score = Links·links + Preference·preference + Integration·integration with
//     DefaultMatchWeights, and the components of family × state:
//     links: the relatives of the family's members who are in that state as
//     beneficiaries of protection, applicants or legally present (the meaningful
//     links of Art. 67 AMMR; its paragraphs are not read, R), one per relative;
//     preference: 1 when a member names the state first, 0.5 second, 0.25 third (the
//     best over the members);
//     integration: 0.5 when a member speaks a language usual in the state
//     (usualLanguages, an assumption: the official languages), else 0.

// DefaultMatchWeights weigh the score components: a meaningful link counts twice a
// first preference (Art. 67 AMMR asks that links be taken into account; the
// weights are a modelling choice, M).
var DefaultMatchWeights = match.Weights{Links: 2, Preference: 1, Integration: 1}

// MatchTimeLimit bounds one solve of a proposal; the proposal says whether it was
// proven optimal.
const MatchTimeLimit = 10 * time.Second

// preferenceScore is the preference component by rank of the state in a person's
// stated preferences.
var preferenceScore = []float64{1, 0.5, 0.25}

// integrationScore is the integration component when a member speaks a language
// usual in the state.
const integrationScore = 0.5

// usualLanguages are the languages (ISO 639-1) usual in each Member State: its
// official languages. An assumption of the model (M), kept small and explicit.
var usualLanguages = map[solidarity.MemberState][]string{
	"BE": {"nl", "fr", "de"}, "BG": {"bg"}, "CZ": {"cs"}, "DK": {"da"}, "DE": {"de"}, "EE": {"et"},
	"IE": {"en", "ga"}, "EL": {"el"}, "ES": {"es"}, "FR": {"fr"}, "HR": {"hr"}, "IT": {"it"},
	"CY": {"el", "tr"}, "LV": {"lv"}, "LT": {"lt"}, "LU": {"lb", "fr", "de"}, "HU": {"hu"},
	"MT": {"mt", "en"}, "NL": {"nl"}, "AT": {"de"}, "PL": {"pl"}, "PT": {"pt"}, "RO": {"ro"},
	"SI": {"sl"}, "SK": {"sk"}, "FI": {"fi", "sv"}, "SE": {"sv"},
}

// maxOverrides bounds the pins, forbids and explanations of one request.
const maxOverrides = 10000

// ProposalRequest asks for a proposal. Pins and Forbids are the officer's overrides:
// a pinned family goes to that state (or there is no proposal), a forbidden one not
// to those states; the others stay where the proposal without overrides put them as
// far as the optimum allows (match.Resolve). Explain names the families whose
// explanation the answer carries. Method is MethodStatic (or empty: the optimum of
// this batch alone) or MethodPotentials (the room priced for the rest of the year,
// potentials.go).
type ProposalRequest struct {
	// Year is the cycle whose pledges are the places; 0: the current year.
	Year    int                                              `json:"year,omitzero"`
	Method  string                                           `json:"method,omitempty"`
	Pins    map[solidarity.FamilyID]solidarity.MemberState   `json:"pins,omitempty"`
	Forbids map[solidarity.FamilyID][]solidarity.MemberState `json:"forbids,omitempty"`
	Explain []solidarity.FamilyID                            `json:"explain,omitempty"`
}

// Proposal is the engine's proposal for the relocation candidates.
type Proposal struct {
	Year int `json:"year"`
	// Current: Year is the current year, whose pledges Accept draws on.
	Current bool `json:"current"`
	// Status says whether the proposal is proven optimal: the most persons placed
	// and, among such proposals, the highest Value.
	Status match.Status `json:"status"`
	// Value is the total score of the placements.
	Value   float64       `json:"value"`
	Weights match.Weights `json:"weights"`
	// Families counts the candidate families in the problem (Excluded aside).
	Families   int                                              `json:"families"`
	Persons    int                                              `json:"persons_placed"`
	Placements []Placement                                      `json:"placements"`
	Unplaced   []FamilyNote                                     `json:"unplaced"`
	Excluded   []FamilyNote                                     `json:"excluded"`
	States     []PlaceRoom                                      `json:"states"`
	Pins       map[solidarity.FamilyID]solidarity.MemberState   `json:"pins,omitempty"`
	Forbids    map[solidarity.FamilyID][]solidarity.MemberState `json:"forbids,omitempty"`
	// Moved are the families without an override whose state differs from the
	// proposal without overrides.
	Moved        []solidarity.FamilyID                      `json:"moved"`
	Explanations map[solidarity.FamilyID]*match.Explanation `json:"explanations,omitempty"`
	// Method is the request's (MethodStatic when it named none); Potentials, with
	// MethodPotentials, the prices the scores were reduced by, and
	// ExplainedPotentials those of each explained family's state and next-best one.
	Method              string                                  `json:"method"`
	Potentials          *PotentialsInfo                         `json:"potentials,omitempty"`
	ExplainedPotentials map[solidarity.FamilyID]FamilyPotential `json:"explained_potentials,omitempty"`
	// Hindsight is the year so far against its hindsight optimum.
	Hindsight *Hindsight `json:"hindsight"`
}

// Placement is a family and its proposed Member State of relocation. Accept reads
// Family and State only.
type Placement struct {
	Family      solidarity.FamilyID    `json:"family"`
	State       solidarity.MemberState `json:"state"`
	Cases       []solidarity.CaseID    `json:"cases,omitempty"`
	Persons     int                    `json:"persons,omitzero"`
	Benefitting solidarity.MemberState `json:"benefitting_state,omitempty"`
	Score       float64                `json:"score,omitzero"`
	Components  match.Components       `json:"components,omitzero"`
	Pinned      bool                   `json:"pinned,omitzero"`
}

// FamilyNote is a family the proposal does not place, and why.
type FamilyNote struct {
	Family      solidarity.FamilyID    `json:"family"`
	Cases       []solidarity.CaseID    `json:"cases"`
	Persons     int                    `json:"persons"`
	Benefitting solidarity.MemberState `json:"benefitting_state"`
	Why         string                 `json:"why"`
	// WhyCode is Why as a code (match.WhyNoGain …, WhyMinor) for a page that says it
	// in the reader's language; not in the JSON, whose Why is the contract.
	WhyCode string `json:"-"`
}

// WhyMinor is the code of an excluded family with an unaccompanied minor.
const WhyMinor = "minor"

// PlaceRoom is a pledging state's room and what the proposal puts there.
type PlaceRoom struct {
	State     solidarity.MemberState `json:"state"`
	Pledged   int64                  `json:"pledged"`
	Delivered int64                  `json:"delivered"`
	Allocated int64                  `json:"allocated"` // allocated and not yet transferred
	Room      int64                  `json:"room"`
	Proposed  int64                  `json:"proposed"` // persons
}

// candidate is a family of relocation candidates with its members' records.
type candidate struct {
	family      solidarity.FamilyID
	benefitting solidarity.MemberState
	cases       []*solidarity.CaseRecord
	persons     []*arrival.Person
}

func (c *candidate) ids() []solidarity.CaseID {
	out := make([]solidarity.CaseID, len(c.cases))
	for i, r := range c.cases {
		out[i] = r.ID
	}
	return out
}

func (c *candidate) minor() bool {
	return slices.ContainsFunc(c.persons, func(p *arrival.Person) bool { return p.UnaccompaniedMinor })
}

// isCandidate reports whether a case may be allocated (Assign's rule).
func isCandidate(r *solidarity.CaseRecord) bool {
	return cases.Can(r.State, cases.RelocationAllocated) && r.Allocated == ""
}

// candidates returns the families of relocation candidates not yet allocated: every
// open member identified or cleared for relocation (a member the security gate
// excluded stays behind, as in familyFor), in family order.
//
// A demonstration's candidates draw only on its own cycle's pledges, and real
// candidates only on a real cycle's: the candidates of cycle year are those whose
// arrival counts in a demonstration cycle exactly when year is one.
func (s *Service) candidates(ctx context.Context, year int) ([]*candidate, error) {
	inCycle := map[solidarity.ArrivalID]bool{}
	byFamily := map[solidarity.FamilyID]*candidate{}
	spoiled := map[solidarity.FamilyID]bool{}
	var after solidarity.CaseID
	const page = solidarity.MaxCaseLimit
	for {
		rs, err := s.Store.Cases(ctx, solidarity.CaseFilter{Open: true, After: after, Limit: page})
		if err != nil {
			return nil, err
		}
		for _, r := range rs {
			switch {
			case r.State.Relocation() == cases.Excluded:
			case isCandidate(r):
				in, ok := inCycle[r.Arrival]
				if !ok {
					a, err := s.Store.Arrival(ctx, r.Arrival)
					if err != nil {
						return nil, err
					}
					in = a.Cycle == arrivalCycle(year)
					inCycle[r.Arrival] = in
				}
				if !in {
					continue
				}
				c := byFamily[r.Family]
				if c == nil {
					c = &candidate{family: r.Family, benefitting: r.Benefitting}
					byFamily[r.Family] = c
				}
				c.cases = append(c.cases, r)
			default:
				spoiled[r.Family] = true // a member elsewhere: the family is not ready
			}
		}
		if len(rs) < page {
			break
		}
		after = rs[len(rs)-1].ID
	}
	var out []*candidate
	for _, f := range slices.Sorted(maps.Keys(byFamily)) {
		if !spoiled[f] {
			out = append(out, byFamily[f])
		}
	}
	return out, nil
}

// readForMatching opens the candidates' personal records, each read recorded first
// with purpose "matching".
func (s *Service) readForMatching(ctx context.Context, cs []*candidate) error {
	u := user(ctx)
	var log []*solidarity.Access
	for _, c := range cs {
		for _, r := range c.cases {
			if !mayOnCase(ctx, solidarity.ReadPersonal, r) {
				return denied(solidarity.ReadPersonal, r.Benefitting)
			}
			log = append(log, &solidarity.Access{At: s.now(), Actor: u.Name, Role: u.Role, State: u.State, Case: r.ID, Purpose: "matching"})
		}
	}
	if len(log) > 0 {
		if err := s.Store.RecordAccess(ctx, log...); err != nil {
			return err
		}
	}
	for _, c := range cs {
		for _, r := range c.cases {
			p, err := s.open(r)
			if err != nil {
				return err
			}
			c.persons = append(c.persons, p)
		}
	}
	return nil
}

// components scores a family for a state (see the file's comment).
func components(c *candidate, m solidarity.MemberState) match.Components {
	var k match.Components
	langs := usualLanguages[m]
	for _, p := range c.persons {
		for _, rel := range p.Relatives {
			if rel.State == m && (rel.Status == rules.StatusBeneficiary || rel.Status == rules.StatusApplicant || rel.Status == rules.StatusLegallyPresent) {
				k.Links++
			}
		}
		if i := slices.Index(p.Preferences, m); i >= 0 && i < len(preferenceScore) {
			k.Preference = max(k.Preference, preferenceScore[i])
		}
		if slices.ContainsFunc(p.Languages, func(l string) bool { return slices.Contains(langs, l) }) {
			k.Integration = integrationScore
		}
	}
	return k
}

// arrivalCycle is the Arrival.Cycle of the arrivals whose candidates draw on the
// pledges of cycle year: the demonstration's own, or 0 (the real arrivals).
func arrivalCycle(year int) int {
	if solidarity.IsDemoCycle(year) {
		return year
	}
	return 0
}

// matching is a proposal in the making: the problem and what it was built from.
type matching struct {
	year    int
	rooms   []PlaceRoom
	fams    []*candidate // in the problem, in its order
	byID    map[solidarity.FamilyID]*candidate
	exclude []FamilyNote
	pr      *match.Problem
}

// build reads the candidates and the pledges and makes the problem.
func (s *Service) build(ctx context.Context, year int) (*matching, error) {
	cs, err := s.candidates(ctx, year)
	if err != nil {
		return nil, err
	}
	if err := s.readForMatching(ctx, cs); err != nil {
		return nil, err
	}
	pledges, err := s.Ledger.RelocationPledges(ctx, s.Store, year)
	if err != nil {
		return nil, err
	}
	mt := &matching{year: year, byID: map[solidarity.FamilyID]*candidate{}, exclude: []FamilyNote{},
		pr: &match.Problem{Dimensions: []string{"persons"}, Weights: new(DefaultMatchWeights), Families: []match.FamilyEntry{},
			Places: []match.PlaceEntry{}, Pairs: []match.Pair{}}}
	for _, p := range pledges {
		inflight, err := s.Store.Allocated(ctx, p.State, arrivalCycle(year), "", cases.Relocated.States()...)
		if err != nil {
			return nil, err
		}
		room := max(p.Pledged-p.Delivered-inflight, 0)
		mt.rooms = append(mt.rooms, PlaceRoom{State: p.State, Pledged: p.Pledged, Delivered: p.Delivered, Allocated: inflight, Room: room})
		mt.pr.Places = append(mt.pr.Places, match.PlaceEntry{ID: string(p.State), State: p.State, Capacity: []int64{room}})
	}
	for _, c := range cs {
		mt.byID[c.family] = c
		if c.minor() {
			mt.exclude = append(mt.exclude, FamilyNote{Family: c.family, Cases: c.ids(), Persons: len(c.cases), Benefitting: c.benefitting,
				Why: "an unaccompanied minor: relocation waits for the best interests assessment; allocate by hand once it is made", WhyCode: WhyMinor})
			continue
		}
		mt.fams = append(mt.fams, c)
		mt.pr.Families = append(mt.pr.Families, match.FamilyEntry{ID: string(c.family), Needs: []int64{int64(len(c.cases))}})
		for _, r := range mt.rooms {
			if r.State == c.benefitting {
				continue
			}
			mt.pr.Pairs = append(mt.pr.Pairs, match.Pair{Family: string(c.family), Place: string(r.State), Components: components(c, r.State)})
		}
	}
	return mt, nil
}

// solved is a proposal's problem (with the overrides), model and solution.
type solved struct {
	pr    *match.Problem
	m     *match.Model
	idx   *match.Index
	sol   *match.Solution
	moved []solidarity.FamilyID
}

// solve solves the problem, then, with overrides, solves again from that solution.
// pp, when not nil, are the potentials each arc's score is reduced by.
func (mt *matching) solve(ctx context.Context, req ProposalRequest, pp *match.PlacePrices) (*solved, error) {
	m, idx, err := compileValued(mt.pr, pp)
	if err != nil {
		return nil, err
	}
	sol, err := match.Solve(ctx, m, match.Options{TimeLimit: MatchTimeLimit})
	if err != nil {
		return nil, err
	}
	if len(req.Pins) == 0 && len(req.Forbids) == 0 {
		return &solved{pr: mt.pr, m: m, idx: idx, sol: sol, moved: []solidarity.FamilyID{}}, nil
	}
	pr := mt.pr
	overridden := map[solidarity.FamilyID]bool{}
	for _, f := range slices.Sorted(maps.Keys(mt.byID)) {
		pin, forbid := req.Pins[f], req.Forbids[f]
		if pin == "" && len(forbid) == 0 {
			continue
		}
		overridden[f] = true
		var ids []string
		for _, m := range forbid {
			if slices.ContainsFunc(mt.rooms, func(r PlaceRoom) bool { return r.State == m }) {
				ids = append(ids, string(m))
			}
		}
		if pr, err = match.Override(pr, string(f), string(pin), ids); err != nil {
			return nil, err
		}
	}
	m2, idx2, err := compileValued(pr, pp)
	if err != nil {
		return nil, err
	}
	res, err := match.ResolveModel(ctx, m2, idx2, sol, idx, match.Options{TimeLimit: MatchTimeLimit})
	if err != nil {
		return nil, err
	}
	out := &solved{pr: pr, m: res.Model, idx: res.Index, sol: res.Solution, moved: []solidarity.FamilyID{}}
	for _, f := range res.Moved {
		if !overridden[solidarity.FamilyID(f)] {
			out.moved = append(out.moved, solidarity.FamilyID(f))
		}
	}
	return out, nil
}

// compileValued compiles pr and raises the score of every arc by a value per person
// placed above the largest total score the components can give: the proposal places
// as many persons as the pledges' room allows (the relocations pledged are counted in
// persons, Art. 56(2)(a) AMMR) and, among those placements, maximises the score.
// Without it a family scoring zero everywhere (no link, preference or language)
// would never be proposed. The index keeps the components' scores, which is what
// proposals and explanations report. With potentials pp each arc's score is first
// reduced by the family's needs at its place's prices; a reduced score may be
// negative, so the value per person is above the largest absolute score summed:
// one more person placed outweighs any change of states.
func compileValued(pr *match.Problem, pp *match.PlacePrices) (*match.Model, *match.Index, error) {
	m, idx, err := pr.Compile()
	if err != nil {
		return nil, nil, err
	}
	var total float64
	for i := range m.Families {
		best := 0.0
		for j, a := range m.Families[i].Arcs {
			if pp != nil {
				a.Score = pp.Reduced(a.Score, m.Families[i].Need, a.Place)
				m.Families[i].Arcs[j].Score = a.Score
			}
			best = max(best, math.Abs(a.Score))
		}
		total += best
	}
	perPerson := 1 + total
	for i := range m.Families {
		var n int64
		for _, x := range m.Families[i].Need {
			n += x
		}
		for j := range m.Families[i].Arcs {
			m.Families[i].Arcs[j].Score += perPerson * float64(n)
		}
	}
	return m, idx, nil
}

// checkOverrides validates a request's pins, forbids and explanations against the
// candidates and the places.
func (mt *matching) checkOverrides(req ProposalRequest) error {
	if len(req.Pins)+len(req.Forbids)+len(req.Explain) > maxOverrides {
		return invalid("pins", "", "at most %d pins, forbids and explanations per request", maxOverrides)
	}
	inProblem := func(f solidarity.FamilyID) bool {
		return slices.ContainsFunc(mt.fams, func(c *candidate) bool { return c.family == f })
	}
	place := func(m solidarity.MemberState) bool {
		return slices.ContainsFunc(mt.rooms, func(r PlaceRoom) bool { return r.State == m })
	}
	for _, f := range slices.Sorted(maps.Keys(req.Pins)) {
		m := req.Pins[f]
		if !inProblem(f) {
			return invalid("pins", "", "family %s is not a relocation candidate of this proposal", f)
		}
		if !place(m) {
			return invalid("pins", "Art. 56(2)(a) AMMR", "family %s: %q has no relocation pledge for %d", f, m, mt.year)
		}
	}
	for _, f := range slices.Sorted(maps.Keys(req.Forbids)) {
		if !inProblem(f) {
			return invalid("forbids", "", "family %s is not a relocation candidate of this proposal", f)
		}
		for _, m := range req.Forbids[f] {
			if !m.Valid() {
				return invalid("forbids", "", "family %s: %q is not a Member State code", f, m)
			}
			if req.Pins[f] == m {
				return invalid("forbids", "", "family %s is pinned to %s and forbidden from it", f, m)
			}
		}
	}
	for _, f := range req.Explain {
		if !inProblem(f) {
			return &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "explain", Message: fmt.Sprintf("family %s is not in the proposal", f)}
		}
	}
	return nil
}

// Proposal proposes Member States of relocation for the relocation candidates not
// yet allocated (identified or cleared for relocation, whole families) against the
// relocation pledges of the year, with the officer's pins and forbids, and explains
// the families req.Explain names (see the file's comment for the model). It records
// nothing but the reads of the candidates' and of the year's allocated families'
// personal records (purpose "matching"); it is deterministic for the same cases,
// pledges, request and week of the year. Every proposal carries the year's
// hindsight report. Coordinator only (EUNAUTHORIZED otherwise). Errors: EINVALID for
// an unknown method, a pin or forbid of a family that is
// not a candidate or a state without a pledge, ECONFLICT when the pins leave no
// proposal, ENOTFOUND for an explanation of a family not in the proposal.
func (s *Service) Proposal(ctx context.Context, req ProposalRequest) (*Proposal, error) {
	if !solidarity.Can(user(ctx), solidarity.AssignCase, "") {
		return nil, denied(solidarity.AssignCase, "")
	}
	now := s.now().Year()
	if req.Year == 0 {
		req.Year = now
	}
	if req.Year < 2000 || req.Year > 9999 {
		return nil, invalid("year", "", "%d is not a cycle year", req.Year)
	}
	if req.Method == "" {
		req.Method = MethodStatic
	}
	if req.Method != MethodStatic && req.Method != MethodPotentials {
		return nil, invalid("method", "", "the method is %q or %q", MethodStatic, MethodPotentials)
	}
	mt, err := s.build(ctx, req.Year)
	if err != nil {
		return nil, err
	}
	if err := mt.checkOverrides(req); err != nil {
		return nil, err
	}
	alloc, unscored, err := s.allocatedThisYear(ctx, req.Year)
	if err != nil {
		return nil, err
	}
	var pp *match.PlacePrices
	var info *PotentialsInfo
	if req.Method == MethodPotentials {
		if pp, info, err = mt.potentials(ctx, alloc, s.now()); err != nil {
			return nil, err
		}
	}
	sv, err := mt.solve(ctx, req, pp)
	if err != nil {
		return nil, err
	}
	hs, err := hindsight(ctx, alloc, *mt.pr.Weights)
	if err != nil {
		return nil, err
	}
	hs.Unscored = unscored
	if sv.sol.Status == match.Infeasible {
		return nil, conflict("Art. 56(2)(a) AMMR", "the pins leave no proposal within the pledges' room: %s", sv.sol.Reason)
	}
	p := &Proposal{Year: req.Year, Current: req.Year == now, Status: sv.sol.Status,
		Weights: *mt.pr.Weights, Families: len(mt.fams), Placements: []Placement{}, Unplaced: []FamilyNote{}, Excluded: mt.exclude,
		States: mt.rooms, Pins: req.Pins, Forbids: req.Forbids, Moved: sv.moved, Method: req.Method, Potentials: info, Hindsight: hs}
	if p.States == nil {
		p.States = []PlaceRoom{}
	}
	res := sv.pr.Result(sv.sol, sv.idx)
	for _, pl := range res.Placements {
		c := mt.byID[solidarity.FamilyID(pl.Family)]
		p.Placements = append(p.Placements, Placement{Family: c.family, State: pl.State, Cases: c.ids(), Persons: len(c.cases),
			Benefitting: c.benefitting, Score: pl.Score, Components: pl.Components, Pinned: req.Pins[c.family] == pl.State})
		p.Persons += len(c.cases)
		p.Value += pl.Score
		for i := range p.States {
			if p.States[i].State == pl.State {
				p.States[i].Proposed += int64(len(c.cases))
			}
		}
	}
	slices.SortStableFunc(p.Placements, func(a, b Placement) int {
		return cmp.Or(a.State.Index()-b.State.Index(), cmp.Compare(a.Family, b.Family))
	})
	explain := func(f solidarity.FamilyID) (*match.Explanation, error) {
		i, err := match.FamilyIndex(sv.idx, string(f))
		if err != nil {
			return nil, err
		}
		return match.Explain(ctx, sv.pr, sv.m, sv.idx, sv.sol, i)
	}
	for _, f := range res.Unplaced {
		c := mt.byID[solidarity.FamilyID(f)]
		i, err := match.FamilyIndex(sv.idx, f)
		if err != nil {
			return nil, err
		}
		code, why, _ := match.WhyUnplacedCode(sv.pr, sv.m, sv.idx, sv.sol, i)
		p.Unplaced = append(p.Unplaced, FamilyNote{Family: c.family, Cases: c.ids(), Persons: len(c.cases), Benefitting: c.benefitting, Why: why, WhyCode: code})
	}
	for _, f := range req.Explain {
		e, err := explain(f)
		if err != nil {
			return nil, err
		}
		if p.Explanations == nil {
			p.Explanations = map[solidarity.FamilyID]*match.Explanation{}
		}
		p.Explanations[f] = e
		if info != nil {
			if p.ExplainedPotentials == nil {
				p.ExplainedPotentials = map[solidarity.FamilyID]FamilyPotential{}
			}
			fp := FamilyPotential{State: e.State, Potential: info.potentialOf(e.State)}
			if e.NextBest != nil {
				fp.NextBest, fp.NextPotential = e.NextBest.State, info.potentialOf(e.NextBest.State)
			}
			p.ExplainedPotentials[f] = fp
		}
	}
	return p, nil
}

// Accepted is the outcome of accepting one placement.
type Accepted struct {
	Family    solidarity.FamilyID    `json:"family"`
	State     solidarity.MemberState `json:"state"`
	Cases     []solidarity.CaseID    `json:"cases"`
	Allocated bool                   `json:"allocated"`
	Replayed  bool                   `json:"replayed,omitzero"`
	// Error is why the family was not allocated (the error of Assign).
	Error *AcceptError `json:"error,omitempty"`
}

// AcceptError is why a placement was not accepted: the code and message of the
// error, and the article of the rule it broke.
type AcceptError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	Article string `json:"article,omitempty"`
}

// maxAccept bounds the placements of one Accept.
const maxAccept = 10000

// Accept allocates each placement's family to its state (Assign, each family in its
// own transaction, with the room check of the current year's pledges) and reports
// per family; a refusal of one does not stop the others. idemKey, when set, makes
// each allocation idempotent under idemKey + "/" + family. Coordinator only
// (EUNAUTHORIZED for the whole request). Errors: EINVALID for an empty or oversized
// list, a family named twice or a bad state.
func (s *Service) Accept(ctx context.Context, placements []Placement, idemKey string) ([]Accepted, error) {
	if !solidarity.Can(user(ctx), solidarity.AssignCase, "") {
		return nil, denied(solidarity.AssignCase, "")
	}
	if len(placements) == 0 || len(placements) > maxAccept {
		return nil, invalid("placements", "", "accept 1 to %d placements", maxAccept)
	}
	seen := map[solidarity.FamilyID]bool{}
	for i, p := range placements {
		if p.Family == "" || seen[p.Family] {
			return nil, invalid(fmt.Sprintf("placements[%d].family", i), "", "family %q is empty or named twice", p.Family)
		}
		seen[p.Family] = true
		if !p.State.Valid() {
			return nil, invalid(fmt.Sprintf("placements[%d].state", i), "", "%q is not a Member State code", p.State)
		}
	}
	out := make([]Accepted, 0, len(placements))
	for _, p := range placements {
		a := Accepted{Family: p.Family, State: p.State, Cases: []solidarity.CaseID{}}
		applied, err := s.acceptOne(ctx, p, idemKey)
		if err != nil {
			a.Error = &AcceptError{Code: solidarity.ErrorCode(err), Message: solidarity.ErrorMessage(err)}
			if e, ok := errors.AsType[*solidarity.Error](err); ok {
				a.Error.Article = e.Article
			}
		} else {
			a.Allocated, a.Replayed = true, applied.Replayed
			for _, c := range applied.Cases {
				a.Cases = append(a.Cases, c.ID)
			}
		}
		out = append(out, a)
	}
	return out, nil
}

func (s *Service) acceptOne(ctx context.Context, p Placement, idemKey string) (*Applied, error) {
	fam := p.Family
	rs, err := s.Store.Cases(ctx, solidarity.CaseFilter{Family: &fam, Open: true, Limit: solidarity.MaxCaseLimit})
	if err != nil {
		return nil, err
	}
	i := slices.IndexFunc(rs, func(r *solidarity.CaseRecord) bool { return cases.Can(r.State, cases.RelocationAllocated) })
	if i < 0 {
		return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Message: fmt.Sprintf("family %s has no relocation candidate", fam)}
	}
	key := ""
	if idemKey != "" {
		key = idemKey + "/" + string(fam)
	}
	return s.Assign(ctx, rs[i].ID, p.State, key)
}
