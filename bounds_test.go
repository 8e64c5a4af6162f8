package solidarity_test

import (
	"math"
	"math/big"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/internal/cyclefile"
)

// The checked operations agree with exact integer arithmetic: they return the exact
// result when it fits in an int64 and report overflow otherwise.
func TestCheckedArithmetic(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		gen := rapid.OneOf(rapid.Int64(), rapid.Int64Range(-1e6, 1e6),
			rapid.SampledFrom([]int64{0, 1, -1, math.MaxInt64, math.MinInt64, math.MaxInt64 / 2, math.MinInt64 / 2}))
		a, b := gen.Draw(t, "a"), gen.Draw(t, "b")
		fits := func(r *big.Int) bool { return r.IsInt64() }
		sum := new(big.Int).Add(big.NewInt(a), big.NewInt(b))
		if got, ok := solidarity.AddChecked(a, b); ok != fits(sum) || ok && got != sum.Int64() {
			t.Fatalf("AddChecked(%d, %d) = %d, %v; exact %v", a, b, got, ok, sum)
		}
		prod := new(big.Int).Mul(big.NewInt(a), big.NewInt(b))
		if got, ok := solidarity.MulChecked(a, b); ok != fits(prod) || ok && got != prod.Int64() {
			t.Fatalf("MulChecked(%d, %d) = %d, %v; exact %v", a, b, got, ok, prod)
		}
		xs := rapid.SliceOfN(gen, 0, 8).Draw(t, "xs")
		exact, partialFit := new(big.Int), true
		for _, x := range xs {
			exact.Add(exact, big.NewInt(x))
			partialFit = partialFit && exact.IsInt64()
		}
		if got, ok := solidarity.SumChecked(xs...); ok != partialFit || ok && got != exact.Int64() {
			t.Fatalf("SumChecked(%v) = %d, %v; exact %v", xs, got, ok, exact)
		}
	})
}

func TestBounds(t *testing.T) {
	for _, c := range []struct {
		n, min int64
		ok     bool
	}{{1, 1, true}, {0, 1, false}, {0, 0, true}, {-1, 0, false}, {solidarity.MaxPersons, 1, true}, {solidarity.MaxPersons + 1, 1, false}, {math.MaxInt64, 1, false}} {
		if err := solidarity.CheckPersons("relocations", "", c.n, c.min); (err == nil) != c.ok || err != nil && solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Errorf("CheckPersons(%d, min %d) = %v", c.n, c.min, err)
		}
	}
	if err := solidarity.CheckCents("eur_cents", "", solidarity.MaxCents+1, 1); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("CheckCents above the bound: %v", err)
	}
	if err := solidarity.CheckCents("eur_cents", "", solidarity.MaxCents, 1); err != nil {
		t.Errorf("CheckCents at the bound: %v", err)
	}
	// Every figure within the bounds, times the largest count of entries a year could
	// plausibly hold, still fits: the bounds leave room for the sums.
	if _, ok := solidarity.MulChecked(int64(solidarity.MaxPersons), 1_000_000_000); !ok {
		t.Error("a billion maximal relocation figures do not fit")
	}
}

// The cycle file applies the same bounds as the API, the forms and the CLI: one figure
// above them is refused naming its field, one at them is read.
func TestCycleFileUsesTheBounds(t *testing.T) {
	base := `year = 2027
pool_start = 2027-01-01
deadline = 2027-12-31
method = "largest-remainder"
[proposal]
relocations = 30000
eur = 600_000_000
[reference]
relocations = 30000
eur = 600_000_000
`
	for _, c := range []struct {
		extra, field string
	}{
		{"[[pledge]]\nstate = \"DE\"\ntype = \"financial\"\neur = \"1000000000000.01\"\n", "eur"},
		{"[[pledge]]\nstate = \"DE\"\ntype = \"financial\"\neur = 1000000000001\n", "eur"},
		{"[[pledge]]\nstate = \"DE\"\ntype = \"relocation-applicants\"\nrelocations = 10000001\n", "relocations"},
		{"[[pledge]]\nstate = \"DE\"\ntype = \"relocation-applicants\"\n", "relocations"},
		{"", ""},
		{"[[pledge]]\nstate = \"DE\"\ntype = \"financial\"\neur = 1000000000000\n", ""},
		{"[[pledge]]\nstate = \"DE\"\ntype = \"offset\"\nrelocations = 10000000\n", ""},
	} {
		_, err := cyclefile.Parse("c.toml", []byte(base+c.extra))
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%q: %v", c.extra, err)
		case c.field != "" && (solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), c.field)):
			t.Errorf("%q: %v, want EINVALID naming %s", c.extra, err, c.field)
		}
	}
}
