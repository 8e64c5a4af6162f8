package main

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDataImportPartial: a download cut at a line end is refused with exit 2 unless
// --partial; imported with it, `data list` marks it PARTIAL. A truncated .csv.gz names
// its file and line (issue 12).
func TestDataImportPartial(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join("..", "..", "internal", "eurostat", "testdata", "nama_10_gdp.sdmx-csv") // AT and DE only
	code, out, errs := run(t, "data", "import", "--out", dir, src)
	if code != 2 || !strings.Contains(errs, "--partial") {
		t.Fatalf("without --partial: exit %d %s %s, want 2 naming --partial", code, out, errs)
	}
	if code, out, errs = run(t, "data", "import", "--partial", "--out", dir, src); code != 0 || !strings.Contains(out, "PARTIAL") {
		t.Fatalf("with --partial: exit %d %s %s", code, out, errs)
	}
	code, out, _ = run(t, "data", "list", "--data-dir", dir)
	if code != 0 || !strings.Contains(out, "nama_10_gdp-2024") || !strings.Contains(grepLine(out, "nama_10_gdp-2024"), "PARTIAL") ||
		strings.Contains(grepLine(out, "gdp-2024 "), "PARTIAL") {
		t.Errorf("data list: exit %d\n%s", code, out)
	}

	var b bytes.Buffer
	b.WriteString("DATAFLOW,LAST UPDATE,freq,unit,na_item,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n")
	for y := 1000; y <= 2024; y++ { // long enough that the cut falls after many lines
		fmt.Fprintf(&b, "ESTAT:NAMA_10_GDP(1.0),17/11/25 23:00:00,A,CP_MEUR,B1GQ,AT,%d,%d.5,p,\n", y, y*7)
	}
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(b.Bytes())
	zw.Close()
	cut := filepath.Join(t.TempDir(), "nama_10_gdp.csv.gz")
	if err := os.WriteFile(cut, gz.Bytes()[:gz.Len()/2], 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs = run(t, "data", "import", "--partial", "--out", t.TempDir(), cut)
	if code != 2 || !strings.Contains(errs, cut+":") || !strings.Contains(errs, "truncated") {
		t.Errorf("truncated .csv.gz: exit %d %s, want 2 naming the file and line", code, errs)
	}
}

func grepLine(s, sub string) string {
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			return l
		}
	}
	return ""
}
