package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"time"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/match"
	"solidarity/match/hias"
)

const matchHelp = `Usage: solidarity match FILE [--time-limit 10s] [--gap G] [--format table|json]
       solidarity match --hias DIR --model A|B [--time-limit 10s] [--format table|json]
       solidarity match export [--format lp|mps] [--out FILE] (FILE | --hias DIR --model A|B)
       solidarity match generate [--seed N] [--families 12000] [--localities 40] [--dims 3]
                                 [--groups] [--balance TOL] [--must FRACTION] [--weeks N] [--out FILE]
       solidarity match replay (FILE | --hias DIR --model A|B) [--method …] [--batch 7d] [--seeds 20]
       solidarity match prefs (FILE | --hias DIR --model A|B) [--mechanism mttc,tmda] [--draws 100]

Places families in localities: maximises the total score of the placements under the
places' capacities, the groups' ceilings and the balance minimums (docs/match-problem.md).

  match FILE      solve a problem file and print each placement with its score and why
                  (links, preference, integration), the unplaced families, the intake
                  by state, and the status: optimal, or feasible with a proven bound and
                  the gap when the time limit stops the search, or infeasible.
  --hias DIR      solve the HIAS FY2017 benchmark (the four CSV files in DIR) as model A
                  (children, adults, seniors; actual intake) or B (persons; stated capacity).
  export          write the model for an external MIP solver (cbc: cbc F.lp -solve -solu F.sol)
                  in CPLEX LP (maximise) or free MPS (minimise the negated score).
  generate        write a synthetic EU-scale problem: families drawn like relocation
                  cohorts, the 26 Part IV states' localities with places by the Art. 66
                  reference key (shipped population and GDP data); --weeks N gives each
                  family an arrival date in a year of N weeks, for replay.
  replay          place a year batch by batch, each method against the proven hindsight
                  optimum (solidarity match replay --help).
  prefs           the preference mechanisms MTTC and TMDA with their metrics
                  (solidarity match prefs --help).

Exit status: 0 solved (optimal or feasible), 2 a bad file or flag (the file, line and
JSON path are named) or an infeasible problem (the constraint is named), 1 internal error.
`

func runMatch(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 {
		switch args[0] {
		case "export":
			return runMatchExport(args[1:], stdout, stderr)
		case "generate":
			return runMatchGenerate(args[1:], stdout, stderr)
		case "replay":
			return runMatchReplay(ctx, args[1:], stdout, stderr)
		case "prefs":
			return runMatchPrefs(ctx, args[1:], stdout, stderr)
		}
	}
	fs := newFlags("match", matchHelp, stdout, stderr)
	limit := fs.Duration("time-limit", 10*time.Second, "stop the search after this `duration` and report the best placement with its proven bound (0: until proven optimal)")
	gap := fs.Float64("gap", 0, "relative `gap` at which a solution counts as optimal (0: 1e-9)")
	format := fs.String("format", "table", "output `format`: table or json")
	hiasDir := fs.String("hias", "", "HIAS FY2017 data `directory` (instead of FILE)")
	which := fs.String("model", "A", "HIAS `model`: A or B")
	file, err := parseWithFile(fs, args)
	if err != nil {
		return err
	}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *limit < 0 || *gap < 0 {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--time-limit", Message: "negative time limit or gap"}
	}
	m, idx, dims, err := loadModel(file, *hiasDir, *which)
	if err != nil {
		return err
	}
	sol, err := match.Solve(ctx, m, match.Options{TimeLimit: *limit, Gap: *gap})
	if err != nil {
		return fmt.Errorf("solve: %w", err)
	}
	r := idx.Result(sol)
	if sol.Status != match.Infeasible {
		// The price of the balance floors, printed with every placement that has
		// them (a second solve without them, under the same limit).
		r.FloorPrice = match.FloorsPrice(ctx, m, sol.Value, match.Options{TimeLimit: *limit, Gap: *gap})
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(r); err != nil {
			return err
		}
	} else {
		writeMatchTable(stdout, r, dims)
	}
	if sol.Status == match.Infeasible {
		name := file
		if name == "" {
			name = *hiasDir
		}
		return &solidarity.Error{Code: solidarity.ECONFLICT, File: name, Message: "infeasible: " + r.Reason} // by IDs (Index.Names)
	}
	return nil
}

