package eurostat

import (
	"bufio"
	"cmp"
	"fmt"
	"io"
	"math/big"
	"regexp"
	"slices"
	"strings"

	"solidarity"
)

// Applicants is one figure of migr_asyappctzm/migr_asyappctza: applicants in one
// state (geo, an EU Member State code, EL for Greece) in one period, of one citizenship
// (Citizen = "" for the TOTAL row).
type Applicants struct {
	Geo     solidarity.MemberState
	Citizen string // Eurostat citizen code (ISO 3166 alpha-2, e.g. "SY", "BD"), "" for TOTAL
	Period  string // "2025-07" (monthly, from Eurostat's 2025M07 or 2025-07) or "2025" (annual)
	Value   int64
	Line    int // the line of the file it was read from (0 for JSON-stat)
}

// ApplicantsFile is what ParseApplicants read from one file.
type ApplicantsFile struct {
	// Dataset is migr_asyappctzm (monthly) or migr_asyappctza (annual): the one the
	// file names, else the one its periods show.
	Dataset string
	// Updated is the file's vintage as it states it (SDMX-CSV 2.1 LAST UPDATE in ISO
	// 8601, JSON-stat updated), "" when it states none (the bulk TSV, SDMX 3.0 CSV).
	Updated string
	// Rows are sorted by period, then state in protocol order, then citizen (TOTAL
	// first). Each (Geo, Citizen, Period) appears once.
	Rows []Applicants
	// Format is the file format, then which applicants the rows count, for a note
	// beside whatever is computed from them:
	//   "SDMX-CSV 2.1, first-time applicants (asyl_app=NASY_APP)"
	//   "bulk TSV, all applicants (applicant=TOTAL): the file has no first-time figures"
	//   "JSON-stat 2.0, applicant type not given (no asyl_app or applicant dimension)"
	Format string
}

// MaxApplicants bounds one figure. No state has ever registered 10^8 applications in a
// month or a year (the whole EU: about 1.3 million in 2015): a larger figure is a
// broken file, not data.
const MaxApplicants = 100_000_000

// ParseApplicants reads Eurostat's asylum applicants by citizenship, monthly
// (migr_asyappctzm) or annual (migr_asyappctza), in any of the formats Parse reads
// (SDMX-CSV 2.1, SDMX 3.0 CSV with or without labels, the bulk TSV plain or gzipped,
// JSON-stat 2.0), so that a scenario can take its arrivals from a user's own download.
//
// It keeps the series a scenario uses and skips the rest, rather than rejecting it,
// since every full download holds it:
//   - sex=T, age=TOTAL and unit=PER, for each of those dimensions the file has;
//   - first-time applicants (asyl_app=NASY_APP in older downloads, applicant=FRST
//     in newer ones) when the file has them, else all applicants (ASY_APP, TOTAL);
//     subsequent applicants (SSEQ) never. Format records which;
//   - the 27 Member States (GR read as EL); aggregates (EU27_2020, EA20, ...) and
//     other reporting countries (NO, CH, ...) are skipped;
//   - citizenships that are countries (two letters, EL and UK as Eurostat writes
//     them), STLS (stateless), UNK (unknown) and RNC (recognised non-citizens) are
//     kept, since they are people a state receives; TOTAL is kept as Citizen "";
//     groups of countries (EU27_2020, EXT_EU27_2020, EXT_EU28, EFTA, NEU, ...) are
//     skipped, as their people are counted in their own rows too;
//   - frequency M or A, one of them per file; a missing figure (":" or empty) is
//     skipped, not read as zero.
//
// A figure that is negative, not a whole number or above MaxApplicants, a period that
// is no month or year, the same state, citizen and period twice, another dataset or
// an unknown format is an error: a *solidarity.Error of code EINVALID naming the file
// and the line and field (CSV, TSV) or JSON path. Nothing partial is ever returned.
// CSV and TSV are read as they stream, within Limits; JSON-stat whole, as Parse does.
func ParseApplicants(name string, r io.Reader) (*ApplicantsFile, error) {
	a := &appParser{p: &parser{name: name}}
	if err := readFile(a.p, a, r); err != nil {
		return nil, err
	}
	return a.result()
}

