package casesvc

import (
	"context"
	"fmt"
	"slices"
	"time"

	"solidarity"
	"solidarity/deadline"
	"solidarity/internal/keyring"
	"solidarity/ledger"
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
	Event string `json:"event,omitempty"`
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
		f := solidarity.CaseFilter{Open: true, ConsequenceBefore: &now, Limit: 1000}
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
			k := Consequence{Case: r.ID, Limit: m.Due.Limit, Article: m.Due.Article, Due: m.Due.Due, Event: string(m.Event),
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

// Erased is what Erase did.
type Erased struct {
	ClosedBefore time.Time           `json:"closed_before"`
	Retention    time.Duration       `json:"retention"` // the period after closing that ran
	Cases        []solidarity.CaseID `json:"cases"`
	Entries      []int64             `json:"entries"`
	// More is set when the call stopped at its batch limit with records left.
	More bool `json:"more,omitempty"`
}

// eraseBatches bounds one Erase call (batches of 500): a long backlog is erased over
// several calls, each answering in reasonable time.
const eraseBatches = 20

// Erase applies the retention rule: the personal records of cases closed more than
// Params.Retention before now are erased (the sealed record is removed; the flow, the
// case ID and the ledger's counts stay). Each batch of up to 500 cases is one
// cases.erased entry written with the erasure. Coordinator only.
//
// On a store that keeps a write-ahead log (SQLite) the log is then checkpointed and
// truncated, so that the erased ciphertext does not stay on the disk in it (also
// after an erasure that found nothing: it completes an earlier one).
func (s *Service) Erase(ctx context.Context, retention time.Duration) (*Erased, error) {
	if retention <= 0 {
		retention = s.Params.Retention
	}
	return s.eraseBefore(ctx, s.now().Add(-retention), retention)
}

// PreviewErase returns what Erase would erase now, erasing nothing: the cases (at
// most one call's batches; More when there are more) and the closing date before
// which they closed, to show before confirming with EraseConfirmed. Coordinator only.
func (s *Service) PreviewErase(ctx context.Context, retention time.Duration) (*Erased, error) {
	if !solidarity.Can(user(ctx), solidarity.EraseCases, "") {
		return nil, denied(solidarity.EraseCases, "")
	}
	if retention <= 0 {
		retention = s.Params.Retention
	}
	before := s.now().Add(-retention)
	res := &Erased{ClosedBefore: before, Retention: retention}
	f := solidarity.CaseFilter{ClosedBefore: &before, NotErased: true, Limit: 500}
	for range eraseBatches {
		recs, err := s.Store.Cases(ctx, f)
		if err != nil {
			return nil, err
		}
		for _, r := range recs {
			res.Cases = append(res.Cases, r.ID)
		}
		if len(recs) < f.Limit {
			return res, nil
		}
		f.After = recs[len(recs)-1].ID
	}
	res.More = true
	return res, nil
}

// EraseConfirmed erases what a preview (PreviewErase) showed and the user
// confirmed: the personal records of the cases closed before its ClosedBefore, as
// Erase does. Coordinator only.
func (s *Service) EraseConfirmed(ctx context.Context, preview *Erased) (*Erased, error) {
	if preview == nil || preview.ClosedBefore.IsZero() || preview.ClosedBefore.After(s.now()) {
		return nil, invalid("closed_before", "", "confirm an erasure previewed: its closing date, not in the future")
	}
	retention := preview.Retention
	if retention <= 0 {
		retention = s.now().Sub(preview.ClosedBefore)
	}
	return s.eraseBefore(ctx, preview.ClosedBefore, retention)
}

// eraseBefore is Erase of the cases closed before the given time, and the
// checkpoint after it.
func (s *Service) eraseBefore(ctx context.Context, before time.Time, retention time.Duration) (*Erased, error) {
	res, err := s.erase(ctx, before, retention)
	if err != nil {
		return nil, err
	}
	if err := s.checkpoint(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

// checkpointer is a store with a write-ahead log that can be emptied into the
// database file (sqlite.Store.Checkpoint).
type checkpointer interface {
	Checkpoint(ctx context.Context) error
}

// checkpoint empties the store's write-ahead log, where it has one.
func (s *Service) checkpoint(ctx context.Context) error {
	if c, ok := s.Store.(checkpointer); ok {
		return c.Checkpoint(ctx)
	}
	return nil
}

func (s *Service) erase(ctx context.Context, before time.Time, retention time.Duration) (*Erased, error) {
	if !solidarity.Can(user(ctx), solidarity.EraseCases, "") {
		return nil, denied(solidarity.EraseCases, "")
	}
	now := s.now()
	res := &Erased{ClosedBefore: before, Retention: retention}
	for range eraseBatches {
		recs, err := s.Store.Cases(ctx, solidarity.CaseFilter{ClosedBefore: &before, NotErased: true, Limit: 500})
		if err != nil {
			return nil, err
		}
		if len(recs) == 0 {
			return res, nil
		}
		p := solidarity.ErasurePayload{ClosedBefore: before, Erased: len(recs)}
		for _, r := range recs {
			r.Personal, r.Erased = "", now
			p.Cases = append(p.Cases, r.ID)
		}
		b, err := ledger.Payload(p)
		if err != nil {
			return nil, err
		}
		e := &solidarity.Entry{Cycle: now.Year(), Type: solidarity.CasesErased, Actor: actor(ctx), At: now,
			LegalBasis: "Art. 5(1)(e) GDPR", Payload: b}
		out, _, err := s.Store.AppendCase(ctx, "", e, &solidarity.CaseWrite{Update: recs}, nil)
		if err != nil {
			return nil, err
		}
		res.Cases = append(res.Cases, p.Cases...)
		res.Entries = append(res.Entries, out.Seq)
	}
	res.More = true
	return res, nil
}

// Resealed is what Reseal did.
type Resealed struct {
	Key     uint32              `json:"key"`
	Cases   []solidarity.CaseID `json:"cases"`
	Entries []int64             `json:"entries"`
}

// Reseal re-encrypts with the keyring's current key every personal record sealed with
// an older one (key rotation: add a key to the key file, reseal, then remove the old
// key). Each batch of up to 500 cases is one cases.resealed entry written with the
// records. Coordinator only.
// The write-ahead log is checkpointed afterwards, as after Erase: the records sealed
// with the old key do not stay in it.
func (s *Service) Reseal(ctx context.Context) (*Resealed, error) {
	res, err := s.reseal(ctx)
	if err != nil {
		return nil, err
	}
	if err := s.checkpoint(ctx); err != nil {
		return nil, err
	}
	return res, nil
}

func (s *Service) reseal(ctx context.Context) (*Resealed, error) {
	if !solidarity.Can(user(ctx), solidarity.EraseCases, "") {
		return nil, denied(solidarity.EraseCases, "")
	}
	cur := s.Keys.Current()
	res := &Resealed{Key: cur}
	f := solidarity.CaseFilter{NotErased: true, Limit: 500}
	for {
		page, err := s.Store.Cases(ctx, f)
		if err != nil {
			return nil, err
		}
		var todo []*solidarity.CaseRecord
		for _, r := range page {
			if k, ok := keyring.KeyOf(r.Personal); !ok || k == cur {
				continue
			}
			sealed, err := s.Keys.Reseal(r.Personal, personContext(r.ID))
			if err != nil {
				return nil, &solidarity.Error{Code: solidarity.EINTERNAL, Message: fmt.Sprintf("case %s: resealing: %v", r.ID, err)}
			}
			r.Personal = sealed
			todo = append(todo, r)
		}
		if len(todo) > 0 {
			p := solidarity.ResealPayload{Key: cur}
			for _, r := range todo {
				p.Cases = append(p.Cases, r.ID)
			}
			b, err := ledger.Payload(p)
			if err != nil {
				return nil, err
			}
			now := s.now()
			e := &solidarity.Entry{Cycle: now.Year(), Type: solidarity.CasesResealed, Actor: actor(ctx), At: now,
				LegalBasis: "Art. 32(1)(a) GDPR", Payload: b}
			out, _, err := s.Store.AppendCase(ctx, "", e, &solidarity.CaseWrite{Update: todo}, nil)
			if err != nil {
				return nil, err
			}
			res.Cases = append(res.Cases, p.Cases...)
			res.Entries = append(res.Entries, out.Seq)
		}
		if len(page) < f.Limit {
			return res, nil
		}
		f.After = page[len(page)-1].ID
	}
}
