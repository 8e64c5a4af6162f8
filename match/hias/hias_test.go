package hias_test

import (
	"context"
	"math"
	"os"
	"testing"
	"time"

	"solidarity/match"
	"solidarity/match/hias"
)

// dataDir is a copy of the shared benchmark instance (hias-fy2017, files unchanged;
// provenance in its README.md), so that the suite runs it on any clone.
const dataDir = "testdata/fy2017"

var reference = map[string]float64{"A": 180.76267073, "B": 208.99807910}

func mustRead(tb testing.TB) *hias.Data {
	tb.Helper()
	if _, err := os.Stat(dataDir); err != nil {
		tb.Skipf("HIAS data not found at %s: %v", dataDir, err)
	}
	d, err := hias.Read(dataDir)
	if err != nil {
		tb.Fatal(err)
	}
	return d
}

func TestRead(t *testing.T) {
	d := mustRead(t)
	if len(d.Cases) != 329 || len(d.Affiliates) != 21 {
		t.Fatalf("%d cases, %d affiliates; want 329, 21", len(d.Cases), len(d.Affiliates))
	}
	m, err := d.Model("A")
	if err != nil {
		t.Fatal(err)
	}
	arcs := 0
	for _, f := range m.Families {
		arcs += len(f.Arcs)
	}
	if arcs != 4176 {
		t.Errorf("%d assignable pairs, want 4176", arcs)
	}
	if d.CaseID(0) != "262" || d.AffiliateName(12) != "NY-HIAS New York" {
		t.Errorf("names: case 0 %q, affiliate 12 %q", d.CaseID(0), d.AffiliateName(12))
	}
}

// TestOptimal solves both models to a proof, as issue 5 asks: the reference optimum
// reached and a bound within 1e-6 of it (relative, the README's definition of
// proven). The two models run in parallel; MATCH_HIAS_LIMIT (a duration, default
// 10m) is a safety limit after which the test fails rather than hangs.
func TestOptimal(t *testing.T) {
	d := mustRead(t)
	limit := 10 * time.Minute
	if v := os.Getenv("MATCH_HIAS_LIMIT"); v != "" {
		l, err := time.ParseDuration(v)
		if err != nil {
			t.Fatalf("MATCH_HIAS_LIMIT: %v", err)
		}
		limit = l
	}
	for _, which := range []string{"A", "B"} {
		t.Run(which, func(t *testing.T) {
			t.Parallel()
			m, err := d.Model(which)
			if err != nil {
				t.Fatal(err)
			}
			s, err := match.Solve(context.Background(), m, match.Options{TimeLimit: limit, Gap: 1e-6})
			if err != nil {
				t.Fatal(err)
			}
			want := reference[which]
			t.Logf("model %s: %s value %.8f bound %.8f (reference %.8f) nodes %d iterations %d in %v",
				which, s.Status, s.Value, s.Bound, want, s.Nodes, s.Iterations, s.Elapsed)
			if s.Value > want+1e-6 || s.Bound < want-1e-6 {
				t.Errorf("value %.8f and bound %.8f must bracket the optimum %.8f", s.Value, s.Bound, want)
			}
			if math.Abs(s.Value-want) > 1e-6 {
				t.Errorf("value %.8f, want %.8f", s.Value, want)
			}
			if s.Status != match.Optimal || (s.Bound-s.Value)/s.Value > 1e-6 {
				t.Errorf("%s: bound %.10f not within 1e-6 of value %.10f", s.Status, s.Bound, s.Value)
			}
			if v, err := m.Value(s.Place); err != nil || math.Abs(v-s.Value) > 1e-9 {
				t.Errorf("Value(Place) = %v, %v; solution says %v", v, err, s.Value)
			}
		})
	}
}

// BenchmarkHIAS times the solve to a proof (bound within 1e-6 of the value, the
// README's definition), with a 10-minute safety limit: its gap metric says whether
// the proof was reached.
func BenchmarkHIAS(b *testing.B) {
	d := mustRead(b)
	for _, which := range []string{"A", "B"} {
		m, err := d.Model(which)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(which, func(b *testing.B) {
			var s *match.Solution
			for b.Loop() {
				s, err = match.Solve(context.Background(), m, match.Options{TimeLimit: 10 * time.Minute, Gap: 1e-6})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(s.Nodes), "nodes")
			b.ReportMetric(s.Gap(), "gap")
		})
	}
}
