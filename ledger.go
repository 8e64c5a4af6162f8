package solidarity

import (
	"encoding/json"
	"time"
)

// EntryType names what a ledger entry records. Every change to the solidarity record is
// one append-only entry; balances are derived from entries, never edited.
type EntryType string

const (
	CycleCreated         EntryType = "cycle.created"         // Art. 57(1): the pool is established
	CycleAmended         EntryType = "cycle.amended"         // Art. 57(1): the act is amended
	StatusDecided        EntryType = "status.decided"        // Art. 11 decision; Arts. 58–59 notifications
	PledgeMade           EntryType = "pledge.made"           // Art. 57(1), Art. 56(2)
	PledgeChanged        EntryType = "pledge.changed"        // Art. 57(1)
	DeductionRequested   EntryType = "deduction.requested"   // Arts. 61(1), 62(1)
	DeductionAssessed    EntryType = "deduction.assessed"    // Art. 61(3): within four weeks
	DeductionDecided     EntryType = "deduction.decided"     // Art. 61(4): Council implementing act
	OffsetRequested      EntryType = "offset.requested"      // Arts. 63(1), 69(1)
	OffsetOffered        EntryType = "offset.offered"        // Arts. 63(2), 69
	OffsetReplied        EntryType = "offset.replied"        // Art. 69(2): within 30 days
	RelocationDelivered  EntryType = "relocation.delivered"  // Arts. 67–68
	PaymentMade          EntryType = "payment.made"          // Art. 64
	AlternativeDelivered EntryType = "alternative.delivered" // Art. 65
)

// EntryTypes lists every entry type.
func EntryTypes() []EntryType {
	out := []EntryType{CycleCreated, CycleAmended, StatusDecided, PledgeMade, PledgeChanged,
		DeductionRequested, DeductionAssessed, DeductionDecided, OffsetRequested, OffsetOffered,
		OffsetReplied}
	out = append(out, DeliveryTypes()...) // one per delivery of the measures (measure.go)
	return append(out, ArrivalRegistered, CaseEvent, CasesErased, CasesResealed)
}

// Entry is one link of the hash-chained ledger. Payload is the canonical JSON of the
// type's payload struct, stored and hashed byte for byte.
type Entry struct {
	Seq        int64           `json:"seq"`
	Cycle      int             `json:"cycle"`
	Type       EntryType       `json:"type"`
	State      MemberState     `json:"state,omitempty"` // the state the entry is about
	Ref        string          `json:"ref,omitempty"`   // request or offset id linking entries
	Actor      string          `json:"actor"`
	At         time.Time       `json:"at"`
	LegalBasis string          `json:"legal_basis"`
	Payload    json.RawMessage `json:"payload"`
	PrevHash   string          `json:"prev_hash"` // hex SHA-256 of the previous entry; "" for the first
	Hash       string          `json:"hash"`      // hex SHA-256 of this entry's canonical encoding
}

// Payloads of the entry types.

// CyclePayload establishes or amends a pool: the whole cycle file.
type CyclePayload struct {
	TOML string `json:"toml"`
}

// StatusPayload records a state's situation (Art. 11; Arts. 58–59).
type StatusPayload struct {
	UnderPressure        bool   `json:"under_pressure"`
	AtRisk               bool   `json:"at_risk"`
	SignificantSituation bool   `json:"significant_situation"`
	Benefitting          bool   `json:"benefitting"`
	Act                  string `json:"act,omitempty"`
}

// PledgePayload sets a state's pledge of one type to an amount (made or changed).
type PledgePayload struct {
	Type        PledgeType `json:"type"`
	Relocations int64      `json:"relocations,omitempty"`
	EURCents    Cents      `json:"eur_cents,omitempty"`
}

// DeductionPayload requests (Arts. 61(1), 62(1)) or decides (Art. 61(4)) a deduction.
// Exactly one of Full, Fraction and Relocations describes its extent.
type DeductionPayload struct {
	Article     string `json:"article"` // "Art. 61" or "Art. 62"
	Full        bool   `json:"full,omitempty"`
	Fraction    string `json:"fraction,omitempty"` // exact, e.g. "1/2"
	Relocations int64  `json:"relocations,omitempty"`
	Reason      string `json:"reason,omitempty"`
	Granted     bool   `json:"granted,omitempty"` // decisions only
	Act         string `json:"act,omitempty"`     // decisions only: the Council implementing act
}

// AssessmentPayload is the Commission's assessment of a deduction request (Art. 61(3)).
type AssessmentPayload struct {
	Favourable bool   `json:"favourable"`
	Summary    string `json:"summary,omitempty"`
}

// OffsetPayload requests or offers responsibility offsets (Arts. 63, 69): Counterpart is
// the other state; Applications the number of applications.
type OffsetPayload struct {
	Counterpart  MemberState `json:"counterpart"`
	Applications int64       `json:"applications"`
}

// ReplyPayload answers an offset request within 30 days (Art. 69(2)); Accepted may be
// lower than requested.
type ReplyPayload struct {
	Accepted int64 `json:"accepted"`
}

// DeliveryPayload records solidarity delivered: relocations (Arts. 67–68), a payment
// (Art. 64) or alternative measures valued in euro (Art. 65). OverDelivery must be set
// to deliver beyond the pledge.
type DeliveryPayload struct {
	Relocations  int64  `json:"relocations,omitempty"`
	EURCents     Cents  `json:"eur_cents,omitempty"`
	OverDelivery bool   `json:"over_delivery,omitempty"`
	Reference    string `json:"reference,omitempty"` // transfer or payment reference
	// Transfer is set when the delivery is a relocation transfer recorded by the case
	// flow (Art. 68): the entry is then also the cases' transition, so the delivery
	// and the cases' move land together.
	Transfer *CaseEventPayload `json:"transfer,omitempty"`
}
