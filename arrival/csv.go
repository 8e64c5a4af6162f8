package arrival

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/bound"
	"solidarity/rules"
)

// The columns of the CSV format, in the order WriteCSV writes them. A file may have
// them in any order; ref, name, sex and one of birth_date and assessed_age are
// required, the others may be left out. Lists within a cell are separated by ';', the
// parts of an item by ':'; white space around values, items and parts is ignored.
//
//	ref                  the person's reference in the list: 1 to 64 of A-Z a-z 0-9 . _ - /
//	family               family group: rows with the same value form a family; empty: a
//	                     family of one, named "F-" + ref
//	name                 full name (personal data: never echoed in errors)
//	birth_date           YYYY-MM-DD, or empty when unknown
//	assessed_age         whole years found by an age assessment, or empty
//	sex                  F, M or X
//	nationality          ISO 3166-1 alpha-2 code (ER, SY, XK), or empty: stateless/unknown
//	languages            ISO 639 codes: ti;ar
//	relatives            relation:STATE:status[:ref], e.g. spouse:DE:beneficiary or
//	                     sibling:IT:applicant:P007 (ref: another person of the list)
//	documents            kind:ISSUER:valid_from:valid_to, e.g. short-stay-visa:FR:2023-01-05:2023-02-04
//	diplomas             ISSUER:date, e.g. DE:2019-07-01
//	prior_stays          STATE:from:to, to empty while the stay goes on: EL:2019-01-01:2020-06-30
//	unaccompanied_minor  true/false, yes/no, 1/0 or empty (false)
//	medical              the same
//	other_vulnerability  free text
//	security_flag        true/false, yes/no, 1/0 or empty (false)
//	preferences          Member States, most wanted first: DE;NL
//
// Relations, statuses and document kinds are those of package rules; Member States are
// Eurostat codes (Greece is EL).
var columns = []string{
	colRef, colFamily, colName, colBirth, colAge, colSex, colNationality, colLanguages,
	colRelatives, colDocuments, colDiplomas, colStays,
	colMinor, colMedical, colVulnerability, colSecurity, colPreferences,
}

const (
	colRef           = "ref"
	colFamily        = "family"
	colName          = "name"
	colBirth         = "birth_date"
	colAge           = "assessed_age"
	colSex           = "sex"
	colNationality   = "nationality"
	colLanguages     = "languages"
	colRelatives     = "relatives"
	colDocuments     = "documents"
	colDiplomas      = "diplomas"
	colStays         = "prior_stays"
	colMinor         = "unaccompanied_minor"
	colMedical       = "medical"
	colVulnerability = "other_vulnerability"
	colSecurity      = "security_flag"
	colPreferences   = "preferences"
)

// csvLimits bound a CSV list's table before encoding/csv reads any of it: one header
// row and MaxPersons rows of the format's columns. The margin (4× the columns, one row)
// leaves ordinary mistakes (a stray column, a ragged row, one row too many) to the
// parser's own errors, which say more.
var csvLimits = bound.Limits{Bytes: MaxBytes, Lines: MaxPersons + 2, Columns: 4 * len(columns),
	Values: (MaxPersons + 2) * 4 * len(columns)}

// The keys of the header block: "# key: value" lines before the header row.
const (
	keyVessel      = "vessel"
	keyPort        = "port"
	keyAt          = "at"
	keySAR         = "sar"
	keyBenefitting = "benefitting_state"
)

var (
	headerKeys = []string{keyVessel, keyPort, keyAt, keySAR, keyBenefitting}
	dateRE     = regexp.MustCompile(`^[0-9]{4}-[0-9]{2}-[0-9]{2}$`)
	digitsRE   = regexp.MustCompile(`^[0-9]{1,9}$`)
)

// ParseCSV reads a ship's list as CSV: a header block of "# key: value" lines for the
// arrival, then a header row naming the columns and one row per person:
//
//	# vessel: Aurora Borealis
//	# port: Lampedusa
//	# at: 2018-08-20T06:30:00+02:00
//	# sar: true
//	# benefitting_state: IT
//	ref,family,name,birth_date,sex,nationality,relatives
//	P001,K1,Ana Example,1990-04-02,F,ER,spouse:DE:beneficiary
//
// The keys are vessel, port, at (RFC 3339), sar (true/false) and benefitting_state
// (Eurostat code); blank lines and lines of a lone '#' may stand among them. The
// columns are described at the variable columns and in FORMAT.md; a column the format
// does not have is an error. A person without a family value is a family of one named
// "F-" + ref. The list is then checked with Validate.
//
// Errors are *solidarity.Error of code EINVALID with the file name, the 1-based
// physical line (the header block counts) and the column name; on any error the list
// is nil. The file is at most MaxBytes long and holds at most MaxPersons rows.
func ParseCSV(name string, r io.Reader) (*List, error) {
	data, err := readAll(name, r)
	if err != nil {
		return nil, err
	}
	return parseCSV(name, data)
}