const (
	monthly = "migr_asyappctzm"
	annual  = "migr_asyappctza"
)

// appKind is the applicant type of a row.
type appKind int

const (
	kindOther appKind = iota // subsequent applicants, or a code we do not know
	kindAll                  // all applicants, or no applicant dimension at all
	kindFirst                // first-time applicants
)

func classifyKind(dim, code string) appKind {
	if dim == "" {
		return kindAll
	}
	switch code {
	case "NASY_APP", "FRST":
		return kindFirst
	case "ASY_APP", "TOTAL":
		return kindAll
	}
	return kindOther
}

// appSet is the kept figures of one applicant type, each checked once.
type appSet struct {
	code string // the first applicant code kept, for Format
	rows []Applicants
	seen map[appKey]loc
}

type appKey struct {
	geo             solidarity.MemberState
	citizen, period string
}

// appParser reads one applicants file. It shares parser's error helpers and decoders.
type appParser struct {
	p       *parser
	dataset string // monthly or annual once known
	shape   string // "M" or "A" once the dataset or the first period tells
	kindDim string // asyl_app or applicant, "" when the file has neither
	filters []string
	// all is kept until the first first-time row: a file that has first-time figures
	// is read for them alone, and one that has not for all applicants.
	sets                  [3]appSet
	sawFirst              bool
	updated               string
	updatedSet, mixedDate bool
}

// filterDims are the dimensions fixed to one code, when the file has them.
var filterDims = []dimFilter{{"sex", "T"}, {"age", "TOTAL"}, {"unit", "PER"}}

// dims records which optional dimensions the file has; citizen and geo are required.
// first locates an error in the header.
func (a *appParser) dims(has func(string) bool, first loc) error {
	for _, need := range []string{"citizen", "geo"} {
		if !has(need) {
			return a.p.err(first, "no %s dimension: not an asylum applicants file (%s, %s)", need, monthly, annual)
		}
	}
	switch {
	case has("asyl_app") && has("applicant"):
		return a.p.err(first, "both asyl_app and applicant dimensions: one file, one applicant type dimension")
	case has("asyl_app"):
		a.kindDim = "asyl_app"
	case has("applicant"):
		a.kindDim = "applicant"
	}
	for _, f := range filterDims {
		if has(f.dim) {
			a.filters = append(a.filters, f.dim)
		}
	}
	return nil
}

// unnamed detects the dataset when the file does not name it: from the file name,
// else from its dimensions (an applicant type beside citizen), leaving monthly or
// annual to the periods.
func (a *appParser) unnamed(at loc) error {
	if a.dataset != "" {
		return nil
	}
	if code := applicantsByFileName(a.p.name); code != "" {
		return a.setDataset(code, at)
	}
	if a.kindDim == "" {
		return a.p.err(at, "cannot tell which dataset this is: expected %s or %s (name the file after it)", monthly, annual)
	}
	return nil
}

// keep applies the sex, age and unit filters to a row; code returns a dimension's code.
func (a *appParser) keep(code func(dim string) string) bool {
	for _, f := range filterDims {
		if slices.Contains(a.filters, f.dim) && code(f.dim) != f.code {
			return false
		}
	}
	return true
}

func (a *appParser) setDataset(code string, at loc) error {
	switch code {
	case monthly:
		a.dataset, a.shape = code, "M"
	case annual:
		a.dataset, a.shape = code, "A"
	default:
		return a.p.err(at, "dataset %s is not asylum applicants by citizenship (%s, %s)", code, monthly, annual)
	}
	return nil
}

// applicantsByFileName finds a dataset code standing alone in a file name, as
// datasetByFileName does for the key's datasets.
func applicantsByFileName(name string) string {
	for _, code := range []string{monthly, annual} {
		if codeInFileName(name, code) {
			return code
		}
	}
	return ""
}

