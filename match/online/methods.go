package online

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"solidarity/match"
)

// Config tunes the methods and the replay.
type Config struct {
	// Samples is the number of futures the potentials, discord and exact methods
	// draw per batch (Ahani et al.'s trajectories; their code's default is 5, the
	// issue's benchmark 20).
	Samples int
	// BatchTimeLimit bounds each batch's solve; HindsightTimeLimit the whole
	// year's solve.
	BatchTimeLimit, HindsightTimeLimit time.Duration
	// Gap is the relative gap at which a solve counts as optimal (0: 1e-9).
	Gap float64
	// Balance keeps each state's cumulative intake at or above its pro-rata share of
	// everything placed so far, less the largest family seen, at every batch (a
	// hard row per state; a batch where it cannot be met is placed unbalanced and
	// counted).
	Balance bool
	// DualSteps bounds the smoothing levels of each future's prices
	// (match.DualPrices).
	DualSteps int
	// Eps is the bonus per person of placing a family at all, which keeps a family
	// whose reduced score is about zero from being left out (Ahani et al.'s code:
	// 1e-4).
	Eps float64
}

// DefaultConfig is the configuration Replay uses when given nil.
func DefaultConfig() *Config {
	return &Config{Samples: 20, BatchTimeLimit: 2 * time.Second,
		HindsightTimeLimit: 60 * time.Second, Gap: 1e-6, Eps: 1e-4, DualSteps: 4}
}

// A Method places one batch: for each family of batch (indices into the year's
// model) the place it goes to, or −1. It may use st's room and past, never the
// batches to come.
type Method interface {
	Name() string
	Place(ctx context.Context, st *State, batch []int) ([]int, error)
}

// Methods are the methods by name, in the order reports list them.
var Methods = []Method{Greedy{}, Potentials{}, Discord{}, Exact{}}

// MethodByName returns the method called name.
func MethodByName(name string) (Method, error) {
	for _, m := range Methods {
		if m.Name() == name {
			return m, nil
		}
	}
	return nil, fmt.Errorf("online: no method %q (want greedy, potentials, discord or exact)", name)
}

// Greedy places each batch at its own optimum, as if no batch followed: the exact
// batch solve with every potential zero (the baseline of Ahani et al., whose code
// defines greedy so; "greedy-like practice" below 90 % of the hindsight optimum).
type Greedy struct{}

func (Greedy) Name() string { return "greedy" }

func (Greedy) Place(ctx context.Context, st *State, batch []int) ([]int, error) {
	eps := st.cfg.Eps
	m := st.Year.Model
	p, err := st.solveBatch(ctx, batch, func(i int, a match.Arc) float64 {
		return a.Score + eps*float64(persons(m.Families[batch[i]].Need))
	})
	return p, err
}

// Potentials is the method of Ahani, Gölz, Procaccia, Teytelboym & Trapp, "Dynamic
// placement in refugee resettlement", Operations Research 72(3), 2024: draw
// Samples futures of the rest of the year from what arrived before, solve the LP
// relaxation of the batch and each future over the room left, average the
// capacity prices (the potentials) and place the batch at its optimum with each
// family charged its needs at those prices.
type Potentials struct{}

func (Potentials) Name() string { return "potentials" }

func (Potentials) Place(ctx context.Context, st *State, batch []int) ([]int, error) {
	pp, _, err := st.potentials(ctx, batch)
	if err != nil {
		return nil, err
	}
	eps := st.cfg.Eps
	m := st.Year.Model
	p, err := st.solveBatch(ctx, batch, func(i int, a match.Arc) float64 {
		need := m.Families[batch[i]].Need
		return pp.Reduced(a.Score, need, a.Place) + eps*float64(persons(need))
	})
	return p, err
}

// Discord is the minimum-discord method of Bansak & Paulson, "Outcome-driven
// dynamic refugee assignment with allocation balancing", Operations Research
// 72(6), 2024, in its batch form: for each sampled future, the batch and the
// future are placed together at their optimum over the room left; the batch is
// then placed where it agrees most with those placements (the most trajectories
// putting each family where it goes), under the room left, ties by score. Here
// each trajectory's placement is its relaxation's (every family at its best
// reduced score at the trajectory's prices), one LP per future instead of an IP.
type Discord struct{}

func (Discord) Name() string { return "discord" }

