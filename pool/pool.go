// Package pool computes an Annual Solidarity Pool (Regulation (EU) 2024/1351, Arts. 12,
// 56–63): each Member State's fair share in relocations and in euro, its obligation
// after deductions, what it pledged in relocation-equivalents, its coverage and
// shortfall, and the Union-level totals and offset conditions of Art. 63.
//
// Compute is pure: a cycle and a key in, a result out. Unknown pledges stay unknown:
// every derived figure that would need them is reported as unknown, never as zero.
// Pledges are summed and valued by the table of measures (solidarity.Measures).
//
//	pool.go     Compute, in the order of the law, and Pledged
//	balance.go  what deliveries add: Outstanding, Elapsed and the Art. 60(3) PaceOf
package pool

import (
	"fmt"
	"math/big"
	"time"

	"solidarity"
	"solidarity/apportion"
	"solidarity/key"
)

// Tri is a three-valued answer for conditions that depend on figures nobody has
// reported yet.
type Tri string

const (
	Yes     Tri = "yes"
	No      Tri = "no"
	Unknown Tri = "unknown"
)

func tri(b bool) Tri {
	if b {
		return Yes
	}
	return No
}

// Pledged is a state's pledges summed by type: one amount per measure, in the order
// of solidarity.Measures, each in its measure's unit.
type Pledged struct {
	amounts [solidarity.MaxMeasures]int64
}

// Of returns the pledges of type t (0 for NoPledge and unknown types).
func (p Pledged) Of(t solidarity.PledgeType) int64 {
	if i := solidarity.MeasureIndex(t); i >= 0 {
		return p.amounts[i]
	}
	return 0
}

// Relocations returns the relocation pledges (Art. 56(2)(a): the measures marked
// Relocation). Compute refuses pledges whose sums do not fit an int64 (checkSums), so
// for a computed pool the sum is exact.
func (p Pledged) Relocations() int64 {
	var n int64
	for i, m := range solidarity.Measures() {
		if m.Relocation {
			n += p.amounts[i]
		}
	}
	return n
}

// add adds q to p, and reports false when a sum does not fit an int64.
func (p *Pledged) add(q Pledged) bool {
	fits := true
	for i := range p.amounts {
		var ok bool
		p.amounts[i], ok = solidarity.AddChecked(p.amounts[i], q.amounts[i])
		fits = fits && ok
	}
	return fits && p.checkSums()
}

// addPledge adds one pledge to p, and reports false when a sum does not fit an int64.
func (p *Pledged) addPledge(pl solidarity.Pledge) bool {
	i := solidarity.MeasureIndex(pl.Type)
	if i < 0 {
		return true // NoPledge: known, and nothing
	}
	var one Pledged
	one.amounts[i] = pl.Amount()
	return p.add(one)
}

// checkSums reports whether the sums of each unit, which Relocations and Units take,
// fit an int64.
func (p Pledged) checkSums() bool {
	var persons, cents int64
	for i, m := range solidarity.Measures() {
		sum := &persons
		if m.Unit == solidarity.EuroCents {
			sum = &cents
		}
		var ok bool
		if *sum, ok = solidarity.AddChecked(*sum, p.amounts[i]); !ok {
			return false
		}
	}
	return true
}

// Units values the pledges in relocation-equivalents, each at its measure's valuation:
// the types are of equal value (Art. 56(2)); euro amounts convert at the cycle's ratio
// (Art. 12(2), recital 15).
func (p Pledged) Units(eurPerRelocation solidarity.Cents) *big.Rat {
	u := new(big.Rat)
	for i, m := range solidarity.Measures() {
		u.Add(u, m.Value(p.amounts[i], eurPerRelocation))
	}
	return u
}

// Paced values the pledges that Art. 60(3) paces (the measures marked Paced) in
// relocation-equivalents: what is to be implemented in proportion over the year.
func (p Pledged) Paced(eurPerRelocation solidarity.Cents) *big.Rat {
	u := new(big.Rat)
	for i, m := range solidarity.Measures() {
		if m.Paced {
			u.Add(u, m.Value(p.amounts[i], eurPerRelocation))
		}
	}
	return u
}

// Dominant returns the pledge type with the largest value, or NoPledge; of equal
// values, the first in the table.
func (p Pledged) Dominant(eurPerRelocation solidarity.Cents) solidarity.PledgeType {
	best, bestV := solidarity.NoPledge, new(big.Rat)
	for i, m := range solidarity.Measures() {
		if v := m.Value(p.amounts[i], eurPerRelocation); v.Cmp(bestV) > 0 {
			best, bestV = m.Pledge, v
		}
	}
	return best
}

