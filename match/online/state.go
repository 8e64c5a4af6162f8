package online

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"solidarity/match"
)

// State is what a method knows when it places batch Batch: the room left at each
// place and group, and the families that arrived before (never the batches to come).
type State struct {
	Year  *Year
	Batch int
	// Room is, per place, its capacity in force less what the year's earlier batches
	// took (never below zero: a cut below what was placed leaves no room);
	// GroupRoom the same per group.
	Room      [][]int64
	GroupRoom [][]int64
	// Past are the families of the earlier batches, in arrival order.
	Past []int
	// Intake is, per state, the persons placed so far; Total their sum.
	Intake []int64
	Total  int64
	// Largest is the most persons in one family seen so far (balance's tolerance).
	Largest int64

	used       [][]int64
	unbalanced int // batches placed unbalanced: the floors could not be met
	partial    int // batches placed with the floors only: the ceilings could not be met too
	// fixed, when > 0, is the future's size and pool what it is drawn from
	// (BatchPotentials: outside a replay).
	fixed int
	pool  []match.Family
	cfg   *Config
	rng   *rand.Rand
}

func newState(y *Year, cfg *Config, seed uint64) *State {
	m := y.Model
	st := &State{Year: y, cfg: cfg, used: make([][]int64, len(m.Places)), Intake: make([]int64, len(y.Pledge)),
		GroupRoom: make([][]int64, len(m.Groups)), rng: rand.New(rand.NewPCG(seed, 0x6f6e6c696e65))}
	for pl := range m.Places {
		st.used[pl] = make([]int64, m.Dims)
	}
	for g, gr := range m.Groups {
		st.GroupRoom[g] = slices.Clone(gr.Cap)
	}
	for _, f := range y.History {
		st.Largest = max(st.Largest, persons(f.Need))
	}
	return st
}

// begin moves to batch b: the capacities in force, the room left.
func (st *State) begin(b int, batch []int) {
	st.Batch = b
	caps := st.Year.capacityAt(b)
	st.Room = make([][]int64, len(caps))
	for pl, c := range caps {
		st.Room[pl] = make([]int64, len(c))
		for d := range c {
			st.Room[pl][d] = max(0, c[d]-st.used[pl][d])
		}
	}
	for _, f := range batch {
		st.Largest = max(st.Largest, persons(st.Year.Model.Families[f].Need))
	}
}

// commit records the batch's placements, checking each against the room: a
// method that breaks a capacity is a bug, reported, never applied.
func (st *State) commit(batch, place []int) error {
	m := st.Year.Model
	for i, f := range batch {
		pl := place[i]
		if pl < 0 {
			continue
		}
		fam := &m.Families[f]
		if !slices.ContainsFunc(fam.Arcs, func(a match.Arc) bool { return a.Place == pl }) {
			return fmt.Errorf("online: internal error: family %d placed at place %d it has no pair with", f, pl)
		}
		for d, n := range fam.Need {
			if n > st.Room[pl][d] {
				return fmt.Errorf("online: internal error: family %d overfills place %d in dimension %d", f, pl, d)
			}
			st.Room[pl][d] -= n
			st.used[pl][d] += n
		}
		for g, gr := range m.Groups {
			if !slices.Contains(gr.Places, pl) {
				continue
			}
			for d, n := range fam.Need {
				if n > st.GroupRoom[g][d] {
					return fmt.Errorf("online: internal error: family %d overfills group %d in dimension %d", f, g, d)
				}
				st.GroupRoom[g][d] -= n
			}
		}
		if st.Year.State != nil {
			if s := st.Year.State[pl]; s >= 0 {
				st.Intake[s] += persons(fam.Need)
			}
		}
		st.Total += persons(fam.Need)
	}
	st.Past = append(st.Past, batch...)
	return nil
}

