package deadline_test

import (
	"reflect"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity/cases"
	"solidarity/deadline"
)

// TestPropertyCompute walks random legal histories and checks what Compute returns for
// each: only limits that run in the case's state, at most one variant of a limit, due
// no earlier than the clock's start, earliest first; AppendCompute agrees; and every
// consequence Missed offers as an event is accepted by cases.Apply.
func TestPropertyCompute(t *testing.T) {
	limits := map[string]deadline.Limit{}
	for _, l := range deadline.Limits() {
		limits[l.Name] = l
	}
	rapid.Check(t, func(t *rapid.T) {
		c := cases.Case{Facts: cases.Facts{
			UnaccompaniedMinor:    rapid.Bool().Draw(t, "uam"),
			NoBiometrics:          rapid.Bool().Draw(t, "young"),
			ReducedScreening:      rapid.Bool().Draw(t, "reduced"),
			InadmissibleGround38e: rapid.Bool().Draw(t, "38e"),
		}}
		p := deadline.Params{Crisis: rapid.Bool().Draw(t, "crisis"), RollOver: rapid.Bool().Draw(t, "rollover")}
		if rapid.Bool().Draw(t, "holidays") {
			p.Holidays = []time.Time{day("2026-08-15"), day("2026-11-01"), day("2026-12-08"), day("2026-12-25"), day("2027-01-01")}
		}
		if rapid.Bool().Draw(t, "detained transfer") {
			p.DetainedTransfer = deadline.W(rapid.IntRange(1, 8).Draw(t, "weeks"))
		}
		now := at("2026-05-01").AddDate(0, 0, rapid.IntRange(0, 120).Draw(t, "start")) // both regimes
		for range rapid.IntRange(1, 40).Draw(t, "steps") {
			legal := cases.Allowed(c.State)
			if len(legal) == 0 {
				break
			}
			now = now.Add(time.Duration(rapid.IntRange(0, 60*24).Draw(t, "hours")) * time.Hour)
			var err error
			if c, _, err = cases.Apply(c, rapid.SampledFrom(legal).Draw(t, "event"), now); err != nil {
				t.Fatal(err)
			}
		}

		dues := deadline.Compute(c, p)
		if got := deadline.AppendCompute(make([]deadline.Due, 1), c, p.Prepare()); !reflect.DeepEqual(got[1:], dues) && len(dues) > 0 {
			t.Fatalf("AppendCompute differs from Compute")
		}
		groups := map[string]bool{}
		for i, d := range dues {
			l, ok := limits[d.Limit]
			if !ok || !slices.Contains(l.Running, c.State) {
				t.Fatalf("%s runs in %s", d.Limit, c.State)
			}
			if l.Group != "" {
				if groups[l.Group] {
					t.Fatalf("two variants of %s", l.Group)
				}
				groups[l.Group] = true
			}
			if d.Hours && !d.Due.After(d.Start) || !d.Hours && d.Due.Before(deadline.Civil(d.Start)) {
				t.Fatalf("%s due %s before its start %s", d.Limit, d.Due, d.Start)
			}
			if i > 0 && end(d).Before(end(dues[i-1])) {
				t.Fatalf("not earliest first: %s", names(dues))
			}
		}
		later := now.AddDate(rapid.IntRange(0, 4).Draw(t, "years"), 0, rapid.IntRange(0, 400).Draw(t, "days"))
		for _, m := range deadline.Missed(c, p, later) {
			if !m.Due.Overdue(later) {
				t.Fatalf("%s reported missed before it is due", m.Due.Limit)
			}
			if m.Event == "" {
				continue
			}
			if _, _, err := cases.Apply(c, m.Event, later); err != nil {
				t.Fatalf("consequence of %s: %v", m.Due.Limit, err)
			}
		}
	})
}

func end(d deadline.Due) time.Time {
	if d.Hours {
		return d.Due
	}
	return d.Due.Add(24 * time.Hour)
}
