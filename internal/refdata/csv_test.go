package refdata_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
	"solidarity/internal/refdata"
)

const (
	popHead = "code,country,population,reference_date,vintage,source\n"
	gdpHead = "code,country,gdp_meur,gdp_national_currency_million,currency,national_per_eur,reference_year,vintage,source\n"
)

func TestParseCSV(t *testing.T) {
	in := popHead +
		"AT,Austria,9197213,2025-01-01,v1,s1\n" +
		"gr,Greece,,2025-01-01,not published yet,s2\n" +
		"EU27_2020,European Union,450380320,2025-01-01,v1,s1\n"
	d, err := refdata.ParseCSV("pop.csv", strings.NewReader(in), eurostat.Options{Period: "2025"})
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "pop" || d.Indicator != solidarity.Population || len(d.Rows) != 2 || d.Source != "file pop.csv" || d.Vintage != "" {
		t.Fatalf("got %+v", d)
	}
	el, _ := d.Get("EL")
	if el.Value != nil || el.Note != "not published yet" || el.Vintage != "not published yet" || el.Period != "2025-01-01" {
		t.Errorf("EL = %+v", el)
	}

	// Unknown columns are kept in the note; a file without a period takes the option's.
	in = "code,country,gdp_meur,vintage,source,comment\nDE,Germany,4328970,2025-11,Eurostat,checked twice\n"
	d, err = refdata.ParseCSV("g.csv", strings.NewReader(in), eurostat.Options{Period: "2024"})
	if err != nil {
		t.Fatal(err)
	}
	if o := d.Rows[0]; o.Note != "comment=checked twice" || o.Period != "2024" || d.Vintage != "2025-11" || d.Source != "Eurostat" {
		t.Errorf("DE = %+v", o)
	}
}

