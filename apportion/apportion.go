// Package apportion turns exact rational quotas into whole numbers of relocations.
//
// The regulation does not say how a fair share in relocations is rounded (spec
// solidarity-mechanism.md §2.3 rule 23, tag U), so the method is a parameter and each
// method documents what its result promises:
//
//   - LargestRemainder (Hamilton): each state gets the floor of its quota, the seats
//     left go to the largest remainders. Sums exactly to the total; every result is
//     within one of its quota; can show the Alabama paradox.
//   - Webster (Sainte-Laguë): a divisor method rounding at one half. Sums exactly to
//     the total and is house-monotone (no Alabama paradox).
//   - RoundUp: every quota rounded up, which is what the first Council implementing act
//     appears to do (DE 4 554.69 → 4 555). Never below the quota; the sum is at least
//     the total and less than the total plus the number of states.
//
// Ties are broken by the larger quota, then by position in the input (earlier first),
// so results are deterministic and only states with identical weights depend on the
// order they are given in; callers pass states in Eurostat's protocol order.
package apportion

import (
	"fmt"
	"math/big"

	"solidarity"
)

// Method names an apportionment method.
type Method string

const (
	LargestRemainder Method = "largest-remainder"
	Webster          Method = "webster"
	RoundUp          Method = "round-up"
)

// Methods lists the supported methods in the order shown to users.
func Methods() []Method { return []Method{RoundUp, LargestRemainder, Webster} }

// ParseMethod accepts a method name and common aliases (hamilton, sainte-lague, ceil).
func ParseMethod(s string) (Method, error) {
	switch s {
	case "largest-remainder", "hamilton", "lr":
		return LargestRemainder, nil
	case "webster", "sainte-lague", "sainte-laguë":
		return Webster, nil
	case "round-up", "roundup", "ceil":
		return RoundUp, nil
	}
	return "", &solidarity.Error{Code: solidarity.EINVALID, Field: "method",
		Message: fmt.Sprintf("unknown apportionment method %q (want round-up, largest-remainder or webster)", s)}
}

// Describe returns the promise a method makes about its result, for help texts and pages.
func (m Method) Describe() string {
	switch m {
	case LargestRemainder:
		return "largest remainder (Hamilton): sums exactly to the reference number; each state within one of its quota"
	case Webster:
		return "Webster / Sainte-Laguë divisor method: sums exactly to the reference number; no Alabama paradox"
	case RoundUp:
		return "round-up: every quota rounded up (as the 2026 act appears to do); the sum may exceed the reference number by less than the number of states"
	}
	return string(m)
}

// Quotas returns total × w_i / Σw exactly.
func Quotas(total int64, weights []*big.Rat) ([]*big.Rat, error) {
	if total < 0 {
		return nil, solidarity.Errorf(solidarity.EINVALID, "apportion: negative total %d", total)
	}
	sum := new(big.Rat)
	for i, w := range weights {
		if w == nil || w.Sign() < 0 {
			return nil, solidarity.Errorf(solidarity.EINVALID, "apportion: weight %d is missing or negative", i)
		}
		sum.Add(sum, w)
	}
	if sum.Sign() == 0 {
		return nil, solidarity.Errorf(solidarity.EINVALID, "apportion: weights sum to zero")
	}
	t := new(big.Rat).SetInt64(total)
	q := make([]*big.Rat, len(weights))
	for i, w := range weights {
		q[i] = new(big.Rat).Mul(t, w)
		q[i].Quo(q[i], sum)
	}
	return q, nil
}

// Apportion distributes total whole units over the weights with method m.
func Apportion(m Method, total int64, weights []*big.Rat) ([]int64, error) {
	q, err := Quotas(total, weights)
	if err != nil {
		return nil, err
	}
	switch m {
	case LargestRemainder:
		return largestRemainder(total, q), nil
	case Webster:
		return webster(total, q), nil
	case RoundUp:
		out := make([]int64, len(q))
		for i := range q {
			out[i] = ceil(q[i])
		}
		return out, nil
	}
	_, err = ParseMethod(string(m))
	return nil, err
}

func floor(r *big.Rat) int64 {
	z := new(big.Int).Quo(r.Num(), r.Denom()) // truncates toward zero; r ≥ 0 here
	return z.Int64()
}

func ceil(r *big.Rat) int64 {
	f := floor(r)
	if r.IsInt() {
		return f
	}
	return f + 1
}

func largestRemainder(total int64, q []*big.Rat) []int64 {
	out := make([]int64, len(q))
	rem := make([]*big.Rat, len(q))
	var given int64
	for i := range q {
		out[i] = floor(q[i])
		given += out[i]
		rem[i] = new(big.Rat).Sub(q[i], new(big.Rat).SetInt64(out[i]))
	}
	// At most len(q)-1 seats are left; hand them out one at a time.
	taken := make([]bool, len(q))
	for ; given < total; given++ {
		best := -1
		for i := range q {
			if taken[i] {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			if c := rem[i].Cmp(rem[best]); c > 0 || c == 0 && q[i].Cmp(q[best]) > 0 {
				best = i
			}
		}
		taken[best] = true
		out[best]++
	}
	return out
}

// webster computes the Webster allocation as the top-total elements of the sequence
// of priorities q_i/(j+½), j = 0, 1, ..., ordered by priority, then quota, then position.
// It starts from the standard rounding of every quota — which is exactly the set of
// priorities ≥ 1, so a prefix of that order — and adds the best excluded or drops the
// worst included priority until the sum is right. Because the result is a prefix of one
// fixed order, total+1 contains total's allocation: no Alabama paradox.
func webster(total int64, q []*big.Rat) []int64 {
	out := make([]int64, len(q))
	var sum int64
	half := big.NewRat(1, 2)
	for i := range q {
		out[i] = floor(new(big.Rat).Add(q[i], half))
		sum += out[i]
	}
	// priority(i, j) = q_i / (j + ½); compare a/(2j+1) cross-multiplied to stay exact.
	cmp := func(i int, ji int64, k int, jk int64) int {
		l := new(big.Rat).Mul(q[i], new(big.Rat).SetInt64(2*jk+1))
		r := new(big.Rat).Mul(q[k], new(big.Rat).SetInt64(2*ji+1))
		return l.Cmp(r)
	}
	for sum < total {
		best := 0
		for i := 1; i < len(q); i++ {
			if c := cmp(i, out[i], best, out[best]); c > 0 || c == 0 && q[i].Cmp(q[best]) > 0 {
				best = i
			}
		}
		out[best]++
		sum++
	}
	for sum > total {
		worst := -1
		for i := range q {
			if out[i] == 0 {
				continue
			}
			// The worst included element: lowest priority, then smallest quota, then
			// the later position — the reverse of the order in which seats are added.
			if worst < 0 {
				worst = i
				continue
			}
			if c := cmp(i, out[i]-1, worst, out[worst]-1); c < 0 || c == 0 && q[i].Cmp(q[worst]) <= 0 {
				worst = i
			}
		}
		out[worst]--
		sum--
	}
	return out
}
