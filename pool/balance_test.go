package pool_test

import (
	"math/big"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/pool"
)

func TestOutstanding(t *testing.T) {
	for _, tc := range []struct{ obligation, delivered, want *big.Rat }{
		{r(100, 1), r(0, 1), r(100, 1)},
		{r(100, 1), r(40, 1), r(60, 1)},
		{r(100, 1), r(100, 1), r(0, 1)},
		{r(100, 1), r(250, 1), r(0, 1)}, // delivered more: owes nothing, is not owed
		{r(0, 1), r(3, 1), r(0, 1)},     // no obligation (benefitting, full deduction)
		{r(1000, 3), r(1, 7), r(6997, 21)},
		{r(1, 3), r(1, 3), r(0, 1)},
	} {
		if got := pool.Outstanding(tc.obligation, tc.delivered); got.Cmp(tc.want) != 0 {
			t.Errorf("Outstanding(%s, %s) = %s, want %s", tc.obligation.RatString(), tc.delivered.RatString(), got.RatString(), tc.want.RatString())
		}
	}
}

// TestOutstandingProperties: never negative, exactly the difference when it is not,
// never more than the obligation, and the arguments are left alone.
func TestOutstandingProperties(t *testing.T) {
	rat := func(t *rapid.T, name string) *big.Rat {
		return big.NewRat(rapid.Int64Range(0, 1e12).Draw(t, name+"-num"), rapid.Int64Range(1, 1e6).Draw(t, name+"-den"))
	}
	rapid.Check(t, func(t *rapid.T) {
		ob, del := rat(t, "obligation"), rat(t, "delivered")
		ob0, del0 := new(big.Rat).Set(ob), new(big.Rat).Set(del)
		o := pool.Outstanding(ob, del)
		diff := new(big.Rat).Sub(ob, del)
		switch {
		case o.Sign() < 0:
			t.Fatalf("negative %s", o.RatString())
		case diff.Sign() >= 0 && o.Cmp(diff) != 0, diff.Sign() < 0 && o.Sign() != 0:
			t.Fatalf("Outstanding(%s, %s) = %s", ob.RatString(), del.RatString(), o.RatString())
		case o.Cmp(ob) > 0:
			t.Fatalf("more than the obligation: %s", o.RatString())
		case ob.Cmp(ob0) != 0 || del.Cmp(del0) != 0:
			t.Fatal("an argument changed")
		}
	})
}

func TestElapsed(t *testing.T) {
	day := func(m time.Month, d int) time.Time { return time.Date(2027, m, d, 0, 0, 0, 0, time.UTC) }
	start, end := day(1, 1), day(12, 31) // 365 days, the deadline day included
	for _, tc := range []struct {
		name             string
		start, end, asOf time.Time
		want             *big.Rat
	}{
		{"before the start", start, end, day(1, 1).Add(-time.Hour), r(0, 1)},
		{"at the start", start, end, start, r(0, 1)},
		{"one day in", start, end, day(1, 2), r(1, 365)},
		{"half a day in", start, end, start.Add(12 * time.Hour), r(1, 730)},
		{"on the deadline day", start, end, end, r(364, 365)},
		{"after the deadline day", start, end, day(12, 31).Add(24 * time.Hour), r(1, 1)},
		{"no period", time.Time{}, end, start, r(1, 1)},
		{"an end before the start", end, start, day(6, 1), r(1, 1)},
	} {
		if got := pool.Elapsed(tc.start, tc.end, tc.asOf); got.Cmp(tc.want) != 0 {
			t.Errorf("%s: %s, want %s", tc.name, got.RatString(), tc.want.RatString())
		}
	}
}

// TestElapsedProperties: within [0, 1] and never decreasing as time goes on.
func TestElapsedProperties(t *testing.T) {
	start := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	rapid.Check(t, func(t *rapid.T) {
		end := start.Add(time.Duration(rapid.Int64Range(1, 800).Draw(t, "days")) * 24 * time.Hour)
		a := start.Add(time.Duration(rapid.Int64Range(-1e6, 1e8).Draw(t, "a")) * time.Second)
		b := a.Add(time.Duration(rapid.Int64Range(0, 1e8).Draw(t, "later")) * time.Second)
		ea, eb := pool.Elapsed(start, end, a), pool.Elapsed(start, end, b)
		if ea.Sign() < 0 || ea.Cmp(r(1, 1)) > 0 || ea.Cmp(eb) > 0 {
			t.Fatalf("elapsed %s at %v, %s at %v", ea.RatString(), a, eb.RatString(), b)
		}
	})
}

