package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"solidarity"
	"solidarity/internal/report"
	"solidarity/internal/scenariofile"
	"solidarity/simulation"
)

const simulateHelp = `Usage: solidarity simulate FILE|NAME [--runs N] [--seed S] [--format table|json|csv] [--table NAME]
       solidarity simulate compare A B [--runs N] [--seed S] [--format table|json|csv] [--table NAME]
       solidarity simulate --list [--format table|json|csv]

Replays the past and asks "what if" of responsibility-sharing: a scenario (arrivals,
a rule set, each state's choice, the operational parameters, every number with its
source) is run N times with seeded randomness, and the result gives, per state, the
fair share, the obligation and its form, what would be relocated, paid or refused,
the Union's coverage month by month, the pay-versus-relocate frontier, what each rule
set would ask of each state, and, for a replay, the published figures beside the
replay's own. Figures are the median of the runs, with the 5-95 % band where a
column says p5 and p95. The command only reads: it writes no file and no database.

NAME is a shipped scenario (see --list); anything else is a scenario file
(docs/scenario-file.md), whose CSV and cycle files are read relative to its directory.

  --runs N     seeded runs, 0 to 20000 (0: the expected run alone, no randomness);
               default: the file's runs, else 1000
  --seed S     the seed; the same seed gives the same result, byte for byte;
               default: the file's seed, else 1
  --format     table (aligned text), json (the whole result) or csv (one table)
  --table      the table for csv and table output: states, union, months, frontier,
               costs, replay (a replay only), depends, or all (csv: each preceded by
               a line "# NAME"); compare's are compare-states and compare-union.
               Default for csv: states (compare: compare-states); for table: all.

  compare A B  runs both with the same runs and seed (the defaults come from A, else
               from B) and puts them side by side per state and for the Union; json
               gives {"a": result, "b": result, "compare": [tables]}.

Exit status: 0 done, 2 a bad file or flag (the file, line and field are named), 1 an
internal error or an interrupt (nothing half-computed is printed).
`

// simulateOptions are the flags simulate and simulate compare share.
type simulateOptions struct {
	runs   int
	seed   uint64
	format report.Format
	table  string
	set    map[string]bool // the flags given on the command line
}

func simulateFlags(name string, stdout, stderr io.Writer) (*flag.FlagSet, *simulateOptions, *string) {
	fs := newFlags(name, simulateHelp, stdout, stderr)
	o := &simulateOptions{}
	fs.IntVar(&o.runs, "runs", 1000, "seeded `runs`, 0 to 20000 (default: the file's runs, else 1000)")
	fs.Uint64Var(&o.seed, "seed", 1, "the `seed` (default: the file's seed, else 1)")
	format := fs.String("format", "table", "output `format`: table, json or csv")
	fs.StringVar(&o.table, "table", "", "the `table` to print (csv default: states), or all")
	return fs, o, format
}

// check validates the flags once parsed: the format, and the table against names,
// the tables the output can have ("all" too).
func (o *simulateOptions) check(fs *flag.FlagSet, format string, names []string) error {
	o.set = map[string]bool{}
	fs.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	f, err := report.ParseFormat(format)
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: err.Error()}
	}
	o.format = f
	if o.set["runs"] {
		if err := checkRuns(o.runs, "--runs", ""); err != nil {
			return err
		}
	}
	if o.table == "" {
		return nil
	}
	if f == report.JSON {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--table", Message: "--table is for --format csv or table; json gives the whole result"}
	}
	if o.table != "all" && !slices.Contains(names, o.table) {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--table",
			Message: fmt.Sprintf("unknown table %q (want %s or all)", o.table, strings.Join(names, ", "))}
	}
	return nil
}

func checkRuns(n int, field, file string) error {
	if n < 0 || n > simulation.MaxRuns {
		return &solidarity.Error{Code: solidarity.EINVALID, File: file, Field: field,
			Message: fmt.Sprintf("%d runs; want 0 (the expected run alone) to %d", n, simulation.MaxRuns)}
	}
	return nil
}

