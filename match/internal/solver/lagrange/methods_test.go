package lagrange

import (
	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/bnb"
	"solidarity/match/internal/solver/flow"
)

// testMethods are the methods as package match assembles them (match/model.go),
// for the tests that solve through the dispatch or compare with another method.
func testMethods() *solver.Methods {
	ms := &solver.Methods{Flow: flow.Method{}, Shaped: flow.Shaped, Fallback: flow.Fallback, Large: Method{}}
	ms.Exact = bnb.Method{Methods: ms}
	return ms
}
