// Package eurostat reads the files Eurostat publishes for the two indicators of the
// reference key (AMMR Art. 66, Annex I): population on 1 January (demo_pjan, demo_gind,
// tps00001) and GDP at current prices (nama_10_gdp). It accepts Eurostat's own download
// formats unedited: SDMX-CSV 2.1, SDMX 3.0 CSV (with or without labels), the bulk TSV
// (plain or gzipped) and JSON-stat 2.0.
//
// A full download holds far more than the key needs: other units, ages, sexes and
// national-accounts items, aggregates such as EU27_2020 and non-member countries.
// Parse keeps only the series the key uses for the 27 Member States and returns one
// reference period, with every figure exact (math/big.Rat from the file's text).
package eurostat

import (
	"bufio"
	"bytes"
	"cmp"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math/big"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"solidarity"
	"solidarity/internal/bound"
)

// Options tunes Parse.
type Options struct {
	// Period selects the reference period: a year ("2024"), or for population either
	// the year or the reference date ("2025" or "2025-01-01"). When empty, Parse takes
	// the latest period for which the file has at least one figure.
	Period string
	// Partial lets refdata.Import save a dataset that lacks a figure for some of the
	// participating states (solidarity.PartIV), marked as partial; without it such a
	// dataset is refused, since a download cut at a line end reads as a valid file of
	// fewer states. Parse itself ignores it.
	Partial bool
}

// maxDecompressed bounds what a gzipped file may expand to. The largest dataset we
// read (demo_pjan, all ages) is a few hundred megabytes uncompressed; the bound only
// stops a compression bomb from exhausting memory.
const maxDecompressed = 2 << 30

// Limits bound every Eurostat file as it streams through the parsers (internal/bound):
// a line or field of any length, or an unclosed quote, would otherwise be held whole
// (up to the 2 GiB of maxDecompressed). A real file's rows are short (SDMX-CSV about
// 12 columns, the bulk TSV one per period: 780 for monthly data since 1960) and its
// fields shorter than 1 KB; rows and values are bounded by the size alone.
var Limits = bound.Limits{Bytes: maxDecompressed, Lines: maxDecompressed, Values: maxDecompressed,
	Columns: 4096, Field: 64 << 10}

// Parse reads one Eurostat file and returns the Member States' figures for one period.
// name is the file name: it locates errors, helps detect the dataset of a bulk TSV
// (which does not name it) and is recorded in Source.
//
// The format is detected from the content, gzip included. Rows for aggregates and
// non-members are skipped; rows of other units, items, ages or sexes are filtered out.
// A figure the file lacks is kept as an Observation with a nil Value. Every error is a
// *solidarity.Error with code EINVALID naming the file and the line (CSV, TSV) or JSON
// path where the problem is; nothing partial is ever returned.
func Parse(name string, r io.Reader, opt Options) (*solidarity.Dataset, error) {
	p := &parser{name: name, opt: opt}
	if err := readFile(p, p, r); err != nil {
		return nil, err
	}
	return p.dataset()
}

// formatReader reads one dataset's figures from each of Eurostat's formats: parser
// for the key's datasets, appParser for the asylum applicants.
type formatReader interface {
	parseJSONStat(r io.Reader) error
	parseTSV(r *bufio.Reader) error
	parseCSV(r io.Reader) error
}

// readFile detects the format of p's file, gzip included, and hands it to fr, with the
// CSV and TSV formats read as they stream, within Limits.
func readFile(p *parser, fr formatReader, r io.Reader) error {
	br, err := Decompress(p.name, r)
	if err != nil {
		return err
	}
	switch sniff(br) {
	case formatJSONStat:
		return fr.parseJSONStat(br)
	case formatTSV:
		return fr.parseTSV(bufio.NewReaderSize(bound.CSVReader(p.name, br, '\t', Limits), 64<<10))
	case formatSDMXCSV:
		return fr.parseCSV(bound.CSVReader(p.name, br, ',', Limits))
	}
	return p.errLine(1, "", "not a Eurostat file: expected SDMX-CSV, SDMX 3.0 CSV, the bulk TSV or JSON-stat")
}