// resolve returns the runs and the seed: the flags where given, else the first
// scenario that sets them (a file's 0 means unset), else 1000 runs from seed 1.
func (o *simulateOptions) resolve(ss ...*simulation.Scenario) (int, uint64, error) {
	runs, seed := o.runs, o.seed
	if !o.set["runs"] {
		runs = 1000
		if i := slices.IndexFunc(ss, func(s *simulation.Scenario) bool { return s.Runs != 0 }); i >= 0 {
			runs = ss[i].Runs
			if err := checkRuns(runs, "runs", ss[i].File); err != nil {
				return 0, 0, err
			}
		}
	}
	if !o.set["seed"] {
		seed = 1
		if i := slices.IndexFunc(ss, func(s *simulation.Scenario) bool { return s.Seed != 0 }); i >= 0 {
			seed = ss[i].Seed
		}
	}
	return runs, seed, nil
}

func runSimulate(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "compare" {
		return runSimulateCompare(ctx, args[1:], stdout, stderr)
	}
	fs, o, format := simulateFlags("simulate", stdout, stderr)
	list := fs.Bool("list", false, "list the shipped scenarios")
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := o.check(fs, *format, simulation.TableNames); err != nil {
		return err
	}
	if *list {
		for _, f := range []string{"runs", "seed", "table"} {
			if o.set[f] {
				return &solidarity.Error{Code: solidarity.EINVALID, Field: "--" + f, Message: "--list takes only --format"}
			}
		}
		if len(pos) > 0 {
			return solidarity.Errorf(solidarity.EINVALID, "--list takes no scenario (got %q)", pos[0])
		}
		return writeScenarioList(stdout, o.format)
	}
	if len(pos) != 1 {
		return solidarity.Errorf(solidarity.EINVALID, "want one scenario, a shipped name or a file (got %d; see 'solidarity simulate --list')", len(pos))
	}
	s, err := openScenario(pos[0])
	if err != nil {
		return err
	}
	runs, seed, err := o.resolve(s)
	if err != nil {
		return err
	}
	r, err := simulate(ctx, s, runs, seed)
	if err != nil {
		return err
	}
	// The output is written whole or not at all: an error half-way through a table
	// must not leave a truncated result on stdout.
	var buf bytes.Buffer
	switch o.format {
	case report.JSON:
		err = writeJSON(&buf, r)
	case report.CSV:
		err = writeCSVTables(&buf, r.Tables(), o.table, "states", r.Scenario)
	default:
		err = writeResultText(&buf, r, o.table)
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

func runSimulateCompare(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs, o, format := simulateFlags("simulate compare", stdout, stderr)
	pos, err := parseArgs(fs, args)
	if err != nil {
		return err
	}
	if err := o.check(fs, *format, compareTableNames()); err != nil {
		return err
	}
	if len(pos) != 2 {
		return solidarity.Errorf(solidarity.EINVALID, "compare wants two scenarios, A and B (got %d)", len(pos))
	}
	a, err := openScenario(pos[0])
	if err != nil {
		return err
	}
	b, err := openScenario(pos[1])
	if err != nil {
		return err
	}
	runs, seed, err := o.resolve(a, b)
	if err != nil {
		return err
	}
	ra, err := simulate(ctx, a, runs, seed)
	if err != nil {
		return err
	}
	rb, err := simulate(ctx, b, runs, seed)
	if err != nil {
		return err
	}
	ts := simulation.Compare(ra, rb)
	var buf bytes.Buffer
	switch o.format {
	case report.JSON:
		err = writeJSON(&buf, struct {
			A       *simulation.Result `json:"a"`
			B       *simulation.Result `json:"b"`
			Compare []jsonTable        `json:"compare"`
		}{ra, rb, jsonTables(ts)})
	case report.CSV:
		err = writeCSVTables(&buf, ts, o.table, ts[0].Name, "")
	default:
		fmt.Fprintf(&buf, "A: %s\nB: %s\n", heading(ra), heading(rb))
		fmt.Fprintf(&buf, "%s\n", runsLine(ra))
		for _, t := range ts {
			if o.table == "" || o.table == "all" || o.table == t.Name {
				writeTextTable(&buf, t)
			}
		}
	}
	if err != nil {
		return err
	}
	_, err = stdout.Write(buf.Bytes())
	return err
}

// compareTableNames are the names of simulation.Compare's tables, which depend on
// no figure of the results compared.
func compareTableNames() []string {
	var names []string
	for _, t := range simulation.Compare(&simulation.Result{}, &simulation.Result{}) {
		names = append(names, t.Name)
	}
	return names
}

// openScenario resolves a command-line argument: a shipped name or a file.
func openScenario(arg string) (*simulation.Scenario, error) {
	s, _, err := scenariofile.Open(arg)
	if err != nil {
		return nil, locate(err, arg)
	}
	return s, nil
}

// locate names the file of an error as the user can open it: the package names a
// scenario file and its data files relative to the scenario's directory
// ("typo.toml:5"), which from another directory points nowhere. A name that is not
// a file there (a shipped base's) is left alone.
func locate(err error, arg string) error {
	e, ok := errors.AsType[*solidarity.Error](err)
	if !ok || e.File == "" || filepath.IsAbs(e.File) {
		return err
	}
	p := filepath.Join(filepath.Dir(arg), e.File)
	if p == e.File {
		return err
	}
	if _, serr := os.Stat(p); serr != nil {
		return err
	}
	c := *e
	c.File = p
	return &c
}

// simulate runs s and names s's file in the errors the engine finds (a field the
// file sets, checked against the others), unless the run was interrupted.
func simulate(ctx context.Context, s *simulation.Scenario, runs int, seed uint64) (*simulation.Result, error) {
	r, err := simulation.Run(ctx, s, runs, seed)
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("simulate %s: interrupted: %w", s.Name, ctx.Err())
		}
		return nil, solidarity.At(err, s.File)
	}
	return r, nil
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// jsonTable is a Table as compare's JSON gives it, in the field names of the rest.
type jsonTable struct {
	Name   string     `json:"name"`
	Header []string   `json:"header"`
	Rows   [][]string `json:"rows"`
}

func jsonTables(ts []simulation.Table) []jsonTable {
	out := make([]jsonTable, len(ts))
	for i, t := range ts {
		out[i] = jsonTable{t.Name, t.Header, t.Rows}
	}
	return out
}

// writeCSVTables writes the table named name (def when empty) as CSV, or, for
// "all", every table after a line "# NAME" and followed by a blank line. scenario
// names the scenario when the table may be missing (replay of a non-replay).
func writeCSVTables(w io.Writer, ts []simulation.Table, name, def, scenario string) error {
	if name == "" {
		name = def
	}
	for _, t := range ts {
		if name != "all" && t.Name != name {
			continue
		}
		if name == "all" {
			fmt.Fprintf(w, "# %s\n", t.Name)
		}
		cw := csv.NewWriter(w)
		cw.Write(t.Header)
		cw.WriteAll(t.Rows)
		if err := cw.Error(); err != nil {
			return err
		}
		if name == "all" {
			fmt.Fprintln(w)
			continue
		}
		return nil
	}
	if name == "all" {
		return nil
	}
	return &solidarity.Error{Code: solidarity.EINVALID, Field: "--table",
		Message: fmt.Sprintf("%s has no %s table (only a replay has one)", scenario, name)}
}

// tableTitles say what each table of a result holds, for the text output.
var tableTitles = map[string]string{
	"states":         "Per state, over the whole period",
	"union":          "The Union",
	"months":         "Month by month: delivered coverage and persons relocated by the end of the month",
	"frontier":       "Pay versus relocate: each state's obligation at each rule set's price, and the scenario's choice",
	"costs":          "What each rule set asks of each state, for the same arrivals",
	"replay":         "Replay: the published figures beside the replay's (estimated: not published, derived from the rest)",
	"depends":        "Depends on assumptions",
	"compare-states": "Per state: A beside B",
	"compare-union":  "The Union: A beside B",
}

func heading(r *simulation.Result) string {
	t := r.Title
	if t == "" {
		t = r.Scenario
	}
	return fmt.Sprintf("%s (%s)", t, r.RulesTitle)
}

func runsLine(r *simulation.Result) string {
	if r.Runs == 0 {
		return "The expected run alone (no randomness)."
	}
	return fmt.Sprintf("%d runs from seed %d: medians, with the 5-95 %% band where a column says p5 and p95.", r.Runs, r.Seed)
}

// writeResultText writes the result as aligned text: a replay's table first (what a
// replay is run for), then the others in their order, the "depends on" list and
// the notes. only, when set, keeps one table.
func writeResultText(w io.Writer, r *simulation.Result, only string) error {
	fmt.Fprintf(w, "%s\n%s\n", heading(r), runsLine(r))
	ts := r.Tables()
	if r.Replay != nil {
		fmt.Fprintf(w, "Replay: %d of %d published figures met.\n", r.Replay.Met, r.Replay.Published)
		i := slices.IndexFunc(ts, func(t simulation.Table) bool { return t.Name == "replay" })
		ts = append(append([]simulation.Table{ts[i]}, ts[:i]...), ts[i+1:]...)
	}
	found := only == "" || only == "all"
	for _, t := range ts {
		if t.Name == "depends" || !(only == "" || only == "all" || only == t.Name) {
			continue
		}
		found = true
		if t.Name == "replay" {
			t = replayText(t)
		}
		writeTextTable(w, t)
	}
	if only == "depends" || only == "" || only == "all" {
		found = true
		writeDepends(w, r.DependsOn)
	}
	if !found {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--table",
			Message: fmt.Sprintf("%s has no %s table (only a replay has one)", r.Scenario, only)}
	}
	if len(r.Notes) > 0 {
		fmt.Fprintln(w, "\nNotes:")
		for i, n := range r.Notes {
			fmt.Fprintf(w, "[%d] %s\n", i+1, n)
		}
	}
	return nil
}

