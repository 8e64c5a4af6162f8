package pool

import (
	"math/big"
	"time"

	"solidarity"
)

// This file holds what the ledger adds to a computed pool: how much of a state's
// obligation is still outstanding once deliveries are counted, and whether its
// non-financial delivery keeps the pace of Art. 60(3). Both are pure and exact; the
// ledger service feeds them the delivered figures and the report rounds them.

// Outstanding is the obligation not yet delivered: obligation − delivered, never below
// zero (a state that delivered more owes nothing, and is not owed). Both are in
// relocation-equivalents.
func Outstanding(obligation, delivered *big.Rat) *big.Rat {
	o := new(big.Rat).Sub(obligation, delivered)
	if o.Sign() < 0 {
		o.SetInt64(0)
	}
	return o
}

// Elapsed is the share of the operational period [start, end] behind asOf, clamped to
// [0, 1], counted in whole seconds: the deadline day counts in full (the period ends
// at the end of end's day). Without a period (no start, or an end not after it) the
// whole period has elapsed.
func Elapsed(start, end, asOf time.Time) *big.Rat {
	if start.IsZero() || !end.After(start) {
		return big.NewRat(1, 1)
	}
	end = end.Add(24 * time.Hour) // the deadline day is included
	switch {
	case !asOf.After(start):
		return new(big.Rat)
	case !asOf.Before(end):
		return big.NewRat(1, 1)
	}
	return big.NewRat(int64(asOf.Sub(start)/time.Second), int64(end.Sub(start)/time.Second))
}

// Pace compares a state's non-financial delivery with the Art. 60(3) expectation:
// non-financial pledges implemented before the end of the year "in proportion to
// their overall pledge", read here as linear over the operational period. All figures
// are relocation-equivalents.
type Pace struct {
	// Known is false when the state's pledge is not known: then nothing is expected
	// that anyone could check, and the pace is unknown rather than "on pace".
	Known     bool
	Pledged   *big.Rat // the paced pledges (Measure.Paced)
	Expected  *big.Rat // Pledged × Elapsed
	Delivered *big.Rat // the paced deliveries and accepted offsets
	Behind    bool     // known, and Delivered < Expected
	Elapsed   *big.Rat
}

// PaceOf is the pace of s in a pool of eurPerRelocation (Art. 12(2)) given its paced
// deliveries (relocation-equivalents) and the elapsed share of the period (Elapsed).
func PaceOf(s *State, eurPerRelocation solidarity.Cents, delivered, elapsed *big.Rat) Pace {
	pledged := new(big.Rat)
	if s.PledgeKnown {
		pledged = s.Pledged.Paced(eurPerRelocation)
	}
	expected := new(big.Rat).Mul(pledged, elapsed)
	return Pace{Known: s.PledgeKnown, Pledged: pledged, Expected: expected, Delivered: new(big.Rat).Set(delivered),
		Behind: s.PledgeKnown && delivered.Cmp(expected) < 0, Elapsed: new(big.Rat).Set(elapsed)}
}
