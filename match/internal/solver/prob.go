package solver

import (
	"fmt"
	"sort"
	"strings"
)

// Place capacities in the model are integers and so are needs; they are held as
// float64 here, which is exact far beyond any realistic count.

// MaxLPRows is the largest number of coupling rows for which the exact LP-based
// branch-and-bound is used; the dense working basis is MaxLPRows² floats.
const MaxLPRows = 400

// RowKind says what a coupling row is.
type RowKind int8

const (
	RowPlace RowKind = iota // capacity of one place in one dimension
	RowGroup                // capacity of a group in one dimension
	RowMin                  // minimum intake over some places
	RowCut                  // a cut added by the branch-and-bound (bnb/bnb_cuts.go)
)

// Prob is a Model prepared for solving. Arcs are numbered 0..len(ArcPlace)-1 in
// family order (CSR: family f owns arcs FamStart[f]..FamStart[f+1]-1).
type Prob struct {
	M    *Model
	N, D int

	Need []float64 // n·D
	Size []float64 // n: persons (sum over dimensions)
	Must []bool

	FamStart []int32
	ArcFam   []int32
	ArcPlace []int32
	ArcScore []float64

	// Coupling rows: lo ≤ Σ coef·x ≤ hi. The first K0 are the model's; rows K0..K-1
	// are cuts, valid for assignments better than the incumbent, which the
	// heuristics ignore.
	K, K0   int
	RowKind []RowKind
	RowRef  []int32 // index of the place, group or minimum in the model
	RowDim  []int32 // dimension, or -1 for persons
	RowLo   []float64
	RowHi   []float64

	// The coupling-row part of each arc's column (CSR over arcs; BuildCoefs), and
	// the model's rows of each place (PlaceRows).
	PlaceRows [][]int32
	CStart    []int32
	CRow      []int32
	CVal      []float64
}

// Coef is family f's coefficient in a row of dimension dim.
func (p *Prob) Coef(f int, dim int32) float64 {
	if dim < 0 {
		return p.Size[f]
	}
	return p.Need[f*p.D+int(dim)]
}

// InfeasibleError carries the reason of a model that cannot be solved.
type InfeasibleError struct{ Reason string }

func (e *InfeasibleError) Error() string { return e.Reason }

func infeasible(format string, args ...any) error {
	return &InfeasibleError{Reason: fmt.Sprintf(format, args...)}
}

// NewProb prepares m. It returns an *InfeasibleError when a simple counting argument
// already shows that no assignment exists: a family that must be placed but fits
// nowhere, pinned families that overfill their place, a minimum that all the
// families that could go there cannot reach.
func NewProb(m *Model) (*Prob, error) {
	p, err := NewProbRows(m)
	if err != nil {
		return nil, err
	}
	p.BuildCoefs()
	return p, nil
}

// NewProbRows is NewProb without the arcs' coefficients (BuildCoefs): at EU scale
// they are most of the set-up time, and the Lagrangian method does not need them
// (its assignments keep each place's rows instead).
func NewProbRows(m *Model) (*Prob, error) {
	n, D := len(m.Families), m.Dims
	p := &Prob{M: m, N: n, D: D,
		Need: make([]float64, n*D), Size: make([]float64, n), Must: make([]bool, n),
		FamStart: make([]int32, n+1)}
	for f := range m.Families {
		fam := &m.Families[f]
		p.Must[f] = fam.Must
		for d, v := range fam.Need {
			p.Need[f*D+d] = float64(v)
			p.Size[f] += float64(v)
		}
	}
	// The groups containing each place, to test whether a family fits a place alone.
	placeGroups := make([][]int, len(m.Places))
	for g, gr := range m.Groups {
		for _, pl := range gr.Places {
			placeGroups[pl] = append(placeGroups[pl], g)
		}
	}
	// tooBig names the first capacity that family f alone exceeds at place pl.
	tooBig := func(f, pl int) string {
		need := m.Families[f].Need
		for d := range D {
			if c := m.Places[pl].Cap[d]; need[d] > c {
				return fmt.Sprintf("place %d dimension %d capacity %d < need %d", pl, d, c, need[d])
			}
		}
		for _, g := range placeGroups[pl] {
			for d := range D {
				if c := m.Groups[g].Cap[d]; need[d] > c {
					return fmt.Sprintf("group %d (with place %d) dimension %d capacity %d < need %d", g, pl, d, c, need[d])
				}
			}
		}
		return ""
	}
	// The room of each place for one family alone: the least of its capacity and
	// its groups', per dimension (tooBig's test, in one comparison per dimension).
	room := make([]int64, len(m.Places)*D)
	for pl := range m.Places {
		for d := range D {
			c := m.Places[pl].Cap[d]
			for _, g := range placeGroups[pl] {
				c = min(c, m.Groups[g].Cap[d])
			}
			room[pl*D+d] = c
		}
	}
	fits := func(f, pl int) bool {
		need := m.Families[f].Need
		for d, c := range room[pl*D : (pl+1)*D] {
			if need[d] > c {
				return false
			}
		}
		return true
	}
	// Arcs with a negative score are never worth using unless a family must be placed
	// or a minimum may need it.
	keepNegative := len(m.Mins) > 0
	nArcs := 0
	for f := range m.Families {
		nArcs += len(m.Families[f].Arcs)
	}
	// At EU scale there are millions of arcs: growing the slices would copy them
	// over and over (most of the set-up time).
	p.ArcFam = make([]int32, 0, nArcs)
	p.ArcPlace = make([]int32, 0, nArcs)
	p.ArcScore = make([]float64, 0, nArcs)
	for f := range m.Families {
		fam := &m.Families[f]
		for _, a := range fam.Arcs {
			if !fits(f, a.Place) {
				continue
			}
			if a.Score < 0 && !fam.Must && !keepNegative {
				continue
			}
			p.ArcFam = append(p.ArcFam, int32(f))
			p.ArcPlace = append(p.ArcPlace, int32(a.Place))
			p.ArcScore = append(p.ArcScore, a.Score)
		}
		p.FamStart[f+1] = int32(len(p.ArcPlace))
		if fam.Must && p.FamStart[f+1] == p.FamStart[f] {
			if len(fam.Arcs) == 0 {
				return nil, infeasible("family %d must be placed but has no allowed place", f)
			}
			var why []string
			for _, a := range fam.Arcs {
				if r := tooBig(f, a.Place); r != "" {
					why = append(why, r)
				}
			}
			if len(why) > 3 {
				why = append(why[:3], fmt.Sprintf("and %d more", len(why)-3))
			}
			return nil, infeasible("family %d must be placed but no place has room: %s", f, strings.Join(why, "; "))
		}
	}
	if err := p.checkPins(placeGroups); err != nil {
		return nil, err
	}
	if err := p.buildRows(); err != nil {
		return nil, err
	}
	return p, nil
}

