package casesvc

import (
	"context"
	"maps"
	"math"
	"slices"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/match"
	"solidarity/match/online"
)

// A proposal with potentials (issue 16, item 6) and the year's hindsight report.
//
// The static proposal places this week's candidates at their own optimum, as if no
// family came after them: a state whose room is the only good one for families
// still to arrive can be filled by families who would do almost as well elsewhere.
// The potentials (Ahani, Gölz, Procaccia, Teytelboym & Trapp, "Dynamic placement in
// refugee resettlement", Operations Research 72(3), 2024) price each state's room
// for the rest of the year: futures are drawn from the families already allocated
// this year, the LP relaxation of this batch with each future is solved over the
// room left, and the capacity prices are averaged (online.BatchPotentials). Each
// arc's score is then reduced by its family's persons times its state's price
// before the same solve; compileValued's value per person still puts the most
// persons placed first, so the potentials only change which state a family goes
// to, never whether it is placed.
//
// The hindsight report replays the year so far: the families allocated this year,
// their actual placements' score (the online value) beside the best placement of
// the same families into the same room (each state's capacity: the persons
// allocated to it this year). Their ratio says how much the week-by-week decisions
// lost against knowing the year in advance.
//
// The same rule as matching.go holds here: the families allocated are scored from
// their personal records, each read logged with purpose "matching", and only
// numbers and pseudonymous IDs leave this file.

// The methods of ProposalRequest.Method.
const (
	MethodStatic     = "static"
	MethodPotentials = "potentials"
)

// potentialSamples is the number of futures drawn for the potentials: 20, as in
// the replays of docs/match-online.md (Ahani et al.'s code defaults to 5; a
// modelling choice, M).
const potentialSamples = 20

// weeksPerYear counts the weeks of a cycle for the expected rest of the year.
const weeksPerYear = 52

// HindsightTimeLimit bounds the hindsight solve: at most MatchTimeLimit, half of
// it, since it runs beside every proposal.
const HindsightTimeLimit = MatchTimeLimit / 2

// StatePotential is what one more place in a state is worth for the rest of the
// year, in score per person (the state's capacity price).
type StatePotential struct {
	State     solidarity.MemberState `json:"state"`
	PerPerson float64                `json:"per_person"`
}

// FamilyPotential is, for an explained family, the potential of the state it is
// placed in and of its next-best state (empty when there is none).
type FamilyPotential struct {
	State         solidarity.MemberState `json:"state,omitempty"`
	Potential     float64                `json:"potential"`
	NextBest      solidarity.MemberState `json:"next_best,omitempty"`
	NextPotential float64                `json:"next_best_potential"`
}

// PotentialsInfo is how a proposal with potentials was made: the families learnt
// from and the families expected in the rest of the year.
type PotentialsInfo struct {
	Pool    int              `json:"pool"`
	Future  int              `json:"future"`
	Samples int              `json:"samples"`
	Seed    uint64           `json:"seed"`
	States  []StatePotential `json:"states"`
}

// Hindsight is the year so far against its hindsight optimum. Families is 0 when
// nothing was allocated yet (and nothing else is set).
type Hindsight struct {
	Families int `json:"families"`
	Persons  int `json:"persons"`
	// Online is the total score of the placements made; Value the best total score
	// of the same families in the same room, Status whether it is proven, Bound a
	// proven upper bound on it.
	Online float64      `json:"online_value"`
	Value  float64      `json:"hindsight_value"`
	Status match.Status `json:"status,omitempty"`
	Bound  *float64     `json:"bound,omitempty"`
	// RatioPercent is 100 · Online / Value (100 when both are 0).
	RatioPercent float64 `json:"ratio_percent"`
	// Unscored counts the allocated families left out of the report because a
	// member's personal record is erased (retention): they cannot be scored.
	Unscored int `json:"unscored,omitzero"`
}

// allocatedFamily is a family allocated this year, and where.
type allocatedFamily struct {
	candidate
	state solidarity.MemberState
}

