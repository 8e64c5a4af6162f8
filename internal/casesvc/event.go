package casesvc

import (
	"context"
	"fmt"
	"slices"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/ledgersvc"
	"solidarity/ledger"
)

// EventRequest asks to record a legal event on a case.
type EventRequest struct {
	Case  solidarity.CaseID `json:"case"`
	Event cases.Event       `json:"event"`
	// At is when the event happened; zero means now. It may not be in the future nor
	// before the case's previous event.
	At time.Time `json:"at,omitzero"`
	// Target is the Member State a take charge request, take back notification or
	// humanitarian request is sent to (Arts. 39, 41, 35 AMMR).
	Target solidarity.MemberState `json:"target,omitempty"`
	// Family applies the event to every open case of the family in the same state.
	// The relocation steps always do: a family is relocated together.
	Family bool `json:"family,omitempty"`
	// Also names more cases of the same benefitting (and allocated) state that the
	// same event reaches at the same time, as when the screening of a whole landing
	// starts: one entry records them all.
	Also []solidarity.CaseID `json:"also,omitempty"`
	Note string              `json:"note,omitempty"`
	// Determination records the criteria's outcome with a responsibility event.
	Determination *Determined `json:"determination,omitempty"`
}

// Applied is what an event changed.
type Applied struct {
	Entry    *solidarity.Entry        `json:"entry"`
	Cases    []*solidarity.CaseRecord `json:"cases"`
	Replayed bool                     `json:"replayed"`
}

// familyEvents are the relocation steps: they move the whole family.
var familyEvents = []cases.Event{cases.RelocationCandidate, cases.RelocationCleared, cases.RelocationInfo,
	cases.RelocationComplex, cases.RelocationConfirmation, cases.RelocationRefused, cases.RelocationAbandoned,
	cases.ArrivalNotified, cases.NoShow}

// relocationStateEvents are acts of the Member State of relocation (Art. 67: it
// confirms or not; Art. 68(1): it notifies arrival or non-appearance). All other
// events are acts of the benefitting Member State where the case runs.
var relocationStateEvents = []cases.Event{cases.RelocationConfirmation, cases.RelocationRefused,
	cases.RelocationComplex, cases.ArrivalNotified, cases.NoShow}

// requestEvents send the case to another Member State, named by Target.
var requestEvents = []cases.Event{cases.TakeChargeRequestSent, cases.TakeBackNotificationSent, cases.HumanitarianRequestSent}

func inRelocation(s cases.State) bool {
	switch s {
	case cases.RelocationIdentified, cases.RelocationSecurityCleared, cases.RelocationInfoSent, cases.RelocationConfirmed,
		cases.RelocationTransferDecided, cases.RelocationAppeal, cases.RelocationAppealSuspended, cases.RelocatedOut:
		return true
	}
	return false
}

// Apply records a legal event on a case (and on its family where the event moves
// families): the transition table decides whether the event is allowed in the case's
// state (ECONFLICT naming the allowed events if not), the event is dated, the case's
// flow, deadlines and responsible or allocated state are updated, and one ledger entry
// records the step of every case moved — all in one transaction, refused with
// ECONFLICT if any of the cases changed meanwhile.
//
// The transfer of a family to its Member State of relocation is recorded as a
// relocation.delivered entry for that state (Arts. 67–68): the cases' step and the
// delivery counted against the state's pledge are the same entry, flagged as an
// over-delivery when the pledge is exhausted.
//
// Officers of the benefitting state record its acts; the relocation state's officers
// record theirs (confirmation, arrival notice); the coordinator may record any.
func (s *Service) Apply(ctx context.Context, req EventRequest, idemKey string) (*Applied, error) {
	return s.apply(ctx, req, idemKey, "")
}