// checkPins adds up, for each place and group, the needs of the families that must be
// placed and have a single arc left: if they overfill it, that is the reason.
func (p *Prob) checkPins(placeGroups [][]int) error {
	m := p.M
	pinned := make(map[int][]int) // place → pinned families (only built for pins)
	for f := range p.N {
		if p.Must[f] && p.FamStart[f+1]-p.FamStart[f] == 1 {
			pl := int(p.ArcPlace[p.FamStart[f]])
			pinned[pl] = append(pinned[pl], f)
		}
	}
	if len(pinned) == 0 {
		return nil
	}
	places := make([]int, 0, len(pinned))
	for pl := range pinned {
		places = append(places, pl)
	}
	sort.Ints(places)
	sum := func(fams []int, d int) int64 {
		var s int64
		for _, f := range fams {
			s += m.Families[f].Need[d]
		}
		return s
	}
	for _, pl := range places {
		for d := range p.D {
			if s, c := sum(pinned[pl], d), m.Places[pl].Cap[d]; s > c {
				return infeasible("place %d: the families that must go there (%s) need %d > capacity %d in dimension %d",
					pl, ListInts(pinned[pl]), s, c, d)
			}
		}
	}
	for g, gr := range m.Groups {
		var fams []int
		for _, pl := range gr.Places {
			fams = append(fams, pinned[pl]...)
		}
		if len(fams) == 0 {
			continue
		}
		sort.Ints(fams)
		for d := range p.D {
			if s, c := sum(fams, d), gr.Cap[d]; s > c {
				return infeasible("group %d: the families that must go to its places (%s) need %d > capacity %d in dimension %d",
					g, ListInts(fams), s, c, d)
			}
		}
	}
	return nil
}

