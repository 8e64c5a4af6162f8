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
	fail := func(line int, field, format string, args ...any) error {
		return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: field, Message: fmt.Sprintf(format, args...)}
	}
	cr := csv.NewReader(bound.CSVReader(name, br, ',', eurostat.Limits))
	cr.FieldsPerRecord = -1 // ragged rows get our own error, naming the line
	header, err := cr.Read()
	if err == io.EOF {
		return nil, fail(1, "", "empty file")
	}
	if err != nil {
		return nil, csvErr(name, err)
	}
	cols := make(map[string]int)
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" {
			return nil, fail(1, "", "column %d has no name", i+1)
		}
		if _, dup := cols[h]; dup {
			return nil, fail(1, h, "column %s appears twice", h)
		}
		cols[h] = i
		header[i] = h
	}
	has := func(c string) bool { _, ok := cols[c]; return ok }
	var ind solidarity.Indicator
	switch {
	case has(colPopulation) && has(colGDP):
		return nil, fail(1, colGDP, "both population and gdp_meur columns: one file, one indicator")
	case has(colPopulation):
		ind = solidarity.Population
	case has(colGDP):
		ind = solidarity.GDP
	default:
		return nil, fail(1, "", "header has neither a population nor a gdp_meur column")
	}
	for _, c := range []string{colCode, colCountry, colVintage, colSource} {
		if !has(c) {
			return nil, fail(1, c, "missing column %s", c)
		}
	}
	valueCol, periodCol := valueColumn(ind), periodColumn(ind)
	known := []string{colCode, colCountry, valueCol, periodCol, colFlag, colNote, colVintage, colSource}
	if ind == solidarity.GDP {
		known = append(known, colNational, colCurrency, colRate)
	}
	var extras []string
	for _, h := range header {
		if !slices.Contains(known, h) {
			extras = append(extras, h)
		}
	}
	want := ""
	if opt.Period != "" {
		want = eurostat.Period(ind, opt.Period)
		if !validPeriod(ind, want) {
			return nil, fail(0, periodCol, "period %q is not a %s", opt.Period, periodKind(ind))
		}
	}

	var rows []solidarity.Observation
	seen := make(map[solidarity.MemberState]int)
	period, periodLine := "", 0
	values := 0
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, fail(line, "", "row has %d fields, the header has %d", len(rec), len(header))
		}
		get := func(c string) string {
			if i, ok := cols[c]; ok {
				return rec[i]
			}
			return ""
		}
		at := func(c string) int { l, _ := cr.FieldPos(cols[c]); return l }

		code := strings.TrimSpace(get(colCode))
		state, ok := solidarity.ParseMemberState(code)
		if !ok {
			if eurostat.IsAggregate(code) {
				continue // EU27_2020 and friends: context, not a Member State
			}
			return nil, fail(at(colCode), colCode, "%q is not an EU Member State's code", code)
		}
		if first, dup := seen[state]; dup {
			return nil, fail(at(colCode), colCode, "second row for %s (first at line %d)", state, first)
		}
		seen[state] = line

		o := solidarity.Observation{
			State:   state,
			Vintage: get(colVintage),
			Source:  get(colSource),
			Note:    get(colNote),
		}
		if text := strings.TrimSpace(get(valueCol)); text != "" {
			v, err := eurostat.ParseDecimal(text)
			if err != nil {
				return nil, fail(at(valueCol), valueCol, "%s %s", state, err.Error())
			}
			if ind == solidarity.Population && !v.IsInt() {
				return nil, fail(at(valueCol), valueCol, "%s population %q is not a whole number", state, text)
			}
			o.Value = v
			values++
		}

		p := want
		if has(periodCol) {
			p = strings.TrimSpace(get(periodCol))
			if p != "" && !validPeriod(ind, p) {
				return nil, fail(at(periodCol), periodCol, "%q is not a %s", p, periodKind(ind))
			}
			if len(rows) == 0 {
				period, periodLine = p, line
			} else if p != period {
				return nil, fail(at(periodCol), periodCol, "period %q differs from %q on line %d: one file, one period", p, period, periodLine)
			}
			if want != "" && p != want {
				return nil, fail(at(periodCol), periodCol, "the file is for %q, not %q", p, want)
			}
		}
		o.Period = p

		o.Flag = strings.TrimSpace(get(colFlag))
		if o.Flag != "" && !flagRE.MatchString(o.Flag) {
			return nil, fail(at(colFlag), colFlag, "flag %q is not an observation flag (lower-case letters)", o.Flag)
		}

		var notes []string
		if o.Note != "" {
			notes = append(notes, o.Note)
		}
		if ind == solidarity.GDP {
			conv, field, err := conversion(get(colCurrency), get(colNational), get(colRate), o.Value, strings.TrimSpace(get(valueCol)))
			if err != nil {
				return nil, fail(at(field), field, "%s %s", state, err.Error())
			}
			if conv != "" {
				notes = append(notes, conv)
			}
		}
		for _, c := range extras {
			if v := get(c); v != "" {
				notes = append(notes, c+"="+v)
			}
		}
		if o.Value == nil && !has(colNote) && o.Vintage != "" {
			notes = append(notes, o.Vintage) // the vintage says why the figure is missing
		}
		o.Note = strings.Join(notes, "; ")
		rows = append(rows, o)
	}
	if len(rows) == 0 {
		return nil, fail(0, "", "no rows for any Member State")
	}
	if values == 0 {
		return nil, fail(0, valueCol, "no figure for any Member State")
	}

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
	return d, nil
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
