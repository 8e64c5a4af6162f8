package refdata

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/bound"
	"solidarity/internal/eurostat"
)

// Columns of the provenance CSV format. A file has code, country, one value column
// (population or gdp_meur), vintage and source; the rest are optional.
const (
	colCode       = "code"
	colCountry    = "country"
	colPopulation = "population"     // persons
	colGDP        = "gdp_meur"       // million EUR
	colDate       = "reference_date" // population: YYYY-MM-DD
	colYear       = "reference_year" // GDP: YYYY
	colFlag       = "flag"           // Eurostat observation flag, kept from imports
	colNote       = "note"
	colVintage    = "vintage"
	colSource     = "source"
	// A GDP figure converted from national currency keeps the original and the rate.
	colNational = "gdp_national_currency_million"
	colCurrency = "currency"
	colRate     = "national_per_eur"
)

func valueColumn(ind solidarity.Indicator) string {
	if ind == solidarity.Population {
		return colPopulation
	}
	return colGDP
}

func periodColumn(ind solidarity.Indicator) string {
	if ind == solidarity.Population {
		return colDate
	}
	return colYear
}

var (
	yearRE = regexp.MustCompile(`^[0-9]{4}$`)
	dateRE = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	flagRE = regexp.MustCompile(`^[a-z]{1,8}$`)
)

// validPeriod reports whether p is a well-formed reference period for ind: a date for
// population (counted on a given day), a year for GDP. Import builds file names from it.
func validPeriod(ind solidarity.Indicator, p string) bool {
	if ind == solidarity.Population {
		if !dateRE.MatchString(p) {
			return false
		}
		_, err := time.Parse("2006-01-02", p)
		return err == nil
	}
	return yearRE.MatchString(p)
}

// ParseCSV reads a file in solidarity's provenance CSV format: the shipped reference
// files and what Import and Write produce. The header decides the indicator: a
// population column makes it population, gdp_meur GDP.
//
// An empty figure is a missing one (Value nil); in a file without a note column its
// vintage text, which says why it is missing, becomes the Note. Columns the format does
// not define are kept in Note as "name=value". Rows of Eurostat aggregates (EU27_2020,
// EA20, ...) are skipped. When the file has no period column, every row gets
// opt.Period; when it has one, every row must hold the same period, and opt.Period, if
// given, must match it.
//
// Errors are *solidarity.Error of code EINVALID with the file, the 1-based line and the
// column name.
func ParseCSV(name string, r io.Reader, opt eurostat.Options) (*solidarity.Dataset, error) {
	br, err := eurostat.Decompress(name, r)
	if err != nil {
		return nil, err
	}
	cr := csv.NewReader(bound.CSVReader(name, br, ',', eurostat.Limits))
	cr.FieldsPerRecord = -1 // ragged rows get our own error, naming the line
	record, err := cr.Read()
	if err == io.EOF {
		return nil, csvFail(name, 1, "", "empty file")
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	h, err := readHeader(name, record)
	if err != nil {
		return nil, err
	}
	p := &csvRows{csvHeader: h, cr: cr, seen: make(map[solidarity.MemberState]int)}
	if opt.Period != "" {
		p.want = eurostat.Period(h.ind, opt.Period)
		if !validPeriod(h.ind, p.want) {
			return nil, h.errorAt(0, h.periodCol, "period %q is not a %s", opt.Period, periodKind(h.ind))
		}
	}
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		if err := p.row(rec); err != nil {
			return nil, err
		}
	}
	if len(p.rows) == 0 {
		return nil, h.errorAt(0, "", "no rows for any Member State")
	}
	if p.values == 0 {
		return nil, h.errorAt(0, h.valueCol, "no figure for any Member State")
	}
	return dataset(name, h.ind, p.rows), nil
}

func csvFail(name string, line int, field, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: field, Message: fmt.Sprintf(format, args...)}
}

// csvHeader is the header of a provenance CSV file: where each column is, the
// indicator it decides, and the columns the format does not define (kept in Note).
type csvHeader struct {
	name                string
	names               []string // the columns in order, trimmed and lower-case
	cols                map[string]int
	ind                 solidarity.Indicator
	valueCol, periodCol string
	extras              []string
}

