package report

import (
	"encoding/csv"
	"strings"
	"testing"
)

func TestPoolWriteCSV(t *testing.T) {
	q, cov := Num("1234.50"), Num("0.5000")
	p := &Pool{States: []PoolState{
		{KeyShare: KeyShare{State: "DE", Name: "Germany, \"DE\""}, Quota: &q, FairShare: 1234, FairShareEUR: "24680000.00",
			Statuses: []string{"under-pressure", "benefitting"}, Benefitting: true, PledgeKnown: true, Coverage: &cov, MayOfferOffsets: "yes"},
		{KeyShare: KeyShare{State: "FR", Name: "France"}, FairShareEUR: "0.00", MayOfferOffsets: "unknown"},
	}}
	var b strings.Builder
	if err := p.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(strings.NewReader(b.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{PoolCSVHeader,
		{"DE", "Germany, \"DE\"", "", "1234.50", "1234", "24680000.00", "under-pressure benefitting", "true", "", "", "true", "", "0.5000", "", "yes"},
		{"FR", "France", "", "", "0", "0.00", "", "false", "", "", "false", "", "", "", "unknown"},
	}
	if len(rows) != len(want) {
		t.Fatalf("rows = %d, want %d:\n%s", len(rows), len(want), b.String())
	}
	for i := range want {
		if strings.Join(rows[i], "|") != strings.Join(want[i], "|") {
			t.Errorf("row %d = %q, want %q", i, rows[i], want[i])
		}
	}
}
