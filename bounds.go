package solidarity

import "fmt"

// The domain bounds: no single figure that solidarity records, from any write path (the
// API, the forms, the CLI, a cycle file), may exceed them. They are one set, here, so
// that every path refuses the same figures with the same message.
//
// Why these values:
//   - MaxPersons (relocations, applications, offsets, deductions: any count of
//     persons) is 10^7. The Commission's proposal is 30 000 relocations a year (Art.
//     12(2)); the whole Union receives about a million asylum applications a year. Ten
//     million is ten times that: no real figure is near it, and a typo or an attack is.
//   - MaxCents is EUR 10^12 (one trillion euro) in cents. The pool's reference amount
//     is EUR 600 million (Art. 12(2)); the Union's GDP is about EUR 18 trillion. No
//     single payment or pledge comes near EUR 10^12.
//
// Bounds do not make sums safe on their own: 92 234 payments of MaxCents overflow an
// int64. Every sum of recorded figures is therefore checked (AddChecked, MulChecked):
// an overflow is an error, never a wrap.
const (
	MaxPersons     = 10_000_000
	MaxRelocations = MaxPersons                 // relocations are persons
	MaxCents       = Cents(100_000_000_000_000) // EUR 10^12
)

// CheckPersons returns an EINVALID error naming field unless n is in [min, MaxPersons].
func CheckPersons(field, article string, n int64, min int64) error {
	if n < min || n > MaxPersons {
		return &Error{Code: EINVALID, Field: field, Article: article,
			Message: fmt.Sprintf("%d is out of range: a number of persons from %d to %d", n, min, int64(MaxPersons))}
	}
	return nil
}

// CheckCents returns an EINVALID error naming field unless c is in [min, MaxCents].
func CheckCents(field, article string, c Cents, min Cents) error {
	if c < min || c > MaxCents {
		return &Error{Code: EINVALID, Field: field, Article: article,
			Message: fmt.Sprintf("%d cents is out of range: an amount from %s to %s", int64(c), min, MaxCents)}
	}
	return nil
}

// AddChecked returns a+b and whether it fits: false on overflow, when the result is
// meaningless and must not be used.
func AddChecked[T ~int64](a, b T) (T, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// MulChecked returns a×b and whether it fits.
func MulChecked[T ~int64](a, b T) (T, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == minOf[T]()) || (b == -1 && a == minOf[T]()) {
		return 0, false
	}
	return p, true
}

func minOf[T ~int64]() T { return T(-1 << 63) }

// SumChecked returns the sum of xs and whether it fits.
func SumChecked[T ~int64](xs ...T) (T, bool) {
	var s T
	for _, x := range xs {
		var ok bool
		if s, ok = AddChecked(s, x); !ok {
			return 0, false
		}
	}
	return s, true
}

// Overflow is the error of a sum that does not fit, with code EINVALID when the figures
// summed came in together (a cycle file) or ECONFLICT when a new figure would push a
// recorded total beyond the bound; what names the sum, for the message.
func Overflow(code, what string) *Error {
	return &Error{Code: code, Message: fmt.Sprintf("%s would exceed the largest figure solidarity can record", what)}
}