// parseWithFile parses flags given before or after one positional FILE argument,
// which is required unless --hias is given, and forbidden with it.
func parseWithFile(fs *flag.FlagSet, args []string) (string, error) {
	if err := parse(fs, args, true); err != nil {
		return "", err
	}
	var file string
	rest := fs.Args()
	if len(rest) > 0 {
		file = rest[0]
		if err := parse(fs, rest[1:], false); err != nil {
			return "", err
		}
	}
	needFile := fs.Lookup("hias").Value.String() == ""
	switch {
	case needFile && file == "":
		return "", &solidarity.Error{Code: solidarity.EINVALID, Message: "no problem file given (solidarity match FILE)"}
	case !needFile && file != "":
		return "", &solidarity.Error{Code: solidarity.EINVALID, Message: fmt.Sprintf("both --hias and a problem file %q", file)}
	}
	return file, nil
}

// loadModel reads a problem file, or the HIAS data, into a model and its index.
func loadModel(file, hiasDir, which string) (*match.Model, *match.Index, []string, error) {
	if hiasDir != "" {
		d, err := hias.Read(hiasDir)
		if err != nil {
			return nil, nil, nil, solidarity.At(err, hiasDir)
		}
		m, err := d.Model(which)
		if err != nil {
			return nil, nil, nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--model", Message: err.Error()}
		}
		// US affiliates are in no Member State; the score is the predicted employment.
		idx := &match.Index{Places: make([]string, len(m.Places)), States: make([]solidarity.MemberState, len(m.Places))}
		for j := range m.Places {
			idx.Places[j] = d.AffiliateName(j)
		}
		for i, f := range m.Families {
			idx.Families = append(idx.Families, d.CaseID(i))
			idx.Persons = append(idx.Persons, d.Cases[i].Size())
			arcs := make([]match.IndexArc, len(f.Arcs))
			for k, a := range f.Arcs {
				arcs[k] = match.IndexArc{Arc: a, Components: match.Components{Integration: a.Score}}
			}
			idx.Arcs = append(idx.Arcs, arcs)
		}
		return m, idx, hias.Dimensions(which), nil
	}
	fh, err := os.Open(file)
	if err != nil {
		return nil, nil, nil, &solidarity.Error{Code: solidarity.EINVALID, File: file, Message: "cannot read the problem file"}
	}
	defer fh.Close()
	p, err := match.ParseProblem(file, fh)
	if err != nil {
		return nil, nil, nil, err
	}
	m, idx, err := p.Compile()
	if err != nil {
		return nil, nil, nil, solidarity.At(err, file)
	}
	return m, idx, p.Dimensions, nil
}

// checkFormat refuses an output format other than table and json (the match
// commands' --format).
func checkFormat(format string) error {
	if format != "table" && format != "json" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: fmt.Sprintf("unknown format %q (want table or json)", format)}
	}
	return nil
}

func fmtScore(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }

func writeMatchTable(w io.Writer, r *match.Result, dims []string) {
	fmt.Fprintf(w, "status   %s\n", r.Status)
	if r.Reason != "" {
		fmt.Fprintf(w, "reason   %s\n", r.Reason)
	}
	fmt.Fprintf(w, "value    %s\n", fmtScore(r.Value))
	if r.Bound != nil {
		fmt.Fprintf(w, "bound    %s\ngap      %.3g\n", fmtScore(*r.Bound), *r.Gap)
	}
	fmt.Fprintf(w, "placed   %d of %d families, %d persons (dimensions: %v)\n", r.Placed, r.Families, r.Persons, dims)
	fmt.Fprintf(w, "time     %.1f ms, %d nodes\n", r.ElapsedMS, r.Nodes)
	if fp := r.FloorPrice; fp != nil {
		fmt.Fprintf(w, "floors   cost %s in score, %.2f %% of %s without them (%s)\n", fmtScore(fp.Cost), fp.Percent, fmtScore(fp.Without), fp.Status)
	}
	fmt.Fprintln(w)
	if len(r.Placements) > 0 {
		tw := newTable(w)
		fmt.Fprintln(tw, "family\tplace\tstate\tpersons\tscore\tlinks\tpreference\tintegration\t")
		for _, p := range r.Placements {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t\n", p.Family, p.Place, p.State, p.Persons,
				fmtScore(p.Score), fmtScore(p.Components.Links), fmtScore(p.Components.Preference), fmtScore(p.Components.Integration))
		}
		tw.Flush()
	}
	if len(r.States) > 0 {
		fmt.Fprintln(w)
		tw := newTable(w)
		fmt.Fprintln(tw, "state\tfamilies\tpersons\tminimum\t")
		for _, s := range r.States {
			min := "-"
			if s.Min != nil {
				min = strconv.FormatInt(*s.Min, 10)
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t\n", s.State, s.Families, s.Persons, min)
		}
		tw.Flush()
	}
	if len(r.Unplaced) > 0 {
		fmt.Fprintf(w, "\nunplaced (%d):", len(r.Unplaced))
		for _, id := range r.Unplaced {
			fmt.Fprintf(w, " %s", id)
		}
		fmt.Fprintln(w)
	}
}

