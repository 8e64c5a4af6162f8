package solver

import (
	"math"
	"math/rand/v2"
	"testing"
)

// tinyModel is a random model small enough to enumerate every assignment: up to 4
// families, 3 places, 2 dimensions, a group (of two places) and a minimum (in
// persons or in a dimension) half of the time each.
func tinyModel(r *rand.Rand) *Model {
	D, np := 1+r.IntN(2), 1+r.IntN(3)
	m := &Model{Dims: D}
	for range np {
		c := make([]int64, D)
		for d := range c {
			c[d] = int64(r.IntN(4))
		}
		m.Places = append(m.Places, Place{Cap: c})
	}
	for range 1 + r.IntN(4) {
		need := make([]int64, D)
		for d := range need {
			need[d] = int64(r.IntN(3))
		}
		f := Family{Need: need, Must: r.IntN(6) == 0}
		for p := range np {
			if r.IntN(3) > 0 {
				f.Arcs = append(f.Arcs, Arc{Place: p, Score: float64(r.IntN(9) - 2)})
			}
		}
		m.Families = append(m.Families, f)
	}
	if np > 1 && r.IntN(2) == 0 {
		g := Group{Places: []int{0, np - 1}, Cap: make([]int64, D)}
		for d := range g.Cap {
			g.Cap[d] = int64(r.IntN(5))
		}
		m.Groups = append(m.Groups, g)
	}
	if r.IntN(2) == 0 {
		m.Mins = append(m.Mins, MinRow{Places: []int{np - 1}, Dim: r.IntN(D+1) - 1, Min: int64(r.IntN(3))})
	}
	return m
}

// modelRows is every row of m, from the model itself: its use under place (by
// family, -1 out), its bound, and whether it is a minimum.
func modelRows(m *Model, place []int) (use []int64, bound []int64, isMin []bool) {
	at := func(p int, dim int) int64 {
		s := int64(0)
		for f, q := range place {
			if q != p {
				continue
			}
			for d, x := range m.Families[f].Need {
				if dim < 0 || dim == d {
					s += x
				}
			}
		}
		return s
	}
	for p, pl := range m.Places {
		for d, c := range pl.Cap {
			use, bound, isMin = append(use, at(p, d)), append(bound, c), append(isMin, false)
		}
	}
	for _, g := range m.Groups {
		for d, c := range g.Cap {
			s := int64(0)
			for _, p := range g.Places {
				s += at(p, d)
			}
			use, bound, isMin = append(use, s), append(bound, c), append(isMin, false)
		}
	}
	for _, row := range m.Mins {
		s := int64(0)
		for _, p := range row.Places {
			s += at(p, row.Dim)
		}
		use, bound, isMin = append(use, s), append(bound, row.Min), append(isMin, true)
	}
	return use, bound, isMin
}

// bruteFits is the meaning of fits, from the model's rows: the move from place to
// moved breaks no capacity it adds to and takes no minimum it takes from below its
// bound.
func bruteFits(m *Model, place, moved []int) bool {
	u0, bound, isMin := modelRows(m, place)
	u1, _, _ := modelRows(m, moved)
	for k := range u0 {
		if !isMin[k] && u1[k] > u0[k] && u1[k] > bound[k] {
			return false
		}
		if isMin[k] && u1[k] < u0[k] && u1[k] < bound[k] {
			return false
		}
	}
	return true
}

// TestAssignmentBrute enumerates every assignment of small random models: the
// assignment type's feasible and value agree with the model's (Model.Value), its
// row use and place lists with its arcs, fits with bruteFits for every move, and
// FromPlaces loads a feasible assignment as it is.
func TestAssignmentBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 13))
	checked := 0
	for trial := range 400 {
		m := tinyModel(r)
		p, err := NewProb(m)
		if err != nil {
			continue // statically infeasible
		}
		e := NewAssignment(p)
		n := len(m.Families)
		// Per family: the index of its arc among the problem's (NewProb drops those
		// it cannot take), the number of them for out.
		arcs := make([]int32, n)
		nArcs := func(f int) int32 { return p.FamStart[f+1] - p.FamStart[f] }
		for {
			place := make([]int, n)
			for f := range n {
				a := int32(-1)
				if arcs[f] < nArcs(f) {
					a = p.FamStart[f] + arcs[f]
					place[f] = int(p.ArcPlace[a])
				} else {
					place[f] = -1
				}
				e.Set(f, a)
			}
			v, verr := m.Value(place)
			if e.Feasible() != (verr == nil) {
				t.Fatalf("trial %d, %v: feasible %v, model says %v", trial, place, e.Feasible(), verr)
			}
			if verr == nil && math.Abs(e.Value-v) > 1e-9 {
				t.Fatalf("trial %d, %v: value %v, model's %v", trial, place, e.Value, v)
			}
			checkAssignmentAt(t, e, place)
			for f := range n {
				for b := p.FamStart[f] - 1; b < p.FamStart[f+1]; b++ {
					if b < p.FamStart[f] {
						b = -1
					}
					moved := append([]int(nil), place...)
					moved[f] = -1
					if b >= 0 {
						moved[f] = int(p.ArcPlace[b])
					}
					if got, want := e.Fits(f, b), bruteFits(m, place, moved); got != want {
						t.Fatalf("trial %d, %v: fits(%d, to %d) = %v, want %v", trial, place, f, moved[f], got, want)
					}
					if b < 0 {
						b = p.FamStart[f] - 1
					}
				}
			}
			if verr == nil {
				c := NewAssignment(p)
				if !c.FromPlaces(place) || c.Value != e.Value {
					t.Fatalf("trial %d, %v: fromPlaces of a feasible assignment: value %v, want %v", trial, place, c.Value, e.Value)
				}
			}
			checked++
			// The next assignment, odometer-wise.
			f := 0
			for ; f < n; f++ {
				if arcs[f] < nArcs(f) {
					arcs[f]++
					break
				}
				arcs[f] = 0
			}
			if f == n {
				break
			}
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d assignments checked", checked)
	}
}

// checkAssignmentAt fails unless e's arcs are place and its row use and place lists
// are those of its arcs.
func checkAssignmentAt(t *testing.T, e *Assignment, place []int) {
	t.Helper()
	p := e.P
	used := make([]float64, p.K0)
	for f, a := range e.Arc {
		want := -1
		if a >= 0 {
			want = int(p.ArcPlace[a])
			for _, k := range e.RowsOf(a) {
				used[k] += p.Coef(f, p.RowDim[k])
			}
			if e.At[p.ArcPlace[a]][e.Pos[f]] != int32(f) {
				t.Fatalf("family %d not listed at its place", f)
			}
		}
		if want != place[f] {
			t.Fatalf("family %d at %d, want %d", f, want, place[f])
		}
	}
	for k := range used {
		if used[k] != e.Used[k] {
			t.Fatalf("row %d use %v, its arcs add up to %v", k, e.Used[k], used[k])
		}
	}
}
