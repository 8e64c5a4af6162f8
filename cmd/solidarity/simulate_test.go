package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"solidarity/simulation"
)

// simulateJSON runs simulate with --format json and decodes the result.
func simulateJSON(t *testing.T, args ...string) *simulation.Result {
	t.Helper()
	code, out, errs := run(t, append([]string{"simulate", "--format", "json"}, args...)...)
	if code != 0 {
		t.Fatalf("simulate %v: exit %d: %s", args, code, errs)
	}
	var r simulation.Result
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("simulate %v: %v", args, err)
	}
	return &r
}

// simulateCSV runs simulate with --format csv and parses the output as one table.
func simulateCSV(t *testing.T, args ...string) (header []string, rows [][]string) {
	t.Helper()
	code, out, errs := run(t, append([]string{"simulate", "--format", "csv"}, args...)...)
	if code != 0 {
		t.Fatalf("simulate %v: exit %d: %s", args, code, errs)
	}
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil || len(recs) == 0 {
		t.Fatalf("simulate %v: csv: %v (%d records)", args, err, len(recs))
	}
	return recs[0], recs[1:]
}

func column(t *testing.T, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %q in %v", name, header)
	}
	return i
}

// writeFile writes a file in dir and returns its path.
func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSimulateList(t *testing.T) {
	want := []string{"replay-2015", "ammr-on-2015-flows", "disembarkations-2018", "cycle-2026"}
	code, out, errs := run(t, "simulate", "--list")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, n := range want {
		if !strings.Contains(out, n) {
			t.Errorf("--list does not name %s:\n%s", n, out)
		}
	}
	code, out, errs = run(t, "simulate", "--list", "--format", "json")
	if code != 0 {
		t.Fatalf("json: exit %d: %s", code, errs)
	}
	var list []struct {
		Name, Rules, Title string
		Illustrative       bool
	}
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range list {
		names = append(names, s.Name)
		if s.Rules == "" || s.Title == "" {
			t.Errorf("%s: rules %q, title %q", s.Name, s.Rules, s.Title)
		}
	}
	for _, n := range want {
		if !slices.Contains(names, n) {
			t.Errorf("--list --format json: no %s in %v", n, names)
		}
	}
}

