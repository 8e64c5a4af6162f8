package flow

// The flow method's network, cost-scaling refines and dual bound (the method: flow.go).

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"solidarity/match/internal/solver"
)

// network is the network of one dimension, its flow and its prices. Families and arcs
// are numbered locally: family i is the Prob's family fam[i], its arcs are
// aStart[i]..aStart[i+1]-1, at most one per node (the best-scoring arc of the family
// into that node: the others are never better). A family that need not be placed
// has first an arc "out" (aArc −1) to the sink with its score, 0 in the model.
type network struct {
	t    *tree
	sink int32

	fam    []int32
	aStart []int32
	aNode  []int32
	aArc   []int32 // Prob arc, or -1 for out
	aScore []float64

	at  []int32   // per family: the arc carrying its unit, or -1 while it has none
	pf  []float64 // per family: price
	sec []float64 // per family: upper bound on its second best (see bid)
	// A bid needs a family's best two arcs; most families have a couple of hundred,
	// of which few are ever close. So each keeps a short list of the arcs that were
	// best at its last full scan, and theta, the next value then: values (score +
	// node price) only decrease, so while the list's second best is ≥ theta, the
	// list alone gives the right answer. cand[f*maxCands:], ncand[f] of them.
	cand  []int32   // arcs
	candS []float64 // their scores and nodes, alongside: the list is read often,
	candN []int32   // and the arcs of different families are far apart in memory
	ncand []uint8
	theta []float64
	// The score and node of each family's arc, read by its node's pushes.
	atScore []float64
	atNode  []int32
	pr      []float64 // per node: price (the sink's too)
	flow    []int32   // per row node: flow to its parent
	ex      []int64   // per node: inflow − outflow (the sink's less its demand)
	mem     [][]int32 // per node: the families whose unit enters it
	memPos  []int32   // per family: index in mem[node of its arc]

	queue []int32 // active nodes, FIFO: families 0..nf-1, node v as nf+v
	head  int
	inQ   []bool
	// big is the regret given a family with a single arc (it has nowhere else to
	// go), so that its row pushes others back first; larger than any real regret
	// between arcs, small enough to keep prices on the scale of the scores.
	big    float64
	maxAbs float64 // the largest absolute score

	bids, relabels int
}

// newFlowNet builds the network of tree t for families fams, each arc worth its score
// (or 0 if !scored), and an arc out worth out for the families that need not be
// placed (all of them, if allOut).
func newFlowNet(p *solver.Prob, t *tree, fams []int32, scored bool, out float64, allOut bool) *network {
	sink := t.sink()
	R := int(sink)
	n := &network{t: t, sink: sink}
	stamp := make([]int32, R+1)
	for i := range stamp {
		stamp[i] = -1
	}
	slot := make([]int32, R+1)
	maxAbs := math.Abs(out)
	size := len(fams)
	for _, f := range fams {
		size += int(p.FamStart[f+1] - p.FamStart[f])
	}
	n.fam = make([]int32, 0, len(fams))
	n.aStart = make([]int32, 0, len(fams)+1)
	n.aNode = make([]int32, 0, size)
	n.aArc = make([]int32, 0, size)
	n.aScore = make([]float64, 0, size)
	for _, f := range fams {
		i := int32(len(n.fam))
		n.fam = append(n.fam, f)
		n.aStart = append(n.aStart, int32(len(n.aNode)))
		add := func(v, j int32, s float64) {
			if stamp[v] == i {
				// Another place behind the same node: keep the better arc (the
				// first on a tie: out first, then places in increasing order).
				if a := slot[v]; s > n.aScore[a] {
					n.aArc[a], n.aScore[a] = j, s
				}
				return
			}
			stamp[v], slot[v] = i, int32(len(n.aNode))
			n.aNode = append(n.aNode, v)
			n.aArc = append(n.aArc, j)
			n.aScore = append(n.aScore, s)
			maxAbs = max(maxAbs, math.Abs(s))
		}
		if allOut || !p.Must[f] {
			add(sink, -1, out)
		}
		for j := p.FamStart[f]; j < p.FamStart[f+1]; j++ {
			s := 0.0
			if scored {
				s = p.ArcScore[j]
			}
			add(t.leaf[p.ArcPlace[j]], j, s)
		}
	}
	nf := len(n.fam)
	n.aStart = append(n.aStart, int32(len(n.aNode)))
	n.at = make([]int32, nf)
	for i := range n.at {
		n.at[i] = -1
	}
	n.pf = make([]float64, nf)
	n.sec = make([]float64, nf)
	n.cand = make([]int32, nf*maxCands)
	n.candS = make([]float64, nf*maxCands)
	n.candN = make([]int32, nf*maxCands)
	n.atScore = make([]float64, nf)
	n.atNode = make([]int32, nf)
	n.ncand = make([]uint8, nf)
	n.theta = make([]float64, nf)
	for i := range n.theta {
		n.theta[i] = math.Inf(1) // no list yet
	}
	n.pr = make([]float64, R+1)
	n.flow = make([]int32, R)
	n.ex = make([]int64, R+1)
	n.ex[sink] = -int64(nf)
	n.mem = make([][]int32, R+1)
	n.memPos = make([]int32, nf)
	n.inQ = make([]bool, nf+R+1)

	n.big = 2*maxAbs + 1
	n.maxAbs = maxAbs
	return n
}

