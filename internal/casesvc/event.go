package casesvc

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/ledger"
)

// EventRequest asks to record a legal event on a case.
type EventRequest struct {
	Case  solidarity.CaseID `json:"case"`
	Event cases.Event       `json:"event"`
	// At is when the event happened; zero means now (a time read from outside is
	// never zero: ParseAt). It may not be in the future (beyond arrival.MaxClockSkew),
	// before arrival.MinTime nor before the case's previous event.
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

// ParseAt reads the time of an event or an arrival given from outside (the API, a
// form, the CLI's --at): an RFC 3339 time, a UTC time as YYYY-MM-DDTHH:MM or
// YYYY-MM-DDTHH:MM:SS, or a day (midnight UTC). Empty is the zero time, which
// EventRequest reads as now; anything else must be a time arrival.TimeProblem
// accepts, bar the future, which the service checks with its clock: 0001-01-01 is
// refused, never read as now. field names the input in the error.
func ParseAt(field, v string) (time.Time, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04", "2006-01-02T15:04:05", time.DateOnly} {
		t, err := time.ParseInLocation(layout, v, time.UTC)
		if err != nil {
			continue
		}
		if p := arrival.TimeProblem(t, time.Time{}); p != "" {
			return time.Time{}, invalid(field, "", "%s %s", field, p)
		}
		return t, nil
	}
	return time.Time{}, invalid(field, "", "%s: want an RFC 3339 time, YYYY-MM-DDTHH:MM (UTC) or YYYY-MM-DD", field)
}

// Applied is what an event changed.
type Applied struct {
	Entry    *solidarity.Entry        `json:"entry"`
	Cases    []*solidarity.CaseRecord `json:"cases"`
	Replayed bool                     `json:"replayed"`
}

const (
	maxAlso = 10000 // cases one event may name besides its own
	maxNote = 2000  // characters of an officer's note
)

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
	return s.apply(ctx, req, idemKey, "", 0)
}

// apply is Apply. A request retried under its idempotency key after it succeeded is
// answered as a replay even though the case has moved on since (see replay).
//
// consequence, when set, is the system's note on a missed time limit, and expect the
// case version the consequence was computed from (0: any).
func (s *Service) apply(ctx context.Context, req EventRequest, idemKey, consequence string, expect int64) (*Applied, error) {
	a, stored, err := s.applyEvent(ctx, req, idemKey, consequence, expect)
	if err != nil && idemKey != "" && !stored && movedOn(err) {
		// Refused before the store saw the key: a retry of a request that succeeded
		// finds the case moved on (or no longer visible to the actor, who may have
		// handed it on). Ask the store whether the key recorded this request: its
		// fingerprint includes the actor, so only the same user's same request matches.
		if r, rerr := s.Store.Case(ctx, req.Case); rerr == nil {
			if e, ok := s.replay(ctx, idemKey, requestEntry(ctx, "event", r, req)); ok {
				return &Applied{Entry: e, Replayed: true}, nil
			}
		}
	}
	return a, err
}

// movedOn reports whether a refusal could be a retry finding the case changed by the
// request it retries: only then is the store asked (through the writer) for a replay.
func movedOn(err error) bool {
	c := solidarity.ErrorCode(err)
	return c == solidarity.ECONFLICT || c == solidarity.ENOTFOUND
}

// requestEntry is the entry a request starts as: its kind and the request as the
// caller sent it, on the case. The store fingerprints it for the idempotency key, so
// a retry matches however the case moved since; the check then fills in the
// transition actually recorded.
func requestEntry(ctx context.Context, kind string, r *solidarity.CaseRecord, req any) *solidarity.Entry {
	p, err := ledger.Payload(map[string]any{kind: req})
	if err != nil {
		p = []byte(`{}`)
	}
	return &solidarity.Entry{Type: solidarity.CaseEvent, State: r.Benefitting, Ref: string(r.ID), Actor: actor(ctx), Payload: p}
}

var errNoReplay = errors.New("casesvc: not a replay")

// replay asks the store whether idemKey already recorded the request e: it appends e
// under the key with a check that refuses, so nothing is ever written; a stored entry
// of the same request comes back as a replay.
func (s *Service) replay(ctx context.Context, idemKey string, e *solidarity.Entry) (*solidarity.Entry, bool) {
	e.At = s.now()
	out, replayed, err := s.Store.AppendCase(ctx, idemKey, e, nil, func(solidarity.View) error { return errNoReplay })
	if err != nil || !replayed {
		return nil, false
	}
	return out, true
}