func parseCSV(name string, data []byte) (*List, error) {
	l := new(List)
	src := &source{name: name, csv: true, arrival: make(map[string]int)}
	lines, pos, err := parseHeaderBlock(name, data, &l.Arrival, src)
	if err != nil {
		return nil, err
	}

	// The table. The csv.Reader counts lines from the header row: add the block.
	// Bound the table before reading it (internal/bound): encoding/csv makes a string of
	// every field, so one line of ten million commas would be ten million strings.
	if err := bound.CSV(name, data[pos:], ',', csvLimits); err != nil {
		if e, ok := errors.AsType[*solidarity.Error](err); ok && e.Line > 0 {
			e.Line += lines
		}
		return nil, err
	}
	t := &csvTable{name: name, lines: lines, cr: csv.NewReader(bytes.NewReader(data[pos:])), src: src}
	t.cr.FieldsPerRecord = -1 // ragged rows get our own error, naming the row
	if err := t.columns(); err != nil {
		return nil, err
	}
	for {
		rec, err := t.cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, t.csvErr(err)
		}
		if err := t.row(l, rec); err != nil {
			return nil, err
		}
	}
	if err := assignFamilies(l, src); err != nil {
		return nil, err
	}
	if err := l.validate(src); err != nil {
		return nil, err
	}
	return l, nil
}

func csvFail(name string, line int, field, format string, args ...any) error {
	return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: field, Message: fmt.Sprintf(format, args...)}
}

// parseHeaderBlock reads the "# key: value" lines before the header row into a, and
// records in src the line of each key. It returns the number of lines of the block
// and the offset of the header row.
func parseHeaderBlock(name string, data []byte, a *solidarity.Arrival, src *source) (lines, pos int, err error) {
	for pos < len(data) {
		next := len(data)
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			next = pos + i + 1
		}
		text := strings.TrimSpace(string(data[pos:next]))
		if text != "" && text[0] != '#' {
			break
		}
		lines++
		pos = next
		rest := strings.TrimSpace(strings.TrimPrefix(text, "#"))
		if rest == "" {
			continue
		}
		key, val, ok := strings.Cut(rest, ":")
		key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
		if !ok || !slices.Contains(headerKeys, key) {
			return 0, 0, csvFail(name, lines, "", "header line %q is not \"# key: value\" with a key among %s", snippet([]byte(text)), strings.Join(headerKeys, ", "))
		}
		if first, dup := src.arrival[key]; dup {
			return 0, 0, csvFail(name, lines, key, "a second # %s: line, the first is on line %d", key, first)
		}
		src.arrival[key] = lines
		if err := headerValue(a, key, val); err != "" {
			return 0, 0, csvFail(name, lines, key, "%s", err)
		}
	}
	return lines, pos, nil
}

// headerValue sets the field of a that key names to val, or says what is wrong with val.
func headerValue(a *solidarity.Arrival, key, val string) string {
	switch key {
	case keyVessel:
		a.Vessel = val
	case keyPort:
		a.Port = val
	case keyAt:
		if val == "" {
			break
		}
		t, err := time.Parse(time.RFC3339, val)
		if err != nil {
			return fmt.Sprintf("at %q is not an RFC 3339 time such as 2018-08-20T06:30:00+02:00", val)
		}
		a.At = t
	case keySAR:
		b, ok := parseBool(val)
		if !ok {
			return fmt.Sprintf("sar %q is not true or false", val)
		}
		a.SAR = b
	case keyBenefitting:
		a.Benefitting = solidarity.MemberState(val)
	}
	return ""
}

// csvTable reads the table after the header block: the header row, then one row per
// person. Its lines are counted from the header row; lines is the block's.
type csvTable struct {
	name   string
	lines  int
	cr     *csv.Reader
	src    *source
	header []string
}

func (t *csvTable) fail(line int, field, format string, args ...any) error {
	return csvFail(t.name, line, field, format, args...)
}

