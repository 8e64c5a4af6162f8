package deadline

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Unit is the unit a time limit is expressed in.
type Unit string

const (
	Hours       Unit = "h"
	Days        Unit = "d"
	WorkingDays Unit = "wd" // Monday to Friday, less the public holidays in Params.Holidays
	Weeks       Unit = "w"
	Months      Unit = "m" // a year is 12 months
)

// Period is a time limit's length: "72h", "7d", "10wd", "2w", "6m".
type Period struct {
	N    int
	Unit Unit
}

// H, D, WD, W and M build periods.
func H(n int) Period  { return Period{n, Hours} }
func D(n int) Period  { return Period{n, Days} }
func WD(n int) Period { return Period{n, WorkingDays} }
func W(n int) Period  { return Period{n, Weeks} }
func M(n int) Period  { return Period{n, Months} }

// IsZero reports whether p is unset.
func (p Period) IsZero() bool { return p.N == 0 && p.Unit == "" }

func (p Period) String() string {
	if p.IsZero() {
		return ""
	}
	return strconv.Itoa(p.N) + string(p.Unit)
}

// Words renders p for an officer: "72 hours", "1 month", "10 working days".
func (p Period) Words() string {
	name := map[Unit][2]string{Hours: {"hour", "hours"}, Days: {"day", "days"},
		WorkingDays: {"working day", "working days"}, Weeks: {"week", "weeks"}, Months: {"month", "months"}}[p.Unit]
	if name[0] == "" {
		return p.String()
	}
	if p.N == 1 {
		return "1 " + name[0]
	}
	return strconv.Itoa(p.N) + " " + name[1]
}

// ParsePeriod reads the form String writes. Years are written in months ("36m").
func ParsePeriod(s string) (Period, error) {
	s = strings.TrimSpace(s)
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || i == 0 {
		return Period{}, fmt.Errorf("period %q: want a number and a unit (h, d, wd, w, m)", s)
	}
	u := Unit(s[i:])
	switch u {
	case Hours, Days, WorkingDays, Weeks, Months:
		return Period{n, u}, nil
	}
	return Period{}, fmt.Errorf("period %q: unknown unit %q (want h, d, wd, w or m)", s, s[i:])
}

// MarshalText writes p as String does.
func (p Period) MarshalText() ([]byte, error) { return []byte(p.String()), nil }

// UnmarshalText reads p as ParsePeriod does; an empty text is the zero Period.
func (p *Period) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*p = Period{}
		return nil
	}
	q, err := ParsePeriod(string(b))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

// days is p's approximate length in days, for range checks only.
func (p Period) days() float64 {
	switch p.Unit {
	case Hours:
		return float64(p.N) / 24
	case WorkingDays:
		return float64(p.N) * 7 / 5
	case Weeks:
		return float64(p.N) * 7
	case Months:
		return float64(p.N) * 30.436875
	}
	return float64(p.N)
}

// Civil returns the calendar date of t, read in t's own location, as midnight UTC, so
// that dates compare as days whatever the zone they were recorded in.
func Civil(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// AddMonths returns the civil date n months after the civil date of t: the
// same-numbered day of the final month, or its last day when that month is shorter
// (Regulation (EEC, Euratom) No 1182/71, Art. 3(2)(c)). time.AddDate would roll
// 31 January + 1 month over into March.
func AddMonths(t time.Time, n int) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return dateOf(addMonthsDays(civilDays(t), n))
}

// dayNumber is the number of days from 1970-01-01 to the civil date d.
func dayNumber(d time.Time) int32 { return int32(d.Unix() / 86400) }

// Day numbers (days since 1970-01-01) let end count without time.Time arithmetic.
// The conversions are H. Hinnant's days_from_civil and civil_from_days.

func daysFromCivil(y int, m time.Month, d int) int {
	if m <= 2 {
		y--
	}
	era := y
	if era < 0 {
		era -= 399
	}
	era /= 400
	yoe := y - era*400
	mp := int(m) + 9
	if m > 2 {
		mp = int(m) - 3
	}
	doy := (153*mp+2)/5 + d - 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy
	return era*146097 + doe - 719468
}