// The replay of the 2015 scheme gives every per-state row its state, and its replay
// table carries the Commission's figures of 13 July 2017 (historical-data.md §2.2),
// each met, with the "% of legal commitment" where the table prints one.
func TestSimulateReplay2015(t *testing.T) {
	r := simulateJSON(t, "replay-2015", "--runs", "0")
	if len(r.States) < 20 {
		t.Fatalf("%d states", len(r.States))
	}
	for i, s := range r.States {
		if s.State == "" {
			t.Errorf("states[%d] has no state", i)
		}
	}
	if r.Replay == nil || r.Replay.Published == 0 {
		t.Fatalf("no replay in the result: %+v", r.Replay)
	}
	h, rows := simulateCSV(t, "replay-2015", "--runs", "0", "--table", "replay")
	date, state, from, value := column(t, h, "date"), column(t, h, "state"), column(t, h, "from"), column(t, h, "value")
	pub, pct, met := column(t, h, "published"), column(t, h, "percent"), column(t, h, "met")
	got := map[string][]string{}
	for _, row := range rows {
		if row[date] == "2017-07-13" && row[from] == "" {
			got[row[state]] = row
		}
	}
	for _, c := range []struct {
		state   string
		total   string
		percent string
	}{
		{"AT", "0", "0.0"}, {"BE", "781", "20.5"}, {"BG", "50", "3.8"}, {"HR", "77", "8.0"}, {"CY", "124", "38.8"},
		{"CZ", "12", "0.4"}, {"EE", "141", "42.9"}, {"FI", "1785", "85.9"}, {"FR", "3779", "19.2"}, {"DE", "6738", "24.5"},
		{"HU", "0", "0.0"}, {"IE", "459", "76.5"}, {"LV", "317", "65.9"}, {"LT", "372", "55.4"}, {"LU", "327", "58.7"},
		{"MT", "137", "104.6"}, {"NL", "2056", "34.6"}, {"PL", "0", "0.0"}, {"PT", "1390", "47.1"}, {"RO", "710", "17.0"},
		{"SK", "16", "1.8"}, {"SI", "207", ""}, {"ES", "1069", "11.5"}, {"SE", "975", "25.9"}, {"NO", "1502", "100.1"},
		{"CH", "1058", "72.5"}, {"LI", "10", "100.0"}, {"", "24092", ""},
	} {
		row, ok := got[c.state]
		switch {
		case !ok:
			t.Errorf("%s: no checkpoint of 2017-07-13", c.state)
		case row[value] != c.total:
			t.Errorf("%s on 2017-07-13: replay %s, published %s", c.state, row[value], c.total)
		case row[pub] != "" && (row[pub] != c.total || row[met] != "true"):
			t.Errorf("%s on 2017-07-13: published %q, met %s; want %s met", c.state, row[pub], row[met], c.total)
		case c.percent != "" && row[pct] != c.percent:
			t.Errorf("%s on 2017-07-13: %s %% of the legal commitment, published %s %%", c.state, row[pct], c.percent)
		}
	}
	// The text output shows the replay with its figures.
	code, out, errs := run(t, "simulate", "replay-2015", "--runs", "0")
	if code != 0 {
		t.Fatalf("table: exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "[replay]") || !strings.Contains(out, "2017-07-13") || !strings.Contains(out, "6738") ||
		!strings.Contains(out, fmt.Sprintf("%d of %d published figures met", r.Replay.Met, r.Replay.Published)) {
		t.Errorf("the table output lacks the replay:\n%.2000s", out)
	}
}

// A seed makes the result: the same seed gives the same bytes, another seed other
// figures where the scenario draws arrivals and deliveries at random.
func TestSimulateSeed(t *testing.T) {
	a := func(seed string) string {
		code, out, errs := run(t, "simulate", "cycle-2026", "--runs", "200", "--seed", seed, "--format", "json")
		if code != 0 {
			t.Fatalf("seed %s: exit %d: %s", seed, code, errs)
		}
		return out
	}
	one, again, other := a("7"), a("7"), a("8")
	if one != again {
		t.Error("the same seed gave different output")
	}
	if one == other {
		t.Error("seeds 7 and 8 gave the same output")
	}
	var r1, r2 simulation.Result
	json.Unmarshal([]byte(one), &r1)
	json.Unmarshal([]byte(other), &r2)
	if r1.Union.Relocations == r2.Union.Relocations && r1.Union.Arrivals == r2.Union.Arrivals {
		t.Errorf("seeds 7 and 8: the same relocations %v and arrivals %v", r1.Union.Relocations, r1.Union.Arrivals)
	}
	if r1.Runs != 200 || r1.Seed != 7 {
		t.Errorf("runs %d, seed %d; want 200 and 7", r1.Runs, r1.Seed)
	}
}

// --runs 0 is the expected run alone: every band collapses to its median.
func TestSimulateExpectedRun(t *testing.T) {
	r := simulateJSON(t, "cycle-2026", "--runs", "0")
	if r.Runs != 0 {
		t.Errorf("runs %d", r.Runs)
	}
	for _, b := range []simulation.Band{r.Union.Relocations, r.Union.Arrivals, r.Union.Coverage} {
		if b.P5 != b.Median || b.P95 != b.Median {
			t.Errorf("expected run: band %+v is not a point", b)
		}
	}
}

// Every bad flag or argument fails with exit 2, a message naming it, and nothing on
// stdout but, for a flag the flag package rejects, the usage.
func TestSimulateBadInput(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"cycle-2026", "--runs", "-1"}, "--runs"},
		{[]string{"cycle-2026", "--runs", fmt.Sprint(simulation.MaxRuns + 1)}, "--runs"},
		{[]string{"cycle-2026", "--seed", "-1"}, "seed"},
		{[]string{"cycle-2026", "--format", "xml"}, "--format"},
		{[]string{"cycle-2026", "--format", "csv", "--table", "nosuch"}, "states, union, months"},
		{[]string{"cycle-2026", "--format", "csv", "--table", "replay"}, "replay"},
		{[]string{"cycle-2026", "--format", "json", "--table", "states"}, "--table"},
		{[]string{"cycle-2026", "replay-2015"}, "one scenario"},
		{[]string{}, "one scenario"},
		{[]string{"no-such-scenario"}, "no-such-scenario"},
		{[]string{"--list", "cycle-2026"}, "--list"},
		{[]string{"--list", "--runs", "5"}, "--runs"},
		{[]string{"compare", "cycle-2026"}, "two scenarios"},
		{[]string{"compare", "cycle-2026", "cycle-2026", "--format", "csv", "--table", "states"}, "compare-states"},
		{[]string{"compare", "cycle-2026", "cycle-2026", "--runs", "-1"}, "--runs"},
	} {
		code, out, errs := run(t, append([]string{"simulate"}, c.args...)...)
		if code != 2 || out != "" && !strings.HasPrefix(out, "Usage:") || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stdout %.100q, stderr %.200q; want exit 2, no output, %q", c.args, code, out, errs, c.want)
		}
	}
}

