package web

import (
	"fmt"

	"solidarity"
	"solidarity/internal/report"
)

// Map modes of the dashboard.
const (
	ModeShare    = "share"    // fair share (key share)
	ModeCoverage = "coverage" // pledged / obligation
	ModePledge   = "pledge"   // the type with the largest pledged value
)

type region struct {
	State        string
	Name         string
	Path         string
	Member       bool
	Participates bool
	Fill         string
	Class        string
	Href         string
	Title        string
	Value        string
}

type legendItem struct {
	Fill, Label string
}

type mapView struct {
	Mode    string
	ViewBox string
	Regions []region
	Legend  []legendItem
	Modes   []link
	Caption string
}

// Sequential yellow-green-blue for shares (its lightest class stays distinct from the
// sea), and a diverging red→green for coverage; both readable
// in greyscale and by the common colour-vision deficiencies (ColorBrewer schemes).
var (
	shareScale = []string{"#ffffcc", "#c7e9b4", "#7fcdbb", "#41b6c4", "#2c7fb8", "#253494"}
	coverage   = []legendItem{
		{"#d73027", "below 25 %"}, {"#fc8d59", "25–50 %"}, {"#fee08b", "50–75 %"},
		{"#d9ef8b", "75–100 %"}, {"#1a9850", "100 % or more"},
	}
	noObligation = legendItem{"#bcbddc", "no obligation (benefitting or full deduction)"}
	unknownFill  = legendItem{"url(#unknown)", "pledge unknown"}
	// pledgeColours are the legend's colours of the measures (solidarity.Measures: the
	// label is the table's): a new measure needs one here.
	pledgeColours = map[solidarity.PledgeType]string{
		solidarity.RelocationApplicants:    "#1b9e77",
		solidarity.RelocationBeneficiaries: "#66a61e",
		solidarity.Offset:                  "#7570b3",
		solidarity.Financial:               "#d95f02",
		solidarity.Alternative:             "#e7298a",
	}
	noPledge = legendItem{"#fff7bc", "no pledge"}
)

// pledgeFill is the map's fill and legend label for a state whose largest pledge is of
// type t: the measure's colour and its label in the table of measures.
func pledgeFill(t solidarity.PledgeType) legendItem {
	m, ok := solidarity.MeasureOf(t)
	if !ok {
		return noPledge
	}
	return legendItem{pledgeColours[t], m.Label}
}

func (s *Server) mapView(p *report.Pool, v view) (*mapView, error) {
	mode := v.Mode
	switch mode {
	case ModeShare, ModeCoverage, ModePledge:
	default:
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "mode", Message: fmt.Sprintf("unknown map mode %q (want share, coverage or pledge)", mode)}
	}
	mv := &mapView{Mode: mode, ViewBox: s.europe.ViewBox}
	for _, m := range []struct{ mode, label string }{{ModeShare, "Fair share"}, {ModeCoverage, "Coverage"}, {ModePledge, "Pledge type"}} {
		mv.Modes = append(mv.Modes, link{Label: m.label, Mode: m.mode, Href: v.with("mode", m.mode).Pool(), Current: m.mode == mode})
	}

	// Share classes: six equal intervals from 0 to the largest share.
	var maxShare float64
	for _, st := range p.States {
		maxShare = max(maxShare, f64(st.SharePercent))
	}
	step := maxShare / float64(len(shareScale))
	switch mode {
	case ModeShare:
		mv.Caption = "Fair share under the reference key (Art. 66), percent"
		for i, c := range shareScale {
			mv.Legend = append(mv.Legend, legendItem{c, fmt.Sprintf("%.1f–%.1f %%", step*float64(i), step*float64(i+1))})
		}
	case ModeCoverage:
		mv.Caption = "Pledges as a share of the obligation after deductions"
		mv.Legend = append(append(append([]legendItem{}, coverage...), noObligation), unknownFill)
	case ModePledge:
		mv.Caption = "Largest pledged type, valued in relocation-equivalents"
		for _, t := range solidarity.PledgeTypes() {
			mv.Legend = append(mv.Legend, pledgeFill(t))
		}
		mv.Legend = append(mv.Legend, unknownFill)
	}

	for _, c := range s.europe.Countries {
		rg := region{State: string(c.State), Name: c.Name, Path: c.Path, Member: c.Member, Class: "region neighbour", Fill: "#e6e6e6"}
		if c.Member {
			rg.Class = "region member nonparticipating"
			rg.Fill = "#cccccc"
			rg.Title = c.Name + ": not in the participating set"
			st, ok := p.State(string(c.State))
			if ok {
				rg.Participates = true
				rg.Class = "region member participating shaded"
				rg.Href = v.State(st.State)
				rg.Fill, rg.Value = fill(mode, st, step)
				rg.Title = fmt.Sprintf("%s: %s", st.Name, rg.Value)
			}
		}
		mv.Regions = append(mv.Regions, rg)
	}
	return mv, nil
}

func fill(mode string, st report.PoolState, step float64) (string, string) {
	switch mode {
	case ModeCoverage:
		// No obligation is a fact whatever the pledge: check it first.
		if !st.HasObligation {
			return noObligation.Fill, "no obligation"
		}
		if !st.PledgeKnown {
			return unknownFill.Fill, "pledge unknown"
		}
		c := f64(st.Coverage)
		i := min(int(c*4), 4)
		return coverage[i].Fill, fmt.Sprintf("coverage %.1f %%", c*100)
	case ModePledge:
		if !st.PledgeKnown {
			return unknownFill.Fill, "pledge unknown"
		}
		f := pledgeFill(solidarity.PledgeType(st.DominantPledge))
		return f.Fill, f.Label
	}
	v := f64(st.SharePercent)
	i := len(shareScale) - 1
	if step > 0 {
		i = min(int(v/step), len(shareScale)-1)
	}
	return shareScale[i], fmt.Sprintf("fair share %s %% (%d relocations)", string(*st.SharePercent), st.FairShare)
}
