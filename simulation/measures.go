package simulation

import (
	"fmt"
	"math"
)

// Frontier is a state's pay-versus-relocate line: with obligation O and price p, a
// state relocating r persons pays (O − r) × p; one line per price of the rule sets
// that have one, and the point the scenario's choice takes.
type Frontier struct {
	State      Code         `json:"state"`
	Obligation float64      `json:"obligation"`
	Prices     []PricePoint `json:"prices"`
	// Chosen is the scenario's point: relocations planned and euro planned
	// (payments and alternative measures) at the scenario's price.
	ChosenRelocations float64 `json:"chosen_relocations"`
	ChosenEUR         float64 `json:"chosen_eur"`
}

// PricePoint is one price of the frontier and what paying everything costs at it.
type PricePoint struct {
	Rules  RuleSet `json:"rules"`
	Price  float64 `json:"price_eur"`
	AllEUR float64 `json:"all_paid_eur"`
}

func (m *Model) frontier() []Frontier {
	var prices []PricePoint
	for _, r := range ruleSets {
		if r.Price.Value > 0 {
			p := r.Price.Value
			if r.Set == m.Rules.Set {
				p = m.Params.Price.Value
			}
			prices = append(prices, PricePoint{Rules: r.Set, Price: p})
		}
	}
	var out []Frontier
	for i, c := range m.States {
		var o, rel, pay float64
		for y := range m.Years {
			o += m.oblig[y][i]
			rel += m.planReloc[y][i]
			pay += m.planPay[y][i] + m.planAlt[y][i]
		}
		if o <= 0 {
			continue
		}
		f := Frontier{State: c, Obligation: o, ChosenRelocations: rel, ChosenEUR: pay * m.Params.Price.Value}
		for _, p := range prices {
			p.AllEUR = o * p.Price
			f.Prices = append(f.Prices, p)
		}
		out = append(out, f)
	}
	return out
}

// RuleCost is what one rule set asks of each state for the same arrivals and
// choices, from the expected run.
type RuleCost struct {
	Rules  RuleSet     `json:"rules"`
	Title  string      `json:"title"`
	Error  string      `json:"error,omitempty"` // why this rule set cannot run the scenario
	States []StateCost `json:"states"`
}

// StateCost is one state's side of a RuleCost.
type StateCost struct {
	State          Code    `json:"state"`
	Obligation     float64 `json:"obligation"`
	Relocated      float64 `json:"relocated_in"`
	Responsibility float64 `json:"responsibility"`
	NetCostEUR     float64 `json:"net_cost_eur"`
	RefusalEUR     float64 `json:"refusal_cost_eur"`
}

// costs runs the scenario's expected run under each rule set: the same arrivals,
// states and choices, each rule set's own prices.
func (m *Model) costs() []RuleCost {
	var out []RuleCost
	for _, r := range ruleSets {
		rc := RuleCost{Rules: r.Set, Title: r.Title}
		mm := m
		if r.Set != m.Rules.Set {
			s := *m.S
			s.Rules = r.Set
			s.Observed = nil // the replay's deliveries belong to its own rules
			s.Params = RuleParams{Reference: m.Params.Reference, Proposal: m.Params.Proposal, Method: m.Params.Method}
			if m.Rules.Set == Council2015 {
				// The 2015 scheme's size is for its whole period; the other rule
				// sets ask their reference number every pool year.
				years := float64((m.S.Months + 11) / 12)
				s.Params.Reference.Value /= years
			}
			if r.Set != Council2015 {
				s.Commitments = nil
			}
			var err error
			if mm, err = Prepare(&s); err != nil {
				rc.Error = err.Error()
				out = append(out, rc)
				continue
			}
		}
		L := mm.layout()
		v := make([]float64, L.size())
		mm.run(false, mm.newScratch(), v)
		for i, c := range mm.States {
			var o float64
			for y := range mm.Years {
				o += mm.oblig[y][i]
			}
			rc.States = append(rc.States, StateCost{
				State: c, Obligation: o,
				Relocated:      v[L.state(i, sRelocIn)] + v[L.state(i, sCorrIn)],
				Responsibility: v[L.state(i, sResponsibility)],
				NetCostEUR:     v[L.state(i, sNetCostEUR)],
				RefusalEUR:     v[L.state(i, sRefusalEUR)],
			})
		}
		out = append(out, rc)
	}
	return out
}

func (m *Model) notes() []string {
	var n []string
	if m.S.Illustrative {
		n = append(n, "Illustrative scenario: not an official figure.")
	}
	if m.Rules.Set == AMMR2024 && m.S.Ops.OffsetsAtTransferRatio {
		n = append(n, fmt.Sprintf("Offsets count at the Dublin transfer ratio (%.0f %%): an offset is worth a transfer that would have happened.", 100*m.offsetVal))
	}
	if m.Rules.Set == AMMR2024 && m.Params.Reference.Value < MinReference {
		n = append(n, fmt.Sprintf("The reference number (%s) is below the 30 000 the Commission must at least propose (Art. 12(2)(a)).", group(m.Params.Reference.Value)))
	}
	if len(m.otherForms2015) > 0 {
		n = append(n, fmt.Sprintf("The 2015 Decisions know only relocation: what %s would pay, offset or give instead counts as not relocated.", joinCodes(m.otherForms2015)))
	}
	if m.Rules.Set == AMMR2024 && m.refusing() {
		n = append(n, "A refusal is shown at the price of the financial contribution it leaves unpaid (Art. 64(2)): the Regulation lets a state choose the form of its contribution (Art. 56(2)), not whether to make one.")
	}
	if m.Rules.Set == AMMR2024 && m.offsetting() {
		n = append(n, "Offsets count as pledged; the conditions of Art. 63 (the Commission's assessment, the benefitting state's request) are not modelled.")
	}
	if k, est := m.estimatedArrivals(); est > 0 {
		n = append(n, fmt.Sprintf("%d of the %d arrival figures are estimated (a yearly figure spread over its months, or a split by nationality shares).", est, k))
	}
	if m.Rules.Set == Council2015 && m.S.Months > 12 {
		n = append(n, fmt.Sprintf("The cost of the other rule sets asks the scheme's size spread over the period's %d pool years (%s a year).", (m.S.Months+11)/12, group(m.Params.Reference.Value/float64((m.S.Months+11)/12))))
	}
	if m.Rules.Set == DublinOnly {
		n = append(n, "Dublin only: no solidarity; responsibility stays where people arrive.")
	}
	return n
}

func group(x float64) string {
	s := fmt.Sprintf("%.0f", math.Round(x))
	out := []byte{}
	for i := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			out = append(out, ' ')
		}
		out = append(out, s[i])
	}
	return string(out)
}

func joinCodes(cs []Code) string {
	out := ""
	for i, c := range cs {
		if i > 0 {
			out += ", "
		}
		out += string(c)
	}
	return out
}

// refusing reports whether any state's plan refuses part of its obligation.
func (m *Model) refusing() bool { return m.anyPlan(m.planRefuse) }

// offsetting reports whether any state's plan offsets part of its obligation.
func (m *Model) offsetting() bool { return m.anyPlan(m.planOffset) }

func (m *Model) anyPlan(p [][]float64) bool {
	for _, y := range p {
		for _, v := range y {
			if v > 1e-9 {
				return true
			}
		}
	}
	return false
}

// estimatedArrivals counts the arrival rows and those not published as they stand.
func (m *Model) estimatedArrivals() (rows, estimated int) {
	for _, a := range m.S.Arrivals {
		rows++
		if a.Estimated {
			estimated++
		}
	}
	return rows, estimated
}