// A typo in a scenario file is named by file, line and field, and nothing of a
// result is printed.
func TestSimulateBadFile(t *testing.T) {
	dir := t.TempDir()
	p := writeFile(t, dir, "typo.toml", "base = \"cycle-2026\"\ntitle = \"a typo\"\n\n[parameters]\nrefrence = 30000\n")
	code, out, errs := run(t, "simulate", p)
	if code != 2 || out != "" {
		t.Fatalf("exit %d, stdout %.100q; want exit 2 and nothing", code, out)
	}
	if !strings.Contains(errs, p+":5:") || !strings.Contains(errs, "refrence") {
		t.Errorf("stderr %q; want %s:5: and the field refrence", errs, p)
	}
}

// An interrupt stops the runs: exit 1 and nothing half-computed on stdout.
func TestSimulateInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	code := Run(ctx, []string{"simulate", "cycle-2026", "--runs", "10000"}, &out, &errb)
	if code != 1 || out.Len() != 0 || !strings.Contains(errb.String(), "interrupted") {
		t.Errorf("exit %d, stdout %.100q, stderr %q; want exit 1, nothing, interrupted", code, out.String(), errb.String())
	}
}

func TestSimulateCSV(t *testing.T) {
	h, rows := simulateCSV(t, "cycle-2026", "--runs", "20")
	st := column(t, h, "state")
	if len(rows) < 26 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if len(r[st]) != 2 {
			t.Errorf("state %q", r[st])
		}
	}
	// all: each table after "# NAME", a blank line after each.
	code, out, errs := run(t, "simulate", "cycle-2026", "--runs", "20", "--format", "csv", "--table", "all")
	if code != 0 {
		t.Fatalf("all: exit %d: %s", code, errs)
	}
	var names []string
	for _, block := range strings.Split(strings.TrimSuffix(out, "\n\n"), "\n\n") {
		name, body, ok := strings.Cut(block, "\n")
		if !ok || !strings.HasPrefix(name, "# ") {
			t.Fatalf("block %.80q does not start with # NAME", block)
		}
		if _, err := csv.NewReader(strings.NewReader(body)).ReadAll(); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		names = append(names, strings.TrimPrefix(name, "# "))
	}
	want := slices.DeleteFunc(slices.Clone(simulation.TableNames), func(n string) bool { return n == "replay" || n == "compared" })
	if !slices.Equal(names, want) {
		t.Errorf("tables %v; want %v", names, want)
	}
}

