// Package casesvc is the case flow's service (issue 4): it registers disembarkations
// and their people, moves cases through the legal events of the flow (cases.Table),
// allocates relocation candidates to pledging states, computes the deadline view and
// applies the consequences of missed time limits, and erases personal records when the
// retention period has run.
//
// It is where the personal data rules hold: a person is sealed (internal/keyring)
// before it reaches the store and opened only for a user whose role and state may see
// it (the benefitting state's officers, the state of relocation's officers once the
// person is allocated there, the coordinator), and only after the read has been
// recorded in the access log. Every change is a ledger entry written in the same
// transaction as the change (solidarity.CaseStore.AppendCase); ledger entries carry
// pseudonymous case IDs and counts, never a person.
//
// What a legal event does (whose act, which cases, the target, who is responsible
// after it) is read from the table of events of package cases; this package applies
// it and adds only what needs the store: visibility, the family, the ledger entry.
//
// Files: service.go the Service, the flow it keeps in clear and the sealed person;
// register.go registering a disembarkation (Register); event.go recording a legal
// event (Apply) and allocating a family to a Member State of relocation (Assign);
// missed.go the consequences of missed time limits (PreviewMissed, ApplyMissed,
// ApplyConfirmed); retention.go erasing personal records after the retention period
// and re-sealing them under a new key (Erase, Reseal); read.go the reads (cases, a
// case, a person, a determination, the deadline view, the access log); matching.go
// the matching engine's proposals and their acceptance (Proposal, Accept).
package casesvc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/deadline"
	"solidarity/internal/keyring"
	"solidarity/internal/ledgersvc"
	"solidarity/ledger"
	"solidarity/procedure"
	"solidarity/rules"
)

// Store is what the service needs: the ledger and the case tables of one database.
type Store interface {
	solidarity.Store
	solidarity.CaseStore
}

// Params are the service's values that are not read in the legal text.
type Params struct {
	// Retention is how long a personal record is kept after its case closed before
	// Erase removes it. Default 10 years: no longer than Eurodac keeps an applicant's
	// data (Art. 29(1) Regulation (EU) 2024/1358, tag V for Eurodac; applying it to
	// these records is our choice, hence a parameter).
	Retention time.Duration
	// DueSoon is the horizon of the deadline view's "due soon": default 7 days.
	DueSoon time.Duration
}

// DefaultParams returns the defaults documented on Params.
func DefaultParams() Params {
	return Params{Retention: 10 * 365 * 24 * time.Hour, DueSoon: 7 * 24 * time.Hour}
}

// Service implements the case flow on a Store.
type Service struct {
	Store     Store
	Keys      *keyring.Keyring
	Params    Params
	Rules     rules.Params
	Limits    deadline.Params
	Procedure procedure.Params
	Rates     procedure.Rates
	Now       func() time.Time
	// Ledger, when set (the ledger service on the same store), answers the relocation
	// pledges from its cached state of the cycle rather than reading every pledge.
	Ledger *ledgersvc.Service
}

// New returns a service with the spec's parameters and the real clock.
func New(store Store, keys *keyring.Keyring) *Service {
	return &Service{Store: store, Keys: keys, Params: DefaultParams(), Rules: rules.DefaultParams(),
		Limits: deadline.DefaultParams(), Procedure: procedure.DefaultParams(),
		Rates: procedure.ShippedRates(), Now: time.Now}
}

func (s *Service) now() time.Time { return ledger.Normalize(s.Now()) }

// Flow is what a case record keeps in clear: the cases.Case (state, history, clock
// dates, facts) and what the flow learnt along the way, none of it personal.
type Flow struct {
	cases.Case
	// Requested is the Member State a take charge request, take back notification or
	// humanitarian request went to: acceptance makes it responsible.
	Requested solidarity.MemberState `json:"requested,omitempty"`
	// Determination is the outcome of the criteria when an officer recorded it.
	Determination *Determined `json:"determination,omitempty"`
	// Procedure is the track decision recorded at registration (APR Art. 42 ff.).
	Procedure *procedure.Decision `json:"procedure,omitempty"`
}

