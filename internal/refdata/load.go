package refdata

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"solidarity"
	"solidarity/internal/eurostat"
)

// Load reads population or GDP data from a file in either our provenance CSV format or
// one of Eurostat's formats (SDMX-CSV, SDMX 3.0 CSV, bulk TSV, JSON-stat; gzipped or
// not), telling them apart by content, so that users can pass either wherever a dataset
// is asked for. name locates errors and is recorded as the source.
func Load(name string, r io.Reader, opt eurostat.Options) (*solidarity.Dataset, error) {
	br, err := eurostat.Decompress(name, r)
	if err != nil {
		return nil, err
	}
	head, _ := br.Peek(4096)
	line, _, _ := bytes.Cut(head, []byte("\n"))
	first, _, _ := bytes.Cut(line, []byte(","))
	if strings.EqualFold(strings.Trim(strings.TrimSpace(string(first)), `"`), colCode) {
		return ParseCSV(name, br, opt)
	}
	return eurostat.Parse(name, br, opt)
}

// Import reads src (any format Load accepts), checks it and saves it in our provenance
// CSV format as outDir/<id>.csv, where id is the dataset's own id (for Eurostat files
// "<dataset>-<period>", e.g. nama_10_gdp-2024), which never equals a shipped id. An
// earlier import with the same id is replaced only when replace is true, so a partial
// download cannot silently take the place of a complete one. It returns the path
// written and the dataset as read from src.
//
// The file is written atomically (temporary file, fsync, rename): on any error, nothing
// in outDir changes. outDir is created if needed. Errors about src are *solidarity.Error
// of code EINVALID (ENOTFOUND when src does not exist); failures to write are returned
// as they come, which solidarity.ErrorCode reports as EINTERNAL. Before writing, Import reads its own output back and requires the
// same observations, so that what is saved is exactly what was checked.
func Import(src, outDir string, opt eurostat.Options, replace bool) (string, *solidarity.Dataset, error) {
	f, err := os.Open(src)
	if err != nil {
		code := solidarity.EINVALID
		if errors.Is(err, fs.ErrNotExist) {
			code = solidarity.ENOTFOUND
		}
		msg := err.Error()
		if pe, ok := errors.AsType[*fs.PathError](err); ok {
			msg = pe.Err.Error() // the path is in File already
		}
		return "", nil, &solidarity.Error{Code: code, File: src, Message: "cannot open: " + msg}
	}
	defer f.Close()
	d, err := Load(src, f, opt)
	if err != nil {
		return "", nil, err
	}
	if err := check(d); err != nil {
		return "", nil, solidarity.At(err, src)
	}
	period := d.Rows[0].Period
	if period == "" {
		return "", nil, &solidarity.Error{Code: solidarity.EINVALID, File: src, Field: periodColumn(d.Indicator),
			Message: "no reference period in the file: name one (Options.Period)"}
	}
	if err := markPartial(src, d, opt.Partial); err != nil {
		return "", nil, err
	}
	var buf bytes.Buffer
	if err := Write(&buf, d); err != nil {
		return "", nil, solidarity.At(err, src)
	}
	if _, shipped := Lookup(d.ID); shipped {
		return "", nil, &solidarity.Error{Code: solidarity.ECONFLICT, File: src,
			Message: fmt.Sprintf("dataset id %q is a shipped dataset; rename the file to import it", d.ID)}
	}
	base := d.ID + ".csv"
	back, err := ParseCSV(base, bytes.NewReader(buf.Bytes()), eurostat.Options{})
	if err != nil {
		return "", nil, fmt.Errorf("refdata: import of %s does not read back: %w", src, err)
	}
	if diff := Diff(d, back); diff != "" {
		return "", nil, fmt.Errorf("refdata: import of %s does not read back identically: %s", src, diff)
	}
	// Only now, with everything checked, may the directory be created: the CLI's default
	// data directory does not exist before the first import.
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return "", nil, fmt.Errorf("refdata: import of %s: %w", src, err)
	}
	path := filepath.Join(outDir, base)
	if _, err := os.Stat(path); err == nil && !replace {
		return "", nil, &solidarity.Error{Code: solidarity.ECONFLICT, File: src,
			Message: fmt.Sprintf("%s exists already; pass --replace to replace it", path)}
	}
	if err := writeAtomic(path, buf.Bytes()); err != nil {
		return "", nil, fmt.Errorf("refdata: import of %s: saving %s: %w", src, path, err)
	}
	return path, d, nil
}

