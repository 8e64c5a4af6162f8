package solidarity

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"solidarity/cases/state"
)

// The case flow (issue 4): arrivals, the cases of the people who arrived, and who read
// them. Everything here except CaseRecord.Personal is pseudonymous: a case is named by
// a CaseID that says nothing about the person, and the personal record travels only
// sealed (internal/keyring) between the case service and the store. The plaintext
// person is arrival.Person, opened by the service for the roles that may see it.

// CaseID is a pseudonymous case identifier: it names one person's case in the ledger,
// the logs and the API without saying who they are.
type CaseID string

// FamilyID names a family group within an arrival: its members move together.
type FamilyID string

// ArrivalID names an arrival (a disembarkation).
type ArrivalID string

// Arrival is a disembarkation: the vessel, the port, when, whether after a
// search-and-rescue operation (Art. 5(1)(b) SR; the 12-month rule of Art. 33(2) AMMR)
// and the benefitting Member State where the people landed. It holds no personal data.
type Arrival struct {
	ID          ArrivalID   `json:"id"`
	Vessel      string      `json:"vessel"`
	Port        string      `json:"port"`
	At          time.Time   `json:"at"`
	SAR         bool        `json:"sar"`
	Benefitting MemberState `json:"benefitting_state"`
	Persons     int         `json:"persons"`
	Families    int         `json:"families"`
	Minors      int         `json:"unaccompanied_minors"`
	Registered  time.Time   `json:"registered"`
	Actor       string      `json:"actor"`
	// Cycle is the cycle the arrival's case entries, allocations and transfers count
	// in: 0 for the real pool of each event's year; a demonstration cycle
	// (IsDemoCycle) for a demonstration's arrivals, which then say Demonstration.
	Cycle         int  `json:"cycle,omitempty"`
	Demonstration bool `json:"demonstration,omitempty"`
}

// SameLanding reports whether a and b describe the same landing: the same vessel and
// port (ignoring case and runs of spaces) at the same instant. A ship's list imported
// twice is one landing; a store refuses the second unless it is confirmed as new
// (CaseWrite.NewLanding).
func (a *Arrival) SameLanding(b *Arrival) bool {
	return a.At.Equal(b.At) && strings.EqualFold(landingName(a.Vessel), landingName(b.Vessel)) &&
		strings.EqualFold(landingName(a.Port), landingName(b.Port))
}

func landingName(s string) string { return strings.Join(strings.Fields(s), " ") }

// SameLandingError is the refusal of a list that SameLanding matches with the stored
// arrival id: ECONFLICT, naming it.
func SameLandingError(id ArrivalID, a *Arrival) error {
	return &Error{Code: ECONFLICT, Field: "arrival", Message: fmt.Sprintf(
		"arrival %s already records %s at %s on %s: this list looks like it again; if it is another landing, confirm it as a new landing",
		id, a.Vessel, a.Port, a.At.UTC().Format(time.RFC3339))}
}

// CaseRecord is a case as the store keeps it: the pseudonymous flow in clear (state,
// history, dates: what deadlines, counts and the ledger need) and the person sealed.
type CaseRecord struct {
	ID      CaseID    `json:"id"`
	Arrival ArrivalID `json:"arrival"`
	Family  FamilyID  `json:"family"`
	// Benefitting is the Member State where the case runs from arrival: its officers
	// handle it. Allocated is the Member State of relocation once the coordinator has
	// assigned the person to it (Art. 67); its officers see the case from then on.
	// Responsible is the Member State found responsible (AMMR Part III), when known.
	Benefitting MemberState `json:"benefitting_state"`
	Allocated   MemberState `json:"allocated_state,omitempty"`
	Responsible MemberState `json:"responsible_state,omitempty"`
	// State is the state of the flow (kept here too, so it can be queried).
	State state.State `json:"state"`
	// Flow is the cases.Case as JSON: facts, history of transitions, clock dates.
	Flow json.RawMessage `json:"flow"`
	// NextDue is the Due of the case's next time limit, the running limit that ends
	// first (zero: none): the same value as that limit's deadline.Due.Due (its last
	// day, or the instant a period in hours ends), so that every view shows one date.
	// The deadline view reads the cases whose NextDue is near, through an index.
	NextDue time.Time `json:"next_due,omitzero"`
	// NextConsequence is the end of the earliest running time limit whose miss has a
	// consequence the system records (zero: none): what the missed-limit job reads.
	NextConsequence time.Time `json:"next_consequence,omitzero"`
	// Personal is the person (arrival.Person JSON) sealed by internal/keyring for
	// context "case/<ID>"; "" once erased.
	Personal string    `json:"-"`
	Opened   time.Time `json:"opened"`
	Closed   time.Time `json:"closed,omitzero"` // reached a terminal state
	Erased   time.Time `json:"erased,omitzero"` // personal record erased (retention)
	// Version counts the changes to the record. An update names the version it read
	// and is refused (ECONFLICT) when another change came first.
	Version int64 `json:"version"`
}