// readHeader checks the header: named, distinct columns, exactly one value column, and
// the columns every file has.
func readHeader(name string, header []string) (*csvHeader, error) {
	h := &csvHeader{name: name, names: header, cols: make(map[string]int)}
	for i, c := range header {
		c = strings.ToLower(strings.TrimSpace(c))
		if c == "" {
			return nil, h.errorAt(1, "", "column %d has no name", i+1)
		}
		if _, dup := h.cols[c]; dup {
			return nil, h.errorAt(1, c, "column %s appears twice", c)
		}
		h.cols[c] = i
		header[i] = c
	}
	switch {
	case h.has(colPopulation) && h.has(colGDP):
		return nil, h.errorAt(1, colGDP, "both population and gdp_meur columns: one file, one indicator")
	case h.has(colPopulation):
		h.ind = solidarity.Population
	case h.has(colGDP):
		h.ind = solidarity.GDP
	default:
		return nil, h.errorAt(1, "", "header has neither a population nor a gdp_meur column")
	}
	for _, c := range []string{colCode, colCountry, colVintage, colSource} {
		if !h.has(c) {
			return nil, h.errorAt(1, c, "missing column %s", c)
		}
	}
	h.valueCol, h.periodCol = valueColumn(h.ind), periodColumn(h.ind)
	known := []string{colCode, colCountry, h.valueCol, h.periodCol, colFlag, colNote, colVintage, colSource}
	if h.ind == solidarity.GDP {
		known = append(known, colNational, colCurrency, colRate)
	}
	for _, c := range header {
		if !slices.Contains(known, c) {
			h.extras = append(h.extras, c)
		}
	}
	return h, nil
}

func (h *csvHeader) has(c string) bool { _, ok := h.cols[c]; return ok }

func (h *csvHeader) errorAt(line int, field, format string, args ...any) error {
	return csvFail(h.name, line, field, format, args...)
}

// csvRows reads the rows after the header, one observation each, and holds what a row
// is checked against: the states and the period of the rows before it.
type csvRows struct {
	*csvHeader
	cr         *csv.Reader
	want       string // the period the caller asked for, if any
	rec        []string
	seen       map[solidarity.MemberState]int // line of each state's row
	period     string
	periodLine int
	values     int // rows with a figure
	rows       []solidarity.Observation
}

// get is the field of column c in the current row ("" if the file has no such column).
func (p *csvRows) get(c string) string {
	if i, ok := p.cols[c]; ok {
		return p.rec[i]
	}
	return ""
}

// at is the line of column c's field in the current row.
func (p *csvRows) at(c string) int { l, _ := p.cr.FieldPos(p.cols[c]); return l }

// row reads one row; a row of a Eurostat aggregate is skipped.
func (p *csvRows) row(rec []string) error {
	line, _ := p.cr.FieldPos(0)
	if len(rec) != len(p.names) {
		return p.errorAt(line, "", "row has %d fields, the header has %d", len(rec), len(p.names))
	}
	p.rec = rec
	code := strings.TrimSpace(p.get(colCode))
	state, ok := solidarity.ParseMemberState(code)
	if !ok {
		if eurostat.IsAggregate(code) {
			return nil // EU27_2020 and friends: context, not a Member State
		}
		return p.errorAt(p.at(colCode), colCode, "%q is not an EU Member State's code", code)
	}
	if first, dup := p.seen[state]; dup {
		return p.errorAt(p.at(colCode), colCode, "second row for %s (first at line %d)", state, first)
	}
	p.seen[state] = line

	o := solidarity.Observation{
		State:   state,
		Vintage: p.get(colVintage),
		Source:  p.get(colSource),
		Note:    p.get(colNote),
	}
	if err := p.value(&o); err != nil {
		return err
	}
	if err := p.periodOf(&o, line); err != nil {
		return err
	}
	o.Flag = strings.TrimSpace(p.get(colFlag))
	if o.Flag != "" && !flagRE.MatchString(o.Flag) {
		return p.errorAt(p.at(colFlag), colFlag, "flag %q is not an observation flag (lower-case letters)", o.Flag)
	}
	note, err := p.note(o)
	if err != nil {
		return err
	}
	o.Note = note
	p.rows = append(p.rows, o)
	return nil
}

// value reads the figure: empty is missing, a population is a whole number.
func (p *csvRows) value(o *solidarity.Observation) error {
	text := strings.TrimSpace(p.get(p.valueCol))
	if text == "" {
		return nil
	}
	v, err := eurostat.ParseDecimal(text)
	if err != nil {
		return p.errorAt(p.at(p.valueCol), p.valueCol, "%s %s", o.State, err.Error())
	}
	if p.ind == solidarity.Population && !v.IsInt() {
		return p.errorAt(p.at(p.valueCol), p.valueCol, "%s population %q is not a whole number", o.State, text)
	}
	o.Value = v
	p.values++
	return nil
}

