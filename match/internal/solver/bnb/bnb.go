package bnb

import (
	"cmp"
	"container/heap"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"solidarity/match/internal/solver"
)

// fix sets column col of the LP to val (0 or 1) in a subtree.
type fix struct {
	col int32
	val float64
}

// node is an open subproblem: the fixes from the root, and its parent's LP bound
// (maximisation: an upper bound on anything below).
type node struct {
	bound float64
	fixes []fix
	seq   int       // creation order, for a deterministic heap
	u     []float64 // Lagrangian multipliers to start from (nil: the root's)
}

type nodeHeap []*node

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].bound != h[j].bound {
		return h[i].bound > h[j].bound
	}
	return h[i].seq < h[j].seq
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(*node)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

const fracTol = 1e-6

// At a node that its LP does not prune, the knapsack Lagrangian (knapsack.go) takes
// nodeLagIters subgradient steps from the parent's multipliers, when one evaluation
// (Σ states × items over the places) is at most nodeLagMaxWork. Its bound is much
// closer to the optimum than the LP's (HIAS B at the root: 209.0037 against 209.0586,
// optimum 208.9981): B 25233 nodes → 738. On HIAS A (work 10M) the evaluations cost
// more than the nodes they save (20 steps: 1551 nodes → 619, 12 s → 37 s).
// A node's steps end after nodeLagStall without progress: most nodes that the
// steps do not prune soon are not pruned by more either (HIAS B: 5.4 s, 1369
// nodes → 2.5 s, 1536 nodes; a limit of 4 to 7 steps does about as well).
const (
	nodeLagIters   = 40
	nodeLagMaxWork = 2000000
	nodeLagStall   = 5
)

// bnb is the state of one branch-and-bound run.
type bnb struct {
	ctx    context.Context
	p      *solver.Prob
	l      *lp
	opts   solver.Options
	method Method

	rootLo, rootUp []float64
	applied        []fix // the fixes now in the LP's bounds

	inc     *solver.Assignment // best assignment found, or nil
	incVal  float64
	start   []int // previous assignment, for ties
	pruned  float64
	nodes   int
	nextSeq int
	work    *solver.Assignment

	// The root LP, for reduced-cost fixing.
	rootZ    float64
	rootD    []float64
	rootStat []int8
	// Pseudo-costs per arc: bound lost per unit change, down [0] and up [1].
	pcSum [][2]float64
	pcCnt [][2]int32
	save  lpState
	cands []int32

	// The knapsack Lagrangian (knapsack.go), when the model allows it: its bound at
	// the root and the arcs whose root bounds changed since the last apply.
	kl        *knapLag
	klL       float64
	rootDirty []int32

	// RINS during the search (rins.go): the node at which it runs next, the wait
	// after that, and the neighbourhoods searched around the incumbent.
	rinsNext, rinsWait int
	rinsSeen           map[uint64]bool
	nodeSteps          int                // subgradient steps at a node (nodeBound)
	order              []int32            // families by best score, for the knapsack primal
	knapSol            *solver.Assignment // the best assignment nodeBound found, to offer
}

// gapAbs is the absolute gap below which a node cannot improve on the incumbent.
func (b *bnb) gapAbs() float64 { return b.opts.Gap * math.Max(1, math.Abs(b.incVal)) }

func (b *bnb) offer(s *solver.Assignment) {
	if !s.Feasible() {
		return
	}
	if b.inc == nil || s.Value > b.incVal+1e-12 {
		if b.inc == nil {
			b.inc = s.Clone()
		} else {
			b.inc.CopyFrom(s)
		}
		b.incVal = s.Value
		clear(b.rinsSeen)
		b.fixByRootCosts()
		b.fixByKnapsack()
	}
}

// fixByRootCosts fixes, for the whole search, the arcs whose root reduced cost shows
// that flipping them loses more than the root bound exceeds the incumbent.
func (b *bnb) fixByRootCosts() {
	if b.rootD == nil {
		return
	}
	slack := b.rootZ - b.incVal
	for j, d := range b.rootD {
		if b.rootLo[j] == b.rootUp[j] {
			// Fixed already, perhaps in the root LP itself: an arc that the knapsack
			// bound removed (knapsackRoot) and that left the basis at its upper
			// bound, 0, has stat atUpper, and its reduced cost says nothing about
			// setting it to 1.
			continue
		}
		switch {
		case b.rootStat[j] == atLower && d > slack+1e-12:
			b.rootLo[j], b.rootUp[j] = 0, 0
		case b.rootStat[j] == atUpper && -d > slack+1e-12:
			b.rootLo[j], b.rootUp[j] = 1, 1
		}
	}
}