// CaseWrite is what a case-flow ledger entry changes in the case tables, written in the
// transaction that appends the entry: both land or neither does.
type CaseWrite struct {
	Arrival *Arrival      // a new arrival (registration)
	Insert  []*CaseRecord // new cases; Version is set to 1
	// NewLanding confirms that Arrival is another landing than a stored arrival of
	// the same vessel, port and time (Arrival.SameLanding). Without it such an
	// Arrival is ECONFLICT naming the stored one: the same ship's list imported twice
	// would open every case twice. Decided in the appending transaction.
	NewLanding bool
	// Update replaces the mutable fields (Allocated, Responsible, State, Flow, NextDue,
	// NextConsequence, Personal, Closed, Erased) of each case whose stored Version equals the record's;
	// the stored Version becomes Version+1 and so does the record's on success.
	// Otherwise nothing of the append is written and the error is ECONFLICT.
	Update []*CaseRecord
}

// CaseFilter selects cases. Unset fields select all.
type CaseFilter struct {
	Arrival *ArrivalID
	Family  *FamilyID
	// Involving selects the cases a Member State's officers may see: those it
	// benefits from (Benefitting) or that are allocated to it (Allocated).
	Involving *MemberState
	// Open selects cases not in a terminal state; Closed before a time selects the
	// cases closed before it (retention).
	Open         bool
	ClosedBefore *time.Time
	NotErased    bool
	// DueBefore selects the cases whose NextDue is set and before the time, earliest
	// first (the deadline view); otherwise cases are in ID order.
	DueBefore *time.Time
	// ConsequenceBefore selects the cases whose NextConsequence is set and before the
	// time, earliest first (the missed-limit job). Not with DueBefore.
	ConsequenceBefore *time.Time
	After             CaseID // paging in ID order: cases after this ID
	Limit             int    // 1 to 10000; 0 means 1000
}

// ArrivalFilter selects arrivals, latest first.
type ArrivalFilter struct {
	Benefitting *MemberState
	// Involving selects the arrivals a Member State's officers may see: those it
	// benefits from, and those with a case allocated to it (CaseFilter.Involving).
	Involving *MemberState
	// After, when set, keeps the arrivals that come after it in the list's order
	// (landed earlier, or at the same time with a lower ID): where the next page
	// starts.
	After *ArrivalKey
	Limit int // 1 to 1000; 0 means 100
}

// ArrivalKey is an arrival's place in the arrivals' order: latest landing first, then
// the higher ID.
type ArrivalKey struct {
	At time.Time
	ID ArrivalID
}

// Access is one read of a person's personal record: who, in which role and for which
// state, which case, why, and when. Every read the service serves is recorded before
// the data leaves it.
type Access struct {
	Seq     int64       `json:"seq"`
	At      time.Time   `json:"at"`
	Actor   string      `json:"actor"`
	Role    Role        `json:"role"`
	State   MemberState `json:"state,omitempty"` // the actor's state (officers)
	Case    CaseID      `json:"case"`
	Purpose string      `json:"purpose"` // "view", "determination", "export", ...
}

// AccessFilter selects access-log records, latest first unless Oldest. Case and Actor match
// ignoring case (an auditor types "officer-DE" or "c-…" as they come to mind).
type AccessFilter struct {
	Case  *CaseID
	Actor *string
	Role  *Role
	// From and To bound the time of the read: From ≤ At < To; zero leaves that side
	// open.
	From, To time.Time
	// BeforeSeq, when above 0, keeps the records below it, AfterSeq those above it:
	// where a page starts, whichever the order.
	BeforeSeq, AfterSeq int64
	// Oldest lists the earliest record first (a page back reads so, and turns it).
	Oldest bool
	Limit  int // 1 to 1000; 0 means 100
}

