package svgchart

import (
	"encoding/xml"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// wellFormed parses the SVG as XML: an unescaped label would break it.
func wellFormed(t *testing.T, s string) {
	t.Helper()
	d := xml.NewDecoder(strings.NewReader(s))
	for {
		_, err := d.Token()
		if err != nil {
			if err.Error() == "EOF" {
				return
			}
			t.Fatalf("not well-formed: %v\n%s", err, s)
		}
	}
}

var coord = regexp.MustCompile(`\b(x|y|x1|x2|y1|y2|cx|cy|width|height)="([^"%]*)"`)

// inBounds checks every coordinate is a finite number within the viewBox.
func inBounds(t *testing.T, s string, w, h float64) {
	t.Helper()
	if strings.Contains(s, "NaN") || strings.Contains(s, "Inf") {
		t.Fatalf("NaN or Inf in %s", s)
	}
	for _, m := range coord.FindAllStringSubmatch(s, -1) {
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatalf("%s=%q is not a number", m[1], m[2])
		}
		lim := w
		if strings.HasPrefix(m[1], "y") || m[1] == "cy" || m[1] == "height" {
			lim = h
		}
		if v < 0 || v > lim {
			t.Errorf("%s=%v outside 0..%v", m[1], v, lim)
		}
	}
}

func TestLine(t *testing.T) {
	today := 15.0
	tests := []struct {
		name string
		c    Line
	}{
		{"empty", Line{ID: "e", Title: "none", EmptyText: "none recorded"}},
		{"one point", Line{ID: "o", Series: []Series{{Label: "a", Points: []Point{{X: 3, Y: 5}}}}}},
		{"two series and today", Line{ID: "t", Marker: &today, MarkerLabel: "today", XMin: 0, XMax: 30,
			Series: []Series{{Label: "pledged", Points: []Point{{0, 100}, {10, 100}, {30, 400}}}, {Label: "delivered", Points: []Point{{0, 0}, {20, 50}}}}}},
		{"NaN and Inf", Line{ID: "n", Series: []Series{{Points: []Point{{math.NaN(), math.Inf(1)}, {1, -3}, {math.Inf(-1), 2}}}}}},
		{"marker outside", Line{ID: "m", XMin: 0, XMax: 1, Marker: &today, Series: []Series{{Points: []Point{{0, 1}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := string(tt.c.SVG())
			wellFormed(t, s)
			inBounds(t, s, defaultW, defaultH)
			if !strings.Contains(s, `role="img"`) || !strings.Contains(s, `aria-labelledby="`+tt.c.ID+`-title `+tt.c.ID+`-desc"`) {
				t.Errorf("no accessible name: %s", s)
			}
		})
	}
}

func TestLineEmptySaysSo(t *testing.T) {
	s := string(Line{ID: "e", EmptyText: "none recorded"}.SVG())
	if !strings.Contains(s, ">none recorded<") {
		t.Errorf("empty chart does not say so: %s", s)
	}
	if strings.Contains(s, "<path") {
		t.Errorf("empty chart draws a line: %s", s)
	}
}

func TestEscaping(t *testing.T) {
	evil := `<script>alert("x")</script>&`
	for _, s := range []string{
		string(Line{ID: "a", Title: evil, Desc: evil, XLabels: [2]string{evil, evil}, Series: []Series{{Label: evil, Colour: `"><x`, Points: []Point{{0, 1}}}}}.SVG()),
		string(Stacked{ID: "b", Title: evil, Keys: []string{evil}, Colours: []string{`"/><x`}, Bars: []Bar{{Label: evil, Segments: []Segment{{Label: evil, Value: 1}}}}}.SVG()),
	} {
		if strings.Contains(s, "<script") || strings.Contains(s, `"><x`) || strings.Contains(s, `"/><x`) {
			t.Errorf("label not escaped: %s", s)
		}
		wellFormed(t, s)
	}
}

func TestStacked(t *testing.T) {
	tests := []struct {
		name string
		c    Stacked
		bars int
	}{
		{"empty", Stacked{ID: "e", Keys: []string{"a", "b"}, EmptyText: "no pledge"}, 0},
		{"three bars", Stacked{ID: "s", Keys: []string{"a", "b", "c", "d"}, Colours: []string{"#111", "#222"},
			Bars: []Bar{{"DE", []Segment{{"a", 10}, {"b", 20}}}, {"FR", []Segment{{"a", 0}, {"b", 5}, {"c", 7}}}, {"IT", []Segment{{"a", math.NaN()}, {"d", -4}}}}}, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := string(tt.c.SVG())
			wellFormed(t, s)
			vb := regexp.MustCompile(`viewBox="0 0 (\d+) (\d+)"`).FindStringSubmatch(s)
			w, _ := strconv.ParseFloat(vb[1], 64)
			h, _ := strconv.ParseFloat(vb[2], 64)
			inBounds(t, s, w, h)
			if got := strings.Count(s, "<title>"); tt.bars > 0 && got == 0 {
				t.Errorf("segments have no titles")
			}
			// the longest bar ends within the plot
			for _, m := range regexp.MustCompile(`<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"`).FindAllStringSubmatch(s, -1) {
				x, _ := strconv.ParseFloat(m[1], 64)
				wd, _ := strconv.ParseFloat(m[2], 64)
				if x+wd > w-right+0.1 {
					t.Errorf("bar ends at %v beyond %v", x+wd, w-right)
				}
			}
		})
	}
}

func TestNiceCeil(t *testing.T) {
	for _, tt := range []struct{ in, want float64 }{{0, 1}, {-5, 1}, {math.NaN(), 1}, {1, 1}, {1.5, 2}, {3, 5}, {7, 10}, {11, 20}, {4558, 5000}, {0.3, 0.5}} {
		if got := NiceCeil(tt.in); got != tt.want {
			t.Errorf("NiceCeil(%v) = %v, want %v", tt.in, got, tt.want)
		}
	}
}
