package casesvc_test

import (
	"encoding/json"
	"testing"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/casesvc"
)

// flowRecord is a case record whose flow went through states, on track, decided
// when decided is set.
func flowRecord(t *testing.T, track cases.Track, decided bool, states ...cases.State) *solidarity.CaseRecord {
	t.Helper()
	var c cases.Case
	from := cases.New
	at := time.Date(2026, 8, 20, 10, 0, 0, 0, time.UTC)
	for i, s := range states {
		c.History = append(c.History, cases.Transition{From: from, To: s, At: at.Add(time.Duration(i) * time.Hour)})
		from = s
	}
	c.State, c.Track = from, track
	if decided {
		c.Decided = at
	}
	b, err := json.Marshal(casesvc.Flow{Case: c})
	if err != nil {
		t.Fatal(err)
	}
	return &solidarity.CaseRecord{ID: "C-1", State: c.State, Flow: b}
}

// TestFunnel: each case counts at every stage it reached, read from its history and
// its flow's columns, not its current state alone (a case transferred and then
// closed still counts as a transfer; a case back in screening counts as not yet
// screened).
func TestFunnel(t *testing.T) {
	recs := []*solidarity.CaseRecord{
		flowRecord(t, "", false, cases.ArrivedSAR),
		flowRecord(t, "", false, cases.ArrivedSAR, cases.Screening),
		flowRecord(t, cases.Regular, false, cases.ArrivedSAR, cases.Screening, cases.Registered, cases.RelocationIdentified),
		flowRecord(t, cases.Border, true, cases.ArrivedSAR, cases.Screening, cases.Registered, cases.BorderProcedure, cases.BorderRejected,
			cases.ReturnBorderProcedure),
		flowRecord(t, cases.Regular, false, cases.ArrivedSAR, cases.Screening, cases.Registered, cases.Determination, cases.TransferAgreed,
			cases.TransferredOut),
		flowRecord(t, "", false, cases.ArrivedSAR, cases.Screening, cases.ReferredReturn),
	}
	stages, err := casesvc.Funnel(recs)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"registered": 6, "screened": 4, "border": 1, "regular": 2, "relocation": 1, "transfer": 1, "return": 2, "decided": 1}
	if len(stages) != len(want) {
		t.Fatalf("%d stages, want %d", len(stages), len(want))
	}
	for _, s := range stages {
		if s.N != want[s.Key] {
			t.Errorf("stage %s: %d cases, want %d", s.Key, s.N, want[s.Key])
		}
		if s.Label == "" || (s.Key != "registered" && s.Parent == "") {
			t.Errorf("stage %+v: no label or parent", s)
		}
	}
	if _, err := casesvc.Funnel([]*solidarity.CaseRecord{{ID: "C-2", Flow: json.RawMessage(`{`)}}); solidarity.ErrorCode(err) != solidarity.EINTERNAL {
		t.Errorf("a flow that does not decode: %v, want EINTERNAL", err)
	}
}
