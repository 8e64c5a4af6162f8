package lagrange

import (
	"context"
	"fmt"
	"math"
	"slices"

	"solidarity/match/internal/solver"
)

// solve is the method for models with many coupling rows (EU scale: 1 040
// places × 3 dimensions plus state groups). The coupling rows are priced out with
// multipliers λ ≥ 0 (dual.go): at given prices each family independently takes
// its arc of best reduced score, which gives a proven bound L(λ) ≥ optimum. The
// prices are found by minimising the entropy-smoothed L with a projected L-BFGS,
// the smoothing decreasing step by step; a full pass over the arcs after each step
// gives the bound. The primal side (../assign.go) places the families greedily by
// reduced score, those with most to lose first, then improves by local search on
// the true scores: single moves, ejections (a family takes a better place, another
// makes room), short chains of both, and exact repacking of small places
// (repack.go). The time the dual leaves goes, in turns, to the knapsack bound
// (kbound.go: tighter than L where small places cannot be filled by whole
// families) and to dives (dive.go: other roundings of the prices). It stops
// when the gap is within Options.Gap, on the time limit, or at the end of the
// schedule.
//
// A re-solve (Options.Start, after an override) starts from the previous solution
// and, when given them (Options.Prices), from its prices (warm.go): it repairs
// only around the families the override concerns and keeps the others where they
// were.
//
// Everything but the time limit is deterministic: the schedule depends only on the
// model and the options, and parallel work is split in fixed ranges.
func solve(ctx context.Context, p *solver.Prob, opts solver.Options) (*solver.Solution, error) {
	s := &search{ctx: ctx, p: p, opts: opts, u: newDual(p), work: newPrimal(p), bound: math.Inf(1), kbound: math.Inf(1)}
	s.u.keepMemory = true
	s.u.stop = s.stopped
	s.work.Stop = s.stopped
	s.scale = 1e-9
	for _, sc := range p.ArcScore {
		s.scale = max(s.scale, math.Abs(sc))
	}
	var warm *solver.Prices
	if w := opts.Prices; w != nil && len(opts.Start) == p.N && slices.Equal(w.Place(), opts.Start) {
		warm = w
	}
	if warm != nil {
		s.resolve(warm)
	} else {
		s.solve()
	}
	if s.inc == nil {
		if s.stopped() {
			return nil, fmt.Errorf("match: stopped (%v) before any feasible assignment was found", ctx.Err())
		}
		return nil, fmt.Errorf("match: no feasible assignment found (the model may be infeasible; it is too large for the exact method to prove it)")
	}
	sol := &solver.Solution{Status: solver.Feasible, Place: s.inc.Places(), Value: s.inc.Value, Bound: math.Max(s.proven(), s.inc.Value), Iterations: s.iters}
	if s.gapOK() {
		sol.Status = solver.Optimal
	}
	// The prices keep L(λ)'s bound: a re-solve compares its own pass with it.
	sol.Prices = solver.NewPrices(p, sol.Place, s.bestLam, s.tau, math.Max(s.bound, s.inc.Value))
	return sol, nil
}

// The schedule: τ starts at tauStart × the largest score and is multiplied by
// tauFactor after each step of levelIters L-BFGS iterations; the first allArcSteps steps
// smooth over every arc, the others over the candidates (the arcs within
// candMargin·τ, at least candFloor × the largest score, of their family's best; at
// least candMin and at most candMax of them). An incumbent is built quickly at
// step quickStep, then fully (construction and local search) at step buildStep; the
// dual runs on until its bound stops improving, or maxSteps; then the local search
// works on from the incumbent at the final prices.
const (
	tauStart        = 0.003
	tauFactor       = 0.4
	levelIters      = 20
	firstLevelIters = 10  // at step 0 after the samples
	sampleMin       = 500 // families in a sample at least
	maxSteps        = 12
	allArcSteps     = 1
	candMargin      = 40
	candFloor       = 0.02
	candMin         = 6
	candMax         = 48
	quickStep       = 2
	buildStep       = 4
	searchRounds    = 8  // rounds of local search at most, each a pass of every move kind
	searchArcs      = 8  // the arcs the local search tries per family: best by reduced score
	chainDepth      = 3  // chain depth: moves at most, displaced families included
	ejectWork       = 50 // ejection work budget per round, × families

	knapSteps  = 40   // knapsack bound steps at most
	knapFirst  = 15   // … before the first assignment from the knapsacks
	knapBatch  = 5    // … then between two
	knapRounds = 3    // rounds of local search on an assignment from the knapsacks
	knapTheta  = 0.25 // the first step's fraction of Polyak's
	knapCells  = 1e8  // dynamic program cells per step at most, for more than the first
	dualStop   = 1e-5 // the dual is done when a step lowers L by less (relative)
)

