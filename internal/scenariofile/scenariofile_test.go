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

// TestBenefittingChanged: a file's benefitting states replace its cycle's (Art. 58):
// a state taken out of them has an obligation again (the cycle's status stayed).
func TestBenefittingChanged(t *testing.T) {
	s, err := scenariofile.Parse("b.toml", []byte("base = \"cycle-2026\"\nbenefitting = [\"IT\"]\n"), nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := simulation.Run(context.Background(), s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range r.States {
		if st.State == "EL" && (st.Benefitting || st.Obligation <= 0) {
			t.Errorf("EL no longer benefitting: %+v", st)
		}
		if st.State == "IT" && (!st.Benefitting || st.Obligation != 0) {
			t.Errorf("IT benefitting: %+v", st)
		}
	}
}
