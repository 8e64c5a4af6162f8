package web

import (
	"testing"
	"time"

	"solidarity/deadline"
)

func TestDueIn(t *testing.T) {
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 0, 0, 0, 0, time.UTC) }
	for _, c := range []struct {
		due  deadline.Due
		want string
	}{
		{deadline.Due{Due: day(2027, 2, 27)}, "2 days overdue"},
		{deadline.Due{Due: day(2027, 2, 28)}, "1 day overdue"},
		{deadline.Due{Due: day(2027, 3, 1)}, "due today"},
		{deadline.Due{Due: day(2027, 3, 2)}, "due in 1 day"},
		{deadline.Due{Due: day(2027, 3, 11)}, "due in 10 days"},
		{deadline.Due{Due: now.Add(-149 * time.Hour), Hours: true}, "149 hours overdue"},
		{deadline.Due{Due: now.Add(-90 * time.Minute), Hours: true}, "1 hour overdue"},
		{deadline.Due{Due: now.Add(-time.Minute), Hours: true}, "under 1 hour overdue"},
		{deadline.Due{Due: now.Add(30 * time.Minute), Hours: true}, "due in under 1 hour"},
		{deadline.Due{Due: now.Add(5 * time.Hour), Hours: true}, "due in 5 hours"},
	} {
		if got := dueIn(c.due, now); got != c.want {
			t.Errorf("dueIn(%v, hours %v) = %q, want %q", c.due.Due, c.due.Hours, got, c.want)
		}
	}
}
