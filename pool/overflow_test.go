package pool_test

import (
	"math"
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/apportion"
	"solidarity/pool"
)

// Issue 12 §2: two maximal pledges wrapped the Union total to −2, and one flipped the
// Art. 63(1) condition. For any pledges, huge ones included, Compute either refuses
// the pool (EINVALID) or reports per-state and Union pledges equal to the exact sums,
// and decides Art. 63(1) on the exact sum.
func TestPledgeSumsExactOrRefused(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, k := fixture()
		amount := rapid.OneOf(rapid.Int64Range(1, 1000), rapid.Int64Range(1, math.MaxInt64),
			rapid.SampledFrom([]int64{math.MaxInt64, math.MaxInt64 / 2, solidarity.MaxRelocations, int64(solidarity.MaxCents)}))
		types := []solidarity.PledgeType{solidarity.RelocationApplicants, solidarity.RelocationBeneficiaries, solidarity.Offset, solidarity.Financial, solidarity.Alternative}
		c.Pledges = nil
		n := rapid.IntRange(0, 12).Draw(t, "n")
		exact := map[solidarity.PledgeType]*big.Int{}
		for _, ty := range types {
			exact[ty] = new(big.Int)
		}
		for range n {
			p := solidarity.Pledge{State: rapid.SampledFrom(c.Participating).Draw(t, "state"), Type: rapid.SampledFrom(types).Draw(t, "type")}
			a := amount.Draw(t, "amount")
			if p.Type.InUnits() {
				p.Relocations = a
			} else {
				p.EUR = solidarity.Cents(a)
			}
			exact[p.Type].Add(exact[p.Type], big.NewInt(a))
			c.Pledges = append(c.Pledges, p)
		}
		res, err := pool.Compute(c, k, apportion.Webster, time.Time{})
		if err != nil {
			if solidarity.ErrorCode(err) != solidarity.EINVALID {
				t.Fatalf("refused with %v, want %s", err, solidarity.EINVALID)
			}
			return
		}
		u := res.Union.Pledged
		got := map[solidarity.PledgeType]int64{}
		for _, ty := range types {
			got[ty] = u.Of(ty)
		}
		for ty, want := range exact {
			if !want.IsInt64() || got[ty] != want.Int64() {
				t.Fatalf("Union %s pledges %d, exact %v", ty, got[ty], want)
			}
		}
		reloc := new(big.Int).Add(exact[solidarity.RelocationApplicants], exact[solidarity.RelocationBeneficiaries])
		if u.Relocations() < 0 || reloc.Cmp(big.NewInt(u.Relocations())) != 0 {
			t.Fatalf("Union relocation pledges %d, exact %v", u.Relocations(), reloc)
		}
		// Art. 63(1) on the exact figure: at least half the proposal (1 500).
		if want := new(big.Rat).SetInt(reloc).Cmp(big.NewRat(750, 1)) >= 0; want != (res.Union.BenefittingMayRequest == pool.Yes) {
			t.Fatalf("Art. 63(1) %s with %v relocation pledges", res.Union.BenefittingMayRequest, reloc)
		}
	})
}