// Method is the exact method: branch-and-bound on the LP relaxation (lp.go), with
// cuts at the root (bnb_cuts.go), the knapsack Lagrangian's bound and fixings
// (knapsack.go) and a neighbourhood search around the incumbent (rins.go).
type Method struct {
	// Methods solve the neighbourhood search's sub-problems; nil: no such search.
	Methods *solver.Methods
	// NodeLimit stops the search after that many nodes (0: none); set only on the
	// sub-problems of rins.go, so that they stay deterministic.
	NodeLimit int
}

// Solve solves p by branch-and-bound.
func (m Method) Solve(ctx context.Context, p *solver.Prob, opts solver.Options) (*solver.Solution, error) {
	return solve(ctx, p, opts, m)
}

func solve(ctx context.Context, p *solver.Prob, opts solver.Options, method Method) (*solver.Solution, error) {
	l := newLP(p)
	b := &bnb{ctx: ctx, p: p, l: l, opts: opts, method: method, pruned: math.Inf(-1), start: opts.Start,
		rootLo: slices.Clone(l.lo), rootUp: slices.Clone(l.up), work: solver.NewAssignment(p),
		pcSum: make([][2]float64, l.nA), pcCnt: make([][2]int32, l.nA)}
	if len(opts.Start) == p.N {
		s := solver.NewAssignment(p)
		if !s.FromPlaces(opts.Start) {
			s.Fill(b.orderByScore(), p.ArcScore)
		}
		s.Climb(20)
		b.offer(s)
	}
	res := b.solveRoot(ctx)
	if res == lpInfeasible {
		return &solver.Solution{Status: solver.Infeasible, Reason: b.rayReason(), Iterations: l.iters}, nil
	}
	if res == lpLimit {
		return b.rootStopped(opts)
	}
	l, ok := b.rootCuts(l)
	if !ok {
		return nil, fmt.Errorf("match: internal error: the cuts made the root LP infeasible")
	}
	b.l = l
	b.rootLo, b.rootUp = slices.Clone(l.lo), slices.Clone(l.up)
	// The root's reduced costs fix arcs for the whole search each time the incumbent
	// improves: an arc whose reduced cost exceeds the root gap cannot be in any
	// better solution.
	b.rootZ = -l.objective()
	b.rootD = slices.Clone(l.d[:l.nA])
	b.rootStat = slices.Clone(l.stat[:l.nA])
	b.fixByRootCosts()
	b.round()
	knapBoundAt := b.knapsackRoot()
	if knapBoundAt <= b.incVal+b.gapAbs() {
		return &solver.Solution{Status: solver.Optimal, Place: b.inc.Places(), Value: b.incVal,
			Bound: max(b.incVal, knapBoundAt), Nodes: 1, Iterations: b.l.iters}, nil
	}
	l = b.l
	b.rins(l.x, rinsRootNodes)

	h := &nodeHeap{}
	var cur *node = &node{bound: b.rootZ}
	first := true
	stopped := false
	for {
		if cur == nil {
			if h.Len() == 0 {
				break
			}
			cur = heap.Pop(h).(*node)
		}
		if b.inc != nil && cur.bound <= b.incVal+b.gapAbs() {
			b.pruned = max(b.pruned, cur.bound)
			cur = nil
			continue
		}
		if ctx.Err() != nil || (b.method.NodeLimit > 0 && b.nodes >= b.method.NodeLimit) {
			heap.Push(h, cur)
			stopped = true
			break
		}
		b.nodes++
		var z float64
		if first {
			first = false
			z = b.rootZ
		} else {
			if lb, _ := b.nodeBound(cur.fixes, 0, nil); b.inc != nil && lb <= b.incVal+b.gapAbs() {
				b.pruned = max(b.pruned, min(lb, cur.bound))
				cur = nil
				continue
			}
			b.apply(cur.fixes)
			z = b.nodeLP()
			if math.IsNaN(z) {
				cur = nil
				continue
			}
		}
		if b.inc != nil && z <= b.incVal+b.gapAbs() {
			b.pruned = max(b.pruned, z)
			cur = nil
			continue
		}
		if b.kl != nil && b.inc != nil && len(cur.fixes) > 0 {
			// Reduced-cost fixing for the subtree: an arc whose reduced cost exceeds
			// the node's gap over the incumbent cannot be in a better assignment
			// below. The fixed arcs also leave the knapsacks of the Lagrangian node
			// bound, which then often prunes what the LP does not.
			if b.fixByNodeCosts(cur, z) > 0 || b.nodeSteps > 0 {
				lb, u := b.nodeBound(cur.fixes, b.nodeSteps, cur.u)
				if u != nil {
					cur.u = u
				}
				if b.knapSol != nil {
					b.offer(b.knapSol)
					b.knapSol = nil
				}
				if lb <= b.incVal+b.gapAbs() {
					b.pruned = max(b.pruned, min(lb, z))
					cur = nil
					continue
				}
			}
		}
		b.rinsTree(l.x)
		if b.nodes%16 == 1 {
			b.round()
			if b.inc != nil && z <= b.incVal+b.gapAbs() {
				b.pruned = max(b.pruned, z)
				cur = nil
				continue
			}
		}
		j, zDown, zUp := b.branch(z)
		if j == -2 {
			// Strong branching pruned both sides.
			b.pruned = max(b.pruned, zDown, zUp)
			cur = nil
			continue
		}
		if j < 0 {
			// Integral: a new incumbent.
			s := b.work
			b.fromLP(s)
			b.offer(s)
			b.pruned = max(b.pruned, min(z, b.incVal))
			cur = nil
			continue
		}
		x := l.x[j]
		up := &node{bound: zUp, fixes: append(slices.Clip(cur.fixes), fix{int32(j), 1}), seq: b.seq(), u: cur.u}
		down := &node{bound: zDown, fixes: append(slices.Clip(cur.fixes), fix{int32(j), 0}), seq: b.seq(), u: cur.u}
		// Dive into the side the LP leans to; the other waits in the heap.
		if x >= 0.5 {
			heap.Push(h, down)
			cur = up
		} else {
			heap.Push(h, up)
			cur = down
		}
	}
	sol := &solver.Solution{Nodes: b.nodes, Iterations: l.iters}
	if b.inc == nil {
		if stopped {
			return nil, fmt.Errorf("match: stopped (%v) before any feasible assignment was found", ctx.Err())
		}
		return &solver.Solution{Status: solver.Infeasible, Nodes: b.nodes, Iterations: l.iters,
			Reason: "the families that must be placed cannot all be packed into the capacities together " +
				"(the fractional relaxation fits them, but no whole-family assignment does; " +
				b.tightRows() + ")"}, nil
	}
	sol.Place = b.inc.Places()
	sol.Value = b.incVal
	bound := max(b.incVal, b.pruned)
	for _, n := range *h {
		bound = max(bound, n.bound)
	}
	bound = min(bound, max(b.incVal, knapBoundAt))
	sol.Bound = bound
	sol.Status = solver.Optimal
	// The same test as pruning uses (with room for the rounding of inc + gap).
	if stopped || bound > b.incVal+b.gapAbs()*(1+1e-6) {
		sol.Status = solver.Feasible
	}
	return sol, nil
}