func TestParseCSVErrors(t *testing.T) {
	tests := []struct {
		name, in string
		opt      eurostat.Options
		line     int
		field    string
		msg      string
	}{
		{"no value column", "code,country,inhabitants,vintage,source\n", eurostat.Options{}, 1, "", "neither a population nor a gdp_meur column"},
		{"both value columns", "code,country,population,gdp_meur,vintage,source\n", eurostat.Options{}, 1, "gdp_meur", "both"},
		{"no vintage", "code,country,population,source\nAT,Austria,1,s\n", eurostat.Options{}, 1, "vintage", "missing column vintage"},
		{"no source", "code,country,population,vintage\n", eurostat.Options{}, 1, "source", "missing column source"},
		{"repeated column", "code,country,population,vintage,source,Vintage\n", eurostat.Options{}, 1, "vintage", "appears twice"},
		{"empty file", "", eurostat.Options{}, 1, "", "empty file"},
		{"header only", popHead, eurostat.Options{}, 0, "", "no rows"},
		{"unknown code", popHead + "AT,Austria,1,2025-01-01,v,s\nXX,Nowhere,1,2025-01-01,v,s\n", eurostat.Options{}, 3, "code", `"XX" is not an EU Member State's code`},
		{"non-member", popHead + "NO,Norway,1,2025-01-01,v,s\n", eurostat.Options{}, 2, "code", `"NO" is not`},
		{"duplicate", popHead + "AT,Austria,1,2025-01-01,v,s\nDE,Germany,2,2025-01-01,v,s\nAT,Austria,3,2025-01-01,v,s\n", eurostat.Options{}, 4, "code", "second row for AT (first at line 2)"},
		{"GR duplicates EL", popHead + "EL,Greece,1,2025-01-01,v,s\nGR,Greece,2,2025-01-01,v,s\n", eurostat.Options{}, 3, "code", "second row for EL"},
		{"negative", popHead + "AT,Austria,-1,2025-01-01,v,s\n", eurostat.Options{}, 2, "population", `AT value "-1" is negative`},
		{"thousands separator", popHead + "AT,Austria,\"9,197,213\",2025-01-01,v,s\n", eurostat.Options{}, 2, "population", "is not a number"},
		{"fractional population", popHead + "AT,Austria,9197213.5,2025-01-01,v,s\n", eurostat.Options{}, 2, "population", "not a whole number"},
		{"ragged", popHead + "AT,Austria,1,2025-01-01,v\n", eurostat.Options{}, 2, "", "row has 5 fields, the header has 6"},
		{"bad date", popHead + "AT,Austria,1,2025-13-01,v,s\n", eurostat.Options{}, 2, "reference_date", `"2025-13-01" is not a date`},
		{"mixed periods", popHead + "AT,Austria,1,2025-01-01,v,s\nDE,Germany,1,2024-01-01,v,s\n", eurostat.Options{}, 3, "reference_date", "differs from \"2025-01-01\" on line 2"},
		{"other period wanted", popHead + "AT,Austria,1,2025-01-01,v,s\n", eurostat.Options{Period: "2024"}, 2, "reference_date", `the file is for "2025-01-01", not "2024-01-01"`},
		{"bad GDP year", gdpHead + "DE,Germany,4328970,4328970,EUR,1,24,v,s\n", eurostat.Options{}, 2, "reference_year", "not a year"},
		{"bad rate", gdpHead + "BG,Bulgaria,103721.2,202861,BGN,,2024,v,s\n", eurostat.Options{}, 2, "national_per_eur", `BG value "" is not a number`},
		{"wrong conversion", gdpHead + "BG,Bulgaria,103821.2,202861,BGN,1.95583,2024,v,s\n", eurostat.Options{}, 2, "gdp_meur", "103821.2 million EUR is not 202861 BGN / 1.95583 = 103721.18"},
		{"bad flag", "code,country,gdp_meur,flag,vintage,source\nDE,Germany,1,P,v,s\n", eurostat.Options{}, 2, "flag", `flag "P"`},
		{"all missing", popHead + "AT,Austria,,2025-01-01,v,s\n", eurostat.Options{}, 0, "population", "no figure for any Member State"},
		{"bare quote", popHead + "AT,Aus\"tria,1,2025-01-01,v,s\n", eurostat.Options{}, 2, "", "bare \""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := refdata.ParseCSV("f.csv", strings.NewReader(tt.in), tt.opt)
			if err == nil {
				t.Fatalf("no error: %+v", d)
			}
			e, ok := errors.AsType[*solidarity.Error](err)
			if !ok {
				t.Fatalf("%T %v", err, err)
			}
			if e.Code != solidarity.EINVALID || e.File != "f.csv" || e.Line != tt.line || e.Field != tt.field || !strings.Contains(e.Message, tt.msg) {
				t.Errorf("got %q %q line %d field %q message %q; want line %d field %q message containing %q",
					e.Code, e.File, e.Line, e.Field, e.Message, tt.line, tt.field, tt.msg)
			}
		})
	}
}

// TestRoundTrip writes every shipped dataset and every Eurostat fixture in the
// provenance format and reads it back: the observations must come back identical.
func TestRoundTrip(t *testing.T) {
	var sets []*solidarity.Dataset
	sets = append(sets, refdata.Builtin()...)
	fixtures, _ := filepath.Glob("../eurostat/testdata/*.*")
	for _, f := range fixtures {
		// The key's datasets only: the asylum applicants (migr_asyappctz*) are read
		// by eurostat.ParseApplicants, for simulation scenarios.
		if strings.HasPrefix(filepath.Base(f), "migr_") {
			continue
		}
		d := mustLoad(t, f, eurostat.Options{})
		sets = append(sets, d)
	}
	if len(sets) < 12 {
		t.Fatalf("only %d datasets to round-trip", len(sets))
	}
	for _, d := range sets {
		var buf bytes.Buffer
		if err := refdata.Write(&buf, d); err != nil {
			t.Fatalf("%s: %v", d.ID, err)
		}
		back, err := refdata.ParseCSV(d.ID+".csv", bytes.NewReader(buf.Bytes()), eurostat.Options{})
		if err != nil {
			t.Fatalf("%s: %v\n%s", d.ID, err, buf.String())
		}
		if diff := refdata.Diff(d, back); diff != "" {
			t.Errorf("%s: %s", d.ID, diff)
		}
		// Writing what was read gives the same bytes.
		var again bytes.Buffer
		if err := refdata.Write(&again, back); err != nil || again.String() != buf.String() {
			t.Errorf("%s: second write differs (%v)", d.ID, err)
		}
	}
}