// State is the pool as it stands for one Member State.
type State struct {
	State  solidarity.MemberState
	Key    key.Share
	Quota  *big.Rat // share × reference relocations, exact
	Status solidarity.Status

	// FairShare is the quota apportioned to whole relocations with the chosen method.
	FairShare int64
	// FairShareEUR is the fair share in euro: FairShare × the cycle's EUR per
	// relocation (spec §3: fair_eur = fair_units × 20 000), so that both figures measure
	// the same obligation; with round-up the total can exceed the reference amount.
	FairShareEUR solidarity.Cents

	Deductions []solidarity.Deduction // in force at the as-of date
	Deducted   *big.Rat               // relocation-equivalents, capped at the fair share
	// Obligation is what the state must implement: fair share less deductions, and zero
	// while it is a benefitting state (it keeps its fair share but does not implement;
	// recital, spec rule 28).
	Obligation *big.Rat

	PledgeKnown  bool
	Pledges      []solidarity.Pledge
	Pledged      Pledged
	PledgedUnits *big.Rat // nil when unknown
	// Coverage is pledged/obligation; nil when unknown or when there is no obligation.
	Coverage  *big.Rat
	Shortfall *big.Rat // max(0, obligation − pledged); nil when unknown (known 0 with no obligation)
	// MayOfferOffsets is Art. 63(2): the Union condition of 63(1), or (b) the state's own
	// relocation pledge is at least half its mandatory fair share; always No for a
	// benefitting state, whose route is 63(1).
	MayOfferOffsets   Tri
	OwnRelocationHalf Tri // Art. 63(2)(b) alone
}

// Union is the pool at Union level.
type Union struct {
	Reference         solidarity.Numbers
	Proposal          solidarity.Numbers
	FairShareTotal    int64            // Σ apportioned fair shares (equals the reference except with round-up)
	FairShareEURTotal solidarity.Cents // Σ FairShareEUR
	ObligationTotal   *big.Rat
	Pledged           Pledged // known pledges only
	PledgedUnits      *big.Rat
	UnknownPledges    []solidarity.MemberState
	SARRelocations    *big.Rat // SAR indicative share × reference, nil when not set
	// Art. 63(1): relocation pledges ≥ 50 % of the Commission-proposed number; nil
	// when the cycle does not give that number.
	OffsetThreshold       *big.Rat
	BenefittingMayRequest Tri
}

// Result is a computed pool.
type Result struct {
	Cycle  *solidarity.Cycle
	Key    *key.Key
	Method apportion.Method
	AsOf   time.Time // zero: every deduction in the file
	States []State
	Union  Union
	Notes  []string
}

// Art63Ratio is the "50 %" of Art. 63(1) and 63(2)(b) (tag V).
var Art63Ratio = big.NewRat(1, 2)

// Compute computes the pool of c over key k with method m, counting the deductions
// dated on or before asOf (all of them when asOf is zero). It goes in the order of the
// law: fair shares (Art. 66), deductions (Arts. 61–62) and obligations, pledges
// (Art. 56(2), Art. 57(1)) and their coverage, and the offset conditions (Art. 63).
func Compute(c *solidarity.Cycle, k *key.Key, m apportion.Method, asOf time.Time) (*Result, error) {
	if err := check(c, k); err != nil {
		return nil, err
	}
	fair, err := apportion.Apportion(m, c.Reference.Relocations, k.Weights())
	if err != nil {
		return nil, err
	}
	quotas, _ := apportion.Quotas(c.Reference.Relocations, k.Weights())

	r := &Result{Cycle: c, Key: k, Method: m, AsOf: asOf}
	u := &r.Union
	u.Reference, u.Proposal = c.Reference, c.Proposal
	u.ObligationTotal = new(big.Rat)
	if c.Proposal.Relocations > 0 {
		u.OffsetThreshold = new(big.Rat).Mul(Art63Ratio, big.NewRat(c.Proposal.Relocations, 1))
	}
	if c.SARShare != nil {
		u.SARRelocations = new(big.Rat).Mul(c.SARShare, big.NewRat(c.Reference.Relocations, 1))
	}
	for i, sh := range k.Shares {
		s := State{State: sh.State, Key: sh, Quota: quotas[i], Status: c.Statuses[sh.State], FairShare: fair[i]}
		if err := s.fairShare(c, u); err != nil {
			return nil, err
		}
		s.deduct(c.Deductions, asOf)
		u.ObligationTotal.Add(u.ObligationTotal, s.Obligation)
		if err := s.pledge(c, asOf, u); err != nil {
			return nil, err
		}
		r.States = append(r.States, s)
	}
	u.PledgedUnits = u.Pledged.Units(c.EURPerRelocation)
	u.BenefittingMayRequest = u.art63_1()
	for i := range r.States {
		r.States[i].MayOfferOffsets = r.States[i].art63_2(u.BenefittingMayRequest)
	}
	r.Notes = notes(c, r)
	return r, nil
}

