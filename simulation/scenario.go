// Package simulation replays the past and asks "what if" of responsibility-sharing:
// a scenario (arrivals per month and state, a rule set, each state's choice and the
// operational parameters, every number with its source and certainty) is run once or
// N times with seeded randomness, and the result says, per state and month, what each
// state would owe, in which form, what would be delivered and when, and what the
// measures analysts use (deviation from the key, Gini, the pay-versus-relocate
// frontier, coverage, cost) come to.
//
// The package is domain code: it reads no file and opens no database. The scenario
// file (internal/scenariofile) resolves datasets and cycles into a Scenario; Prepare
// computes the fixed parts once (the key, fair shares, obligations); Model.Run and
// Model.Runs do the per-run work.
//
// scenario.go holds the types of a scenario; rules.go the four rule sets as a table;
// prepare.go the fixed parts; run.go one run; runs.go N runs and their bands;
// measures.go the measures; replay.go the published figures a replay must meet;
// rand.go the seeded distributions.
package simulation

import (
	"time"

	"solidarity"
	"solidarity/key"
)

// Code is a participant by its Eurostat code: an EU Member State or an associated
// state of the 2015 scheme (NO, CH, LI, IS), which took part voluntarily.
type Code = solidarity.MemberState

// Associated are the non-EU states that took part in the 2015 relocation scheme
// (historical-data.md §2.2) or the 2022 voluntary mechanism (§5.1).
var Associated = []struct {
	Code Code
	Name string
}{{"NO", "Norway"}, {"CH", "Switzerland"}, {"LI", "Liechtenstein"}, {"IS", "Iceland"}}

// ValidCode reports whether c is a Member State or an associated state.
func ValidCode(c Code) bool {
	if c.Valid() {
		return true
	}
	for _, a := range Associated {
		if a.Code == c {
			return true
		}
	}
	return false
}

// Name is the English name of c.
func Name(c Code) string {
	if c.Valid() {
		return c.Name()
	}
	for _, a := range Associated {
		if a.Code == c {
			return a.Name
		}
	}
	return string(c)
}

// Number is a figure of the scenario with its provenance. Known false means nobody
// has published it: the run uses Value as an assumption and the output lists every
// result that depends on it.
type Number struct {
	Value float64
	Known bool
	solidarity.Fact
	Name string // the field it came from, e.g. "operations.return_rate", for "depends on"
}

// Choice is how a state meets its obligation: the fractions it relocates, pays,
// offsets (Art. 63) and gives as alternative measures (Art. 56(2)(c)). What the
// fractions leave of 1 is refused.
type Choice struct {
	Relocate, Pay, Offset, Alternative float64
	Known                              bool // false: an assumption (the default choice)
	solidarity.Fact
}

// Refuse is the fraction of the obligation the choice leaves unmet.
func (c Choice) Refuse() float64 {
	r := 1 - c.Relocate - c.Pay - c.Offset - c.Alternative
	if r < 1e-12 {
		return 0
	}
	return r
}

// Form names the choice's main form, for tables: "relocate", "pay", "offset",
// "alternative", "refuse" or "mixed".
func (c Choice) Form() string {
	parts := []struct {
		name string
		v    float64
	}{{"relocate", c.Relocate}, {"pay", c.Pay}, {"offset", c.Offset}, {"alternative", c.Alternative}, {"refuse", c.Refuse()}}
	form := ""
	for _, p := range parts {
		if p.v >= 1-1e-9 {
			return p.name
		}
		if p.v > 1e-9 {
			if form != "" {
				return "mixed"
			}
			form = p.name
		}
	}
	return form
}

// Arrival is the mean number of applicants arriving in one state in one month, of
// one nationality or of all ("").
type Arrival struct {
	Month       int // 0-based step from Scenario.Start
	State       Code
	Nationality string
	Mean        float64
	Estimated   bool // spread from a yearly figure or otherwise not published per month
	solidarity.Fact
}