// allocatedThisYear returns the families allocated in cycle year (the allocation's
// cycle, entryCycle: a real arrival's allocation counts in the year it was made, a
// demonstration's in its own cycle), in family order, with their records read for
// matching, and the count of families left out because a record is erased.
func (s *Service) allocatedThisYear(ctx context.Context, year int) ([]*allocatedFamily, int, error) {
	inCycle := map[solidarity.ArrivalID]bool{}
	byFamily := map[solidarity.FamilyID]*allocatedFamily{}
	erased := map[solidarity.FamilyID]bool{}
	var after solidarity.CaseID
	const page = solidarity.MaxCaseLimit
	for {
		rs, err := s.Store.Cases(ctx, solidarity.CaseFilter{After: after, Limit: page})
		if err != nil {
			return nil, 0, err
		}
		for _, r := range rs {
			if r.Allocated == "" {
				continue
			}
			in, ok := inCycle[r.Arrival]
			if !ok {
				a, err := s.Store.Arrival(ctx, r.Arrival)
				if err != nil {
					return nil, 0, err
				}
				in = a.Cycle == arrivalCycle(year)
				inCycle[r.Arrival] = in
			}
			if !in {
				continue
			}
			if !solidarity.IsDemoCycle(year) {
				at, err := allocatedAt(r)
				if err != nil {
					return nil, 0, err
				}
				if at.Year() != year {
					continue
				}
			}
			if r.Personal == "" {
				erased[r.Family] = true
			}
			f := byFamily[r.Family]
			if f == nil {
				f = &allocatedFamily{candidate: candidate{family: r.Family, benefitting: r.Benefitting}, state: r.Allocated}
				byFamily[r.Family] = f
			}
			f.cases = append(f.cases, r)
		}
		if len(rs) < page {
			break
		}
		after = rs[len(rs)-1].ID
	}
	var out []*allocatedFamily
	var cs []*candidate
	for _, id := range slices.Sorted(maps.Keys(byFamily)) {
		if erased[id] {
			continue
		}
		out = append(out, byFamily[id])
		cs = append(cs, &byFamily[id].candidate)
	}
	if err := s.readForMatching(ctx, cs); err != nil {
		return nil, 0, err
	}
	return out, len(erased), nil
}

// allocatedAt is when case r was last allocated (its flow's history).
func allocatedAt(r *solidarity.CaseRecord) (time.Time, error) {
	f, err := decodeFlow(r)
	if err != nil {
		return time.Time{}, err
	}
	for i := len(f.History) - 1; i >= 0; i-- {
		if f.History[i].Event == cases.RelocationAllocated {
			return f.History[i].At, nil
		}
	}
	return r.Opened, nil // allocated before the history kept the event: its opening
}

// expectedFuture is the number of families expected in the rest of cycle year: the
// families allocated so far per week elapsed, times the weeks left. A plain rate,
// the simplest estimate that needs no history beyond this year (M): arrivals are
// seasonal, and a year with a slow start underestimates its summer. A past year
// has no weeks left; a demonstration's cycle runs on the calendar's weeks.
func expectedFuture(allocated int, year int, now time.Time) int {
	if allocated == 0 || (year != now.Year() && !solidarity.IsDemoCycle(year)) {
		return 0
	}
	elapsed := (now.YearDay()-1)/7 + 1
	left := max(weeksPerYear-elapsed, 0)
	return int(math.Round(float64(allocated) * float64(left) / float64(elapsed)))
}

// weighted is the score of components k under w.
func weighted(w match.Weights, k match.Components) float64 {
	return w.Links*k.Links + w.Preference*k.Preference + w.Integration*k.Integration
}