// selectRow applies the filters and series to a CSV or TSV row, whose codes code
// returns ("" for a dimension the file lacks).
func (a *appParser) selectRow(code func(dim string) string) (appSeries, bool) {
	if !a.keep(code) {
		return appSeries{}, false
	}
	return a.series(code("freq"), code(a.kindDim), code("geo"), code("citizen"))
}

// appSeries is what a row key selects, once its codes have passed the filters.
type appSeries struct {
	freq    string
	kind    appKind
	kcode   string
	geo     solidarity.MemberState
	citizen string
}

// series checks a row key's codes. ok=false means the row is skipped: another
// frequency or applicant type, an aggregate or non-member geo, a group of citizenships.
func (a *appParser) series(freq, kind, geo, citizen string) (s appSeries, ok bool) {
	if freq != "" && freq != "M" && freq != "A" {
		return s, false
	}
	k := classifyKind(a.kindDim, kind)
	switch {
	case k == kindOther:
		return s, false
	case k == kindFirst && !a.sawFirst:
		a.sawFirst = true
		a.sets[kindAll] = appSet{} // first-time figures exist: all-applicant ones are not needed
	case k == kindAll && a.sawFirst:
		return s, false
	}
	state, member := solidarity.ParseMemberState(geo)
	if !member {
		return s, false
	}
	c, ok := citizenCode(citizen)
	if !ok {
		return s, false
	}
	return appSeries{freq: freq, kind: k, kcode: kind, geo: state, citizen: c}, true
}

// citizenCode returns the Citizen of a citizen code ("" for TOTAL), and false for a
// group of citizenships, which is skipped.
func citizenCode(code string) (string, bool) {
	code = strings.ToUpper(strings.TrimSpace(code))
	switch {
	case code == "TOTAL":
		return "", true
	case code == "STLS" || code == "UNK" || code == "RNC":
		return code, true
	case len(code) == 2 && code[0] >= 'A' && code[0] <= 'Z' && code[1] >= 'A' && code[1] <= 'Z' && !IsAggregate(code):
		return code, true
	}
	return "", false
}

// monthRE is a month as Eurostat writes it: 2025-07 (SDMX, JSON-stat, TSV since 2023)
// or 2025M07 (the bulk TSV before 2023).
var monthRE = regexp.MustCompile(`^([0-9]{4})(?:-|M)(0[1-9]|1[0-2])$`)

// period normalises a time code: "2025-07" for a month, "2025" for a year.
func period(code string) (p, shape string, ok bool) {
	if m := monthRE.FindStringSubmatch(code); m != nil {
		return m[1] + "-" + m[2], "M", true
	}
	if yearRE.MatchString(code) {
		return code, "A", true
	}
	return "", "", false
}

var maxApplicants = big.NewRat(MaxApplicants, 1)

// add checks and keeps one figure of a selected series. valueText is the figure as
// written; "", ":" or "NaN" means missing, which is checked for a duplicate but not
// kept.
func (a *appParser) add(s appSeries, timeCode, valueText, flag string, at, timeAt loc) error {
	per, shape, ok := period(timeCode)
	if !ok {
		return a.p.err(timeAt, "time period %q is neither a month (2025-07, 2025M07) nor a year", timeCode)
	}
	if s.freq != "" && s.freq != shape {
		return a.p.err(timeAt, "time period %q is not of frequency %s", timeCode, s.freq)
	}
	if err := a.checkShape(shape, timeCode, timeAt); err != nil {
		return err
	}
	if err := a.p.checkFlag(flag, at); err != nil {
		return err
	}
	set := &a.sets[s.kind]
	key := appKey{s.geo, s.citizen, per}
	if first, dup := set.seen[key]; dup {
		return a.p.err(at, "duplicate figure for %s in %s (first at %s)", describeKey(key), per, first.String())
	}
	if set.seen == nil {
		set.seen = make(map[appKey]loc)
	}
	set.seen[key] = at
	switch valueText {
	case "", ":", "NaN":
		return nil
	}
	v, err := ParseDecimal(valueText)
	if err != nil {
		return a.p.err(at, "%s in %s: %s", describeKey(key), per, err.Error())
	}
	if !v.IsInt() {
		return a.p.err(at, "%s in %s: applicants %q is not a whole number", describeKey(key), per, valueText)
	}
	if v.Cmp(maxApplicants) > 0 {
		return a.p.err(at, "%s in %s: applicants %q is more than %d, no figure of a state comes near it", describeKey(key), per, valueText, MaxApplicants)
	}
	if set.code == "" {
		set.code = s.kcode
	}
	set.rows = append(set.rows, Applicants{Geo: s.geo, Citizen: s.citizen, Period: per, Value: v.Num().Int64(), Line: at.line})
	return nil
}

