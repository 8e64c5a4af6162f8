package simulation_test

import (
	"context"
	"math"
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

// TestOffsetsDelivered: a state that offsets its whole obligation (Art. 63) has it
// delivered as offsets, at the Dublin transfer ratio when that is asked. (The offsets
// of a state relocating no one were skipped.)
func TestOffsetsDelivered(t *testing.T) {
	for _, atRatio := range []bool{false, true} {
		s := year(t)
		s.Choices["DE"] = simulation.Choice{Offset: 1, Known: true}
		s.Ops.OffsetsAtTransferRatio = atRatio
		r, err := simulation.Run(context.Background(), s, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		want := 1.0
		if atRatio {
			want = 0.14
		}
		for _, st := range r.States {
			if st.State != "DE" {
				continue
			}
			if got := st.OffsetsIn.Median; math.Abs(got-want*st.Obligation) > 1e-6*st.Obligation+1e-9 || st.Obligation == 0 {
				t.Errorf("at ratio %v: DE offsets %v of obligation %v, want %v", atRatio, got, st.Obligation, want*st.Obligation)
			}
		}
		if math.Abs(r.Union.Offsets.Median-want*r.States[4].Obligation) > 1 && r.States[4].State == "DE" {
			t.Errorf("Union offsets %v", r.Union.Offsets.Median)
		}
	}
}
