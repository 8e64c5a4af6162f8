package web

import (
	"fmt"
	"strings"

	"solidarity/internal/i18n"

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

// legendItem is a class of the map. Colour is its colour; Fill what a region and the
// swatch are painted with: a pattern of the colour, hatched for every other class, so
// that neighbouring classes differ by more than colour (WCAG 1.4.1, 1.4.11).
type legendItem struct {
	Fill, Label string
	Colour      string
	Pattern     string // the pattern's id, "" for the shared unknown pattern
	Hatch       bool
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
		{Fill: "#d73027", Label: msg("below 25 %%")}, {Fill: "#fc8d59", Label: msg("25–50 %%")}, {Fill: "#fee08b", Label: msg("50–75 %%")},
		{Fill: "#d9ef8b", Label: msg("75–100 %%")}, {Fill: "#1a9850", Label: msg("100 %% or more")},
	}
	noObligation = legendItem{Fill: "#bcbddc", Label: msg("no obligation (benefitting or full deduction)")}
	unknownFill  = legendItem{Fill: "url(#unknown)", Label: msg("pledge unknown")}
	// pledgeColours are the legend's colours of the measures (solidarity.Measures: the
	// label is the table's): a new measure needs one here.
	pledgeColours = map[solidarity.PledgeType]string{
		solidarity.RelocationApplicants:    "#1b9e77",
		solidarity.RelocationBeneficiaries: "#66a61e",
		solidarity.Offset:                  "#7570b3",
		solidarity.Financial:               "#d95f02",
		solidarity.Alternative:             "#e7298a",
	}
	noPledge = legendItem{Fill: "#fff7bc", Label: msg("no pledge")}
)

// pledgeFill is the map's fill and legend label for a state whose largest pledge is of
// type t: the measure's colour and its label in the table of measures.
func pledgeFill(t solidarity.PledgeType) legendItem {
	m, ok := solidarity.MeasureOf(t)
	if !ok {
		return noPledge
	}
	return legendItem{Fill: pledgeColours[t], Label: m.Label}
}

// Captions and mode labels of the map (translated where shown).
var (
	mapModes = []struct{ mode, label string }{{ModeShare, msg("Fair share")}, {ModeCoverage, msg("Coverage")}, {ModePledge, msg("Pledge type")}}
	_        = []string{msg("Fair share under the reference key (Art. 66), percent"), msg("Pledges as a share of the obligation after deductions"), msg("Largest pledged type, valued in relocation-equivalents")}
)

// patterned turns the legend's colours into patterns (legendItem), hatching every
// other class, and returns the fill of each colour for the regions.
func patterned(mode string, items []legendItem) map[string]string {
	byColour := map[string]string{}
	for i := range items {
		it := &items[i]
		if strings.HasPrefix(it.Fill, "url(") {
			continue
		}
		it.Colour, it.Pattern, it.Hatch = it.Fill, fmt.Sprintf("class-%s-%d", mode, i), i%2 == 1
		it.Fill = "url(#" + it.Pattern + ")"
		byColour[it.Colour] = it.Fill
	}
	return byColour
}

func (s *Server) mapView(p *report.Pool, v view, l *i18n.Locale) (*mapView, error) {
	mode := v.Mode
	switch mode {
	case ModeShare, ModeCoverage, ModePledge:
	default:
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "mode", Message: fmt.Sprintf("unknown map mode %q (want share, coverage or pledge)", mode)}
	}
	mv := &mapView{Mode: mode, ViewBox: s.europe.ViewBox}
	for _, m := range mapModes {
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
			mv.Legend = append(mv.Legend, legendItem{Fill: c, Label: l.T("%s–%s %%", l.Float(step*float64(i), 1), l.Float(step*float64(i+1), 1))})
		}
	case ModeCoverage:
		mv.Caption = "Pledges as a share of the obligation after deductions"
		mv.Legend = append(append(append([]legendItem{}, coverage...), noObligation), unknownFill)
		for i := range mv.Legend {
			mv.Legend[i].Label = l.T(mv.Legend[i].Label)
		}
	case ModePledge:
		mv.Caption = "Largest pledged type, valued in relocation-equivalents"
		for _, t := range solidarity.PledgeTypes() {
			it := pledgeFill(t)
			it.Label = l.T(it.Label)
			mv.Legend = append(mv.Legend, it)
		}
		un := unknownFill
		un.Label = l.T(un.Label)
		mv.Legend = append(mv.Legend, un)
	}
	fills := patterned(mode, mv.Legend)

	for _, c := range s.europe.Countries {
		rg := region{State: string(c.State), Name: l.T(c.Name), Path: c.Path, Member: c.Member, Class: "region neighbour", Fill: "#e6e6e6"}
		if c.Member {
			rg.Class = "region member nonparticipating"
			rg.Fill = "#cccccc"
			rg.Title = l.T("%s: not in the participating set", l.T(c.Name))
			st, ok := p.State(string(c.State))
			if ok {
				rg.Participates = true
				rg.Class = "region member participating shaded"
				rg.Href = v.State(st.State)
				var colour string
				colour, rg.Value = fill(mode, st, step, l)
				rg.Fill = colour
				if f, ok := fills[colour]; ok {
					rg.Fill = f
				}
				rg.Title = l.T("%s: %s", l.T(st.Name), rg.Value)
			}
		}
		mv.Regions = append(mv.Regions, rg)
	}
	return mv, nil
}

func fill(mode string, st report.PoolState, step float64, l *i18n.Locale) (string, string) {
	switch mode {
	case ModeCoverage:
		// No obligation is a fact whatever the pledge: check it first.
		if !st.HasObligation {
			return noObligation.Fill, l.T("no obligation")
		}
		if !st.PledgeKnown {
			return unknownFill.Fill, l.T("pledge unknown")
		}
		c := f64(st.Coverage)
		i := min(int(c*4), 4)
		return coverage[i].Fill, l.T("coverage %s", l.Pct(c))
	case ModePledge:
		if !st.PledgeKnown {
			return unknownFill.Fill, l.T("pledge unknown")
		}
		f := pledgeFill(solidarity.PledgeType(st.DominantPledge))
		return f.Fill, l.T(f.Label)
	}
	v := f64(st.SharePercent)
	i := len(shareScale) - 1
	if step > 0 {
		i = min(int(v/step), len(shareScale)-1)
	}
	return shareScale[i], l.T("fair share %s %% (%d relocations)", l.Dec(string(*st.SharePercent), 4), st.FairShare)
}
