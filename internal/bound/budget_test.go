package bound_test

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/arrival"
	"solidarity/internal/cyclefile"
	"solidarity/internal/eurostat"
	"solidarity/internal/keyinput"
	"solidarity/internal/refdata"
	"solidarity/match"
	"solidarity/rules"
)

// The budget of issue 12: no input of up to 1 MiB may cost more than 1 s of CPU or
// 64 MiB of memory.
const (
	budgetBytes = 1 << 20
	budgetAlloc = 64 << 20
	budgetCPU   = time.Second
)

// parsers are every parser of outside input, by the format it reads.
var parsers = []struct {
	name   string
	format string // "toml", "json", "csv", "tsv"
	parse  func(name string, src []byte) error
}{
	{"cyclefile", "toml", func(n string, b []byte) error { _, err := cyclefile.Parse(n, b); return err }},
	{"arrival JSON", "json", func(n string, b []byte) error { _, err := arrival.ParseJSON(n, bytes.NewReader(b)); return err }},
	{"arrival CSV", "csv", func(n string, b []byte) error { _, err := arrival.ParseCSV(n, bytes.NewReader(b)); return err }},
	{"responsibility applicant", "json", func(n string, b []byte) error { _, err := rules.ParseApplicant(n, bytes.NewReader(b)); return err }},
	{"match problem", "json", func(n string, b []byte) error { _, err := match.ParseProblem(n, bytes.NewReader(b)); return err }},
	{"eurostat JSON-stat", "json", func(n string, b []byte) error {
		_, err := eurostat.Parse(n, bytes.NewReader(b), eurostat.Options{})
		return err
	}},
	{"eurostat SDMX-CSV", "csv", func(n string, b []byte) error {
		_, err := eurostat.Parse(n, bytes.NewReader(append([]byte("DATAFLOW,LAST UPDATE,freq,unit,na_item,geo,TIME_PERIOD,OBS_VALUE\n"), b...)), eurostat.Options{})
		return err
	}},
	{"eurostat TSV", "tsv", func(n string, b []byte) error {
		_, err := eurostat.Parse(n, bytes.NewReader(append([]byte("freq,unit,na_item,geo\\TIME_PERIOD\t2024\n"), b...)), eurostat.Options{})
		return err
	}},
	{"refdata CSV", "csv", func(n string, b []byte) error {
		_, err := refdata.ParseCSV(n, bytes.NewReader(append([]byte("code,country,gdp_meur,reference_year,vintage,source\n"), b...)), eurostat.Options{})
		return err
	}},
	{"keyinput", "csv", func(n string, b []byte) error {
		_, err := keyinput.Parse(n, bytes.NewReader(append([]byte("state,population,gdp_meur,asylum_per_million,unemployment_rate\n"), b...)))
		return err
	}},
}

// adversarial draws an input of at most 1 MiB for format built to be expensive:
// deep nesting, long or huge-exponent numbers, many short lines or tables, wide rows,
// long strings, fractions of huge denominators.
func adversarial(t *rapid.T, format string) []byte {
	n := rapid.IntRange(1, budgetBytes).Draw(t, "size")
	fill := func(unit string) string { return strings.Repeat(unit, max(1, n/len(unit))) }
	var s string
	switch format {
	case "toml":
		s = rapid.SampledFrom([]string{
			"x = " + fill("{a="),
			"x = " + fill("["),
			"x" + fill(".a") + " = 1",
			"[x" + fill(".a") + "]",
			fill("[[pledge]]\n"),
			fill("[status.AT]\n"),
			"x = [" + fill("1,") + "]",
			"x = [" + fill("[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],") + "]",
			fill("[[deduction]]\nstate = \"AT\"\ndate = 2026-01-01\nact = \"x\"\nfraction = \"1e-1000000\"\n"),
			"[sar]\nshare = \"1/" + fill("7") + "\"",
			"x = 1" + fill("0"),
			"x = \"" + fill("a"),
			fill("a = 1\n"),
		}).Draw(t, "toml")
	case "json":
		s = rapid.SampledFrom([]string{
			fill("["),
			`{"persons": ` + fill(`[{"a":`),
			`{"persons": [` + fill(`{},`) + `{}]}`,
			`{"families": [{"size": 1` + fill("0") + `}]}`,
			`{"value": [1e` + fill("9") + `]}`,
			`{"persons": [{"name": "` + fill("x") + `"}]}`,
			`{"id": [` + fill(`"a",`) + `"a"]}`,
		}).Draw(t, "json")
	case "csv", "tsv":
		sep := ","
		if format == "tsv" {
			sep = "\t"
		}
		s = rapid.SampledFrom([]string{
			fill(sep),
			fill("\n"),
			fill("a" + sep + "1\n"),
			"\"" + fill("a"),
			"AT" + sep + "1" + fill("0"),
			"AT" + sep + "1e-" + fill("9"),
			"AT" + sep + "1/" + fill("7"),
		}).Draw(t, "csv")
	}
	if len(s) > budgetBytes {
		s = s[:budgetBytes]
	}
	return []byte(s)
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestBudget: every parser refuses adversarial input of up to 1 MiB with EINVALID, and
// within issue 12's budget: at most 64 MiB allocated and 1 s of CPU (the process's CPU
// time, so other load on the machine does not count; the inputs are refused in
// milliseconds, so the margin is wide).
func TestBudget(t *testing.T) {
	for _, p := range parsers {
		t.Run(p.name, func(t *testing.T) {
			var worstAlloc uint64
			var worstCPU time.Duration
			defer func() { t.Logf("worst: %d KiB allocated, %v CPU", worstAlloc>>10, worstCPU) }()
			rapid.Check(t, func(t *rapid.T) {
				src := adversarial(t, p.format)
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				c0 := cpuTime()
				err := p.parse("input", src)
				cpu := cpuTime() - c0
				runtime.ReadMemStats(&m1)
				if code := solidarity.ErrorCode(err); code != solidarity.EINVALID {
					t.Fatalf("%d bytes %.60q…: %v (code %q), want EINVALID", len(src), src, err, code)
				}
				worstAlloc, worstCPU = max(worstAlloc, m1.TotalAlloc-m0.TotalAlloc), max(worstCPU, cpu)
				if a := m1.TotalAlloc - m0.TotalAlloc; a > budgetAlloc {
					t.Fatalf("%d bytes %.60q…: allocated %d MiB, budget %d MiB (%v)", len(src), src, a>>20, budgetAlloc>>20, err)
				}
				if cpu > budgetCPU {
					t.Fatalf("%d bytes %.60q…: %v of CPU, budget %v (%v)", len(src), src, cpu, budgetCPU, err)
				}
			})
		})
	}
}

// TestBudgetNamesTheBound: the refusal of an input over a bound names the bound, so
// that a user learns what to change.
func TestBudgetNamesTheBound(t *testing.T) {
	for _, p := range parsers {
		src := map[string]string{"toml": "x = " + strings.Repeat("[", 100), "json": `{"a":` + strings.Repeat("[", 100),
			"csv": strings.Repeat(",", 1<<17), "tsv": strings.Repeat("\t", 1<<17)}[p.format]
		err := p.parse("input", []byte(src))
		if !strings.Contains(fmt.Sprint(err), "limit") {
			t.Errorf("%s: %v, want the bound named", p.name, err)
		}
	}
}
