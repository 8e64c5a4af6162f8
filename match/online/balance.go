package online

import (
	"context"
	"math"
	"slices"

	"solidarity/match"
)

// share is state s's pro-rata share of the pledges.
func (st *State) share(s int) float64 {
	var sum float64
	for _, p := range st.Year.Pledge {
		sum += p
	}
	if sum <= 0 {
		return 0
	}
	return st.Year.Pledge[s] / sum
}

// floors are, per state, the persons it must take in this batch so that its
// intake after the batch is at least its share of everything placed by then, less
// the largest family seen (Bansak & Paulson's balance, as a floor per batch), when
// the batch places total persons.
func (st *State) floors(total int64) []int64 {
	out := make([]int64, len(st.Year.Pledge))
	T := float64(st.Total + total)
	for s := range out {
		need := math.Ceil(st.share(s)*T-float64(st.Largest)) - float64(st.Intake[s])
		out[s] = int64(max(0, need))
	}
	return out
}

// maxSlack is how many families below its share a state's floor may be lowered
// to when the floors cannot be met as they are.
const maxSlack = 3

// ceilings are, per state, the most persons it may take in this batch so that its
// intake after the batch is at most its share of everything placed by then, plus
// the largest family seen, when the batch places total persons.
func (st *State) ceilings(total int64) []int64 {
	out := make([]int64, len(st.Year.Pledge))
	T := float64(st.Total + total)
	for s := range out {
		c := math.Floor(st.share(s)*T+float64(st.Largest)) - float64(st.Intake[s])
		out[s] = int64(min(match.MaxValue, max(0, c)))
	}
	return out
}

// withPersons is sub with one more dimension, persons (each family's needs
// summed; each place's room in it unbounded), so that a state's ceiling in
// persons is a group row of the solver's kind (its rows are per dimension).
func withPersons(sub *match.Model) *match.Model {
	out := &match.Model{Dims: sub.Dims + 1, Mins: sub.Mins}
	for _, p := range sub.Places {
		out.Places = append(out.Places, match.Place{Cap: append(slices.Clone(p.Cap), match.MaxValue)})
	}
	for _, g := range sub.Groups {
		out.Groups = append(out.Groups, match.Group{Places: g.Places, Cap: append(slices.Clone(g.Cap), match.MaxValue)})
	}
	for _, f := range sub.Families {
		out.Families = append(out.Families, match.Family{Need: append(slices.Clone(f.Need), persons(f.Need)), Arcs: f.Arcs, Must: f.Must})
	}
	return out
}

// balance re-solves sub, whose optimum is place, with a floor per state below
// its share and a ceiling above (Bansak & Paulson's allocation balancing, as hard
// rows per batch: within one family of the share either way), when place leaves
// a state outside; a batch where they cannot be met is placed as place and
// counted (Run.Unbalanced).
func (st *State) balance(ctx context.Context, sub *match.Model, batch, place []int) ([]int, error) {
	m := st.Year.Model
	got := make([]int64, len(st.Year.Pledge))
	var total int64
	for i, pl := range place {
		if pl >= 0 {
			n := persons(m.Families[batch[i]].Need)
			total += n
			if s := st.Year.State[pl]; s >= 0 {
				got[s] += n
			}
		}
	}
	fl := st.floors(total)
	short := false
	ceil := st.ceilings(total)
	for s, f := range fl {
		if got[s] < f || got[s] > ceil[s] {
			short = true
		}
	}
	if !short {
		return place, nil
	}
	rows := make([][]int, len(fl))
	for pl, s := range st.Year.State {
		if s >= 0 {
			rows[s] = append(rows[s], pl)
		}
	}
	base := *sub
	sub = withPersons(sub)
	for s, f := range fl {
		if f > 0 {
			sub.Mins = append(sub.Mins, match.MinRow{Places: rows[s], Dim: sub.Dims - 1, Min: f})
		}
		if len(rows[s]) > 0 {
			// The ceiling in the persons dimension withPersons adds; the others free.
			c := make([]int64, sub.Dims)
			for d := range c {
				c[d] = match.MaxValue
			}
			c[sub.Dims-1] = ceil[s]
			sub.Groups = append(sub.Groups, match.Group{Places: rows[s], Cap: c})
		}
	}
	// The batch places exactly the persons the shares were computed for.
	all := make([]int, len(sub.Places))
	for pl := range all {
		all[pl] = pl
	}
	c := make([]int64, sub.Dims)
	for d := range c {
		c[d] = match.MaxValue
	}
	c[sub.Dims-1] = total
	sub.Groups = append(sub.Groups, match.Group{Places: all, Cap: c})
	sub.Mins = append(sub.Mins, match.MinRow{Places: all, Dim: sub.Dims - 1, Min: total})
	bal, err := st.solve(ctx, sub, len(batch), st.cfg.BatchTimeLimit)
	if err != nil {
		return nil, err
	}
	if bal != nil {
		return bal, nil
	}
	// Within the window both ways cannot be met (a state too far off after an
	// earlier batch, or families too large for the window): the floors alone.
	// The floors alone, then each lowered by one more family at a time.
	st.partial++
	for slack := range int64(maxSlack + 1) {
		floors := base
		floors.Mins = slices.Clone(base.Mins)
		for s, f := range fl {
			if f -= slack * st.Largest; f > 0 {
				floors.Mins = append(floors.Mins, match.MinRow{Places: rows[s], Dim: -1, Min: f})
			}
		}
		if bal, err = st.solve(ctx, &floors, len(batch), st.cfg.BatchTimeLimit); err != nil || bal != nil {
			return bal, err
		}
	}
	st.unbalanced++
	return place, nil
}

// deviation is the largest distance, in families of the largest size seen, of a
// state's intake below and above its share of everything placed so far.
func (st *State) deviation() (below, above float64) {
	if st.Largest == 0 {
		return 0, 0
	}
	for s := range st.Year.Pledge {
		d := (float64(st.Intake[s]) - st.share(s)*float64(st.Total)) / float64(st.Largest)
		below, above = max(below, -d), max(above, d)
	}
	return below, above
}