// applyEvent is apply without the late replay; stored reports whether the error came
// from the store's append (which looked at the idempotency key).
func (s *Service) applyEvent(ctx context.Context, req EventRequest, idemKey, consequence string, expect int64) (_ *Applied, stored bool, err error) {
	sc, err := s.checkEvent(ctx, req, expect)
	if err != nil {
		return nil, false, err
	}
	group, err := s.movedCases(ctx, req, sc)
	if err != nil {
		return nil, false, err
	}
	steps, article, err := s.step(ctx, req, sc, group)
	if err != nil {
		return nil, false, err
	}
	e, check, err := s.eventEntry(ctx, req, sc, eventRecord{group: group, steps: steps, article: article, consequence: consequence})
	if err != nil {
		return nil, false, err
	}
	out, replayed, err := s.Store.AppendCase(ctx, idemKey, e, &solidarity.CaseWrite{Update: group}, check)
	if err != nil {
		return nil, true, err
	}
	if replayed {
		rec, err := s.Store.Case(ctx, sc.r.ID)
		if err != nil {
			return nil, false, err
		}
		group = []*solidarity.CaseRecord{rec}
	}
	return &Applied{Entry: out, Cases: group, Replayed: replayed}, true, nil
}

// eventScope is a request read against the case it names.
type eventScope struct {
	r       *solidarity.CaseRecord
	f       *Flow
	party   solidarity.MemberState // whose act the event is: the benefitting state or the state of relocation
	now, at time.Time              // the entry's time and the event's
	family  bool                   // the event moves the whole family
}

// checkEvent reads the case req names and checks the request against it before any
// case moves: the event, who may record it on this case, the other cases named, the
// note, the date, the target and the allocation the event needs.
func (s *Service) checkEvent(ctx context.Context, req EventRequest, expect int64) (*eventScope, error) {
	if req.Event == "" {
		return nil, invalid("event", "", "no event chosen: choose the legal event to record on case %s", req.Case)
	}
	if !req.Event.Valid() {
		return nil, invalid("event", "", "unknown event %q", req.Event)
	}
	if req.Event.By() == cases.ByCoordinator {
		// The allocation draws on a pledge: Assign checks the room.
		return nil, invalid("event", req.Event.Article(), "event %s is the coordinator's: allocate the family instead", req.Event)
	}
	r, err := s.Store.Case(ctx, req.Case)
	if err != nil {
		return nil, err
	}
	f, err := decodeFlow(r)
	if err != nil {
		return nil, err
	}
	if !mayOnCase(ctx, solidarity.ReadCases, r) {
		return nil, solidarity.CaseNotFound(req.Case)
	}
	if expect != 0 && r.Version != expect {
		return nil, conflict("", "case %s changed since its time limits were read", r.ID)
	}
	sc := &eventScope{r: r, f: f, party: r.Benefitting, family: req.Family || req.Event.MovesFamily(f.State)}
	if req.Event.By() == cases.ByRelocation {
		if r.Allocated == "" {
			return nil, conflict("Art. 67 AMMR", "case %s is not allocated to a Member State of relocation: event %s is that state's act", r.ID, req.Event)
		}
		sc.party = r.Allocated
	}
	if !solidarity.Can(user(ctx), solidarity.WriteCaseEvent, sc.party) {
		return nil, denied(solidarity.WriteCaseEvent, sc.party)
	}
	if len(req.Also) > maxAlso {
		return nil, invalid("also", "", "at most %d cases per event", maxAlso)
	}
	if sc.family && len(req.Also) > 0 {
		return nil, invalid("also", req.Event.Article(), "event %s moves whole families: name one case of each family in its own request", req.Event)
	}
	if len(req.Note) > maxNote {
		return nil, invalid("note", "", "a note is at most %d characters", maxNote)
	}
	if p := arrival.TextProblem(req.Note); p != "" {
		return nil, invalid("note", "", "the note is not valid UTF-8 text without control characters: %s", p)
	}
	sc.now = s.now()
	if sc.at, err = eventTime(req, sc.now); err != nil {
		return nil, err
	}
	if req.Event.SentToAnotherState() {
		if !req.Target.Valid() || req.Target == r.Benefitting {
			return nil, invalid("target", req.Event.Article(), "event %s needs the Member State it is sent to (not %q)", req.Event, req.Target)
		}
	} else if req.Target != "" {
		return nil, invalid("target", req.Event.Article(), "event %s is not sent to another Member State", req.Event)
	}
	if req.Event.NeedsAllocation() && r.Allocated == "" {
		return nil, conflict("Art. 67 AMMR", "case %s is not allocated to a Member State of relocation yet: the coordinator allocates the family first", r.ID)
	}
	return sc, nil
}

