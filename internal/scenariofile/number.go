package scenariofile

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"solidarity"
)

// number is a figure of the file: a bare TOML number, which is an assumption (the
// output lists the results that depend on it), or an inline table with its value,
// source and certainty:
//
//	return_rate = 0.2
//	dublin_transfer_ratio = { value = 0.14, source = "EUAA 2024", certainty = "V" }
//
// A number is known when it has a source and a certainty other than U (unattributed).
type number struct {
	value float64
	fact  solidarity.Fact
	set   bool
	err   string // a shape error, reported with the line by the builder
}

// certainties are the tags a figure may carry: the spec's V, P, R, M, S, U and the
// historical data's D (derived by stated arithmetic from V figures).
var certainties = []string{"V", "D", "P", "R", "M", "S", "U"}

func (n *number) UnmarshalTOML(v any) error {
	n.set = true
	switch x := v.(type) {
	case int64:
		n.value = float64(x)
	case float64:
		n.value = x
	case map[string]any:
		for k, val := range x {
			switch k {
			case "value":
				switch y := val.(type) {
				case int64:
					n.value = float64(y)
				case float64:
					n.value = y
				default:
					n.err = "value must be a number"
				}
			case "source", "certainty", "note":
				str, ok := val.(string)
				if !ok {
					n.err = k + " must be a string"
					continue
				}
				switch k {
				case "source":
					n.fact.Source = str
				case "certainty":
					n.fact.Certainty = solidarity.Certainty(str)
				case "note":
					n.fact.Note = str
				}
			default:
				n.err = fmt.Sprintf("unknown key %q in a number (want value, source, certainty, note)", k)
			}
		}
		if _, ok := x["value"]; !ok && n.err == "" {
			n.err = "a number written as a table needs its value"
		}
	default:
		n.err = fmt.Sprintf("want a number or { value = …, source = …, certainty = … }, not %T", v)
	}
	if n.err == "" {
		n.err = checkFact(n.fact)
	}
	if n.err == "" && (math.IsNaN(n.value) || math.IsInf(n.value, 0)) {
		n.err = "not a finite number"
	}
	return nil
}

// checkFact checks a certainty tag; an empty one is allowed (an assumption).
func checkFact(f solidarity.Fact) string {
	if f.Certainty != "" && !slices.Contains(certainties, string(f.Certainty)) {
		return fmt.Sprintf("certainty %q; want one of %s", f.Certainty, strings.Join(certainties, " "))
	}
	if f.Certainty != "" && f.Source == "" && f.Certainty != "U" {
		return "a certainty without a source: name where the figure was read"
	}
	return ""
}

// known is the rule for "an unknown stays unknown".
func known(f solidarity.Fact) bool { return f.Source != "" && f.Certainty != "" && f.Certainty != "U" }
