package bound_test

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"

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

// FuzzDepth: what the scanners accept never nests deeper than their bound once decoded,
// by the decoders solidarity uses: the scanners may count too much, never too little.
func FuzzDepth(f *testing.F) {
	for _, s := range []string{"x = {a={a=1}}", "[a.b]\nc.d = [1, [2]]", "a.b.c.d.e = 1", "[[a.b]]\n[a.b.c]\nd = {e.f = [[1]]}",
		`x = [{a.b = {c = 1}}]`, "[[a]]\n[[a.b]]\n[[a.b.c]]\nd.e = {f = {g = 1}}", "[[a.b]]\n[a.b.c]\nx = [[1]]", "[[a]]\n[[a.b]]\n[[a.b.c]]", `"a.b".c = 1`, `{"a":[1,{"b":[[]]}]}`, "x = \"\"\"\n[[[\"\"\"\ny.z = 1"} {
		f.Add(s)
	}
	const limit = 4
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 4096 {
			return
		}
		if bound.TOML("f", []byte(s), bound.Limits{Depth: limit}) == nil {
			var v map[string]any
			if _, err := toml.Decode(s, &v); err == nil {
				if d := depth(v) - 1; d > limit { // the document itself is not a level
					t.Fatalf("TOML accepted %q, which nests %d deep", s, d)
				}
			}
		}
		if bound.JSON("f", []byte(s), bound.Limits{Depth: limit}) == nil {
			var v any
			if err := json.Unmarshal([]byte(s), &v); err == nil {
				if d := depth(v); d > limit {
					t.Fatalf("JSON accepted %q, which nests %d deep", s, d)
				}
			}
		}
	})
}

// depth is the number of nested maps and slices of a decoded value, itself included.
func depth(v any) int {
	d := 0
	switch x := v.(type) {
	case map[string]any:
		for _, e := range x {
			d = maxInt(d, depth(e))
		}
		return d + 1
	case []map[string]any:
		for _, e := range x {
			d = maxInt(d, depth(e))
		}
		return d + 1
	case []any:
		for _, e := range x {
			d = maxInt(d, depth(e))
		}
		return d + 1
	}
	return 0
}
