package casesvc

import (
	"context"
	"fmt"
	"slices"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/ledger"
)

// Registered is what Register wrote (or, on a replay, what the first call wrote).
type Registered struct {
	Arrival  *solidarity.Arrival      `json:"arrival"`
	Cases    []*solidarity.CaseRecord `json:"cases"`
	Entry    *solidarity.Entry        `json:"entry"`
	Replayed bool                     `json:"replayed"`
}

// screeningArticle is the legal basis of registering an arrival: who is screened
// (Art. 5(1)(b) SR for SAR disembarkations, Art. 5(1)(a) after an irregular crossing).
const screeningArticle = "Art. 5(1) SR"

// Register records a disembarkation and its people: one case per person, opened with
// the arrival event (disembarked after SAR, or apprehended at the border), families
// kept together under pseudonymous family IDs, each person sealed. The whole list is
// one ledger entry (arrival.registered: the arrival, its counts and case IDs) written
// with the records in one transaction: all of it lands or none.
//
// The benefitting state's officers and the coordinator may register. The list is
// validated first (arrival.List.Validate): a bad row is EINVALID naming the row and
// the field, and nothing is written.
//
// A list whose vessel, port and time match an arrival already registered (the same
// ship's list imported again without its idempotency key) is refused with ECONFLICT
// naming that arrival: RegisterNewLanding registers it when the user confirms that it
// is another landing. The check runs in the registering transaction.
func (s *Service) Register(ctx context.Context, l *arrival.List, idemKey string) (*Registered, error) {
	return s.register(ctx, l, idemKey, false)
}

// RegisterNewLanding is Register for a list the user confirmed is a new landing,
// although an arrival of the same vessel, port and time is registered.
func (s *Service) RegisterNewLanding(ctx context.Context, l *arrival.List, idemKey string) (*Registered, error) {
	return s.register(ctx, l, idemKey, true)
}

