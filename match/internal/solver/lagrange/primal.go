package lagrange

import "solidarity/match/internal/solver"

// primal is the assignment the method builds and improves: the one assignment type
// of the methods (solver.Assignment), with the local search of this package (moves,
// ejections, chains, repacking) as its methods.
type primal struct{ *solver.Assignment }

func newPrimal(p *solver.Prob) *primal { return &primal{solver.NewAssignment(p)} }

// clone is a copy of e that shares nothing with it.
func (e *primal) clone() *primal { return &primal{e.Clone()} }

// copyFrom makes e a copy of o (of the same problem).
func (e *primal) copyFrom(o *primal) { e.CopyFrom(o.Assignment) }
