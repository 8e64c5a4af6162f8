package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"solidarity"
	"solidarity/match"
	"solidarity/match/hias"
	"solidarity/match/online"
)

const matchReplayHelp = `Usage: solidarity match replay (FILE | --hias DIR --model A|B)
                              [--method greedy,potentials,discord,exact] [--batch 7d]
                              [--seeds 20] [--batches 52] [--samples 20] [--balance]
                              [--history FILE] [--time-limit 60s] [--format table|json]

Replays a year batch by batch: each batch (the families arriving in --batch days) is
placed before the next is known, against what is left of the annual capacities, by
each method; then the whole year is solved knowing every arrival (the hindsight
optimum, with its proof: status, bound, gap) and each method is measured against it
(docs/match-online.md).

  greedy      each batch at its own optimum, as if none followed (Ahani et al.'s baseline)
  potentials  Ahani, Gölz, Procaccia, Teytelboym & Trapp (Operations Research 2024):
              capacity prices averaged over --samples futures drawn from the earlier batches
  discord     Bansak & Paulson (Operations Research 2024): the batch where most sampled
              futures' placements put it (minimum discord)
  exact       this project's: the exact batch optimum at each future's own prices, the
              batch where most of those optima agree

A FILE whose families carry arrival dates is replayed once, with its capacity
revisions; a FILE without dates and the HIAS FY2017 data (329 cases, no dates) are
replayed in --seeds random orders of --batches batches. --history is a problem file of
an earlier year (same place ids) the methods may learn from; the year being replayed is
never learnt from. --balance keeps each state's (HIAS: each affiliate's) intake at or
above its pro-rata share of what is placed, less one family, at every batch.

Exit status: 0 done, 2 a bad file or flag, 1 internal error.
`

// replayFlags are match replay's flags once checked.
type replayFlags struct {
	methods         []online.Method
	batch           time.Duration
	seeds, batches  int
	format, history string
	cfg             *online.Config
}

func runMatchReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("match replay", matchReplayHelp, stdout, stderr)
	methods := fs.String("method", "greedy,potentials,discord,exact", "comma-separated `methods`")
	batch := fs.String("batch", "7d", "batch `length` in days (7d) for a file with arrival dates")
	seeds := fs.Int("seeds", 20, "random `orders` replayed where arrival dates are not known (1 to 1 000)")
	batches := fs.Int("batches", 52, "`batches` of a year replayed in random orders (1 to 3 660)")
	samples := fs.Int("samples", 20, "sampled `futures` per batch (0 to 1 000)")
	balance := fs.Bool("balance", false, "keep each state's intake at or above its pro-rata share less one family at every batch")
	history := fs.String("history", "", "problem `file` of an earlier year to learn from")
	limit := fs.Duration("time-limit", 60*time.Second, "time `limit` of the hindsight solve (0: until proven)")
	format := fs.String("format", "table", "output `format`: table or json")
	hiasDir := fs.String("hias", "", "HIAS FY2017 data `directory` (instead of FILE)")
	which := fs.String("model", "A", "HIAS `model`: A or B")
	file, err := parseWithFile(fs, args)
	if err != nil {
		return err
	}
	rf := &replayFlags{seeds: *seeds, batches: *batches, format: *format, history: *history, cfg: online.DefaultConfig()}
	rf.cfg.Samples, rf.cfg.Balance, rf.cfg.HindsightTimeLimit = *samples, *balance, *limit
	if err := rf.check(*methods, *batch, *samples); err != nil {
		return err
	}
	years, err := replayYears(file, *hiasDir, *which, rf)
	if err != nil {
		return err
	}
	rep, err := online.Replay(ctx, years, rf.methods, rf.cfg)
	if err != nil {
		return fmt.Errorf("replay: %w", err)
	}
	if rf.format == "json" {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	writeReplayTable(stdout, rep)
	return nil
}

func (rf *replayFlags) check(methods, batch string, samples int) error {
	bad := func(field, format string, args ...any) error {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: fmt.Sprintf(format, args...)}
	}
	if err := checkFormat(rf.format); err != nil {
		return err
	}
	switch {
	case rf.seeds < 1 || rf.seeds > 1000:
		return bad("--seeds", "want 1 to 1 000 orders")
	case rf.batches < 1 || rf.batches > 3660:
		return bad("--batches", "want 1 to 3 660 batches")
	case samples < 0 || samples > 1000:
		return bad("--samples", "want 0 to 1 000 futures")
	case rf.cfg.HindsightTimeLimit < 0:
		return bad("--time-limit", "negative time limit")
	}
	for name := range strings.SplitSeq(methods, ",") {
		m, err := online.MethodByName(strings.TrimSpace(name))
		if err != nil {
			return bad("--method", "%v", err)
		}
		rf.methods = append(rf.methods, m)
	}
	days, ok := strings.CutSuffix(batch, "d")
	n, err := strconv.Atoi(days)
	if !ok || err != nil || n < 1 || n > 366 {
		return bad("--batch", "batch %q: want a number of days, 1d to 366d", batch)
	}
	rf.batch = time.Duration(n) * 24 * time.Hour
	return nil
}

