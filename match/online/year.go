// Package online places a year of families batch by batch, each batch before the
// next is known, against annual capacities, and measures each method against the
// hindsight optimum of the whole year, which the exact engine proves
// (docs/match-online.md).
//
// A Year is a match.Model whose families arrive in numbered batches (weeks by
// default), with capacity revisions dated by batch. A Method places one batch
// given what remains of the capacities and what arrived before; Replay runs the
// methods over a year and reports their values, the hindsight optimum with its
// proof, and the ratio of the two per batch and cumulatively.
package online

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"solidarity/match"
)

// Year is a year of arrivals.
type Year struct {
	// Model holds every family of the year and the places with their capacities
	// at the start of the year; groups are annual ceilings. Minimum rows are not
	// allowed: a year's minimum is not a constraint on any one batch (Balance is).
	Model *match.Model
	// Batch is, per family, the batch it arrives in: 0 … Batches−1.
	Batch   []int
	Batches int
	// Revisions change a place's capacity from a batch on (a new pledge, or a cut),
	// in batch order.
	Revisions []Revision
	// History are families of an earlier period (same places), which the methods
	// may learn from as they learn from the batches already placed.
	History []match.Family
	// State is, per place, the index of its Member State (for balance), or −1;
	// Pledge is, per state, the weight of its pro-rata share (its pledge). Both
	// may be nil when no balance is asked for.
	State  []int
	Pledge []float64
}

// Revision sets place Place's capacity to Cap from batch Batch on.
type Revision struct {
	Batch int
	Place int
	Cap   []int64
}

// Validate checks the year's shape.
func (y *Year) Validate() error {
	m := y.Model
	if m == nil {
		return fmt.Errorf("online: year has no model")
	}
	if err := m.Validate(); err != nil {
		return err
	}
	if len(m.Mins) > 0 {
		return fmt.Errorf("online: the model has %d minimum rows; a year takes balance (Balance) instead", len(m.Mins))
	}
	if y.Batches < 1 {
		return fmt.Errorf("online: %d batches", y.Batches)
	}
	if len(y.Batch) != len(m.Families) {
		return fmt.Errorf("online: %d batch numbers for %d families", len(y.Batch), len(m.Families))
	}
	for i, b := range y.Batch {
		if b < 0 || b >= y.Batches {
			return fmt.Errorf("online: family %d: batch %d outside 0…%d", i, b, y.Batches-1)
		}
	}
	for i, r := range y.Revisions {
		if r.Batch < 0 || r.Batch >= y.Batches || r.Place < 0 || r.Place >= len(m.Places) || len(r.Cap) != m.Dims {
			return fmt.Errorf("online: revision %d: batch %d, place %d, %d capacities", i, r.Batch, r.Place, len(r.Cap))
		}
		if i > 0 && r.Batch < y.Revisions[i-1].Batch {
			return fmt.Errorf("online: revision %d: not in batch order", i)
		}
		for d, c := range r.Cap {
			if c < 0 || c > match.MaxValue {
				return fmt.Errorf("online: revision %d dimension %d: capacity %d", i, d, c)
			}
		}
	}
	for i, f := range y.History {
		if len(f.Need) != m.Dims {
			return fmt.Errorf("online: history family %d has %d needs, want %d", i, len(f.Need), m.Dims)
		}
		for j, a := range f.Arcs {
			if a.Place < 0 || a.Place >= len(m.Places) || (j > 0 && a.Place <= f.Arcs[j-1].Place) {
				return fmt.Errorf("online: history family %d arc %d: place %d", i, j, a.Place)
			}
		}
	}
	if y.State != nil && len(y.State) != len(m.Places) {
		return fmt.Errorf("online: %d place states for %d places", len(y.State), len(m.Places))
	}
	for pl, s := range y.State {
		if s < -1 || s >= len(y.Pledge) {
			return fmt.Errorf("online: place %d: state %d without a pledge", pl, s)
		}
	}
	return nil
}

// Arrivals lists the families of each batch, in family order.
func (y *Year) Arrivals() [][]int {
	out := make([][]int, y.Batches)
	for f, b := range y.Batch {
		out[b] = append(out[b], f)
	}
	return out
}