func civilFromDays(z int) (int, time.Month, int) {
	z += 719468
	era := z
	if era < 0 {
		era -= 146096
	}
	era /= 146097
	doe := z - era*146097
	yoe := (doe - doe/1460 + doe/36524 - doe/146096) / 365
	y := yoe + era*400
	doy := doe - (365*yoe + yoe/4 - yoe/100)
	mp := (5*doy + 2) / 153
	d := doy - (153*mp+2)/5 + 1
	m := mp + 3
	if mp >= 10 {
		m = mp - 9
	}
	if m <= 2 {
		y++
	}
	return y, time.Month(m), d
}

// civilDays is the day number of the civil date of t, read in t's location.
func civilDays(t time.Time) int {
	y, m, d := t.Date()
	return daysFromCivil(y, m, d)
}

// addMonthsDays is AddMonths on day numbers.
func addMonthsDays(day, n int) int {
	y, m, d := civilFromDays(day)
	total := int(m) - 1 + n
	q := total / 12
	if total%12 < 0 {
		q--
	}
	y += q
	month := time.Month(total - q*12 + 1)
	if last := monthLength(y, month); d > last {
		d = last
	}
	return daysFromCivil(y, month, d)
}

func monthLength(y int, m time.Month) int {
	switch m {
	case time.February:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case time.April, time.June, time.September, time.November:
		return 30
	}
	return 31
}

// calendar holds what counting working days needs.
type calendar struct {
	holidays []int32 // day numbers, sorted
	rollOver bool
}

// working reports whether day number d is a working day: Monday to Friday and not a
// holiday. Day 0, 1 January 1970, was a Thursday.
func (k *calendar) working(d int) bool {
	switch (d%7 + 7 + 4) % 7 {
	case 0, 6: // Sunday, Saturday
		return false
	}
	if len(k.holidays) == 0 {
		return true
	}
	_, holiday := slices.BinarySearch(k.holidays, int32(d))
	return !holiday
}

// end returns when a period p that runs from the event at start ends, following
// Regulation 1182/71 Art. 3:
//   - hours: the hour of the event does not count; the period ends when the last hour
//     expires (Art. 3(1), (2)(a)). The result is an instant (hours=true).
//   - days, weeks, months: the day of the event does not count; the period ends at the
//     end of the last day: the n-th day, the same weekday n weeks later, or the
//     same-numbered day n months later (the month's last day when it has none)
//     (Art. 3(1), (2)(b)–(c)). The result is that last day as a civil date.
//   - working days: the n-th working day after the day of the event (Art. 3(3)).
//
// With rollOver, a last day that is a Saturday, Sunday or public holiday moves to the
// next working day, and a period of two days or more holds at least two working days
// (Art. 3(4)–(5)).
func (k *calendar) end(start time.Time, p Period) (time.Time, bool) {
	if p.Unit == Hours {
		first := start.Add(-time.Duration(start.Minute())*time.Minute - time.Duration(start.Second())*time.Second -
			time.Duration(start.Nanosecond())).Add(time.Hour)
		return first.Add(time.Duration(p.N) * time.Hour), true
	}
	day := civilDays(start)
	last := day
	switch p.Unit {
	case Days:
		last = day + p.N
	case Weeks:
		last = day + 7*p.N
	case Months:
		last = addMonthsDays(day, p.N)
	case WorkingDays:
		for n := 0; n < p.N; {
			last++
			if k.working(last) {
				n++
			}
		}
		return dateOf(last), false
	}
	if k.rollOver {
		for !k.working(last) {
			last++
		}
		if p.days() >= 2 {
			n := 0
			for d := day + 1; n < 2 && d <= last; d++ {
				if k.working(d) {
					n++
				}
			}
			for n < 2 {
				last++
				if k.working(last) {
					n++
				}
			}
		}
	}
	return dateOf(last), false
}

// dateOf is the civil date of day number d, at midnight UTC.
func dateOf(d int) time.Time { return time.Unix(int64(d)*86400, 0).UTC() }
