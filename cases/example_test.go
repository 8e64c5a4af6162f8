package cases_test

import (
	"fmt"
	"time"

	"solidarity/cases"
)

func ExampleApply() {
	at := time.Date(2026, 8, 24, 10, 20, 0, 0, time.UTC)
	var c cases.Case
	for _, ev := range []cases.Event{cases.Disembarked, cases.ScreeningStarted, cases.Applied, cases.Registration} {
		var t cases.Transition
		c, t, _ = cases.Apply(c, ev, at)
		fmt.Printf("%-16s --%s--> %s (%s)\n", t.From, t.Event, t.To, t.Article)
		at = at.Add(24 * time.Hour)
	}
	// The security check is positive: no relocation afterwards (Art. 67(2) AMMR).
	c, _, _ = cases.Apply(c, cases.SecurityThreat, at)
	_, _, err := cases.Apply(c, cases.RelocationCandidate, at)
	fmt.Println(err)
	fmt.Println(cases.Allowed(c.State))
	// Output:
	// NEW              --disembarked--> ARRIVED_SAR (Art. 5(1)(b) SR; Art. 24 ED)
	// ARRIVED_SAR      --screening-started--> SCREENING (Art. 8 SR)
	// SCREENING        --application-made--> APPLICATION_MADE (Art. 18(2) SR)
	// APPLICATION_MADE --registered--> REGISTERED (Art. 27 APR; Art. 84 AMMR)
	// field "event": event relocation-candidate is not allowed in state SECURITY_RESPONSIBLE; allowed: border-procedure-stopped, border-period-expired, examination-border, examination-admissibility, examination-accelerated, examination-normal, application-lodged, withdrawn, detained, released, absconded, eurodac-recorded, eurodac-applicant-recorded (Art. 67(3) AMMR)
	// [border-procedure-stopped border-period-expired examination-border examination-admissibility examination-accelerated examination-normal application-lodged withdrawn detained released absconded eurodac-recorded eurodac-applicant-recorded]
}
