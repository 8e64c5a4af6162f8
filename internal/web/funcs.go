package web

import (
	"fmt"
	"html/template"
	"strconv"

	"solidarity/internal/report"
)

// The functions templates call, for numbers as the pages show them. Pages with
// functions of their own add them to funcs in an init of their file (account.go,
// casepages.go, matchpages.go); every template is parsed after, when the server starts.

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
