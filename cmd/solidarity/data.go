package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/eurostat"
	"solidarity/internal/refdata"
)

const dataHelp = `Usage: solidarity data list
       solidarity data show REF
       solidarity data import [--out DIR] [--period P] [--partial] FILE

Reference data for the key (Art. 66): population on 1 January and GDP at current market
prices (million EUR). Every figure keeps its source and vintage; a missing figure is
shown as missing, never invented.

  list     the shipped datasets and those imported into --data-dir
  show     every figure of one dataset with its provenance
  import   read a Eurostat download and save it into --out (default: the data directory)
           so that --population/--gdp and cycle files can use it by id. Accepts SDMX-CSV
           (SDMX 2.1 API), SDMX 3.0 CSV (with or without labels), the bulk TSV (plain or
           gzipped) and JSON-stat 2.0, for demo_pjan / demo_gind (JAN) and nama_10_gdp
           (CP_MEUR, B1GQ). A broken file is rejected with its line and nothing is saved.
           The dataset is saved as <dataset>-<period>.csv (e.g. nama_10_gdp-2024) and used
           by that id; an earlier import of the same id is kept unless --replace.
           A dataset without a figure for every participating state (a download cut
           short reads as a valid file of fewer states) is refused unless --partial;
           then it is saved marked partial, and the states it lacks are named.
`

func defaultDataDir() string {
	if d := os.Getenv("SOLIDARITY_DATA_DIR"); d != "" {
		return d
	}
	return "solidarity-data"
}

func runData(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stdout, dataHelp)
		if len(args) == 0 {
			return errUsage
		}
		return nil
	}
	switch args[0] {
	case "list":
		return runDataList(args[1:], stdout, stderr)
	case "show":
		return runDataShow(args[1:], stdout, stderr)
	case "import":
		return runDataImport(args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, dataHelp)
	return solidarity.Errorf(solidarity.EINVALID, "unknown data command %q", args[0])
}

// runDataList lists the shipped datasets and those imported into --data-dir.
func runDataList(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("data list", dataHelp, stdout, stderr)
	dir := fs.String("data-dir", defaultDataDir(), "`directory` of imported datasets")
	if err := parse(fs, args, false); err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tINDICATOR\tWITH FIGURE\tMISSING\tCOMPLETE\tVINTAGE")
	list := refdata.Builtin()
	matches, _ := filepath.Glob(filepath.Join(*dir, "*.csv"))
	cat := &catalog.Files{DataDir: *dir}
	for _, m := range matches {
		if d, err := cat.Dataset(m); err == nil {
			list = append(list, d)
		}
	}
	for _, d := range list {
		missing := len(d.Missing(solidarity.MemberStates()))
		complete := "yes"
		if refdata.Partial(d) {
			complete = "PARTIAL"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\t%s\n", d.ID, d.Indicator, 27-missing, missing, complete, d.Vintage)
	}
	return tw.Flush()
}

// runDataShow prints every figure of one dataset with its provenance.
func runDataShow(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("data show", dataHelp, stdout, stderr)
	dir := fs.String("data-dir", defaultDataDir(), "`directory` of imported datasets")
	if err := parse(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return solidarity.Errorf(solidarity.EINVALID, "data show takes one dataset id or file")
	}
	d, err := (&catalog.Files{DataDir: *dir}).Dataset(fs.Arg(0))
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %s (%s)\nVintage: %s\nSource: %s\n", d.ID, d.Title, d.Indicator.Unit(), d.Vintage, d.Source)
	if d.Caveat != "" {
		fmt.Fprintf(stdout, "Caveat: %s\n", d.Caveat)
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "\nSTATE\tVALUE\tPERIOD\tFLAG\tVINTAGE / NOTE")
	for _, o := range d.Rows {
		v := "MISSING"
		if o.Value != nil {
			v = o.Value.FloatString(1)
			if o.Value.IsInt() {
				v = o.Value.RatString()
			}
		}
		note := o.Vintage
		if o.Note != "" && o.Note != o.Vintage {
			note += "; " + o.Note
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%.100s\n", o.State, v, o.Period, o.Flag, note)
	}
	return tw.Flush()
}

// runDataImport reads a Eurostat download and saves it as a dataset.
func runDataImport(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("data import", dataHelp, stdout, stderr)
	out := fs.String("out", defaultDataDir(), "`directory` to save the dataset into")
	period := fs.String("period", "", "reference `period` to take (default: the latest with data)")
	replace := fs.Bool("replace", false, "replace an earlier import of the same dataset and period")
	partial := fs.Bool("partial", false, "accept a dataset without a figure for every participating state, marked partial")
	if err := parse(fs, args, true); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return solidarity.Errorf(solidarity.EINVALID, "data import takes one file")
	}
	path, d, err := refdata.Import(fs.Arg(0), *out, eurostat.Options{Period: *period, Partial: *partial}, *replace)
	if err != nil {
		return err
	}
	missing := d.Missing(solidarity.MemberStates())
	id := strings.TrimSuffix(filepath.Base(path), ".csv")
	fmt.Fprintf(stdout, "imported %s (%s) as %q: %d Member States with a figure, into %s\n", d.Indicator, d.Vintage, id, 27-len(missing), path)
	if len(missing) > 0 {
		fmt.Fprintf(stdout, "no figure for: %v (a key over these states will refuse to compute rather than guess)\n", missing)
	}
	if refdata.Partial(d) {
		fmt.Fprintf(stdout, "marked PARTIAL: %d of %d participating states have a figure\n",
			len(solidarity.PartIV())-len(d.Missing(solidarity.PartIV())), len(solidarity.PartIV()))
	}
	fmt.Fprintf(stdout, "use it with --%s %s\n", d.Indicator, id)
	return nil
}