// potentials prices the room of mt's states for the rest of the year from the
// families allocated this year (nil prices when there is nothing to learn from
// or nothing left to keep room for). The seed is the year: the same cases and
// pledges give the same proposal.
func (mt *matching) potentials(ctx context.Context, alloc []*allocatedFamily, now time.Time) (*match.PlacePrices, *PotentialsInfo, error) {
	info := &PotentialsInfo{Samples: potentialSamples, Seed: uint64(mt.year), States: []StatePotential{}}
	m, idx, err := mt.pr.Compile()
	if err != nil {
		return nil, nil, err
	}
	place := map[solidarity.MemberState]int{}
	for i, st := range idx.States {
		place[st] = i
	}
	// The pool is what a future family of the proposal looks like: an allocated
	// family with no unaccompanied minor (those are left out of proposals), scored
	// for every pledging state but its benefitting one, as a candidate is.
	var pool []match.Family
	for _, f := range alloc {
		if f.minor() {
			continue
		}
		pf := match.Family{Need: []int64{int64(len(f.cases))}}
		for _, r := range mt.rooms {
			if r.State != f.benefitting {
				pf.Arcs = append(pf.Arcs, match.Arc{Place: place[r.State], Score: weighted(*mt.pr.Weights, components(&f.candidate, r.State))})
			}
		}
		slices.SortFunc(pf.Arcs, func(a, b match.Arc) int { return a.Place - b.Place })
		pool = append(pool, pf)
	}
	info.Pool = len(pool)
	info.Future = expectedFuture(len(pool), mt.year, now)
	var pp *match.PlacePrices
	if info.Future > 0 && len(m.Families) > 0 && len(m.Places) > 0 {
		if pp, err = online.BatchPotentials(ctx, m, pool, info.Future, potentialSamples, info.Seed); err != nil {
			return nil, nil, err
		}
	}
	for i, st := range idx.States {
		sp := StatePotential{State: st}
		if pp != nil {
			sp.PerPerson = max(pp.Price[i][0]+pp.Price[i][m.Dims], 0)
		}
		info.States = append(info.States, sp)
	}
	return pp, info, nil
}

// potentialOf is the potential per person of state m in info (0 when absent).
func (info *PotentialsInfo) potentialOf(m solidarity.MemberState) float64 {
	for _, sp := range info.States {
		if sp.State == m {
			return sp.PerPerson
		}
	}
	return 0
}

// hindsight solves the year so far knowing every family of it: the families of
// alloc into capacities of the persons allocated to each state this year. A family
// with an unaccompanied minor keeps its state (it was placed by hand after a best
// interests assessment the model knows nothing of); the others may go to any state
// that took a family this year but their benefitting one. The solve maximises the
// score alone: with non-negative scores placing a family never lowers it, so the
// actual placements (every family placed) are one of the solutions compared.
func hindsight(ctx context.Context, alloc []*allocatedFamily, w match.Weights) (*Hindsight, error) {
	h := &Hindsight{Families: len(alloc)}
	if len(alloc) == 0 {
		return h, nil
	}
	room := map[solidarity.MemberState]int64{}
	for _, f := range alloc {
		room[f.state] += int64(len(f.cases))
		h.Persons += len(f.cases)
		h.Online += weighted(w, components(&f.candidate, f.state))
	}
	pr := &match.Problem{Dimensions: []string{"persons"}, Weights: new(w)}
	states := slices.SortedFunc(maps.Keys(room), func(a, b solidarity.MemberState) int { return a.Index() - b.Index() })
	for _, st := range states {
		pr.Places = append(pr.Places, match.PlaceEntry{ID: string(st), State: st, Capacity: []int64{room[st]}})
	}
	for _, f := range alloc {
		pr.Families = append(pr.Families, match.FamilyEntry{ID: string(f.family), Needs: []int64{int64(len(f.cases))}})
		for _, st := range states {
			if st == f.benefitting || (f.minor() && st != f.state) {
				continue
			}
			pr.Pairs = append(pr.Pairs, match.Pair{Family: string(f.family), Place: string(st), Components: components(&f.candidate, st)})
		}
	}
	m, _, err := pr.Compile()
	if err != nil {
		return nil, err
	}
	sol, err := match.Solve(ctx, m, match.Options{TimeLimit: HindsightTimeLimit})
	if err != nil {
		return nil, err
	}
	// A solve stopped by the time limit may hold less than the placements made,
	// which are feasible: the hindsight optimum is at least those.
	h.Value, h.Status = max(sol.Value, h.Online), sol.Status
	if !math.IsInf(sol.Bound, 0) && !math.IsNaN(sol.Bound) {
		h.Bound = new(max(sol.Bound, h.Value))
	}
	h.RatioPercent = 100
	if h.Value > 1e-12 {
		h.RatioPercent = 100 * min(h.Online/h.Value, 1)
	}
	return h, nil
}
