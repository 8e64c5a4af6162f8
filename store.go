package solidarity

import (
	"context"
	"iter"
	"time"
)

// Store is the durable record behind the ledger service: entries, the projection of
// deliveries derived from them, users and their credentials. internal/sqlite and
// internal/postgres implement it; internal/storetest is the one conformance suite both
// must pass. A Store does no authorisation and applies no legal rule: the service does.
type Store interface {
	// Append writes one entry, atomically and durably (committed before it returns):
	// under the store's single writer it looks up idemKey (when not ""), and if an entry
	// was written with that key returns it with replayed=true without calling check.
	// Otherwise it calls check with a view of the committed state (check's error aborts
	// with nothing written), sets e.Seq to the next sequence number, seals e onto the
	// chain (ledger.Seal with the head's hash), inserts it, updates the delivery totals
	// (ledger.Delta) and records idemKey — all in one transaction.
	//
	// "The same entry" under a known idemKey means the same Cycle, Type, State, Ref,
	// Actor, LegalBasis and payload bytes (At, Seq and hashes are the store's); anything
	// else under that key is ECONFLICT. On success e itself is returned with Seq,
	// PrevHash, Hash set and At normalised; on failure e is unchanged; a replay returns
	// the stored entry and leaves e alone. check may only read through its View: calling
	// the Store from inside it would wait for the writer that Append holds.
	Append(ctx context.Context, idemKey string, e *Entry, check func(View) error) (out *Entry, replayed bool, err error)

	// Entries lists entries in sequence order after f.AfterSeq, at most f.Limit (1 to
	// 1000; 0 means 100).
	Entries(ctx context.Context, f EntryFilter) ([]*Entry, error)
	// All streams every entry in sequence order, for verification and export.
	All(ctx context.Context) iter.Seq2[*Entry, error]
	// Head returns the last sequence number and hash ("" and 0 when empty).
	Head(ctx context.Context) (seq int64, hash string, err error)
	View

	// CreateUser adds a user; a taken name is ECONFLICT. passwordHash may be "" for
	// token-only accounts.
	CreateUser(ctx context.Context, u *User, passwordHash string) error
	// UserByName returns the user and its password hash, or ENOTFOUND.
	UserByName(ctx context.Context, name string) (*User, string, error)
	Users(ctx context.Context) ([]*User, error)
	// CreateCredential stores the SHA-256 hash (hex) of a token or session secret.
	CreateCredential(ctx context.Context, c Credential) error
	// UserByCredential returns the user of an unexpired credential of kind, or ENOTFOUND.
	UserByCredential(ctx context.Context, kind, hash string, now time.Time) (*User, error)
	DeleteCredential(ctx context.Context, kind, hash string) error

	// Ping reports whether the database answers (for /readyz).
	Ping(ctx context.Context) error
	Close() error
}

// View is the read side a rule check needs, consistent with the pending append.
type View interface {
	// Find returns the entries of a cycle of the given types (all types when none) in
	// sequence order. Services use it for the small types (cycles, statuses, pledges,
	// deductions, offsets), never for deliveries, which can number millions.
	Find(ctx context.Context, cycle int, types ...EntryType) ([]*Entry, error)
	// Totals returns the delivery totals of a cycle, one row per state that delivered.
	Totals(ctx context.Context, cycle int) ([]Totals, error)
	// Allocated counts the open cases allocated to m whose arrival counts in
	// arrivalCycle (Arrival.Cycle: 0 for real arrivals, a demonstration's own cycle
	// for its arrivals), leaving out the family exceptFamily and the cases in the
	// states exceptStates: how many of m's relocation places the case flow holds
	// (checked in the transaction that allocates more, so two allocations cannot both
	// take the last place). A demonstration's allocations never hold real places.
	Allocated(ctx context.Context, m MemberState, arrivalCycle int, exceptFamily FamilyID, exceptStates ...string) (int64, error)
}

// EntryFilter selects entries.
type EntryFilter struct {
	AfterSeq int64
	Limit    int
	Cycle    *int
	State    *MemberState
	Type     *EntryType
}

// Totals are a state's deliveries in a cycle, summed from the entries (ledger.Delta).
type Totals struct {
	Cycle       int         `json:"cycle"`
	State       MemberState `json:"state"`
	Relocations int64       `json:"relocations"`
	Payments    Cents       `json:"payments_eur_cents"`
	Alternative Cents       `json:"alternative_eur_cents"`
}

// Credential is a hashed secret that authenticates a user: an API token ("token") or a
// browser session ("session"). Only the hash is stored.
type Credential struct {
	Kind    string // "token" or "session"
	Hash    string // hex SHA-256 of the secret
	UserID  int64
	Label   string
	Expires time.Time // zero: never
}
