package solidarity_test

import (
	"errors"
	"testing"
	"time"

	"solidarity"
)

const (
	wantDay          = "want a date as YYYY-MM-DD"
	wantDayOrInstant = "want a date as YYYY-MM-DD or an RFC 3339 time"
)

func TestParseAsOf(t *testing.T) {
	cet := time.FixedZone("CET", 3600)
	for _, c := range []struct {
		v    string
		want time.Time
		msg  string
	}{
		{"", time.Time{}, ""},
		{"2027-02-01", time.Date(2027, 2, 1, 23, 59, 59, 999999000, time.UTC), ""},
		{"2028-02-29", time.Date(2028, 2, 29, 23, 59, 59, 999999000, time.UTC), ""},
		{"2027-12-31", time.Date(2027, 12, 31, 23, 59, 59, 999999000, time.UTC), ""},
		{"2027-02-01T10:00:00Z", time.Date(2027, 2, 1, 10, 0, 0, 0, time.UTC), ""},
		{"2027-02-01T10:00:00.5+01:00", time.Date(2027, 2, 1, 10, 0, 0, 500000000, cet), ""},
		{"2027-02-30", time.Time{}, wantDayOrInstant},
		{"2027-13-01", time.Time{}, wantDayOrInstant},
		{"19-12-2025", time.Time{}, wantDayOrInstant},
		{"soon", time.Time{}, wantDayOrInstant},
		{"2027-02-01T10:00:00", time.Time{}, wantDayOrInstant}, // no zone
		{"2027-02-01 10:00:00Z", time.Time{}, wantDayOrInstant},
		{" 2027-02-01", time.Time{}, wantDayOrInstant},
	} {
		got, err := solidarity.ParseAsOf(c.v)
		wantError(t, "ParseAsOf("+c.v+")", err, "as_of", c.msg)
		if !got.Equal(c.want) {
			t.Errorf("ParseAsOf(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}

func TestParseAsOfDay(t *testing.T) {
	for _, c := range []struct {
		v    string
		want time.Time
		msg  string
	}{
		{"", time.Time{}, ""},
		{"2025-12-18", time.Date(2025, 12, 18, 0, 0, 0, 0, time.UTC), ""},
		{"2027-06-30", time.Date(2027, 6, 30, 0, 0, 0, 0, time.UTC), ""},
		{"2026-13-01", time.Time{}, wantDay},
		{"2027-02-30", time.Time{}, wantDay},
		{"19-12-2025", time.Time{}, wantDay},
		{"tomorrow", time.Time{}, wantDay},
		{"2027-02-01T10:00:00Z", time.Time{}, wantDay}, // a pool is as of a day, not an instant
	} {
		got, err := solidarity.ParseAsOfDay(c.v)
		wantError(t, "ParseAsOfDay("+c.v+")", err, "as_of", c.msg)
		if !got.Equal(c.want) || got.Location() != time.UTC {
			t.Errorf("ParseAsOfDay(%q) = %v, want %v", c.v, got, c.want)
		}
	}
}

// The two readings are one parser: a day either takes is the same day, the balances
// at its last microsecond and the pool at its start; every refusal is EINVALID on
// as_of; and an instant read back from its RFC 3339 text is the same instant.
func FuzzParseAsOf(f *testing.F) {
	for _, v := range []string{"", "2027-02-01", "2027-02-01T10:00:00Z", "2027-02-01T10:00:00.123456789-07:00", "2027-02-30", "soon", "0000-01-01", "9999-12-31"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		refused := func(name string, err error) {
			if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.EINVALID || e.Field != "as_of" {
				t.Fatalf("%s(%q): %v, want EINVALID on as_of", name, v, err)
			}
		}
		at, err := solidarity.ParseAsOf(v)
		day, dayErr := solidarity.ParseAsOfDay(v)
		if err != nil {
			refused("ParseAsOf", err)
			if dayErr == nil {
				t.Fatalf("ParseAsOfDay(%q) takes what ParseAsOf refuses", v)
			}
		}
		if dayErr != nil {
			refused("ParseAsOfDay", dayErr)
		} else if v != "" {
			if err != nil || !at.Equal(day.Add(24*time.Hour-time.Microsecond)) || day.Format(time.DateOnly) != v {
				t.Fatalf("%q: balances as of %v, pool as of %v (%v)", v, at, day, err)
			}
		}
		if v == "" && (err != nil || dayErr != nil || !at.IsZero() || !day.IsZero()) {
			t.Fatalf("the empty as_of: %v %v, %v %v", at, err, day, dayErr)
		}
		if err == nil && v != "" && at.Year() >= 0 && at.Year() <= 9999 {
			back, err := solidarity.ParseAsOf(at.Format(time.RFC3339Nano))
			if err != nil || !back.Equal(at) {
				t.Fatalf("%q is %v, read back as %v (%v)", v, at, back, err)
			}
		}
	})
}