// Operations are the operational parameters: what happens to the people behind the
// numbers. Every rate is a fraction in [0, 1].
type Operations struct {
	// Recognition is the EU-wide first-instance recognition rate by nationality.
	Recognition map[string]Number
	// BorderThreshold: nationalities at or below it go to the border procedure
	// (Regulation (EU) 2024/1348 Art. 42(1)(j): 20 %).
	BorderThreshold Number
	// BorderCapacity is the border procedure's capacity per month, per state.
	BorderCapacity map[Code]Number
	// ReturnRate is the share of negative decisions followed by a return.
	ReturnRate Number
	// DublinTransferRatio: transfers over decisions on outgoing requests (EUAA 2024: 14 %).
	DublinTransferRatio Number
	// OffsetsAtTransferRatio counts an offset pledge only at the Dublin transfer
	// ratio: an offset is worth a transfer that would really have happened.
	OffsetsAtTransferRatio bool
	// LeadMonths is the time from the pool's start to the first relocations.
	LeadMonths Number
	// DeliveryRate is the share of pledged relocations actually carried out.
	DeliveryRate Number
	// EligibleShare is the share of arrivals in a benefitting state who can be
	// relocated (2015: nationalities recognised at 75 % or more).
	EligibleShare Number
	// ArrivalsScale multiplies every arrival mean (a what-if: 1.5 is "+50 %").
	ArrivalsScale Number
	// PressureThreshold: a state whose share of the arrivals is at least this
	// multiple of its key share counts as able to request a deduction (Art. 61(1):
	// "considering itself under migratory pressure"; the law leaves the assessment
	// to the Commission and the Council, so the threshold is an assumption, default 1).
	PressureThreshold Number
}

// Uncertainty gives the distributions of a run. Dispersion is the size parameter r
// of a negative binomial around each mean (variance μ + μ²/r); 0 means no noise.
type Uncertainty struct {
	ArrivalsDispersion Number
	DeliveryDispersion Number
}

// Observation is a published figure a replay must meet: relocations carried out up
// to a date, by one state ("" for the total), from one state of relocation ("" for
// all), or the "% of legal commitment" published with it.
type Observation struct {
	Date    time.Time
	State   Code // receiving state, "" = all
	From    Code // IT, EL or "" = all
	Value   int64
	Percent string // published "% of legal commitment", exactly as printed ("20.5"), or ""
	solidarity.Fact
}

// Scenario is everything a simulation needs, resolved: no file names, no dataset ids.
type Scenario struct {
	Name, Title, Note string
	Illustrative      bool
	File              string // where it was read from, for errors and downloads
	// Runs and Seed are the file's defaults for a run (0: not set); a command's
	// flags or a form's fields override them.
	Runs int
	Seed uint64

	Start  time.Time // first day of the first month, UTC
	Months int       // steps; every 12 months is one pool year

	Rules  RuleSet
	Params RuleParams

	// Participating are the states that share: the key's states (AMMR, Dublin IV)
	// or the scheme's (2015), in protocol order. Benefitting are the states
	// relocations come from and that keep a fair share but do not implement.
	Participating []Code
	Benefitting   []Code

	// Key is the reference key (Art. 66) over the EU participants, for the rule sets
	// that use it; Population is each state's population for per-capita measures.
	Key        *key.Key
	Population map[Code]int64
	// Cycle, when set, is a shipped pool whose statuses and deductions apply.
	Cycle *solidarity.Cycle
	// Commitments are fixed obligations per state (the 2015 annexes and pledges);
	// they override the key where given.
	Commitments map[Code]Number
	// KeyPercent is a published key in percent (the Commission's 2015 key), used by
	// the 2015 rules where Commitments are not given: obligation = % × Reference.
	KeyPercent map[Code]Number

	Arrivals      []Arrival
	Choices       map[Code]Choice
	DefaultChoice Choice
	Ops           Operations
	Uncertainty   Uncertainty
	// Observed deliveries replace simulated ones (a replay "as it happened").
	Observed []Observation
	// Published are further published figures the replay is compared with.
	Published []Observation
}
