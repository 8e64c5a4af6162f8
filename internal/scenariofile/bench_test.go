package scenariofile_test

import (
	"context"
	"testing"

	"solidarity/internal/scenariofile"
	"solidarity/simulation"
)

// BenchmarkParseCycle2026: reading the shipped 2026 scenario (its cycle file, 200
// arrival rows, the key) and preparing it.
func BenchmarkParseCycle2026(b *testing.B) {
	src, err := scenariofile.ShippedSource("cycle-2026")
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := scenariofile.Parse("cycle-2026.toml", src, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCycle2026Runs1000: the What-if page's work for one side: 1 000 runs of
// the shipped 2026 scenario.
func BenchmarkCycle2026Runs1000(b *testing.B) {
	s, _, err := scenariofile.Open("cycle-2026")
	if err != nil {
		b.Fatal(err)
	}
	m, err := simulation.Prepare(s)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := m.Result(context.Background(), 1000, 1); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReplay2015: the replay of the 2015 scheme, from its file to its result.
func BenchmarkReplay2015(b *testing.B) {
	for b.Loop() {
		s, _, err := scenariofile.Open("replay-2015")
		if err != nil {
			b.Fatal(err)
		}
		if _, err := simulation.Run(context.Background(), s, 0, 1); err != nil {
			b.Fatal(err)
		}
	}
}
