package solidarity

import "time"

// The as_of of a request: the one reading of the date a figure is asked "as of", for
// the API, the pages and the command line alike. Two figures take one, in two forms:
//
//   - the balances of a ledger cycle (ParseAsOf): the ledger as it stood at an instant,
//     given as a day, which counts to its end, or as an RFC 3339 time;
//   - the pool of a cycle file (ParseAsOfDay): the deductions decided on or before a
//     day (Arts. 61–62 AMMR), given as the day only.

// endOfDay is how far a day's last recordable instant lies from its start: the stores
// keep time to the microsecond, so an entry recorded at 23:59:59.999999 is in the day.
const endOfDay = 24*time.Hour - time.Microsecond

// ParseAsOf reads the as_of of the balances: "" is the zero time (now), a day
// YYYY-MM-DD is its last instant in UTC (every entry recorded that day counts), and an
// RFC 3339 time is that instant. Anything else is EINVALID on field as_of.
func ParseAsOf(v string) (time.Time, error) {
	t, day, err := parseAsOf(v, true)
	if day {
		t = t.Add(endOfDay)
	}
	return t, err
}

// ParseAsOfDay reads the as_of of a pool: "" is the zero time (every deduction), a day
// YYYY-MM-DD is its start in UTC (the deductions dated that day or before count).
// Anything else, a time included, is EINVALID on field as_of.
func ParseAsOfDay(v string) (time.Time, error) {
	t, _, err := parseAsOf(v, false)
	return t, err
}

// parseAsOf reads v as a day (day reports it; t is its start in UTC) or, when instant
// allows it, as an RFC 3339 time; "" is the zero time.
func parseAsOf(v string, instant bool) (t time.Time, day bool, err error) {
	if v == "" {
		return time.Time{}, false, nil
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		return d, true, nil
	}
	want := "want a date as YYYY-MM-DD"
	if instant {
		if t, err := time.Parse(time.RFC3339, v); err == nil {
			return t, false, nil
		}
		want += " or an RFC 3339 time"
	}
	return time.Time{}, false, &Error{Code: EINVALID, Field: "as_of", Message: want}
}
