package scenariofile

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/eurostat"
	"solidarity/simulation"
)

// The data files are CSV with a header row; lines starting with # are comments (the
// shipped files say there what they hold and where it was read). Their columns:
//
//	arrivals     month,state,nationality,mean,estimated,certainty,source
//	commitments  state,value,certainty,source[,note]
//	key_percent  state,percent,certainty,source
//	observed     date,state,from,value,percent,certainty,source
//	published    (as observed)
//	recognition  nationality,rate,year,certainty,source[,note]
//
// Bounds, checked before a row is used: 8 MiB and 200 000 rows a file, 4 000 bytes a
// field. The shipped files are under 40 KB.
const (
	maxCSVBytes = 8 << 20
	maxCSVRows  = 200_000
	maxField    = 4000
	// maxArrivalFiles and maxArrivalRows bound a scenario's arrivals over all its
	// files: the same file named a thousand times once cost 1 GB.
	maxArrivalFiles = 8
	maxArrivalRows  = 200_000
)

var eurostatOptions = eurostat.Options{}

// readFS reads a relative path from fsys, bounded by max bytes. A path that leaves
// the directory (.., an absolute path) is refused: a scenario names files beside it.
func readFS(fsys fs.FS, name string, max int64) ([]byte, error) {
	clean := path.Clean(strings.ReplaceAll(name, `\`, "/"))
	if !fs.ValidPath(clean) {
		return nil, fmt.Errorf("%q is not a path inside the scenario's directory", name)
	}
	f, err := fsys.Open(clean)
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", name, errors.Unwrap(err))
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s is larger than %d bytes", name, max)
	}
	return b, nil
}

// table is a CSV file being read: its rows by column name, with the line of each.
type table struct {
	file string
	cols map[string]int
	r    *csv.Reader
	rec  []string
	rows int
}

func openTable(fsys fs.FS, name string, required, optional []string) (*table, error) {
	src, err := readFS(fsys, name, maxCSVBytes)
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
	}
	r := csv.NewReader(bytes.NewReader(src))
	r.Comment = '#'
	r.ReuseRecord = true
	t := &table{file: name, r: r, cols: map[string]int{}}
	head, err := r.Read()
	if err != nil {
		return nil, t.csvError(err)
	}
	for i, h := range head {
		h = strings.TrimSpace(h)
		if !slices.Contains(required, h) && !slices.Contains(optional, h) {
			return nil, t.errorf(h, "unknown column %q (want %s)", h, strings.Join(append(required, optional...), ","))
		}
		t.cols[h] = i
	}
	for _, c := range required {
		if _, ok := t.cols[c]; !ok {
			return nil, t.errorf(c, "the column %q is missing (want %s)", c, strings.Join(required, ","))
		}
	}
	return t, nil
}

func (t *table) csvError(err error) error {
	e := &solidarity.Error{Code: solidarity.EINVALID, File: t.file, Message: err.Error()}
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		e.Line, e.Message = pe.Line, pe.Err.Error()
	}
	return e
}

func (t *table) line() int {
	line, _ := t.r.FieldPos(0)
	return line
}

func (t *table) errorf(col, format string, args ...any) error {
	line := 1
	if t.rec != nil {
		line = t.line()
	}
	return &solidarity.Error{Code: solidarity.EINVALID, File: t.file, Line: line, Field: col, Message: fmt.Sprintf(format, args...)}
}

// each calls fn for every row, stopping at the first error.
func (t *table) each(fn func() error) error {
	for {
		ok, err := t.next()
		if err != nil || !ok {
			return err
		}
		if err := fn(); err != nil {
			return err
		}
	}
}

// next reads the next row; false at the end.
func (t *table) next() (bool, error) {
	rec, err := t.r.Read()
	if err == io.EOF {
		return false, nil
	}
	if err != nil {
		return false, t.csvError(err)
	}
	t.rec = rec
	t.rows++
	if t.rows > maxCSVRows {
		return false, t.errorf("", "more than %d rows", maxCSVRows)
	}
	for _, f := range rec {
		if len(f) > maxField {
			return false, t.errorf("", "a field longer than %d bytes", maxField)
		}
	}
	return true, nil
}

func (t *table) get(col string) string {
	i, ok := t.cols[col]
	if !ok || i >= len(t.rec) {
		return ""
	}
	return strings.TrimSpace(t.rec[i])
}

func (t *table) float(col string, lo, hi float64) (float64, error) {
	s := t.get(col)
	if len(s) > 32 {
		return 0, t.errorf(col, "a number of more than 32 characters")
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || v < lo || v > hi {
		return 0, t.errorf(col, "%q: want a number from %v to %v", s, lo, hi)
	}
	return v, nil
}

func (t *table) fact() (solidarity.Fact, error) {
	f := solidarity.Fact{Source: t.get("source"), Certainty: solidarity.Certainty(t.get("certainty")), Note: t.get("note")}
	if msg := checkFact(f); msg != "" {
		return f, t.errorf("certainty", "%s", msg)
	}
	return f, nil
}

func (t *table) state(col string, empty bool) (simulation.Code, error) {
	s := t.get(col)
	if s == "" && empty {
		return "", nil
	}
	c := simulation.Code(strings.ToUpper(s))
	if !simulation.ValidCode(c) {
		return "", t.errorf(col, "unknown state %q", s)
	}
	return c, nil
}

// data reads the files a layer names. A layer's file replaces the base's data of
// that kind; paths are relative to the layer's directory (the shipped data for a
// file read without one).
func (d *draft) data(l *layer) error {
	fsys := l.dir
	if fsys == nil {
		fsys = shipped
	}
	dd := l.f.Data
	if l.f.Start != nil {
		d.arrivalsFrom = 0 // a period of its own: the base's month mapping no longer holds
	}
	if len(dd.Arrivals) > maxArrivalFiles {
		return l.errorf("data.arrivals", "%d files; at most %d", len(dd.Arrivals), maxArrivalFiles)
	}
	for i, name := range dd.Arrivals {
		if slices.Contains(dd.Arrivals[:i], name) {
			return l.errorf("data.arrivals", "%s named twice: its arrivals would count twice", name)
		}
	}
	if dd.ArrivalsFrom != "" {
		ym, err := parseMonth(dd.ArrivalsFrom)
		if err != nil {
			return l.errorf("data.arrivals_from", "%v", err)
		}
		d.arrivalsFrom = ym
	}
	if dd.Arrivals != nil || dd.ArrivalsEurostat != "" {
		d.arrivals = nil
		for _, name := range dd.Arrivals {
			if err := d.readArrivals(fsys, name); err != nil {
				return err
			}
		}
	}
	if dd.ArrivalsEurostat != "" {
		if l.dir == nil {
			return l.errorf("data.arrivals_eurostat", "here no file is read: a Eurostat download is named in a scenario file on disk")
		}
		if err := d.readEurostat(l.dir, dd.ArrivalsEurostat); err != nil {
			return err
		}
	}
	var err error
	if dd.Commitments != "" {
		if d.s.Commitments, err = readByState(fsys, dd.Commitments, "value", 1e7); err != nil {
			return err
		}
	}
	if dd.KeyPercent != "" {
		if d.s.KeyPercent, err = readByState(fsys, dd.KeyPercent, "percent", 100); err != nil {
			return err
		}
	}
	if dd.Observed != "" {
		if d.s.Observed, err = readObserved(fsys, dd.Observed); err != nil {
			return err
		}
	}
	if dd.Published != "" {
		if d.s.Published, err = readObserved(fsys, dd.Published); err != nil {
			return err
		}
	}
	if dd.Recognition != "" {
		if err := d.readRecognition(fsys, dd.Recognition); err != nil {
			return err
		}
	}
	return nil
}

// pendingArrival is an arrival row with its calendar month; rows become months of
// the period in finish, once the period is settled by every layer.
type pendingArrival struct {
	ym  int // year*12 + month-1
	row simulation.Arrival
}

func parseMonth(s string) (int, error) {
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return 0, fmt.Errorf("month %q: want YYYY-MM", s)
	}
	return t.Year()*12 + int(t.Month()) - 1, nil
}

// arrival checks one arrival row, from a file or written in the scenario.
func (d *draft) arrival(month, state, nat string, mean float64, est bool, fact solidarity.Fact) (*pendingArrival, error) {
	ym, err := parseMonth(month)
	if err != nil {
		return nil, err
	}
	c := simulation.Code(strings.ToUpper(state))
	if !simulation.ValidCode(c) {
		return nil, fmt.Errorf("unknown state %q", state)
	}
	if len(nat) > 100 {
		return nil, fmt.Errorf("a nationality of more than 100 bytes")
	}
	if math.IsNaN(mean) || mean < 0 || mean > 1e8 {
		return nil, fmt.Errorf("mean %v: want 0 to 100 000 000", mean)
	}
	if msg := checkFact(fact); msg != "" {
		return nil, errors.New(msg)
	}
	return &pendingArrival{ym: ym, row: simulation.Arrival{State: c, Nationality: nat, Mean: mean, Estimated: est, Fact: fact}}, nil
}

func (d *draft) readArrivals(fsys fs.FS, name string) error {
	t, err := openTable(fsys, name, []string{"month", "state", "mean"}, []string{"nationality", "estimated", "certainty", "source", "note"})
	if err != nil {
		return err
	}
	return t.each(func() error {
		mean, err := t.float("mean", 0, 1e8)
		if err != nil {
			return err
		}
		est := false
		if s := t.get("estimated"); s != "" {
			if est, err = strconv.ParseBool(s); err != nil {
				return t.errorf("estimated", "%q: want true or false", s)
			}
		}
		fact, err := t.fact()
		if err != nil {
			return err
		}
		a, err := d.arrival(t.get("month"), t.get("state"), t.get("nationality"), mean, est, fact)
		if err != nil {
			return t.errorf("", "%v", err)
		}
		if len(d.arrivals) >= maxArrivalRows {
			return t.errorf("", "more than %d arrival rows in the scenario's files together", maxArrivalRows)
		}
		d.arrivals = append(d.arrivals, *a)
		return nil
	})
}

func readByState(fsys fs.FS, name, col string, hi float64) (map[simulation.Code]simulation.Number, error) {
	t, err := openTable(fsys, name, []string{"state", col}, []string{"certainty", "source", "note"})
	if err != nil {
		return nil, err
	}
	out := map[simulation.Code]simulation.Number{}
	err = t.each(func() error {
		c, err := t.state("state", false)
		if err != nil {
			return err
		}
		if _, dup := out[c]; dup {
			return t.errorf("state", "%s twice", c)
		}
		v, err := t.float(col, 0, hi)
		if err != nil {
			return err
		}
		fact, err := t.fact()
		if err != nil {
			return err
		}
		out[c] = simulation.Number{Value: v, Known: known(fact), Fact: fact, Name: strings.TrimSuffix(path.Base(name), ".csv") + "." + string(c)}
		return nil
	})
	return out, err
}

func readObserved(fsys fs.FS, name string) ([]simulation.Observation, error) {
	t, err := openTable(fsys, name, []string{"date", "state", "from", "value"}, []string{"percent", "certainty", "source", "note"})
	if err != nil {
		return nil, err
	}
	var out []simulation.Observation
	err = t.each(func() error {
		date, err := time.Parse(time.DateOnly, t.get("date"))
		if err != nil {
			return t.errorf("date", "%q: want YYYY-MM-DD", t.get("date"))
		}
		st, err := t.state("state", true)
		if err != nil {
			return err
		}
		from, err := t.state("from", true)
		if err != nil {
			return err
		}
		v, err := t.float("value", 0, 1e8)
		if err != nil {
			return err
		}
		if v != math.Trunc(v) {
			return t.errorf("value", "%v: relocations are whole persons", v)
		}
		pct := t.get("percent")
		if pct != "" {
			if p, err := strconv.ParseFloat(pct, 64); err != nil || p < 0 || p > 1000 || len(pct) > 12 {
				return t.errorf("percent", "%q: want a percentage as printed, e.g. 20.5", pct)
			}
		}
		fact, err := t.fact()
		if err != nil {
			return err
		}
		out = append(out, simulation.Observation{Date: date, State: st, From: from, Value: int64(v), Percent: pct, Fact: fact})
		return nil
	})
	return out, err
}

func (d *draft) readRecognition(fsys fs.FS, name string) error {
	t, err := openTable(fsys, name, []string{"nationality", "rate"}, []string{"year", "certainty", "source", "note"})
	if err != nil {
		return err
	}
	return t.each(func() error {
		nat := t.get("nationality")
		if nat == "" || len(nat) > 100 {
			return t.errorf("nationality", "a nationality of 1 to 100 bytes")
		}
		v, err := t.float("rate", 0, 1)
		if err != nil {
			return err
		}
		fact, err := t.fact()
		if err != nil {
			return err
		}
		d.s.Ops.Recognition[nat] = simulation.Number{Value: v, Known: known(fact), Fact: fact, Name: "operations.recognition." + nat}
		return nil
	})
}
