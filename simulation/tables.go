package simulation

import (
	"strconv"
	"strings"
)

// Table is one table of a result, as text cells: the CLI prints it, the web page
// offers it as CSV. Numbers are written as a machine reads them (dot decimal, no
// digit groups); the column names match the JSON fields.
type Table struct {
	Name   string
	Header []string
	Rows   [][]string
}

func f(x float64, dec int) string { return strconv.FormatFloat(x, 'f', dec, 64) }

// TableNames are the names Tables uses, in order.
var TableNames = []string{"states", "union", "months", "frontier", "costs", "replay", "compared", "depends"}

// Tables returns the result's tables in the order of TableNames (replay and compared only for a
// replay).
func (r *Result) Tables() []Table {
	var ts []Table
	st := Table{Name: "states", Header: []string{"state", "name", "benefitting", "key_share_percent", "fair_share", "obligation",
		"form", "choice_known", "planned_relocations", "relocated_in", "relocated_in_p5", "relocated_in_p95", "offsets_in",
		"corrective_in", "payment_eur", "alternative_eur", "refusal_cost_eur", "received_eur", "net_cost_eur", "arrivals",
		"responsibility", "responsibility_p5", "responsibility_p95", "deviation_pp", "responsibility_per_1000",
		"border_entries", "returns", "pressure", "may_request_deduction"}}
	for _, s := range r.States {
		st.Rows = append(st.Rows, []string{string(s.State), s.Name, strconv.FormatBool(s.Benefitting), f(100*s.KeyShare, 4),
			strconv.FormatInt(s.FairShare, 10), f(s.Obligation, 1), s.Form, strconv.FormatBool(s.ChoiceKnown),
			f(s.PlannedRelocations, 1), f(s.Relocated.Median, 0), f(s.Relocated.P5, 0), f(s.Relocated.P95, 0), f(s.OffsetsIn.Median, 0),
			f(s.CorrectiveIn.Median, 0), f(s.Payment.Median, 0), f(s.Measures.Median, 0), f(s.Refusal.Median, 0), f(s.Received.Median, 0),
			f(s.NetCost.Median, 0), f(s.Arrivals.Median, 0), f(s.Responsibility.Median, 0), f(s.Responsibility.P5, 0),
			f(s.Responsibility.P95, 0), f(s.Deviation.Median, 3), f(s.PerCapita.Median, 3), f(s.Border.Median, 0),
			f(s.Returns.Median, 0), f(s.Pressure.Median, 3), strconv.FormatBool(s.MayRequestDeduction)})
	}
	ts = append(ts, st)
	un := Table{Name: "union", Header: []string{"metric", "median", "p5", "p95"}}
	U := r.Union
	for _, m := range []struct {
		name string
		b    Band
		dec  int
	}{{"need_units", U.Need, 0}, {"owed_units", U.Owed, 0}, {"pledged_units", U.Pledged, 0}, {"coverage", U.Coverage, 4},
		{"places_units", U.Places, 0}, {"place_coverage", U.PlaceCoverage, 4}, {"delivered_units", U.Delivered, 0},
		{"shortfall_units", U.Shortfall, 0}, {"relocations", U.Relocations, 0}, {"offsets", U.Offsets, 0},
		{"payments_eur", U.Payments, 0}, {"refusal_cost_eur", U.Refusals, 0}, {"arrivals", U.Arrivals, 0},
		{"border_entries", U.Border, 0}, {"returns", U.Returns, 0}, {"gini_before", U.GiniBefore, 4}, {"gini_after", U.GiniAfter, 4}} {
		un.Rows = append(un.Rows, []string{m.name, f(m.b.Median, m.dec), f(m.b.P5, m.dec), f(m.b.P95, m.dec)})
	}
	ts = append(ts, un)
	mo := Table{Name: "months", Header: []string{"month", "coverage", "coverage_p5", "coverage_p95", "relocations", "relocations_p5", "relocations_p95"}}
	for i, m := range r.Months {
		c, l := r.Coverage[i], r.Relocations[i]
		mo.Rows = append(mo.Rows, []string{m, f(c.Median, 4), f(c.P5, 4), f(c.P95, 4), f(l.Median, 0), f(l.P5, 0), f(l.P95, 0)})
	}
	ts = append(ts, mo)
	fr := Table{Name: "frontier", Header: []string{"state", "obligation", "rules", "price_eur", "all_paid_eur", "chosen_relocations", "chosen_eur"}}
	for _, x := range r.Frontier {
		for _, p := range x.Prices {
			fr.Rows = append(fr.Rows, []string{string(x.State), f(x.Obligation, 1), string(p.Rules), f(p.Price, 0), f(p.AllEUR, 0), f(x.ChosenRelocations, 1), f(x.ChosenEUR, 0)})
		}
	}
	ts = append(ts, fr)
	co := Table{Name: "costs", Header: []string{"rules", "state", "obligation", "relocated_in", "responsibility", "net_cost_eur", "refusal_cost_eur", "error"}}
	for _, c := range r.Costs {
		if c.Error != "" {
			co.Rows = append(co.Rows, []string{string(c.Rules), "", "", "", "", "", "", c.Error})
		}
		for _, s := range c.States {
			co.Rows = append(co.Rows, []string{string(c.Rules), string(s.State), f(s.Obligation, 1), f(s.Relocated, 0), f(s.Responsibility, 0), f(s.NetCostEUR, 0), f(s.RefusalEUR, 0), ""})
		}
	}
	ts = append(ts, co)
	if r.Replay != nil {
		re := Table{Name: "replay", Header: []string{"date", "state", "from", "value", "estimated", "published", "percent", "published_percent", "met", "certainty", "source"}}
		for _, c := range r.Replay.Checkpoints {
			pub := ""
			if c.Published != nil {
				pub = strconv.FormatInt(*c.Published, 10)
			}
			met := "" // nothing published to meet
			if c.Met != nil {
				met = strconv.FormatBool(*c.Met)
			}
			re.Rows = append(re.Rows, []string{c.Date, string(c.State), string(c.From), strconv.FormatInt(c.Value, 10), strconv.FormatBool(c.Estimated), pub, c.Percent, c.PublishedPercent, met, c.Certainty, c.Source})
		}
		ts = append(ts, re)
		cm := Table{Name: "compared", Header: []string{"date", "state", "from", "published", "replay", "deviation", "certainty", "source"}}
		for _, c := range r.Replay.Compared {
			cm.Rows = append(cm.Rows, []string{c.Date, string(c.State), string(c.From), strconv.FormatInt(c.Published, 10),
				strconv.FormatInt(c.Replay, 10), strconv.FormatInt(c.Deviation, 10), c.Certainty, c.Source})
		}
		ts = append(ts, cm)
	}
	de := Table{Name: "depends", Header: []string{"field", "assumed", "affects"}}
	for _, d := range r.DependsOn {
		de.Rows = append(de.Rows, []string{d.Field, f(d.Assumed, 4), strings.Join(d.Affects, "; ")})
	}
	ts = append(ts, de)
	return ts
}

