package bound_test

import (
	"math/big"
	"strings"
	"testing"

	"solidarity/internal/bound"
)

// FuzzScanners: the scanners never panic, never accept more than the size bound, and
// take no time beyond one pass (they are loops over the input with no back-tracking).
func FuzzScanners(f *testing.F) {
	for _, s := range []string{"x = {a={a=1}}", "[a.b]\nc.d = [1, [2]]", `"\"" = '''x'''`, `{"a":[1,{"b":"]"}]}`,
		"a,\"b\"\"\",c\n", "x = \"\"\"a\"\"\"\"\"", "#[[[", "[[a]]\nb = 1", "x = 'unterminated\n[", "\"a\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, err := range []error{
			bound.TOML("f", []byte(s), bound.Limits{Depth: 4, Values: 50, Field: 64}),
			bound.JSON("f", []byte(s), bound.Limits{Depth: 4, Values: 50, Field: 64}),
			bound.CSV("f", []byte(s), ',', bound.Limits{Columns: 4, Lines: 8, Field: 64}),
		} {
			if err != nil && !strings.Contains(err.Error(), "limit") {
				t.Fatalf("error without its limit: %v", err)
			}
		}
		// Brackets alone: the JSON scanner's depth is exact.
		depth, max := 0, 0
		for _, c := range s {
			switch c {
			case '[':
				depth++
			case ']':
				depth--
			default:
				return
			}
			max = maxInt(max, depth)
		}
		if err := bound.JSON("f", []byte(s), bound.Limits{Depth: 4}); (err == nil) != (max <= 4) {
			t.Fatalf("JSON(%q) = %v, depth %d", s, err, max)
		}
	})
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// FuzzRat: an accepted number has the value big.Rat.SetString gives it, and stays
// within the bounds.
func FuzzRat(f *testing.F) {
	for _, s := range []string{"0.42", "21/50", "1e-1000000", "-1.5E+3", ".5", "0x1p-3", "1_0", "7/0"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r, err := bound.Rat("x", s, true, bound.Numbers{Digits: 10, Exponent: 5, DenomDigits: 5})
		if err != nil {
			return
		}
		w, ok := new(big.Rat).SetString(s)
		if !ok || w.Cmp(r) != 0 {
			t.Fatalf("Rat(%q) = %v, SetString = %v %v", s, r, w, ok)
		}
		if r.Num().BitLen() > 34+17 || r.Denom().BitLen() > 34+17 {
			t.Fatalf("Rat(%q) = %v beyond the bounds", s, r)
		}
	})
}
