package flow

import (
	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/bnb"
	"solidarity/match/internal/solver/lagrange"
)

// testMethods are the methods as package match assembles them (match/model.go),
// for the tests that solve through the dispatch or compare with another method.
func testMethods() *solver.Methods {
	ms := &solver.Methods{Flow: Method{}, Shaped: Shaped, Fallback: Fallback, Large: lagrange.Method{}}
	ms.Exact = bnb.Method{Methods: ms}
	return ms
}
