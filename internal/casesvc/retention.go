package casesvc

import (
	"context"
	"fmt"
	"time"

	"solidarity"
	"solidarity/internal/keyring"
	"solidarity/ledger"
)

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