// markPartial refuses a dataset without a figure for every participating state (Art.
// 66 computes the key over all of them), unless partial: a download cut at a line end
// is a valid file of fewer states (issue 12: 4 of 27 imported with exit 0). A partial
// dataset accepted gets a row without a figure for each state the file does not name,
// so that the saved file says which states it lacks, its caveat names them wherever it
// is used, and `data list` shows it as partial (Partial).
func markPartial(src string, d *solidarity.Dataset, partial bool) error {
	missing := d.Missing(solidarity.PartIV())
	if len(missing) == 0 {
		return nil
	}
	if !partial {
		return &solidarity.Error{Code: solidarity.EINVALID, File: src,
			Message: fmt.Sprintf("no figure for %d of the %d participating states (%v): a cut-off download, or the wrong filter? Pass --partial to import it anyway, marked partial",
				len(missing), len(solidarity.PartIV()), missing)}
	}
	first := d.Rows[0]
	for _, m := range solidarity.MemberStates() {
		if _, ok := d.Get(m); !ok {
			d.Rows = append(d.Rows, solidarity.Observation{State: m, Period: first.Period, Vintage: first.Vintage,
				Source: first.Source, Note: partialNote})
		}
	}
	slices.SortFunc(d.Rows, func(a, b solidarity.Observation) int { return a.State.Index() - b.State.Index() })
	d.Caveat = eurostat.Caveat(d.Rows)
	return nil
}

// partialNote is the note of a state's row added by a partial import.
const partialNote = "partial import: the file has no row for this state"

// Partial reports whether d lacks a figure for a participating state (solidarity.PartIV),
// as a dataset imported with --partial does.
func Partial(d *solidarity.Dataset) bool { return len(d.Missing(solidarity.PartIV())) > 0 }

// writeAtomic replaces path with data so that a reader sees the old file or the new
// one, never a part, and so that the new one survives a crash once writeAtomic returns.
func writeAtomic(path string, data []byte) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return err
	}
	if err = tmp.Chmod(0o644); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return err
	}
	if err = tmp.Close(); err != nil {
		return err
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename itself is durable only once the directory is synced.
	d, err := os.Open(dir)
	if err != nil {
		return nil // the file is in place; only durability is weaker
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}

// Diff describes the first difference between the observations of two datasets, or
// returns "" when they hold the same figures with the same provenance. It is how a
// saved import is checked against what was read.
func Diff(a, b *solidarity.Dataset) string {
	if a.Indicator != b.Indicator {
		return fmt.Sprintf("indicator %q, then %q", a.Indicator, b.Indicator)
	}
	if len(a.Rows) != len(b.Rows) {
		return fmt.Sprintf("%d rows, then %d", len(a.Rows), len(b.Rows))
	}
	for i := range a.Rows {
		x, y := a.Rows[i], b.Rows[i]
		switch {
		case x.State != y.State:
			return fmt.Sprintf("row %d: state %s, then %s", i+1, x.State, y.State)
		case (x.Value == nil) != (y.Value == nil) || x.Value != nil && x.Value.Cmp(y.Value) != 0:
			return fmt.Sprintf("%s: value %s, then %s", x.State, ratString(x.Value), ratString(y.Value))
		case x.Period != y.Period:
			return fmt.Sprintf("%s: period %q, then %q", x.State, x.Period, y.Period)
		case x.Flag != y.Flag:
			return fmt.Sprintf("%s: flag %q, then %q", x.State, x.Flag, y.Flag)
		case x.Vintage != y.Vintage:
			return fmt.Sprintf("%s: vintage %q, then %q", x.State, x.Vintage, y.Vintage)
		case x.Source != y.Source:
			return fmt.Sprintf("%s: source %q, then %q", x.State, x.Source, y.Source)
		case x.Note != y.Note:
			return fmt.Sprintf("%s: note %q, then %q", x.State, x.Note, y.Note)
		}
	}
	return ""
}

func ratString(r *big.Rat) string {
	if r == nil {
		return "missing"
	}
	return r.RatString()
}
