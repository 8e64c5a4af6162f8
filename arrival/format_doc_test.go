package arrival_test

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"solidarity/arrival"
)

// TestFormatBounds: what FORMAT.md says of the times and the free text is what
// TimeProblem and TextProblem do.
func TestFormatBounds(t *testing.T) {
	b, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(b)), " ") // lines rewrapped as one
	for _, want := range []string{
		arrival.MinTime.Format("2 January 2006"),
		fmt.Sprintf("at most %d minutes after", int(arrival.MaxClockSkew/time.Minute)),
		"`" + arrival.TextProblem("Lia \u202Eelpmas") + "`",
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("FORMAT.md does not say %q", want)
		}
	}
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		at time.Time
		ok bool
	}{
		{time.Time{}, false},
		{arrival.MinTime.Add(-time.Second), false},
		{arrival.MinTime, true},
		{now.Add(arrival.MaxClockSkew), true},
		{now.Add(arrival.MaxClockSkew + time.Second), false},
	} {
		if got := arrival.TimeProblem(c.at, now) == ""; got != c.ok {
			t.Errorf("TimeProblem(%v): ok %v, want %v", c.at, got, c.ok)
		}
	}
	for _, s := range []string{"Zoë Sample", "Mohammad\u200cReza", "سارا"} {
		if !arrival.ValidText(s) {
			t.Errorf("%q refused", s)
		}
	}
	for _, r := range []rune{'\n', '\u2028', '\u200E', '\u061C', '\u2066', '\u200B', '\uFEFF', '\uE000', '\uFDD0'} {
		if arrival.ValidText("A" + string(r) + "B") {
			t.Errorf("U+%04X accepted", r)
		}
	}
}
