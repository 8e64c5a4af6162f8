package solidarity

import (
	"math/big"
	"time"
)

// Certainty says how sure the project is of a fact, using the spec's tags:
// V read in the legal text, P partly read, R recalled, M modelled, S secondary
// (press, Council/Commission material relayed), U unattributed.
type Certainty string

// Fact is the provenance of one statement in a cycle file.
type Fact struct {
	Source    string    // URL or citation
	Certainty Certainty // V, P, R, M, S or U
	Note      string
}

// Numbers are Union-level totals of a pool: relocations and financial contributions.
type Numbers struct {
	Relocations int64
	EUR         Cents
	Fact
}

// Status is a Member State's situation in a cycle (Art. 11 decision; Arts. 58–59).
type Status struct {
	UnderPressure        bool // Art. 11(a)
	AtRisk               bool // Art. 11(b)
	SignificantSituation bool // Art. 11(c)
	Benefitting          bool // uses the pool (Arts. 58–59): keeps a fair share, does not implement
	Fact
}

// Deduction is a Council decision (Arts. 61(4), 62) relieving a state of part or all of
// its contribution, dated so that a pool can be computed as of any day. A fraction is a
// fraction of the fair share.
// Exactly one of Full, Fraction and Relocations is set.
type Deduction struct {
	State       MemberState
	Date        time.Time
	Full        bool
	Fraction    *big.Rat // of the fair share, in (0, 1]
	Relocations int64    // relocation-equivalents
	Act         string   // the legal act deciding it
	Article     string   // "Art. 61" or "Art. 62"
	Fact
}

// PledgeType is one of the solidarity measures of Art. 56(2), plus responsibility
// offsets (Art. 63) which count toward the fair share (recital 33).
type PledgeType string

const (
	RelocationApplicants    PledgeType = "relocation-applicants"    // Art. 56(2)(a)(i)
	RelocationBeneficiaries PledgeType = "relocation-beneficiaries" // Art. 56(2)(a)(ii)
	Financial               PledgeType = "financial"                // Art. 56(2)(b)
	Alternative             PledgeType = "alternative"              // Art. 56(2)(c), valued in EUR
	Offset                  PledgeType = "offset"                   // Art. 63
	// NoPledge records that a state is known to have pledged nothing, which differs
	// from a pledge nobody has reported (no entry at all).
	NoPledge PledgeType = "none"
)

// Pledge is a state's commitment in the Council implementing act (Art. 57(1)).
type Pledge struct {
	State       MemberState
	Type        PledgeType
	Relocations int64 // for relocation and offset pledges
	EUR         Cents // for financial and alternative pledges
	Date        time.Time
	Fact
}

// DemoCycleBase is where the ids of demonstration cycles start: the Diciotti
// demonstration under the 2026 rules is cycle 9026. A demonstration gets a cycle of
// its own so that its pledges, deliveries and cases never enter a real pool's
// figures; no real pool year (Art. 57(1)) reaches this range.
const DemoCycleBase = 9000

// IsDemoCycle reports whether the cycle id c is a demonstration's own cycle.
func IsDemoCycle(c int) bool { return c >= DemoCycleBase && c < DemoCycleBase+1000 }

// Cycle is one Annual Solidarity Pool (Art. 57): the numbers the Commission proposed
// (Art. 12) and the Council adopted, who is in the key, each state's status, the
// deductions decided and the pledges made.
type Cycle struct {
	Year         int
	Title        string
	Illustrative bool   // not the real pool: a scenario or a teaching example
	Note         string // shown with the cycle
	LegalAct     string
	Adopted      time.Time
	PoolStart    time.Time // first cycle: 12 June 2026 (S)
	Deadline     time.Time // non-financial pledges implemented by then (Art. 60(3))
	// EURPerRelocation is the ratio of Art. 12(2) kept by recital 15: EUR 600 m /
	// 30 000 = EUR 20 000 (the ratio is V, the figure an arithmetic consequence).
	EURPerRelocation Cents
	Participating    []MemberState // the states in the key, in protocol order
	PopulationData   string        // dataset id or file
	GDPData          string
	Method           string   // default apportionment method for this cycle
	Proposal         Numbers  // Commission proposal, Art. 12(2): at least 30 000 / EUR 600 m
	Reference        Numbers  // Council implementing act, Art. 57(1)
	SARShare         *big.Rat // indicative share for SAR disembarkations, Art. 57(2); nil if none
	SARFact          Fact
	Statuses         map[MemberState]Status
	Deductions       []Deduction
	Pledges          []Pledge
	File             string // where the cycle was read from
	// Demonstration marks a demonstration's own cycle (IsDemoCycle(Year)): its
	// pledges, deliveries and cases are a replay with generated people, never part of
	// a real pool's figures.
	Demonstration bool
}