type search struct {
	ctx   context.Context
	p     *solver.Prob
	opts  solver.Options
	u     *dual
	work  *primal
	inc   *primal
	scale float64
	tau   float64

	bound   float64 // the best L(λ)
	kbound  float64 // the best knapsack bound (kbound.go)
	bestLam []float64
	iters   int
}

func (s *search) stopped() bool { return s.ctx.Err() != nil }

func (s *search) gapOK() bool {
	b := s.proven()
	return s.inc != nil && !math.IsInf(b, 1) && b-s.inc.Value <= s.opts.Gap*math.Max(1, math.Abs(b))
}

// proven is the best proven bound: L's or the knapsack bound's.
func (s *search) proven() float64 { return math.Min(s.bound, s.kbound) }

// offer keeps e as the incumbent when it is feasible and better.
func (s *search) offer(e *primal) {
	if e.Feasible() && (s.inc == nil || e.Value > s.inc.Value+1e-12) {
		if s.inc == nil {
			s.inc = e.clone()
		} else {
			s.inc.copyFrom(e)
		}
	}
}

// pass is a full pass at the current prices: the bound, and the candidates for
// the next step (all arcs when all). When the bound got worse than the best by
// more than a little (the smoothing on the candidates went astray: arcs left out
// became best), it goes back to the best prices with a wider candidate margin.
func (s *search) pass(all bool) float64 {
	u := s.u
	margin, minC, maxC := math.Inf(1), 0, math.MaxInt32
	if !all {
		margin, minC, maxC = math.Max(candMargin*s.tau, candFloor*s.scale), candMin, candMax
	}
	L := u.full(margin, minC, maxC)
	s.iters++
	if s.bestLam == nil {
		s.bestLam = make([]float64, len(u.lam))
	}
	switch {
	case L < s.bound:
		s.bound = L
		copy(s.bestLam, u.lam)
	case L > s.bound+1e-4*math.Max(1, math.Abs(s.bound)):
		copy(u.lam, s.bestLam)
		u.bf.Reset()
		L = u.full(4*margin, 2*minC, 2*maxC)
		s.iters++
	}
	trace("pass: tau %.3g L %.4f bound %.4f evals %d", s.tau, L, s.bound, s.iters)
	return L
}

// solve is the schedule from scratch.
func (s *search) solve() {
	u, p := s.u, s.p
	if len(s.opts.Start) == p.N {
		// A previous solution of another model: keep what still holds, improve only
		// on strict gains, so that families move only where that pays.
		s.work.FromPlaces(s.opts.Start)
		s.work.moves(nil, nil)
		s.offer(s.work)
	}
	s.tau = tauStart * s.scale
	prev := math.Inf(1)
	for step := 0; ; step++ {
		s.pass(step < allArcSteps)
		if step == quickStep || (s.stopped() && s.inc == nil) {
			u.quickPrimal(s.work)
			s.offer(s.work)
			trace("quick primal %.4f", s.work.Value)
		}
		if step == buildStep {
			u.primal(s.work, 2)
			s.offer(s.work)
			trace("primal %.4f", s.work.Value)
		}
		if s.gapOK() || s.stopped() {
			return
		}
		// The dual is done when its bound no longer moves.
		if step == maxSteps || (step > buildStep && prev-s.bound <= dualStop*math.Max(1, math.Abs(s.bound))) {
			break
		}
		prev = s.bound
		s.level(step)
	}
	s.after()
	if debugFinal != nil && s.inc != nil {
		debugFinal(u, s.inc)
	}
}

// level is one smoothing level of the dual schedule: L-BFGS iterations at τ,
// then τ lowered.
func (s *search) level(step int) {
	its := levelIters
	if step == 0 {
		// First estimates on samples of the families (cheap: a sixteenth, a
		// quarter of the arcs), when the samples are large enough to price the
		// rows; then fewer iterations over every family.
		for _, lv := range pyramid {
			if s.p.N/lv[0] >= sampleMin {
				s.iters += s.u.sampled(s.tau, lv[0], lv[1])
				its = firstLevelIters
			}
		}
	}
	s.iters += s.u.smoothOpt(s.tau, its)
	s.tau *= tauFactor
}

