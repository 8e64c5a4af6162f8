package casesvc

import (
	"context"
	"math"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
)

// TestHindsight: the hindsight optimum of the families allocated is at least what
// their placements score, and the ratio says by how much they fall short.
func TestHindsight(t *testing.T) {
	fam := func(id string, from, to solidarity.MemberState, minor bool, prefs ...solidarity.MemberState) *allocatedFamily {
		return &allocatedFamily{candidate: candidate{family: solidarity.FamilyID(id), benefitting: from,
			cases:   []*solidarity.CaseRecord{{ID: solidarity.CaseID("C-" + id)}},
			persons: []*arrival.Person{{Preferences: prefs, UnaccompaniedMinor: minor}}}, state: to}
	}
	for _, tc := range []struct {
		name                string
		alloc               []*allocatedFamily
		online, value, want float64 // want: the ratio in percent
	}{
		{"nothing allocated", nil, 0, 0, 0},
		{"the optimum", []*allocatedFamily{fam("A", "IT", "FR", false, "DE", "FR"), fam("B", "IT", "DE", false, "DE")}, 1.5, 1.5, 100},
		// A took B's only wish: A in FR (0.5) and B in DE (1) would have scored 1.5.
		{"a swap lost", []*allocatedFamily{fam("A", "IT", "DE", false, "DE", "FR"), fam("B", "IT", "FR", false, "DE")}, 1, 1.5, 100.0 / 1.5},
		// A family with a minor keeps its state: nothing to swap.
		{"a minor's family stays", []*allocatedFamily{fam("A", "IT", "DE", true, "DE", "FR"), fam("B", "IT", "FR", false, "DE")}, 1, 1, 100},
		{"no score anywhere", []*allocatedFamily{fam("A", "IT", "DE", false)}, 0, 0, 100},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, err := hindsight(context.Background(), tc.alloc, DefaultMatchWeights)
			if err != nil {
				t.Fatal(err)
			}
			if h.Families != len(tc.alloc) || math.Abs(h.Online-tc.online) > 1e-9 || math.Abs(h.Value-tc.value) > 1e-9 || math.Abs(h.RatioPercent-tc.want) > 1e-9 {
				t.Fatalf("hindsight %+v, want online %v, value %v, ratio %v", h, tc.online, tc.value, tc.want)
			}
			if h.Online > h.Value || h.RatioPercent > 100 {
				t.Errorf("above the hindsight optimum: %+v", h)
			}
		})
	}
}

// TestExpectedFuture: the families allocated per week elapsed, times the weeks left.
func TestExpectedFuture(t *testing.T) {
	day := func(m time.Month, d int) time.Time { return time.Date(2026, m, d, 12, 0, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name      string
		allocated int
		year      int
		now       time.Time
		want      int
	}{
		{"nothing allocated", 0, 2026, day(3, 2), 0},
		{"week 9, 43 left", 2, 2026, day(3, 2), 10},
		{"first week", 1, 2026, day(1, 1), 51},
		{"last days", 50, 2026, day(12, 31), 0},
		{"a past year", 40, 2025, day(3, 2), 0},
		{"a demonstration runs on the calendar", 2, solidarity.DemoCycleBase, day(3, 2), 10},
	} {
		if got := expectedFuture(tc.allocated, tc.year, tc.now); got != tc.want {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.want)
		}
	}
}
