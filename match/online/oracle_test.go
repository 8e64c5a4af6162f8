package online_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"solidarity/match"
	"solidarity/match/hias"
	"solidarity/match/online"
)

type oracle struct{ K float64 }

func (oracle) Name() string { return "oracle" }

func (o oracle) Place(ctx context.Context, st *online.State, batch []int) ([]int, *online.Detail, error) {
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
		return nil, nil, err
	}
	bm := &match.Model{Dims: m.Dims, Places: sub.Places}
	for _, f := range batch {
		fam := m.Families[f]
		nf := match.Family{Need: fam.Need}
		for _, a := range fam.Arcs {
			nf.Arcs = append(nf.Arcs, match.Arc{Place: a.Place, Score: o.K*pp.Reduced(a.Score, fam.Need, a.Place) + (1-o.K)*a.Score + 1e-4})
		}
		bm.Families = append(bm.Families, nf)
	}
	sol, err := match.Solve(ctx, bm, match.Options{})
	if err != nil {
		return nil, nil, err
	}
	return sol.Place, nil, nil
}

func TestOracle(t *testing.T) {
	d, _ := hias.Read("../hias/testdata/fy2017")
	m, _ := d.Model("A")
	for _, k := range []float64{1} {
		var sum float64
		for s := range 3 {
			y := online.Shuffled(m, 52, uint64(s+1))
			r, err := online.RunYear(context.Background(), y, oracle{k}, nil, 1, nil)
			if err != nil {
				t.Fatal(err)
			}
			sum += r.Value / 180.76267 / 3
		}
		fmt.Printf("oracle k=%.2f ratio %.4f\n", k, sum)
	}
}

type pooled struct{ K int }

func (pooled) Name() string { return "pooled" }

func (o pooled) Place(ctx context.Context, st *online.State, batch []int) ([]int, *online.Detail, error) {
	y := st.Year
	m := y.Model
	left := y.Batches - st.Batch - 1
	sub := &match.Model{Dims: m.Dims}
	for pl := range m.Places {
		c := make([]int64, m.Dims)
		for d := range c {
			c[d] = st.Room[pl][d] * int64(o.K)
		}
		sub.Places = append(sub.Places, match.Place{Cap: c})
	}
	rng := rand.New(rand.NewPCG(uint64(st.Batch), 9))
	for range o.K {
		for _, f := range batch {
			sub.Families = append(sub.Families, m.Families[f])
		}
		if st.Batch > 0 && left > 0 {
			n := len(st.Past) * left / st.Batch
			for range n {
				sub.Families = append(sub.Families, m.Families[st.Past[rng.IntN(len(st.Past))]])
			}
		}
	}
	pp, err := match.DualPrices(ctx, sub, 4)
	if err != nil {
		return nil, nil, err
	}
	bm := &match.Model{Dims: m.Dims}
	for pl := range m.Places {
		bm.Places = append(bm.Places, match.Place{Cap: st.Room[pl]})
	}
	for _, f := range batch {
		fam := m.Families[f]
		nf := match.Family{Need: fam.Need}
		for _, a := range fam.Arcs {
			nf.Arcs = append(nf.Arcs, match.Arc{Place: a.Place, Score: pp.Reduced(a.Score, fam.Need, a.Place) + 1e-4})
		}
		bm.Families = append(bm.Families, nf)
	}
	sol, err := match.Solve(ctx, bm, match.Options{})
	if err != nil {
		return nil, nil, err
	}
	return sol.Place, nil, nil
}

func TestPooled(t *testing.T) {
	d, _ := hias.Read("../hias/testdata/fy2017")
	for _, w := range []string{"A", "B"} {
		m, _ := d.Model(w)
		hs, _ := map[string]float64{"A": 180.76267, "B": 208.99808}[w]
		for _, k := range []int{20} {
			var sum float64
			t0 := time.Now()
			for s := range 5 {
				y := online.Shuffled(m, 52, uint64(s+1))
				r, err := online.RunYear(context.Background(), y, pooled{k}, nil, 1, nil)
				if err != nil {
					t.Fatal(err)
				}
				sum += r.Value / hs / 5
			}
			fmt.Printf("%s pooled k=%d ratio %.4f %v\n", w, k, sum, time.Since(t0))
		}
	}
}
