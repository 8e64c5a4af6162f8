package web

import (
	"net/url"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/casesvc"
	"solidarity/internal/i18n"
	"solidarity/match"
)

// The relocation proposal's explanation in the reader's language. The matching
// engine explains a placement as data (match.Explanation: IDs, places, dimensions by
// name, numbers) and as an English paragraph for the API and the CLI; the page says
// the data again here, one sentence per fact, through the request's locale.

func init() {
	// The dimension the case flow's proposals count in (casesvc's problem), and the
	// statuses of a solve, which the proposal's summary shows.
	messageSources = append(messageSources, func() []string {
		return []string{"persons", string(match.Optimal), string(match.Feasible), string(match.Infeasible)}
	})
}

// explanationView is what the page shows of an explanation.
type explanationView struct {
	*match.Explanation
	Anchor    string   // the family's row in the placements table
	Sentences []string // the explanation, sentence by sentence, translated
	Binding   []string // the rows that bind at the family's place, one line each
	// NextBestText is the cost of choosing the next-best place.
	NextBestText string
	// Breakdown is the score by component (Label a message), ScoreText the sum.
	Breakdown []componentRow
	ScoreText string
}

// componentRow is one component of a score: its value, weight and contribution.
type componentRow struct{ Key, Label, Value, Weight, Term string }

// newExplanationView says e in l.
func newExplanationView(l *i18n.Locale, e *match.Explanation) *explanationView {
	if e == nil {
		return nil
	}
	v := &explanationView{Explanation: e, Anchor: familyAnchor(solidarity.FamilyID(e.Family)), ScoreText: score(l, e.Score)}
	c, w, t := e.Components, e.Weights, e.Terms
	v.Breakdown = []componentRow{
		{"links", msg("Links"), score(l, c.Links), score(l, w.Links), score(l, t.Links)},
		{"preference", msg("Preference"), score(l, c.Preference), score(l, w.Preference), score(l, t.Preference)},
		{"integration", msg("Integration"), score(l, c.Integration), score(l, w.Integration), score(l, t.Integration)},
	}
	say := func(s string) { v.Sentences = append(v.Sentences, s) }
	if e.Placed {
		terms := []any{e.Family, placeLabel(e.Place, e.State), score(l, e.Score), score(l, c.Links), score(l, w.Links),
			score(l, c.Preference), score(l, w.Preference), score(l, c.Integration), score(l, w.Integration)}
		if e.Persons == 1 {
			say(l.T("Family %s (1 person) is placed in %s with score %s = links %s × weight %s + preference %s × weight %s + integration %s × weight %s.", terms...))
		} else {
			say(l.T("Family %s (%d persons) is placed in %s with score %s = links %s × weight %s + preference %s × weight %s + integration %s × weight %s.",
				append([]any{e.Family, e.Persons}, terms[1:]...)...))
		}
		if len(e.Binding) == 0 {
			say(l.T("No capacity binds there: it has room for another family of this size."))
		} else {
			say(l.T("Binding there: %s.", rowsLine(l, e.Binding)))
		}
		for _, b := range e.Better {
			if len(b.Rows) > 0 {
				say(l.T("%s scores higher (%s) but has no room for the family: %s.", placeLabel(b.Place, b.State), score(l, b.Score), rowsLine(l, b.Rows)))
			} else {
				say(l.T("%s scores higher (%s) and has room, but placing the family there would lower the total score.", placeLabel(b.Place, b.State), score(l, b.Score)))
			}
		}
	} else {
		why := whyText(l, e.WhyCode, e.Why)
		if e.Persons == 1 {
			say(l.T("Family %s (1 person) is not placed: %s.", e.Family, why))
		} else {
			say(l.T("Family %s (%d persons) is not placed: %s.", e.Family, e.Persons, why))
		}
		for _, b := range e.Full {
			say(l.T("%s has no room for the family: %s.", placeLabel(b.Place, b.State), rowsLine(l, b.Rows)))
		}
	}
	for _, b := range e.Binding {
		v.Binding = append(v.Binding, rowLine(l, b))
	}
	switch a := e.NextBest; {
	case a != nil:
		c := a.Components
		args := []any{placeLabel(a.Place, a.State), score(l, a.Score), score(l, c.Links), score(l, c.Preference), score(l, c.Integration)}
		if e.Placed {
			say(l.T("The next-best place is %s (score %s = links %s, preference %s, integration %s).", args...))
		} else {
			say(l.T("Its best compatible place is %s (score %s = links %s, preference %s, integration %s).", args...))
		}
		v.NextBestText = costLine(l, e, a)
		say(v.NextBestText)
		switch {
		case a.Feasible && a.Moved == 1:
			say(l.T("Choosing it would move one other family."))
		case a.Feasible && a.Moved > 1:
			say(l.T("Choosing it would move %d other families.", a.Moved))
		}
		if a.Unplaced > 0 {
			say(l.T("Choosing it would leave %d more persons unplaced.", a.Unplaced))
		}
	case e.Placed:
		say(l.T("There is no other compatible place."))
	}
	return v
}

