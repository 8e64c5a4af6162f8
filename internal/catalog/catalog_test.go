package catalog_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"math/big"
	"os"
	"path/filepath"
	"testing"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/catalog"
	"solidarity/internal/refdata"
	"solidarity/internal/report"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func mustPool(tb testing.TB, year, method string) *report.Pool {
	tb.Helper()
	cat := &catalog.Files{}
	cy, err := cat.Cycle(year)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := cat.Pool(catalog.PoolRequest{Cycle: cy, Method: method})
	if err != nil {
		tb.Fatal(err)
	}
	return report.FromPool(p.Result, p.Population, p.GDP, p.Warnings)
}

// The "done when" of issue 2, on the shipped 2026 cycle.
func TestPool2026(t *testing.T) {
	for _, m := range apportion.Methods() {
		p := mustPool(t, "2026", string(m))
		if len(p.States) != 26 {
			t.Fatalf("%s: %d states", m, len(p.States))
		}
		sum := new(big.Rat)
		var fair int64
		for _, s := range p.States {
			if s.State == "DK" {
				t.Fatalf("Denmark is in the 2026 pool")
			}
			r, ok := new(big.Rat).SetString(s.ShareExact)
			if !ok {
				t.Fatalf("bad exact share %q", s.ShareExact)
			}
			sum.Add(sum, r)
			fair += s.FairShare
		}
		if sum.Cmp(big.NewRat(1, 1)) != 0 {
			t.Fatalf("%s: shares sum to %s", m, sum.RatString())
		}
		if m != apportion.RoundUp && fair != 21000 {
			t.Fatalf("%s: fair shares sum to %d", m, fair)
		}
		if m == apportion.RoundUp && (fair < 21000 || fair >= 21026) {
			t.Fatalf("round-up: fair shares sum to %d", fair)
		}
		for _, c := range []string{"AT", "CZ", "HR", "PL", "CY", "EL", "ES", "IT"} {
			s, _ := p.State(c)
			if string(*s.Obligation) != "0.00" || s.FairShare == 0 {
				t.Errorf("%s %s: obligation %s fair share %d", m, c, *s.Obligation, s.FairShare)
			}
		}
		ie, _ := p.State("IE")
		if !ie.PledgeKnown || string(*ie.PledgedUnits) != "463.00" {
			t.Errorf("Ireland pledged %v", ie.PledgedUnits)
		}
		for _, c := range []string{"HU", "SK"} {
			s, _ := p.State(c)
			if !s.PledgeKnown || string(*s.PledgedUnits) != "0.00" || s.Shortfall == nil {
				t.Errorf("%s is a known zero pledge: %+v", c, s)
			}
		}
		de, _ := p.State("DE")
		if de.PledgeKnown || de.Coverage != nil || de.Shortfall != nil {
			t.Errorf("Germany's pledge is not reported and must stay unknown")
		}
		if len(p.Union.UnknownPledges) != 23 || p.Union.BenefittingMayRequest != "unknown" {
			t.Errorf("unknown pledges %d, Art. 63(1) %s", len(p.Union.UnknownPledges), p.Union.BenefittingMayRequest)
		}
		if len(p.Caveats) == 0 {
			t.Errorf("no data caveat on the shipped GDP")
		}
	}
}

// The shipped data reproduces the figures documented in ../shared/data/README.md.
func TestKeyMatchesDocumentedShares(t *testing.T) {
	p := mustPool(t, "2026", "round-up")
	for code, want := range map[string]string{"DE": "21.7015", "FR": "16.0481", "IE": "2.2113"} {
		s, _ := p.State(code)
		if got := string(*s.SharePercent); got != want {
			t.Errorf("%s share %s %%, want %s %%", code, got, want)
		}
	}
}

