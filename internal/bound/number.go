package bound

import (
	"fmt"
	"math/big"

	"solidarity"
)

// Numbers bounds one exact number. A zero field means the corresponding DefaultNumbers
// value.
type Numbers struct {
	Digits      int // most significant digits of the numerator (integer and decimal part)
	Exponent    int // largest magnitude of a decimal exponent (e-40 .. e40)
	DenomDigits int // most digits of a fraction's denominator ("21/50")
}

// DefaultNumbers fit every figure solidarity reads: a population or a GDP in euro
// (below 10^15, a few decimals), a share or fraction of a pledge, a percentage. The
// work of math/big grows with the digits and the exponent (10^1000000 is a million-digit
// integer: 32 ms and 0.7 MB per "1e-1000000" in issue 12), so these bound it to a few
// microseconds per number. Denominators are bounded harder, to 9 digits (a Council
// decision deducts "1/3", "3/10"): sums of fractions with distinct denominators grow
// with their product, where decimals only grow to the largest power of ten.
var DefaultNumbers = Numbers{Digits: 40, Exponent: 40, DenomDigits: 9}

func (n Numbers) with() Numbers {
	d := DefaultNumbers
	if n.Digits > 0 {
		d.Digits = n.Digits
	}
	if n.Exponent > 0 {
		d.Exponent = n.Exponent
	}
	if n.DenomDigits > 0 {
		d.DenomDigits = n.DenomDigits
	}
	return d
}

// Rat parses an exact decimal number ("-12", "0.42", ".5", "4.2e-1") or, with
// fractions set, a fraction of two integers ("21/50") into a big.Rat, within the
// bounds n. It is the one way solidarity turns outside text into an exact number:
// unlike big.Rat.SetString it refuses hexadecimal, octal, binary and underscores, which
// no figure means, and it refuses before any big-number work a number beyond a bound.
// The error is EINVALID naming field and the bound; callers add the file and line.
func Rat(field, s string, fractions bool, n Numbers) (*big.Rat, error) {
	n = n.with()
	bad := func(format string, args ...any) (*big.Rat, error) {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: fmt.Sprintf(format, args...)}
	}
	show := s
	if len(show) > 40 {
		show = show[:40] + "…"
	}
	if len(s) > 2*(n.Digits+n.DenomDigits)+16 {
		return bad("%q is %d characters long; the limit for a number is %d", show, len(s), 2*(n.Digits+n.DenomDigits)+16)
	}
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	// every digit of the mantissa counts, leading and trailing zeros too
	i, digits := digitRun(s, i)
	if i < len(s) && s[i] == '.' {
		var frac int
		i, frac = digitRun(s, i+1)
		digits += frac
	}
	if digits == 0 {
		return bad("%q is not a number", show)
	}
	if digits > n.Digits {
		return bad("%q has %d digits; the limit is %d", show, digits, n.Digits)
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j, e, ed := exponent(s, i+1, n.Exponent)
		if ed == 0 {
			return bad("%q is not a number", show)
		}
		if e > n.Exponent {
			return bad("%q has an exponent beyond ±%d, the limit", show, n.Exponent)
		}
		i = j
	} else if fractions && i < len(s) && s[i] == '/' && !hasDot(s[:i]) {
		j, dd := digitRun(s, i+1)
		if dd == 0 {
			return bad("%q is not a fraction", show)
		}
		if dd > n.DenomDigits {
			return bad("%q has a denominator of %d digits; the limit is %d", show, dd, n.DenomDigits)
		}
		i = j
	}
	if i != len(s) {
		if fractions {
			return bad("%q is not a number or a fraction", show)
		}
		return bad("%q is not a number", show)
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return bad("%q is not a number", show) // a zero denominator
	}
	return r, nil
}

// exponent reads the signed exponent at s[i:] (after the e): the index after it, its
// magnitude (read only as far as max is exceeded, so that no digit string overflows)
// and its number of digits.
func exponent(s string, i, max int) (end, e, digits int) {
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
		if e <= max {
			e = e*10 + int(s[i]-'0')
		}
	}
	return i, e, digits
}

// digitRun returns the index after the run of decimal digits at s[i:], and its length.
func digitRun(s string, i int) (end, digits int) {
	for ; i < len(s) && s[i] >= '0' && s[i] <= '9'; i++ {
		digits++
	}
	return i, digits
}

func hasDot(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] == '.' {
			return true
		}
	}
	return false
}
