package cyclefile_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/cyclefile"
)

func TestShipped(t *testing.T) {
	years := cyclefile.Shipped()
	if len(years) < 2 || years[0] != 2026 || years[1] != 2027 {
		t.Fatalf("shipped cycles %v", years)
	}
	c, err := cyclefile.Open("2026")
	if err != nil {
		t.Fatal(err)
	}
	if c.Reference.Relocations != 21000 || c.Reference.EUR != solidarity.EUR(420_000_000) {
		t.Errorf("2026 reference %+v", c.Reference)
	}
	if len(c.Participating) != 26 {
		t.Errorf("2026 participating %d states", len(c.Participating))
	}
	for _, m := range []solidarity.MemberState{"CY", "EL", "ES", "IT"} {
		if !c.Statuses[m].Benefitting {
			t.Errorf("%s not benefitting", m)
		}
	}
	full := map[solidarity.MemberState]bool{}
	for _, d := range c.Deductions {
		full[d.State] = d.Full
	}
	for _, m := range []solidarity.MemberState{"AT", "CZ", "HR", "PL"} {
		if !full[m] {
			t.Errorf("%s has no full deduction", m)
		}
	}
	var ie bool
	for _, p := range c.Pledges {
		if p.State == "IE" && p.Type == solidarity.Financial && p.EUR == solidarity.EUR(9_260_000) {
			ie = true
		}
		if p.Source == "" || p.Certainty == "" {
			t.Errorf("pledge of %s without source or certainty", p.State)
		}
	}
	if !ie {
		t.Error("Ireland's EUR 9.26 million pledge missing")
	}
	i, err := cyclefile.Open("2027")
	if err != nil || !i.Illustrative || i.Reference.Relocations != 30000 {
		t.Errorf("2027: %v %+v", err, i)
	}
	if len(cyclefile.Warnings(c)) != 0 || len(cyclefile.Warnings(i)) != 0 {
		t.Errorf("shipped cycles raise warnings: %v %v", cyclefile.Warnings(c), cyclefile.Warnings(i))
	}
}

const base = `year = 2030
title = "test"

[proposal]
relocations = 30000
eur = 600_000_000

[reference]
relocations = 30000
eur = 600_000_000

[[pledge]]
state = "DE"
type = "financial"
eur = 1000

[[pledge]]
state = "FR"
type = "relocation-applicants"
relocations = 10
`

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, field string
		line             int
	}{
		{"unknown top-level key", strings.Replace(base, `title = "test"`, "title = \"test\"\ncolour = 1", 1), "colour", 3},
		{"unknown key in second pledge", base + "shoe = 1\n", "pledge.shoe", 21},
		{"syntax", strings.Replace(base, "year = 2030", "year = ", 1), "", 1},
		{"unknown state", strings.Replace(base, `state = "FR"`, `state = "XX"`, 1), "pledge[1].state", 18},
		{"non-participating", "participating = [\"DE\", \"FR\"]\n" + strings.Replace(base, `state = "FR"`, `state = "IT"`, 1), "pledge[1].state", 19},
		{"negative", strings.Replace(base, "relocations = 10", "relocations = -10", 1), "pledge[1].relocations", 20},
		{"money as float", strings.Replace(base, "eur = 1000", "eur = 10.5", 1), "pledge.eur", 15},
		{"euros in a relocation pledge", strings.Replace(base, "relocations = 10", "relocations = 10\neur = 5", 1), "pledge[1].eur", 21},
		{"bad type", strings.Replace(base, `type = "financial"`, `type = "goodwill"`, 1), "pledge[0].type", 14},
		{"missing reference", strings.Replace(base, "[reference]\nrelocations = 30000", "[reference]\nrelocations = 0", 1), "reference.relocations", 9},
		{"deduction without act", base + "\n[[deduction]]\nstate = \"DE\"\ndate = 2030-01-01\nfull = true\n", "deduction[0].act", 22},
		{"deduction two kinds", base + "\n[[deduction]]\nstate = \"DE\"\ndate = 2030-01-01\nfull = true\nfraction = \"1/2\"\nact = \"x\"\n", "deduction[0].full", 25},
		{"status for unknown state", base + "\n[status.UK]\nat_risk = true\n", "status.UK", 22},
		{"two status tables for one state", base + "\n[status.el]\nat_risk = true\n\n[status.GR]\nbenefitting = true\n", "status.el", 22},
		{"none twice", base + "\n[[pledge]]\nstate = \"IT\"\ntype = \"none\"\n\n[[pledge]]\nstate = \"IT\"\ntype = \"none\"\n", "pledge[3].type", 28},
		{"missing reference eur", strings.Replace(base, "[reference]\nrelocations = 30000\neur = 600_000_000", "[reference]\nrelocations = 30000", 1), "reference.eur", 8},
		{"huge relocations", strings.Replace(base, "relocations = 10", "relocations = 4611686018427387904", 1), "pledge[1].relocations", 20},
		{"huge euros", strings.Replace(base, "eur = 1000", "eur = 92233720368547758", 1), "pledge.eur", 15},
		{"huge ratio", "eur_per_relocation = 200000000000000000\n" + base, "eur_per_relocation", 1},
		{"bad certainty", strings.Replace(base, "eur = 1000", "eur = 1000\ncertainty = \"maybe\"", 1), "pledge[0].certainty", 16},
	} {
		_, err := cyclefile.Parse("c.toml", []byte(tc.src))
		e, ok := err.(*solidarity.Error)
		if !ok {
			t.Errorf("%s: got %v, want *solidarity.Error", tc.name, err)
			continue
		}
		if e.Code != solidarity.EINVALID || e.File != "c.toml" || (tc.line > 0 && e.Line != tc.line) || (tc.field != "" && e.Field != tc.field) {
			t.Errorf("%s: got %s (line %d, field %q), want line %d field %q", tc.name, e, e.Line, e.Field, tc.line, tc.field)
		}
	}
}

