package key

import (
	"fmt"
	"math/big"

	"solidarity"
)

// Input2015 is one state's figures for the 2015 relocation key (COM(2015) 240 Annex;
// COM(2015) 451): population and total GDP, the average number of spontaneous asylum
// applications and resettled refugees per million inhabitants 2010–2014, and the
// unemployment rate.
type Input2015 struct {
	State            solidarity.MemberState
	Population       *big.Rat
	GDP              *big.Rat
	AsylumPerMillion *big.Rat
	Unemployment     *big.Rat // percent
}

// Params2015 are the weights and cap of the 2015 key. The weights are read in the
// Commission's annex (historical-data.md §1.2, tag V); the cap exists (V) but its exact
// wording and base are a reconstruction (§1.3, tag R), so it is a parameter.
type Params2015 struct {
	Population, GDP, Asylum, Unemployment *big.Rat
	// Cap limits each corrective effect to Cap × (population share + GDP share).
	Cap *big.Rat
}

// DefaultParams2015 returns 40/40/10/10 with the 30 % cap.
func DefaultParams2015() Params2015 {
	return Params2015{
		Population: big.NewRat(4, 10), GDP: big.NewRat(4, 10),
		Asylum: big.NewRat(1, 10), Unemployment: big.NewRat(1, 10),
		Cap: big.NewRat(3, 10),
	}
}

// Relocation2015 computes the 2015 relocation key as reconstructed in
// historical-data.md §1.3 (public re-implementation georgeblck/refugee-distribution,
// calc.key, which = "eu"):
//
//	p_i = Pop_i/ΣPop, g_i = GDP_i/ΣGDP, b_i = p_i + g_i
//	a_i = min((1/A_i)/Σ(1/A), cap·b_i)      inverse past asylum effort, capped
//	u_i = min((1/U_i)/Σ(1/U), cap·b_i)      inverse unemployment, capped
//	k_i = wP·p_i + wG·g_i + wA·a_i + wU·u_i
//	share_i = k_i + (1 − Σk) · b_i/2          what the cap removed, spread on pop/GDP
//
// The result sums to exactly 1 because Σ b_i/2 = 1.
func Relocation2015(in []Input2015, p Params2015) (*Key, error) {
	base := make([]Input, len(in))
	for i, x := range in {
		base[i] = Input{State: x.State, Population: x.Population, GDP: x.GDP}
	}
	if err := checkInputs(base); err != nil {
		return nil, err
	}
	inv := func(get func(Input2015) *big.Rat, field string) ([]*big.Rat, error) {
		out := make([]*big.Rat, len(in))
		for i, x := range in {
			v := get(x)
			if v == nil || v.Sign() <= 0 {
				return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: field,
					Message: fmt.Sprintf("%s for %s must be a positive number", field, x.State)}
			}
			out[i] = new(big.Rat).Inv(v)
		}
		return normalise(out), nil
	}
	as, err := inv(func(x Input2015) *big.Rat { return x.AsylumPerMillion }, "asylum_per_million")
	if err != nil {
		return nil, err
	}
	us, err := inv(func(x Input2015) *big.Rat { return x.Unemployment }, "unemployment_rate")
	if err != nil {
		return nil, err
	}
	ps, gs := effects(base)

	k := &Key{Name: "relocation-2015", Article: "COM(2015) 240 Annex; Council Decision (EU) 2015/1601 (reconstruction, historical-data.md §1.3)"}
	total := new(big.Rat)
	raw := make([]*big.Rat, len(in))
	bs := make([]*big.Rat, len(in))
	for i := range in {
		b := new(big.Rat).Add(ps[i], gs[i])
		limit := new(big.Rat).Mul(p.Cap, b)
		a := minRat(as[i], limit)
		u := minRat(us[i], limit)
		v := new(big.Rat).Mul(p.Population, ps[i])
		v.Add(v, new(big.Rat).Mul(p.GDP, gs[i]))
		v.Add(v, new(big.Rat).Mul(p.Asylum, a))
		v.Add(v, new(big.Rat).Mul(p.Unemployment, u))
		raw[i], bs[i] = v, b
		total.Add(total, v)
	}
	residual := new(big.Rat).Sub(big.NewRat(1, 1), total)
	for i, x := range in {
		s := new(big.Rat).Mul(residual, bs[i])
		s.Quo(s, big.NewRat(2, 1))
		s.Add(s, raw[i])
		k.Shares = append(k.Shares, Share{State: x.State, Population: x.Population, GDP: x.GDP,
			PopulationShare: ps[i], GDPShare: gs[i], Share: s})
	}
	return k, nil
}

func minRat(a, b *big.Rat) *big.Rat {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}