// Four states paying instead of relocating, as a file that changes the shipped
// 2026 cycle, against the cycle itself: the same runs and seed, coverage changes.
func TestSimulateCompare(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	b.WriteString("base = \"cycle-2026\"\ntitle = \"cycle-2026: four states pay\"\n")
	for _, s := range []string{"HU", "PL", "CZ", "SK"} {
		fmt.Fprintf(&b, "\n[choice.%s]\npay = 1.0\nsource = \"what-if\"\ncertainty = \"S\"\n", s)
	}
	p := writeFile(t, dir, "pay.toml", b.String())
	code, out, errs := run(t, "simulate", "compare", "cycle-2026", p, "--runs", "100", "--seed", "3", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var c struct {
		A, B    *simulation.Result
		Compare []struct {
			Name   string
			Header []string
			Rows   [][]string
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatal(err)
	}
	if c.A.Runs != 100 || c.B.Runs != 100 || c.A.Seed != 3 || c.B.Seed != 3 {
		t.Errorf("runs %d/%d, seeds %d/%d; want 100 and 3 for both", c.A.Runs, c.B.Runs, c.A.Seed, c.B.Seed)
	}
	// A payment pledges as much as a relocation, so the pledged coverage
	// stays; what is delivered by the pool's end changes: a payment is delivered
	// whole, relocations with draws and only as far as there are people to relocate.
	if len(c.A.Coverage) == 0 || len(c.B.Coverage) != len(c.A.Coverage) {
		t.Fatalf("coverage by month: %d and %d months", len(c.A.Coverage), len(c.B.Coverage))
	}
	if a, b := c.A.Coverage[len(c.A.Coverage)-1], c.B.Coverage[len(c.B.Coverage)-1]; a == b {
		t.Errorf("the delivered coverage at the end did not change: %+v", a)
	}
	if c.B.Union.Payments.Median <= c.A.Union.Payments.Median {
		t.Errorf("payments %v under B, %v under A", c.B.Union.Payments.Median, c.A.Union.Payments.Median)
	}
	if len(c.Compare) != 2 || c.Compare[0].Name != "compare-states" {
		t.Fatalf("compare tables %+v", c.Compare)
	}
	h := c.Compare[0].Header
	st, bf := slices.Index(h, "state"), slices.Index(h, "b_form")
	for _, r := range c.Compare[0].Rows {
		if slices.Contains([]string{"HU", "PL", "CZ", "SK"}, r[st]) && r[bf] != "pay" {
			t.Errorf("%s: b_form %q", r[st], r[bf])
		}
	}
	code, out, errs = run(t, "simulate", "compare", "cycle-2026", p, "--runs", "10")
	if code != 0 || !strings.Contains(out, "[compare-states]") || !strings.Contains(out, "[compare-union]") {
		t.Errorf("table: exit %d, %s, output %.500q", code, errs, out)
	}
	code, out, errs = run(t, "simulate", "compare", "cycle-2026", p, "--runs", "10", "--format", "csv")
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) < 27 || recs[0][0] != "state" {
		t.Errorf("compare csv: exit %d, %s, %v, %d records", code, errs, err, len(recs))
	}
}

// The command only reads: run from an empty directory, it leaves it empty.
func TestSimulateWritesNothing(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for _, args := range [][]string{
		{"simulate", "--list"},
		{"simulate", "cycle-2026", "--runs", "10"},
		{"simulate", "replay-2015", "--runs", "0", "--format", "csv", "--table", "all"},
		{"simulate", "compare", "cycle-2026", "ammr-on-2015-flows", "--runs", "0", "--format", "json"},
	} {
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	ents, err := os.ReadDir(dir)
	if err != nil || len(ents) != 0 {
		t.Errorf("the working directory holds %v (%v)", ents, err)
	}
}

func TestSimulateHelp(t *testing.T) {
	for _, args := range [][]string{{"simulate", "--help"}, {"simulate", "compare", "--help"}} {
		code, out, _ := run(t, args...)
		if code != 0 || !strings.Contains(out, "Usage: solidarity simulate") || !strings.Contains(out, "--runs") {
			t.Errorf("%v: exit %d, output %.80q", args, code, out)
		}
	}
	if _, out, _ := run(t, "--help"); !strings.Contains(out, "simulate") {
		t.Error("the usage does not name simulate")
	}
}

// A scenario file's data files are read relative to the file's directory, whatever
// the working directory; an error in one names it as the user can open it, with its
// line and column.
func TestSimulateRelativeCSV(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "what-if")
	if err := os.MkdirAll(filepath.Join(dir, "data"), 0o755); err != nil {
		t.Fatal(err)
	}
	p := writeFile(t, dir, "arrivals.toml", "base = \"cycle-2026\"\ntitle = \"1000 a month in Italy\"\n\n[data]\narrivals = [\"data/arrivals.csv\"]\n")
	var csvText strings.Builder
	csvText.WriteString("# seven months of 1000 arrivals in Italy\nmonth,state,nationality,mean,estimated,certainty,source\n")
	for m := 6; m <= 12; m++ {
		fmt.Fprintf(&csvText, "2025-%02d,IT,,1000,false,S,test\n", m)
	}
	writeFile(t, filepath.Join(dir, "data"), "arrivals.csv", csvText.String())
	t.Chdir(t.TempDir())
	r := simulateJSON(t, p, "--runs", "0")
	if r.Union.Arrivals.Median != 7000 {
		t.Errorf("arrivals %v; want the file's 7000", r.Union.Arrivals.Median)
	}
	for _, s := range r.States {
		if s.State == "IT" && s.Arrivals.Median != 7000 || s.State != "IT" && s.Arrivals.Median != 0 {
			t.Errorf("%s: arrivals %v", s.State, s.Arrivals.Median)
		}
	}
	writeFile(t, filepath.Join(dir, "data"), "arrivals.csv", csvText.String()+"2026-01,IT,,many,false,S,test\n")
	code, out, errs := run(t, "simulate", p, "--runs", "0")
	want := filepath.Join(dir, "data", "arrivals.csv") + ":10:"
	if code != 2 || out != "" || !strings.Contains(errs, want) || !strings.Contains(errs, "mean") {
		t.Errorf("exit %d, stdout %.100q, stderr %q; want exit 2 naming %s and mean", code, out, errs, want)
	}
}
