package deadline_test

import (
	"fmt"
	"time"

	"solidarity/cases"
	"solidarity/deadline"
)

// A person disembarked in Catania after a rescue applies for protection during the
// screening; Italy's criteria point to Germany (a family member there) and a take
// charge request goes out. Which deadlines run, and what follows if Germany is silent?
func ExampleCompute() {
	rome, _ := time.LoadLocation("Europe/Rome")
	c := cases.Case{ID: "IT-CT-2026-0042"}
	for _, e := range []struct {
		ev cases.Event
		at string
	}{
		{cases.Disembarked, "2026-08-24 10:20"},
		{cases.ScreeningStarted, "2026-08-24 12:00"},
		{cases.EurodacRecorded, "2026-08-24 16:00"},
		{cases.Applied, "2026-08-25 09:00"},
		{cases.Registration, "2026-08-26 09:00"},
		{cases.RegularTrack, "2026-08-26 09:30"},
		{cases.TakeChargeRequestSent, "2026-09-10 11:00"},
	} {
		at, _ := time.ParseInLocation("2006-01-02 15:04", e.at, rome)
		var err error
		if c, _, err = cases.Apply(c, e.ev, at); err != nil {
			fmt.Println(err)
			return
		}
	}
	for _, d := range deadline.Compute(c, deadline.Params{}) {
		when := d.Due.Format("2006-01-02")
		if d.Hours {
			when = d.Due.Format("2006-01-02 15:04")
		}
		fmt.Printf("%-16s  %-22s  %-20s [%s]\n", when, d.Limit, d.Article, d.Tag)
	}
	now := time.Date(2026, 10, 12, 9, 0, 0, 0, rome)
	for _, m := range deadline.Missed(c, deadline.Params{}, now) {
		fmt.Printf("missed %s: %s; record %q\n", m.Due.Limit, m.Due.Consequence, m.Event)
	}
	// Output:
	// 2026-08-29 10:00  eurodac-applicant       Art. 15(1)(a)–(b) ED [V]
	// 2026-10-10        take-charge-reply       Art. 40(1) AMMR      [V]
	// 2031-08-24        eurodac-retention-sar   Art. 29(6)–(8) ED    [V]
	// missed take-charge-reply: silence is tantamount to accepting the request, with the obligation to take charge and arrange the arrival; record "tacit-acceptance"
}