// periodOf reads the period: the file's own column, the same on every row and the one
// asked for, or else the one asked for.
func (p *csvRows) periodOf(o *solidarity.Observation, line int) error {
	o.Period = p.want
	if !p.has(p.periodCol) {
		return nil
	}
	c := p.periodCol
	per := strings.TrimSpace(p.get(c))
	if per != "" && !validPeriod(p.ind, per) {
		return p.errorAt(p.at(c), c, "%q is not a %s", per, periodKind(p.ind))
	}
	if len(p.rows) == 0 {
		p.period, p.periodLine = per, line
	} else if per != p.period {
		return p.errorAt(p.at(c), c, "period %q differs from %q on line %d: one file, one period", per, p.period, p.periodLine)
	}
	if p.want != "" && per != p.want {
		return p.errorAt(p.at(c), c, "the file is for %q, not %q", per, p.want)
	}
	o.Period = per
	return nil
}

// note joins what the row says beside its figure: its note, a GDP figure's conversion
// from national currency, the columns the format does not define, and, for a missing
// figure in a file without notes, the vintage (which says why it is missing).
func (p *csvRows) note(o solidarity.Observation) (string, error) {
	var notes []string
	if o.Note != "" {
		notes = append(notes, o.Note)
	}
	if p.ind == solidarity.GDP {
		conv, field, err := conversion(p.get(colCurrency), p.get(colNational), p.get(colRate), o.Value, strings.TrimSpace(p.get(p.valueCol)))
		if err != nil {
			return "", p.errorAt(p.at(field), field, "%s %s", o.State, err.Error())
		}
		if conv != "" {
			notes = append(notes, conv)
		}
	}
	for _, c := range p.extras {
		if v := p.get(c); v != "" {
			notes = append(notes, c+"="+v)
		}
	}
	if o.Value == nil && !p.has(colNote) && o.Vintage != "" {
		notes = append(notes, o.Vintage)
	}
	return strings.Join(notes, "; "), nil
}

// dataset is the dataset of a file's rows, named and titled after the file.
func dataset(name string, ind solidarity.Indicator, rows []solidarity.Observation) *solidarity.Dataset {
	base := filepath.Base(name)
	d := &solidarity.Dataset{
		ID:        fileID(base),
		Indicator: ind,
		Vintage:   uniform(rows, func(o solidarity.Observation) string { return o.Vintage }),
		Source:    uniform(rows, func(o solidarity.Observation) string { return o.Source }),
		Rows:      rows,
	}
	if d.Source == "" {
		d.Source = "file " + base
	}
	d.Caveat = eurostat.Caveat(rows)
	switch ind {
	case solidarity.Population:
		d.Title = fmt.Sprintf("Population on %s (%s)", rows[0].Period, base)
	case solidarity.GDP:
		d.Title = fmt.Sprintf("GDP %s at current prices, million EUR (%s)", rows[0].Period, base)
	}
	return d
}

// conversion checks the national-currency columns of a GDP row and describes them.
// It returns the column at fault with an error.
func conversion(currency, national, rate string, value *big.Rat, valueText string) (string, string, error) {
	currency, national, rate = strings.TrimSpace(currency), strings.TrimSpace(national), strings.TrimSpace(rate)
	if currency == "" || strings.EqualFold(currency, "EUR") {
		return "", "", nil
	}
	n, err := eurostat.ParseDecimal(national)
	if err != nil {
		return "", colNational, err
	}
	q, err := eurostat.ParseDecimal(rate)
	if err != nil {
		return "", colRate, err
	}
	if q.Sign() == 0 {
		return "", colRate, errors.New("rate is zero")
	}
	// The euro figure must be the national one at the stated rate, to the precision it
	// is written with: a mismatch means a wrong rate or a transcription slip.
	if value != nil {
		decimals := 0
		if _, frac, ok := strings.Cut(valueText, "."); ok {
			decimals = len(frac)
		}
		tol := new(big.Rat).SetFrac(big.NewInt(5), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(decimals+1)), nil))
		diff := new(big.Rat).Sub(new(big.Rat).Quo(n, q), value)
		if diff.Abs(diff).Cmp(tol) > 0 {
			exact := new(big.Rat).Quo(n, q)
			return "", colGDP, fmt.Errorf("%s million EUR is not %s %s / %s = %s", valueText, national, currency, rate, exact.FloatString(decimals+1))
		}
	}
	return fmt.Sprintf("converted from %s million %s at %s %s per EUR", national, currency, rate, currency), "", nil
}

