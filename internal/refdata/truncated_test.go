package refdata_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/eurostat"
	"solidarity/internal/refdata"
)

// sdmxRows is an SDMX-CSV download of GDP for every Member State and years 1995–2024.
func sdmxRows(states []solidarity.MemberState) string {
	var b strings.Builder
	b.WriteString("DATAFLOW,LAST UPDATE,freq,unit,na_item,geo,TIME_PERIOD,OBS_VALUE,OBS_FLAG,CONF_STATUS\n")
	for _, m := range states {
		for y := 1995; y <= 2024; y++ {
			fmt.Fprintf(&b, "ESTAT:NAMA_10_GDP(1.0),17/11/25 23:00:00,A,CP_MEUR,B1GQ,%s,%d,%d.%d,p,\n", m, y, 1000+y*int(m[0]), y%10)
		}
	}
	return b.String()
}

// TestImportTruncatedGzip: a .csv.gz cut in the middle names the file and the line it
// ends on, not a bare "unexpected EOF" (issue 12), and saves nothing.
func TestImportTruncatedGzip(t *testing.T) {
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write([]byte(sdmxRows(solidarity.MemberStates())))
	zw.Close()
	src := filepath.Join(t.TempDir(), "nama_10_gdp.csv.gz")
	if err := os.WriteFile(src, gz.Bytes()[:gz.Len()*2/3], 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	_, _, err := refdata.Import(src, out, eurostat.Options{}, false)
	e, ok := err.(*solidarity.Error)
	t.Log(err)
	if !ok || e.Code != solidarity.EINVALID || e.File != src || e.Line < 2 || !strings.Contains(e.Message, "truncated") {
		t.Fatalf("Import = %#v, want EINVALID naming the file, a line and a truncated download", err)
	}
	if got := listDir(t, out); len(got) != 0 {
		t.Errorf("saved %v", got)
	}
}

// TestImportPartial: a download cut at a line end (4 of 27 states) is refused unless
// partial; with it, the saved dataset names the states it lacks and reads as partial.
func TestImportPartial(t *testing.T) {
	src := filepath.Join(t.TempDir(), "nama_10_gdp.sdmx-csv")
	if err := os.WriteFile(src, []byte(sdmxRows(solidarity.MemberStates()[:4])), 0o644); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	_, _, err := refdata.Import(src, out, eurostat.Options{}, false)
	if solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "--partial") || !strings.Contains(err.Error(), "23 of the 26") {
		t.Fatalf("Import = %v, want a refusal naming --partial and the missing states", err)
	}
	if got := listDir(t, out); len(got) != 0 {
		t.Errorf("saved %v", got)
	}
	path, d, err := refdata.Import(src, out, eurostat.Options{Partial: true}, false)
	if err != nil {
		t.Fatal(err)
	}
	saved := mustLoad(t, path, eurostat.Options{})
	if !refdata.Partial(d) || !refdata.Partial(saved) || len(saved.Rows) != 27 || !strings.Contains(saved.Caveat, "No figure in the file for DE, EE, IE") {
		t.Errorf("saved %d rows, partial %v, caveat %q", len(saved.Rows), refdata.Partial(saved), saved.Caveat)
	}
	// Complete: all 27 (Denmark included, though outside Part IV) import without --partial.
	if err := os.WriteFile(src, []byte(sdmxRows(solidarity.MemberStates())), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, d, err := refdata.Import(src, out, eurostat.Options{}, true); err != nil || refdata.Partial(d) {
		t.Errorf("complete dataset: %v, partial %v", err, err == nil && refdata.Partial(d))
	}
}