func (Discord) Place(ctx context.Context, st *State, batch []int) ([]int, error) {
	m := st.Year.Model
	votes := make([]map[int]int, len(batch)) // per family: trajectories by place (−1 out)
	for i := range votes {
		votes[i] = map[int]int{}
	}
	_, each, err := st.potentials(ctx, batch)
	if err != nil || len(each) == 0 {
		if err == nil { // nothing to learn from yet: the batch's own optimum
			return Greedy{}.Place(ctx, st, batch)
		}
		return nil, err
	}
	for _, tp := range each {
		for i, f := range batch {
			best, at := 0.0, -1
			for _, a := range m.Families[f].Arcs {
				if r := tp.Reduced(a.Score, m.Families[f].Need, a.Place); r > best {
					best, at = r, a.Place
				}
			}
			votes[i][at]++
		}
	}
	scale := 1e-12
	for _, f := range batch {
		for _, a := range m.Families[f].Arcs {
			scale = max(scale, math.Abs(a.Score))
		}
	}
	// Ties by score: all of the batch's scores together weigh less than one vote.
	tie := 0.5 / (scale * float64(len(batch)+1))
	p, err := st.solveBatch(ctx, batch, func(i int, a match.Arc) float64 {
		return float64(votes[i][a.Place]-votes[i][-1]) + tie*a.Score
	})
	return p, err
}

// Exact is this project's method: each week, for each sampled future, the exact
// engine places the batch at its optimum with the future's own potentials (the
// rest of the year priced by that trajectory); the batch then goes where most of
// those optimal placements put it, under the room left, ties by the averaged
// potentials' reduced score. Where averaged prices blur what each trajectory
// wants (a place worth much in some futures, nothing in others), the vote keeps
// the placements that are right in most futures.
type Exact struct{}

func (Exact) Name() string { return "exact" }

func (Exact) Place(ctx context.Context, st *State, batch []int) ([]int, error) {
	m := st.Year.Model
	pp, each, err := st.potentials(ctx, batch)
	if err != nil || len(each) == 0 {
		if err == nil { // nothing to learn from yet: the batch's own optimum
			return Greedy{}.Place(ctx, st, batch)
		}
		return nil, err
	}
	eps := st.cfg.Eps
	votes := make([]map[int]int, len(batch))
	for i := range votes {
		votes[i] = map[int]int{}
	}
	for _, tp := range each {
		p, err := st.solve(ctx, st.model(batch, func(i int, a match.Arc) float64 {
			need := m.Families[batch[i]].Need
			return tp.Reduced(a.Score, need, a.Place) + eps*float64(persons(need))
		}, nil), len(batch), st.cfg.BatchTimeLimit)
		if err != nil {
			return nil, err
		}
		for i, pl := range p {
			votes[i][pl]++
		}
	}
	scale := 1e-12
	for _, f := range batch {
		for _, a := range m.Families[f].Arcs {
			scale = max(scale, math.Abs(pp.Reduced(a.Score, m.Families[f].Need, a.Place)))
		}
	}
	tie := 0.5 / (scale * float64(len(batch)+1))
	p, err := st.solveBatch(ctx, batch, func(i int, a match.Arc) float64 {
		need := m.Families[batch[i]].Need
		return float64(votes[i][a.Place]-votes[i][-1]) + tie*pp.Reduced(a.Score, need, a.Place)
	})
	return p, err
}

// potentials draws cfg.Samples futures and returns the average of the prices of
// the batch with each future over the room left, and each future's prices. With
// nothing to learn from yet, the prices are zero.
func (st *State) potentials(ctx context.Context, batch []int) (*match.PlacePrices, []*match.PlacePrices, error) {
	m := st.Year.Model
	avg := &match.PlacePrices{Dims: m.Dims, Price: make([][]float64, len(m.Places))}
	for pl := range avg.Price {
		avg.Price[pl] = make([]float64, m.Dims+1)
	}
	futures := st.futures(st.cfg.Samples)
	if len(futures) == 0 {
		return avg, nil, nil
	}
	each := make([]*match.PlacePrices, len(futures))
	errs := make([]error, len(futures))
	sem := make(chan struct{}, runtime.GOMAXPROCS(0))
	var wg sync.WaitGroup
	for s, fs := range futures {
		sub := st.model(batch, func(_ int, a match.Arc) float64 { return a.Score }, fs)
		for i := range batch {
			sub.Families[i].Must = false
		}
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			each[s], errs[s] = match.DualPrices(ctx, sub, st.cfg.DualSteps)
		})
	}
	wg.Wait()
	for s, pp := range each {
		if errs[s] != nil {
			return nil, nil, errs[s]
		}
		for pl, pr := range pp.Price {
			for d, x := range pr {
				avg.Price[pl][d] += x / float64(len(each))
			}
		}
		avg.Bound += pp.Bound / float64(len(each))
	}
	return avg, each, nil
}
