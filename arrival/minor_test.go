package arrival_test

import (
	"testing"
	"time"

	"solidarity/arrival"
)

// TestMinorLeapDay: a person born on 29 February is 18 on 28 February of a common
// year, as rules.Applicant counts age, and a minor the day before.
func TestMinorLeapDay(t *testing.T) {
	p := arrival.Person{BirthDate: time.Date(2008, 2, 29, 0, 0, 0, 0, time.UTC)}
	for _, c := range []struct {
		at    time.Time
		minor bool
	}{
		{time.Date(2026, 2, 27, 23, 0, 0, 0, time.UTC), true},
		{time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC), false},
		{time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), false},
	} {
		if got := p.Minor(c.at); got != c.minor {
			t.Errorf("Minor(%s) = %v, want %v", c.at.Format(time.DateTime), got, c.minor)
		}
	}
	q := arrival.Person{BirthDate: time.Date(2008, 6, 15, 0, 0, 0, 0, time.UTC)}
	if !q.Minor(time.Date(2026, 6, 14, 12, 0, 0, 0, time.UTC)) || q.Minor(time.Date(2026, 6, 15, 0, 0, 0, 0, time.UTC)) {
		t.Error("18th birthday boundary wrong")
	}
}