// futures draws k futures of the rest of the year: each as many families as the
// batches left would bring at the rate seen so far (or the history's rate before
// the first batch), drawn with replacement from the earlier batches and the
// history. Nothing of the batches to come is used: the replay cannot leak.
func (st *State) futures(k int) [][]match.Family {
	y := st.Year
	if st.fixed > 0 {
		if len(st.pool) == 0 || k <= 0 {
			return nil
		}
		out := make([][]match.Family, k)
		for s := range out {
			out[s] = make([]match.Family, st.fixed)
			for i := range out[s] {
				out[s][i] = st.pool[st.rng.IntN(len(st.pool))]
				out[s][i].Must = false
			}
		}
		return out
	}
	left := y.Batches - st.Batch - 1
	pool := len(st.Past) + len(y.History)
	if left <= 0 || pool == 0 || k <= 0 {
		return nil
	}
	rate := float64(len(y.History)) / float64(y.Batches)
	if st.Batch > 0 {
		rate = float64(len(st.Past)) / float64(st.Batch)
	}
	n := int(math.Round(rate * float64(left)))
	if n == 0 {
		return nil
	}
	out := make([][]match.Family, k)
	for s := range out {
		fs := make([]match.Family, n)
		for i := range fs {
			j := st.rng.IntN(pool)
			if j < len(st.Past) {
				fs[i] = y.Model.Families[st.Past[j]]
			} else {
				fs[i] = y.History[j-len(st.Past)]
			}
			fs[i].Must = false
		}
		out[s] = fs
	}
	return out
}

// model is the batch as a model of its own over the room left: the batch's
// families (their arcs scored by score, an arc left out where it returns NaN),
// then the extra families (a sampled future).
func (st *State) model(batch []int, score func(i int, a match.Arc) float64, extra []match.Family) *match.Model {
	m := st.Year.Model
	sub := &match.Model{Dims: m.Dims, Places: make([]match.Place, len(m.Places)), Groups: make([]match.Group, len(m.Groups))}
	for pl := range m.Places {
		sub.Places[pl].Cap = slices.Clone(st.Room[pl])
	}
	for g, gr := range m.Groups {
		sub.Groups[g] = match.Group{Places: gr.Places, Cap: slices.Clone(st.GroupRoom[g])}
	}
	for i, f := range batch {
		fam := m.Families[f]
		nf := match.Family{Need: fam.Need, Must: fam.Must}
		for _, a := range fam.Arcs {
			if s := score(i, a); !math.IsNaN(s) {
				nf.Arcs = append(nf.Arcs, match.Arc{Place: a.Place, Score: s})
			}
		}
		sub.Families = append(sub.Families, nf)
	}
	sub.Families = append(sub.Families, extra...)
	return sub
}

// solveBatch places the batch by the exact engine with the arcs scored by score,
// under the room left and, when asked, the balance rows. A batch whose must-place
// families cannot all be placed is solved again without Must.
func (st *State) solveBatch(ctx context.Context, batch []int, score func(i int, a match.Arc) float64) ([]int, error) {
	if len(batch) == 0 {
		return nil, nil
	}
	sub := st.model(batch, score, nil)
	place, err := st.solve(ctx, sub, len(batch), st.cfg.BatchTimeLimit)
	if err != nil || place == nil {
		return place, err
	}
	if st.cfg.Balance {
		return st.balance(ctx, sub, batch, place)
	}
	return place, nil
}

// solve solves sub within limit and returns the first n families' places; an
// infeasible sub (must-place families that do not fit) is solved without Must.
func (st *State) solve(ctx context.Context, sub *match.Model, n int, limit time.Duration) ([]int, error) {
	sol, err := match.Solve(ctx, sub, match.Options{TimeLimit: limit, Gap: st.cfg.Gap})
	if err != nil {
		return nil, err
	}
	if sol.Status == match.Infeasible {
		if len(sub.Mins) > 0 {
			return nil, nil
		}
		for i := range sub.Families {
			sub.Families[i].Must = false
		}
		if sol, err = match.Solve(ctx, sub, match.Options{TimeLimit: limit, Gap: st.cfg.Gap}); err != nil {
			return nil, err
		}
	}
	return sol.Place[:n], nil
}

func persons(need []int64) int64 {
	var s int64
	for _, n := range need {
		s += n
	}
	return s
}
