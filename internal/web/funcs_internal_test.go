package web

import (
	"math"
	"solidarity"
	"testing"

	"solidarity/internal/report"
)

func TestThousands(t *testing.T) {
	for _, c := range []struct {
		v    int64
		want string
	}{
		{0, "0"}, {7, "7"}, {999, "999"}, {1000, "1,000"}, {-1000, "-1,000"}, {123456, "123,456"},
		{1234567, "1,234,567"}, {-999999, "-999,999"}, {math.MaxInt64, "9,223,372,036,854,775,807"},
		{math.MinInt64, "-9,223,372,036,854,775,808"},
	} {
		if got := thousands(c.v); got != c.want {
			t.Errorf("thousands(%d) = %q, want %q", c.v, got, c.want)
		}
	}
}

func TestNumberFuncs(t *testing.T) {
	num := func(s string) *report.Num { n := report.Num(s); return &n }
	str := funcs["str"].(func(*report.Num) string)
	pct := funcs["pct"].(func(*report.Num) string)
	for _, c := range []struct {
		n        *report.Num
		str, pct string
		f        float64
	}{
		{nil, "unknown", "—", 0},
		{num("0"), "0", "0.0 %", 0},
		{num("0.5"), "0.5", "50.0 %", 0.5},
		{num("1.23456"), "1.23456", "123.5 %", 1.23456},
	} {
		if got := str(c.n); got != c.str {
			t.Errorf("str(%v) = %q, want %q", c.n, got, c.str)
		}
		if got := pct(c.n); got != c.pct {
			t.Errorf("pct(%v) = %q, want %q", c.n, got, c.pct)
		}
		if got := f64(c.n); got != c.f {
			t.Errorf("f64(%v) = %v, want %v", c.n, got, c.f)
		}
	}
}

// Every measure of the table has a colour in the map's legend, distinct from the
// others, and its label is the table's.
func TestPledgeColours(t *testing.T) {
	seen := map[string]solidarity.PledgeType{}
	for _, m := range solidarity.Measures() {
		f := pledgeFill(m.Pledge)
		if f.Fill == "" {
			t.Errorf("measure %s has no colour in pledgeColours", m.Pledge)
		}
		if other, dup := seen[f.Fill]; dup {
			t.Errorf("measures %s and %s share the colour %s", other, m.Pledge, f.Fill)
		}
		seen[f.Fill] = m.Pledge
		if f.Label != m.Label {
			t.Errorf("measure %s: legend label %q, want the table's %q", m.Pledge, f.Label, m.Label)
		}
	}
	if f := pledgeFill(solidarity.NoPledge); f != noPledge {
		t.Errorf("no pledge: %v", f)
	}
}
