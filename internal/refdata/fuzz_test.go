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
			if err != nil {
				if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.EINVALID || e.File != "f.csv" || d != nil {
					t.Fatalf("bad error %T %v", err, err)
				}
				continue
			}
			var buf bytes.Buffer
			if err := refdata.Write(&buf, d); err != nil {
				t.Fatalf("Write of a parsed dataset: %v", err)
			}
			back, err := refdata.ParseCSV("f.csv", bytes.NewReader(buf.Bytes()), eurostat.Options{})
			if err != nil {
				t.Fatalf("reading back: %v\n%s", err, buf.Bytes())
			}
			if diff := refdata.Diff(d, back); diff != "" {
				t.Fatalf("round trip: %s", diff)
			}
		}
	})
}