// costLine says what choosing the alternative a would cost.
func costLine(l *i18n.Locale, e *match.Explanation, a *match.Alternative) string {
	switch {
	case !a.Feasible && len(a.Rows) > 0:
		return l.T("Choosing it is infeasible: the place has no room for the family: %s.", rowsLine(l, a.Rows))
	case !a.Feasible:
		// The solver's reason, by IDs and names (match.Index.Names), in English.
		return l.T("Choosing it is infeasible: %s.", a.Reason)
	case !a.Exact:
		return l.T("Choosing it would cost between %s and %s of the total score (not proven within the time limit).", score(l, a.CostAtLeast), score(l, a.Cost))
	case a.Cost < 1e-9 && a.Cost > -1e-9:
		return l.T("Choosing it would cost nothing (total %s).", score(l, a.Value))
	case a.Cost < 0:
		return l.T("Choosing it would raise the total score by %s (total %s instead of %s).", score(l, -a.Cost), score(l, a.Value), score(l, e.Value))
	}
	return l.T("Choosing it would lower the total score by %s (total %s instead of %s).", score(l, a.Cost), score(l, a.Value), score(l, e.Value))
}

// score prints a score briefly in l's form (2.75, 1, -0.5; at most four decimals).
func score(l *i18n.Locale, x float64) string {
	t := strconv.FormatFloat(x, 'f', 4, 64)
	t = strings.TrimRight(strings.TrimRight(t, "0"), ".")
	places := 0
	if i := strings.IndexByte(t, '.'); i >= 0 {
		places = len(t) - i - 1
	}
	if t == "-0" {
		x = 0
	}
	return l.Float(x, places)
}

// rowLine says one capacity row: the place's, a group's, or a state's minimum.
func rowLine(l *i18n.Locale, b match.Binding) string {
	dim := l.T(b.Dimension)
	switch {
	case b.Kind == "minimum":
		return l.T("the minimum intake of %s: %d %s placed, at least %d; the family counts %d", b.ID, b.Placed, dim, b.Capacity, b.Need)
	case b.Kind == "group" && b.Tight:
		return l.T("the capacity of group %s in %s is full: %d of %d used, the family needs %d", b.ID, dim, b.Placed, b.Capacity, b.Need)
	case b.Kind == "group":
		return l.T("the capacity of group %s in %s is nearly full: %d of %d used, the family needs %d", b.ID, dim, b.Placed, b.Capacity, b.Need)
	case b.Tight:
		return l.T("the capacity of %s in %s is full: %d of %d used, the family needs %d", b.ID, dim, b.Placed, b.Capacity, b.Need)
	}
	return l.T("the capacity of %s in %s is nearly full: %d of %d used, the family needs %d", b.ID, dim, b.Placed, b.Capacity, b.Need)
}

func rowsLine(l *i18n.Locale, rows []match.Binding) string {
	parts := make([]string, len(rows))
	for i, r := range rows {
		parts[i] = rowLine(l, r)
	}
	return strings.Join(parts, "; ")
}

// whyText says why a family is not placed, by its code; an unknown code falls back
// to the engine's English.
func whyText(l *i18n.Locale, code, why string) string {
	switch code {
	case match.WhyNoSolution:
		return l.T("there is no solution within the rules and the overrides")
	case match.WhyNoPlace:
		return l.T("it has no compatible place")
	case match.WhyAllFull:
		return l.T("every compatible place is full")
	case match.WhyNoGain:
		return l.T("placing it would not raise the total score: the places with room for it score it at zero or less")
	case match.WhyStopped:
		return l.T("the solver stopped before placing it")
	case casesvc.WhyMinor:
		return l.T("an unaccompanied minor: relocation waits for the best interests assessment; allocate by hand once it is made")
	}
	return why
}

// placeLabel names a place: its ID, with its Member State when that differs (the
// case flow's places are the states themselves).
func placeLabel(id string, st solidarity.MemberState) string {
	if st == "" || id == string(st) {
		return id
	}
	return id + " (" + string(st) + ")"
}

// hindsightView is what the page says of the year so far against its hindsight
// optimum: a headline (the ratio and whether the optimum is proven) and the figures.
type hindsightView struct {
	Headline, Detail string
}

// newHindsightView says h in l; nothing allocated yet is said as such.
func newHindsightView(l *i18n.Locale, h *casesvc.Hindsight) *hindsightView {
	if h == nil {
		return nil
	}
	if h.Families == 0 {
		return &hindsightView{Headline: l.T("Nothing was allocated this year yet: there is no hindsight to compare with.")}
	}
	proof := l.T("proven optimal")
	if h.Status != match.Optimal && h.Bound != nil {
		proof = l.T("not proven optimal; bound %s", score(l, *h.Bound))
	}
	return &hindsightView{
		Headline: l.T("Year so far: %s of the hindsight optimum (%s).", l.Pct(h.RatioPercent/100), proof),
		Detail: l.T("%d families allocated this year (%d persons): their placements score %s; the best placement of the same families into the same room (the persons allocated to each state this year) scores %s.",
			h.Families, h.Persons, score(l, h.Online), score(l, h.Value)),
	}
}

// potentialLine says the potentials of an explained family's state and next-best
// state.
func potentialLine(l *i18n.Locale, fp casesvc.FamilyPotential) string {
	if fp.State == "" {
		return ""
	}
	if fp.NextBest == "" {
		return l.T("Potential of %s: %s per person.", fp.State, score(l, fp.Potential))
	}
	return l.T("Potential of %s: %s per person; of the next-best state %s: %s per person.", fp.State, score(l, fp.Potential), fp.NextBest, score(l, fp.NextPotential))
}

// familyAnchor is the fragment of a family's row in the placements table.
func familyAnchor(f solidarity.FamilyID) string { return "family-" + url.PathEscape(string(f)) }