func TestParseOK(t *testing.T) {
	c, err := cyclefile.Parse("c.toml", []byte(base+"\n[sar]\nshare = \"42%\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.SARShare.RatString() != "21/50" || c.Pledges[0].EUR != solidarity.EUR(1000) || c.Deadline.Year() != 2030 {
		t.Fatalf("got %+v", c)
	}
	if c.EURPerRelocation != cyclefile.DefaultEURPerRelocation {
		t.Fatalf("ratio default %s", c.EURPerRelocation)
	}
}

func TestParseEUR(t *testing.T) {
	for in, want := range map[string]solidarity.Cents{"9260000": 926000000, "1_234.5": 123450, "1,234.56": 123456, "0.01": 1} {
		got, err := cyclefile.ParseEUR(in)
		if err != nil || got != want {
			t.Errorf("%q: %d %v", in, got, err)
		}
	}
	for _, in := range []string{"", "1.234", "1e6", "abc", "1/3"} {
		if _, err := cyclefile.ParseEUR(in); err == nil {
			t.Errorf("%q accepted", in)
		}
	}
}

func TestOpenFileErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	p := dir + "/bad.toml"
	os.WriteFile(p, []byte("year = 2030\nfoo = 1\n"), 0o644)
	_, err := cyclefile.Open(p)
	if e, ok := err.(*solidarity.Error); !ok || e.File != "bad.toml" || e.Line != 2 {
		t.Fatalf("got %v", err)
	}
	if _, err := cyclefile.Open(dir + "/none.toml"); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Fatalf("missing file: %v", err)
	}
	if _, err := cyclefile.Open("1999"); solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		t.Fatalf("unshipped year: %v", err)
	}
}

func FuzzParse(f *testing.F) {
	for _, y := range cyclefile.Shipped() {
		src, _ := cyclefile.ShippedSource(y)
		f.Add(string(src))
	}
	f.Add(base)
	f.Add("[[pledge]]\n[[pledge]]\nx=1")
	f.Fuzz(func(t *testing.T, src string) {
		c, err := cyclefile.Parse("f.toml", []byte(src))
		if err != nil {
			if solidarity.ErrorCode(err) != solidarity.EINVALID {
				t.Fatalf("error without the invalid code: %v", err)
			}
			return
		}
		if c.Reference.Relocations <= 0 || len(c.Participating) == 0 {
			t.Fatalf("accepted an unusable cycle")
		}
		for _, p := range c.Pledges {
			if !p.State.Valid() || p.Relocations < 0 || p.EUR < 0 {
				t.Fatalf("accepted a bad pledge %+v", p)
			}
		}
	})
}

// TestParseBounds: input whose decoding would exhaust the server (issue 12) is refused
// before decoding, with EINVALID naming the line and the bound.
func TestParseBounds(t *testing.T) {
	head := "year = 2026\n[reference]\nrelocations = 1\neur = 1\n"
	tests := map[string]string{
		"nested inline tables": "x = " + strings.Repeat("{a=", 8000) + "1" + strings.Repeat("}", 8000),
		"nested arrays":        "x = " + strings.Repeat("[", 300000) + strings.Repeat("]", 300000),
		"dotted key":           "x" + strings.Repeat(".a", 8000) + " = 1",
		"array tables":         strings.Repeat("[[pledge]]\n", 20000),
		"long fraction":        head + "[[deduction]]\nstate = \"AT\"\ndate = 2026-01-01\nact = \"x\"\nfraction = \"1e-1000000\"\n",
		"long share":           head + "[sar]\nshare = \"1/" + strings.Repeat("7", 1000) + "\"\n",
		"long amount":          head + "[[pledge]]\nstate = \"DE\"\ntype = \"financial\"\neur = \"1" + strings.Repeat("0", 1000) + "\"\n",
	}
	for name, src := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := cyclefile.Parse("big.toml", []byte(src))
			if solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "limit") || !strings.Contains(err.Error(), "big.toml:") {
				t.Fatalf("Parse = %v, want EINVALID naming the file, line and limit", err)
			}
		})
	}
}

// TestParseDeductionBound: the pool sums deducted fractions exactly, at a cost growing
// with the square of their number, so one state has at most MaxDeductionsPerState.
func TestParseDeductionBound(t *testing.T) {
	src, err := cyclefile.ShippedSource(2027)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.Write(src)
	for i := range cyclefile.MaxDeductionsPerState + 1 {
		fmt.Fprintf(&b, "[[deduction]]\nstate = \"AT\"\ndate = 2027-01-01\nact = \"x\"\nfraction = \"1/%d\"\n", 97+2*i)
		_, err := cyclefile.Parse("d.toml", []byte(b.String()))
		if ok := i < cyclefile.MaxDeductionsPerState; ok != (err == nil) {
			t.Fatalf("%d deductions: %v", i+1, err)
		}
	}
}

// TestOpenReadsAtMostTheBound: a file larger than a cycle file may be is refused, not
// read whole (/dev/zero never ends).
func TestOpenReadsAtMostTheBound(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	_, err := cyclefile.Open("/dev/zero")
	if solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("Open(/dev/zero) = %v, want the size bound", err)
	}
}