func (t *csvTable) csvErr(err error) error {
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		return t.fail(t.lines+pe.Line, "", "malformed CSV: %v", pe.Err)
	}
	return t.fail(0, "", "malformed CSV: %v", err)
}

// columns reads the header row: named, known, distinct columns, with ref, name, sex
// and one of birth_date and assessed_age.
func (t *csvTable) columns() error {
	src := t.src
	header, err := t.cr.Read()
	if errors.Is(err, io.EOF) {
		return t.fail(max(t.lines, 1), "", "no header row: the columns are %s", strings.Join(columns, ", "))
	}
	if err != nil {
		return t.csvErr(err)
	}
	t.header = header
	hl, _ := t.cr.FieldPos(0)
	src.header = t.lines + hl
	src.cols = make(map[string]int, len(header))
	for i, h := range header {
		h = strings.ToLower(strings.TrimSpace(h))
		switch _, dup := src.cols[h]; {
		case h == "":
			return t.fail(src.header, "", "column %d has no name", i+1)
		case !slices.Contains(columns, h):
			return t.fail(src.header, h, "unknown column %q: the columns are %s", snippet([]byte(h)), strings.Join(columns, ", "))
		case dup:
			return t.fail(src.header, h, "column %s appears twice", h)
		}
		src.cols[h] = i
	}
	for _, c := range []string{colRef, colName, colSex} {
		if _, ok := src.cols[c]; !ok {
			return t.fail(src.header, c, "missing column %s", c)
		}
	}
	_, birth := src.cols[colBirth]
	_, age := src.cols[colAge]
	if !birth && !age {
		return t.fail(src.header, colBirth, "missing column birth_date or assessed_age: one of them is required")
	}
	return nil
}

// row reads one person's row into l, recording the line of each of its fields.
func (t *csvTable) row(l *List, rec []string) error {
	src := t.src
	row := len(l.Persons)
	fl := make([]int, len(rec))
	for j := range rec {
		fl[j], _ = t.cr.FieldPos(j)
		fl[j] += t.lines
	}
	if row >= MaxPersons {
		return t.fail(fl[0], "", "more than %d persons, the limit of one list", MaxPersons)
	}
	if len(rec) != len(t.header) {
		return t.fail(fl[0], "", "row %d has %d fields, the header has %d", row+1, len(rec), len(t.header))
	}
	src.rows = append(src.rows, fl)
	p, perr := parseRow(rec, src.cols)
	l.Persons = append(l.Persons, p)
	if perr != nil {
		return personError(src, row, p.Ref, perr.path, perr.msg)
	}
	return nil
}

