package refdata_test

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
	"solidarity/internal/refdata"
)

// FuzzParseCSV checks that the provenance CSV parser returns either a *solidarity.Error
// of code EINVALID naming the file or a dataset that Write saves and ParseCSV reads back
// unchanged. Seeds are the shipped files and the corpus in testdata/fuzz.
func FuzzParseCSV(f *testing.F) {
	files, _ := filepath.Glob("data/*.csv")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []eurostat.Options{{}, {Period: "2024"}} {
			d, err := refdata.ParseCSV("f.csv", bytes.NewReader(data), opt)
			checkRoundTrip(t, d, err, true)
		}
	})
}

// FuzzLoad feeds Load any format, seeded with the Eurostat fixtures, and checks that
// what it returns can be saved and read back unchanged, as Import does.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob("../eurostat/testdata/*.*")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(filepath.Base(file), data)
	}
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if name == "" {
			name = "f"
		}
		d, err := refdata.Load(name, bytes.NewReader(data), eurostat.Options{})
		if err != nil {
			if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.EINVALID || e.File != name {
				t.Fatalf("bad error %T %v", err, err)
			}
			return
		}
		checkRoundTrip(t, d, nil, false)
	})
}

// checkRoundTrip requires a parse error to be EINVALID and a parsed dataset to survive
// Write and ParseCSV unchanged. Write may refuse only with EINVALID, and only when
// mustWrite is false (text from other formats may hold what CSV cannot keep).
func checkRoundTrip(t *testing.T, d *solidarity.Dataset, err error, mustWrite bool) {
	t.Helper()
	if err != nil {
		if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.EINVALID || e.File != "f.csv" || d != nil {
			t.Fatalf("bad error %T %v", err, err)
		}
		return
	}
	var buf bytes.Buffer
	if err := refdata.Write(&buf, d); err != nil {
		if mustWrite || solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("Write of a parsed dataset: %v", err)
		}
		return
	}
	back, err := refdata.ParseCSV("f.csv", bytes.NewReader(buf.Bytes()), eurostat.Options{})
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, buf.Bytes())
	}
	if diff := refdata.Diff(d, back); diff != "" {
		t.Fatalf("round trip: %s", diff)
	}
}