func (s *Service) apply(ctx context.Context, req EventRequest, idemKey, consequence string) (*Applied, error) {
	if !req.Event.Valid() {
		return nil, invalid("event", "", "unknown event %q", req.Event)
	}
	r, err := s.Store.Case(ctx, req.Case)
	if err != nil {
		return nil, err
	}
	f, err := decodeFlow(r)
	if err != nil {
		return nil, err
	}
	party := r.Benefitting
	if slices.Contains(relocationStateEvents, req.Event) {
		party = r.Allocated
	}
	if party == "" || !solidarity.Can(user(ctx), solidarity.WriteCaseEvent, party) {
		if !mayOnCase(ctx, solidarity.ReadCases, r) {
			return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Message: fmt.Sprintf("no case %s", req.Case)}
		}
		return nil, denied(solidarity.WriteCaseEvent, party)
	}
	now := s.now()
	at := req.At
	if at.IsZero() {
		at = now
	}
	at = ledger.Normalize(at)
	if at.After(now) {
		return nil, invalid("at", req.Event.Article(), "event %s dated %s is in the future", req.Event, at.Format(time.RFC3339))
	}
	if slices.Contains(requestEvents, req.Event) {
		if !req.Target.Valid() || req.Target == r.Benefitting {
			return nil, invalid("target", req.Event.Article(), "event %s needs the Member State it is sent to (not %q)", req.Event, req.Target)
		}
	} else if req.Target != "" {
		return nil, invalid("target", req.Event.Article(), "event %s is not sent to another Member State", req.Event)
	}
	if req.Event == cases.RelocationInfo && r.Allocated == "" {
		return nil, conflict("Art. 67 AMMR", "case %s is not allocated to a Member State of relocation yet: the coordinator allocates the family first", r.ID)
	}

	// The cases to move: this one, and its family where the event moves families.
	group := []*solidarity.CaseRecord{r}
	if req.Family || slices.Contains(familyEvents, req.Event) || (req.Event == cases.Transferred || req.Event == cases.TransferDecision) && inRelocation(f.State) {
		fam, err := s.family(ctx, r)
		if err != nil {
			return nil, err
		}
		group = fam
	}
	for _, id := range req.Also {
		if slices.ContainsFunc(group, func(c *solidarity.CaseRecord) bool { return c.ID == id }) {
			continue
		}
		c, err := s.Store.Case(ctx, id)
		if err != nil {
			return nil, err
		}
		if c.Benefitting != r.Benefitting || c.Allocated != r.Allocated {
			return nil, invalid("also", "", "case %s is not handled by the same Member States as case %s", id, r.ID)
		}
		group = append(group, c)
	}
	if len(group) > 10000 {
		return nil, invalid("also", "", "at most 10000 cases per event")
	}
	transfer := req.Event == cases.Transferred && f.State == cases.RelocationTransferDecided

	steps := make([]solidarity.CaseStep, 0, len(group))
	article := ""
	for _, c := range group {
		cf, err := decodeFlow(c)
		if err != nil {
			return nil, err
		}
		next, t, err := cases.Apply(cf.Case, req.Event, at)
		if err != nil {
			if e, ok := err.(*solidarity.Error); ok && c.ID != r.ID {
				e.Message = fmt.Sprintf("family member %s: %s", c.ID, e.Message)
			}
			return nil, err
		}
		article = t.Article
		cf.Case = next
		s.follow(c, cf, req)
		if err := s.setFlow(c, cf); err != nil {
			return nil, err
		}
		steps = append(steps, solidarity.CaseStep{Case: c.ID, From: string(t.From), To: string(t.To)})
	}
	target := req.Target
	if target == "" {
		target = r.Allocated
	}
	ev := solidarity.CaseEventPayload{Event: string(req.Event), Article: article, At: at, Family: r.Family,
		Steps: steps, Target: target, Note: req.Note}
	if consequence != "" {
		ev.Note = consequence
	}
	e := &solidarity.Entry{Cycle: at.Year(), Type: solidarity.CaseEvent, State: r.Benefitting, Ref: string(r.ID),
		Actor: actor(ctx), At: now, LegalBasis: article}
	var check func(solidarity.View) error
	if transfer {
		// The transfer is the delivery: counted for the state of relocation in the
		// cycle of the year it happened.
		m, n := r.Allocated, int64(len(group))
		d := solidarity.DeliveryPayload{Relocations: n, Reference: "relocation transfer of family " + string(r.Family), Transfer: &ev}
		e.Type, e.State = solidarity.RelocationDelivered, m
		e.LegalBasis = article + "; Arts. 67–68 AMMR"
		check = func(v solidarity.View) error {
			pledged, delivered, err := ledgersvc.RelocationRoom(ctx, v, e.Cycle, m)
			if err != nil {
				return err
			}
			// A transfer that happened is recorded whatever the pledge says; beyond the
			// pledge it is flagged, as an officer's delivery would have to be.
			d.OverDelivery = delivered+n > pledged
			e.Payload, err = ledger.Payload(d)
			return err
		}
		if e.Payload, err = ledger.Payload(d); err != nil {
			return nil, err
		}
	} else if e.Payload, err = ledger.Payload(ev); err != nil {
		return nil, err
	}
	out, replayed, err := s.Store.AppendCase(ctx, idemKey, e, &solidarity.CaseWrite{Update: group}, check)
	if err != nil {
		return nil, err
	}
	if replayed {
		group = group[:0]
		rec, err := s.Store.Case(ctx, r.ID)
		if err != nil {
			return nil, err
		}
		group = append(group, rec)
	}
	return &Applied{Entry: out, Cases: group, Replayed: replayed}, nil
}

// follow updates what the event changes besides the state: the requested and the
// responsible Member State, the allocation.
func (s *Service) follow(c *solidarity.CaseRecord, f *Flow, req EventRequest) {
	switch req.Event {
	case cases.TakeChargeRequestSent, cases.TakeBackNotificationSent, cases.HumanitarianRequestSent:
		f.Requested = req.Target
	case cases.RequestAccepted, cases.TacitAcceptance, cases.ReceiptConfirmed, cases.TacitConfirmation:
		// Arts. 40, 41(4), 45(2) AMMR: the requested state is responsible.
		c.Responsible = f.Requested
	case cases.CriteriaDesignateSelf, cases.ResponsibilityAssumed, cases.SecurityThreat:
		// Part III designates this state, it assumes responsibility (Art. 35), or the
		// security gate makes it responsible (Art. 16(4)).
		c.Responsible = c.Benefitting
	case cases.TakeChargeDeadlinePassed, cases.TransferDeadlinePassed:
		// Art. 39(1): a request not made in time leaves responsibility with the
		// determining state; Art. 37(1): a transfer not carried out in time shifts
		// it to the requesting state.
		c.Responsible = c.Benefitting
	case cases.ArrivalNotified:
		// Art. 68(2)–(3): the state of relocation determines or takes over.
		c.Responsible = c.Allocated
	case cases.RelocationRefused, cases.RelocationAbandoned:
		c.Allocated = ""
	case cases.AppealUpheld:
		if inRelocation(f.History[len(f.History)-1].From) {
			c.Allocated = ""
		}
	}
	if req.Determination != nil {
		d := *req.Determination
		f.Determination = &d
	}
}

