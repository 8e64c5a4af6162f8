package bnb

import (
	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/flow"
	"solidarity/match/internal/solver/lagrange"
)

// testMethods are the methods as package match assembles them (match/model.go),
// for the tests that solve through the dispatch or compare with another method.
func testMethods() *solver.Methods {
	ms := &solver.Methods{Flow: flow.Method{}, Shaped: flow.Shaped, Fallback: flow.Fallback, Large: lagrange.Method{}}
	ms.Exact = Method{Methods: ms}
	return ms
}
