package solidarity

import (
	"context"
	"time"
)

// The services are what the command line, the web server and the HTTP client share:
// internal/ledgersvc and internal/casesvc implement them on a store, internal/client
// over the JSON API of a server (internal/web), so that a command runs one code path
// whether it acts on a local database or on a server. Every method reads the acting
// user from the context (NewContextWithUser; over HTTP, the client's token) and
// returns ErrorCode EUNAUTHORIZED when the role table (Can) does not allow it.
//
// Some results are still types of the packages that compute them (a cycle's balances,
// a chain's verification, a time limit), which import this package; the interfaces
// that return them take those types as parameters, so that the root package names the
// operations without importing their implementations.

// LedgerService records the entries of the solidarity ledger and lists them. Each write
// is one entry, appended under idemKey ("" for none): a retry with the same key
// returns the entry first written and replayed true, and writes nothing (ECONFLICT if
// the key was used for another entry). A write the law does not allow in the ledger's
// state is EINVALID or ECONFLICT naming the article.
type LedgerService interface {
	// CreateCycle records a new annual cycle from its TOML file (coordinator);
	// AmendCycle records a new version of an existing one, the year read from the file.
	CreateCycle(ctx context.Context, toml, idemKey string) (e *Entry, replayed bool, err error)
	AmendCycle(ctx context.Context, toml, idemKey string) (e *Entry, replayed bool, err error)
	// SetStatus records a Member State's situation in cycle year (Art. 11).
	SetStatus(ctx context.Context, year int, m MemberState, p StatusPayload, idemKey string) (*Entry, bool, error)
	// Pledge records a state's pledge (Arts. 56(2), 57(1)).
	Pledge(ctx context.Context, year int, m MemberState, p PledgePayload, idemKey string) (*Entry, bool, error)
	// RequestDeduction, AssessDeduction and DecideDeduction are the three steps of a
	// deduction (Arts. 61, 62): a state's request, the Commission's assessment and the
	// Council's decision, the last two naming the request by its ref.
	RequestDeduction(ctx context.Context, year int, m MemberState, p DeductionPayload, idemKey string) (*Entry, bool, error)
	AssessDeduction(ctx context.Context, year int, ref string, p AssessmentPayload, idemKey string) (*Entry, bool, error)
	DecideDeduction(ctx context.Context, year int, ref string, p DeductionPayload, idemKey string) (*Entry, bool, error)
	// RequestOffset and OfferOffset open a responsibility offset (Art. 63); ReplyOffset
	// answers one by its ref.
	RequestOffset(ctx context.Context, year int, m MemberState, p OffsetPayload, idemKey string) (*Entry, bool, error)
	OfferOffset(ctx context.Context, year int, m MemberState, p OffsetPayload, idemKey string) (*Entry, bool, error)
	ReplyOffset(ctx context.Context, year int, ref string, p ReplyPayload, idemKey string) (*Entry, bool, error)
	// Deliver records a delivery of type t (RelocationDelivered, PaymentMade or
	// AlternativeDelivered) against the state's pledges.
	Deliver(ctx context.Context, year int, m MemberState, t EntryType, p DeliveryPayload, idemKey string) (*Entry, bool, error)
	// Entries lists entries in sequence order after f.AfterSeq, at most f.Limit (1 to
	// 1000): the whole ledger for the coordinator and auditors, an officer's own
	// state's entries for an officer.
	Entries(ctx context.Context, f EntryFilter) ([]*Entry, error)
}

// LedgerReader derives from the ledger: a cycle's balances as of a time (zero: now;
// anyone may read them, they are published figures) of type Balances, and the
// verification of the whole hash chain and of the totals read from it (auditors and
// the coordinator) of type Verification. Implemented with
// LedgerReader[*ledgersvc.Balances, *ledger.Verification] by the service (exact figures)
// and LedgerReader[*report.Balances, *ledger.Verification] by the client (as the server
// publishes them).
type LedgerReader[Balances, Verification any] interface {
	Balances(ctx context.Context, year int, asOf time.Time) (Balances, error)
	Verify(ctx context.Context) (Verification, error)
}

// DeadlineService is the part of the case flow a coordinator runs from anywhere: the
// time limits overdue or ending within a horizon (zero: the service's default), of
// one Member State's cases or, with a nil state, of all the cases the user may see,
// at most limit rows (up to 10000; 0: 500); and the consequences the law attaches to
// missed limits, first previewed (nothing recorded), then applied for exactly the
// consequences confirmed (coordinator only; each names the case's version it was
// shown for, and one on a case changed since is reported not applied; confirming
// nothing is EINVALID). Implemented with
// DeadlineService[casesvc.DueRow, casesvc.Consequence, casesvc.Confirmed].
type DeadlineService[Row, Consequence, Confirmed any] interface {
	Deadlines(ctx context.Context, within time.Duration, state *MemberState, limit int) ([]Row, error)
	PreviewMissed(ctx context.Context) ([]Consequence, error)
	ApplyConfirmed(ctx context.Context, confirmed []Confirmed) ([]Consequence, error)
}

// CaseService records the case flow: a ship's list registered as an arrival and its
// cases (Register; RegisterNewLanding once the user confirmed that a list of the
// vessel, port and time of a registered arrival is another landing), a legal event on
// a case or its family (Apply: the transition table decides whether the case's state
// allows it) and the coordinator's allocation of a relocation candidate's family to a
// Member State (Assign, Art. 67). Each write is one ledger entry, appended under
// idemKey as a ledger write is. The list of type List is parsed and checked by the
// caller first, so that a bad row is reported where it was read. Implemented with
// CaseService[*arrival.List, *casesvc.Registered, casesvc.EventRequest, *casesvc.Applied].
type CaseService[List, Registered, Event, Applied any] interface {
	Register(ctx context.Context, l List, idemKey string) (Registered, error)
	RegisterNewLanding(ctx context.Context, l List, idemKey string) (Registered, error)
	Apply(ctx context.Context, req Event, idemKey string) (Applied, error)
	Assign(ctx context.Context, id CaseID, m MemberState, idemKey string) (Applied, error)
}

// CaseReader reads the case flow, pseudonymously but for Person and Determine: the
// cases f selects, each with its next time limit (rows of type Row, at most f.Limit);
// one case's flow and deadlines (View; a case the user may not see is ENOTFOUND); and
// a case's personal record and the responsibility determination run on it, both
// reads of the person recorded in the access log (purpose says why) before anything
// is returned. Implemented with
// CaseReader[casesvc.CaseRow, *casesvc.CaseView, *arrival.Person, *casesvc.Determination].
type CaseReader[Row, View, Person, Determination any] interface {
	CaseRows(ctx context.Context, f CaseFilter) ([]Row, error)
	Case(ctx context.Context, id CaseID) (View, error)
	Person(ctx context.Context, id CaseID, purpose string) (Person, error)
	Determine(ctx context.Context, id CaseID) (Determination, error)
}
