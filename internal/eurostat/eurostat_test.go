package eurostat_test

import (
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
)

// want describes one expected observation; value "" means missing.
type want struct {
	value, flag string
}

func TestParseFixtures(t *testing.T) {
	gdp := map[solidarity.MemberState]want{
		"AT": {"494087.6", "p"},
		"DE": {"4328970.0", "p"},
		"EL": {"", ""},
	}
	tests := []struct {
		file      string
		opt       eurostat.Options
		indicator solidarity.Indicator
		id        string
		period    string
		vintage   string
		format    string
		rows      map[solidarity.MemberState]want
	}{
		{"nama_10_gdp.sdmx-csv", eurostat.Options{}, solidarity.GDP, "nama_10_gdp-2024", "2024", "2025-11-17T23:00:00", "SDMX-CSV 2.1", gdp},
		{"nama_10_gdp.tsv", eurostat.Options{}, solidarity.GDP, "nama_10_gdp-2024", "2024", "", "bulk TSV", gdp},
		{"nama_10_gdp.tsv.gz", eurostat.Options{}, solidarity.GDP, "nama_10_gdp-2024", "2024", "", "bulk TSV", gdp},
		{"nama_10_gdp.jsonstat.json", eurostat.Options{}, solidarity.GDP, "nama_10_gdp-2024", "2024", "2025-11-17T23:00:00+0100", "JSON-stat 2.0", gdp},
		{"nama_10_gdp.jsonstat.json", eurostat.Options{Period: "2024"}, solidarity.GDP, "nama_10_gdp-2024", "2024", "2025-11-17T23:00:00+0100", "JSON-stat 2.0", gdp},
		{"nama_10_gdp-dense.jsonstat.json", eurostat.Options{}, solidarity.GDP, "nama_10_gdp-2024", "2024", "2025-11-17T23:00:00+0100", "JSON-stat 2.0", gdp},
		{"nama_10_gdp-dense.jsonstat.json", eurostat.Options{Period: "2023"}, solidarity.GDP, "nama_10_gdp-2023", "2023", "2025-11-17T23:00:00+0100", "JSON-stat 2.0",
			map[solidarity.MemberState]want{"AT": {"480000.1", ""}, "DE": {"4200000.0", ""}, "EL": {"210000.0", ""}}},
		{"demo_pjan.sdmx3-csv", eurostat.Options{}, solidarity.Population, "demo_pjan-2025-01-01", "2025-01-01", "", "SDMX 3.0 CSV",
			map[solidarity.MemberState]want{"AT": {"9197213", ""}, "DE": {"83577140", ""}, "SK": {"5419451", ""}}},
		{"demo_pjan-labels.sdmx3-csv", eurostat.Options{}, solidarity.Population, "demo_pjan-2025-01-01", "2025-01-01", "", "SDMX 3.0 CSV",
			map[solidarity.MemberState]want{"AT": {"9197213", ""}, "DE": {"83577140", "p"}, "SK": {"5419451", ""}}},
		{"demo_pjan-labels.sdmx3-csv", eurostat.Options{Period: "2024"}, solidarity.Population, "demo_pjan-2024-01-01", "2024-01-01", "", "SDMX 3.0 CSV",
			map[solidarity.MemberState]want{"AT": {"9184868", ""}, "DE": {"83564795", ""}, "SK": {"5407106", ""}}},
		{"demo_pjan-labels.sdmx3-csv", eurostat.Options{Period: "2024-01-01"}, solidarity.Population, "demo_pjan-2024-01-01", "2024-01-01", "", "SDMX 3.0 CSV",
			map[solidarity.MemberState]want{"AT": {"9184868", ""}, "DE": {"83564795", ""}, "SK": {"5407106", ""}}},
	}
	for _, tt := range tests {
		t.Run(tt.file+"/"+tt.opt.Period, func(t *testing.T) {
			d := mustParse(t, tt.file, tt.opt)
			if d.Indicator != tt.indicator || d.ID != tt.id || d.Vintage != tt.vintage {
				t.Errorf("got indicator %q id %q vintage %q, want %q %q %q", d.Indicator, d.ID, d.Vintage, tt.indicator, tt.id, tt.vintage)
			}
			if !strings.Contains(d.Source, tt.format) || !strings.Contains(d.Source, tt.file) {
				t.Errorf("Source %q does not name format %q and file %q", d.Source, tt.format, tt.file)
			}
			checkRows(t, d, tt.period, tt.vintage, tt.rows)
		})
	}
}

