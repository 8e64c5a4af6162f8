package solidarity

import (
	"context"
	"iter"
	"time"

	"solidarity/cases/state"
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

	// Entries lists the entries f selects (EntryFilter.Normalize first), in sequence
	// order, newest first when f.Newest, at most f.Limit (1 to 1000; 0 means 100).
	Entries(ctx context.Context, f EntryFilter) ([]*Entry, error)
	// CountEntries counts the entries f selects, its Limit aside: a list's total, and,
	// with AfterSeq or BeforeSeq, how many come before a page.
	CountEntries(ctx context.Context, f EntryFilter) (int64, error)
	// All streams every entry in sequence order, for verification and export.
	All(ctx context.Context) iter.Seq2[*Entry, error]
	// Head returns the last sequence number and hash ("" and 0 when empty).
	Head(ctx context.Context) (seq int64, hash string, err error)
	// AllTotals returns the delivery totals of every cycle, per state and per state and
	// day, with the last entry they include: read in one read-only snapshot, so that
	// verification can compare the projection with the entries up to it.
	AllTotals(ctx context.Context) (*Projection, error)
	// TotalsAt returns a cycle's delivery totals from the deliveries recorded at or
	// before at, one row per state that delivered, in state order: the balances as of
	// then. The days before at's UTC day come from the daily totals, and that day's
	// deliveries up to at from the entries (none to read when at ends the day), so the
	// cost does not grow with the ledger. A sum that does not fit is ECONFLICT.
	TotalsAt(ctx context.Context, cycle int, at time.Time) ([]Totals, error)
	// HeadTotals returns the last sequence number (0 when empty) and a cycle's
	// delivery totals, read in one read-only snapshot: the totals of every entry
	// (Totals) when at is zero, else as of at (TotalsAt). The balances read them so,
	// so that the ledger head they report is the last entry their totals include.
	HeadTotals(ctx context.Context, cycle int, at time.Time) (head int64, totals []Totals, err error)
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

	// Accounts (issue 12). Each change records its AdminEvent in the admin log in the
	// same transaction (At is the store's clock when zero); the log never holds a
	// password, a token or a session secret, nor their hashes.
	//
	// AddUser is CreateUser with its event.
	AddUser(ctx context.Context, u *User, passwordHash string, ev AdminEvent) error
	// UpdateUser applies upd to the user named name and returns it, or ENOTFOUND.
	UpdateUser(ctx context.Context, name string, upd UserUpdate, ev AdminEvent) (*User, error)
	// CreateToken stores a token credential (c.Kind "token") with its event.
	CreateToken(ctx context.Context, c Credential, ev AdminEvent) (*Token, error)
	// Tokens lists the API tokens of the user named user (all users' when ""), by
	// creation; expired ones included.
	Tokens(ctx context.Context, user string) ([]*Token, error)
	// RevokeToken deletes the token with this ID and returns what it was, or
	// ENOTFOUND; ev.User is set to its user.
	RevokeToken(ctx context.Context, id string, ev AdminEvent) (*Token, error)
	// CredentialUser is UserByCredential with the credential itself: ENOTFOUND also
	// when the user is disabled or the credential idle past its IdleUntil.
	CredentialUser(ctx context.Context, kind, hash string, now time.Time) (*User, *Credential, error)
	// TouchSession moves a session's IdleUntil forward (never past its Expires).
	TouchSession(ctx context.Context, hash string, idleUntil time.Time) error
	// AdminLog lists the admin log, latest first, at most limit (1 to 1000; 0: 100),
	// from the event before seq before on (0: from the latest).
	AdminLog(ctx context.Context, before int64, limit int) ([]*AdminEvent, error)
	// ProbeWrite commits a small write (one row of its own), for /readyz: it fails
	// when writes would (a full disk, a read-only database).
	ProbeWrite(ctx context.Context) error

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
	// FindAfter is Find of the entries with a sequence number above afterSeq: what
	// was added to a cycle since a state read from entries up to afterSeq.
	FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...EntryType) ([]*Entry, error)
	// EntryHash returns the hash of the entry with sequence number seq, or "" when
	// there is none: one indexed lookup. Since each hash seals its predecessor's, an
	// unchanged hash at seq means every entry up to seq is unchanged.
	EntryHash(ctx context.Context, seq int64) (string, error)
	// Totals returns the delivery totals of a cycle, one row per state that delivered.
	Totals(ctx context.Context, cycle int) ([]Totals, error)
	// Allocated counts the open cases allocated to m whose arrival counts in
	// arrivalCycle (Arrival.Cycle: 0 for real arrivals, a demonstration's own cycle
	// for its arrivals), leaving out the family exceptFamily and the cases in the
	// states exceptStates: how many of m's relocation places the case flow holds
	// (checked in the transaction that allocates more, so two allocations cannot both
	// take the last place). A demonstration's allocations never hold real places.
	Allocated(ctx context.Context, m MemberState, arrivalCycle int, exceptFamily FamilyID, exceptStates ...state.State) (int64, error)
}

