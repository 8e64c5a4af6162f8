package simulation_test

import (
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/refdata"
	"solidarity/key"
	"solidarity/simulation"
)

func known(v float64, name string) simulation.Number {
	return simulation.Number{Value: v, Known: true, Name: name, Fact: solidarity.Fact{Source: "test", Certainty: "V"}}
}

// testKey is the Art. 66 key over states from the shipped data.
func testKey(tb testing.TB, states []solidarity.MemberState) (*key.Key, map[solidarity.MemberState]int64) {
	tb.Helper()
	in, err := key.FromDatasets(states, refdata.DefaultPopulation(), refdata.DefaultGDP())
	if err != nil {
		tb.Fatal(err)
	}
	k, err := key.Reference(in)
	if err != nil {
		tb.Fatal(err)
	}
	pop := map[solidarity.MemberState]int64{}
	for _, s := range k.Shares {
		f, _ := s.Population.Float64()
		pop[s.State] = int64(f)
	}
	return k, pop
}

// year is a synthetic AMMR year: 26 states, 12 months, arrivals in IT, EL, ES and
// DE, everyone relocating unless told otherwise.
func year(tb testing.TB) *simulation.Scenario {
	tb.Helper()
	states := solidarity.PartIV()
	k, pop := testKey(tb, states)
	s := &simulation.Scenario{
		Name: "test-year", Title: "A test year", Illustrative: true,
		Start: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC), Months: 12,
		Rules:         simulation.AMMR2024,
		Params:        simulation.RuleParams{Reference: known(30000, "reference")},
		Participating: states, Benefitting: []solidarity.MemberState{"IT", "EL", "ES", "CY"},
		Key: k, Population: pop,
		DefaultChoice: simulation.Choice{Relocate: 1, Known: true},
		Choices:       map[solidarity.MemberState]simulation.Choice{},
		Ops: simulation.Operations{
			Recognition:         map[string]simulation.Number{"Bangladesh": known(0.03, "operations.recognition.Bangladesh"), "Syria": known(0.9, "operations.recognition.Syria")},
			BorderCapacity:      map[solidarity.MemberState]simulation.Number{"IT": known(1500, "operations.border_capacity.IT")},
			ReturnRate:          known(0.2, "operations.return_rate"),
			DublinTransferRatio: known(0.14, "operations.dublin_transfer_ratio"),
			LeadMonths:          known(2, "operations.lead_months"),
		},
		Uncertainty: simulation.Uncertainty{ArrivalsDispersion: known(20, "uncertainty.arrivals_dispersion"), DeliveryDispersion: known(10, "uncertainty.delivery_dispersion")},
	}
	for t := range 12 {
		for _, a := range []struct {
			st  solidarity.MemberState
			nat string
			n   float64
		}{{"IT", "Bangladesh", 2000}, {"IT", "Syria", 3000}, {"EL", "", 3000}, {"ES", "", 2500}, {"DE", "", 8000}, {"CY", "", 400}} {
			s.Arrivals = append(s.Arrivals, simulation.Arrival{Month: t, State: a.st, Nationality: a.nat, Mean: a.n})
		}
	}
	return s
}
