package online

import (
	"context"
	"math"

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

// balance re-solves sub, whose optimum is place, with a floor per state below
// its share, when place leaves a state below; a batch where the floors cannot be
// met is placed as place and counted (Stats.Unbalanced).
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
	for s, f := range fl {
		if got[s] < f {
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
	for s, f := range fl {
		if f > 0 {
			sub.Mins = append(sub.Mins, match.MinRow{Places: rows[s], Dim: -1, Min: f})
		}
	}
	bal, err := st.solve(ctx, sub, len(batch), st.cfg.BatchTimeLimit)
	if err != nil {
		return nil, err
	}
	if bal == nil {
		st.unbalanced++
		return place, nil
	}
	return bal, nil
}

// deviation is the largest distance, in families of the largest size seen, of a
// state's intake from its share of everything placed so far.
func (st *State) deviation() float64 {
	if st.Largest == 0 {
		return 0
	}
	var dev float64
	for s := range st.Year.Pledge {
		dev = max(dev, math.Abs(float64(st.Intake[s])-st.share(s)*float64(st.Total))/float64(st.Largest))
	}
	return dev
}
