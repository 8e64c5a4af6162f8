package online_test

import (
	"context"

	"solidarity/match"
	"solidarity/match/online"
)

// clairvoyant is the potentials method told the rest of the year: its prices are
// the LP duals of the batch and the families that will really arrive, over the room
// left. Not an online method (it learns from the year replayed): a reference for
// how much of the potentials method's loss is not knowing the future.
type clairvoyant struct{}

func (clairvoyant) Name() string { return "clairvoyant" }

func (clairvoyant) Place(ctx context.Context, st *online.State, batch []int) ([]int, error) {
	y := st.Year
	m := y.Model
	sub := &match.Model{Dims: m.Dims}
	for pl := range m.Places {
		sub.Places = append(sub.Places, match.Place{Cap: st.Room[pl]})
	}
	for f := range m.Families {
		if y.Batch[f] >= st.Batch {
			sub.Families = append(sub.Families, m.Families[f])
		}
	}
	pp, err := match.DualPrices(ctx, sub, 4)
	if err != nil {
		return nil, err
	}
	bm := &match.Model{Dims: m.Dims, Places: sub.Places}
	for _, f := range batch {
		fam := m.Families[f]
		nf := match.Family{Need: fam.Need}
		for _, a := range fam.Arcs {
			nf.Arcs = append(nf.Arcs, match.Arc{Place: a.Place, Score: pp.Reduced(a.Score, fam.Need, a.Place) + 1e-4*persons(fam.Need)})
		}
		bm.Families = append(bm.Families, nf)
	}
	sol, err := match.Solve(ctx, bm, match.Options{})
	if err != nil {
		return nil, err
	}
	return sol.Place, nil
}

func persons(need []int64) float64 {
	var s int64
	for _, n := range need {
		s += n
	}
	return float64(s)
}
