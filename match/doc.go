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
//
// This package is the problem side: IDs, validation, explanations and file formats.
// The methods that solve a Model live under internal/solver and never see a
// Problem; Model, Solution and Options are internal/solver's types, named here as
// aliases, and Solve hands a model to the methods it assembles (model.go).
//
// Files:
//
//	problem.go        Problem, Compile (section by section), Index, Result
//	parse.go          ParseProblem and WriteJSON (the file format; schema.json)
//	generate.go       Generate: synthetic EU-scale problems
//	explain.go        Explain, WhyUnplaced, Override, Resolve (after an override)
//	export.go         WriteLP, WriteMPS (for cbc and other solvers)
//	model.go          the model types (aliases), Solve and the methods it uses
//	hias/             the HIAS FY2017 instance as a Model
//	internal/solver   what the methods share: the prepared problem, the one
//	                  assignment type, the dispatch (solver.Method, Methods)
//	  flow/           the network flow method (one-person families, laminar rows)
//	  bnb/            the exact branch-and-bound on the LP (few coupling rows)
//	  lagrange/       the Lagrangian method (EU scale)
//	internal/knapsack the multi-dimensional knapsack program the methods share
//	internal/lbfgs    the projected L-BFGS of the Lagrangian method's dual
package match
