// Package key computes distribution keys: the reference key of Regulation (EU)
// 2024/1351 (Art. 66, Annex I) and the 2015 relocation key used for historical replays.
//
// All arithmetic is exact (math/big.Rat). Nothing here rounds: shares are rounded once,
// when a fair share is apportioned into whole relocations (package apportion) or
// formatted for display.
package key

import (
	"fmt"
	"math/big"
	"slices"

	"solidarity"
)

// Share is one state's entry in a key.
type Share struct {
	State           solidarity.MemberState
	Population      *big.Rat // persons
	GDP             *big.Rat // million EUR
	PopulationShare *big.Rat // Pop_i / Σ Pop  (Annex I "population effect")
	GDPShare        *big.Rat // GDP_i / Σ GDP  (Annex I "GDP effect")
	Share           *big.Rat // the key, summing to exactly 1 over the participating set
}

// Key is a distribution key over a participating set, in the order of that set.
type Key struct {
	Name    string // "ammr-2024" or "relocation-2015"
	Article string
	Shares  []Share
}

// Get returns the share of m, if m participates.
func (k *Key) Get(m solidarity.MemberState) (Share, bool) {
	for _, s := range k.Shares {
		if s.State == m {
			return s, true
		}
	}
	return Share{}, false
}

// Weights returns the shares in key order, ready for apportionment.
func (k *Key) Weights() []*big.Rat {
	w := make([]*big.Rat, len(k.Shares))
	for i, s := range k.Shares {
		w[i] = s.Share
	}
	return w
}

// Input is the figures of one participating state.
type Input struct {
	State      solidarity.MemberState
	Population *big.Rat
	GDP        *big.Rat
}

// Art. 66 and Annex I: 50 % population, 50 % total GDP (tag V; weights confirmed by the
// Commission's answer E-000547/2025).
var (
	ammrPopulationWeight = big.NewRat(1, 2)
	ammrGDPWeight        = big.NewRat(1, 2)
)

// Reference computes the AMMR reference key (Art. 66, Annex I):
//
//	share_i = ½ · Pop_i / Σ Pop + ½ · GDP_i / Σ GDP
//
// over the states of in, which must be distinct Member States with positive figures.
func Reference(in []Input) (*Key, error) {
	if err := checkInputs(in); err != nil {
		return nil, err
	}
	ps, gs := effects(in)
	k := &Key{Name: "ammr-2024", Article: "Art. 66 AMMR; Annex I AMMR"}
	for i, x := range in {
		s := new(big.Rat).Mul(ammrPopulationWeight, ps[i])
		s.Add(s, new(big.Rat).Mul(ammrGDPWeight, gs[i]))
		k.Shares = append(k.Shares, Share{State: x.State, Population: x.Population, GDP: x.GDP,
			PopulationShare: ps[i], GDPShare: gs[i], Share: s})
	}
	return k, nil
}

// FromDatasets builds the inputs for the participating states from a population and a
// GDP dataset. A state without a figure is an error naming the state and the dataset:
// a key is never computed on an invented number.
func FromDatasets(participating []solidarity.MemberState, pop, gdp *solidarity.Dataset) ([]Input, error) {
	var in []Input
	for _, m := range participating {
		p, ok := pop.Get(m)
		if !ok || p.Value == nil {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, File: pop.ID, Field: "population",
				Message: fmt.Sprintf("no population figure for %s (%s); the key needs one for every participating state", m, m.Name()),
				Article: "Art. 66 AMMR"}
		}
		g, ok := gdp.Get(m)
		if !ok || g.Value == nil {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, File: gdp.ID, Field: "gdp",
				Message: fmt.Sprintf("no GDP figure for %s (%s); the key needs one for every participating state", m, m.Name()),
				Article: "Art. 66 AMMR"}
		}
		in = append(in, Input{State: m, Population: p.Value, GDP: g.Value})
	}
	return in, nil
}

func checkInputs(in []Input) error {
	if len(in) == 0 {
		return solidarity.Errorf(solidarity.EINVALID, "the participating set is empty")
	}
	seen := map[solidarity.MemberState]bool{}
	for _, x := range in {
		if !x.State.Valid() {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "state", Message: fmt.Sprintf("%q is not an EU Member State", x.State)}
		}
		if seen[x.State] {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "state", Message: fmt.Sprintf("%s appears twice in the participating set", x.State)}
		}
		seen[x.State] = true
		for _, f := range []struct {
			name string
			v    *big.Rat
		}{{"population", x.Population}, {"gdp", x.GDP}} {
			if f.v == nil || f.v.Sign() <= 0 {
				return &solidarity.Error{Code: solidarity.EINVALID, Field: f.name, Message: fmt.Sprintf("%s for %s must be a positive number", f.name, x.State)}
			}
		}
	}
	return nil
}

// effects returns the population and GDP effects of Annex I: Pop_i/ΣPop, GDP_i/ΣGDP.
func effects(in []Input) (pop, gdp []*big.Rat) {
	p := make([]*big.Rat, len(in))
	g := make([]*big.Rat, len(in))
	for i, x := range in {
		p[i], g[i] = x.Population, x.GDP
	}
	return normalise(p), normalise(g)
}

// normalise returns v_i / Σ v.
func normalise(v []*big.Rat) []*big.Rat {
	sum := new(big.Rat)
	for _, x := range v {
		sum.Add(sum, x)
	}
	out := make([]*big.Rat, len(v))
	for i, x := range v {
		out[i] = new(big.Rat).Quo(x, sum)
	}
	return out
}

// Sum returns Σ share; exactly 1 for every key this package builds.
func (k *Key) Sum() *big.Rat {
	s := new(big.Rat)
	for _, x := range k.Shares {
		s.Add(s, x.Share)
	}
	return s
}

// Sorted returns the shares ordered by descending share, ties by protocol order.
func (k *Key) Sorted() []Share {
	out := slices.Clone(k.Shares)
	slices.SortStableFunc(out, func(a, b Share) int { return b.Share.Cmp(a.Share) })
	return out
}