func TestPaceOf(t *testing.T) {
	ratio := solidarity.EUR(20_000)
	known := func(ps ...solidarity.Pledge) *pool.State {
		c, k := fixture()
		c.Pledges = ps
		res, err := pool.Compute(c, k, "largest-remainder", time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		return &res.States[0] // DE
	}
	// 100 relocations, 20 offsets and EUR 2 m of alternative measures are paced (100
	// + 20 + 100); EUR 4 m of financial contribution is not.
	de := known(
		solidarity.Pledge{State: "DE", Type: solidarity.RelocationApplicants, Relocations: 100},
		solidarity.Pledge{State: "DE", Type: solidarity.Offset, Relocations: 20},
		solidarity.Pledge{State: "DE", Type: solidarity.Alternative, EUR: solidarity.EUR(2_000_000)},
		solidarity.Pledge{State: "DE", Type: solidarity.Financial, EUR: solidarity.EUR(4_000_000)},
	)
	for _, tc := range []struct {
		name               string
		delivered, elapsed *big.Rat
		expected           *big.Rat
		behind             bool
	}{
		{"at the start", r(0, 1), r(0, 1), r(0, 1), false},
		{"behind at a quarter", r(54, 1), r(1, 4), r(55, 1), true},
		{"on pace at a quarter", r(55, 1), r(1, 4), r(55, 1), false},
		{"exactly, at a third", r(220, 3), r(1, 3), r(220, 3), false},
		{"behind by a little, at the end", r(21999, 100), r(1, 1), r(220, 1), true},
	} {
		p := pool.PaceOf(de, ratio, tc.delivered, tc.elapsed)
		if !p.Known || p.Pledged.Cmp(r(220, 1)) != 0 || p.Expected.Cmp(tc.expected) != 0 || p.Behind != tc.behind ||
			p.Delivered.Cmp(tc.delivered) != 0 || p.Elapsed.Cmp(tc.elapsed) != 0 {
			t.Errorf("%s: %+v, want expected %s, behind %v", tc.name, p, tc.expected.RatString(), tc.behind)
		}
	}
	// Unknown pledges expect nothing anyone could check: never behind.
	c, k := fixture()
	c.Pledges = nil
	res, err := pool.Compute(c, k, "largest-remainder", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if p := pool.PaceOf(&res.States[0], ratio, r(0, 1), r(1, 2)); p.Known || p.Behind || p.Pledged.Sign() != 0 || p.Expected.Sign() != 0 {
		t.Errorf("unknown pledge: %+v", p)
	}
}

// TestPaceProperties: the expectation is the paced pledge times the elapsed share,
// exactly, and behind is delivered < expected for a known pledge.
func TestPaceProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		c, k := fixture()
		c.Pledges = []solidarity.Pledge{
			{State: "DE", Type: solidarity.RelocationBeneficiaries, Relocations: rapid.Int64Range(1, 1e6).Draw(t, "relocations")},
			{State: "DE", Type: solidarity.Alternative, EUR: solidarity.Cents(rapid.Int64Range(1, 1e12).Draw(t, "alternative"))},
			{State: "DE", Type: solidarity.Financial, EUR: solidarity.Cents(rapid.Int64Range(1, 1e12).Draw(t, "financial"))},
		}
		res, err := pool.Compute(c, k, "largest-remainder", time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		s := &res.States[0]
		elapsed := big.NewRat(rapid.Int64Range(0, 1000).Draw(t, "elapsed"), 1000)
		delivered := big.NewRat(rapid.Int64Range(0, 1e9).Draw(t, "delivered"), rapid.Int64Range(1, 100).Draw(t, "den"))
		p := pool.PaceOf(s, c.EURPerRelocation, delivered, elapsed)
		paced := new(big.Rat).SetInt64(c.Pledges[0].Relocations)
		paced.Add(paced, big.NewRat(int64(c.Pledges[1].EUR), int64(c.EURPerRelocation)))
		if p.Pledged.Cmp(paced) != 0 || p.Expected.Cmp(new(big.Rat).Mul(paced, elapsed)) != 0 || p.Behind != (delivered.Cmp(p.Expected) < 0) {
			t.Fatalf("%+v for paced %s", p, paced.RatString())
		}
	})
}

// TestAddedMeasure: a measure added to the table is summed, valued at its row's
// valuation, paced or not as its row says, and can be a state's dominant pledge, with
// nothing in pool changed. Not parallel: it changes the table.
func TestAddedMeasure(t *testing.T) {
	defer solidarity.AddMeasure(solidarity.Measure{Pledge: "equipment", Unit: solidarity.EuroCents, Valuation: solidarity.AtRatio,
		Label: "equipment"})()
	c, k := fixture()
	c.Pledges = []solidarity.Pledge{
		{State: "DE", Type: "equipment", EUR: solidarity.EUR(3_000_000)}, // 150 units, not paced
		{State: "DE", Type: solidarity.Offset, Relocations: 20},          // 20 units, paced
		{State: "FR", Type: "equipment", EUR: solidarity.EUR(1_000_000)}, // 50 units
	}
	res, err := pool.Compute(c, k, "largest-remainder", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	de := res.States[0]
	if de.Pledged.Of("equipment") != int64(solidarity.EUR(3_000_000)) || de.PledgedUnits.Cmp(r(170, 1)) != 0 ||
		de.Pledged.Paced(c.EURPerRelocation).Cmp(r(20, 1)) != 0 || de.Pledged.Dominant(c.EURPerRelocation) != "equipment" {
		t.Fatalf("DE pledged %v, %s units, dominant %s", de.Pledged, de.PledgedUnits.RatString(), de.Pledged.Dominant(c.EURPerRelocation))
	}
	if res.Union.Pledged.Of("equipment") != int64(solidarity.EUR(4_000_000)) || res.Union.Pledged.Relocations() != 0 {
		t.Fatalf("Union pledged %v", res.Union.Pledged)
	}
}