func runMatchExport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match export", matchHelp, stdout, stderr)
	format := fs.String("format", "lp", "output `format`: lp or mps")
	out := fs.String("out", "", "write to `file` (default: standard output)")
	hiasDir := fs.String("hias", "", "HIAS FY2017 data `directory` (instead of FILE)")
	which := fs.String("model", "A", "HIAS `model`: A or B")
	file, err := parseWithFile(fs, args)
	if err != nil {
		return err
	}
	write := match.WriteLP
	switch *format {
	case "lp":
	case "mps":
		write = match.WriteMPS
	default:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--format", Message: fmt.Sprintf("unknown format %q (want lp or mps)", *format)}
	}
	m, _, _, err := loadModel(file, *hiasDir, *which)
	if err != nil {
		return err
	}
	return writeOut(*out, stdout, func(w io.Writer) error { return write(w, m) })
}

// writeOut writes to a file (created whole or not at all, the owner's only: 0600, as
// a ledger export) or to stdout.
func writeOut(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	f, err := os.CreateTemp(dirOf(path), ".match-*") // mode 0600
	if err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, File: path, Message: "cannot create the output file"}
	}
	bw := bufio.NewWriter(f)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	return nil
}

func runMatchGenerate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match generate", matchHelp, stdout, stderr)
	seed := fs.Uint64("seed", 1, "random `seed` (the same seed and flags give the same file)")
	families := fs.Int("families", 12000, "`number` of families")
	localities := fs.Int("localities", 40, "localities per Member State")
	dims := fs.Int("dims", 3, "capacity dimensions: 1 (persons), 2 (children, adults) or 3 (children, adults, seniors)")
	groups := fs.Bool("groups", false, "a national ceiling per state (90% of its localities' places)")
	balance := fs.Float64("balance", -1, "add a balance section with this `tolerance` (0…1) and the states' places as pledges")
	must := fs.Float64("must", 0, "`fraction` of families that must be placed")
	weeks := fs.Int("weeks", 0, "give each family an arrival date in a year of this many `weeks` (0: none), for match replay")
	out := fs.String("out", "", "write to `file` (default: standard output)")
	dataDir := fs.String("data-dir", defaultDataDir(), "`directory` of imported datasets")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	switch {
	case *families < 1 || *families > 1_000_000:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--families", Message: "want 1 to 1 000 000 families"}
	case *localities < 1 || *localities > 1000:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--localities", Message: "want 1 to 1000 localities"}
	case *dims < 1 || *dims > 3:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--dims", Message: "want 1, 2 or 3 dimensions"}
	case *balance > 1:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--balance", Message: "the tolerance is at most 1"}
	case *must < 0 || *must > 1:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--must", Message: "want a fraction 0…1"}
	case *weeks < 0 || *weeks > 520:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--weeks", Message: "want 0 to 520 weeks"}
	}
	cat := &catalog.Files{DataDir: *dataDir}
	k, _, _, err := cat.Key(catalog.KeyRequest{})
	if err != nil {
		return err
	}
	cfg := match.GenConfig{Families: *families, Localities: *localities, Dims: *dims, Groups: *groups, Must: *must, Weeks: *weeks,
		Key: map[solidarity.MemberState]float64{}}
	for _, s := range k.Shares {
		cfg.States = append(cfg.States, s.State)
		cfg.Key[s.State], _ = s.Share.Float64()
	}
	if *balance >= 0 {
		cfg.Balance = balance
	}
	p := match.Generate(*seed, cfg)
	return writeOut(*out, stdout, p.WriteJSON)
}
