package simulation_test

import (
	"fmt"
	"math/big"
	"os"
	"strings"
	"testing"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/refdata"
	"solidarity/key"
)

// The 2026 pool as the press reported it (historical-data.md §9.1, flag 2nd): the
// official annex of Council Implementing Decision (EU) 2025/2642 is not at hand, so
// this is a calibration, not an equality test. It prints the residual per state for
// each data vintage solidarity ships and checks only what must hold whatever the
// vintage: every residual is small, and the vintage ranking the README states.
var press2026 = []struct {
	state solidarity.MemberState
	share int64
}{{"DE", 4555}, {"FR", 3361}, {"RO", 661}, {"BG", 214}, {"PT", 422}, {"CY", 43}}

const press2026Total = 21009

// vintages are the data the project holds for the 2026 key: the two population
// releases with the one complete GDP vintage, and the official GDP figures where
// found (gdp-2024-official-partial) completed by the IMF vintage elsewhere.
func vintages(t *testing.T) []struct {
	name     string
	pop, gdp *solidarity.Dataset
} {
	pop7, _ := refdata.Lookup(refdata.PopulationJuly)
	mixed := refdata.DefaultGDP()
	partial, _ := refdata.Lookup(refdata.GDPPartial)
	for i, o := range mixed.Rows {
		if p, ok := partial.Get(o.State); ok && p.Value != nil && o.State != "EL" { // EL: probably constant prices (data README)
			mixed.Rows[i].Value = new(big.Rat).Set(p.Value)
		}
	}
	return []struct {
		name     string
		pop, gdp *solidarity.Dataset
	}{
		{refdata.PopulationDefault + " + " + refdata.GDPDefault, refdata.DefaultPopulation(), refdata.DefaultGDP()},
		{refdata.PopulationJuly + " + " + refdata.GDPDefault, pop7, refdata.DefaultGDP()},
		{refdata.PopulationJuly + " + official GDP where found, else " + refdata.GDPDefault, pop7, mixed},
	}
}

func TestCalibration2026(t *testing.T) {
	best, bestName := int64(-1), ""
	for _, v := range vintages(t) {
		in, err := key.FromDatasets(solidarity.PartIV(), v.pop, v.gdp)
		if err != nil {
			t.Fatal(err)
		}
		k, err := key.Reference(in)
		if err != nil {
			t.Fatal(err)
		}
		fair, err := apportion.Apportion(apportion.RoundUp, 21000, k.Weights())
		if err != nil {
			t.Fatal(err)
		}
		got := map[solidarity.MemberState]int64{}
		var total int64
		for i, s := range k.Shares {
			got[s.State] = fair[i]
			total += fair[i]
		}
		var b strings.Builder
		var sumAbs int64
		for _, p := range press2026 {
			d := got[p.state] - p.share
			sumAbs += abs(d)
			fmt.Fprintf(&b, " %s %d (%+d)", p.state, got[p.state], d)
			if abs(d) > 25 {
				t.Errorf("%s: %s %d against the reported %d: a residual of %d is not a vintage difference", v.name, p.state, got[p.state], p.share, d)
			}
		}
		fmt.Fprintf(&b, " total %d (%+d)", total, total-press2026Total)
		sumAbs += abs(total - press2026Total)
		t.Logf("%s:%s; Σ|residual| %d", v.name, b.String(), sumAbs)
		if best < 0 || sumAbs < best {
			best, bestName = sumAbs, v.name
		}
	}
	t.Logf("closest to the published figures: %s (Σ|residual| %d)", bestName, best)
	// The README names the vintage that reproduces the published figures best; when
	// the data change, so must the README.
	if readme, err := os.ReadFile("../README.md"); err == nil && !strings.Contains(string(readme), fmt.Sprintf("Σ|residual| %d", best)) {
		t.Errorf("the README does not give the best vintage's Σ|residual| %d (%s)", best, bestName)
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
