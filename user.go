package solidarity

import (
	"context"
	"log/slog"
)

// Role is what a user is in the solidarity process. The permissions of each role are
// data (Permissions), checked in the service layer, and deny by default.
type Role string

const (
	Coordinator Role = "coordinator" // EU Solidarity Coordinator's team: everything
	Officer     Role = "officer"     // a Member State's liaison officer: its own state only
	Auditor     Role = "auditor"     // reads everything, writes nothing, verifies the ledger
	Public      Role = "public"      // no login: published figures only
)

// Roles lists the roles.
func Roles() []Role { return []Role{Coordinator, Officer, Auditor, Public} }

// User is an account. An officer acts for exactly one Member State.
type User struct {
	ID    int64       `json:"id"`
	Name  string      `json:"name"`
	Role  Role        `json:"role"`
	State MemberState `json:"state,omitempty"`
	// Disabled accounts cannot log in, and their sessions and tokens do not work.
	Disabled bool `json:"disabled,omitempty"`
}

// LogValue keeps logs to the user name and role.
func (u *User) LogValue() slog.Value {
	if u == nil {
		return slog.StringValue("anonymous")
	}
	return slog.GroupValue(slog.String("name", u.Name), slog.String("role", string(u.Role)))
}

// Action is something a user may ask the service to do.
type Action string

const (
	ReadPublished   Action = "read.published" // pool figures, balances at Union level
	ReadStateDetail Action = "read.state"     // a state's pledges, requests and deliveries
	ReadLedger      Action = "read.ledger"    // the entries themselves
	VerifyLedger    Action = "verify.ledger"  // run the chain verification
	WriteCycle      Action = "write.cycle"    // create or amend a cycle
	WriteStatus     Action = "write.status"   // record statuses
	WritePledge     Action = "write.pledge"   // make or change a pledge
	RequestDeduct   Action = "write.deduction.request"
	AssessDeduct    Action = "write.deduction.assess"
	DecideDeduct    Action = "write.deduction.decide"
	RequestOffset   Action = "write.offset.request" // request or offer
	ReplyOffset     Action = "write.offset.reply"
	WriteDelivery   Action = "write.delivery"
	ManageUsers     Action = "admin.users"

	// The case flow (issue 4). An officer's "own state" for a case is its benefitting
	// state, or its state of relocation once the person is allocated there.
	ReadCases      Action = "read.cases"        // pseudonymous cases: states, deadlines, counts
	ReadPersonal   Action = "read.personal"     // a person's record (every read is logged)
	WriteArrival   Action = "write.arrival"     // register a disembarkation and its people
	WriteCaseEvent Action = "write.case"        // record a legal event on a case
	AssignCase     Action = "write.case.assign" // allocate relocation candidates to a pledging state
	EraseCases     Action = "admin.erase"       // apply the retention rule
	ReadAccessLog  Action = "read.access"       // who read which personal record
	ReadAdminLog   Action = "read.admin"        // who changed which account (issue 12)
)

// Scope limits a permission.
type Scope int

const (
	Denied   Scope = iota // the zero value: deny by default
	OwnState              // only for the user's own Member State
	AnyState              // for any state
)

// Permissions is the role → action → scope table. Anything absent is denied.
// Assessments and decisions are the Commission's and the Council's acts, recorded by the
// Coordinator's team; officers record their own state's pledges, requests, replies and
// deliveries.
var Permissions = map[Role]map[Action]Scope{
	Coordinator: {
		ReadPublished: AnyState, ReadStateDetail: AnyState, ReadLedger: AnyState, VerifyLedger: AnyState,
		WriteCycle: AnyState, WriteStatus: AnyState, WritePledge: AnyState, RequestDeduct: AnyState,
		AssessDeduct: AnyState, DecideDeduct: AnyState, RequestOffset: AnyState, ReplyOffset: AnyState,
		WriteDelivery: AnyState, ManageUsers: AnyState,
		ReadCases: AnyState, ReadPersonal: AnyState, WriteArrival: AnyState, WriteCaseEvent: AnyState,
		AssignCase: AnyState, EraseCases: AnyState, ReadAccessLog: AnyState, ReadAdminLog: AnyState,
	},
	Officer: {
		ReadPublished: AnyState, ReadStateDetail: OwnState,
		WritePledge: OwnState, RequestDeduct: OwnState, RequestOffset: OwnState, ReplyOffset: OwnState,
		WriteDelivery: OwnState,
		ReadCases:     OwnState, ReadPersonal: OwnState, WriteArrival: OwnState, WriteCaseEvent: OwnState,
	},
	// Auditors see the flow pseudonymously and who read what, never a person.
	Auditor: {
		ReadPublished: AnyState, ReadStateDetail: AnyState, ReadLedger: AnyState, VerifyLedger: AnyState,
		ReadCases: AnyState, ReadAccessLog: AnyState, ReadAdminLog: AnyState,
	},
	Public: {
		ReadPublished: AnyState,
	},
}

// Can reports whether u may do a for state ("" when the action concerns no single
// state). A nil user is the public.
func Can(u *User, a Action, state MemberState) bool {
	role := Public
	if u != nil {
		role = u.Role
	}
	switch Permissions[role][a] {
	case AnyState:
		return true
	case OwnState:
		return u != nil && u.State != "" && state == u.State
	}
	return false
}

// System is the actor of operations the local command line performs on its own
// database (bootstrapping users, seeding cycles): it has the coordinator's rights and is
// never reachable over the network.
var System = &User{Name: "system", Role: Coordinator}

type userKey struct{}

// NewContextWithUser returns ctx carrying the acting user.
func NewContextWithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFromContext returns the acting user, or nil for the public.
func UserFromContext(ctx context.Context) *User {
	u, _ := ctx.Value(userKey{}).(*User)
	return u
}