func (s *Service) register(ctx context.Context, l *arrival.List, idemKey string, newLanding bool) (*Registered, error) {
	if l == nil {
		return nil, invalid("", "", "no list")
	}
	if !solidarity.Can(user(ctx), solidarity.WriteArrival, l.Arrival.Benefitting) {
		return nil, denied(solidarity.WriteArrival, l.Arrival.Benefitting)
	}
	// A person alone is a family of one, as the parsers make it.
	l = &arrival.List{Arrival: l.Arrival, Persons: slices.Clone(l.Persons)}
	for i := range l.Persons {
		if l.Persons[i].Family == "" {
			l.Persons[i].Family = solidarity.FamilyID("F-" + l.Persons[i].Ref)
		}
	}
	now := s.now()
	if err := l.ValidateAt(now); err != nil { // an arrival in the future, too
		return nil, err
	}
	g := newIDSource(idemKey, actor(ctx))
	a := l.Arrival
	if a.ID == "" {
		a.ID = solidarity.ArrivalID(g.next("ARR-"))
	} else if !validID(string(a.ID)) {
		return nil, invalid("arrival.id", "", "an arrival ID is 1 to 64 letters, digits and '-' (got %q)", a.ID)
	}
	a.At = ledger.Normalize(a.At)
	a.Actor = actor(ctx)
	// Only the system seeds a demonstration, into its own cycle; everything else
	// counts in the real pool of each event's year.
	if a.Cycle != 0 && (!solidarity.IsDemoCycle(a.Cycle) || user(ctx) != solidarity.System) {
		return nil, invalid("arrival.cycle", "", "an arrival's cycle is set only for a demonstration, by the system (got %d)", a.Cycle)
	}
	a.Demonstration = solidarity.IsDemoCycle(a.Cycle)

	first := cases.ApprehendedAtBorder // Art. 5(1)(a) SR
	if a.SAR {
		first = cases.Disembarked // Art. 5(1)(b) SR
	}
	families := map[solidarity.FamilyID]solidarity.FamilyID{}
	var order []solidarity.FamilyID
	members := map[solidarity.FamilyID][]solidarity.CaseID{}
	recs := make([]*solidarity.CaseRecord, 0, len(l.Persons))
	a.Persons, a.Minors = len(l.Persons), 0
	for i := range l.Persons {
		p := l.Persons[i] // a copy: the caller's list is not changed
		id := solidarity.CaseID(g.next("C-"))
		label := p.Family
		fam, ok := families[label]
		if !ok {
			fam = solidarity.FamilyID(g.next("F-"))
			families[label] = fam
			order = append(order, fam)
		}
		p.Case, p.Family = id, fam
		members[fam] = append(members[fam], id)
		if p.UnaccompaniedMinor {
			a.Minors++
		}
		facts := cases.Facts{
			UnaccompaniedMinor: p.UnaccompaniedMinor && p.Minor(a.At),
			// No biometrics under 6 (Art. 24(1) Eurodac): the 72-hour limits do not run.
			NoBiometrics: under6(&p, a),
		}
		c, _, err := cases.Apply(cases.Case{ID: string(id), Facts: facts}, first, a.At)
		if err != nil {
			return nil, err
		}
		sealed, err := s.seal(&p)
		if err != nil {
			return nil, fmt.Errorf("casesvc: sealing case %s: %w", id, err)
		}
		r := &solidarity.CaseRecord{ID: id, Arrival: a.ID, Family: fam, Benefitting: a.Benefitting,
			Personal: sealed, Opened: a.At}
		if err := s.setFlow(r, &Flow{Case: c}); err != nil {
			return nil, err
		}
		recs = append(recs, r)
	}
	a.Families = len(order)

	payload := solidarity.ArrivalPayload{Arrival: a}
	payload.Arrival.Registered = solidarity.Arrival{}.Registered // the entry's At says when: a retry asks for the same payload
	for _, f := range order {
		payload.Families = append(payload.Families, solidarity.FamilyCases{Family: f, Cases: members[f]})
	}
	b, err := ledger.Payload(payload)
	if err != nil {
		return nil, err
	}
	a.Registered = now
	e := &solidarity.Entry{Cycle: entryCycle(&a, a.At), Type: solidarity.ArrivalRegistered, State: a.Benefitting,
		Ref: string(a.ID), Actor: actor(ctx), At: now, LegalBasis: screeningArticle, Payload: b}
	out, replayed, err := s.Store.AppendCase(ctx, idemKey, e, &solidarity.CaseWrite{Arrival: &a, Insert: recs, NewLanding: newLanding}, nil)
	if err != nil {
		return nil, err
	}
	if replayed {
		stored, err := s.Store.Arrival(ctx, a.ID)
		if err != nil {
			return nil, err
		}
		id := stored.ID
		recs, err = s.Store.Cases(ctx, solidarity.CaseFilter{Arrival: &id, Limit: solidarity.MaxCaseLimit})
		if err != nil {
			return nil, err
		}
		return &Registered{Arrival: stored, Cases: recs, Entry: out, Replayed: true}, nil
	}
	return &Registered{Arrival: &a, Cases: recs, Entry: out}, nil
}

// under6 reports whether the person is under 6 at arrival (no biometrics).
func under6(p *arrival.Person, a solidarity.Arrival) bool {
	if !p.BirthDate.IsZero() {
		return p.BirthDate.AddDate(6, 0, 0).After(a.At)
	}
	return p.AssessedAge > 0 && p.AssessedAge < 6
}

// validID reports whether s can name an arrival: it goes into URLs and the ledger.
func validID(s string) bool {
	if len(s) == 0 || len(s) > 64 {
		return false
	}
	for _, r := range s {
		if !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}

// entryCycle is the cycle an entry about arrival a dated at counts in: the
// demonstration's own cycle for a demonstration's arrival, else the year of at (the
// real pool in force then).
func entryCycle(a *solidarity.Arrival, at time.Time) int {
	if a.Cycle != 0 {
		return a.Cycle
	}
	return at.Year()
}

// caseCycle is entryCycle for an entry about case r.
func (s *Service) caseCycle(ctx context.Context, r *solidarity.CaseRecord, at time.Time) (int, error) {
	a, err := s.Store.Arrival(ctx, r.Arrival)
	if err != nil {
		return 0, err
	}
	return entryCycle(a, at), nil
}
