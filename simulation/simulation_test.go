package simulation_test

import (
	"context"
	"testing"

	"solidarity/simulation"
)

func TestYearRuns(t *testing.T) {
	s := year(t)
	r, err := simulation.Run(context.Background(), s, 200, 7)
	if err != nil {
		t.Fatal(err)
	}
	u := r.Union
	t.Logf("need %v pledged %v delivered %v coverage %v relocations %v returns %v gini %v→%v", u.Need, u.Pledged, u.Delivered, u.Coverage, u.Relocations, u.Returns, u.GiniBefore, u.GiniAfter)
	for _, st := range r.States[:5] {
		t.Logf("%s fair %d oblig %.1f reloc %v resp %v dev %v", st.State, st.FairShare, st.Obligation, st.Relocated, st.Responsibility, st.Deviation)
	}
	t.Logf("coverage by month %v", r.Coverage)
	t.Logf("depends %v notes %v", r.DependsOn, r.Notes)
	for _, c := range r.Costs {
		t.Logf("%s %s %d", c.Rules, c.Error, len(c.States))
	}
}

// TestReplayTotalWithoutSplit: a state's total published at one date only, with no
// split by state of relocation anywhere, is split in equal parts (the fuzzer found
// the panic this was).
func TestReplayTotalWithoutSplit(t *testing.T) {
	s := year(t)
	s.Observed = []simulation.Observation{{Date: s.Start.AddDate(0, 5, 0), State: "FR", Value: 3}}
	r, err := simulation.Run(context.Background(), s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range r.Replay.Checkpoints {
		if c.State == "FR" && c.From == "" && c.Value != 3 {
			t.Errorf("FR total %d, want 3", c.Value)
		}
	}
}
