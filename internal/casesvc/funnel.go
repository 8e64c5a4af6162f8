package casesvc

import (
	"slices"

	"solidarity"
	"solidarity/cases"
)

// The case funnel of an arrival (issue 14): how far its cases got, stage by stage:
// registered (every case the arrival opened) → screened → the procedure track
// (border or regular) → the way out of this Member State's hands (relocation,
// transfer to the responsible state, return) and decided (a first-instance decision).
// A case counts at a stage it reached, whatever happened after: the stages are read
// from the case's history of states and the flow's own columns (its track, its
// decision date), never from its current state alone.

// FunnelStage is one stage of the funnel and how many cases reached it.
type FunnelStage struct {
	Key   string `json:"key"`
	Label string `json:"label"` // a message: pages translate it
	// Parent is the stage this one narrows ("" for the first): the chart draws it
	// under its parent, the table indents it.
	Parent string `json:"parent,omitempty"`
	N      int    `json:"n"`
}

// funnelStage is a stage of the table below: reached says whether a case got there.
type funnelStage struct {
	key, label, parent string
	reached            func(f *Flow) bool
}

// States whose reaching puts a case on a way out (spec §8: the transfer and return
// states; the relocation steps are those the state table marks, state.Relocation).
var (
	transferStates = []cases.State{cases.TransferAgreed, cases.TransferDecisionNotified, cases.TransferAppeal,
		cases.TransferAppealSuspended, cases.TransferPending, cases.TransferredOut}
	returnStates = []cases.State{cases.ReferredReturn, cases.ReturnProcedure, cases.ReturnBorderProcedure,
		cases.NotReturned, cases.Returned}
)

// funnelStages is the funnel, in order. Labels are messages (the web package lists
// them for its catalogues through FunnelLabels).
var funnelStages = []funnelStage{
	{"registered", "Registered", "", func(*Flow) bool { return true }},
	// Screening ended: the case left the screening state (Art. 18 SR), to an
	// application or a referral to return.
	{"screened", "Screened", "registered", func(f *Flow) bool {
		return slices.ContainsFunc(f.History, func(t cases.Transition) bool { return t.From == cases.Screening && t.To != cases.Screening })
	}},
	{"border", "Border procedure", "screened", func(f *Flow) bool { return f.Track == cases.Border }},    // Arts. 43–54 APR
	{"regular", "Regular procedure", "screened", func(f *Flow) bool { return f.Track == cases.Regular }}, // Art. 53 APR
	{"relocation", "Relocation", "screened", func(f *Flow) bool {
		return reachedAny(f, func(s cases.State) bool { return s.Relocation().InRelocation() })
	}}, // Art. 67 AMMR
	{"transfer", "Transfer", "screened", func(f *Flow) bool {
		return reachedAny(f, func(s cases.State) bool { return slices.Contains(transferStates, s) })
	}}, // Arts. 42–46 AMMR
	{"return", "Return", "screened", func(f *Flow) bool {
		return reachedAny(f, func(s cases.State) bool { return slices.Contains(returnStates, s) })
	}},
	{"decided", "Decided", "screened", func(f *Flow) bool { return !f.Decided.IsZero() }},
}

// reachedAny reports whether the case is, or ever was, in a state for which in holds.
func reachedAny(f *Flow, in func(cases.State) bool) bool {
	if in(f.State) {
		return true
	}
	return slices.ContainsFunc(f.History, func(t cases.Transition) bool { return in(t.To) })
}

// FunnelLabels returns the stages' labels, for the message catalogues.
func FunnelLabels() []string {
	out := make([]string, len(funnelStages))
	for i, s := range funnelStages {
		out[i] = s.label
	}
	return out
}

// Funnel counts the cases recs (an arrival's, say) at every stage of the funnel.
// Reading the stored flows needs no permission beyond having the records. Errors:
// EINTERNAL for a stored flow that does not decode.
func Funnel(recs []*solidarity.CaseRecord) ([]FunnelStage, error) {
	out := make([]FunnelStage, len(funnelStages))
	for i, s := range funnelStages {
		out[i] = FunnelStage{Key: s.key, Label: s.label, Parent: s.parent}
	}
	for _, r := range recs {
		f, err := decodeFlow(r)
		if err != nil {
			return nil, err
		}
		for i, s := range funnelStages {
			if s.reached(f) {
				out[i].N++
			}
		}
	}
	return out, nil
}