func TestParseDemoGind(t *testing.T) {
	// The fixture carries the figures of the shipped population-2025-01-01.csv.
	pop := map[string]string{
		"BE": "11883495", "BG": "6437360", "CZ": "10909500", "DK": "5992734", "DE": "83577140", "EE": "1369995",
		"IE": "5440278", "EL": "10372335", "ES": "49128297", "FR": "68882600", "HR": "3874350", "IT": "58943464",
		"CY": "982966", "LV": "1860565", "LT": "2890664", "LU": "681973", "HU": "9539502", "MT": "574250",
		"NL": "18044027", "AT": "9197213", "PL": "36497495", "PT": "10749635", "RO": "19043151", "SI": "2130850",
		"SK": "5419451", "FI": "5635971", "SE": "10587710",
	}
	d := mustParse(t, "demo_gind.sdmx-csv", eurostat.Options{})
	if d.ID != "demo_gind-2025-01-01" {
		t.Errorf("ID = %q; the 2026 rows have no value, so 2025 is the latest period", d.ID)
	}
	rows := make(map[solidarity.MemberState]want)
	for code, v := range pop {
		rows[solidarity.MemberState(code)] = want{v, map[string]string{"FR": "p", "DE": "bp"}[code]}
	}
	checkRows(t, d, "2025-01-01", "2026-03-27T23:00:00", rows)
	if !strings.Contains(d.Caveat, "provisional") || !strings.Contains(d.Caveat, "break in time series") {
		t.Errorf("Caveat %q does not explain the flags", d.Caveat)
	}

	d = mustParse(t, "demo_gind.sdmx-csv", eurostat.Options{Period: "2024"})
	for _, o := range d.Rows {
		base, _ := new(big.Rat).SetString(pop[string(o.State)])
		if want := new(big.Rat).Sub(base, big.NewRat(1000, 1)); o.Value.Cmp(want) != 0 {
			t.Errorf("%s 2024 = %s, want %s", o.State, o.Value.RatString(), want.RatString())
		}
	}
}

// TestParseFullDownload reads a bulk TSV with several units and items, aggregates and
// non-members, as a download of the whole of nama_10_gdp gives.
func TestParseFullDownload(t *testing.T) {
	gdp := map[string]string{"AT": "484223", "BE": "613985", "BG": "103721.2", "EL": "237573", "FR": "2921204", "SE": "558044.4"}
	d := mustParse(t, "nama_10_gdp-full.tsv", eurostat.Options{})
	rows := make(map[solidarity.MemberState]want)
	for _, code := range []string{"AT", "BE", "BG", "EL", "FR", "SE"} {
		rows[solidarity.MemberState(code)] = want{gdp[code], map[string]string{"FR": "p"}[code]}
	}
	checkRows(t, d, "2024", "", rows)

	_, err := eurostat.Parse("nama_10_gdp-full.tsv", open(t, "nama_10_gdp-full.tsv"), eurostat.Options{Period: "2025"})
	if err == nil || !strings.Contains(err.Error(), "no figure for any Member State in period 2025") {
		t.Errorf("period 2025 (all \":\"): err = %v", err)
	}
}

