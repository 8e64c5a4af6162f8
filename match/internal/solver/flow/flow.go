package flow

import (
	"context"
	"fmt"
	"math"
	"sync"

	"solidarity/match/internal/solver"
)

// When every family is one person (a need vector that is a unit vector, or all zero)
// and the groups of each dimension are laminar (two groups are disjoint or one
// contains the other), the model is a minimum-cost flow problem, and flows are
// integral: the LP optimum is the integer optimum, found without any branching.
// This file solves that case.
//
// The dimensions do not interact (a one-person family uses capacity in a single
// dimension), so each is a network of its own, solved on its own goroutine:
//
//	family (supply 1) → the deepest coupling row containing the place (cost −score)
//	family → sink, "out" (cost 0; no such arc if the family must be placed)
//	row → the next larger row containing it … → sink (capacity: the row's)
//
// A family with an all-zero need uses no capacity at all: it simply takes its best
// arc (if it gains, or always if it must be placed).
//
// Only the Prob's rows are used: a row NewProb dropped can never bind (all the
// families that could go there fit), so it needs no edge, and need not be laminar
// with the others either. Minimum rows (Model.Mins) are not accepted: a minimum over
// persons spans the dimensions, and even in one dimension a minimum over a set that is
// not in the laminar family has no place in the tree. A minimum that NewProb dropped
// (Min ≤ 0) is no constraint and does not count.
//
// The method is cost scaling (Goldberg's push-relabel refine, with the auction's
// bids for the family nodes, as in Goldberg and Kennedy's CSA): prices on the nodes,
// ε-optimality (no residual edge cheaper than −ε at the prices) kept while ε shrinks,
// each refine pushing units along admissible edges and lowering prices where there
// are none. Successive shortest paths were tried first and are exact too, but on the
// EU benchmark each path search settled hundreds of full rows (the families'
// preferences are correlated and nearly flat), which took minutes; the bids take a
// fraction of a second. A family's bid needs its best two arcs at the current
// prices; a short list of its candidates (see top2) spares most bids a scan of all
// its arcs.
//
// Families that must be placed are handled exactly in two steps: first a network of
// them alone, every arc worth 0 and going out worth −1 (integer costs: ε-optimal
// with ε below 1/nodes is optimal), whose optimum leaves one out exactly when they
// cannot all be placed (the rows around what it can reach, all full, are the
// reason); then the full network, where they have no arc out.
//
// Exactness with float scores: the last refine has ε = 1e-13 times the largest score.
// The final prices give a dual solution of the LP (row prices, each family's best
// reduced score), which is a valid upper bound whatever the prices; it is computed
// over every arc and compared with the value. On the tests and the benchmark they
// agree to rounding (1e-14 relative at most): Bound is then reported equal to Value.
// Were they ever further apart than the package's default gap (1e-9 relative), the
// status would be Feasible with the computed bound.
//
// Deterministic: nodes are processed first-in first-out, ties go to the lowest arc,
// and each dimension's result does not depend on the others' scheduling.

// epsLast is the last refine's ε relative to the largest score: small enough that the
// dual bound meets the value to about 1e-12 relative, large enough to stay well
// above the rounding of prices.
const epsLast = 1e-13