// eventTime is when the event of req happened, normalised as the ledger keeps times:
// now if the request leaves it zero, and not in the future beyond the clock skew
// arrival.TimeProblem allows (within it, now).
func eventTime(req EventRequest, now time.Time) (time.Time, error) {
	at := req.At
	if at.IsZero() {
		at = now // a caller's "now"; a time read from outside is never zero (ParseAt)
	}
	at = ledger.Normalize(at)
	if p := arrival.TimeProblem(at, now); p != "" {
		return time.Time{}, invalid("at", req.Event.Article(), "event %s: at %s", req.Event, p)
	}
	if at.After(now) {
		at = now // within the clock skew allowed: recorded as now
	}
	return at, nil
}

// movedCases returns the cases the event moves, the named case first: its family
// where the event moves families, and the other cases the request names, which must
// be handled by the same Member States.
func (s *Service) movedCases(ctx context.Context, req EventRequest, sc *eventScope) ([]*solidarity.CaseRecord, error) {
	r := sc.r
	group := []*solidarity.CaseRecord{r}
	if sc.family {
		var err error
		if group, err = s.familyFor(ctx, r, func(c *solidarity.CaseRecord) bool {
			return cases.Can(c.State, req.Event)
		}, "event "+string(req.Event)+" is not allowed in its state"); err != nil {
			return nil, err
		}
	}
	for _, id := range req.Also {
		if slices.ContainsFunc(group, func(c *solidarity.CaseRecord) bool { return c.ID == id }) {
			continue
		}
		c, err := s.Store.Case(ctx, id)
		if err != nil || !mayOnCase(ctx, solidarity.ReadCases, c) {
			return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "also", Message: fmt.Sprintf("no case %s", id)}
		}
		if c.Benefitting != r.Benefitting || c.Allocated != r.Allocated {
			return nil, invalid("also", "", "case %s is not handled by the same Member States as case %s", id, r.ID)
		}
		group = append(group, c)
	}
	return group, nil
}

// step applies the event to every case of group through the transition table, with
// what it changes besides the state (follow) and the officer's note on the named case,
// and returns each case's step and the article of the transition.
func (s *Service) step(ctx context.Context, req EventRequest, sc *eventScope, group []*solidarity.CaseRecord) ([]solidarity.CaseStep, string, error) {
	steps := make([]solidarity.CaseStep, 0, len(group))
	article := ""
	for _, c := range group {
		cf, err := decodeFlow(c)
		if err != nil {
			return nil, "", err
		}
		next, t, err := cases.Apply(cf.Case, req.Event, sc.at)
		if err != nil {
			if e, ok := err.(*solidarity.Error); ok && c.ID != sc.r.ID {
				e.Message = fmt.Sprintf("family member %s: %s", c.ID, e.Message)
			}
			return nil, "", err
		}
		article = t.Article
		cf.Case = next
		s.follow(c, cf, req)
		if req.Note != "" && c.ID == sc.r.ID {
			if err := s.addNote(ctx, c, sc.at, req.Event, req.Note); err != nil {
				return nil, "", err
			}
		}
		if err := s.setFlow(c, cf); err != nil {
			return nil, "", err
		}
		steps = append(steps, solidarity.CaseStep{Case: c.ID, From: t.From, To: t.To})
	}
	return steps, article, nil
}

// eventRecord is what the ledger entry of an event records: the cases moved, their
// steps, the transition's article and the system's note on a missed time limit.
type eventRecord struct {
	group       []*solidarity.CaseRecord
	steps       []solidarity.CaseStep
	article     string
	consequence string
}

