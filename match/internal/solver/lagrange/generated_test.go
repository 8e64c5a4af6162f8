package lagrange_test

import (
	"testing"

	"solidarity/match"
	"solidarity/match/internal/solver"
	"solidarity/match/internal/solver/lagrange"
)

// The tests of the Lagrangian method's parts run on match.Generate's models, which
// package solver cannot import (match imports it); the checks themselves are in
// package solver's own test files.

func generate(t *testing.T, seed uint64, cfg match.GenConfig) *solver.Model {
	t.Helper()
	m, _, err := match.Generate(seed, cfg).Compile()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRepackSound(t *testing.T) {
	lagrange.CheckRepackSound(t, generate(t, 3, match.GenConfig{Families: 2000, Localities: 20, Groups: true}))
}

func TestDiveSound(t *testing.T) {
	lagrange.CheckDiveSound(t, generate(t, 4, match.GenConfig{Families: 2000, Localities: 20}))
}

func TestPlaceMust(t *testing.T) {
	lagrange.CheckPlaceMust(t, generate(t, 5, match.GenConfig{Families: 2000, Localities: 20}))
}

func TestKnapsackBoundSound(t *testing.T) {
	var models []*solver.Model
	for _, seed := range []uint64{1, 2, 3} {
		models = append(models, generate(t, seed, match.GenConfig{Families: 240, Localities: 6, StatesPerFamily: 3, LocalitiesPerState: 3}))
	}
	lagrange.CheckKnapsackBoundSound(t, models)
}