// parseRow reads one person from rec; a problem is at a JSON path within the person.
func parseRow(rec []string, cols map[string]int) (Person, *pathError) {
	get := func(c string) string {
		if i, ok := cols[c]; ok {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	p := Person{
		Ref:                get(colRef),
		Family:             solidarity.FamilyID(get(colFamily)),
		Name:               get(colName),
		Sex:                Sex(get(colSex)),
		Nationality:        get(colNationality),
		OtherVulnerability: get(colVulnerability),
	}
	var err *pathError
	p.BirthDate, err = parseDate(colBirth, "birth_date", get(colBirth))
	if err != nil {
		return p, err
	}
	if s := get(colAge); s != "" {
		if !digitsRE.MatchString(s) {
			return p, &pathError{colAge, fmt.Sprintf("assessed_age %q is not a whole number of years", s)}
		}
		p.AssessedAge, _ = strconv.Atoi(s)
	}
	items, err := splitItems(colLanguages, "language", get(colLanguages))
	if err != nil {
		return p, err
	}
	p.Languages = items

	if items, err = splitItems(colRelatives, "relative", get(colRelatives)); err != nil {
		return p, err
	}
	for j, it := range items {
		path, label := fmt.Sprintf("relatives[%d]", j), fmt.Sprintf("relative %d", j+1)
		parts := splitParts(it)
		if len(parts) != 3 && len(parts) != 4 {
			return p, &pathError{path, fmt.Sprintf("%s %q is not relation:STATE:status[:ref]", label, snippet([]byte(it)))}
		}
		r := rules.FamilyMember{Relation: rules.Relation(parts[0]), State: solidarity.MemberState(parts[1]), Status: rules.Status(parts[2])}
		if len(parts) == 4 {
			r.Ref = parts[3]
		}
		p.Relatives = append(p.Relatives, r)
	}

	if items, err = splitItems(colDocuments, "document", get(colDocuments)); err != nil {
		return p, err
	}
	for j, it := range items {
		path, label := fmt.Sprintf("documents[%d]", j), fmt.Sprintf("document %d", j+1)
		parts := splitParts(it)
		if len(parts) != 4 {
			return p, &pathError{path, fmt.Sprintf("%s %q is not kind:ISSUER:valid_from:valid_to", label, snippet([]byte(it)))}
		}
		d := rules.Document{Kind: rules.DocumentKind(parts[0]), Issuer: solidarity.MemberState(parts[1])}
		if d.ValidFrom, err = parseDate(path+".valid_from", label+": valid_from", parts[2]); err != nil {
			return p, err
		}
		if d.ValidTo, err = parseDate(path+".valid_to", label+": valid_to", parts[3]); err != nil {
			return p, err
		}
		p.Documents = append(p.Documents, d)
	}

	if items, err = splitItems(colDiplomas, "diploma", get(colDiplomas)); err != nil {
		return p, err
	}
	for j, it := range items {
		path, label := fmt.Sprintf("diplomas[%d]", j), fmt.Sprintf("diploma %d", j+1)
		parts := splitParts(it)
		if len(parts) != 2 {
			return p, &pathError{path, fmt.Sprintf("%s %q is not ISSUER:date", label, snippet([]byte(it)))}
		}
		d := rules.Diploma{Issuer: solidarity.MemberState(parts[0])}
		if d.Issued, err = parseDate(path+".issued", label+": issued", parts[1]); err != nil {
			return p, err
		}
		p.Diplomas = append(p.Diplomas, d)
	}

	if items, err = splitItems(colStays, "prior stay", get(colStays)); err != nil {
		return p, err
	}
	for j, it := range items {
		path, label := fmt.Sprintf("prior_stays[%d]", j), fmt.Sprintf("prior stay %d", j+1)
		parts := splitParts(it)
		if len(parts) != 3 {
			return p, &pathError{path, fmt.Sprintf("%s %q is not STATE:from:to (to empty while it goes on)", label, snippet([]byte(it)))}
		}
		s := rules.Stay{State: solidarity.MemberState(parts[0])}
		if s.From, err = parseDate(path+".from", label+": from", parts[1]); err != nil {
			return p, err
		}
		if s.To, err = parseDate(path+".to", label+": to", parts[2]); err != nil {
			return p, err
		}
		p.PriorStays = append(p.PriorStays, s)
	}

	for _, b := range []struct {
		col string
		v   *bool
	}{{colMinor, &p.UnaccompaniedMinor}, {colMedical, &p.Medical}, {colSecurity, &p.SecurityFlag}} {
		s := get(b.col)
		var ok bool
		if *b.v, ok = parseBool(s); !ok {
			return p, &pathError{b.col, fmt.Sprintf("%s %q is not true or false (yes/no, 1/0, or empty)", b.col, s)}
		}
	}

	if items, err = splitItems(colPreferences, "preference", get(colPreferences)); err != nil {
		return p, err
	}
	for _, it := range items {
		p.Preferences = append(p.Preferences, solidarity.MemberState(it))
	}
	return p, nil
}

// splitItems splits a cell at ';'. An empty cell has no items; an empty item is an
// error.
func splitItems(col, what, s string) ([]string, *pathError) {
	if s == "" {
		return nil, nil
	}
	items := strings.Split(s, ";")
	for j := range items {
		items[j] = strings.TrimSpace(items[j])
		if items[j] == "" {
			return nil, &pathError{fmt.Sprintf("%s[%d]", col, j), fmt.Sprintf("%s %d is empty (items are separated by ';')", what, j+1)}
		}
	}
	return items, nil
}

func splitParts(item string) []string {
	parts := strings.Split(item, ":")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// parseDate reads YYYY-MM-DD as midnight UTC; "" is the zero time.
func parseDate(path, what, s string) (time.Time, *pathError) {
	if s == "" {
		return time.Time{}, nil
	}
	t, err := time.Parse(dateLayout, s)
	if err != nil || !dateRE.MatchString(s) {
		return time.Time{}, &pathError{path, fmt.Sprintf("%s %q is not a date (YYYY-MM-DD)", what, snippet([]byte(s)))}
	}
	return t, nil
}

func parseBool(s string) (v, ok bool) {
	switch strings.ToLower(s) {
	case "true", "yes", "1":
		return true, true
	case "false", "no", "0", "":
		return false, true
	}
	return false, false
}

// WriteCSV writes the list in the CSV format ParseCSV reads: the header block, then
// every column in the order of the variable columns. Like WriteJSON it writes the
// import form, without registration data (the arrival's ID and counts, case IDs). A
// list that does not pass Validate is not written, nor one holding facts the CSV
// columns cannot carry (a relative's birth date or dependency, a document's
// representation or withdrawal, a diploma's length of study, sources, text with
// surrounding white space): the error, EINVALID, names the field; write JSON then.
func (l *List) WriteCSV(w io.Writer) error {
	if err := l.Validate(); err != nil {
		return err
	}
	if err := l.csvFits(); err != nil {
		return err
	}
	var b bytes.Buffer
	a := l.Arrival
	fmt.Fprintf(&b, "# %s: %s\n# %s: %s\n# %s: %s\n# %s: %t\n# %s: %s\n",
		keyVessel, a.Vessel, keyPort, a.Port, keyAt, a.At.Format(time.RFC3339Nano), keySAR, a.SAR, keyBenefitting, a.Benefitting)
	cw := csv.NewWriter(&b)
	if err := cw.Write(columns); err != nil {
		return err
	}
	date := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return fmtDate(t)
	}
	flag := func(v bool) string {
		if v {
			return "true"
		}
		return ""
	}
	for _, p := range l.Persons {
		var rel, docs, dips, stays []string
		for _, r := range p.Relatives {
			s := fmt.Sprintf("%s:%s:%s", r.Relation, r.State, r.Status)
			if r.Ref != "" {
				s += ":" + r.Ref
			}
			rel = append(rel, s)
		}
		for _, d := range p.Documents {
			docs = append(docs, fmt.Sprintf("%s:%s:%s:%s", d.Kind, d.Issuer, date(d.ValidFrom), date(d.ValidTo)))
		}
		for _, d := range p.Diplomas {
			dips = append(dips, fmt.Sprintf("%s:%s", d.Issuer, date(d.Issued)))
		}
		for _, s := range p.PriorStays {
			stays = append(stays, fmt.Sprintf("%s:%s:%s", s.State, date(s.From), date(s.To)))
		}
		age := ""
		if p.AssessedAge != 0 {
			age = strconv.Itoa(p.AssessedAge)
		}
		rec := []string{
			p.Ref, string(p.Family), p.Name, date(p.BirthDate), age, string(p.Sex), p.Nationality,
			strings.Join(p.Languages, ";"), strings.Join(rel, ";"), strings.Join(docs, ";"),
			strings.Join(dips, ";"), strings.Join(stays, ";"),
			flag(p.UnaccompaniedMinor), flag(p.Medical), p.OtherVulnerability, flag(p.SecurityFlag),
			strings.Join(statesText(p.Preferences), ";"),
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

// csvFits reports the first fact of a valid list that the CSV format cannot carry.
func (l *List) csvFits() error {
	fail := func(path, what string) error {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: path, Message: "the CSV format has no place for " + what + ": write JSON"}
	}
	trimmed := func(s string) bool { return s == strings.TrimSpace(s) }
	if !trimmed(l.Arrival.Vessel) || !trimmed(l.Arrival.Port) {
		return fail("arrival", "white space around the vessel or the port")
	}
	for i, p := range l.Persons {
		at := fmt.Sprintf("persons[%d].", i)
		if !trimmed(p.Name) || !trimmed(p.OtherVulnerability) {
			return fail(at+"name", "white space around a name or a note")
		}
		for j, r := range p.Relatives {
			if (r != rules.FamilyMember{Ref: r.Ref, Relation: r.Relation, State: r.State, Status: r.Status}) {
				return fail(fmt.Sprintf("%srelatives[%d]", at, j), "a relative's facts other than relation, state, status and ref")
			}
		}
		for j, d := range p.Documents {
			if (d != rules.Document{Kind: d.Kind, Issuer: d.Issuer, ValidFrom: d.ValidFrom, ValidTo: d.ValidTo}) {
				return fail(fmt.Sprintf("%sdocuments[%d]", at, j), "a document's facts other than kind, issuer, valid_from and valid_to")
			}
		}
		for j, d := range p.Diplomas {
			if (d != rules.Diploma{Issuer: d.Issuer, Issued: d.Issued}) {
				return fail(fmt.Sprintf("%sdiplomas[%d]", at, j), "a diploma's facts other than issuer and date")
			}
		}
	}
	return nil
}

func statesText(ms []solidarity.MemberState) []string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = string(m)
	}
	return s
}