// eventEntry returns the ledger entry of the event, as the request (for the
// idempotency fingerprint), and the check that makes it the transition recorded in
// the appending transaction: a case.event entry, or the relocation.delivered entry
// of a transfer to the Member State of relocation.
func (s *Service) eventEntry(ctx context.Context, req EventRequest, sc *eventScope, rec eventRecord) (*solidarity.Entry, func(solidarity.View) error, error) {
	r := sc.r
	target := req.Target
	if target == "" {
		target = r.Allocated
	}
	// Officers' notes may hold personal data: they go into the sealed record (step),
	// never into the ledger, which keeps only the system's note on a missed limit.
	ev := solidarity.CaseEventPayload{Event: string(req.Event), Article: rec.article, At: sc.at, Family: r.Family,
		Steps: rec.steps, Target: target, Note: rec.consequence}
	e := requestEntry(ctx, "event", r, req)
	e.At = sc.now
	// The entry is about the state whose act it is: the state of relocation's own acts
	// show in its officers' ledger view.
	cycle, err := s.caseCycle(ctx, r, sc.at)
	if err != nil {
		return nil, nil, err
	}
	final := solidarity.Entry{Cycle: cycle, Type: solidarity.CaseEvent, State: sc.party, LegalBasis: rec.article}
	fill := func(solidarity.View) error { return nil }
	// The transfer to the Member State of relocation (the step out of the relocation
	// steps into Relocated) is the delivery counted against its pledge.
	if rule, _ := cases.Lookup(sc.f.State, req.Event); rule.From.Relocation() == cases.Relocating && rule.To.Relocation() == cases.Relocated {
		fill = s.delivery(ctx, &final, &ev, r, int64(len(rec.group)))
	} else if final.Payload, err = ledger.Payload(ev); err != nil {
		return nil, nil, err
	}
	check := func(v solidarity.View) error {
		if err := fill(v); err != nil {
			return err
		}
		e.Cycle, e.Type, e.State, e.LegalBasis, e.Payload = final.Cycle, final.Type, final.State, final.LegalBasis, final.Payload
		return nil
	}
	return e, check, nil
}

// delivery makes final the relocation.delivered entry of the transfer ev of n
// members of r's family to their Member State of relocation, counted in the cycle of
// the year it happened (a demonstration's in its own cycle); the function returned
// fills in its payload in the appending transaction, flagged as an over-delivery
// when the pledge is exhausted.
func (s *Service) delivery(ctx context.Context, final *solidarity.Entry, ev *solidarity.CaseEventPayload, r *solidarity.CaseRecord, n int64) func(solidarity.View) error {
	m := r.Allocated
	d := solidarity.DeliveryPayload{Relocations: n, Reference: "relocation transfer of family " + string(r.Family), Transfer: ev}
	final.Type, final.State = solidarity.RelocationDelivered, m
	if del, _, ok := solidarity.DeliveryOf(solidarity.RelocationDelivered); ok {
		final.LegalBasis += "; " + del.Article.String() // the delivery's articles, from the table of measures
	}
	return func(v solidarity.View) error {
		pledged, delivered, err := s.Ledger.RelocationRoom(ctx, v, final.Cycle, m)
		if err != nil {
			return err
		}
		// A transfer that happened is recorded whatever the pledge says; beyond the
		// pledge it is flagged, as an officer's delivery would have to be.
		d.OverDelivery = delivered+n > pledged
		final.Payload, err = ledger.Payload(d)
		return err
	}
}

// follow updates what the event changes besides the state (the event's columns in
// the table of events): the requested and the responsible Member State, the
// allocation.
func (s *Service) follow(c *solidarity.CaseRecord, f *Flow, req EventRequest) {
	if req.Event.SentToAnotherState() {
		f.Requested = req.Target
	}
	switch req.Event.Responsible() {
	case cases.RequestedResponsible:
		c.Responsible = f.Requested
	case cases.BenefittingResponsible:
		c.Responsible = c.Benefitting
	case cases.RelocationResponsible:
		// Art. 68(2): where none was determined, the state of relocation determines
		// it, so it stays open here.
		if c.Responsible == c.Benefitting {
			c.Responsible = c.Allocated
		}
	}
	// Leaving the relocation steps other than by transfer (refusal, abandonment, an
	// upheld appeal, a security threat: Art. 67(2)) ends the allocation: the state of
	// relocation no longer sees the person nor holds a place for them.
	if !f.State.Relocation().InRelocation() {
		c.Allocated = ""
	}
	if req.Determination != nil {
		d := *req.Determination
		f.Determination = &d
	}
}

