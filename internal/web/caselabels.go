package web

import (
	"solidarity"
	"solidarity/cases"
	"solidarity/deadline"
	"solidarity/internal/i18n"
	"time"
)

// The case-flow pages' labels that come from tables (the states' meanings, the
// events' names, the legal tags) are messages: the pages translate them as data
// ({{$.L.T .Label}}), and the catalogues list them from here.

func init() {
	messageSources = append(messageSources, func() []string {
		var out []string
		for _, s := range cases.States() {
			out = append(out, s.Label())
		}
		for _, e := range cases.Events() {
			out = append(out, e.Label())
		}
		for _, c := range certainties {
			out = append(out, tagText(c))
		}
		// The procedure tracks, shown as words (cases.Track, procedure.Track).
		out = append(out, string(cases.Border), string(cases.Regular))
		for _, l := range deadline.Limits() {
			out = append(out, l.Title)
			if l.Consequence != "" {
				out = append(out, l.Consequence)
			}
		}
		return out
	})
}

// certainties are the tags of the legal rules (solidarity.Certainty) the pages show.
var certainties = []solidarity.Certainty{"V", "P", "R", "M", "S", "U"}

// dueDate writes when a time limit ends in l: its last day, or for a period in hours
// the instant (UTC), as casesvc.DueText does in English for the CSV and the API.
func dueDate(l *i18n.Locale, d deadline.Due) string {
	if d.Hours {
		return l.DateTime(d.Due)
	}
	return l.Date(d.Due)
}

// whenIn says how far a time limit is from now in l ("3 days overdue", "due in 2
// hours"), as dueIn does in English for the CSV.
func whenIn(l *i18n.Locale, d deadline.Due, now time.Time) string {
	if d.Hours {
		h := int(now.Sub(d.Due) / time.Hour)
		switch {
		case d.Overdue(now) && h < 1:
			return l.T("under 1 hour overdue")
		case d.Overdue(now):
			return l.T("%d hours overdue", h)
		}
		h = int(d.Due.Sub(now) / time.Hour)
		if h < 1 {
			return l.T("due in under 1 hour")
		}
		return l.T("due in %d hours", h)
	}
	days := int(d.Due.Sub(deadline.Civil(now)).Hours() / 24)
	switch {
	case days == -1:
		return l.T("1 day overdue")
	case days < 0:
		return l.T("%d days overdue", -days)
	case days == 0:
		return l.T("due today")
	case days == 1:
		return l.T("due in 1 day")
	}
	return l.T("due in %d days", days)
}

// periodWords writes a period in l: "1 day", "10 working days" (Period.Words in
// English). A table, not a switch, so that a new unit shows up as missing here.
func periodWords(l *i18n.Locale, p deadline.Period) string {
	words, ok := periodMessages[p.Unit]
	if !ok {
		return p.Words()
	}
	if p.N == 1 {
		return l.T(words[0])
	}
	return l.T(words[1], p.N)
}

// periodMessages are each unit's messages for one and for several.
var periodMessages = map[deadline.Unit][2]string{
	deadline.Hours:       {msg("1 hour"), msg("%d hours")},
	deadline.Days:        {msg("1 day"), msg("%d days")},
	deadline.WorkingDays: {msg("1 working day"), msg("%d working days")},
	deadline.Weeks:       {msg("1 week"), msg("%d weeks")},
	deadline.Months:      {msg("1 month"), msg("%d months")},
}