func ListInts(v []int) string {
	var b strings.Builder
	for i, x := range v {
		if i == 8 {
			fmt.Fprintf(&b, ", … %d in all", len(v))
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%d", x)
	}
	return b.String()
}

// buildRows lists the coupling rows that can bind and the rows of each place.
// A capacity row is dropped when all the families that could go there fit together.
func (p *Prob) buildRows() error {
	m, D := p.M, p.D
	// Potential intake: for each place, the sum of needs (per dimension, then persons)
	// of the families with an arc there.
	potPlace := make([]float64, len(m.Places)*(D+1))
	for j, pl := range p.ArcPlace {
		f := int(p.ArcFam[j])
		for d := range D {
			potPlace[int(pl)*(D+1)+d] += p.Need[f*D+d]
		}
		potPlace[int(pl)*(D+1)+D] += p.Size[f]
	}
	add := func(kind RowKind, ref, dim int, lo, hi float64) {
		p.RowKind = append(p.RowKind, kind)
		p.RowRef = append(p.RowRef, int32(ref))
		p.RowDim = append(p.RowDim, int32(dim))
		p.RowLo = append(p.RowLo, lo)
		p.RowHi = append(p.RowHi, hi)
	}
	// rowsOf[place] lists the rows touching the place.
	rowsOf := make([][]int32, len(m.Places))
	for pl, place := range m.Places {
		for d := range D {
			if c := float64(place.Cap[d]); potPlace[pl*(D+1)+d] > c {
				rowsOf[pl] = append(rowsOf[pl], int32(len(p.RowKind)))
				add(RowPlace, pl, d, 0, c)
			}
		}
	}
	// Potential intake of each group and minimum: a family counts once even with
	// several arcs into it (one pass over the arcs, a stamp per set).
	sets := make([][]int, 0, len(m.Groups)+len(m.Mins))
	for _, gr := range m.Groups {
		sets = append(sets, gr.Places)
	}
	for _, r := range m.Mins {
		sets = append(sets, r.Places)
	}
	setsOf := make([][]int32, len(m.Places))
	for s, places := range sets {
		for _, pl := range places {
			setsOf[pl] = append(setsOf[pl], int32(s))
		}
	}
	potSet := make([]float64, len(sets)*(D+1))
	stamp := make([]int32, len(sets))
	for s := range stamp {
		stamp[s] = -1
	}
	for f := range p.N {
		for j := p.FamStart[f]; j < p.FamStart[f+1]; j++ {
			for _, s := range setsOf[p.ArcPlace[j]] {
				if stamp[s] == int32(f) {
					continue
				}
				stamp[s] = int32(f)
				for d := range D {
					potSet[int(s)*(D+1)+d] += p.Need[f*D+d]
				}
				potSet[int(s)*(D+1)+D] += p.Size[f]
			}
		}
	}
	potential := func(s int) []float64 { return potSet[s*(D+1) : (s+1)*(D+1)] }
	for g, gr := range m.Groups {
		pot := potential(g)
		for d := range D {
			if c := float64(gr.Cap[d]); pot[d] > c {
				k := int32(len(p.RowKind))
				add(RowGroup, g, d, 0, c)
				for _, pl := range gr.Places {
					rowsOf[pl] = append(rowsOf[pl], k)
				}
			}
		}
	}
	for r, row := range m.Mins {
		if row.Min <= 0 {
			continue
		}
		pot := potential(len(m.Groups) + r)
		dim := row.Dim
		have := pot[D]
		if dim >= 0 {
			have = pot[dim]
		}
		if have < float64(row.Min) {
			what := "persons"
			if dim >= 0 {
				what = fmt.Sprintf("dimension %d", dim)
			}
			return infeasible("minimum %d: all the families that may go to its places need only %v < minimum %d in %s",
				r, have, row.Min, what)
		}
		k := int32(len(p.RowKind))
		add(RowMin, r, dim, float64(row.Min), have)
		for _, pl := range row.Places {
			rowsOf[pl] = append(rowsOf[pl], k)
		}
	}
	p.K = len(p.RowKind)
	p.K0 = p.K
	p.PlaceRows = rowsOf
	return nil
}

// BuildCoefs sets each arc's coefficients (CStart, CRow, CVal): its family's need in
// the dimension of each row of its place. A place listed twice in a group would
// count twice, as in Model.Value.
func (p *Prob) BuildCoefs() {
	if p.CStart != nil {
		return
	}
	rowsOf := p.PlaceRows
	p.CStart = make([]int32, len(p.ArcPlace)+1)
	nz := 0
	for j, pl := range p.ArcPlace {
		f := int(p.ArcFam[j])
		for _, k := range rowsOf[pl] {
			if p.Coef(f, p.RowDim[k]) != 0 {
				nz++
			}
		}
	}
	p.CRow, p.CVal = make([]int32, 0, nz), make([]float64, 0, nz)
	for j, pl := range p.ArcPlace {
		f := int(p.ArcFam[j])
		for _, k := range rowsOf[pl] {
			if c := p.Coef(f, p.RowDim[k]); c != 0 {
				p.CRow = append(p.CRow, k)
				p.CVal = append(p.CVal, c)
			}
		}
		p.CStart[j+1] = int32(len(p.CRow))
	}
}

// RowPlaces are the places coupling row k is over: its place, its group's, or
// its minimum's. A minimum's multiplier counts against a place's price, a
// capacity's for it.
func (p *Prob) RowPlaces(k int) []int {
	switch p.RowKind[k] {
	case RowPlace:
		return []int{int(p.RowRef[k])}
	case RowGroup:
		return p.M.Groups[p.RowRef[k]].Places
	case RowMin:
		return p.M.Mins[p.RowRef[k]].Places
	}
	return nil
}

// RowName says which constraint a coupling row is, for reasons.
func (p *Prob) RowName(k int) string {
	ref, dim := p.RowRef[k], p.RowDim[k]
	switch p.RowKind[k] {
	case RowPlace:
		return fmt.Sprintf("place %d dimension %d capacity %v", ref, dim, p.RowHi[k])
	case RowGroup:
		return fmt.Sprintf("group %d dimension %d capacity %v", ref, dim, p.RowHi[k])
	case RowCut:
		return fmt.Sprintf("cut %d", k-p.K0)
	}
	if dim < 0 {
		return fmt.Sprintf("minimum %d (%v persons)", ref, p.RowLo[k])
	}
	return fmt.Sprintf("minimum %d (%v in dimension %d)", ref, p.RowLo[k], dim)
}
