package casesvc

import (
	"context"
	"fmt"
	"time"

	"solidarity"
	"solidarity/deadline"
	"solidarity/internal/keyring"
	"solidarity/ledger"
)

// Consequence is a missed time limit's consequence applied (or left to an officer).
type Consequence struct {
	Case    solidarity.CaseID `json:"case"`
	Limit   string            `json:"limit"`
	Article string            `json:"article"`
	Due     time.Time         `json:"due"`
	// Event is the event recorded; "" when the law's consequence cannot be recorded
	// in the case's state and an officer must decide.
	Event   string `json:"event,omitempty"`
	Entry   int64  `json:"entry,omitempty"` // the ledger entry that recorded it
	Outcome string `json:"outcome"`
}

// ApplyMissed applies the consequences the law attaches to the time limits overdue at
// now (deadline.Missed): responsibility shifting after a missed transfer time limit
// (Art. 37(1) AMMR) or take charge time limit (Art. 39(1)), tacit acceptance (Art.
// 40), the end of the border procedure (Art. 51(2) APR), and so on. Each is an event
// recorded by the system, dated when the limit ran out, noting the limit missed. One
// run looks at the 1000 cases whose consequence is the most overdue (the store's
// next_consequence index); run it again for more. A case changed since it was read is
// left for the next run. Coordinator only (serve
// --apply-missed runs it periodically as the system).
func (s *Service) ApplyMissed(ctx context.Context) ([]Consequence, error) {
	if !solidarity.Can(user(ctx), solidarity.WriteCaseEvent, "") {
		return nil, denied(solidarity.WriteCaseEvent, "")
	}
	now := s.Now()
	var out []Consequence
	// Only the cases with a consequence to record: limits an officer must decide on
	// never hold the job back.
	f := solidarity.CaseFilter{Open: true, ConsequenceBefore: &now, Limit: 1000}
	recs, err := s.Store.Cases(ctx, f)
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		fl, err := decodeFlow(r)
		if err != nil {
			return nil, err
		}
		for _, m := range deadline.Missed(fl.Case, s.Limits, now) {
			c := Consequence{Case: r.ID, Limit: m.Due.Limit, Article: m.Due.Article, Due: m.Due.Due, Event: string(m.Event)}
			if m.Event == "" {
				continue // an officer must decide: shown in the deadline view
			}
			note := fmt.Sprintf("time limit %s (%s) missed: due %s", m.Due.Limit, m.Due.Article, m.Due.Due.Format(time.DateOnly))
			// The event is dated when the limit ran out, not when the job noticed.
			at := dueEnd(m.Due)
			if last := fl.Last(); at.Before(last) {
				at = last
			}
			a, err := s.apply(ctx, EventRequest{Case: r.ID, Event: m.Event, At: at}, "", note, r.Version)
			if err != nil {
				c.Outcome = "not applied: " + err.Error()
			} else {
				c.Entry, c.Outcome = a.Entry.Seq, m.Due.Consequence
			}
			out = append(out, c)
			break // the case moved: its other limits are computed afresh next time
		}
	}
	return out, nil
}

// Erased is what Erase did.
type Erased struct {
	ClosedBefore time.Time           `json:"closed_before"`
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
func (s *Service) Erase(ctx context.Context, retention time.Duration) (*Erased, error) {
	if !solidarity.Can(user(ctx), solidarity.EraseCases, "") {
		return nil, denied(solidarity.EraseCases, "")
	}
	if retention <= 0 {
		retention = s.Params.Retention
	}
	now := s.now()
	before := now.Add(-retention)
	res := &Erased{ClosedBefore: before}
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
func (s *Service) Reseal(ctx context.Context) (*Resealed, error) {
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