// solve solves a flow-shaped Prob (Shaped) exactly: Optimal with Bound =
// Value, or Infeasible with the reason. Iterations counts the bids. If ctx is
// cancelled it returns ctx's error, with no assignment: mid-refine, units are in
// transit and families may be out, so there is nothing feasible to return short of
// finishing (which takes a fraction of a second); on the time limit, solve answers
// with Fallback instead. opts is not used: ctx carries the time limit.
func solve(ctx context.Context, p *solver.Prob, opts solver.Options) (*solver.Solution, error) {
	trees, why := laminarTrees(p)
	if why != "" {
		return nil, fmt.Errorf("match: not a flow problem: %s", why)
	}
	s := &solver.Solution{Status: solver.Optimal, Place: make([]int, p.N)}
	for f := range s.Place {
		s.Place[f] = -1
	}
	byDim := make([][]int32, p.D)
	var bound float64
	for f := range p.N {
		if d := unitDim(p, f); d >= 0 {
			byDim[d] = append(byDim[d], int32(f))
			continue
		}
		// A family that needs nothing takes its best arc, if it gains or must go.
		best := int32(-1)
		for j := p.FamStart[f]; j < p.FamStart[f+1]; j++ {
			if best < 0 || p.ArcScore[j] > p.ArcScore[best] {
				best = j
			}
		}
		switch {
		case best >= 0 && (p.Must[f] || p.ArcScore[best] > 0):
			s.Place[f] = int(p.ArcPlace[best])
			s.Value += p.ArcScore[best]
			bound += p.ArcScore[best]
		case p.Must[f]:
			return &solver.Solution{Status: solver.Infeasible, Reason: fmt.Sprintf("family %d must be placed but has no allowed place", f)}, nil
		}
	}
	// The dimensions are independent problems: solve them side by side. Each result
	// is the same whatever the scheduling, and they are read in dimension order.
	type result struct {
		n   *network
		why string
		err error
	}
	res := make([]result, p.D)
	var wg sync.WaitGroup
	for d := range p.D {
		if len(byDim[d]) > 0 {
			wg.Go(func() {
				res[d].n, res[d].why, res[d].err = solveDim(ctx, p, &trees[d], byDim[d])
			})
		}
	}
	wg.Wait()
	for _, r := range res {
		if r.err != nil {
			return nil, r.err
		}
	}
	for _, r := range res {
		if r.why != "" {
			return &solver.Solution{Status: solver.Infeasible, Reason: r.why}, nil
		}
	}
	for _, r := range res {
		n := r.n
		if n == nil {
			continue
		}
		bound += n.bound(p)
		s.Iterations += n.bids
		for i, a := range n.at {
			if j := n.aArc[a]; j >= 0 {
				s.Place[n.fam[i]] = int(p.ArcPlace[j])
				s.Value += p.ArcScore[j]
			}
		}
	}
	// The bound is computed, not assumed: if rounding (or a bug) left a gap, say so.
	s.Bound = s.Value
	if bound-s.Value > 1e-9*math.Max(1, math.Abs(s.Value)) {
		s.Status, s.Bound = solver.Feasible, bound
	}
	return s, nil
}

// solveDim solves the network of one dimension for its families fams: the flow,
// or the reason why the families that must be placed cannot all be.
func solveDim(ctx context.Context, p *solver.Prob, t *tree, fams []int32) (*network, string, error) {
	// Feasibility first, exactly: the families that must be placed alone, every arc
	// worth 0 and staying out −1. Costs are integers, so a flow ε-optimal with
	// ε < 1/(nodes) is optimal, and a family left out proves the model infeasible.
	var musts []int32
	for _, f := range fams {
		if p.Must[f] {
			if p.FamStart[f] == p.FamStart[f+1] {
				return nil, fmt.Sprintf("family %d must be placed but has no allowed place", f), nil
			}
			musts = append(musts, f)
		}
	}
	if len(musts) > 0 {
		n := newFlowNet(p, t, musts, false, -1, true)
		if err := n.run(ctx, 0.5/float64(len(musts)+int(n.sink)+2)); err != nil {
			return nil, "", err
		}
		for i := range n.fam {
			if n.aArc[n.at[i]] < 0 {
				return nil, n.cutReason(p, int32(i)), nil
			}
		}
	}
	// Then everyone, the families that must be placed having no arc out: the flow
	// is feasible, as just shown, so every refine ends.
	n := newFlowNet(p, t, fams, true, 0, false)
	if err := n.run(ctx, n.scale()*epsLast); err != nil {
		return nil, "", err
	}
	return n, "", nil
}

// Fallback is the answer when the time limit stops the flow before it is done
// (solve has nothing feasible mid-refine): the families placed greedily, those
// that must be placed first, then by best score; with the trivial bound, each family
// at its best arc (or out, when it need not be placed and no arc gains). It returns
// nil when the greedy leaves a family that must be placed out: the caller then
// reports the stop.
func Fallback(p *solver.Prob) *solver.Solution {
	best := make([]float64, p.N)
	bound := 0.0
	for f := range p.N {
		best[f] = math.Inf(-1)
		for a := p.FamStart[f]; a < p.FamStart[f+1]; a++ {
			best[f] = max(best[f], p.ArcScore[a])
		}
		switch {
		case p.Must[f]:
			bound += best[f] // no arc at all was refused by NewProb
		case best[f] > 0:
			bound += best[f]
		}
	}
	s := solver.NewAssignment(p)
	s.Fill(solver.OrderBy(p, best), p.ArcScore)
	if !s.Feasible() {
		return nil
	}
	sol := &solver.Solution{Status: solver.Feasible, Place: s.Places(), Bound: bound}
	for _, a := range s.Arc {
		if a >= 0 {
			sol.Value += p.ArcScore[a]
		}
	}
	return sol
}

// Method is the flow method: exact on flow-shaped problems (Shaped).
type Method struct{}

// Solve solves a flow-shaped p (see solve).
func (Method) Solve(ctx context.Context, p *solver.Prob, opts solver.Options) (*solver.Solution, error) {
	return solve(ctx, p, opts)
}
