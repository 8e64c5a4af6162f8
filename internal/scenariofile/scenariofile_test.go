package scenariofile_test

import (
	"context"
	"testing"

	"solidarity/internal/scenariofile"
	"solidarity/simulation"
)

// TestShippedScenarios parses every shipped scenario and runs it: a shipped file that
// does not parse would silently drop out of Shipped().
func TestShippedScenarios(t *testing.T) {
	want := []string{"ammr-on-2015-flows", "cycle-2026", "disembarkations-2018", "replay-2015"}
	got := scenariofile.Shipped()
	if len(got) != len(want) {
		for _, name := range want {
			if _, _, err := scenariofile.Open(name); err != nil {
				t.Error(err)
			}
		}
		t.Fatalf("shipped %v, want %v", got, want)
	}
	for i, info := range got {
		if info.Name != want[i] {
			t.Errorf("shipped[%d] = %s, want %s", i, info.Name, want[i])
		}
		s, _, err := scenariofile.Open(info.Name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := simulation.Run(context.Background(), s, 20, 1)
		if err != nil {
			t.Fatalf("%s: %v", info.Name, err)
		}
		t.Logf("%s: %d states, need %.0f pledged %.0f delivered %.0f coverage %.3f; depends %d", info.Name, len(r.States), r.Union.Need.Median, r.Union.Pledged.Median, r.Union.Delivered.Median, r.Union.Coverage.Median, len(r.DependsOn))
	}
}