// fairShare sets the fair share in euro (Art. 66, spec §3) and adds both figures to
// the Union's totals, refusing sums beyond an int64.
func (s *State) fairShare(c *solidarity.Cycle, u *Union) error {
	var ok1, ok2, ok3 bool
	s.FairShareEUR, ok1 = solidarity.MulChecked(solidarity.Cents(s.FairShare), c.EURPerRelocation)
	u.FairShareTotal, ok2 = solidarity.AddChecked(u.FairShareTotal, s.FairShare)
	u.FairShareEURTotal, ok3 = solidarity.AddChecked(u.FairShareEURTotal, s.FairShareEUR)
	if !ok1 || !ok2 || !ok3 {
		return overflow(c, "fair shares in euro")
	}
	return nil
}

// deduct applies the deductions of s in force at asOf (Arts. 61(4), 62), capped at the
// fair share, and sets the obligation: the fair share less them, and zero while s is a
// benefitting state.
func (s *State) deduct(deductions []solidarity.Deduction, asOf time.Time) {
	fairR := big.NewRat(s.FairShare, 1)
	s.Deducted = new(big.Rat)
	for _, d := range deductions {
		if d.State != s.State || (!asOf.IsZero() && d.Date.After(asOf)) {
			continue
		}
		s.Deductions = append(s.Deductions, d)
		switch {
		case d.Full:
			s.Deducted.Set(fairR)
		case d.Fraction != nil:
			s.Deducted.Add(s.Deducted, new(big.Rat).Mul(d.Fraction, fairR))
		default:
			s.Deducted.Add(s.Deducted, big.NewRat(d.Relocations, 1))
		}
	}
	if s.Deducted.Cmp(fairR) > 0 {
		s.Deducted.Set(fairR)
	}
	s.Obligation = new(big.Rat).Sub(fairR, s.Deducted)
	if s.Status.Benefitting {
		s.Obligation.SetInt64(0)
	}
}

// pledge sums the pledges of s made by asOf, and from them its units, coverage,
// shortfall and the Art. 63(2)(b) condition; known pledges add to the Union's.
func (s *State) pledge(c *solidarity.Cycle, asOf time.Time, u *Union) error {
	for _, p := range c.Pledges {
		// A pledge dated after the as-of day is not yet part of the pool.
		if p.State != s.State || (!asOf.IsZero() && !p.Date.IsZero() && p.Date.After(asOf)) {
			continue
		}
		s.PledgeKnown = true
		s.Pledges = append(s.Pledges, p)
		if !s.Pledged.addPledge(p) {
			return overflow(c, fmt.Sprintf("%s's pledges", s.State))
		}
	}
	s.MayOfferOffsets, s.OwnRelocationHalf = Unknown, Unknown
	if !s.PledgeKnown {
		u.UnknownPledges = append(u.UnknownPledges, s.State)
		if s.Obligation.Sign() == 0 {
			// Nothing to implement: the shortfall is zero whatever was pledged.
			s.Shortfall = new(big.Rat)
		}
		return nil
	}
	s.PledgedUnits = s.Pledged.Units(c.EURPerRelocation)
	if s.Obligation.Sign() > 0 {
		s.Coverage = new(big.Rat).Quo(s.PledgedUnits, s.Obligation)
	}
	s.Shortfall = Outstanding(s.Obligation, s.PledgedUnits)
	// Art. 63(2)(b): relocation pledge ≥ 50 % of the mandatory fair share.
	half := new(big.Rat).Mul(Art63Ratio, big.NewRat(s.FairShare, 1))
	s.OwnRelocationHalf = tri(new(big.Rat).SetInt64(s.Pledged.Relocations()).Cmp(half) >= 0)
	// Art. 63(1) counts the Union's relocation pledges: a sum that wrapped would flip
	// the condition (issue 12), so it is checked.
	if !u.Pledged.add(s.Pledged) {
		return overflow(c, "the Union's pledges")
	}
	return nil
}

