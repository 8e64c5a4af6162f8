package cases_test

import (
	"testing"
	"time"

	"solidarity/cases"
)

// t0 is 24 August 2026, 10:20 in Rome: dates in tests are offsets from it.
var rome = func() *time.Location {
	l, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		return time.FixedZone("CEST", 2*3600)
	}
	return l
}()

var t0 = time.Date(2026, time.August, 24, 10, 20, 0, 0, rome)

// step is an event at a number of hours after t0.
type step struct {
	ev cases.Event
	h  int
}

// mustWalk applies the steps to a new case and fails the test on any refusal.
func mustWalk(tb testing.TB, steps ...step) cases.Case {
	tb.Helper()
	var c cases.Case
	for i, s := range steps {
		var err error
		c, _, err = cases.Apply(c, s.ev, t0.Add(time.Duration(s.h)*time.Hour))
		if err != nil {
			tb.Fatalf("step %d (%s in %s): %v", i, s.ev, c.State, err)
		}
	}
	return c
}

// path returns steps with the events one hour apart.
func path(evs ...cases.Event) []step {
	out := make([]step, len(evs))
	for i, e := range evs {
		out[i] = step{e, i}
	}
	return out
}