// EntryFilter selects entries. Every field set narrows the selection.
type EntryFilter struct {
	// AfterSeq keeps the entries above it, BeforeSeq (when above 0) those below it:
	// the keys a page continues from, whichever the order.
	AfterSeq  int64
	BeforeSeq int64
	Limit     int
	Cycle     *int
	State     *MemberState
	Type      *EntryType
	// Newest lists the latest entry first.
	Newest bool
	// From and To bound the time an entry was recorded (At): From ≤ At < To; zero
	// leaves that side open.
	From, To time.Time
	// Ref keeps the entries whose Ref (a case, an arrival, a pledge's own reference)
	// is Ref or starts with it, ignoring case; at most MaxSearchLength bytes.
	Ref string
}

// Totals are a state's deliveries in a cycle, summed from the entries (ledger.Delta):
// one amount per delivery type of the measures (Delivered.Of).
type Totals struct {
	Cycle     int         `json:"cycle"`
	State     MemberState `json:"state"`
	Delivered Amounts     `json:"delivered"`
}

// Projection is what a store derives from the delivery entries (ledger.Delta), read
// in one snapshot: the totals per (cycle, state) and per (cycle, state, UTC day of
// recording), and Seq, the last entry they include. Rows are in (cycle, state, day)
// order.
type Projection struct {
	Seq    int64
	Totals []Totals
	Daily  []DayTotals
}

// DayTotals are a state's deliveries in a cycle recorded on one UTC day.
type DayTotals struct {
	Day string // "2006-01-02"
	Totals
}

// Credential is a hashed secret that authenticates a user: an API token ("token") or a
// browser session ("session"). Only the hash is stored.
type Credential struct {
	Kind    string // "token" or "session"
	Hash    string // hex SHA-256 of the secret
	UserID  int64
	Label   string
	Expires time.Time // zero: never
	// Created is set by the store. IdleUntil, for sessions, is when an unused
	// session ends before Expires (zero: no idle limit).
	Created   time.Time
	IdleUntil time.Time
}

// TokenID is the public name of an API token: the first TokenIDLength hex digits
// of its hash, which tell nothing of the secret.
func TokenID(hash string) string { return hash[:min(len(hash), TokenIDLength)] }

// TokenIDLength is the length of a TokenID.
const TokenIDLength = 16

// Token is what may be shown of an API token: never its secret or hash.
type Token struct {
	ID      string    `json:"id"`
	User    string    `json:"user"`
	Label   string    `json:"label,omitempty"`
	Created time.Time `json:"created_at,omitzero"`
	Expires time.Time `json:"expires_at,omitzero"` // zero: never (tokens made before expiry existed)
}

// UserUpdate changes an account; nil fields stay as they are.
type UserUpdate struct {
	PasswordHash *string
	Disabled     *bool
	// EndSessions deletes the user's browser sessions but the one whose hash is
	// KeepSession (if any).
	EndSessions bool
	KeepSession string
}

// Admin log actions.
const (
	AdminUserAdd        = "user.add"
	AdminUserDisable    = "user.disable"
	AdminUserEnable     = "user.enable"
	AdminPasswordChange = "password.change" // by the user
	AdminPasswordReset  = "password.reset"  // by a coordinator or the operator
	AdminTokenCreate    = "token.create"
	AdminTokenRevoke    = "token.revoke"
)

// AdminEvent is one line of the admin log: who did what to which account. Detail
// holds at most a token's ID and label, a role, a state.
type AdminEvent struct {
	Seq    int64     `json:"seq"`
	At     time.Time `json:"at"`
	Actor  string    `json:"actor"`
	Action string    `json:"action"`
	User   string    `json:"user"`
	Detail string    `json:"detail,omitempty"`
}