// TestParseLabelsWithoutSpace accepts labels=both as the README describes it, with no
// space after the colon.
func TestParseLabelsWithoutSpace(t *testing.T) {
	const in = "STRUCTURE,STRUCTURE_ID,STRUCTURE_NAME,freq:Time frequency,unit:Unit of measure,age:Age class,sex:Sex,geo:Geopolitical entity (reporting),TIME_PERIOD:Time,OBS_VALUE:Observation value,OBS_FLAG:Observation status (Flag) V2 structure,CONF_STATUS:Confidentiality status (flag)\n" +
		"dataflow,ESTAT:DEMO_PJAN(1.0),Population on 1 January by age and sex,A:Annual,NR:Number,TOTAL:Total,T:Total,AT:Austria,2025,9197213,,\n" +
		"dataflow,ESTAT:DEMO_PJAN(1.0),Population on 1 January by age and sex,A:Annual,NR:Number,TOTAL:Total,T:Total,EU27_2020:European Union - 27 countries (from 2020),2025,450380320,,\n" +
		"dataflow,ESTAT:DEMO_PJAN(1.0),Population on 1 January by age and sex,A:Annual,NR:Number,TOTAL:Total,T:Total,EL:Greece,2025,,e:estimated,C:Confidential\n"
	d, err := eurostat.Parse("download.csv", strings.NewReader(in), eurostat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkRows(t, d, "2025-01-01", "", map[solidarity.MemberState]want{"AT": {"9197213", ""}, "EL": {"", "e"}})
	if o, _ := d.Get("EL"); o.Note != "confidentiality status C" {
		t.Errorf("EL note = %q", o.Note)
	}
}

// TestParseDetectsDataset covers files that do not name their dataset.
func TestParseDetectsDataset(t *testing.T) {
	tsv := "freq,unit,age,sex,geo\\TIME_PERIOD\t2025 \nA,NR,TOTAL,T,AT\t9197213 \nA,NR,Y1,T,AT\t5 \n"
	for _, name := range []string{"demo_pjan.tsv", "estat_demo_pjan.tsv.gz", "download.tsv"} {
		d, err := eurostat.Parse(name, strings.NewReader(tsv), eurostat.Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if d.ID != "demo_pjan-2025-01-01" || len(d.Rows) != 1 {
			t.Errorf("%s: got %s with %d rows", name, d.ID, len(d.Rows))
		}
	}
	// tps00001 is demo_gind's ready-made table.
	tsv = "freq,indic_de,geo\\TIME_PERIOD\t2024 \t2025 \nA,JAN,AT\t9158750 \t9197213 \n"
	d, err := eurostat.Parse("estat_tps00001.tsv", strings.NewReader(tsv), eurostat.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.ID != "tps00001-2025-01-01" {
		t.Errorf("ID = %q", d.ID)
	}
	// demo_pjanbroad is another dataset: its name must not pass for demo_pjan's, so the
	// dimensions decide.
	d, err = eurostat.Parse("demo_pjanbroad.tsv", strings.NewReader("freq,unit,age,sex,geo\\TIME_PERIOD\t2025 \nA,NR,TOTAL,T,AT\t9197213 \n"), eurostat.Options{})
	if err != nil || d.ID != "demo_pjan-2025-01-01" {
		t.Errorf("demo_pjanbroad.tsv: %v, %v", d, err)
	}
}

func TestParseDecimal(t *testing.T) {
	for _, s := range []string{"0", "494087.6", "4328970.0", "1e3", "1.5E-2", "999999999999999999.999999999999999999", "1e-18"} {
		v, err := eurostat.ParseDecimal(s)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		w, _ := new(big.Rat).SetString(s)
		if v.Cmp(w) != 0 {
			t.Errorf("%q = %s", s, v.RatString())
		}
	}
	for _, s := range []string{"", "-1", "1/3", "0x10", "1_000", "1,5", ".5", "5.", "1e99999", "NaN", "Inf", " 1", "1e18", "1e-19", "0.0000000000000000001"} {
		if _, err := eurostat.ParseDecimal(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

func TestIsAggregate(t *testing.T) {
	for _, c := range []string{"EU27_2020", "EU28", "EU", "EA20", "EA", "EA11", "EEA30_2007", "EFTA"} {
		if !eurostat.IsAggregate(c) {
			t.Errorf("%s is an aggregate", c)
		}
	}
	for _, c := range []string{"EE", "EL", "ES", "AT", "NO", "EUR", "EAX"} {
		if eurostat.IsAggregate(c) {
			t.Errorf("%s is not an aggregate", c)
		}
	}
}

func mustParse(t *testing.T, file string, opt eurostat.Options) *solidarity.Dataset {
	t.Helper()
	d, err := eurostat.Parse(file, open(t, file), opt)
	if err != nil {
		t.Fatalf("Parse(%s): %v", file, err)
	}
	return d
}

func open(t *testing.T, file string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// checkRows compares d's observations with want exactly: the same states, values equal
// as rationals to the decimal text, the same flags, and provenance on every row.
func checkRows(t *testing.T, d *solidarity.Dataset, period, vintage string, want map[solidarity.MemberState]want) {
	t.Helper()
	if len(d.Rows) != len(want) {
		t.Errorf("%d rows, want %d", len(d.Rows), len(want))
	}
	last := -1
	for _, o := range d.Rows {
		if o.State.Index() <= last {
			t.Errorf("rows not in protocol order at %s", o.State)
		}
		last = o.State.Index()
		w, ok := want[o.State]
		if !ok {
			t.Errorf("unexpected row %s", o.State)
			continue
		}
		switch {
		case w.value == "" && o.Value != nil:
			t.Errorf("%s = %s, want missing", o.State, o.Value.RatString())
		case w.value != "" && o.Value == nil:
			t.Errorf("%s missing, want %s", o.State, w.value)
		case w.value != "":
			wv, _ := new(big.Rat).SetString(w.value)
			if o.Value.Cmp(wv) != 0 {
				t.Errorf("%s = %s, want %s", o.State, o.Value.RatString(), w.value)
			}
		}
		if o.Flag != w.flag {
			t.Errorf("%s flag %q, want %q", o.State, o.Flag, w.flag)
		}
		if o.Period != period || o.Vintage != vintage || o.Source != d.Source {
			t.Errorf("%s provenance: period %q vintage %q source %q", o.State, o.Period, o.Vintage, o.Source)
		}
	}
}