// checkShape holds a file to one frequency: its dataset's, else its first period's.
func (a *appParser) checkShape(shape, timeCode string, at loc) error {
	switch {
	case a.shape == "":
		a.shape = shape
	case a.shape != shape && a.dataset != "":
		return a.p.err(at, "time period %q is %s: %s has %s figures", timeCode, shapeNames[shape], a.dataset, shapeNames[a.shape])
	case a.shape != shape:
		return a.p.err(at, "time period %q is %s, earlier ones are %s: one file, one frequency", timeCode, shapeNames[shape], shapeNames[a.shape])
	}
	return nil
}

var shapeNames = map[string]string{"M": "monthly", "A": "annual"}

func describeKey(k appKey) string {
	if k.citizen == "" {
		return string(k.geo) + " all citizens"
	}
	return string(k.geo) + " citizens of " + k.citizen
}

// noteUpdated records a row's vintage; rows that disagree leave Updated empty.
func (a *appParser) noteUpdated(v string) {
	switch {
	case !a.updatedSet:
		a.updated, a.updatedSet = v, true
	case v != a.updated:
		a.mixedDate = true
	}
}

// result picks the applicant type and assembles the file.
func (a *appParser) result() (*ApplicantsFile, error) {
	set, kind := &a.sets[kindAll], kindAll
	if a.sawFirst {
		set, kind = &a.sets[kindFirst], kindFirst
	}
	if len(set.rows) == 0 {
		return nil, a.p.errLine(0, "", "no figure for a Member State in the file (read: sex=T, age=TOTAL, unit=PER, first-time applicants where given, frequency M or A)")
	}
	rows := set.rows
	slices.SortFunc(rows, func(x, y Applicants) int {
		return cmp.Or(cmp.Compare(x.Period, y.Period), cmp.Compare(x.Geo.Index(), y.Geo.Index()), cmp.Compare(x.Citizen, y.Citizen))
	})
	f := &ApplicantsFile{Dataset: a.dataset, Rows: rows, Format: a.p.format + ", " + a.kindText(kind, set.code)}
	if f.Dataset == "" {
		f.Dataset = annual
		if a.shape == "M" {
			f.Dataset = monthly
		}
	}
	if !a.mixedDate {
		f.Updated = a.updated
	}
	return f, nil
}

func (a *appParser) kindText(kind appKind, code string) string {
	switch {
	case a.kindDim == "":
		return "applicant type not given (no asyl_app or applicant dimension)"
	case kind == kindFirst:
		return fmt.Sprintf("first-time applicants (%s=%s)", a.kindDim, code)
	}
	return fmt.Sprintf("all applicants (%s=%s): the file has no first-time figures", a.kindDim, code)
}

// parseCSV reads SDMX-CSV 2.1 and SDMX 3.0 CSV with parser's reader: one column per
// dimension, TIME_PERIOD, OBS_VALUE, OBS_FLAG; labelled headers and cells are reduced
// to their codes.
func (a *appParser) parseCSV(r io.Reader) error {
	header := func(t *csvTable) error { return a.dims(t.has, loc{line: 1}) }
	first := func(flow string, r *csvRow) error {
		if flow != "" {
			return a.setDataset(dataflowCode(flow), r.at("dataflow"))
		}
		return a.unnamed(loc{line: 1})
	}
	return a.p.readCSV(r, []string{"TIME_PERIOD", "OBS_VALUE"}, header, first, a.csvRow)
}

