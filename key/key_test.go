package key_test

import (
	"math/big"
	"testing"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/key"
)

func genInputs(t *rapid.T) []key.Input {
	states := solidarity.MemberStates()
	n := rapid.IntRange(1, len(states)).Draw(t, "n")
	perm := rapid.Permutation(states).Draw(t, "states")[:n]
	in := make([]key.Input, n)
	for i, m := range perm {
		in[i] = key.Input{State: m,
			Population: big.NewRat(rapid.Int64Range(1, 100_000_000).Draw(t, "pop"), 1),
			GDP:        big.NewRat(rapid.Int64Range(1, 50_000_000).Draw(t, "gdp"), rapid.Int64Range(1, 10).Draw(t, "gdpd")),
		}
	}
	return in
}

func TestSharesSumToOne(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		k, err := key.Reference(genInputs(t))
		if err != nil {
			t.Fatal(err)
		}
		if k.Sum().Cmp(big.NewRat(1, 1)) != 0 {
			t.Fatalf("shares sum to %s", k.Sum().RatString())
		}
	})
}

// Monotonicity: a state's share never falls when its population or GDP rises and
// nothing else changes.
func TestMonotone(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInputs(t)
		i := rapid.IntRange(0, len(in)-1).Draw(t, "i")
		before, _ := key.Reference(in)
		up := make([]key.Input, len(in))
		copy(up, in)
		inc := big.NewRat(rapid.Int64Range(1, 10_000_000).Draw(t, "inc"), 1)
		if rapid.Bool().Draw(t, "gdp") {
			up[i].GDP = new(big.Rat).Add(in[i].GDP, inc)
		} else {
			up[i].Population = new(big.Rat).Add(in[i].Population, inc)
		}
		after, _ := key.Reference(up)
		if after.Shares[i].Share.Cmp(before.Shares[i].Share) < 0 {
			t.Fatalf("share of %s fell from %s to %s", in[i].State, before.Shares[i].Share.FloatString(8), after.Shares[i].Share.FloatString(8))
		}
	})
}

// Relabelling: the order in which states are given changes no state's share.
func TestOrderInvariant(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		in := genInputs(t)
		perm := rapid.Permutation(in).Draw(t, "perm")
		a, _ := key.Reference(in)
		b, _ := key.Reference(perm)
		for _, s := range a.Shares {
			o, ok := b.Get(s.State)
			if !ok || o.Share.Cmp(s.Share) != 0 {
				t.Fatalf("share of %s changed under relabelling", s.State)
			}
		}
	})
}

func TestKey2015SumsToOneAndRespectsCap(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		base := genInputs(t)
		in := make([]key.Input2015, len(base))
		for i, b := range base {
			in[i] = key.Input2015{State: b.State, Population: b.Population, GDP: b.GDP,
				AsylumPerMillion: big.NewRat(rapid.Int64Range(1, 20_000).Draw(t, "a"), 1),
				Unemployment:     big.NewRat(rapid.Int64Range(10, 300).Draw(t, "u"), 10)}
		}
		p := key.DefaultParams2015()
		k, err := key.Relocation2015(in, p)
		if err != nil {
			t.Fatal(err)
		}
		// The cap: no state gets more than 40+40 % of its pop/GDP effects plus 10 % of
		// 0.3·b for each corrective term, plus its part of the redistributed residual
		// (b/2 · residual ≤ b/2 · 0.2). So share ≤ 0.4p + 0.4g + 0.06b + 0.1b.
		for _, s := range k.Shares {
			b := new(big.Rat).Add(s.PopulationShare, s.GDPShare)
			limit := new(big.Rat).Mul(big.NewRat(4, 10), b)
			limit.Add(limit, new(big.Rat).Mul(big.NewRat(16, 100), b))
			if s.Share.Cmp(limit) > 0 {
				t.Fatalf("%s: share %s above the capped maximum %s", s.State, s.Share.FloatString(8), limit.FloatString(8))
			}
		}
		if k.Sum().Cmp(big.NewRat(1, 1)) != 0 {
			t.Fatalf("2015 key sums to %s", k.Sum().FloatString(12))
		}
		for _, s := range k.Shares {
			if s.Share.Sign() < 0 {
				t.Fatalf("negative share for %s", s.State)
			}
		}
	})
}

