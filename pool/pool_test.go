package pool_test

import (
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/apportion"
	"solidarity/key"
	"solidarity/pool"
)

func r(a, b int64) *big.Rat { return big.NewRat(a, b) }

// A small hand-checked pool: four states with shares 40/30/20/10 %, 1 000 relocations,
// EUR 20 m.
func fixture() (*solidarity.Cycle, *key.Key) {
	k, err := key.Reference([]key.Input{
		{State: "DE", Population: r(40, 1), GDP: r(40, 1)},
		{State: "FR", Population: r(30, 1), GDP: r(30, 1)},
		{State: "IT", Population: r(20, 1), GDP: r(20, 1)},
		{State: "AT", Population: r(10, 1), GDP: r(10, 1)},
	})
	if err != nil {
		panic(err)
	}
	c := &solidarity.Cycle{Year: 2030, EURPerRelocation: solidarity.EUR(20_000),
		Participating: []solidarity.MemberState{"DE", "FR", "IT", "AT"},
		Proposal:      solidarity.Numbers{Relocations: 1500, EUR: solidarity.EUR(30_000_000)},
		Reference:     solidarity.Numbers{Relocations: 1000, EUR: solidarity.EUR(20_000_000)},
		Statuses:      map[solidarity.MemberState]solidarity.Status{"IT": {UnderPressure: true, Benefitting: true}},
		Deductions: []solidarity.Deduction{
			{State: "AT", Date: time.Date(2030, 3, 1, 0, 0, 0, 0, time.UTC), Full: true, Act: "CID X"},
			{State: "FR", Date: time.Date(2030, 6, 1, 0, 0, 0, 0, time.UTC), Fraction: r(1, 2), Act: "CID Y"},
		},
		Pledges: []solidarity.Pledge{
			{State: "DE", Type: solidarity.RelocationApplicants, Relocations: 300},
			{State: "DE", Type: solidarity.Financial, EUR: solidarity.EUR(2_000_000)}, // 100 units
			{State: "FR", Type: solidarity.NoPledge},
		},
	}
	return c, k
}

