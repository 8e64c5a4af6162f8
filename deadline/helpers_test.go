package deadline_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity/cases"
	"solidarity/deadline"
)

var rome = func() *time.Location {
	l, err := time.LoadLocation("Europe/Rome")
	if err != nil {
		return time.FixedZone("CET", 3600)
	}
	return l
}()

// at parses "2006-01-02" (10:20 that day) or "2006-01-02 15:04" in Rome.
func at(s string) time.Time {
	layout := "2006-01-02 15:04"
	if len(s) == len("2006-01-02") {
		s += " 10:20"
	}
	t, err := time.ParseInLocation(layout, s, rome)
	if err != nil {
		panic(err)
	}
	return t
}

// day parses a civil date as Due.Due holds it.
func day(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// ev is an event and when it happened.
type ev struct {
	e  cases.Event
	at string
}

// build applies evs to a new case with facts, failing the test on a refusal.
func build(tb testing.TB, facts cases.Facts, evs ...ev) cases.Case {
	tb.Helper()
	c := cases.Case{ID: "t", Facts: facts}
	for i, e := range evs {
		var err error
		if c, _, err = cases.Apply(c, e.e, at(e.at)); err != nil {
			tb.Fatalf("event %d (%s at %s): %v", i, e.e, e.at, err)
		}
	}
	return c
}

func seq(parts ...[]ev) []ev { return slices.Concat(parts...) }

// The stages of a SAR disembarkation in Catania, late August 2026.
var (
	disembarked = []ev{{cases.Disembarked, "2026-08-24 10:20"}}
	screened    = seq(disembarked, []ev{{cases.ScreeningStarted, "2026-08-24 12:00"}})
	applied     = seq(screened, []ev{{cases.Applied, "2026-08-25"}})
	registered  = seq(applied, []ev{{cases.Registration, "2026-08-26 09:00"}})
	regular     = seq(registered, []ev{{cases.RegularTrack, "2026-08-26 09:30"}})
	border      = seq(registered, []ev{{cases.BorderTrack, "2026-08-26 09:30"}})
	tcrSent     = seq(regular, []ev{{cases.TakeChargeRequestSent, "2026-09-10"}})
	accepted    = seq(tcrSent, []ev{{cases.RequestAccepted, "2026-10-01"}})
	decided     = seq(accepted, []ev{{cases.TransferDecision, "2026-10-05"}})
	appealed    = seq(decided, []ev{{cases.AppealLodged, "2026-10-08"}})
	pending     = seq(decided, []ev{{cases.AppealWindowClosed, "2026-10-27"}})
	self        = seq(regular, []ev{{cases.CriteriaDesignateSelf, "2026-08-28"}})
	relocInfo   = seq(regular, []ev{{cases.RelocationCandidate, "2026-08-27"}, {cases.RelocationCleared, "2026-08-28"},
		{cases.RelocationInfo, "2026-09-01"}})
	relocConfirmed = seq(relocInfo, []ev{{cases.RelocationConfirmation, "2026-09-07"}})
)

func find(dues []deadline.Due, name string) (deadline.Due, bool) {
	for _, d := range dues {
		if d.Limit == name {
			return d, true
		}
	}
	return deadline.Due{}, false
}

func names(dues []deadline.Due) string {
	var s []string
	for _, d := range dues {
		s = append(s, d.Limit+"="+d.Due.Format("2006-01-02T15:04"))
	}
	return strings.Join(s, " ")
}
