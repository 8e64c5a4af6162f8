package rules

import "time"

// civil returns the calendar date of t (in t's own location) as midnight UTC, so that
// dates compare as days whatever the clock time or zone they were recorded in.
func civil(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// addMonths returns the date n months after the civil date t: the same-numbered day of
// the final month, or its last day when the month is shorter (Regulation 1182/71,
// Art. 3(2)(c)). time.AddDate would roll 31 January + 1 month over into March.
func addMonths(t time.Time, n int) time.Time {
	t = civil(t)
	y, m, d := t.Date()
	total := int(m) - 1 + n
	y += floorDiv(total, 12)
	month := time.Month(total - floorDiv(total, 12)*12 + 1)
	if last := daysIn(y, month); d > last {
		d = last
	}
	return time.Date(y, month, d, 0, 0, 0, 0, time.UTC)
}

func floorDiv(a, b int) int {
	q := a / b
	if (a%b != 0) && ((a < 0) != (b < 0)) {
		q--
	}
	return q
}

func daysIn(y int, m time.Month) int {
	return time.Date(y, m+1, 0, 0, 0, 0, 0, time.UTC).Day()
}

// moreThanMonthsAfter reports whether the date later is more than n months after
// event: later falls after the day on which a period of n months from event ends.
// Exactly n months (the same-numbered day) is not more than n months.
func moreThanMonthsAfter(later, event time.Time, n int) bool {
	return civil(later).After(addMonths(event, n))
}

// lessThanMonthsBefore reports whether event was less than n months before later:
// later falls before the same-numbered day n months after event.
func lessThanMonthsBefore(event, later time.Time, n int) bool {
	return civil(later).Before(addMonths(event, n))
}

// ageAt returns the age in whole years on date at of a person born on birth.
func ageAt(birth, at time.Time) int {
	birth, at = civil(birth), civil(at)
	years := at.Year() - birth.Year()
	if at.Before(addMonths(birth, 12*years)) {
		years--
	}
	return years
}

func fmtDate(t time.Time) string {
	if t.IsZero() {
		return "(no date)"
	}
	return civil(t).Format("2006-01-02")
}