// family returns the open cases of r's family that are in r's state, r first.
func (s *Service) family(ctx context.Context, r *solidarity.CaseRecord) ([]*solidarity.CaseRecord, error) {
	fam := r.Family
	all, err := s.Store.Cases(ctx, solidarity.CaseFilter{Arrival: &r.Arrival, Family: &fam, Open: true, Limit: 10000})
	if err != nil {
		return nil, err
	}
	out := []*solidarity.CaseRecord{r}
	for _, c := range all {
		if c.ID != r.ID && c.State == r.State && c.Allocated == r.Allocated {
			out = append(out, c)
		}
	}
	return out, nil
}

// Assign allocates a family of relocation candidates to a Member State of relocation
// (the coordinator's balanced distribution, Art. 60(2) AMMR; until the matching engine
// proposes, by hand). Every open case of the family must be identified or cleared for
// relocation (Art. 67(2)–(3)) and not yet confirmed; the state must not be the
// benefitting one and must have room: its relocation pledge for the year, less what it
// delivered and what is allocated to it and not yet transferred. Re-allocating before
// the information is sent is allowed. Coordinator only.
func (s *Service) Assign(ctx context.Context, id solidarity.CaseID, m solidarity.MemberState, idemKey string) (*Applied, error) {
	if !solidarity.Can(user(ctx), solidarity.AssignCase, m) {
		return nil, denied(solidarity.AssignCase, m)
	}
	if !m.Valid() {
		return nil, invalid("state", "Art. 67 AMMR", "unknown Member State %q", m)
	}
	r, err := s.Store.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	if m == r.Benefitting {
		return nil, invalid("state", "Art. 67 AMMR", "%s is the benefitting Member State of case %s", m, id)
	}
	group, err := s.family(ctx, r)
	if err != nil {
		return nil, err
	}
	const article = "Art. 60(2) AMMR; Art. 67 AMMR"
	steps := make([]solidarity.CaseStep, 0, len(group))
	for _, c := range group {
		st := cases.State(c.State)
		if st != cases.RelocationIdentified && st != cases.RelocationSecurityCleared {
			return nil, conflict(article, "case %s is %s: only relocation candidates not yet sent to a Member State of relocation can be allocated", c.ID, st)
		}
		c.Allocated = m
		steps = append(steps, solidarity.CaseStep{Case: c.ID, From: c.State, To: c.State})
	}
	now := s.now()
	year := now.Year()
	inflight, err := s.allocated(ctx, m, r.Family)
	if err != nil {
		return nil, err
	}
	n := int64(len(group))
	ev := solidarity.CaseEventPayload{Event: "relocation-allocated", Article: article, At: now, Family: r.Family,
		Steps: steps, Target: m}
	b, err := ledger.Payload(ev)
	if err != nil {
		return nil, err
	}
	e := &solidarity.Entry{Cycle: year, Type: solidarity.CaseEvent, State: r.Benefitting, Ref: string(r.ID),
		Actor: actor(ctx), At: now, LegalBasis: article, Payload: b}
	out, replayed, err := s.Store.AppendCase(ctx, idemKey, e, &solidarity.CaseWrite{Update: group}, func(v solidarity.View) error {
		pledged, delivered, err := ledgersvc.RelocationRoom(ctx, v, year, m)
		if err != nil {
			return err
		}
		if room := pledged - delivered - inflight; room < n {
			return conflict("Art. 56(2)(a) AMMR", "%s has room for %d more relocations in %d (pledged %d, delivered %d, allocated and not yet transferred %d): the family has %d members",
				m, max(room, 0), year, pledged, delivered, inflight, n)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Applied{Entry: out, Cases: group, Replayed: replayed}, nil
}

// allocated counts the open cases allocated to m and not yet transferred, leaving out
// family (which is being re-allocated).
func (s *Service) allocated(ctx context.Context, m solidarity.MemberState, family solidarity.FamilyID) (int64, error) {
	var n int64
	f := solidarity.CaseFilter{Involving: &m, Open: true, Limit: 10000}
	for {
		page, err := s.Store.Cases(ctx, f)
		if err != nil {
			return 0, err
		}
		for _, c := range page {
			if c.Allocated == m && c.Family != family && c.State != string(cases.RelocatedOut) {
				n++
			}
		}
		if len(page) < f.Limit {
			return n, nil
		}
		f.After = page[len(page)-1].ID
	}
}