func TestWriteRejects(t *testing.T) {
	ok := func() *solidarity.Dataset {
		return &solidarity.Dataset{ID: "x", Indicator: solidarity.GDP, Rows: []solidarity.Observation{
			{State: "AT", Value: big.NewRat(4942, 1), Period: "2024"},
			{State: "DE", Value: big.NewRat(43289, 1), Period: "2024"},
		}}
	}
	if err := refdata.Write(&bytes.Buffer{}, ok()); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		change func(d *solidarity.Dataset)
		msg    string
	}{
		{"repeated state", func(d *solidarity.Dataset) { d.Rows[1].State = "AT" }, "two rows for AT"},
		{"not a state", func(d *solidarity.Dataset) { d.Rows[1].State = "NO" }, "not an EU Member State"},
		{"negative", func(d *solidarity.Dataset) { d.Rows[0].Value = big.NewRat(-1, 1) }, "negative"},
		{"no decimal form", func(d *solidarity.Dataset) { d.Rows[0].Value = big.NewRat(1, 3) }, "no exact decimal form"},
		{"mixed periods", func(d *solidarity.Dataset) { d.Rows[1].Period = "2023" }, "periods"},
		{"bad period", func(d *solidarity.Dataset) { d.Rows[0].Period, d.Rows[1].Period = "../x", "../x" }, "not a year"},
		{"CRLF", func(d *solidarity.Dataset) { d.Rows[0].Note = "a\r\nb" }, "CRLF"},
		{"no indicator", func(d *solidarity.Dataset) { d.Indicator = "" }, "indicator"},
		{"no figure", func(d *solidarity.Dataset) { d.Rows[0].Value, d.Rows[1].Value = nil, nil }, "no figure"},
	}
	for _, tt := range tests {
		d := ok()
		tt.change(d)
		err := refdata.Write(&bytes.Buffer{}, d)
		if solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), tt.msg) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.msg)
		}
	}
}

func TestLoad(t *testing.T) {
	d := mustLoad(t, "../eurostat/testdata/nama_10_gdp.jsonstat.json", eurostat.Options{})
	if d.ID != "nama_10_gdp-2024" || !strings.Contains(d.Source, "JSON-stat") {
		t.Errorf("JSON-stat: %s %s", d.ID, d.Source)
	}
	d = mustLoad(t, "data/gdp-2024.csv", eurostat.Options{})
	if d.ID != "gdp-2024" || len(d.Rows) != 27 {
		t.Errorf("provenance CSV: %s %d", d.ID, len(d.Rows))
	}
	// Our format, gzipped and with a byte order mark, as a spreadsheet may save it.
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	gz.Write([]byte("\ufeff" + popHead + "AT,Austria,9197213,2025-01-01,v,s\n"))
	gz.Close()
	d, err := refdata.Load("pop.csv.gz", &buf, eurostat.Options{})
	if err != nil || d.ID != "pop" || len(d.Rows) != 1 {
		t.Errorf("gzipped CSV: %v %+v", err, d)
	}
	// Neither format.
	_, err = refdata.Load("notes.txt", strings.NewReader("hello\n"), eurostat.Options{})
	if solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "notes.txt:1") {
		t.Errorf("plain text: %v", err)
	}
}

func mustLoad(t *testing.T, path string, opt eurostat.Options) *solidarity.Dataset {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := refdata.Load(path, f, opt)
	if err != nil {
		t.Fatalf("Load(%s): %v", path, err)
	}
	return d
}
