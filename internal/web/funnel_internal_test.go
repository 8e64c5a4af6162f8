package web

import (
	"strings"
	"testing"

	"solidarity/internal/casesvc"
	"solidarity/internal/i18n"
)

// TestFunnelView: bars are as long as their share of the first stage (within a
// unit), narrower stages are indented, a stage of a few cases still shows, and the
// description says every stage's figures in the locale's form.
func TestFunnelView(t *testing.T) {
	stages := []casesvc.FunnelStage{{Key: "registered", Label: "Registered", N: 2000}, {Key: "screened", Label: "Screened", Parent: "registered", N: 1000},
		{Key: "border", Label: "Border procedure", Parent: "screened", N: 1}, {Key: "return", Label: "Return", Parent: "screened", N: 0}}
	v := newFunnelView(i18n.New("de"), "f", stages)
	if len(v.Rows) != 4 || v.Height < 4*funnelRowH {
		t.Fatalf("%d rows, height %d", len(v.Rows), v.Height)
	}
	full := v.Rows[0].W
	if full <= 0 || full+v.BarX > v.Width {
		t.Fatalf("the first bar is %d wide in a chart of %d", full, v.Width)
	}
	if d := v.Rows[1].W*2 - full; d < -2 || d > 2 {
		t.Errorf("half the cases: bar %d of %d", v.Rows[1].W, full)
	}
	if v.Rows[2].W < 2 || v.Rows[3].W != 0 {
		t.Errorf("one case: bar %d (want at least 2); none: %d", v.Rows[2].W, v.Rows[3].W)
	}
	if !(v.Rows[0].LabelX < v.Rows[1].LabelX && v.Rows[1].LabelX < v.Rows[2].LabelX) || !v.Rows[2].Child || v.Rows[1].Child {
		t.Errorf("indents %d %d %d", v.Rows[0].LabelX, v.Rows[1].LabelX, v.Rows[2].LabelX)
	}
	for _, r := range v.Rows {
		if r.CountX <= v.BarX+r.W || r.Y+v.BarH > v.Height {
			t.Errorf("stage %s: count at %d, bar ends at %d; bar bottom %d of %d", r.Key, r.CountX, v.BarX+r.W, r.Y+v.BarH, v.Height)
		}
	}
	if v.Rows[0].Count != "2.000" || v.Rows[1].Share != "50,0\u00a0%" || !strings.Contains(v.Desc, "2.000") {
		t.Errorf("German figures: %q, %q; desc %q", v.Rows[0].Count, v.Rows[1].Share, v.Desc)
	}
	if e := newFunnelView(i18n.New("en"), "f", []casesvc.FunnelStage{{Key: "registered", Label: "Registered"}}); e.Rows[0].W != 0 || e.Rows[0].Share != "—" {
		t.Errorf("no cases: %+v", e.Rows[0])
	}
}
