package state_test

import (
	"slices"
	"testing"

	"solidarity/cases/state"
)

// TestRelocation: the relocation column names exactly the relocation steps before the
// transfer (Relocating) and the three states after it (Relocated).
func TestRelocation(t *testing.T) {
	relocating := []state.State{state.RelocationIdentified, state.RelocationSecurityCleared, state.RelocationInfoSent,
		state.RelocationConfirmed, state.RelocationTransferDecided, state.RelocationAppeal, state.RelocationAppealSuspended}
	relocated := []state.State{state.RelocatedOut, state.RelocationArrived, state.RelocationNoShow}
	if got := state.Relocating.States(); !slices.Equal(got, relocating) {
		t.Errorf("Relocating.States() = %v", got)
	}
	if got := state.Relocated.States(); !slices.Equal(got, relocated) {
		t.Errorf("Relocated.States() = %v", got)
	}
	for _, s := range state.States() {
		want := state.NotRelocating
		switch {
		case slices.Contains(relocating, s):
			want = state.Relocating
		case slices.Contains(relocated, s):
			want = state.Relocated
		case s == state.SecurityResponsible:
			want = state.Excluded
		}
		if got := s.Relocation(); got != want {
			t.Errorf("%s.Relocation() = %d, want %d", s, got, want)
		}
	}
	if got := state.Excluded.States(); !slices.Equal(got, []state.State{state.SecurityResponsible}) {
		t.Errorf("Excluded.States() = %v", got)
	}
	for r, want := range map[state.Relocation]bool{state.NotRelocating: false, state.Relocating: true, state.Relocated: true, state.Excluded: false} {
		if r.InRelocation() != want {
			t.Errorf("%d.InRelocation() = %v", r, !want)
		}
	}
	if got := state.State("NOWHERE").Relocation(); got != state.NotRelocating || state.State("NOWHERE").Valid() {
		t.Errorf("unknown state: relocation %d", got)
	}
}