// after spends the time the dual schedule leaves. Where some small places can be
// solved exactly, in turns: steps of the knapsack bound (kbound.go), which
// lower the bound where small places cannot be filled by whole families, and an
// assignment built from the places' knapsack solutions (a rounding that knows the
// small places' packings), improved by local search; then the local search on
// from the incumbent at the last prices. Where no place is small enough, or the
// knapsacks are too large to solve often, the local search, then dives
// (dive.go: other roundings of the prices). It stops when the gap is met, on the
// time limit, or when all are done (a fixed number of each, so that without a
// time limit the result is the same every time).
func (s *search) after() {
	u := s.u
	if s.inc == nil {
		return
	}
	kb := newKnapBound(u)
	knap := kb.nSmall > 0
	if knap {
		// The first step is the bound at the dual's prices; it also tells what a
		// step costs: where the small places have too many candidates, the steps
		// would take the time the local search needs more.
		s.kbound = math.Min(s.kbound, kb.steps(1, s.inc.Value, s.stopped))
		knap = kb.work() <= knapCells
	}
	for it := 1; knap && it < knapSteps && !s.gapOK() && !s.stopped(); {
		n := knapBatch
		if it == 1 {
			n = knapFirst - 1
		}
		n = min(n, knapSteps-it)
		s.kbound = math.Min(s.kbound, kb.steps(n, s.inc.Value, s.stopped))
		it += n
		if s.gapOK() || s.stopped() {
			break
		}
		kb.primal(s.work)
		v := s.work.Value
		u.improve(s.work, knapRounds, s.stopped)
		s.offer(s.work)
		trace("knapsack primal: %.4f, improved %.4f", v, s.work.Value)
	}
	if s.gapOK() || s.stopped() {
		return
	}
	// Local search on from the incumbent at the last prices.
	s.work.copyFrom(s.inc)
	u.improve(s.work, searchRounds, s.stopped)
	s.offer(s.work)
	trace("improved %.4f", s.work.Value)
	if knap {
		// Dives find less than the assignments from the knapsacks.
		return
	}
	var d diveState
	for i := 0; i < len(diveFirst) && !s.gapOK() && !s.stopped(); i++ {
		s.dive(s.work, &d, diveFirst[i])
		v := s.work.Value
		u.improve(s.work, searchRounds, s.stopped)
		s.offer(s.work)
		trace("dive %d (%.2f): %.4f, improved %.4f", i, diveFirst[i], v, s.work.Value)
	}
}

// quickPrimal is the greedy of primal with single moves only: an incumbent early.
func (u *dual) quickPrimal(e *primal) {
	u.construct(e)
	e.moves(nil, nil)
}

// construct places the families from scratch at the prices of the last full pass
// (fillByRegret).
func (u *dual) construct(e *primal) {
	e.Reset()
	u.fillByRegret(e)
}

// fillByRegret places the families still out, those with most to lose first (the
// regret: best reduced score minus second best, staying out counting as 0 when
// allowed), each on its fitting arc of best reduced score; then the families that
// must be placed and the minimums.
func (u *dual) fillByRegret(e *primal) {
	p := u.p
	key := make([]float64, p.N)
	for f := range p.N {
		b1, b2 := math.Inf(-1), math.Inf(-1)
		if !p.Must[f] {
			b1 = 0
		}
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			if r := u.red[a]; r > b1 {
				b1, b2 = r, b1
			} else if r > b2 {
				b2 = r
			}
		}
		key[f] = b1 - b2
	}
	e.Greedy(solver.OrderBy(p, key), u.red)
	e.fixMustAndMins()
}

// fixMustAndMins places the families that must be placed and are not, and meets
// the minimums, with the shared repairs (solver/repair.go), when needed.
func (e *primal) fixMustAndMins() {
	if e.Feasible() {
		return
	}
	trace("repair (must, minimums)")
	e.PlaceMusts()
	e.MeetMins()
	// The repairs move families in place; rebuild the assignment in family order, as
	// the method has always seen it after a repair: the searches that follow walk a
	// place's families in that order and take the first best move, and the repacking
	// skips the places whose version is unchanged, so the order is part of the answer.
	arcs := slices.Clone(e.Arc)
	e.Reset()
	for f, a := range arcs {
		if a >= 0 {
			e.Set(f, a)
		}
	}
}

