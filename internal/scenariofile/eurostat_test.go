package scenariofile_test

import (
	"os"
	"path/filepath"
	"testing"

	"solidarity/internal/scenariofile"
)

// TestArrivalsEurostat: a scenario takes its arrivals from a Eurostat download of
// migr_asyappctzm beside it: by citizenship where the file has it, the rest of the
// total as "other", in the months of the period.
func TestArrivalsEurostat(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile("../eurostat/testdata/migr_asyappctzm.sdmx-csv")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "migr_asyappctzm.csv"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	src := "base = \"cycle-2026\"\nstart = 2025-01-01\nmonths = 2\n[data]\narrivals_eurostat = \"migr_asyappctzm.csv\"\n"
	path := filepath.Join(dir, "eu.toml")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	s, _, err := scenariofile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Arrivals) == 0 {
		t.Fatal("no arrivals read")
	}
	var afghans, total float64
	for _, a := range s.Arrivals {
		if a.Month < 0 || a.Month > 1 {
			t.Errorf("arrival in month %d of a 2-month period", a.Month)
		}
		if a.State == "DE" && a.Month == 0 && a.Nationality == "Afghanistan" {
			afghans += a.Mean
		}
		total += a.Mean
		if a.Source == "" || a.Certainty != "V" {
			t.Errorf("%+v: no provenance", a)
		}
	}
	if afghans != 900 {
		t.Errorf("DE January 2025 Afghans %v, want the first-time applicants, 900 as in the file", afghans)
	}
	// Without a directory nothing is read.
	if _, err := scenariofile.Parse("eu.toml", []byte(src), nil); err == nil {
		t.Error("a Eurostat file read without a directory")
	}
	// A bad file is named with its line.
	if err := os.WriteFile(filepath.Join(dir, "migr_asyappctzm.csv"), append(data, []byte("ESTAT:MIGR_ASYAPPCTZM(1.0),27/03/26 23:00:00,M,PER,AF,T,TOTAL,NASY_APP,DE,2025-03,-4,,\n")...), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := scenariofile.Open(path); err == nil {
		t.Error("a negative figure read")
	} else {
		t.Log(err)
	}
}