// nodeLP solves the LP at the current bounds; NaN when the node is pruned (infeasible,
// cut off by the incumbent, or stuck), else the bound.
func (b *bnb) nodeLP() float64 {
	l := b.l
	cutoff := math.Inf(1)
	if b.inc != nil {
		cutoff = -(b.incVal + b.gapAbs())
	}
	switch l.solve(cutoff, 20000) {
	case lpInfeasible:
		return math.NaN()
	case lpCutoff:
		b.pruned = max(b.pruned, -l.objective())
		return math.NaN()
	case lpLimit:
		// Numerical trouble: keep the dual bound reached for this subtree, honestly.
		b.pruned = max(b.pruned, -l.objective())
		return math.NaN()
	}
	return -l.objective()
}

func (b *bnb) seq() int { b.nextSeq++; return b.nextSeq }

// apply sets the LP's bounds to the root's plus fixes, keeps the basis, and puts the
// nonbasic columns whose bounds changed at the bound their reduced cost asks for.
func (b *bnb) apply(fixes []fix) {
	l := b.l
	// The arcs fixed for the whole search leave the simplex's loops (lp.frozen),
	// which is sound only when their bounds in the LP are fixed too: fixByRootCosts
	// changes the root bounds without telling the LP, so they go through rootDirty.
	if l.frozen == nil {
		l.frozen = make([]bool, l.nCo)
	}
	for j := range l.nA {
		if !l.frozen[j] && b.rootLo[j] == b.rootUp[j] {
			l.frozen[j] = true
			b.rootDirty = append(b.rootDirty, int32(j))
		}
	}
	for _, fx := range b.applied {
		j := fx.col
		l.lo[j], l.up[j] = b.rootLo[j], b.rootUp[j]
	}
	for _, fx := range fixes {
		j := fx.col
		l.lo[j], l.up[j] = fx.val, fx.val
	}
	reset := func(j int32) {
		switch l.stat[j] {
		case atLower, atUpper:
			if l.lo[j] < l.up[j] {
				if l.d[j] < 0 {
					l.stat[j] = atUpper
				} else {
					l.stat[j] = atLower
				}
			}
			if l.stat[j] == atUpper {
				l.x[j] = l.up[j]
			} else {
				l.x[j] = l.lo[j]
			}
		}
	}
	for _, fx := range b.applied {
		reset(fx.col)
	}
	for _, j := range b.rootDirty {
		if l.lo[j] != b.rootLo[j] || l.up[j] != b.rootUp[j] {
			l.lo[j], l.up[j] = b.rootLo[j], b.rootUp[j]
			reset(j)
		}
	}
	b.rootDirty = b.rootDirty[:0]
	for _, fx := range fixes {
		reset(fx.col)
	}
	b.applied = append(b.applied[:0], fixes...)
	l.computePrimal()
}