// Golden files: the full JSON of every shipped cycle under every method. A change in
// any figure shows up as a diff to review; run with -update to accept it.
func TestGolden(t *testing.T) {
	for _, y := range []string{"2026", "2027"} {
		for _, m := range apportion.Methods() {
			var buf bytes.Buffer
			if err := mustPool(t, y, string(m)).Write(&buf, report.JSON); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "pool-"+y+"-"+string(m)+".json")
			if *update {
				os.MkdirAll("testdata", 0o755)
				os.WriteFile(path, buf.Bytes(), 0o644)
				continue
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update once)", err)
			}
			if !bytes.Equal(want, buf.Bytes()) {
				t.Errorf("%s differs from the golden file; review and rerun with -update", path)
			}
		}
	}
}

func TestKeyParticipatingSets(t *testing.T) {
	cat := &catalog.Catalog{}
	k27, _, _, err := cat.Key(catalog.KeyRequest{Participating: solidarity.MemberStates()})
	if err != nil {
		t.Fatal(err)
	}
	k26, _, _, _ := cat.Key(catalog.KeyRequest{})
	de27, _ := k27.Get("DE")
	de26, _ := k26.Get("DE")
	if len(k27.Shares) != 27 || de27.Share.Cmp(de26.Share) >= 0 {
		t.Errorf("adding Denmark must lower Germany's share")
	}
	// The partial official file has missing figures: the key refuses rather than guesses.
	_, _, _, err = cat.Key(catalog.KeyRequest{GDP: "gdp-2024-official-partial"})
	if solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("key over a dataset with missing figures: %v", err)
	}
	if _, _, _, err := cat.Key(catalog.KeyRequest{GDP: "population-2025-01-01"}); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("population used as GDP: %v", err)
	}
	if _, _, _, err := cat.Key(catalog.KeyRequest{GDP: "no-such"}); solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		t.Errorf("unknown dataset: %v", err)
	}
}

func BenchmarkPool2026(b *testing.B) {
	cat := &catalog.Catalog{}
	cy, err := cat.Cycle(2026)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		p, err := cat.Pool(catalog.PoolRequest{Cycle: cy, Method: "webster"})
		if err != nil {
			b.Fatal(err)
		}
		report.FromPool(p.Result, p.Population, p.GDP, p.Warnings) // as the pages and the API do
	}
}

func TestJSONIsValid(t *testing.T) {
	var buf bytes.Buffer
	mustPool(t, "2026", "").Write(&buf, report.JSON)
	var v map[string]any
	if err := json.Unmarshal(buf.Bytes(), &v); err != nil {
		t.Fatal(err)
	}
}

// TestCatalogOpensNoFile: the server's catalog refuses a dataset named by path, even
// one that exists and that Files reads, and so a cycle (as one recorded in the
// ledger) that names it; shipped datasets and cycles resolve alike in both.
func TestCatalogOpensNoFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "pop.csv")
	var buf bytes.Buffer
	d, err := (&catalog.Catalog{}).Dataset("population-2025-01-01")
	if err != nil {
		t.Fatal(err)
	}
	if err := refdata.Write(&buf, d); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (&catalog.Files{}).Dataset(path); err != nil {
		t.Fatalf("Files reads %s: %v", path, err)
	}
	for _, ref := range []string{path, "/etc/passwd", "../../etc/passwd"} {
		if _, err := (&catalog.Catalog{}).Dataset(ref); solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
			t.Errorf("Catalog.Dataset(%q): %v, want %s", ref, err, solidarity.ENOTFOUND)
		}
	}
	cy, err := (&catalog.Catalog{}).Cycle(2026)
	if err != nil {
		t.Fatal(err)
	}
	cy.PopulationData = path
	if _, err := (&catalog.Catalog{}).Pool(catalog.PoolRequest{Cycle: cy}); solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		t.Errorf("a cycle naming %s: %v, want %s", path, err, solidarity.ENOTFOUND)
	}
	if _, err := (&catalog.Files{}).Pool(catalog.PoolRequest{Cycle: cy}); err != nil {
		t.Errorf("Files computes the pool on %s: %v", path, err)
	}
}