func (n *network) activate(id int32) {
	if !n.inQ[id] {
		n.inQ[id] = true
		n.queue = append(n.queue, id)
	}
}

// bid sends family f's unit along its best arc at the current prices, and sets f's
// price to its second best − ε: the most the family's row must lower its price by
// before pushing the family back (as in the auction algorithm, whose bids this is).
// An upper bound on the second best will do in its place (f's edges stay ε-optimal,
// and the edge back from its row is not admissible): that lets most bids use f's
// candidate list alone (see top2).
func (n *network) bid(f int32, eps float64) {
	best, second, ba := n.top2(f, -1, true)
	n.sec[f] = second
	if math.IsInf(second, -1) {
		n.pf[f] = best - eps - n.big
	} else {
		n.pf[f] = second - eps
	}
	v := n.aNode[ba]
	n.at[f], n.atScore[f], n.atNode[f] = ba, n.aScore[ba], v
	n.memPos[f] = int32(len(n.mem[v]))
	n.mem[v] = append(n.mem[v], f)
	n.ex[v]++
	if n.ex[v] > 0 {
		n.activate(int32(len(n.fam)) + v)
	}
	n.bids++
}

// listBound is an upper bound on the values of f's arcs but skip, from its
// candidate list and theta alone.
func (n *network) listBound(f, skip int32) float64 {
	b := n.theta[f]
	lo := int(f) * maxCands
	for i := lo; i < lo+int(n.ncand[f]); i++ {
		if n.cand[i] != skip {
			b = max(b, n.candS[i]+n.pr[n.candN[i]])
		}
	}
	return b
}

// maxCands is the length of a family's list of candidate arcs.
const maxCands = 8

// top2 returns, over f's arcs but skip, the best arc ba (the first on a tie), its value
// (score + node price) best, and the second best value second, or with bound an
// upper bound on it.
//
// The candidate list suffices when its second best (with bound: its best) is at
// least theta, which bounds every other arc; else a full scan renews the list.
func (n *network) top2(f, skip int32, bound bool) (best, second float64, ba int32) {
	best, second, ba = math.Inf(-1), math.Inf(-1), -1
	take := func(a int32, v float64) {
		if a == skip {
			return
		}
		if v > best || v == best && a < ba {
			second, best, ba = best, v, a
		} else if v > second {
			second = v
		}
	}
	lo := int(f) * maxCands
	for i := lo; i < lo+int(n.ncand[f]); i++ {
		take(n.cand[i], n.candS[i]+n.pr[n.candN[i]])
	}
	if th := n.theta[f]; ba >= 0 && (second >= th || bound && best >= th) {
		return best, max(second, th), ba
	}
	// Full scan, keeping the maxCands+1 best (values descending, first arc first;
	// the unused places hold −Inf, below every value).
	var topV [maxCands + 1]float64
	var topA [maxCands + 1]int32
	for i := range topV {
		topV[i] = math.Inf(-1)
	}
	const last = maxCands
	for a := n.aStart[f]; a < n.aStart[f+1]; a++ {
		v := n.aScore[a] + n.pr[n.aNode[a]]
		if v <= topV[last] {
			continue
		}
		i := last
		for i > 0 && topV[i-1] < v {
			topV[i], topA[i] = topV[i-1], topA[i-1]
			i--
		}
		topV[i], topA[i] = v, a
	}
	k := min(int(n.aStart[f+1]-n.aStart[f]), len(topV))
	m := min(k, maxCands)
	for i, a := range topA[:m] {
		n.cand[lo+i], n.candS[lo+i], n.candN[lo+i] = a, n.aScore[a], n.aNode[a]
	}
	n.ncand[f] = uint8(m)
	n.theta[f] = math.Inf(-1)
	if k > maxCands {
		n.theta[f] = topV[maxCands]
	}
	best, second, ba = math.Inf(-1), math.Inf(-1), -1
	for i, a := range topA[:k] {
		take(a, topV[i])
	}
	return best, second, ba
}

