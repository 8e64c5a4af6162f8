// Package match is the matching engine (issue 5): which family goes to which place
// (a Member State that pledged relocations, or one of its localities), exactly, fast,
// in pure Go, with every placement explained.
//
// A problem file (Problem, read by ParseProblem) names families, places and scores; it
// compiles to a Model in indices, which is what the solver (Solve) and the exporters
// (WriteLP, WriteMPS) read. The model is a multi-dimensional assignment:
//
//	maximise   Σ score[f,p] · x[f,p]
//	subject to Σ_p x[f,p] ≤ 1                      (= 1 when the family must be placed)
//	           Σ_f need[f,d] · x[f,p] ≤ cap[p,d]     every place p, dimension d
//	           Σ_f need[f,d] · Σ_{p∈G} x[f,p] ≤ cap[G,d]   every group G (a state over its localities)
//	           Σ_f size[f] · Σ_{p∈R} x[f,p] ≥ min[R]       every minimum row R (balance)
//	           x[f,p] ∈ {0,1}, only for the arcs (compatible pairs) listed
package match