func TestComputeByHand(t *testing.T) {
	c, k := fixture()
	res, err := pool.Compute(c, k, apportion.LargestRemainder, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	by := map[solidarity.MemberState]pool.State{}
	for _, s := range res.States {
		by[s.State] = s
	}
	de, fr, it, at := by["DE"], by["FR"], by["IT"], by["AT"]
	if de.FairShare != 400 || de.FairShareEUR != solidarity.EUR(8_000_000) {
		t.Errorf("DE fair share %d / %s", de.FairShare, de.FairShareEUR)
	}
	if de.PledgedUnits.Cmp(r(400, 1)) != 0 || de.Coverage.Cmp(r(1, 1)) != 0 || de.Shortfall.Sign() != 0 {
		t.Errorf("DE pledged %s coverage %s shortfall %s", de.PledgedUnits.RatString(), de.Coverage.RatString(), de.Shortfall.RatString())
	}
	if de.OwnRelocationHalf != pool.Yes { // 300 ≥ 0.5 · 400
		t.Errorf("DE 63(2)(b) = %s", de.OwnRelocationHalf)
	}
	if fr.Obligation.Cmp(r(150, 1)) != 0 || !fr.PledgeKnown || fr.PledgedUnits.Sign() != 0 || fr.Shortfall.Cmp(r(150, 1)) != 0 {
		t.Errorf("FR obligation %s pledged %v shortfall %v", fr.Obligation.RatString(), fr.PledgedUnits, fr.Shortfall)
	}
	if fr.OwnRelocationHalf != pool.No {
		t.Errorf("FR 63(2)(b) = %s, want no", fr.OwnRelocationHalf)
	}
	if it.FairShare != 200 || it.Obligation.Sign() != 0 {
		t.Errorf("benefitting IT: fair share %d (kept) obligation %s (want 0)", it.FairShare, it.Obligation.RatString())
	}
	if at.Obligation.Sign() != 0 || at.Deducted.Cmp(r(100, 1)) != 0 {
		t.Errorf("AT fully deducted: obligation %s", at.Obligation.RatString())
	}
	// IT's pledge is unknown and stays unknown; with nothing to implement, its shortfall
	// is nevertheless known to be zero.
	// As a benefitting state, IT does not offer offsets under Art. 63(2).
	if it.PledgeKnown || it.Coverage != nil || it.PledgedUnits != nil || it.MayOfferOffsets != pool.No {
		t.Errorf("IT pledge is unknown and must stay unknown: %+v", it)
	}
	if it.Shortfall == nil || it.Shortfall.Sign() != 0 {
		t.Errorf("IT has no obligation, so no shortfall: %v", it.Shortfall)
	}
	u := res.Union
	if u.FairShareTotal != 1000 || u.FairShareEURTotal != c.Reference.EUR {
		t.Errorf("totals %d %s", u.FairShareTotal, u.FairShareEURTotal)
	}
	// 300 relocation pledges < 50 % of 1 500 = 750, and IT/AT are unknown: unknown.
	if u.OffsetThreshold.Cmp(r(750, 1)) != 0 || u.BenefittingMayRequest != pool.Unknown {
		t.Errorf("63(1): threshold %s, answer %s", u.OffsetThreshold.RatString(), u.BenefittingMayRequest)
	}
	if len(u.UnknownPledges) != 2 {
		t.Errorf("unknown pledges %v", u.UnknownPledges)
	}
	// DE: 63(2)(b) holds, so DE may offer offsets whatever the Union condition.
	if de.MayOfferOffsets != pool.Yes {
		t.Errorf("DE may offer offsets: %s", de.MayOfferOffsets)
	}
}

func TestDeductionsAsOf(t *testing.T) {
	c, k := fixture()
	res, _ := pool.Compute(c, k, apportion.LargestRemainder, time.Date(2030, 4, 1, 0, 0, 0, 0, time.UTC))
	for _, s := range res.States {
		if s.State == "FR" && s.Obligation.Cmp(r(300, 1)) != 0 {
			t.Errorf("FR's June deduction counted on 1 April: obligation %s", s.Obligation.RatString())
		}
		if s.State == "AT" && s.Obligation.Sign() != 0 {
			t.Errorf("AT's March deduction not counted on 1 April")
		}
	}
}

func TestArt63UnionThreshold(t *testing.T) {
	c, k := fixture()
	c.Pledges = nil
	for _, m := range c.Participating {
		c.Pledges = append(c.Pledges, solidarity.Pledge{State: m, Type: solidarity.RelocationApplicants, Relocations: 187})
	}
	res, _ := pool.Compute(c, k, apportion.Webster, time.Time{})
	if res.Union.BenefittingMayRequest != pool.No { // 748 < 750
		t.Errorf("748 pledged: %s", res.Union.BenefittingMayRequest)
	}
	c.Pledges[0].Relocations = 189
	res, _ = pool.Compute(c, k, apportion.Webster, time.Time{})
	if res.Union.BenefittingMayRequest != pool.Yes { // 750 ≥ 750
		t.Errorf("750 pledged: %s", res.Union.BenefittingMayRequest)
	}
	for _, s := range res.States {
		if want := !s.Status.Benefitting; (s.MayOfferOffsets == pool.Yes) != want {
			t.Errorf("%s (benefitting %v) may offer offsets once 63(1) holds: %s", s.State, s.Status.Benefitting, s.MayOfferOffsets)
		}
	}
}

func TestRejectsPledgeOutsideSet(t *testing.T) {
	c, k := fixture()
	c.Pledges = append(c.Pledges, solidarity.Pledge{State: "DK", Type: solidarity.Financial, EUR: 1})
	if _, err := pool.Compute(c, k, apportion.RoundUp, time.Time{}); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Fatalf("got %v", err)
	}
}