// withdraw pushes family f's unit back from its node: f becomes active.
func (n *network) withdraw(f int32) {
	v := n.atNode[f]
	l := n.mem[v]
	i := n.memPos[f]
	last := l[len(l)-1]
	l[i], n.memPos[last] = last, i
	n.mem[v] = l[:len(l)-1]
	n.at[f] = -1
	n.ex[v]--
	n.activate(f)
}

// discharge pushes node v's excess up, down or back to the families entering it, along
// admissible edges (negative reduced cost), and lowers its price by relabelling when
// none is left.
func (n *network) discharge(v int32, eps float64) error {
	t := n.t
	nf := int32(len(n.fam))
	for n.ex[v] > 0 {
		if v != n.sink && n.flow[v] < t.hi[v] && n.pr[v] < n.pr[t.parent[v]] {
			par := t.parent[v]
			d := min(n.ex[v], int64(t.hi[v]-n.flow[v]))
			n.flow[v] += int32(d)
			n.ex[v] -= d
			n.ex[par] += d
			if n.ex[par] > 0 {
				n.activate(nf + par)
			}
			continue
		}
		for _, c := range t.kids[t.kidStart[v]:t.kidStart[v+1]] {
			if n.flow[c] > 0 && n.pr[v] < n.pr[c] {
				d := min(n.ex[v], int64(n.flow[c]))
				n.flow[c] -= int32(d)
				n.ex[v] -= d
				n.ex[c] += d
				if n.ex[c] > 0 {
					n.activate(nf + c)
				}
				if n.ex[v] == 0 {
					return nil
				}
			}
		}
		for i := 0; i < len(n.mem[v]) && n.ex[v] > 0; {
			if g := n.mem[v][i]; n.atScore[g]+n.pr[v] < n.pf[g] {
				n.withdraw(g) // the last member takes index i
			} else {
				i++
			}
		}
		if n.ex[v] == 0 {
			return nil
		}
		// Relabel: the highest price that makes some residual edge admissible.
		m := math.Inf(-1)
		if v != n.sink && n.flow[v] < t.hi[v] {
			m = n.pr[t.parent[v]]
		}
		for _, c := range t.kids[t.kidStart[v]:t.kidStart[v+1]] {
			if n.flow[c] > 0 {
				m = max(m, n.pr[c])
			}
		}
		for _, g := range n.mem[v] {
			m = max(m, n.pf[g]-n.atScore[g])
		}
		if math.IsInf(m, -1) {
			return fmt.Errorf("match: internal error: flow node %d has excess and no residual edge", v)
		}
		price := m - eps
		if price >= n.pr[v] { // ε below the prices' rounding: still go down
			price = math.Nextafter(n.pr[v], math.Inf(-1))
		}
		n.pr[v] = price
		n.relabels++
	}
	return nil
}

// refine makes the flow ε-optimal (every residual edge's reduced cost ≥ −ε) from an
// (α·ε)-optimal one (or none): it withdraws the families whose arc is no longer
// within ε of their best, fixes the tree edges, and pushes and relabels until no node
// has excess (Goldberg's push-relabel refine, with the auction's bids for families).
func (n *network) refine(ctx context.Context, eps float64) error {
	t, nf := n.t, int32(len(n.fam))
	for f := range nf {
		a := n.at[f]
		if a < 0 {
			n.activate(f)
			continue
		}
		// ε-optimal at f: (best of the others) − ε ≤ pf ≤ (its own value) + ε. The
		// bound kept from its bid may do; else an upper bound from the candidate
		// list; else the exact value.
		c1 := n.atScore[f] + n.pr[n.atNode[f]]
		if n.sec[f]-eps > c1+eps {
			n.sec[f] = n.listBound(f, a)
			if n.sec[f]-eps > c1+eps {
				n.sec[f], _, _ = n.top2(f, a, false)
			}
			if n.sec[f]-eps > c1+eps {
				n.withdraw(f)
				continue
			}
		}
		n.pf[f] = min(max(n.pf[f], n.sec[f]-eps), c1+eps)
	}
	for v := range n.sink {
		par := t.parent[v]
		switch {
		case n.flow[v] < t.hi[v] && n.pr[v]-n.pr[par] < -eps:
			d := int64(t.hi[v] - n.flow[v])
			n.flow[v] = t.hi[v]
			n.ex[v] -= d
			n.ex[par] += d
		case n.flow[v] > 0 && n.pr[par]-n.pr[v] < -eps:
			d := int64(n.flow[v])
			n.flow[v] = 0
			n.ex[v] += d
			n.ex[par] -= d
		}
	}
	for v := range n.sink + 1 {
		if n.ex[v] > 0 {
			n.activate(nf + v)
		}
	}
	for k := 0; n.head < len(n.queue); k++ {
		if k&1023 == 1023 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		id := n.queue[n.head]
		n.head++
		n.inQ[id] = false
		if id < nf {
			if n.at[id] < 0 {
				n.bid(id, eps)
			}
		} else if err := n.discharge(id-nf, eps); err != nil {
			return err
		}
		if n.head > 1<<16 && 2*n.head > len(n.queue) {
			n.queue = n.queue[:copy(n.queue, n.queue[n.head:])]
			n.head = 0
		}
	}
	n.queue, n.head = n.queue[:0], 0
	return nil
}