// replayText blanks "met" where nothing was published to meet: true there means
// only that there was nothing to miss.
func replayText(t simulation.Table) simulation.Table {
	pub, pct, met := slices.Index(t.Header, "published"), slices.Index(t.Header, "published_percent"), slices.Index(t.Header, "met")
	if pub < 0 || pct < 0 || met < 0 {
		return t
	}
	rows := make([][]string, len(t.Rows))
	for i, r := range t.Rows {
		rows[i] = slices.Clone(r)
		if r[pub] == "" && r[pct] == "" {
			rows[i][met] = ""
		}
	}
	t.Rows = rows
	return t
}

// writeTextTable writes one table with its title, the cells right-aligned like the
// other commands' tables and an empty cell as "-".
func writeTextTable(w io.Writer, t simulation.Table) {
	title := tableTitles[t.Name]
	if title == "" {
		title = t.Name
	}
	fmt.Fprintf(w, "\n%s [%s]\n", title, t.Name)
	if len(t.Rows) == 0 {
		fmt.Fprintln(w, "  (none)")
		return
	}
	// A source is free text as long as a URL: as the last column, left out of the
	// alignment, it starts where the columns end instead of pushing them apart.
	free := t.Header[len(t.Header)-1] == "source"
	line := func(cells []string) string {
		if free {
			n := len(cells) - 1
			return strings.Join(cells[:n], "\t") + "\t  " + cells[n]
		}
		return strings.Join(cells, "\t") + "\t"
	}
	tw := newTable(w)
	fmt.Fprintln(tw, line(t.Header))
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			if c == "" {
				c = "-"
			}
			// A tab or newline in a cell (a source text) would break the columns.
			cells[i] = strings.NewReplacer("\t", " ", "\n", " ").Replace(c)
		}
		fmt.Fprintln(tw, line(cells))
	}
	tw.Flush()
}