// Determined is the pseudonymous summary of a responsibility determination.
type Determined struct {
	State     solidarity.MemberState `json:"state"`
	Criterion rules.Criterion        `json:"criterion"`
	Article   string                 `json:"article"`
	Regime    rules.Regime           `json:"regime"`
}

func decodeFlow(r *solidarity.CaseRecord) (*Flow, error) {
	var f Flow
	if err := json.Unmarshal(r.Flow, &f); err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINTERNAL, Message: fmt.Sprintf("case %s: stored flow: %v", r.ID, err)}
	}
	if f.State == "" {
		f.State = cases.New
	}
	return &f, nil
}

// setFlow stores f in r with the projections the store indexes.
func (s *Service) setFlow(r *solidarity.CaseRecord, f *Flow) error {
	b, err := json.Marshal(f)
	if err != nil {
		return err
	}
	r.Flow, r.State = b, f.State
	r.NextDue, r.NextConsequence = time.Time{}, time.Time{}
	dues := deadline.Compute(f.Case, s.Limits)
	if next, ok := nextDue(dues); ok {
		r.NextDue = next.Due
	}
	for _, d := range dues {
		e := dueEnd(d)
		// What ApplyMissed will record (deadline.Missed): a consequence that is an
		// event the case's state allows.
		if d.Then != "" && cases.Can(f.State, d.Then) && (r.NextConsequence.IsZero() || e.Before(r.NextConsequence)) {
			r.NextConsequence = e
		}
	}
	if f.State.Terminal() && r.Closed.IsZero() {
		r.Closed = f.Last()
	}
	return nil
}

// nextDue is a case's next time limit among its running ones (deadline.Compute's,
// earliest ending first): the one that ends first. CaseRecord.NextDue keeps its Due,
// the same value the limit itself shows: the last day on which the act is in time
// (a period in days), or the instant a period in hours ends.
func nextDue(dues []deadline.Due) (deadline.Due, bool) {
	if len(dues) == 0 {
		return deadline.Due{}, false
	}
	return dues[0], true
}

// Next returns the next time limit of a case the user was given (ok false when none
// runs), computed from its flow as the case's own deadlines are: what the arrival
// page, the case lists, the API and the CLI show as its next limit.
func (s *Service) Next(r *solidarity.CaseRecord) (d deadline.Due, ok bool, err error) {
	f, err := decodeFlow(r)
	if err != nil {
		return d, false, err
	}
	d, ok = nextDue(deadline.Compute(f.Case, s.Limits))
	return d, ok, nil
}

// refresh sets r.NextDue from r's flow (Next): a record written before NextDue kept
// the limit's Due (it kept the instant after its last day) reads as one written now.
func (s *Service) refresh(r *solidarity.CaseRecord) error {
	d, ok, err := s.Next(r)
	if err != nil {
		return err
	}
	r.NextDue = time.Time{}
	if ok {
		r.NextDue = d.Due
	}
	return nil
}

// DueText writes when a time limit ends, as every view writes it: its last day, or
// for a period in hours the instant (UTC).
func DueText(d deadline.Due) string {
	if d.Hours {
		return d.Due.UTC().Format("2006-01-02 15:04 UTC")
	}
	return d.Due.Format(time.DateOnly)
}

// dueEnd is the instant a time limit ends: a period in hours ends at its instant, one
// in days at the end of its last day (Regulation 1182/71, Art. 3(2)(b)).
func dueEnd(d deadline.Due) time.Time {
	if d.Hours {
		return d.Due
	}
	return d.Due.AddDate(0, 0, 1)
}

// Errors.

func denied(a solidarity.Action, m solidarity.MemberState) error {
	what := string(a)
	if m != "" {
		what += " for " + string(m)
	}
	return &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "not allowed: " + what}
}

