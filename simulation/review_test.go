package simulation_test

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"solidarity"
	"solidarity/simulation"
)

func expected(t *testing.T, s *simulation.Scenario) *simulation.Result {
	t.Helper()
	r, err := simulation.Run(context.Background(), s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func stateOf(r *simulation.Result, c solidarity.MemberState) simulation.StateResult {
	for _, s := range r.States {
		if s.State == c {
			return s
		}
	}
	return simulation.StateResult{}
}

// TestDublinIVPayIsRefusal: under the Dublin IV proposal the EUR 250 000 per
// applicant is what not taking them costs, so "pay" is a refusal (it was the same as
// relocating), and the applicants moved count as relocations (they counted 0).
func TestDublinIVPayIsRefusal(t *testing.T) {
	s := year(t)
	s.Rules = simulation.DublinIV2016
	s.Choices["PL"] = simulation.Choice{Pay: 1, Known: true}
	r := expected(t, s)
	pl := stateOf(r, "PL")
	if pl.CorrectiveIn.Median != 0 || pl.Refusal.Median <= 0 {
		t.Errorf("PL paying under Dublin IV: takes %v, refusal EUR %v; want 0 and a price", pl.CorrectiveIn.Median, pl.Refusal.Median)
	}
	var moved float64
	for _, st := range r.States {
		moved += st.CorrectiveIn.Median
	}
	if moved <= 0 || math.Abs(r.Union.Relocations.Median-moved) > 1e-6*moved {
		t.Errorf("Union relocations %v, applicants moved %v", r.Union.Relocations.Median, moved)
	}
}

// TestCouncil2015OnlyRelocation: the 2015 Decisions know no payment: a state that
// "pays" under them has paid nothing and not relocated, and a note says so (it
// counted as delivered with EUR 0).
func TestCouncil2015OnlyRelocation(t *testing.T) {
	s := year(t)
	s.Rules = simulation.Council2015
	s.Choices["FR"] = simulation.Choice{Pay: 1, Known: true}
	r := expected(t, s)
	fr := stateOf(r, "FR")
	if fr.PlannedPayment != 0 || fr.PlannedRefusal <= 0 || fr.Payment.Median != 0 {
		t.Errorf("FR paying under the 2015 rules: %+v", fr)
	}
	if !slices.ContainsFunc(r.Notes, func(n string) bool { return strings.Contains(n, "know only relocation") }) {
		t.Errorf("no note: %v", r.Notes)
	}
}

// TestParamsBounded: a price, receipt, trigger or proposal out of range is an error
// naming its field (a price of 1e308 made every euro figure infinite).
func TestParamsBounded(t *testing.T) {
	for _, tc := range []struct {
		field string
		set   func(*simulation.RuleParams)
	}{
		{"parameters.price", func(p *simulation.RuleParams) { p.Price = known(1e308, "parameters.price") }},
		{"parameters.price", func(p *simulation.RuleParams) { p.Price = known(-5, "parameters.price") }},
		{"parameters.receipt", func(p *simulation.RuleParams) { p.Receipt = known(math.NaN(), "parameters.receipt") }},
		{"parameters.proposal", func(p *simulation.RuleParams) { p.Proposal = known(-1, "parameters.proposal") }},
	} {
		s := year(t)
		tc.set(&s.Params)
		_, err := simulation.Prepare(s)
		var e *solidarity.Error
		if !errors.As(err, &e) || e.Field != tc.field {
			t.Errorf("%s: %v", tc.field, err)
		}
	}
}

// TestRecognitionBounded: a recognition rate outside [0, 1] is refused (−0.5 raised
// the returns above the entrants).
func TestRecognitionBounded(t *testing.T) {
	s := year(t)
	s.Ops.Recognition["Bangladesh"] = known(-0.5, "operations.recognition.Bangladesh")
	_, err := simulation.Prepare(s)
	var e *solidarity.Error
	if !errors.As(err, &e) || e.Field != "operations.recognition.Bangladesh" {
		t.Errorf("%v", err)
	}
}

// TestDependsSorted: the assumptions are listed in the same order for the same
// scenario, and the engine's own defaults are among them.
func TestDependsSorted(t *testing.T) {
	s := year(t)
	s.Ops.DeliveryRate = simulation.Number{}
	s.Ops.BorderCapacity["EL"] = simulation.Number{Value: 10, Name: "operations.border_capacity.EL"}
	s.Ops.BorderCapacity["ES"] = simulation.Number{Value: 10, Name: "operations.border_capacity.ES"}
	r := expected(t, s)
	fields := make([]string, len(r.DependsOn))
	for i, d := range r.DependsOn {
		fields[i] = d.Field
	}
	if !slices.IsSorted(fields) {
		t.Errorf("not sorted: %v", fields)
	}
	for _, f := range []string{"operations.delivery_rate", "operations.pressure_threshold", "operations.border_capacity.EL"} {
		if !slices.Contains(fields, f) {
			t.Errorf("%s not among the assumptions %v", f, fields)
		}
	}
}
