package flow

// The flow method's shape test and laminar trees (the method: flow.go).

import (
	"cmp"
	"fmt"
	"slices"

	"solidarity/match/internal/solver"
)

// tree is the laminar forest of the coupling rows of one dimension. Nodes 0..R-1
// are rows, node R is the sink.
type tree struct {
	rowK     []int32 // node → Prob row
	parent   []int32 // node → next larger row containing it, or R
	hi       []int32 // node → capacity, at most the number of families
	kidStart []int32 // children of node v: kids[kidStart[v]:kidStart[v+1]]
	kids     []int32
	leaf     []int32 // place → deepest row containing it, or R
}

func (t *tree) sink() int32 { return int32(len(t.rowK)) }

// Shaped says whether p is a flow problem that solve solves exactly: every
// family needs nothing or one person in one dimension, there is no minimum row, and
// in each dimension the group rows are laminar (disjoint or nested place sets, no
// place listed twice in a group). Only the rows p kept count: a group or minimum
// that can never bind, which NewProb dropped, is no obstacle.
func Shaped(p *solver.Prob) bool {
	_, why := laminarTrees(p)
	return why == ""
}

// unitDim returns the dimension of family f's one person, -1 if it needs nothing, or
// -2 if it is not a one-person family.
func unitDim(p *solver.Prob, f int) int {
	unit := -1
	for d := range p.D {
		switch v := p.Need[f*p.D+d]; {
		case v == 0:
		case v == 1 && unit == -1:
			unit = d
		default:
			return -2
		}
	}
	return unit
}

// laminarTrees builds the forest of each dimension, or says why p is not a flow problem.
func laminarTrees(p *solver.Prob) ([]tree, string) {
	m := p.M
	for f := range p.N {
		if unitDim(p, f) == -2 {
			return nil, fmt.Sprintf("family %d is not one person", f)
		}
	}
	byDim := make([][]int32, p.D)
	for k := range p.K0 { // rows from K0 on are cuts, which the flow does not need
		switch p.RowKind[k] {
		case solver.RowMin:
			return nil, fmt.Sprintf("minimum %d", p.RowRef[k])
		case solver.RowPlace, solver.RowGroup:
			byDim[p.RowDim[k]] = append(byDim[p.RowDim[k]], int32(k))
		default:
			return nil, fmt.Sprintf("row %d of an unexpected kind", k)
		}
	}
	nPlaces := len(m.Places)
	deepest := make([]int32, nPlaces)
	stamp := make([]int32, nPlaces)
	trees := make([]tree, p.D)
	for d := range p.D {
		var groups, places []int32
		for _, k := range byDim[d] {
			if p.RowKind[k] == solver.RowGroup {
				groups = append(groups, k)
			} else {
				places = append(places, k)
			}
		}
		size := func(k int32) int { return len(m.Groups[p.RowRef[k]].Places) }
		// Larger sets first, so that a group's parent is already known when it comes.
		slices.SortStableFunc(groups, func(a, b int32) int { return cmp.Compare(size(b), size(a)) })
		R := int32(len(groups) + len(places))
		t := &trees[d]
		t.rowK = append(groups, places...)
		t.parent = make([]int32, R)
		t.hi = make([]int32, R)
		for i := range deepest {
			deepest[i], stamp[i] = R, -1
		}
		// Laminar test: the places of a group must all have the same deepest group so
		// far (its parent); otherwise it straddles a border. Proof: if G and H overlap
		// without nesting and |H| ≥ |G|, H came first, and G's places in H have H or a
		// group inside H as deepest, those outside H do not.
		for i, k := range groups {
			pl := m.Groups[p.RowRef[k]].Places
			par := R
			if len(pl) > 0 {
				par = deepest[pl[0]]
			}
			for _, x := range pl {
				if stamp[x] == int32(i) {
					return nil, fmt.Sprintf("group %d lists place %d twice", p.RowRef[k], x)
				}
				stamp[x] = int32(i)
				if deepest[x] != par {
					return nil, fmt.Sprintf("group %d overlaps another group in dimension %d without nesting", p.RowRef[k], d)
				}
			}
			t.parent[i] = par
			for _, x := range pl {
				deepest[x] = int32(i)
			}
		}
		t.leaf = make([]int32, nPlaces)
		copy(t.leaf, deepest)
		for j, k := range places {
			node := int32(len(groups) + j)
			pl := p.RowRef[k]
			t.parent[node] = deepest[pl]
			t.leaf[pl] = node
		}
		for v, k := range t.rowK {
			t.hi[v] = int32(min(p.RowHi[k], float64(p.N)))
		}
		t.kidStart = make([]int32, R+2)
		for _, par := range t.parent {
			t.kidStart[par+1]++
		}
		for v := range R + 1 {
			t.kidStart[v+1] += t.kidStart[v]
		}
		t.kids = make([]int32, R)
		fill := slices.Clone(t.kidStart)
		for v, par := range t.parent {
			t.kids[fill[par]] = int32(v)
			fill[par]++
		}
	}
	return trees, ""
}