func (a *appParser) csvRow(r *csvRow) error {
	if v, ok := r.cell("last update"); ok {
		a.noteUpdated(lastUpdate(v))
	}
	s, ok := a.selectRow(r.code)
	if !ok {
		return nil
	}
	value, _ := r.cell("obs_value")
	return a.add(s, r.code("time_period"), value, r.code("obs_flag"), r.at("obs_value"), r.at("time_period"))
}

// parseTSV reads the bulk TSV with parser's reader: the row key's dimensions in the
// first cell, one column per period, cells "123 p" or ":".
func (a *appParser) parseTSV(r *bufio.Reader) error {
	header := func(h *tsvHead) error {
		if err := a.dims(h.has, loc{line: 1, field: h.first}); err != nil {
			return err
		}
		return a.unnamed(loc{line: 1, field: h.first})
	}
	return a.p.readTSV(r, header, a.tsvRow)
}

func (a *appParser) tsvRow(r *tsvRow) error {
	s, ok := a.selectRow(r.code)
	if !ok {
		return nil
	}
	return a.p.figures(r, func(time, value, flag string, at, timeAt loc) error {
		return a.add(s, time, value, flag, at, timeAt)
	})
}

// jsonDims are the places of the dimensions the reader uses, -1 when absent, and the
// category each filter dimension keeps.
type jsonDims struct {
	geo, citizen, time, kind, freq int
	filter                         map[int]int // dimension -> the category it keeps
}

// parseJSONStat reads a JSON-stat 2.0 dataset with parser's decoders. It walks the
// cells the file holds, not every combination of categories: five dimensions of a
// thousand categories each take some 40 KB to write and 10^15 steps to walk.
func (a *appParser) parseJSONStat(r io.Reader) error {
	doc, err := a.p.readJSONStat(r)
	if err != nil {
		return err
	}
	a.updated, a.updatedSet = doc.js.Updated, true
	if err := a.dims(doc.c.has, loc{path: "$.id"}); err != nil {
		return err
	}
	if id, path := datasetID(doc.js); id != "" {
		err = a.setDataset(strings.ToLower(id), loc{path: path})
	} else {
		err = a.unnamed(loc{path: "$"})
	}
	if err != nil {
		return err
	}
	d, err := a.jsonDims(doc.c)
	if err != nil {
		return err
	}
	for _, idx := range doc.values.written() {
		if err := a.jsonCell(doc, d, idx); err != nil {
			return err
		}
	}
	return nil
}

// jsonDims places the dimensions. One the reader does not know must have a single
// category, or its categories would read as duplicates.
func (a *appParser) jsonDims(c *jsonCube) (*jsonDims, error) {
	want := make(map[string]string)
	for _, f := range filterDims {
		want[f.dim] = f.code
	}
	free := func(id string) bool {
		return id == "geo" || id == "citizen" || id == "freq" || isTimeDim(id) || a.kindDim != "" && id == a.kindDim
	}
	filter, err := a.p.fix(c, free, want)
	if err != nil {
		return nil, err
	}
	d := &jsonDims{geo: -1, citizen: -1, time: c.timeDim(), kind: -1, freq: -1, filter: filter}
	for i, id := range c.ids {
		switch {
		case id == "geo":
			d.geo = i
		case id == "citizen":
			d.citizen = i
		case id == "freq":
			d.freq = i
		case a.kindDim != "" && id == a.kindDim:
			d.kind = i
		}
	}
	if d.time < 0 {
		return nil, a.p.errPath("$.id", "no time dimension")
	}
	return d, nil
}

// jsonCell reads the cell at flat index idx.
func (a *appParser) jsonCell(doc *jsonDoc, d *jsonDims, idx int64) error {
	c := doc.c
	cat := func(i int) string {
		if i < 0 {
			return ""
		}
		return c.cats[i][c.place(idx, i)]
	}
	for i, want := range d.filter {
		if c.place(idx, i) != want {
			return nil
		}
	}
	s, ok := a.series(cat(d.freq), cat(d.kind), cat(d.geo), cat(d.citizen))
	if !ok {
		return nil
	}
	t := cat(d.time)
	timeAt := loc{path: indexPath(c.ids[d.time]) + jsonKey(t)}
	return a.add(s, t, doc.values.get(idx), doc.status.flag(idx), loc{path: doc.values.path(idx)}, timeAt)
}

