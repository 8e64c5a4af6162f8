package web

import (
	"fmt"
	"html/template"
	"net/url"
	"strconv"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/casesvc"
	"solidarity/internal/report"
)

// The functions templates call: numbers as the pages show them, the case flow's dates,
// labels and links, and what the signed-in user may do. Every template function is
// here, so that a template's vocabulary is read in one place; the templates are parsed
// when the server starts.

// f64 is n as a float, for the map's classes and the percentages shown; 0 when n is
// unknown (nil).
func f64(n *report.Num) float64 {
	if n == nil {
		return 0
	}
	v, _ := strconv.ParseFloat(string(*n), 64)
	return v
}

// funcs are the template functions: str and pct show an unknown number (nil) as
// "unknown" and "—", thousands groups digits with commas, eur writes an amount as
// "EUR 1,234,567.89" (report.FormatEUR).
var funcs = template.FuncMap{
	"str": func(n *report.Num) string {
		if n == nil {
			return "unknown"
		}
		return string(*n)
	},
	"pct": func(n *report.Num) string {
		if n == nil {
			return "—"
		}
		return fmt.Sprintf("%.1f %%", f64(n)*100)
	},
	"thousands": thousands,
	"deref":     func(n *report.Num) report.Num { return *n },
	"eur":       report.FormatEUR,
	"languages": func() []languageOption { return languageOptions },
	// The locale's numbers (dashboard.go): {{num $.L .X 2}}, {{euro $.L .X}}, {{percent $.L .X}}.
	"num":           numText,
	"euro":          eurText,
	"percent":       pctText,
	"sources":       sourceLinks,
	"statusMeaning": statusMeaning,
}

// thousands writes v with a comma between each group of three digits: 1,234,567.
func thousands(v int64) string {
	s := strconv.FormatInt(v, 10)
	neg := v < 0
	if neg {
		s = s[1:]
	}
	var out []byte
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// caseFuncs are the case pages' functions: tags, dates (a day, or an instant for limits
// in hours), the labels of states and events, and the links to a case and an arrival.
var caseFuncs = template.FuncMap{
	"tagText":      tagText,
	"confirmValue": confirmValue,
	"dueText":      casesvc.DueText,
	"date": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format(time.DateOnly)
	},
	"datetime": func(t time.Time) string {
		if t.IsZero() {
			return "—"
		}
		return t.UTC().Format("2006-01-02 15:04 UTC")
	},
	"stateLabel": func(st cases.State) string { return st.Label() },
	"eventLabel": func(ev cases.Event) string { return ev.Label() },
	"caseURL":    func(id solidarity.CaseID) string { return "/cases/" + url.PathEscape(string(id)) },
	"arrivalURL": func(id solidarity.ArrivalID) string { return "/arrivals/" + url.PathEscape(string(id)) },
}

// userFuncs say what the signed-in user may do, for the links a page offers.
var userFuncs = template.FuncMap{
	"mayManageUsers": func(u *solidarity.User) bool { return u != nil && solidarity.Can(u, solidarity.ManageUsers, "") },
	"mayPropose":     mayPropose,
}

func init() {
	for _, m := range []template.FuncMap{caseFuncs, userFuncs} {
		for k, f := range m {
			funcs[k] = f
		}
	}
}