// capacityAt returns each place's capacity in force at batch b.
func (y *Year) capacityAt(b int) [][]int64 {
	c := make([][]int64, len(y.Model.Places))
	for pl, p := range y.Model.Places {
		c[pl] = p.Cap
	}
	for _, r := range y.Revisions {
		if r.Batch <= b {
			c[r.Place] = r.Cap
		}
	}
	return c
}

// Hindsight builds the model of the whole year known in advance: every family,
// each place's capacity as revised. A place revised during the year is split into
// one copy per period between revisions, the families of a period arcing to its
// copy, and a group per period caps what the families up to then take at the
// largest capacity in force so far. For a year whose revisions only raise
// capacities that is exactly the best possible year; a cut is relaxed (the online
// methods keep what they placed before it), so the value stays an upper bound on
// every online run. Families placed whole or not at all as in the batches; Must is
// dropped, the same relaxation. The returned function maps the model's
// assignment back to the year's families.
func (y *Year) Hindsight() (*match.Model, func(place []int) []int) {
	m := y.Model
	periods := make([][]int, len(m.Places)) // per place: the batches where a period starts
	for _, r := range y.Revisions {
		ps := periods[r.Place]
		if len(ps) == 0 {
			ps = []int{0}
		}
		if ps[len(ps)-1] != r.Batch {
			ps = append(ps, r.Batch)
		}
		periods[r.Place] = ps
	}
	h := &match.Model{Dims: m.Dims}
	first := make([]int, len(m.Places)) // per place: its first copy
	orig := []int{}                     // per copy: its place
	for pl, p := range m.Places {
		first[pl] = len(h.Places)
		if len(periods[pl]) == 0 {
			h.Places = append(h.Places, match.Place{Cap: p.Cap})
			orig = append(orig, pl)
			continue
		}
		running := slices.Clone(p.Cap)
		copies := []int{}
		for _, start := range periods[pl] {
			cp := y.capacityAt(start)[pl]
			for d := range running {
				running[d] = max(running[d], cp[d])
			}
			copies = append(copies, len(h.Places))
			h.Places = append(h.Places, match.Place{Cap: slices.Clone(running)})
			orig = append(orig, pl)
			if len(copies) > 1 {
				h.Groups = append(h.Groups, match.Group{Places: slices.Clone(copies), Cap: slices.Clone(running)})
			}
		}
	}
	copyOf := func(pl, batch int) int {
		c := first[pl]
		for i, start := range periods[pl] {
			if i > 0 && start <= batch {
				c = first[pl] + i
			}
		}
		return c
	}
	for _, g := range m.Groups {
		var ps []int
		for _, pl := range g.Places {
			n := max(1, len(periods[pl]))
			for i := range n {
				ps = append(ps, first[pl]+i)
			}
		}
		slices.Sort(ps)
		h.Groups = append(h.Groups, match.Group{Places: ps, Cap: g.Cap})
	}
	for f, fam := range m.Families {
		nf := match.Family{Need: fam.Need, Arcs: make([]match.Arc, len(fam.Arcs))}
		for i, a := range fam.Arcs {
			nf.Arcs[i] = match.Arc{Place: copyOf(a.Place, y.Batch[f]), Score: a.Score}
		}
		h.Families = append(h.Families, nf)
	}
	back := func(place []int) []int {
		out := make([]int, len(place))
		for f, c := range place {
			out[f] = -1
			if c >= 0 {
				out[f] = orig[c]
			}
		}
		return out
	}
	return h, back
}

// Shuffled is the year of m's families arriving in a random order (seeded), in
// batches of as equal sizes as can be: the replay of a year whose arrival dates
// are not known (HIAS FY2017's cases), one order per seed.
func Shuffled(m *match.Model, batches int, seed uint64) *Year {
	return (&Year{Model: m}).Shuffled(batches, seed)
}

// Shuffled is a copy of y with its families in a random order (seeded), in
// batches of as equal sizes as can be; its revisions are dropped (they are dated
// in batches of another order).
func (y *Year) Shuffled(batches int, seed uint64) *Year {
	n := len(y.Model.Families)
	order := rand.New(rand.NewPCG(seed, 0x73687566)).Perm(n)
	c := *y
	c.Batch, c.Batches, c.Revisions = make([]int, n), batches, nil
	for pos, f := range order {
		c.Batch[f] = pos * batches / max(1, n)
	}
	return &c
}
