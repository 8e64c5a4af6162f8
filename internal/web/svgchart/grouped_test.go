package svgchart

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func viewBox(t *testing.T, s string) (w, h float64) {
	t.Helper()
	vb := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(s)
	if vb == nil {
		t.Fatalf("no viewBox: %s", s)
	}
	w, _ = strconv.ParseFloat(vb[1], 64)
	h, _ = strconv.ParseFloat(vb[2], 64)
	return w, h
}

func TestGrouped(t *testing.T) {
	tests := []struct {
		name string
		c    Grouped
		bars int
	}{
		{"empty", Grouped{ID: "e", Keys: []string{"a", "b"}, EmptyText: "nothing"}, 0},
		{"two groups of four", Grouped{ID: "g", Keys: []string{"A obligation", "A delivered", "B obligation", "B delivered"}, Colours: []string{"#111", "#222"},
			Groups: []Group{{"DE", []float64{4558, 4000, 4558, 0}}, {"FR", []float64{3371, math.NaN(), -2}}}}, 8},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := string(tt.c.SVG())
			wellFormed(t, s)
			w, h := viewBox(t, s)
			inBounds(t, s, w, h)
			if got := strings.Count(s, `class="bar `); got != tt.bars {
				t.Errorf("%d bars, want %d", got, tt.bars)
			}
			if tt.bars == 0 && !strings.Contains(s, ">nothing<") {
				t.Errorf("an empty chart does not say so: %s", s)
			}
			for _, m := range regexp.MustCompile(`<rect class="bar k\d" x="([\d.]+)" y="[\d.]+" width="([\d.]+)"`).FindAllStringSubmatch(s, -1) {
				x, _ := strconv.ParseFloat(m[1], 64)
				wd, _ := strconv.ParseFloat(m[2], 64)
				if x+wd > w-right+0.1 {
					t.Errorf("bar ends at %v beyond %v", x+wd, w-right)
				}
			}
		})
	}
	// The largest value reaches the axis's top, a zero is still seen, and each bar says
	// what it is.
	s := string(Grouped{ID: "g", Keys: []string{"obligation", "delivered"}, Groups: []Group{{"DE", []float64{5000, 0}}}}.SVG())
	if !strings.Contains(s, `width="574.0"`) || !strings.Contains(s, `width="0.5"`) {
		t.Errorf("5000 of 5000 is not the full width, or 0 is not a hairline: %s", s)
	}
	if !strings.Contains(s, "<title>DE — delivered: 0</title>") {
		t.Errorf("a bar without its title: %s", s)
	}
}

func TestLineBands(t *testing.T) {
	c := Line{ID: "cov", XLabels: [2]string{"2026-01", "2026-12"},
		Series: []Series{{Label: "A median", Colour: "#08519c", Points: []Point{{0, 0.1}, {11, 0.6}}},
			{Label: "B median", Colour: "#d95f02", Dashed: true, Points: []Point{{0, 0.3}, {11, 0.9}}}},
		Bands: []Band{{Label: "A 5–95 %", Colour: "#08519c", Low: []Point{{0, 0.05}, {11, 0.5}}, High: []Point{{0, 0.15}, {11, 0.7}}},
			{Label: "B 5–95 %", Colour: "#d95f02", Low: []Point{{0, 0.2}, {11, 0.8}}, High: []Point{{0, 0.4}, {11, 1.2}}}}}
	s := string(c.SVG())
	wellFormed(t, s)
	inBounds(t, s, defaultW, defaultH)
	if got := strings.Count(s, `class="band `); got != 2 {
		t.Errorf("%d bands drawn, want 2", got)
	}
	if got := strings.Count(s, `class="key b`); got != 2 {
		t.Errorf("%d band keys in the legend, want 2", got)
	}
	// The band's top (1.2) sets the axis, not only the series (0.9).
	if !strings.Contains(s, ">2</text>") {
		t.Errorf("the y axis does not reach the band's top: %s", s)
	}
	// Many keys wrap to a second row instead of running off the chart.
	long := c
	for i := range 6 {
		long.Series = append(long.Series, Series{Label: "a long series label " + strconv.Itoa(i), Points: []Point{{0, 1}, {1, 2}}})
	}
	ls := string(long.SVG())
	inBounds(t, ls, defaultW, defaultH)
	rows := map[string]bool{}
	for _, m := range regexp.MustCompile(`<line class="key s\d+" x1="[\d.]+" y1="([\d.]+)"`).FindAllStringSubmatch(ls, -1) {
		rows[m[1]] = true
	}
	if len(rows) < 2 {
		t.Errorf("legend of %d keys in %d row(s)", len(long.Series)+len(long.Bands), len(rows))
	}
	// A wider margin moves the plot, not the labels off the chart.
	wide := string(Line{ID: "w", Left: 120, YFormat: func(float64) string { return "EUR 500,000,000" }, Series: []Series{{Points: []Point{{0, 1}, {1, 2}}}}}.SVG())
	inBounds(t, wide, defaultW, defaultH)
	if !strings.Contains(wide, `<line x1="120.0"`) || !strings.Contains(wide, `<text x="114.0"`) {
		t.Errorf("the plot does not start at the margin given: %s", wide)
	}
	// A square point is a rect, not a circle.
	sq := string(Line{ID: "sq", Series: []Series{{Label: "B", Square: true, Points: []Point{{1, 1}}}}}.SVG())
	if strings.Contains(sq, "<circle") || !strings.Contains(sq, `<rect class="key s0"`) {
		t.Errorf("square series drawn with circles: %s", sq)
	}
}

func TestGroupedEscaping(t *testing.T) {
	evil := `<script>alert("x")</script>&`
	for _, s := range []string{
		string(Grouped{ID: "g", Title: evil, Keys: []string{evil}, Colours: []string{`"/><x`}, Groups: []Group{{Label: evil, Values: []float64{1}}}}.SVG()),
		string(Line{ID: "b", Bands: []Band{{Label: evil, Colour: `"/><x`, Low: []Point{{0, 0}}, High: []Point{{0, 1}}}}}.SVG()),
	} {
		if strings.Contains(s, "<script") || strings.Contains(s, `"/><x`) {
			t.Errorf("label not escaped: %s", s)
		}
		wellFormed(t, s)
	}
}
