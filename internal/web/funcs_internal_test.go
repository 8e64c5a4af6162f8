package web

import (
	"testing"

	"solidarity"

	"solidarity/internal/report"
)

func TestF64(t *testing.T) {
	num := func(s string) *report.Num { n := report.Num(s); return &n }
	for _, c := range []struct {
		n *report.Num
		f float64
	}{{nil, 0}, {num("0"), 0}, {num("0.5"), 0.5}, {num("-1.23456"), -1.23456}} {
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