// fromLP loads the LP's (integral) solution into s.
func (b *bnb) fromLP(s *solver.Assignment) {
	p, l := b.p, b.l
	for f := range p.N {
		s.Set(f, -1)
	}
	for f := range p.N {
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			if l.x[a] > 0.5 {
				s.Set(f, a)
				break
			}
		}
	}
}

// round is the LP rounding heuristic: families whose LP value is whole keep their
// arc; the others are placed greedily by LP value, then score (ties go to the
// previous assignment), and a local search improves the result.
func (b *bnb) round() {
	p, l, s := b.p, b.l, b.work
	for f := range p.N {
		s.Set(f, -1)
	}
	type famRank struct {
		f    int32
		frac float64
	}
	var rest []famRank
	for f := range p.N {
		placed := false
		top := 0.0
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			if l.x[a] >= 1-fracTol {
				s.Set(f, a)
				placed = true
				break
			}
			top = max(top, l.x[a])
		}
		if !placed {
			rest = append(rest, famRank{int32(f), top})
		}
	}
	// Must families first, then by LP value, then by size (large families are harder
	// to fit later).
	slices.SortStableFunc(rest, func(x, y famRank) int {
		if p.Must[x.f] != p.Must[y.f] {
			if p.Must[x.f] {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(y.frac, x.frac); c != 0 {
			return c
		}
		return cmp.Compare(p.Size[y.f], p.Size[x.f])
	})
	order := make([]int32, len(rest))
	for i, r := range rest {
		order[i] = r.f
	}
	rank := make([]float64, len(p.ArcPlace))
	for a := range rank {
		rank[a] = l.x[a]*1e6 + p.ArcScore[a]
		if b.start != nil && b.start[p.ArcFam[a]] == int(p.ArcPlace[a]) {
			rank[a] += 1e-9
		}
	}
	s.Fill(order, rank)
	s.Climb(10)
	b.offer(s)
}

// orderByScore lists the families Must first, then by their best score.
// solveRoot solves the root LP on the clock: on a large model its dense
// re-inversions can outlast the time limit (issue 17), which is a promise to the
// user. Under a deadline it gets half of the time left; the other half goes to
// the Lagrangian method if it does not finish (rootStopped).
func (b *bnb) solveRoot(ctx context.Context) lpResult {
	half := time.Time{}
	if dl, ok := ctx.Deadline(); ok {
		half = time.Now().Add(time.Until(dl) / 2)
	}
	b.l.stop = func() bool { return ctx.Err() != nil || (!half.IsZero() && time.Now().After(half)) }
	res := b.l.solve(math.Inf(1), 1<<30)
	b.l.stop = nil
	return res
}

// rootStopped is the answer when the time limit stops the root LP: the best of
// the Lagrangian method's answer in the time left, the start, and a greedy fill
// improved by local search, with the lowest of the bounds: the Lagrangian
// method's, the dual simplex's where it stopped (its objective is the dual's,
// valid at every iteration once refreshed) and the trivial one.
func (b *bnb) rootStopped(opts solver.Options) (*solver.Solution, error) {
	l, p := b.l, b.p
	lagBound := math.Inf(1)
	if ms := b.method.Methods; ms != nil && ms.Large != nil && b.ctx.Err() == nil {
		if sol, err := ms.Large.Solve(b.ctx, p, opts); err == nil && sol.Status != solver.Infeasible {
			lagBound = sol.Bound
			if s := solver.NewAssignment(p); s.FromPlaces(sol.Place) {
				b.offer(s)
			}
		}
	}
	s := solver.NewAssignment(p)
	s.Fill(b.orderByScore(), p.ArcScore)
	s.Climb(20)
	b.offer(s)
	if b.inc == nil {
		return nil, fmt.Errorf("match: stopped (%v) before any feasible assignment was found", b.ctx.Err())
	}
	l.refresh()
	bound := -l.objective()
	trivial := 0.0
	for f := range p.N {
		best := math.Inf(-1)
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			best = max(best, p.ArcScore[a])
		}
		if p.Must[f] || best > 0 {
			trivial += best
		}
	}
	return &solver.Solution{Status: solver.Feasible, Place: b.inc.Places(), Value: b.incVal,
		Bound: max(b.incVal, min(bound, trivial, lagBound)), Nodes: 0, Iterations: l.iters}, nil
}