// art63_1 is Art. 63(1): the benefitting states may request offsets once relocation
// pledges in the act reach half the Commission-proposed number. Known pledges that
// already reach it settle the question; otherwise unknown pledges leave it open.
// Without the Commission's number (it is not always public) the question is open.
func (u *Union) art63_1() Tri {
	switch {
	case u.OffsetThreshold == nil:
		return Unknown
	case big.NewRat(u.Pledged.Relocations(), 1).Cmp(u.OffsetThreshold) >= 0:
		return Yes
	case len(u.UnknownPledges) > 0:
		return Unknown
	}
	return No
}

// art63_2 is Art. 63(2): a contributing state may offer offsets when the Union
// condition of 63(1) holds or (b) its own relocation pledge is half its fair share. A
// benefitting state requests offsets under 63(1) instead, so never offers them.
func (s *State) art63_2(benefittingMayRequest Tri) Tri {
	switch {
	case s.Status.Benefitting:
		return No
	case benefittingMayRequest == Yes || s.OwnRelocationHalf == Yes:
		return Yes
	case benefittingMayRequest == Unknown || s.OwnRelocationHalf == Unknown:
		return Unknown
	}
	return No
}

func notes(c *solidarity.Cycle, r *Result) []string {
	var n []string
	if c.Illustrative {
		n = append(n, fmt.Sprintf("The %d cycle is illustrative, not an adopted pool.", c.Year))
	}
	if k := len(r.Union.UnknownPledges); k > 0 {
		n = append(n, fmt.Sprintf("%d states have no reported pledge: their pledge, coverage and shortfall are unknown, not zero.", k))
	}
	if r.Method == apportion.RoundUp && r.Union.FairShareTotal != c.Reference.Relocations {
		n = append(n, fmt.Sprintf("Round-up apportionment: fair shares sum to %d, %d above the reference number %d.",
			r.Union.FairShareTotal, r.Union.FairShareTotal-c.Reference.Relocations, c.Reference.Relocations))
	}
	return n
}

// overflow is the error of a pool whose figures sum beyond an int64: the file's
// figures are within the bounds one by one, but not together.
func overflow(c *solidarity.Cycle, what string) error {
	e := solidarity.Overflow(solidarity.EINVALID, what)
	e.File = c.File
	return e
}

func check(c *solidarity.Cycle, k *key.Key) error {
	if c.Reference.Relocations <= 0 {
		return &solidarity.Error{Code: solidarity.EINVALID, File: c.File, Field: "reference.relocations",
			Message: "the reference number of relocations must be positive", Article: "Art. 57(1) AMMR"}
	}
	if c.Reference.EUR < 0 || c.Proposal.Relocations < 0 || c.Proposal.EUR < 0 {
		return &solidarity.Error{Code: solidarity.EINVALID, File: c.File, Field: "reference",
			Message: "pool numbers must not be negative", Article: "Art. 12(2) AMMR"}
	}
	if c.EURPerRelocation <= 0 {
		return &solidarity.Error{Code: solidarity.EINVALID, File: c.File, Field: "eur_per_relocation",
			Message: "the ratio must be positive", Article: "Art. 12(2) AMMR; recital 15 AMMR"}
	}
	// The key must cover exactly the participating set.
	in := map[solidarity.MemberState]bool{}
	for _, s := range k.Shares {
		in[s.State] = true
	}
	if len(in) != len(c.Participating) {
		return &solidarity.Error{Code: solidarity.EINVALID, File: c.File, Field: "participating",
			Message: fmt.Sprintf("the key covers %d states but the cycle names %d participating states", len(in), len(c.Participating))}
	}
	for _, m := range c.Participating {
		if !in[m] {
			return &solidarity.Error{Code: solidarity.EINVALID, File: c.File, Field: "participating",
				Message: fmt.Sprintf("participating state %s has no share in the key", m)}
		}
	}
	for _, p := range c.Pledges {
		if !in[p.State] {
			return &solidarity.Error{Code: solidarity.EINVALID, File: c.File, Field: "pledge.state",
				Message: fmt.Sprintf("pledge for %s, which is not in the participating set", p.State), Article: "Art. 57(1) AMMR"}
		}
	}
	for _, d := range c.Deductions {
		if !in[d.State] {
			return &solidarity.Error{Code: solidarity.EINVALID, File: c.File, Field: "deduction.state",
				Message: fmt.Sprintf("deduction for %s, which is not in the participating set", d.State), Article: "Art. 61 AMMR; Art. 62 AMMR"}
		}
	}
	return nil
}
