package eurostat_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
)

// The fuzzers share one property: Parse either returns a *solidarity.Error of code
// EINVALID naming the file, or a complete, consistent dataset. Seeds come from the
// fixtures and from the committed corpus in testdata/fuzz.

func FuzzParseSDMXCSV(f *testing.F) {
	fuzzParse(f, "nama_10_gdp.sdmx-csv", "nama_10_gdp.sdmx-csv", "demo_gind.sdmx-csv")
}

func FuzzParseSDMX3CSV(f *testing.F) {
	fuzzParse(f, "demo_pjan.sdmx3-csv", "demo_pjan.sdmx3-csv", "demo_pjan-labels.sdmx3-csv")
}

func FuzzParseTSV(f *testing.F) {
	fuzzParse(f, "nama_10_gdp.tsv", "nama_10_gdp.tsv", "nama_10_gdp.tsv.gz", "nama_10_gdp-full.tsv")
}

func FuzzParseJSONStat(f *testing.F) {
	fuzzParse(f, "nama_10_gdp.json", "nama_10_gdp.jsonstat.json", "nama_10_gdp-dense.jsonstat.json")
}

func fuzzParse(f *testing.F, name string, seeds ...string) {
	for _, s := range seeds {
		data, err := os.ReadFile(filepath.Join("testdata", s))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []eurostat.Options{{}, {Period: "2024"}} {
			d, err := eurostat.Parse(name, bytes.NewReader(data), opt)
			checkResult(t, name, d, err)
		}
	})
}

func checkResult(t *testing.T, name string, d *solidarity.Dataset, err error) {
	t.Helper()
	if err != nil {
		e, ok := errors.AsType[*solidarity.Error](err)
		if !ok || e.Code != solidarity.EINVALID || e.File != name || d != nil {
			t.Fatalf("bad error %T %v (dataset %v)", err, err, d)
		}
		return
	}
	if d.Indicator != solidarity.Population && d.Indicator != solidarity.GDP {
		t.Fatalf("indicator %q", d.Indicator)
	}
	if len(d.Rows) == 0 || d.Source == "" || d.ID == "" {
		t.Fatalf("incomplete dataset %+v", d)
	}
	seen := make(map[solidarity.MemberState]bool)
	values := 0
	for _, o := range d.Rows {
		if !o.State.Valid() || seen[o.State] {
			t.Fatalf("state %q invalid or repeated", o.State)
		}
		seen[o.State] = true
		if o.Value != nil {
			values++
			if o.Value.Sign() < 0 {
				t.Fatalf("%s negative %s", o.State, o.Value.RatString())
			}
			if d.Indicator == solidarity.Population && !o.Value.IsInt() {
				t.Fatalf("%s population %s", o.State, o.Value.RatString())
			}
		}
		if o.Period == "" || o.Period != d.Rows[0].Period || o.Source != d.Source {
			t.Fatalf("%s provenance %+v", o.State, o)
		}
	}
	if values == 0 {
		t.Fatal("no values")
	}
}