func (b *bnb) orderByScore() []int32 {
	return orderByBest(b.p, func(a int32) float64 { return b.p.ArcScore[a] })
}

func orderByBest(p *solver.Prob, rank func(a int32) float64) []int32 {
	best := make([]float64, p.N)
	order := make([]int32, p.N)
	for f := range p.N {
		order[f] = int32(f)
		best[f] = math.Inf(-1)
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			best[f] = max(best[f], rank(a))
		}
	}
	slices.SortStableFunc(order, func(x, y int32) int {
		if p.Must[x] != p.Must[y] {
			if p.Must[x] {
				return -1
			}
			return 1
		}
		return cmp.Compare(best[y], best[x])
	})
	return order
}

// rayReason names the constraints in the certificate of infeasibility that the dual
// simplex found: the row combination (π) that no assignment can satisfy.
func (b *bnb) rayReason() string {
	l, p := b.l, b.p
	var names []string
	var fams []int
	for f := range p.N {
		if math.Abs(l.piF[f]) > 1e-9 && p.Must[f] {
			fams = append(fams, f)
		}
	}
	for k := range p.K {
		if math.Abs(l.piC[k]) > 1e-9 {
			names = append(names, p.RowName(k))
		}
	}
	if len(fams) > 0 {
		names = append(names, "families "+solver.ListInts(fams)+" must be placed")
	}
	if len(names) > 10 {
		names = append(names[:10], fmt.Sprintf("and %d more", len(names)-10))
	}
	return "no assignment meets these constraints together: " + strings.Join(names, "; ")
}

// tightRows names the coupling rows at their limit in the current LP solution.
func (b *bnb) tightRows() string {
	l, p := b.l, b.p
	var names []string
	for k := range p.K {
		j := l.nA + l.nF + k
		if l.x[j] >= p.RowHi[k]-1e-6 && p.RowKind[k] != solver.RowMin || p.RowKind[k] == solver.RowMin && l.x[j] <= p.RowLo[k]+1e-6 {
			names = append(names, p.RowName(k))
		}
	}
	if len(names) > 8 {
		names = append(names[:8], fmt.Sprintf("and %d more", len(names)-8))
	}
	if len(names) == 0 {
		return "no row is at its limit"
	}
	return "at their limits: " + strings.Join(names, "; ")
}

// Strong branching: at most sbCands candidates per node, each side at most sbIters
// dual simplex iterations (the dual objective reached is a valid bound even when the
// child is not solved to the end); a candidate with sbReliable observations on both
// sides uses its pseudo-costs instead.
const (
	sbCands    = 8
	sbIters    = 30
	sbReliable = 2
)