// A hand-computed two-state example of the 2015 key, to pin the formula.
func TestKey2015Example(t *testing.T) {
	r := func(a, b int64) *big.Rat { return big.NewRat(a, b) }
	in := []key.Input2015{
		{State: "DE", Population: r(3, 1), GDP: r(3, 1), AsylumPerMillion: r(1, 1), Unemployment: r(1, 1)},
		{State: "FR", Population: r(1, 1), GDP: r(1, 1), AsylumPerMillion: r(1, 1), Unemployment: r(1, 1)},
	}
	// p = g = (3/4, 1/4); b = (3/2, 1/2); inverse terms (1/2, 1/2), caps 0.3b = (0.45, 0.15)
	// a = u = (0.45, 0.15); k = 0.8·(3/4, 1/4) + 0.2·(0.45, 0.15) = (0.69, 0.23); residual 0.08
	// share = k + 0.08·b/2 = (0.69 + 0.06, 0.23 + 0.02) = (0.75, 0.25)
	k, err := key.Relocation2015(in, key.DefaultParams2015())
	if err != nil {
		t.Fatal(err)
	}
	if k.Shares[0].Share.Cmp(r(3, 4)) != 0 || k.Shares[1].Share.Cmp(r(1, 4)) != 0 {
		t.Fatalf("got %s, %s", k.Shares[0].Share.RatString(), k.Shares[1].Share.RatString())
	}
	// Without binding caps the corrective terms move shares toward the state with the
	// lower asylum effort.
	in[1].AsylumPerMillion = r(1, 3)
	p := key.DefaultParams2015()
	p.Cap = r(10, 1)
	k, _ = key.Relocation2015(in, p)
	// inverse asylum: (1, 3)/4 = (1/4, 3/4); u = (1/2, 1/2)
	// DE: 0.3 + 0.3 + 0.1·0.25 + 0.1·0.5 = 0.675
	if k.Shares[0].Share.Cmp(r(675, 1000)) != 0 {
		t.Fatalf("uncapped DE share %s, want 0.675", k.Shares[0].Share.FloatString(6))
	}
}

func TestReferenceRejectsBadInput(t *testing.T) {
	one := big.NewRat(1, 1)
	for name, in := range map[string][]key.Input{
		"empty":         nil,
		"unknown state": {{State: "NO", Population: one, GDP: one}},
		"duplicate":     {{State: "DE", Population: one, GDP: one}, {State: "DE", Population: one, GDP: one}},
		"zero gdp":      {{State: "DE", Population: one, GDP: new(big.Rat)}},
		"missing pop":   {{State: "DE", GDP: one}},
		"negative":      {{State: "DE", Population: big.NewRat(-1, 1), GDP: one}},
	} {
		if _, err := key.Reference(in); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Errorf("%s: got %v, want an invalid-input error", name, err)
		}
	}
}

func TestFromDatasetsNamesMissingFigure(t *testing.T) {
	pop := &solidarity.Dataset{ID: "pop", Rows: []solidarity.Observation{{State: "DE", Value: big.NewRat(1, 1)}, {State: "FR"}}}
	gdp := &solidarity.Dataset{ID: "gdp", Rows: []solidarity.Observation{{State: "DE", Value: big.NewRat(1, 1)}, {State: "FR", Value: big.NewRat(1, 1)}}}
	_, err := key.FromDatasets([]solidarity.MemberState{"DE", "FR"}, pop, gdp)
	e, ok := err.(*solidarity.Error)
	if !ok || e.File != "pop" || e.Field != "population" {
		t.Fatalf("got %v", err)
	}
}