// scale is the largest absolute score, or 1 if all are 0.
func (n *network) scale() float64 {
	if n.maxAbs == 0 {
		return 1
	}
	return n.maxAbs
}

// run refines from ε = eps0 × the largest score down to epsFinal, dividing by
// alpha.
func (n *network) run(ctx context.Context, epsFinal float64) error {
	eps := max(n.scale()*eps0, epsFinal)
	for {
		if err := n.refine(ctx, eps); err != nil {
			return err
		}
		if eps <= epsFinal {
			return nil
		}
		eps = max(eps/alpha, epsFinal)
	}
}

// ε starts at eps0 times the largest score and shrinks by alpha from one
// refine to the next (measured on the EU-scale benchmark: larger factors or starting
// points cost more bids; the first refines, which discover the prices, dominate).
const (
	eps0  = 0.1
	alpha = 4
)

// cutReason explains why family f, which must be placed, is out in the optimum of the
// must-only network: the rows that the families that must be placed can reach from
// f (moving one another as they may) form a set whose exits are all full rows.
func (n *network) cutReason(p *solver.Prob, f int32) string {
	R := int(n.sink)
	seen := make([]bool, R+1)
	seenF := make([]bool, len(n.fam))
	stack := []int32{f}
	seenF[f] = true
	var nodes []int32
	for len(stack) > 0 {
		g := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for a := n.aStart[g]; a < n.aStart[g+1]; a++ {
			if a == n.at[g] || n.aArc[a] < 0 {
				continue
			}
			// Everything the family's row can reach in the residual network.
			q := []int32{n.aNode[a]}
			for len(q) > 0 {
				v := q[len(q)-1]
				q = q[:len(q)-1]
				if seen[v] {
					continue
				}
				seen[v] = true
				nodes = append(nodes, v)
				if v == n.sink {
					continue
				}
				if n.flow[v] < n.t.hi[v] {
					q = append(q, n.t.parent[v])
				}
				for _, c := range n.t.kids[n.t.kidStart[v]:n.t.kidStart[v+1]] {
					if n.flow[c] > 0 {
						q = append(q, c)
					}
				}
				for _, h := range n.mem[v] {
					if !seenF[h] {
						seenF[h] = true
						stack = append(stack, h)
					}
				}
			}
		}
	}
	var full []string
	for _, v := range nodes {
		if v != n.sink && !seen[n.t.parent[v]] {
			full = append(full, p.RowName(int(n.t.rowK[v])))
		}
	}
	slices.Sort(full)
	if len(full) > 3 {
		full = append(full[:3], fmt.Sprintf("and %d more", len(full)-3))
	}
	return fmt.Sprintf("family %d must be placed, but the families that must be placed cannot all fit: %s full",
		n.fam[f], strings.Join(full, "; "))
}

// bound is the LP dual objective at prices taken from the node prices: a row's price
// is how much lower its node's price is than its parent's (never negative), a
// family's dual its best score less the prices on the way to the sink (at least 0,
// the arc out, unless it must be placed), and the bound Σ capacity·price + Σ family
// duals, over every arc of the dimension. It is an upper bound on the optimum for
// any prices (weak duality); for ε-optimal ones it exceeds the value by at most
// about ε per family and per unit of capacity, which the last refine makes tiny.
func (n *network) bound(p *solver.Prob) float64 {
	t, R := n.t, int(n.sink)
	chain := make([]float64, R+1) // prices along the way from the node to the sink
	known := make([]bool, R+1)
	known[R] = true
	var walk func(v int32) float64
	walk = func(v int32) float64 {
		if !known[v] {
			par := t.parent[v]
			chain[v] = max(0, n.pr[par]-n.pr[v]) + walk(par)
			known[v] = true
		}
		return chain[v]
	}
	var b float64
	for v := range R {
		y := max(0, n.pr[t.parent[v]]-n.pr[v])
		b += y * p.RowHi[t.rowK[v]]
	}
	for i := range n.fam {
		u := math.Inf(-1)
		for a := n.aStart[i]; a < n.aStart[i+1]; a++ {
			u = max(u, n.aScore[a]-walk(n.aNode[a]))
		}
		b += u
	}
	return b
}