// branch picks the fractional arc to branch on and the bounds of its two children
// (down: arc fixed to 0, up: fixed to 1). It returns -1 when the LP solution is
// integral, -2 when strong branching showed that neither child can beat the
// incumbent.
func (b *bnb) branch(z float64) (int, float64, float64) {
	l, p := b.l, b.p
	b.cands = b.cands[:0]
	for j := range l.nA {
		if v := l.x[j]; v > fracTol && v < 1-fracTol {
			b.cands = append(b.cands, int32(j))
		}
	}
	if len(b.cands) == 0 {
		return -1, z, z
	}
	// The average pseudo-costs stand in for arcs never branched on.
	var avg [2]float64
	for side := range 2 {
		s, c := 0.0, 0
		for j := range l.nA {
			if b.pcCnt[j][side] > 0 {
				s += b.pcSum[j][side] / float64(b.pcCnt[j][side])
				c++
			}
		}
		avg[side] = 1
		if c > 0 {
			avg[side] = s / float64(c)
		}
	}
	pc := func(j int32, side int) float64 {
		if n := b.pcCnt[j][side]; n > 0 {
			return b.pcSum[j][side] / float64(n)
		}
		return avg[side]
	}
	score := func(down, up float64) float64 { return max(down, 1e-7) * max(up, 1e-7) }
	type cand struct {
		j     int32
		est   float64
		fresh bool
	}
	cs := make([]cand, len(b.cands))
	for i, j := range b.cands {
		x := l.x[j]
		cs[i] = cand{j, score(pc(j, 0)*x, pc(j, 1)*(1-x)) * (1 + p.Size[p.ArcFam[j]]*1e-3),
			b.pcCnt[j][0] < sbReliable || b.pcCnt[j][1] < sbReliable}
	}
	slices.SortStableFunc(cs, func(a, c cand) int { return cmp.Compare(c.est, a.est) })

	best, bestScore := int(cs[0].j), -1.0
	bestDown, bestUp := z, z
	cutoff := math.Inf(1)
	if b.inc != nil {
		cutoff = -(b.incVal + b.gapAbs())
	}
	tried := 0
	for _, c := range cs {
		if tried >= sbCands {
			break
		}
		if !c.fresh {
			if c.est > bestScore {
				best, bestScore, bestDown, bestUp = int(c.j), c.est, z, z
			}
			continue
		}
		tried++
		j := int(c.j)
		x := l.x[j]
		var zc [2]float64
		for side := range 2 {
			l.saveTo(&b.save)
			lo0, up0 := l.lo[j], l.up[j]
			val := float64(side)
			l.lo[j], l.up[j] = val, val
			r := l.solve(cutoff, sbIters)
			zc[side] = -l.objective()
			if r == lpInfeasible || r == lpCutoff {
				zc[side] = math.Inf(-1)
			}
			l.lo[j], l.up[j] = lo0, up0
			l.restore(&b.save)
			// Record the pseudo-cost (only from finite, solved or partial bounds).
			if !math.IsInf(zc[side], -1) {
				frac := x
				if side == 1 {
					frac = 1 - x
				}
				b.pcSum[j][side] += max(0, z-zc[side]) / frac
				b.pcCnt[j][side]++
			}
		}
		dead := b.inc != nil
		lim := b.incVal + b.gapAbs()
		if dead && zc[0] <= lim && zc[1] <= lim {
			return -2, max(zc[0], lim), max(zc[1], lim)
		}
		gd := z - zc[0]
		gu := z - zc[1]
		if math.IsInf(gd, 1) {
			gd = 1e9
		}
		if math.IsInf(gu, 1) {
			gu = 1e9
		}
		if sc := score(gd, gu); sc > bestScore {
			best, bestScore, bestDown, bestUp = j, sc, min(z, zc[0]), min(z, zc[1])
		}
	}
	return best, bestDown, bestUp
}

// fixByNodeCosts appends to the node's fixes the arcs its LP's reduced costs (at
// value z) fix for the subtree, and returns how many.
func (b *bnb) fixByNodeCosts(cur *node, z float64) int {
	l := b.l
	slack := z - (b.incVal + b.gapAbs())
	n := len(cur.fixes)
	for j := range l.nA {
		if l.lo[j] == l.up[j] {
			continue
		}
		switch {
		case l.stat[j] == atLower && l.d[j] > slack+1e-9:
			cur.fixes = append(cur.fixes, fix{int32(j), 0})
		case l.stat[j] == atUpper && -l.d[j] > slack+1e-9:
			cur.fixes = append(cur.fixes, fix{int32(j), 1})
		}
	}
	if len(cur.fixes) > n {
		cur.fixes = slices.Clip(cur.fixes)
	}
	return len(cur.fixes) - n
}