func writeDepends(w io.Writer, ds []simulation.Dependency) {
	if len(ds) == 0 {
		fmt.Fprintln(w, "\nDepends on assumptions: none (every number the results rest on is published).")
		return
	}
	fmt.Fprintln(w, "\nDepends on assumptions (numbers nobody has published; the results named rest on the value assumed):")
	for _, d := range ds {
		fmt.Fprintf(w, "  %s = %s: %s\n", d.Field, trimFloat(d.Assumed), strings.Join(d.Affects, "; "))
	}
}

func trimFloat(x float64) string {
	return strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.4f", x), "0"), ".")
}

// writeScenarioList writes the shipped scenarios: name, rule set, whether
// illustrative, title.
func writeScenarioList(w io.Writer, f report.Format) error {
	list := scenariofile.Shipped()
	switch f {
	case report.JSON:
		type item struct {
			Name         string             `json:"name"`
			Rules        simulation.RuleSet `json:"rules"`
			Illustrative bool               `json:"illustrative"`
			Title        string             `json:"title"`
			Note         string             `json:"note,omitempty"`
		}
		items := []item{}
		for _, i := range list {
			items = append(items, item{i.Name, i.Rules, i.Illustrative, i.Title, i.Note})
		}
		return writeJSON(w, items)
	case report.CSV:
		cw := csv.NewWriter(w)
		cw.Write([]string{"name", "rules", "illustrative", "title"})
		for _, i := range list {
			cw.Write([]string{i.Name, string(i.Rules), fmt.Sprint(i.Illustrative), i.Title})
		}
		cw.Flush()
		return cw.Error()
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "NAME\tRULES\tILLUSTRATIVE\tTITLE")
	for _, i := range list {
		ill := "no"
		if i.Illustrative {
			ill = "yes"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", i.Name, i.Rules, ill, i.Title)
	}
	return tw.Flush()
}
