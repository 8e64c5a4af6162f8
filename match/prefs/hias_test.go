package prefs_test

import (
	"context"
	"os"
	"reflect"
	"testing"

	"solidarity/match"
	"solidarity/match/hias"
	"solidarity/match/prefs"
)

const dataDir = "../hias/testdata/fy2017"

func hiasModel(tb testing.TB, which string) *match.Model {
	tb.Helper()
	if _, err := os.Stat(dataDir); err != nil {
		tb.Skipf("HIAS data not found at %s: %v", dataDir, err)
	}
	d, err := hias.Read(dataDir)
	if err != nil {
		tb.Fatal(err)
	}
	m, err := d.Model(which)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

func TestDrawDeterministic(t *testing.T) {
	m := hiasModel(t, "A")
	a, b := prefs.Draw(m, 7, prefs.ScoreNoise), prefs.Draw(m, 7, prefs.ScoreNoise)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("one seed, two profiles")
	}
	if reflect.DeepEqual(a.Family, prefs.Draw(m, 8, prefs.ScoreNoise).Family) {
		t.Fatal("seeds 7 and 8 give the same rankings")
	}
	if err := a.Validate(m); err != nil {
		t.Fatal(err)
	}
	for i, f := range m.Families {
		if len(a.Family[i]) != len(f.Arcs) {
			t.Fatalf("family %d ranks %d of its %d places", i, len(a.Family[i]), len(f.Arcs))
		}
	}
	// Common preferences: every family ranks its places in one order.
	c := prefs.Draw(m, 7, prefs.Common)
	pos := map[int]int{}
	for k, j := range c.Family[0] {
		pos[j] = k
	}
	for i := range m.Families {
		for k := 1; k < len(c.Family[i]); k++ {
			x, okx := pos[c.Family[i][k-1]]
			y, oky := pos[c.Family[i][k]]
			if okx && oky && x > y {
				t.Fatalf("family %d orders %v unlike family 0 (%v)", i, c.Family[i], c.Family[0])
			}
		}
	}
}

func TestHIASRun(t *testing.T) {
	for _, which := range []string{"A", "B"} {
		m := hiasModel(t, which)
		s, err := prefs.Run(context.Background(), m, prefs.Config{Mechanisms: prefs.Mechanisms, Draws: 3, Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		mttc, tmda, opt := s.Results[0].Mean, s.Results[1].Mean, s.Results[2].Mean
		if tmda.StrongEnvy != 0 {
			t.Errorf("%s: TMDA leaves %.1f strong envy pairs", which, tmda.StrongEnvy)
		}
		// The score-optimal placement ignores the preferences: worse ranks, more score.
		if opt.Score < mttc.Score || opt.Score < tmda.Score || opt.AverageRank <= mttc.AverageRank {
			t.Errorf("%s: optimal score %.2f rank %.2f; MTTC %.2f %.2f; TMDA %.2f %.2f", which,
				opt.Score, opt.AverageRank, mttc.Score, mttc.AverageRank, tmda.Score, tmda.AverageRank)
		}
	}
}

// BenchmarkHIAS100Draws runs both mechanisms on 100 preference draws of HIAS
// FY2017 model A and measures them (the score-optimal solve included, once).
func BenchmarkHIAS100Draws(b *testing.B) {
	for _, which := range []string{"A", "B"} {
		m := hiasModel(b, which)
		b.Run(which, func(b *testing.B) {
			for b.Loop() {
				if _, err := prefs.Run(context.Background(), m, prefs.Config{Mechanisms: prefs.Mechanisms, Draws: 100, Seed: 1}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