// replayYears reads the year to replay: a file's dated year, or seeded orders.
func replayYears(file, hiasDir, which string, rf *replayFlags) ([]*online.Year, error) {
	var y *online.Year
	if hiasDir != "" {
		d, err := hias.Read(hiasDir)
		if err != nil {
			return nil, solidarity.At(err, hiasDir)
		}
		m, err := d.Model(which)
		if err != nil {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--model", Message: err.Error()}
		}
		// The affiliates are the localities balance is about, each its own share.
		y = &online.Year{Model: m, State: make([]int, len(m.Places)), Pledge: make([]float64, len(m.Places))}
		for pl, p := range m.Places {
			y.State[pl] = pl
			for _, c := range p.Cap {
				y.Pledge[pl] += float64(c)
			}
		}
	} else {
		pr, err := readProblem(file)
		if err != nil {
			return nil, err
		}
		var idx *match.Index
		if y, idx, err = online.FromProblem(pr, rf.batch); err != nil {
			return nil, solidarity.At(err, file)
		}
		if rf.history != "" {
			if y.History, err = historyOf(rf.history, idx); err != nil {
				return nil, err
			}
		}
		if y.Batch != nil {
			return []*online.Year{y}, nil
		}
	}
	years := make([]*online.Year, rf.seeds)
	for s := range years {
		years[s] = y.Shuffled(rf.batches, uint64(s+1))
	}
	return years, nil
}

func readProblem(file string) (*match.Problem, error) {
	fh, err := os.Open(file)
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: file, Message: "cannot read the problem file"}
	}
	defer fh.Close()
	return match.ParseProblem(file, fh)
}

// historyOf reads an earlier year's families, their arcs mapped to the places of
// idx by id (places the year does not have are dropped).
func historyOf(file string, idx *match.Index) ([]match.Family, error) {
	pr, err := readProblem(file)
	if err != nil {
		return nil, err
	}
	hm, hidx, err := pr.Compile()
	if err != nil {
		return nil, solidarity.At(err, file)
	}
	if len(hm.Families) > 0 && hm.Dims != len(idx.Dimensions) {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: file, Field: "dimensions", Message: fmt.Sprintf("%d dimensions, the year has %d", hm.Dims, len(idx.Dimensions))}
	}
	at := map[string]int{}
	for pl, id := range idx.Places {
		at[id] = pl
	}
	out := make([]match.Family, 0, len(hm.Families))
	for _, f := range hm.Families {
		nf := match.Family{Need: f.Need}
		for _, a := range f.Arcs {
			if pl, ok := at[hidx.Places[a.Place]]; ok {
				nf.Arcs = append(nf.Arcs, match.Arc{Place: pl, Score: a.Score})
			}
		}
		slicesSortArcs(nf.Arcs)
		out = append(out, nf)
	}
	return out, nil
}

func writeReplayTable(w io.Writer, rep *online.Report) {
	h := rep.Hindsight
	fmt.Fprintf(w, "%d families in %d batches, %d run(s)\n", rep.Families, rep.Batches, rep.Runs)
	fmt.Fprintf(w, "hindsight optimum: %s, value %s, bound %s, gap %.2g, %d placed, %v\n\n",
		h.Status, fmtScore(h.Value), fmtScore(h.Bound), h.Gap, h.Placed, h.Elapsed.Round(time.Millisecond))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "method\tmean ratio\tworst\tvs bound\tmean value\tbelow share\tabove share\ttime\t")
	for _, m := range rep.Methods {
		fmt.Fprintf(tw, "%s\t%.2f %%\t%.2f %%\t%.2f %%\t%s\t%.2f\t%.2f\t%v\t\n", m.Name, 100*m.MeanRatio, 100*m.MinRatio,
			100*m.BoundRatio, fmtScore(m.MeanValue), m.MaxBelow, m.MaxAbove, m.Elapsed.Round(time.Millisecond))
	}
	tw.Flush()
	for _, m := range rep.Methods {
		if m.FreeRatio > 0 {
			fmt.Fprintf(w, "balance costs %s %.2f points (%.2f %% unbalanced); batches with the floors only: %d, unbalanced: %d\n",
				m.Name, 100*(m.FreeRatio-m.MeanRatio), 100*m.FreeRatio, m.FloorsOnly, m.Unbalanced)
		}
	}
	fmt.Fprintln(w, "\nratio: a method's value over the hindsight optimum's; below/above share: the largest distance of a state's")
	fmt.Fprintln(w, "intake from its pro-rata share of what was placed, at any batch, in families of the largest size")
}

func slicesSortArcs(as []match.Arc) {
	slices.SortFunc(as, func(a, b match.Arc) int { return cmp.Compare(a.Place, b.Place) })
}
