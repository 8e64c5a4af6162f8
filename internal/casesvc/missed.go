package casesvc

import (
	"context"
	"fmt"
	"slices"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/deadline"
)

// Consequence is a missed time limit's consequence: to be applied (a preview),
// applied, or left to an officer.
type Consequence struct {
	Case    solidarity.CaseID `json:"case"`
	Limit   string            `json:"limit"`
	Article string            `json:"article"`
	Due     time.Time         `json:"due"`
	// Event is the event recorded; "" when the law's consequence cannot be recorded
	// in the case's state and an officer must decide.
	Event cases.Event `json:"event,omitempty"`
	// Version is the case's version the consequence was computed from: a
	// confirmation (Confirmed) names it, so that what is applied is what was shown.
	Version int64  `json:"version"`
	Entry   int64  `json:"entry,omitempty"` // the ledger entry that recorded it
	Outcome string `json:"outcome"`         // the legal consequence, or why it was not applied
}

// Confirmed names one consequence of a preview (PreviewMissed) that the user
// confirmed: the case, the limit missed and the case's version when previewed.
type Confirmed struct {
	Case    solidarity.CaseID `json:"case"`
	Limit   string            `json:"limit"`
	Version int64             `json:"version"`
}

// maxConfirmed bounds one confirmation: a preview has at most one consequence per
// case of the 1000 it reads.
const maxConfirmed = 1000

// PreviewMissed returns what ApplyMissed would record now, recording nothing: the
// consequences the law attaches to the time limits overdue at now (deadline.Missed),
// each with its case, limit, article, due and the legal consequence (Outcome), and
// the case version to confirm (ApplyConfirmed). Coordinator only.
func (s *Service) PreviewMissed(ctx context.Context) ([]Consequence, error) {
	return s.missed(ctx, nil, false)
}

// ApplyMissed applies the consequences the law attaches to the time limits overdue at
// now (deadline.Missed): responsibility shifting after a missed transfer time limit
// (Art. 37(1) AMMR) or take charge time limit (Art. 39(1)), tacit acceptance (Art.
// 40), the end of the border procedure (Art. 51(2) APR), and so on. Each is an event
// recorded by the system, dated when the limit ran out, noting the limit missed. One
// run looks at the 1000 cases whose consequence is the most overdue (the store's
// next_consequence index); run it again for more. A case changed since it was read is
// left for the next run. Coordinator only (serve --apply-missed runs it periodically
// as the system); a person applies a preview they confirmed (ApplyConfirmed).
func (s *Service) ApplyMissed(ctx context.Context) ([]Consequence, error) {
	return s.missed(ctx, nil, true)
}

// ApplyConfirmed applies the consequences of a preview that the user confirmed, and
// only those: each still overdue on a case not changed since the preview (otherwise
// it is reported "not applied" and nothing is recorded for it). An empty confirmation
// is EINVALID. Coordinator only.
func (s *Service) ApplyConfirmed(ctx context.Context, confirmed []Confirmed) ([]Consequence, error) {
	if !solidarity.Can(user(ctx), solidarity.WriteCaseEvent, "") {
		return nil, denied(solidarity.WriteCaseEvent, "")
	}
	switch {
	case len(confirmed) == 0:
		return nil, invalid("confirm", "", "no consequence confirmed: preview the consequences of missed time limits first, then confirm them")
	case len(confirmed) > maxConfirmed:
		return nil, invalid("confirm", "", "at most %d consequences per confirmation", maxConfirmed)
	}
	want := make(map[solidarity.CaseID]Confirmed, len(confirmed))
	for i, c := range confirmed {
		if c.Case == "" || c.Limit == "" || c.Version <= 0 {
			return nil, invalid(fmt.Sprintf("confirm[%d]", i), "", "a confirmed consequence names its case, limit and the case version previewed")
		}
		if _, dup := want[c.Case]; dup {
			return nil, invalid(fmt.Sprintf("confirm[%d]", i), "", "case %s is confirmed twice", c.Case)
		}
		want[c.Case] = c
	}
	return s.missed(ctx, want, true)
}

// missed computes (and, with apply, records) the consequences of missed time limits:
// of the cases the next_consequence index finds, or with confirm, of those cases
// only, each for the limit and version confirmed.
func (s *Service) missed(ctx context.Context, confirm map[solidarity.CaseID]Confirmed, apply bool) ([]Consequence, error) {
	if !solidarity.Can(user(ctx), solidarity.WriteCaseEvent, "") {
		return nil, denied(solidarity.WriteCaseEvent, "")
	}
	now := s.Now()
	var out []Consequence
	var recs []*solidarity.CaseRecord
	if confirm == nil {
		// Only the cases with a consequence to record: limits an officer must decide
		// on never hold the job back.
		f := solidarity.CaseFilter{Open: true, ConsequenceBefore: &now, Limit: solidarity.DefaultCaseLimit}
		var err error
		if recs, err = s.Store.Cases(ctx, f); err != nil {
			return nil, err
		}
	} else {
		ids := make([]solidarity.CaseID, 0, len(confirm))
		for id := range confirm {
			ids = append(ids, id)
		}
		slices.Sort(ids)
		for _, id := range ids {
			r, err := s.Store.Case(ctx, id)
			if solidarity.ErrorCode(err) == solidarity.ENOTFOUND {
				c := confirm[id]
				out = append(out, Consequence{Case: id, Limit: c.Limit, Version: c.Version, Outcome: "not applied: no such case"})
				continue
			} else if err != nil {
				return nil, err
			}
			recs = append(recs, r)
		}
	}
	for _, r := range recs {
		fl, err := decodeFlow(r)
		if err != nil {
			return nil, err
		}
		c, ok := confirm[r.ID]
		found := false
		for _, m := range deadline.Missed(fl.Case, s.Limits, now) {
			if m.Event == "" {
				continue // an officer must decide: shown in the deadline view
			}
			if confirm != nil && m.Due.Limit != c.Limit {
				continue
			}
			found = true
			k := Consequence{Case: r.ID, Limit: m.Due.Limit, Article: m.Due.Article, Due: m.Due.Due, Event: m.Event,
				Version: r.Version, Outcome: m.Due.Consequence}
			if ok && r.Version != c.Version {
				k.Outcome = fmt.Sprintf("not applied: case %s changed since the preview (version %d, previewed %d)", r.ID, r.Version, c.Version)
				out = append(out, k)
				break
			}
			if apply {
				note := fmt.Sprintf("time limit %s (%s) missed: due %s", m.Due.Limit, m.Due.Article, m.Due.Due.Format(time.DateOnly))
				// The event is dated when the limit ran out, not when the job noticed.
				at := dueEnd(m.Due)
				if last := fl.Last(); at.Before(last) {
					at = last
				}
				a, err := s.apply(ctx, EventRequest{Case: r.ID, Event: m.Event, At: at}, "", note, r.Version)
				if err != nil {
					k.Outcome = "not applied: " + err.Error()
				} else {
					k.Entry = a.Entry.Seq
				}
			}
			out = append(out, k)
			break // the case moves: its other limits are computed afresh next time
		}
		if ok && !found {
			out = append(out, Consequence{Case: r.ID, Limit: c.Limit, Version: c.Version,
				Outcome: "not applied: the limit is no longer missed with a consequence to record on this case"})
		}
	}
	return out, nil
}