// primal builds an assignment (construct) and improves it (improve).
func (u *dual) primal(e *primal, rounds int) {
	u.construct(e)
	u.improve(e, rounds, nil)
}

// topArcs lists, per family (CSR), its k arcs of best reduced score, in arc order.
func (u *dual) topArcs(k int) (start, arcs []int32) {
	p := u.p
	start = make([]int32, p.N+1)
	arcs = make([]int32, 0, p.N*k)
	var top []int32
	for f := range p.N {
		top = top[:0]
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			r := u.red[a]
			if len(top) == k && r <= u.red[top[k-1]] {
				continue
			}
			if len(top) < k {
				top = append(top, a)
			} else {
				top[k-1] = a
			}
			for i := len(top) - 1; i > 0 && u.red[top[i-1]] < u.red[top[i]]; i-- {
				top[i-1], top[i] = top[i], top[i-1]
			}
		}
		n0 := len(arcs)
		arcs = append(arcs, top...)
		slices.Sort(arcs[n0:])
		start[f+1] = int32(len(arcs))
	}
	return start, arcs
}

// displaced lists the families not on an arc of best reduced score.
func (u *dual) displaced(e *primal) []int32 {
	p := u.p
	var fams []int32
	for f := range p.N {
		a := e.Arc[f]
		r := 0.0
		if a >= 0 {
			r = u.red[a]
		}
		if b := u.best[f]; b >= 0 && b != a && u.red[b] > r+1e-9 {
			fams = append(fams, int32(f))
		}
	}
	return fams
}

// improve is the local search on the true scores, guided by the reduced scores of
// the last full pass: rounds of moves among each family's best arcs, ejections and
// chains for the displaced families; then moves over every arc. It stops early when
// a round gains (relatively) less than 1e-7, or when stop says so.
func (u *dual) improve(e *primal, rounds int, stop func() bool) {
	p := u.p
	cs, ca := u.topArcs(searchArcs)
	cands := func(f int) []int32 { return ca[cs[f]:cs[f+1]] }
	chains := newChainSearch(e, u.red, cs, ca, chainDepth)
	rep := newRepacker(e, cs, ca)
	for round := 0; round < rounds; round++ {
		if stop != nil && stop() {
			break
		}
		g := e.moves(nil, cands)
		g += e.eject(u.displaced(e), cands, ejectWork*p.N)
		g += chains.run(u.displaced(e))
		g += rep.run()
		if classChainsOn {
			cg := e.classChains(cands, 8, 200*p.N)
			trace("class chains +%.4f", cg)
			g += cg
		}
		trace("improve round %d: %.4f (+%.4f)", round, e.Value, g)
		if g <= 1e-7*math.Max(1, math.Abs(e.Value)) {
			break
		}
	}
	e.moves(nil, nil)
}

// trace reports progress and debugFinal inspects the final search state (tests
// set them).
var (
	trace         = func(format string, args ...any) {}
	debugFinal    func(u *dual, e *primal)
	classChainsOn = false
	// pyramid: the samples of step 0 (every k-th family, iterations).
	pyramid = [][2]int{{16, 40}, {4, 30}}
)

// sampled runs iters L-BFGS iterations on the smoothed dual of every k-th family
// with the capacities scaled to their share: a cheap estimate of the prices.
func (u *dual) sampled(tau float64, k, iters int) int {
	p := u.p
	var act []int32
	for f := 0; f < p.N; f += k {
		act = append(act, int32(f))
	}
	frac := float64(len(act)) / float64(p.N)
	hi, lo := make([]float64, p.K0), make([]float64, p.K0)
	for r := range p.K0 {
		hi[r], lo[r] = p.RowHi[r]*frac, p.RowLo[r]*frac
	}
	u.act, u.hi, u.lo = act, hi, lo
	n := u.smoothOpt(tau, iters)
	u.act, u.hi, u.lo = nil, p.RowHi[:p.K0], p.RowLo[:p.K0]
	u.bf.Reset()
	return n
}

// Method is the Lagrangian method (see solve).
type Method struct{}

// Solve solves p by the Lagrangian method.
func (Method) Solve(ctx context.Context, p *solver.Prob, opts solver.Options) (*solver.Solution, error) {
	return solve(ctx, p, opts)
}
