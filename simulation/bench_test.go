package simulation_test

import (
	"context"
	"testing"

	"solidarity/simulation"
)

// BenchmarkPrepare: the fixed parts of a year (27 states): the pool with exact
// arithmetic, the plans, the border shares.
func BenchmarkPrepare(b *testing.B) {
	s := year(b)
	for b.Loop() {
		if _, err := simulation.Prepare(s); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkYear: one seeded scenario year, 26 states × 12 months, with its summary
// (bands, frontier, the cost under each of the four rule sets); the fixed parts are
// prepared once.
func BenchmarkYear(b *testing.B) {
	m, err := simulation.Prepare(year(b))
	if err != nil {
		b.Fatal(err)
	}
	var seed uint64
	for b.Loop() {
		seed++
		if _, err := m.Result(context.Background(), 1, seed); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuns10000: 10 000 seeded runs of the year on every core, with bands.
func BenchmarkRuns10000(b *testing.B) {
	m, err := simulation.Prepare(year(b))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := m.Result(context.Background(), 10_000, 1); err != nil {
			b.Fatal(err)
		}
	}
}
