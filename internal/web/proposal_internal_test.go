package web

import (
	"strings"
	"testing"

	"solidarity/internal/i18n"
	"solidarity/match"
)

// infeasibleNextBest is an explanation whose next-best place the family alone
// overfills: the rows say why, by the place's ID and the dimension's name.
func infeasibleNextBest() *match.Explanation {
	return &match.Explanation{Family: "F-17", Persons: 3, Placed: true, Place: "FR", State: "FR", Score: 1.25,
		Components: match.Components{Links: 0.5, Preference: 0.75}, Weights: match.Weights{Links: 1, Preference: 1, Integration: 1},
		Binding: []match.Binding{{Kind: "place", ID: "FR", Dimension: "persons", Placed: 4, Capacity: 4, Need: 3, Tight: true}},
		NextBest: &match.Alternative{Place: "DE", State: "DE", Score: 0.5, Exact: true,
			Rows:   []match.Binding{{Kind: "place", ID: "DE", Dimension: "persons", Capacity: 0, Need: 3, Tight: true}},
			Reason: "the place has no room for the family"}}
}

// TestExplanationView: the page's explanation names the family, its place and the
// next-best place's rows by ID and dimension name; the binding row and the next-best
// line are there; a one-person family is "1 person".
func TestExplanationView(t *testing.T) {
	v := newExplanationView(i18n.New("en"), infeasibleNextBest())
	text := strings.Join(v.Sentences, " ")
	for _, want := range []string{"Family F-17 (3 persons) is placed in FR with score 1.25", "The next-best place is DE (score 0.5",
		"choosing it is infeasible", "the capacity of DE in persons is full: 0 of 0 used, the family needs 3"} {
		if !strings.Contains(strings.ToLower(text), strings.ToLower(want)) {
			t.Errorf("explanation %q lacks %q", text, want)
		}
	}
	if len(v.Binding) != 1 || !strings.Contains(v.Binding[0], "the capacity of FR in persons is full: 4 of 4 used") {
		t.Errorf("binding %q", v.Binding)
	}
	if v.Anchor != "family-F-17" || v.NextBestText == "" {
		t.Errorf("anchor %q, next best %q", v.Anchor, v.NextBestText)
	}
	e := infeasibleNextBest()
	e.Persons, e.NextBest = 1, nil
	if text := strings.Join(newExplanationView(i18n.New("en"), e).Sentences, " "); !strings.Contains(text, "(1 person)") ||
		!strings.Contains(text, "There is no other compatible place.") {
		t.Errorf("one person, no alternative: %q", text)
	}
}

// TestExplanationViewGerman: in German the scores have a decimal comma.
func TestExplanationViewGerman(t *testing.T) {
	v := newExplanationView(i18n.New("de"), infeasibleNextBest())
	if text := strings.Join(v.Sentences, " "); !strings.Contains(text, "1,25") || strings.Contains(text, "1.25") || !strings.Contains(text, "0,5") {
		t.Errorf("German explanation %q: want 1,25 and 0,5", text)
	}
}

// TestWhyText: every reason code the engine and the service give reads as its own
// sentence, not the engine's English fallback.
func TestWhyText(t *testing.T) {
	l := i18n.New("en")
	seen := map[string]bool{}
	for _, code := range []string{match.WhyNoSolution, match.WhyNoPlace, match.WhyAllFull, match.WhyNoGain, match.WhyStopped, "minor"} {
		got := whyText(l, code, "FALLBACK")
		if got == "FALLBACK" || seen[got] {
			t.Errorf("code %q: %q", code, got)
		}
		seen[got] = true
	}
	if got := whyText(l, "", "engine text"); got != "engine text" {
		t.Errorf("no code: %q", got)
	}
}

// TestProposalRequestForbids: the forbid checkboxes (family:state) become the
// request's forbids, once each; a value without a state, with an unknown state, or
// too many values are refused on the field.
func TestProposalRequestForbids(t *testing.T) {
	req, err := proposalRequest(map[string][]string{"forbid": {"F-1:FR", "F-1:DE", "F-1:FR", "F-2:IT"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := req.Forbids["F-1"]; len(got) != 2 || got[0] != "FR" || got[1] != "DE" || len(req.Forbids["F-2"]) != 1 {
		t.Errorf("forbids %v", req.Forbids)
	}
	many := make([]string, maxForbidValues+1)
	for i := range many {
		many[i] = "F-1:FR"
	}
	for _, bad := range [][]string{{"F-1"}, {"F-1:XX"}, {":FR"}, many} {
		if _, err := proposalRequest(map[string][]string{"forbid": bad}); err == nil || !strings.Contains(err.Error(), "forbid") {
			t.Errorf("forbid %.40v: %v, want an error on the field", bad, err)
		}
	}
}