// familyFor returns r and the other open members of its family that the step
// concerns (ok), r first. A member the step cannot take is refused with ECONFLICT
// naming it (why says why), so that a family is never split silently — except a member
// excluded from relocation by the security gate (Art. 67(2) AMMR), who stays behind.
func (s *Service) familyFor(ctx context.Context, r *solidarity.CaseRecord, ok func(*solidarity.CaseRecord) bool, why string) ([]*solidarity.CaseRecord, error) {
	fam := r.Family
	all, err := s.Store.Cases(ctx, solidarity.CaseFilter{Arrival: &r.Arrival, Family: &fam, Open: true, Limit: solidarity.MaxCaseLimit})
	if err != nil {
		return nil, err
	}
	out := []*solidarity.CaseRecord{r}
	for _, c := range all {
		switch {
		case c.ID == r.ID:
		case c.State.Relocation() == cases.Excluded:
		case c.Allocated == r.Allocated && ok(c):
			out = append(out, c)
		default:
			return nil, conflict("Art. 67 AMMR", "family member %s is %s: %s; a family moves together, so bring it to the same step first", c.ID, c.State, why)
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
	a, stored, err := s.assign(ctx, id, m, idemKey)
	if err != nil && idemKey != "" && !stored && solidarity.Can(user(ctx), solidarity.AssignCase, m) {
		// Refused before the store saw the key: a retry of an allocation that
		// succeeded may find the family moved on.
		if r, rerr := s.Store.Case(ctx, id); rerr == nil {
			if e, ok := s.replay(ctx, idemKey, allocationEntry(ctx, r, id, m)); ok {
				return &Applied{Entry: e, Cases: []*solidarity.CaseRecord{r}, Replayed: true}, nil
			}
		}
	}
	return a, err
}

// allocationEntry is the entry an allocation request starts as (requestEntry).
func allocationEntry(ctx context.Context, r *solidarity.CaseRecord, id solidarity.CaseID, m solidarity.MemberState) *solidarity.Entry {
	return requestEntry(ctx, "allocation", r, struct {
		Case  solidarity.CaseID      `json:"case"`
		State solidarity.MemberState `json:"state"`
	}{id, m})
}

func (s *Service) assign(ctx context.Context, id solidarity.CaseID, m solidarity.MemberState, idemKey string) (_ *Applied, stored bool, err error) {
	if !solidarity.Can(user(ctx), solidarity.AssignCase, m) {
		return nil, false, denied(solidarity.AssignCase, m)
	}
	if !m.Valid() {
		return nil, false, invalid("state", "Art. 67 AMMR", "unknown Member State %q", m)
	}
	r, err := s.Store.Case(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if m == r.Benefitting {
		return nil, false, invalid("state", "Art. 67 AMMR", "%s is the benefitting Member State of case %s", m, id)
	}
	article := cases.RelocationAllocated.Article()
	candidate := func(c *solidarity.CaseRecord) bool { return cases.Can(c.State, cases.RelocationAllocated) }
	if !candidate(r) {
		return nil, false, conflict(article, "case %s is %s: only relocation candidates not yet sent to a Member State of relocation can be allocated", r.ID, r.State)
	}
	group, err := s.familyFor(ctx, r, candidate, "not a relocation candidate")
	if err != nil {
		return nil, false, err
	}
	steps := make([]solidarity.CaseStep, 0, len(group))
	for _, c := range group {
		c.Allocated = m
		rule, _ := cases.Lookup(c.State, cases.RelocationAllocated)
		steps = append(steps, solidarity.CaseStep{Case: c.ID, From: rule.From, To: rule.To})
	}
	now := s.now()
	arr, err := s.Store.Arrival(ctx, r.Arrival)
	if err != nil {
		return nil, false, err
	}
	year := entryCycle(arr, now) // the pledges of the current cycle (a demonstration's own)
	n := int64(len(group))
	ev := solidarity.CaseEventPayload{Event: string(cases.RelocationAllocated), Article: article, At: now, Family: r.Family,
		Steps: steps, Target: m}
	b, err := ledger.Payload(ev)
	if err != nil {
		return nil, false, err
	}
	// The entry starts as the request, so that a retry under the same key is known
	// whenever it comes; the check makes it the allocation recorded.
	e := allocationEntry(ctx, r, id, m)
	e.At = now
	out, replayed, err := s.Store.AppendCase(ctx, idemKey, e, &solidarity.CaseWrite{Update: group}, func(v solidarity.View) error {
		pledged, delivered, err := s.Ledger.RelocationRoom(ctx, v, year, m)
		if err != nil {
			return err
		}
		// Read in this transaction: a concurrent allocation to m is either counted
		// here or sees this one.
		inflight, err := v.Allocated(ctx, m, arr.Cycle, r.Family, cases.Relocated.States()...)
		if err != nil {
			return err
		}
		if room := pledged - delivered - inflight; room < n {
			return conflict("Art. 56(2)(a) AMMR", "%s has room for %d more relocations in %d (pledged %d, delivered %d, allocated and not yet transferred %d): the family has %d members",
				m, max(room, 0), year, pledged, delivered, inflight, n)
		}
		// About the state whose pledge it draws on.
		e.Cycle, e.State, e.LegalBasis, e.Payload = year, m, article, b
		return nil
	})
	if err != nil {
		return nil, true, err
	}
	return &Applied{Entry: out, Cases: group, Replayed: replayed}, true, nil
}
