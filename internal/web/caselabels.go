package web

import (
	"solidarity"
	"solidarity/cases"
	"solidarity/deadline"
	"solidarity/internal/i18n"
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