func periodKind(ind solidarity.Indicator) string {
	if ind == solidarity.Population {
		return "date (YYYY-MM-DD)"
	}
	return "year (YYYY)"
}

func csvErr(name string, err error) error {
	if e, ok := errors.AsType[*solidarity.Error](err); ok {
		return e // a bound, or a read error, already located (bound.CSVReader)
	}
	e := &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		e.Line, e.Message = pe.Line, pe.Err.Error()
	}
	return e
}

// fileID names a dataset after its file: "gdp-2024.csv" is "gdp-2024".
func fileID(base string) string {
	base = strings.TrimSuffix(base, ".gz")
	return strings.TrimSuffix(base, filepath.Ext(base))
}

func uniform(rows []solidarity.Observation, f func(solidarity.Observation) string) string {
	if len(rows) == 0 {
		return ""
	}
	v := f(rows[0])
	for _, o := range rows[1:] {
		if f(o) != v {
			return ""
		}
	}
	return v
}

// Write writes d in the provenance CSV format, so that ParseCSV reads back the same
// observations: state, exact value, period, flag, note, vintage and source. Figures are
// written as exact decimals; a value that has none (1/3) is an error, as are rows that
// ParseCSV would reject (repeated states, negative figures, mixed periods).
func Write(w io.Writer, d *solidarity.Dataset) error {
	if err := check(d); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	header := []string{colCode, colCountry, valueColumn(d.Indicator), periodColumn(d.Indicator), colFlag, colNote, colVintage, colSource}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, o := range d.Rows {
		value := ""
		if o.Value != nil {
			n, _ := o.Value.FloatPrec() // check made sure it is exact
			value = o.Value.FloatString(n)
		}
		if err := cw.Write([]string{string(o.State), o.State.Name(), value, o.Period, o.Flag, o.Note, o.Vintage, o.Source}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// check applies to a dataset the rules ParseCSV applies to a file.
func check(d *solidarity.Dataset) error {
	bad := func(field, format string, args ...any) error {
		e := solidarity.Errorf(solidarity.EINVALID, format, args...)
		e.Field = field
		return e
	}
	if d == nil {
		return bad("", "no dataset")
	}
	if d.Indicator != solidarity.Population && d.Indicator != solidarity.GDP {
		return bad("", "indicator %q is neither population nor gdp", d.Indicator)
	}
	if len(d.Rows) == 0 {
		return bad("", "dataset %s has no rows", d.ID)
	}
	values := 0
	seen := make(map[solidarity.MemberState]bool)
	for _, o := range d.Rows {
		if !o.State.Valid() {
			return bad(colCode, "%q is not an EU Member State's code", o.State)
		}
		if seen[o.State] {
			return bad(colCode, "two rows for %s", o.State)
		}
		seen[o.State] = true
		if o.Value != nil {
			values++
			if o.Value.Sign() < 0 {
				return bad(valueColumn(d.Indicator), "%s figure %s is negative", o.State, o.Value.RatString())
			}
			if _, exact := o.Value.FloatPrec(); !exact {
				return bad(valueColumn(d.Indicator), "%s figure %s has no exact decimal form", o.State, o.Value.RatString())
			}
			if d.Indicator == solidarity.Population && !o.Value.IsInt() {
				return bad(valueColumn(d.Indicator), "%s population %s is not a whole number", o.State, o.Value.RatString())
			}
		}
		if o.Period != d.Rows[0].Period {
			return bad(periodColumn(d.Indicator), "periods %q and %q in one dataset", d.Rows[0].Period, o.Period)
		}
		if o.Period != "" && !validPeriod(d.Indicator, o.Period) {
			return bad(periodColumn(d.Indicator), "%q is not a %s", o.Period, periodKind(d.Indicator))
		}
		if o.Flag != "" && !flagRE.MatchString(o.Flag) {
			return bad(colFlag, "%s flag %q is not an observation flag", o.State, o.Flag)
		}
		// CSV readers turn a quoted CRLF into LF, so such text would not read back.
		for _, s := range []string{o.Note, o.Vintage, o.Source} {
			if strings.Contains(s, "\r\n") {
				return bad("", "%s text contains a CRLF line break, which CSV does not keep", o.State)
			}
		}
	}
	if values == 0 {
		return bad(valueColumn(d.Indicator), "no figure for any Member State")
	}
	return nil
}
