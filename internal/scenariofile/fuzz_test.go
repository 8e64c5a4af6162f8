package scenariofile_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"solidarity/internal/scenariofile"
)

// FuzzParse: no scenario text panics or hangs the parser, and what parses is a
// scenario that prepares (Parse prepares it before returning).
func FuzzParse(f *testing.F) {
	for _, info := range scenariofile.Shipped() {
		src, err := scenariofile.ShippedSource(info.Name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
	}
	f.Add("base = \"cycle-2026\"\n[choice.HU]\npay = 0.5\n[operations]\narrivals_scale = 1.5\n")
	f.Add("base = \"replay-2015\"\n[data]\nobserved = \"x.csv\"\n")
	f.Fuzz(func(t *testing.T, src string) {
		s, err := scenariofile.Parse("fuzz.toml", []byte(src), nil)
		if err == nil && (s == nil || s.Months < 1 || s.Months > 120) {
			t.Fatalf("parsed without a valid period: %+v", s)
		}
	})
}

// FuzzCSV: no data file panics the reader.
func FuzzCSV(f *testing.F) {
	f.Add("date,state,from,value,percent\n2017-07-13,FR,,3779,19.2\n")
	f.Add("date,state,from,value\n\"2017,\n")
	f.Fuzz(func(t *testing.T, data string) {
		dir := fstest.MapFS{"obs.csv": {Data: []byte(data)}}
		_, _ = scenariofile.Parse("f.toml", []byte("base = \"replay-2015\"\n[data]\nobserved = \"obs.csv\"\n"), dir)
	})
}

// TestBounds: a file beyond the size or value bounds is refused before it is decoded.
func TestBounds(t *testing.T) {
	big := "base = \"cycle-2026\"\n# " + strings.Repeat("x", 2<<20) + "\n"
	if _, err := scenariofile.Parse("big.toml", []byte(big), nil); err == nil {
		t.Error("a 2 MiB file parsed")
	}
	many := "base = \"cycle-2026\"\n[operations.recognition]\n"
	for i := range 20000 {
		many += "n" + strings.Repeat("a", i%7) + string(rune('a'+i%26)) + strings.Repeat("b", i/26%50) + " = 0.5\n"
	}
	if _, err := scenariofile.Parse("many.toml", []byte(many), nil); err == nil {
		t.Error("20 000 values parsed")
	}
	deep := "base = \"cycle-2026\"\nx = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n"
	if _, err := scenariofile.Parse("deep.toml", []byte(deep), nil); err == nil {
		t.Error("a deeply nested file parsed")
	}
}
