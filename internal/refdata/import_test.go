package refdata_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
	"solidarity/internal/refdata"
)

func TestImport(t *testing.T) {
	out := t.TempDir()
	tests := []struct {
		src, period, file string
		replace           bool
	}{
		{"../eurostat/testdata/nama_10_gdp.sdmx-csv", "", "nama_10_gdp-2024.csv", false},
		{"../eurostat/testdata/nama_10_gdp-dense.jsonstat.json", "2023", "nama_10_gdp-2023.csv", false},
		{"../eurostat/testdata/demo_gind.sdmx-csv", "", "demo_gind-2025-01-01.csv", false},
		{"../eurostat/testdata/nama_10_gdp.tsv.gz", "", "nama_10_gdp-2024.csv", true}, // replaces the first
	}
	for _, tt := range tests {
		// out/new does not exist yet: Import creates it.
		path, d, err := refdata.Import(tt.src, filepath.Join(out, "new"), eurostat.Options{Period: tt.period, Partial: true}, tt.replace)
		if err != nil {
			t.Fatalf("%s: %v", tt.src, err)
		}
		if path != filepath.Join(out, "new", tt.file) {
			t.Errorf("%s: wrote %s, want %s", tt.src, path, tt.file)
		}
		saved := mustLoad(t, path, eurostat.Options{})
		if diff := refdata.Diff(d, saved); diff != "" {
			t.Errorf("%s: saved file differs: %s", tt.src, diff)
		}
		if saved.Vintage != d.Vintage || saved.Caveat != d.Caveat {
			t.Errorf("%s: vintage %q, caveat %q saved as %q, %q", tt.src, d.Vintage, d.Caveat, saved.Vintage, saved.Caveat)
		}
		if st, _ := os.Stat(path); st.Mode().Perm() != 0o644 {
			t.Errorf("%s: mode %v", path, st.Mode())
		}
	}
	out = filepath.Join(out, "new")
	if got := listDir(t, out); !slices.Equal(got, []string{"demo_gind-2025-01-01.csv", "nama_10_gdp-2023.csv", "nama_10_gdp-2024.csv"}) {
		t.Errorf("out dir holds %v", got)
	}
	// The second 2024 import (bulk TSV) replaced the first (SDMX-CSV), as asked.
	if d := mustLoad(t, filepath.Join(out, "nama_10_gdp-2024.csv"), eurostat.Options{}); !strings.Contains(d.Source, "bulk TSV") {
		t.Errorf("nama_10_gdp-2024.csv holds %s", d.Source)
	}
	// Without replace, an existing import is kept and the new one refused.
	if _, _, err := refdata.Import("../eurostat/testdata/nama_10_gdp.sdmx-csv", out, eurostat.Options{Partial: true}, false); solidarity.ErrorCode(err) != solidarity.ECONFLICT {
		t.Errorf("overwrite without replace: %v", err)
	}
	// A file whose id is a shipped dataset's is refused.
	if _, _, err := refdata.Import("data/gdp-2024.csv", out, eurostat.Options{}, true); solidarity.ErrorCode(err) != solidarity.ECONFLICT {
		t.Errorf("import under a shipped id: %v", err)
	}
}

// TestImportBrokenLeavesNothing checks that a failed import changes nothing: no new
// file, no temporary file left behind, an earlier import intact.
func TestImportBrokenLeavesNothing(t *testing.T) {
	out := t.TempDir()
	if _, _, err := refdata.Import("../eurostat/testdata/nama_10_gdp.sdmx-csv", out, eurostat.Options{Partial: true}, false); err != nil {
		t.Fatal(err)
	}
	before, err := os.ReadFile(filepath.Join(out, "nama_10_gdp-2024.csv"))
	if err != nil {
		t.Fatal(err)
	}
	src := t.TempDir()
	broken := map[string]string{
		// A valid first row, then a duplicate: a streaming writer would have written AT.
		"nama_10_gdp.sdmx-csv": "DATAFLOW,LAST UPDATE,freq,unit,na_item,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n" +
			"ESTAT:NAMA_10_GDP(1.0),17/11/25 23:00:00,A,CP_MEUR,B1GQ,AT,2024,1,p,\n" +
			"ESTAT:NAMA_10_GDP(1.0),17/11/25 23:00:00,A,CP_MEUR,B1GQ,AT,2024,2,p,\n",
		"gdp.csv":          "code,country,gdp_meur,reference_year,vintage,source\nAT,Austria,1,2024,v,s\nDE,Germany,-2,2024,v,s\n",
		"nama_10_gdp.json": `{"id":["geo"],"size":[2],"value":[1]}`,
		"nama_10_gdp.tsv":  "freq,unit,na_item,geo\\TIME_PERIOD\t2024 \nA,CP_MEUR,B1GQ,AT\t1 \nA,CP_MEUR,B1GQ,DE\n",
		// Parses, but has no period to name the file after.
		"gdp-noperiod.csv": "code,country,gdp_meur,vintage,source\nAT,Austria,1,v,s\n",
	}
	for name, content := range broken {
		p := filepath.Join(src, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		path, d, err := refdata.Import(p, out, eurostat.Options{Partial: true}, true)
		if err == nil {
			t.Errorf("%s: imported into %s: %+v", name, path, d)
			continue
		}
		if solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Errorf("%s: code %s (%v)", name, solidarity.ErrorCode(err), err)
		}
		if !strings.Contains(err.Error(), p) {
			t.Errorf("%s: error does not name the file: %v", name, err)
		}
	}
	if _, _, err := refdata.Import(filepath.Join(src, "absent.csv"), out, eurostat.Options{}, false); solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		t.Errorf("absent file: %v", err)
	}
	// outDir is a file: the import fails at the last step, leaving nothing behind.
	blocker := filepath.Join(out, "nama_10_gdp-2024.csv")
	if _, _, err := refdata.Import("../eurostat/testdata/nama_10_gdp.sdmx-csv", blocker, eurostat.Options{}, true); err == nil {
		t.Error("import into a file succeeded")
	}
	if got := listDir(t, out); !slices.Equal(got, []string{"nama_10_gdp-2024.csv"}) {
		t.Errorf("out dir holds %v after failed imports", got)
	}
	after, _ := os.ReadFile(filepath.Join(out, "nama_10_gdp-2024.csv"))
	if string(after) != string(before) {
		t.Error("a failed import changed gdp-2024.csv")
	}
}

// listDir lists every entry, hidden temporary files included.
func listDir(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}