// citizenNames are the English short names of the citizenships of most asylum
// applicants in the EU since 2014, as the project's recognition and arrivals data
// spell them (Cote d'Ivoire, Türkiye). Member States' citizens take their
// solidarity.MemberState name.
var citizenNames = map[string]string{
	"AF": "Afghanistan", "AL": "Albania", "DZ": "Algeria", "AO": "Angola", "AM": "Armenia", "AZ": "Azerbaijan",
	"BD": "Bangladesh", "BY": "Belarus", "BJ": "Benin", "BO": "Bolivia", "BA": "Bosnia and Herzegovina",
	"BR": "Brazil", "BF": "Burkina Faso", "BI": "Burundi", "KH": "Cambodia", "CM": "Cameroon",
	"CF": "Central African Republic", "TD": "Chad", "CL": "Chile", "CN": "China", "CO": "Colombia",
	"KM": "Comoros", "CG": "Congo", "CD": "Democratic Republic of the Congo", "CI": "Cote d'Ivoire", "CU": "Cuba",
	"DJ": "Djibouti", "DO": "Dominican Republic", "EC": "Ecuador", "EG": "Egypt", "SV": "El Salvador",
	"ER": "Eritrea", "ET": "Ethiopia", "GA": "Gabon", "GM": "Gambia", "GE": "Georgia", "GH": "Ghana",
	"GT": "Guatemala", "GN": "Guinea", "GW": "Guinea-Bissau", "HT": "Haiti", "HN": "Honduras", "IN": "India",
	"ID": "Indonesia", "IR": "Iran", "IQ": "Iraq", "IL": "Israel", "JO": "Jordan", "KZ": "Kazakhstan",
	"KE": "Kenya", "XK": "Kosovo", "KW": "Kuwait", "KG": "Kyrgyzstan", "LB": "Lebanon", "LR": "Liberia",
	"LY": "Libya", "MK": "North Macedonia", "ML": "Mali", "MR": "Mauritania", "MX": "Mexico", "MD": "Moldova",
	"MN": "Mongolia", "ME": "Montenegro", "MA": "Morocco", "MM": "Myanmar", "NP": "Nepal", "NI": "Nicaragua",
	"NE": "Niger", "NG": "Nigeria", "PK": "Pakistan", "PS": "Palestine", "PA": "Panama", "PY": "Paraguay",
	"PE": "Peru", "PH": "Philippines", "RU": "Russia", "RW": "Rwanda", "SA": "Saudi Arabia", "SN": "Senegal",
	"RS": "Serbia", "SL": "Sierra Leone", "SO": "Somalia", "ZA": "South Africa", "SS": "South Sudan",
	"LK": "Sri Lanka", "SD": "Sudan", "SY": "Syria", "TJ": "Tajikistan", "TZ": "Tanzania", "TG": "Togo",
	"TN": "Tunisia", "TR": "Türkiye", "TM": "Turkmenistan", "UG": "Uganda", "UA": "Ukraine", "UZ": "Uzbekistan",
	"VE": "Venezuela", "VN": "Vietnam", "YE": "Yemen", "ZW": "Zimbabwe", "UK": "United Kingdom",
	"US": "United States", "STLS": "Stateless", "UNK": "Unknown", "RNC": "Recognised non-citizens",
}

// CitizenName is the English short name of a citizen code for the nationalities in
// the project's recognition data and arrivals (AF Afghanistan, BD Bangladesh,
// CI Cote d'Ivoire, SY Syria, TR Türkiye, ... and the other common asylum
// citizenships, STLS Stateless, UNK Unknown), "All citizenships" for "" (the TOTAL
// row), and the code itself when unknown.
func CitizenName(code string) string {
	if code == "" {
		return "All citizenships"
	}
	if n, ok := citizenNames[code]; ok {
		return n
	}
	if m, ok := solidarity.ParseMemberState(code); ok {
		return m.Name()
	}
	return code
}
