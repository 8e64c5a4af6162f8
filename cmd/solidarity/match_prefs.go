package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/match/prefs"
)

const matchPrefsHelp = `Usage: solidarity match prefs (FILE | --hias DIR --model A|B) [--mechanism mttc,tmda]
                             [--draws 100] [--seed 1] [--kind score-noise] [--format table|json]

Places families by their stated preferences and the places' priorities, with
multidimensional capacities (Delacrétaz, Kominers & Teytelboym, "Matching Mechanisms
for Refugee Resettlement", AER 2023; docs/match-preferences.md):

  mttc   multidimensional top trading cycles: strategy-proof and Pareto-efficient
         for families
  tmda   threshold multidimensional deferred acceptance: strategy-proof and weakly
         envy-free (no family strongly envies another)

Preferences are drawn as in the paper's simulations: each family ranks the places it
may go to by score (normalised) plus uniform noise (--kind score-noise; or common,
idiosyncratic, score-common); each place ranks families by score. Draw d uses seed
--seed + d. Prints each mechanism's mean metrics over the draws beside those of the
score-optimal placement measured against the same preferences, and what holds.

Exit status: 0 done, 2 a bad file or flag, 1 internal error.
`

func runMatchPrefs(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match prefs", matchPrefsHelp, stdout, stderr)
	mechs := fs.String("mechanism", "mttc,tmda", "comma-separated `mechanisms`: mttc, tmda")
	draws := fs.Int("draws", 100, "`number` of preference draws (1 to 10 000)")
	seed := fs.Uint64("seed", 1, "`seed` of the first draw")
	kind := fs.String("kind", "score-noise", "preference `kind`: score-noise, common, idiosyncratic or score-common")
	format := fs.String("format", "table", "output `format`: table or json")
	hiasDir := fs.String("hias", "", "HIAS FY2017 data `directory` (instead of FILE)")
	which := fs.String("model", "A", "HIAS `model`: A or B")
	file, err := parseWithFile(fs, args)
	if err != nil {
		return err
	}
	cfg := prefs.Config{Draws: *draws, Seed: *seed}
	if err := checkFormat(*format); err != nil {
		return err
	}
	if *draws < 1 || *draws > 10_000 {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--draws", Message: "want 1 to 10 000 draws"}
	}
	if cfg.Kind, err = prefs.ParseKind(*kind); err != nil {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "--kind", Message: fmt.Sprintf("unknown kind %q (want score-noise, common, idiosyncratic or score-common)", *kind)}
	}
	for name := range strings.SplitSeq(*mechs, ",") {
		mc, ok := prefs.Lookup(strings.TrimSpace(name))
		if !ok {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: "--mechanism", Message: fmt.Sprintf("unknown mechanism %q (want mttc or tmda)", name)}
		}
		cfg.Mechanisms = append(cfg.Mechanisms, mc)
	}
	m, _, dims, err := loadModel(file, *hiasDir, *which)
	if err != nil {
		return err
	}
	s, err := prefs.Run(ctx, m, cfg)
	if err != nil {
		return fmt.Errorf("match prefs: %w", err)
	}
	if *format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	writePrefsTable(stdout, s, dims)
	return nil
}

func writePrefsTable(w io.Writer, s *prefs.Summary, dims []string) {
	fmt.Fprintf(w, "means over %d draws (seeds %d…%d, preferences %s)\n\n", s.Draws, s.Seed, s.Seed+uint64(s.Draws)-1, s.Kind)
	tw := newTable(w)
	fmt.Fprint(tw, "mechanism\tplaced\tunplaced\tavg rank\tjustified envy\tblocking\tenvy\tstrong envy pairs\t")
	for _, d := range dims {
		fmt.Fprintf(tw, "left %s\t", d)
	}
	fmt.Fprintln(tw, "left (mean share)\tscore\t")
	f1 := func(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }
	for _, r := range s.Results {
		m := r.Mean
		fmt.Fprintf(tw, "%s\t%s\t%s\t%.3f\t%s\t%s\t%s\t%s\t", r.Mechanism, f1(m.Placed), f1(m.Unplaced), m.AverageRank,
			f1(m.JustifiedEnvy), f1(m.Blocking), f1(m.Envy), f1(m.StrongEnvy))
		for _, u := range m.Unfilled {
			fmt.Fprintf(tw, "%s\t", f1(u))
		}
		fmt.Fprintf(tw, "%.3f\t%s\t\n", m.UnfilledFraction, fmtScore(m.Score))
	}
	tw.Flush()
	fmt.Fprintln(w, "\nplaced at rank 1, 2, … (mean families):")
	for _, r := range s.Results {
		fmt.Fprintf(w, "  %-8s", r.Mechanism)
		for _, c := range r.Mean.Ranks {
			fmt.Fprintf(w, " %s", f1(c))
		}
		if r.Mean.Unranked > 0 {
			fmt.Fprintf(w, "  unranked %s", f1(r.Mean.Unranked))
		}
		fmt.Fprintf(w, "  unplaced %s\n", f1(r.Mean.Unplaced))
	}
	fmt.Fprintln(w, "\nwhat holds:")
	for _, r := range s.Results {
		fmt.Fprintf(w, "  %-8s %s\n", r.Mechanism, r.Property)
	}
}