// Property: totals are sums of the rows, obligations never exceed fair shares and are
// never negative, and fair shares sum as the method promises.
func TestInvariants(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		states := rapid.SliceOfNDistinct(rapid.SampledFrom(solidarity.PartIV()), 1, 26, func(m solidarity.MemberState) solidarity.MemberState { return m }).Draw(t, "states")
		var in []key.Input
		c := &solidarity.Cycle{Year: 2030, EURPerRelocation: solidarity.EUR(20_000), Statuses: map[solidarity.MemberState]solidarity.Status{}}
		for _, m := range solidarity.PartIV() {
			for _, x := range states {
				if x == m {
					in = append(in, key.Input{State: m, Population: r(rapid.Int64Range(1, 1e8).Draw(t, "p"), 1), GDP: r(rapid.Int64Range(1, 1e7).Draw(t, "g"), 1)})
					c.Participating = append(c.Participating, m)
				}
			}
		}
		k, _ := key.Reference(in)
		c.Reference.Relocations = rapid.Int64Range(1, 40_000).Draw(t, "ref")
		c.Reference.EUR = solidarity.Cents(c.Reference.Relocations) * c.EURPerRelocation
		c.Proposal = c.Reference
		for _, m := range c.Participating {
			switch rapid.IntRange(0, 4).Draw(t, "kind") {
			case 0:
				c.Pledges = append(c.Pledges, solidarity.Pledge{State: m, Type: solidarity.RelocationApplicants, Relocations: rapid.Int64Range(1, 5000).Draw(t, "n")})
			case 1:
				c.Pledges = append(c.Pledges, solidarity.Pledge{State: m, Type: solidarity.Financial, EUR: solidarity.Cents(rapid.Int64Range(1, 1e10).Draw(t, "e"))})
			case 2:
				c.Deductions = append(c.Deductions, solidarity.Deduction{State: m, Fraction: r(rapid.Int64Range(1, 10).Draw(t, "f"), 10)})
			case 3:
				c.Statuses[m] = solidarity.Status{Benefitting: true}
			}
		}
		m := rapid.SampledFrom(apportion.Methods()).Draw(t, "method")
		res, err := pool.Compute(c, k, m, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		var fair int64
		ob := new(big.Rat)
		var eur solidarity.Cents
		for _, s := range res.States {
			fair += s.FairShare
			eur += s.FairShareEUR
			ob.Add(ob, s.Obligation)
			if s.Obligation.Sign() < 0 || s.Obligation.Cmp(r(s.FairShare, 1)) > 0 {
				t.Fatalf("%s obligation %s outside [0, %d]", s.State, s.Obligation.RatString(), s.FairShare)
			}
			if s.Shortfall != nil && s.Shortfall.Sign() < 0 {
				t.Fatalf("negative shortfall")
			}
		}
		if fair != res.Union.FairShareTotal || ob.Cmp(res.Union.ObligationTotal) != 0 || eur != res.Union.FairShareEURTotal {
			t.Fatalf("totals do not add up")
		}
		// Euro and relocations measure the same fair share.
		if eur != solidarity.Cents(fair)*c.EURPerRelocation {
			t.Fatalf("fair share in euro %s is not %d relocations × %s", eur, fair, c.EURPerRelocation)
		}
		if m != apportion.RoundUp && eur != c.Reference.EUR {
			t.Fatalf("%s: euro fair shares sum to %s, want %s", m, eur, c.Reference.EUR)
		}
		if m != apportion.RoundUp && fair != c.Reference.Relocations {
			t.Fatalf("%s: fair shares sum to %d, want %d", m, fair, c.Reference.Relocations)
		}
	})
}

func BenchmarkCompute(b *testing.B) {
	c, k := fixture()
	for b.Loop() {
		pool.Compute(c, k, apportion.Webster, time.Time{})
	}
}