// Decompress returns a buffered reader over r, transparently gunzipping it when it
// starts with the gzip magic number, and with a leading UTF-8 byte order mark removed.
// Callers that sniff a file before choosing a parser (refdata.Load) use it so that a
// gzipped file is accepted wherever a plain one is.
func Decompress(name string, r io.Reader) (*bufio.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	if magic, _ := br.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		gz, err := gzip.NewReader(br)
		if err != nil {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "not a valid gzip file: " + err.Error()}
		}
		br = bufio.NewReaderSize(&capReader{r: gz, left: maxDecompressed}, 64<<10)
	}
	if bom, _ := br.Peek(3); bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	return br, nil
}

// capReader fails, rather than truncating silently, once more than left bytes are read.
type capReader struct {
	r    io.Reader
	left int64
}

func (c *capReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		return 0, errors.New("file expands to more than 2 GiB when decompressed")
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

type format int

const (
	formatUnknown format = iota
	formatSDMXCSV
	formatTSV
	formatJSONStat
)

// sniff tells the format from the first line: JSON-stat is an object, the bulk TSV's
// first cell is "dims\TIME_PERIOD", and SDMX-CSV starts with DATAFLOW (2.1) or
// STRUCTURE (3.0).
func sniff(br *bufio.Reader) format {
	head, _ := br.Peek(64 << 10)
	trimmed := bytes.TrimLeft(head, " \t\r\n")
	if len(trimmed) > 0 && trimmed[0] == '{' {
		return formatJSONStat
	}
	line, _, _ := bytes.Cut(head, []byte("\n"))
	if first, _, ok := bytes.Cut(line, []byte("\t")); ok && bytes.Contains(first, []byte(`\`)) {
		return formatTSV
	}
	first, _, _ := bytes.Cut(line, []byte(","))
	first = bytes.Trim(bytes.TrimSpace(first), `"`)
	code, _, _ := bytes.Cut(first, []byte(":"))
	switch strings.ToUpper(string(bytes.TrimSpace(code))) {
	case "DATAFLOW", "STRUCTURE":
		return formatSDMXCSV
	}
	return formatUnknown
}

// A dataset is one Eurostat dataset the key can use, with the one series in it that
// holds the figure: every other unit, item, age or sex is filtered out.
type dataset struct {
	code      string // Eurostat's code, lower case
	indicator solidarity.Indicator
	label     string // English title, as JSON-stat's label gives it
	filter    []dimFilter
}

type dimFilter struct{ dim, code string }

var datasets = []*dataset{
	{"nama_10_gdp", solidarity.GDP, "Gross domestic product (GDP) and main components (output, expenditure and income)",
		[]dimFilter{{"unit", "CP_MEUR"}, {"na_item", "B1GQ"}}},
	{"demo_pjan", solidarity.Population, "Population on 1 January by age and sex",
		[]dimFilter{{"unit", "NR"}, {"age", "TOTAL"}, {"sex", "T"}}},
	{"demo_gind", solidarity.Population, "Population change - Demographic balance and crude rates at national level",
		[]dimFilter{{"indic_de", "JAN"}}},
	// tps00001 is Eurostat's ready-made table of demo_gind JAN; users often download it.
	{"tps00001", solidarity.Population, "Population on 1 January",
		[]dimFilter{{"indic_de", "JAN"}}},
}

func datasetByCode(code string) *dataset {
	for _, d := range datasets {
		if strings.EqualFold(d.code, code) {
			return d
		}
	}
	return nil
}

func datasetByLabel(label string) *dataset {
	label = strings.TrimSpace(label)
	for _, d := range datasets {
		if strings.EqualFold(d.label, label) {
			return d
		}
	}
	return nil
}

// datasetByFileName finds a dataset code in a file name such as "nama_10_gdp.tsv.gz"
// or "estat_demo_pjan_filtered_en.csv".
func datasetByFileName(name string) *dataset {
	for _, d := range datasets {
		if codeInFileName(name, d.code) {
			return d
		}
	}
	return nil
}

// codeInFileName reports whether the dataset code (lower case) stands alone in a file
// name: demo_pjanbroad is another dataset, not demo_pjan.
func codeInFileName(name, code string) bool {
	base := strings.ToLower(filepath.Base(name))
	for i := 0; ; {
		j := strings.Index(base[i:], code)
		if j < 0 {
			return false
		}
		start, end := i+j, i+j+len(code)
		if (start == 0 || !isAlnum(base[start-1])) && (end == len(base) || !isAlnum(base[end])) {
			return true
		}
		i = start + 1
	}
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// datasetByDims guesses the dataset from its dimensions when nothing names it. The
// filters then make sure the series really is there: a look-alike dataset (nama_10_pc
// has na_item too) yields no rows and an error, never wrong figures.
func datasetByDims(has func(dim string) bool) *dataset {
	switch {
	case has("na_item"):
		return datasetByCode("nama_10_gdp")
	case has("age") && has("sex"):
		return datasetByCode("demo_pjan")
	case has("indic_de"):
		return datasetByCode("demo_gind")
	}
	return nil
}

func knownCodes() string {
	codes := make([]string, len(datasets))
	for i, d := range datasets {
		codes[i] = d.code
	}
	return strings.Join(codes, ", ")
}

// dataflowCode extracts the dataset code from an SDMX dataflow reference such as
// "ESTAT:NAMA_10_GDP(1.0)", "ESTAT:DEMO_PJAN$DEFAULTVIEW(1.0)" or, with labels,
// "ESTAT:NA_MAIN(1.6): National Accounts Main Aggregates".
func dataflowCode(ref string) string {
	ref = strings.TrimSpace(ref)
	if open := strings.IndexByte(ref, '('); open >= 0 {
		ref = ref[:open]
		if colon := strings.LastIndexByte(ref, ':'); colon >= 0 {
			ref = ref[colon+1:]
		}
	} else if _, after, ok := strings.Cut(ref, ":"); ok {
		ref = after
	}
	ref, _, _ = strings.Cut(ref, "$")
	return strings.ToLower(strings.TrimSpace(ref))
}

// IsAggregate reports whether code is one of Eurostat's geographic aggregates
// (EU27_2020, EU28, EA20, EA, EEA30_2007, EFTA, ...). Importers skip such rows
// rather than rejecting them: every full download contains them.
func IsAggregate(code string) bool {
	code = strings.ToUpper(strings.TrimSpace(code))
	for _, p := range []string{"EU", "EA", "EEA", "EFTA"} {
		rest, ok := strings.CutPrefix(code, p)
		if !ok {
			continue
		}
		if rest == "" || rest[0] >= '0' && rest[0] <= '9' || rest[0] == '_' {
			return true
		}
	}
	return false
}

// decimalRE is the number syntax of Eurostat's files (and of JSON): an optional minus,
// digits, optional decimals and an optional short exponent. big.Rat.SetString alone
// would also take fractions, hexadecimal and underscores, which no statistics file
// means, and an unbounded exponent, which would let a tiny file exhaust memory.
var decimalRE = regexp.MustCompile(`^-?[0-9]+(\.[0-9]+)?([eE][-+]?[0-9]{1,3})?$`)

// ParseDecimal returns the exact value of a decimal number as written in a statistics
// file ("494087.6", "4328970.0", "83577140"). It never goes through a float. The error
// says why s is not a usable figure (not a number, negative, out of range); callers add
// the location.
//
// Figures must be below 10^18 with at most 18 decimals. No population or GDP comes
// near that, and the bound keeps every accepted figure writable as a plain decimal of
// at most 37 characters, which ParseDecimal reads back.
func ParseDecimal(s string) (*big.Rat, error) {
	if len(s) > 64 || !decimalRE.MatchString(s) {
		return nil, fmt.Errorf("value %q is not a number", s)
	}
	// The one bounded exact-number parser (internal/bound); the syntax is already
	// narrowed to what statistics files write, and 18 + 18 digits and e±999 fit in its
	// bounds here.
	v, err := bound.Rat("", s, false, bound.Numbers{Digits: 64, Exponent: 999})
	if err != nil {
		return nil, fmt.Errorf("value %q is not a number", s)
	}
	if v.Sign() < 0 {
		return nil, fmt.Errorf("value %q is negative", s)
	}
	if v.Cmp(maxFigure) >= 0 {
		return nil, fmt.Errorf("value %q is too large", s)
	}
	if n, _ := v.FloatPrec(); n > maxDecimals {
		return nil, fmt.Errorf("value %q has more than %d decimals", s, maxDecimals)
	}
	return v, nil
}

const maxDecimals = 18

var maxFigure = new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil))

// Period returns solidarity's reference period for a Eurostat time code of indicator
// ind. Population is counted on 1 January, so "2025" becomes "2025-01-01"; GDP keeps the
// year. Anything else is returned unchanged, so Period also normalises Options.Period.
func Period(ind solidarity.Indicator, code string) string {
	code = strings.TrimSpace(code)
	if ind == solidarity.Population && yearRE.MatchString(code) {
		return code + "-01-01"
	}
	return code
}

var yearRE = regexp.MustCompile(`^[0-9]{4}$`)

// flagRE is the shape of Eurostat's observation flags: one or more lower-case letters
// (p provisional, e estimated, b break in series, c confidential, ...).
var flagRE = regexp.MustCompile(`^[a-z]{1,8}$`)

// obs is one kept figure before the period is chosen, with where it came from.
type obs struct {
	state   solidarity.MemberState
	time    string
	value   *big.Rat
	flag    string
	vintage string
	note    string
	loc     loc
}

// loc locates a cell: a line (CSV, TSV) or a JSON path, and a column or field.
type loc struct {
	line  int
	path  string
	field string
}

// parser holds what every format shares: the file name for errors, the dataset once
// detected and the kept observations, checked as they arrive.
type parser struct {
	name   string
	opt    Options
	format string // e.g. "SDMX-CSV 2.1", recorded in Source
	ds     *dataset
	rows   []obs
	seen   map[string]loc // state+time → where first seen
}

func (p *parser) err(l loc, format string, args ...any) error {
	return &solidarity.Error{
		Code:    solidarity.EINVALID,
		Message: fmt.Sprintf(format, args...),
		File:    p.name,
		Line:    l.line,
		Path:    l.path,
		Field:   l.field,
	}
}

func (p *parser) errLine(line int, field, format string, args ...any) error {
	return p.err(loc{line: line, field: field}, format, args...)
}

func (p *parser) errPath(path, format string, args ...any) error {
	return p.err(loc{path: path}, format, args...)
}

// checkFlag checks an observation flag, "" when there is none, of the cell at.
func (p *parser) checkFlag(flag string, at loc) error {
	if flag != "" && !flagRE.MatchString(flag) {
		return p.err(at, "observation flag %q is not a Eurostat flag", flag)
	}
	return nil
}

// selectRow tells whether a CSV or TSV row is a Member State's in the selected series
// (annual when the file has a freq dimension, the dataset's filter); code returns the
// row's code of a dimension.
func (p *parser) selectRow(has func(dim string) bool, code func(dim string) string) (solidarity.MemberState, bool) {
	keep := !has("freq") || code("freq") == "A"
	for _, f := range p.ds.filter {
		if code(f.dim) != f.code {
			keep = false
		}
	}
	state, member := solidarity.ParseMemberState(code("geo"))
	return state, keep && member
}

// add checks and keeps one observation of a Member State in the selected series.
// valueText is the figure as written; "" (or ":" or "NaN") means missing.
func (p *parser) add(state solidarity.MemberState, time, valueText, flag, vintage, note string, valueLoc, timeLoc loc) error {
	if !yearRE.MatchString(time) {
		return p.err(timeLoc, "time period %q is not a year: the key uses annual figures", time)
	}
	if err := p.checkFlag(flag, valueLoc); err != nil {
		return err
	}
	o := obs{state: state, time: time, flag: flag, vintage: vintage, note: note, loc: valueLoc}
	switch valueText {
	case "", ":", "NaN":
	default:
		v, err := ParseDecimal(valueText)
		if err != nil {
			return p.err(valueLoc, "%s %s", state, err.Error())
		}
		if p.ds.indicator == solidarity.Population && !v.IsInt() {
			return p.err(valueLoc, "%s population %q is not a whole number", state, valueText)
		}
		o.value = v
	}
	key := string(state) + " " + time
	if first, dup := p.seen[key]; dup {
		return p.err(valueLoc, "duplicate figure for %s in %s (first at %s)", state, time, first.String())
	}
	if p.seen == nil {
		p.seen = make(map[string]loc)
	}
	p.seen[key] = valueLoc
	p.rows = append(p.rows, o)
	return nil
}

func (l loc) String() string {
	if l.path != "" {
		return l.path
	}
	return fmt.Sprintf("line %d", l.line)
}

// dataset chooses the period and assembles the result.
func (p *parser) dataset() (*solidarity.Dataset, error) {
	if p.ds == nil {
		return nil, p.errLine(0, "", "no observations")
	}
	ind := p.ds.indicator
	hasValue := make(map[string]bool)
	hasRow := make(map[string]bool)
	for _, o := range p.rows {
		hasRow[o.time] = true
		if o.value != nil {
			hasValue[o.time] = true
		}
	}
	var time string
	if p.opt.Period != "" {
		want := Period(ind, p.opt.Period)
		for t := range hasRow {
			if Period(ind, t) == want {
				time = t
			}
		}
		if time == "" {
			return nil, p.errLine(0, "", "no figures for period %s in %s (periods in the file: %s)",
				p.opt.Period, p.describe(), periods(hasRow))
		}
		if !hasValue[time] {
			return nil, p.errLine(0, "", "no figure for any Member State in period %s in %s", p.opt.Period, p.describe())
		}
	} else {
		for t := range hasValue {
			if t > time {
				time = t
			}
		}
		if time == "" {
			return nil, p.errLine(0, "", "no figure for any Member State in %s", p.describe())
		}
	}

	source := fmt.Sprintf("Eurostat %s, %s, file %s", p.ds.code, p.format, filepath.Base(p.name))
	period := Period(ind, time)
	d := &solidarity.Dataset{
		ID:        p.ds.code + "-" + period,
		Indicator: ind,
		Source:    source,
	}
	switch ind {
	case solidarity.Population:
		d.Title = fmt.Sprintf("Population on 1 January %s (Eurostat %s)", time, p.ds.code)
	case solidarity.GDP:
		d.Title = fmt.Sprintf("GDP %s at current prices, million EUR (Eurostat %s)", time, p.ds.code)
	}
	for _, o := range p.rows {
		if o.time != time {
			continue
		}
		d.Rows = append(d.Rows, solidarity.Observation{
			State:   o.state,
			Value:   o.value,
			Period:  period,
			Flag:    o.flag,
			Vintage: o.vintage,
			Source:  source,
			Note:    o.note,
		})
	}
	slices.SortFunc(d.Rows, func(a, b solidarity.Observation) int { return cmp.Compare(a.State.Index(), b.State.Index()) })
	d.Vintage = uniformVintage(d.Rows)
	d.Caveat = Caveat(d.Rows)
	return d, nil
}

func (p *parser) describe() string {
	var b strings.Builder
	b.WriteString(p.ds.code)
	for _, f := range p.ds.filter {
		fmt.Fprintf(&b, " %s=%s", f.dim, f.code)
	}
	return b.String()
}

func periods(set map[string]bool) string {
	if len(set) == 0 {
		return "none"
	}
	var ps []string
	for t := range set {
		ps = append(ps, t)
	}
	slices.Sort(ps)
	return strings.Join(ps, ", ")
}

func uniformVintage(rows []solidarity.Observation) string {
	if len(rows) == 0 {
		return ""
	}
	v := rows[0].Vintage
	for _, o := range rows[1:] {
		if o.Vintage != v {
			return ""
		}
	}
	return v
}

// Caveat describes, for the banner shown wherever a dataset is used, which states lack
// a figure and which figures Eurostat flags (provisional, estimated, ...): either
// changes what a key may be computed from. It returns "" when there is nothing to say.
func Caveat(rows []solidarity.Observation) string {
	var missing []string
	flagged := make(map[string][]string)
	var flags []string
	for _, o := range rows {
		if o.Value == nil {
			missing = append(missing, string(o.State))
			continue
		}
		if o.Flag != "" {
			if _, ok := flagged[o.Flag]; !ok {
				flags = append(flags, o.Flag)
			}
			flagged[o.Flag] = append(flagged[o.Flag], string(o.State))
		}
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "No figure in the file for "+strings.Join(missing, ", ")+".")
	}
	slices.Sort(flags)
	for _, f := range flags {
		parts = append(parts, fmt.Sprintf("Flagged %q (%s) by Eurostat: %s.", f, flagMeaning(f), strings.Join(flagged[f], ", ")))
	}
	return strings.Join(parts, " ")
}

func flagMeaning(f string) string {
	var ms []string
	for _, c := range f {
		m, ok := map[rune]string{
			'b': "break in time series", 'c': "confidential", 'd': "definition differs",
			'e': "estimated", 'f': "forecast", 'n': "not significant", 'p': "provisional",
			'r': "revised", 's': "Eurostat estimate", 'u': "low reliability", 'z': "not applicable",
		}[c]
		if !ok {
			m = "unknown flag " + string(c)
		}
		ms = append(ms, m)
	}
	return strings.Join(ms, ", ")
}