// Table returns the named table, or false.
func (r *Result) Table(name string) (Table, bool) {
	for _, t := range r.Tables() {
		if t.Name == name {
			return t, true
		}
	}
	return Table{}, false
}

// Compare puts two results side by side: per state the obligation, the relocations,
// the net cost and the responsibility under each, and the Union's figures.
func Compare(a, b *Result) []Table {
	st := Table{Name: "compare-states", Header: []string{"state", "a_form", "b_form", "a_obligation", "b_obligation",
		"a_relocated_in", "b_relocated_in", "a_net_cost_eur", "b_net_cost_eur", "a_responsibility", "b_responsibility",
		"a_deviation_pp", "b_deviation_pp"}}
	idx := map[Code]StateResult{}
	for _, s := range b.States {
		idx[s.State] = s
	}
	seen := map[Code]bool{}
	row := func(x, y StateResult, c Code) []string {
		return []string{string(c), x.Form, y.Form, f(x.Obligation, 1), f(y.Obligation, 1), f(x.Relocated.Median, 0), f(y.Relocated.Median, 0),
			f(x.NetCost.Median, 0), f(y.NetCost.Median, 0), f(x.Responsibility.Median, 0), f(y.Responsibility.Median, 0),
			f(x.Deviation.Median, 3), f(y.Deviation.Median, 3)}
	}
	for _, s := range a.States {
		seen[s.State] = true
		st.Rows = append(st.Rows, row(s, idx[s.State], s.State))
	}
	for _, s := range b.States {
		if !seen[s.State] {
			st.Rows = append(st.Rows, row(StateResult{}, s, s.State))
		}
	}
	ua, _ := a.Table("union")
	ub, _ := b.Table("union")
	un := Table{Name: "compare-union", Header: []string{"metric", "a", "a_p5", "a_p95", "b", "b_p5", "b_p95"}}
	for i, r := range ua.Rows {
		un.Rows = append(un.Rows, append(append([]string{}, r...), ub.Rows[i][1:]...))
	}
	return []Table{st, un}
}