func invalid(field, article, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.EINVALID, Field: field, Article: article, Message: fmt.Sprintf(format, args...)}
}

func conflict(article, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.ECONFLICT, Article: article, Message: fmt.Sprintf(format, args...)}
}

func user(ctx context.Context) *solidarity.User { return solidarity.UserFromContext(ctx) }

func actor(ctx context.Context) string {
	if u := user(ctx); u != nil {
		return u.Name
	}
	return "system"
}

// mayOnCase reports whether the user may do a on case r: for its benefitting state,
// or for its state of relocation once allocated.
func mayOnCase(ctx context.Context, a solidarity.Action, r *solidarity.CaseRecord) bool {
	u := user(ctx)
	return solidarity.Can(u, a, r.Benefitting) || (r.Allocated != "" && solidarity.Can(u, a, r.Allocated))
}

// scope returns the state an officer's reads are limited to, or nil for roles that
// read every state. A role without a on any state is refused.
func scope(ctx context.Context, a solidarity.Action) (*solidarity.MemberState, error) {
	u := user(ctx)
	if solidarity.Can(u, a, "") {
		return nil, nil
	}
	if u != nil && u.State != "" && solidarity.Can(u, a, u.State) {
		m := u.State
		return &m, nil
	}
	return nil, denied(a, "")
}

// IDs. Case, family and arrival IDs are random and say nothing about the person. A
// request with an idempotency key draws them from the key, so that a retry asks for
// the same entry and is recognised as a replay.

type idSource struct {
	seed [32]byte
	n    uint64
}

func newIDSource(idemKey, actor string) *idSource {
	var g idSource
	if idemKey == "" {
		rand.Read(g.seed[:])
	} else {
		g.seed = sha256.Sum256([]byte("solidarity ids\x00" + actor + "\x00" + idemKey))
	}
	return &g
}

var idEncoding = base32.NewEncoding("0123456789ABCDEFGHJKMNPQRSTVWXYZ").WithPadding(base32.NoPadding)

func (g *idSource) next(prefix string) string {
	var b [40]byte
	copy(b[:32], g.seed[:])
	binary.BigEndian.PutUint64(b[32:], g.n)
	g.n++
	h := sha256.Sum256(b[:])
	return prefix + idEncoding.EncodeToString(h[:8])[:12]
}

// sealing

func personContext(id solidarity.CaseID) string { return "case/" + string(id) }

func (s *Service) seal(p *arrival.Person) (string, error) {
	b, err := json.Marshal(p)
	if err != nil {
		return "", err
	}
	return s.Keys.Seal(b, personContext(p.Case))
}

func (s *Service) open(r *solidarity.CaseRecord) (*arrival.Person, error) {
	if r.Personal == "" {
		return nil, &solidarity.Error{Code: solidarity.ENOTFOUND,
			Message: fmt.Sprintf("case %s: the personal record was erased on %s (retention)", r.ID, r.Erased.Format(time.DateOnly))}
	}
	b, err := s.Keys.Open(r.Personal, personContext(r.ID))
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINTERNAL, Message: fmt.Sprintf("case %s: personal record: %v", r.ID, err)}
	}
	var p arrival.Person
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINTERNAL, Message: fmt.Sprintf("case %s: personal record: %v", r.ID, err)}
	}
	return &p, nil
}

// addNote keeps an officer's note on an event in the case's sealed record (opened
// and sealed again without a read being served: nothing leaves the service).
func (s *Service) addNote(ctx context.Context, r *solidarity.CaseRecord, at time.Time, ev cases.Event, text string) error {
	p, err := s.open(r)
	if err != nil {
		return err
	}
	p.Notes = append(p.Notes, arrival.Note{At: at, Event: string(ev), Actor: actor(ctx), Text: text})
	sealed, err := s.seal(p)
	if err != nil {
		return err
	}
	r.Personal = sealed
	return nil
}
