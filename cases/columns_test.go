package cases_test

import (
	"slices"
	"testing"

	"solidarity/cases"
)

// TestEventColumns: what each event does besides moving the state, as the case
// service applies it (whose act, which cases, the target, who is responsible after).
func TestEventColumns(t *testing.T) {
	whole := []cases.Event{cases.RelocationCandidate, cases.RelocationCleared, cases.RelocationAllocated, cases.RelocationInfo,
		cases.RelocationComplex, cases.RelocationConfirmation, cases.RelocationRefused, cases.RelocationAbandoned,
		cases.ArrivalNotified, cases.NoShow}
	byRelocation := []cases.Event{cases.RelocationConfirmation, cases.RelocationRefused, cases.RelocationComplex,
		cases.ArrivalNotified, cases.NoShow}
	sent := []cases.Event{cases.TakeChargeRequestSent, cases.TakeBackNotificationSent, cases.HumanitarianRequestSent}
	responsible := map[cases.Event]cases.Responsibility{
		cases.RequestAccepted: cases.RequestedResponsible, cases.TacitAcceptance: cases.RequestedResponsible,
		cases.ReceiptConfirmed: cases.RequestedResponsible, cases.TacitConfirmation: cases.RequestedResponsible,
		cases.CriteriaDesignateSelf: cases.BenefittingResponsible, cases.ResponsibilityAssumed: cases.BenefittingResponsible,
		cases.SecurityThreat: cases.BenefittingResponsible, cases.TakeChargeDeadlinePassed: cases.BenefittingResponsible,
		cases.TransferDeadlinePassed: cases.BenefittingResponsible, cases.ArrivalNotified: cases.RelocationResponsible,
	}
	for _, e := range cases.Events() {
		by := cases.ByBenefitting
		switch {
		case slices.Contains(byRelocation, e):
			by = cases.ByRelocation
		case e == cases.RelocationAllocated:
			by = cases.ByCoordinator
		}
		if got := e.By(); got != by {
			t.Errorf("%s.By() = %d, want %d", e, got, by)
		}
		for _, s := range cases.States() {
			want := slices.Contains(whole, e) ||
				(e == cases.Transferred || e == cases.TransferDecision) && s.Relocation() != cases.NotRelocating && s != cases.SecurityResponsible
			if got := e.MovesFamily(s); got != want {
				t.Errorf("%s.MovesFamily(%s) = %v", e, s, got)
			}
		}
		if got := e.SentToAnotherState(); got != slices.Contains(sent, e) {
			t.Errorf("%s.SentToAnotherState() = %v", e, got)
		}
		if got := e.NeedsAllocation(); got != (e == cases.RelocationInfo) {
			t.Errorf("%s.NeedsAllocation() = %v", e, got)
		}
		if got := e.Responsible(); got != responsible[e] {
			t.Errorf("%s.Responsible() = %d, want %d", e, got, responsible[e])
		}
	}
	if cases.Event("nothing").By() != cases.ByBenefitting || cases.Event("nothing").MovesFamily(cases.RelocatedOut) {
		t.Error("an unknown event does something")
	}
}

// TestAllocation: the coordinator's allocation is legal exactly where a family
// can be allocated (identified or cleared for relocation, not yet sent), and keeps the
// state.
func TestAllocation(t *testing.T) {
	for _, s := range cases.States() {
		r, ok := cases.Lookup(s, cases.RelocationAllocated)
		if want := s == cases.RelocationIdentified || s == cases.RelocationSecurityCleared; ok != want {
			t.Errorf("allocation in %s: %v", s, ok)
		}
		if ok && (r.To != s || r.Article != "Art. 60(2) AMMR; Art. 67 AMMR") {
			t.Errorf("allocation in %s: %+v", s, r)
		}
	}
}
