package web

import (
	"html/template"
	"net/url"
	"strconv"
	"strings"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/report"
)

// The functions templates call: the case flow's
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

// funcs are the template functions; the numbers and dates of a page are its locale's
// ($.L.Int, $.L.Dec, $.L.Date …), not functions here.
var funcs = template.FuncMap{
	"languages": func() []languageOption { return languageOptions },
	"contains":  strings.Contains,
	// The locale's numbers (dashboard.go): {{num $.L .X 2}}, {{euro $.L .X}}, {{percent $.L .X}}.
	"num":           numText,
	"euro":          eurText,
	"percent":       pctText,
	"sources":       sourceLinks,
	"statusMeaning": statusMeaning,
}

// caseFuncs are the case pages' functions: tags, the labels of states, and the links
// to a case and an arrival.
var caseFuncs = template.FuncMap{
	"tagText":      tagText,
	"confirmValue": confirmValue,
	"stateLabel":   func(st cases.State) string { return st.Label() },
	"caseURL":      func(id solidarity.CaseID) string { return "/cases/" + url.PathEscape(string(id)) },
	"arrivalURL":   func(id solidarity.ArrivalID) string { return "/arrivals/" + url.PathEscape(string(id)) },
}

// userFuncs say what the signed-in user may do, for the links a page offers.
var userFuncs = template.FuncMap{
	"mayManageUsers": func(u *solidarity.User) bool { return u != nil && solidarity.Can(u, solidarity.ManageUsers, "") },
	"mayPropose":     mayPropose,
}

// dashboardFuncs are the dashboard's and the state pages': a fact's tag and source,
// a column's label, a number's pointer, the report's instants as times.
var dashboardFuncs = template.FuncMap{
	"join":        func(s []string) string { return strings.Join(s, ", ") },
	"factOf":      factOfAny,
	"columnLabel": columnLabel,
	"numPtr":      func(n report.Num) *report.Num { return &n },
	// instant reads an RFC 3339 time of the report (the balances' as-of) for
	// $.L.DateTime; the zero time ("—") when it is not one.
	"instant": func(s string) time.Time { t, _ := time.Parse(time.RFC3339, s); return t },
}

func init() {
	for _, m := range []template.FuncMap{caseFuncs, userFuncs, dashboardFuncs} {
		for k, f := range m {
			funcs[k] = f
		}
	}
}