// CaseStore keeps arrivals, cases and the access log beside the ledger, in the same
// database. internal/sqlite and internal/postgres implement it; internal/storetest
// checks both. Like Store it does no authorisation and applies no legal rule.
type CaseStore interface {
	// AppendCase appends e exactly as Store.Append does (idempotency, check, chain,
	// group commit) and applies w in the same transaction. A replay returns the stored
	// entry and applies nothing. An Insert whose ID exists, an Arrival whose ID
	// exists, or an Arrival that is the same landing as a stored one (SameLanding)
	// without w.NewLanding, is ECONFLICT (SameLandingError names the stored one); an
	// Update of a case that does not exist is ENOTFOUND.
	AppendCase(ctx context.Context, idemKey string, e *Entry, w *CaseWrite, check func(View) error) (out *Entry, replayed bool, err error)

	// Arrival returns an arrival or ENOTFOUND.
	Arrival(ctx context.Context, id ArrivalID) (*Arrival, error)
	Arrivals(ctx context.Context, f ArrivalFilter) ([]*Arrival, error)
	// Case returns a case, sealed personal record included, or ENOTFOUND.
	Case(ctx context.Context, id CaseID) (*CaseRecord, error)
	Cases(ctx context.Context, f CaseFilter) ([]*CaseRecord, error)
	// CaseCounts returns the number of cases per State, for the cases f selects
	// (Limit, After and DueBefore are ignored).
	CaseCounts(ctx context.Context, f CaseFilter) (map[state.State]int, error)

	// RecordAccess appends access-log records durably; Seq and At are set by the
	// caller's clock (At) and the store (Seq).
	RecordAccess(ctx context.Context, a ...*Access) error
	AccessLog(ctx context.Context, f AccessFilter) ([]*Access, error)
	// CountArrivals counts the arrivals f selects, its After and Limit aside.
	CountArrivals(ctx context.Context, f ArrivalFilter) (int64, error)
	// CountAccess counts the records f selects, its Limit aside.
	CountAccess(ctx context.Context, f AccessFilter) (int64, error)
}

// Case-flow ledger entries. They carry case IDs, states and counts, never a person.
const (
	ArrivalRegistered EntryType = "arrival.registered" // Art. 5(1)(b), Art. 8 SR: a disembarkation and its cases opened
	CaseEvent         EntryType = "case.event"         // a legal event moving cases along the flow (spec §8)
	CasesErased       EntryType = "cases.erased"       // retention: personal records erased, counts kept
	CasesResealed     EntryType = "cases.resealed"     // key rotation: personal records re-encrypted
)

// CaseEntryTypes lists the case-flow entry types.
func CaseEntryTypes() []EntryType {
	return []EntryType{ArrivalRegistered, CaseEvent, CasesErased, CasesResealed}
}

// ArrivalPayload records a disembarkation registered: the arrival (no personal data),
// its counts and the case IDs opened, each in its family.
type ArrivalPayload struct {
	Arrival  Arrival       `json:"arrival"`
	Families []FamilyCases `json:"families"`
}

// FamilyCases lists the case IDs of one family.
type FamilyCases struct {
	Family FamilyID `json:"family"`
	Cases  []CaseID `json:"cases"`
}

// CaseStep is one case moved by an event.
type CaseStep struct {
	Case CaseID      `json:"case"`
	From state.State `json:"from"`
	To   state.State `json:"to"`
}

// CaseEventPayload records a legal event applied to one or more cases of one family
// (a family moves together): the event, its article and date, each case's step, and
// the Member State it concerns (the responsible state found, the state of relocation
// assigned).
type CaseEventPayload struct {
	Event   string      `json:"event"`
	Article string      `json:"article"`
	At      time.Time   `json:"at"`
	Family  FamilyID    `json:"family,omitempty"`
	Steps   []CaseStep  `json:"steps"`
	Target  MemberState `json:"target,omitempty"`
	Note    string      `json:"note,omitempty"` // e.g. "missed time limit: Art. 37(1) AMMR"
}

// ErasurePayload records an erasure under the retention rule: how many personal
// records, of cases closed before which date. The case IDs stay in the ledger.
type ErasurePayload struct {
	ClosedBefore time.Time `json:"closed_before"`
	Erased       int       `json:"erased"`
	Cases        []CaseID  `json:"cases"`
}

// ResealPayload records a key rotation step: which cases' personal records were
// re-encrypted with which key (by its id; the key itself is never recorded).
type ResealPayload struct {
	Key   uint32   `json:"key"`
	Cases []CaseID `json:"cases"`
}
