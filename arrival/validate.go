package arrival

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"

	"solidarity"
	"solidarity/rules"
)

// Limits of one list: ParseList refuses more, naming the limit.
const (
	MaxPersons = 10_000   // persons in one list
	MaxBytes   = 10 << 20 // bytes of one file (10 MiB)
)

// Bounds of a time read from outside, when something happened (an arrival, a legal
// event on a case): TimeProblem.
const (
	// MaxClockSkew is how far after the receiving clock a time may be: the clock of
	// the officer's machine may run a little ahead of the server's.
	MaxClockSkew = 5 * time.Minute
)

// MinTime is the earliest time of an arrival or an event: 15 June 1990, when the
// Dublin Convention, the first of the responsibility rules this system applies, was
// signed. Earlier is a mistake (0001-01-01, a year typed short), never a case.
var MinTime = time.Date(1990, 6, 15, 0, 0, 0, 0, time.UTC)

// TimeProblem returns what is wrong with t as the time something happened, read at
// now ("" when nothing): missing (the zero time is never "now"), before MinTime, or
// in the future beyond MaxClockSkew. The one check of the arrivals' and the events'
// times; callers name the field.
func TimeProblem(t, now time.Time) string {
	switch {
	case t.IsZero():
		return "is missing"
	case t.Before(MinTime):
		return fmt.Sprintf("%s is before %s: not a time of this system", t.UTC().Format(time.RFC3339), MinTime.Format(time.DateOnly))
	case !now.IsZero() && t.After(now.Add(MaxClockSkew)):
		return fmt.Sprintf("%s is in the future (now %s)", t.UTC().Format(time.RFC3339), now.UTC().Format(time.RFC3339))
	}
	return ""
}

// Lengths of free text, in characters.
const (
	maxName  = 200 // a person's name; also the vessel and the port
	maxNote  = 1000
	maxYears = 120 // oldest possible person, and the highest assessed age
)

var (
	// refRE is a person's ref and a family value: no spaces, no ':' or ';' (the CSV
	// columns relatives and the others use them as separators).
	refRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]{0,63}$`)
	familyRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._/-]{0,79}$`)
	langRE   = regexp.MustCompile(`^[a-z]{2,3}$`)
)

// The values the rules package knows (rules.Validate checks them too).
var (
	relations = []rules.Relation{rules.Spouse, rules.Partner, rules.Child, rules.Parent,
		rules.ResponsibleAdult, rules.Sibling, rules.Relative}
	statuses = []rules.Status{rules.StatusBeneficiary, rules.StatusApplicant,
		rules.StatusLegallyPresent, rules.StatusIrregular, rules.StatusUnknown}
	documentKinds = []rules.DocumentKind{rules.ResidenceDocument, rules.LongStayVisa,
		rules.ShortStayVisa, rules.AirportTransitVisa}
)

// withdrawnCountries are codes that x/text still calls countries but ISO 3166-1 no
// longer assigns (they moved to ISO 3166-3).
var withdrawnCountries = []string{"AN", "CS", "NT", "SU", "YU"}

// ValidNationality reports whether s is an ISO 3166-1 alpha-2 code of a country as a
// nationality is written: two upper-case letters, a country today (not a deleted code
// such as SU, not a reserved one such as UK or EU, not an alias such as FX), or XK
// (Kosovo, user-assigned, as Eurostat and the EU institutions write it).
func ValidNationality(s string) bool {
	if len(s) != 2 || s[0] < 'A' || s[0] > 'Z' || s[1] < 'A' || s[1] > 'Z' {
		return false
	}
	if s == "XK" {
		return true
	}
	r, err := language.ParseRegion(s)
	if err != nil || !r.IsCountry() || r.IsPrivateUse() || r.Canonicalize() != r || r.M49() == 0 {
		return false
	}
	return r.String() == s && !slices.Contains(withdrawnCountries, s)
}

// Validate checks that the list describes a possible disembarkation, and returns the
// first problem found as a *solidarity.Error of code EINVALID, or nil. The checks, in
// this order: the arrival (vessel, port, at, a Member State benefitting); at least one
// and at most MaxPersons persons; then each person in turn, field by field in the
// order of the CSV columns: a unique ref, a family, a name, a birth date or an assessed
// age (0 to 120), dates possible against the arrival (no birth after it nor more than
// 120 years before it, no diploma or prior stay after it, no document valid to before
// valid from), sex F, M or X, a real ISO 3166-1 alpha-2 nationality
// (ValidNationality), ISO 639 language codes, relations, statuses and document kinds
// the rules know, Member State codes where one is named, a relative's ref naming
// another person of the list, an unaccompanied minor under 18 on the arrival date;
// last, that the person's Applicant passes rules.Validate.
//
// Field is the JSON path of the problem ("persons[3].birth_date") and the message
// names the person by position and ref ("person 4 (ref P004): ..."). The parsers call
// the same checks and locate their errors in the file instead: File is its name, and
// for CSV, Line its 1-based line and Field the column.
//
// Validate has no clock: an arrival in the future is ValidateAt's to refuse.
func (l *List) Validate() error { return l.validate(nil) }

// ValidateAt is Validate, and also refuses an arrival later than now (TimeProblem):
// what the case service checks, with its clock, before it registers a list.
func (l *List) ValidateAt(now time.Time) error {
	c := &checker{l: l, now: now}
	c.check()
	if c.err == nil {
		return nil
	}
	return c.err
}

func (l *List) validate(src *source) error {
	c := &checker{l: l, src: src}
	c.check()
	if c.err == nil {
		return nil // not a typed nil
	}
	return c.err
}

// source says where a list was read from, so that errors point into the file.
type source struct {
	name    string
	csv     bool
	arrival map[string]int // CSV: line of each "# key: value" header line
	header  int            // CSV: line of the header row
	cols    map[string]int // CSV: index of each column
	rows    [][]int        // CSV: per person, the line of each field (header order)
}

// line returns the line of person i's field in column col, or of the row's start.
func (s *source) line(i int, col string) int {
	if s == nil || !s.csv || i >= len(s.rows) || len(s.rows[i]) == 0 {
		return 0
	}
	if j, ok := s.cols[col]; ok && j < len(s.rows[i]) {
		return s.rows[i][j]
	}
	return s.rows[i][0]
}

// checker runs the checks of Validate and keeps the first problem.
type checker struct {
	l    *List
	src  *source
	err  *solidarity.Error
	day  time.Time      // the civil date of the arrival
	refs map[string]int // ref → index of the first person with it
	now  time.Time      // the clock to check the arrival against; zero: none
}

func (c *checker) file() string {
	if c.src == nil {
		return ""
	}
	return c.src.name
}

// arrivalFail records a problem with the arrival field key ("vessel", "at", ...).
func (c *checker) arrivalFail(key, format string, args ...any) {
	if c.err != nil {
		return
	}
	e := &solidarity.Error{Code: solidarity.EINVALID, File: c.file(), Field: "arrival." + key, Message: fmt.Sprintf(format, args...)}
	if c.src != nil && c.src.csv {
		e.Field, e.Line = key, c.src.arrival[key]
		if e.Line == 0 {
			e.Line = 1
		}
	}
	c.err = e
}

// listFail records a problem with the list as a whole.
func (c *checker) listFail(format string, args ...any) {
	if c.err != nil {
		return
	}
	e := &solidarity.Error{Code: solidarity.EINVALID, File: c.file(), Field: "persons", Message: fmt.Sprintf(format, args...)}
	if c.src != nil && c.src.csv {
		e.Field, e.Line = "", c.src.header
	}
	c.err = e
}

// fail records a problem with person i; path is the JSON path within the person
// ("birth_date", "relatives[1].state"). The message gets the row's label in front.
func (c *checker) fail(i int, path, format string, args ...any) {
	if c.err != nil {
		return
	}
	c.err = personError(c.src, i, c.l.Persons[i].Ref, path, fmt.Sprintf(format, args...))
}

// personError locates a problem with person i (ref as read) in src.
func personError(src *source, i int, ref, path, msg string) *solidarity.Error {
	e := &solidarity.Error{Code: solidarity.EINVALID, Field: fmt.Sprintf("persons[%d]", i)}
	if path != "" {
		e.Field += "." + path
	}
	label := "person"
	if src != nil {
		e.File = src.name
		if src.csv {
			label = "row"
			col, _, _ := strings.Cut(path, "[")
			col, _, _ = strings.Cut(col, ".")
			e.Field, e.Line = col, src.line(i, col)
		}
	}
	if refRE.MatchString(ref) {
		e.Message = fmt.Sprintf("%s %d (ref %s): %s", label, i+1, ref, msg)
	} else {
		e.Message = fmt.Sprintf("%s %d: %s", label, i+1, msg)
	}
	return e
}

// where says where person i's ref is, for a duplicate: a line or a JSON path.
func (c *checker) where(i int) string {
	if c.src != nil && c.src.csv {
		return fmt.Sprintf("on line %d", c.src.line(i, "ref"))
	}
	return fmt.Sprintf("at persons[%d]", i)
}

func (c *checker) check() {
	a := &c.l.Arrival
	c.arrivalText("vessel", a.Vessel)
	c.arrivalText("port", a.Port)
	switch {
	case a.At.IsZero():
		c.arrivalFail("at", "at (the time of the disembarkation) is missing")
	case a.At.Year() < 1 || a.At.Year() > 9999:
		c.arrivalFail("at", "at %v is not in the years 0001 to 9999", a.At)
	default:
		if p := TimeProblem(a.At, c.now); p != "" {
			c.arrivalFail("at", "at (the time of the disembarkation) %s", p)
		}
	}
	switch {
	case a.Benefitting == "":
		c.arrivalFail("benefitting_state", "benefitting_state is missing")
	case !a.Benefitting.Valid():
		c.arrivalFail("benefitting_state", "benefitting_state %q is not the Eurostat code of an EU Member State (Greece is EL)", string(a.Benefitting))
	}
	if c.err != nil {
		return
	}
	c.day = civil(a.At)
	switch n := len(c.l.Persons); {
	case n == 0:
		c.listFail("the list has no persons")
	case n > MaxPersons:
		c.listFail("%d persons: more than %d, the limit of one list", n, MaxPersons)
	}
	c.refs = make(map[string]int, len(c.l.Persons))
	for i, p := range c.l.Persons {
		if _, ok := c.refs[p.Ref]; !ok && p.Ref != "" {
			c.refs[p.Ref] = i
		}
	}
	for i := range c.l.Persons {
		if c.err != nil {
			return
		}
		c.person(i)
	}
}

func (c *checker) arrivalText(key, s string) {
	switch {
	case strings.TrimSpace(s) == "":
		c.arrivalFail(key, "%s is missing", key)
	case !plainText(s):
		c.arrivalFail(key, "%s is not valid UTF-8 text without control characters: %s", key, TextProblem(s))
	case utf8.RuneCountInString(s) > maxName:
		c.arrivalFail(key, "%s is longer than %d characters", key, maxName)
	}
}

// plainText is ValidText: the check of every free-text field of a list.
func plainText(s string) bool { return ValidText(s) }

// ValidText reports whether s may be stored and shown as one line of free text (a
// name, a vessel, a port, a note): valid UTF-8 without control characters (no line
// breaks either: a value is one line of a CSV header or cell), without format
// characters other than the zero-width non-joiner and joiner that Persian, Arabic and
// Indic names need — no bidirectional embeddings, overrides and isolates (U+202A–
// U+202E, U+2066–U+2069), marks (U+200E, U+200F, U+061C), zero-width spaces or byte
// order marks, which could make a name display as another or hide text — and without
// line or paragraph separators, private-use characters or noncharacters. The one
// rule for every free-text field of a person and an arrival (TextProblem).
func ValidText(s string) bool {
	return utf8.ValidString(s) && strings.IndexFunc(s, forbiddenRune) < 0
}

// TextProblem returns why s is not ValidText ("" when it is), naming the first
// character refused by its code point, never quoting the text: it may be a name.
func TextProblem(s string) string {
	if !utf8.ValidString(s) {
		return "it is not valid UTF-8"
	}
	i := strings.IndexFunc(s, forbiddenRune)
	if i < 0 {
		return ""
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	what := "a control character"
	switch {
	case bidiControl(r):
		what = "a bidirectional control character"
	case unicode.Is(unicode.Cf, r):
		what = "an invisible format character"
	case unicode.In(r, unicode.Zl, unicode.Zp):
		what = "a line or paragraph separator"
	case unicode.Is(unicode.Co, r):
		what = "a private-use character"
	case noncharacter(r):
		what = "a noncharacter"
	}
	return fmt.Sprintf("it holds %s (U+%04X at character %d)", what, r, utf8.RuneCountInString(s[:i])+1)
}

// forbiddenRune is a character ValidText refuses.
func forbiddenRune(r rune) bool {
	switch {
	case r == '\u200C' || r == '\u200D': // ZWNJ, ZWJ: part of how some scripts spell a name
		return false
	case unicode.IsControl(r), unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co, unicode.Cs),
		bidiControl(r), noncharacter(r), r == utf8.RuneError:
		return true
	}
	return false
}

// bidiControl reports whether r is a bidirectional formatting character: the marks,
// embeddings, overrides and isolates of Unicode's Bidi_Control property.
func bidiControl(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// noncharacter reports whether r is one of Unicode's 66 noncharacters.
func noncharacter(r rune) bool {
	return r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE
}

// person checks person i, part by part in the order of its fields, then as the rules
// see it: who (ref, family, name), age, sex, nationality and languages, relatives,
// documents, diplomas, prior stays, vulnerability and preferences.
func (c *checker) person(i int) {
	p := &c.l.Persons[i]
	c.identity(i, p)
	c.age(i, p)
	c.particulars(i, p)
	for j, r := range p.Relatives {
		c.relative(i, j, &r)
	}
	for j, d := range p.Documents {
		c.document(i, j, d)
	}
	for j, d := range p.Diplomas {
		path, label := fmt.Sprintf("diplomas[%d]", j), fmt.Sprintf("diploma %d", j+1)
		c.state(i, path+".issuer", label+": issuer", d.Issuer, false)
		if c.requiredDate(i, path+".issued", label+": issued", d.Issued) && d.Issued.After(c.day) {
			c.fail(i, path+".issued", "%s: issued %s, after the arrival %s", label, fmtDate(d.Issued), fmtDate(c.day))
		}
	}
	for j, s := range p.PriorStays {
		c.priorStay(i, j, s)
	}
	c.vulnerability(i, p)
	for j, m := range p.Preferences {
		path := fmt.Sprintf("preferences[%d]", j)
		c.state(i, path, fmt.Sprintf("preference %d", j+1), m, false)
		if slices.Index(p.Preferences, m) < j {
			c.fail(i, path, "preference %d: %s is listed twice", j+1, m)
		}
	}
	if c.err != nil {
		return
	}
	// The rules' own checks, on the rules' view: a valid person is a valid applicant.
	if err := rules.Validate(p.Applicant(c.l.Arrival, c.day)); err != nil {
		e, ok := errors.AsType[*solidarity.Error](err)
		if !ok {
			c.fail(i, "", "%v", err)
			return
		}
		path := rulesPath(e.Field)
		c.fail(i, path, "%s: %s", path, e.Message)
	}
}

// identity checks who person i is: a well-formed ref of its own, a family and a name.
func (c *checker) identity(i int, p *Person) {
	switch first := c.refs[p.Ref]; {
	case p.Ref == "":
		c.fail(i, "ref", "ref is missing")
	case !refRE.MatchString(p.Ref):
		c.fail(i, "ref", "ref %q is not 1 to 64 letters, digits, '.', '_', '-' or '/' starting with a letter or digit", p.Ref)
	case first != i:
		c.fail(i, "ref", "duplicate ref %s, first %s", p.Ref, c.where(first))
	}
	switch f := string(p.Family); {
	case f == "":
		c.fail(i, "family", "family is missing (the parsers give a person alone the family F-<ref>)")
	case !familyRE.MatchString(f):
		c.fail(i, "family", "family %q is not 1 to 80 letters, digits, '.', '_', '-' or '/' starting with a letter or digit", f)
	}
	// The name is never quoted in a message: errors reach logs.
	switch {
	case strings.TrimSpace(p.Name) == "":
		c.fail(i, "name", "name is missing")
	case !plainText(p.Name):
		c.fail(i, "name", "name is not valid UTF-8 text without control characters: %s", TextProblem(p.Name))
	case utf8.RuneCountInString(p.Name) > maxName:
		c.fail(i, "name", "name is longer than %d characters", maxName)
	}
}

// age checks the birth date (a date before the arrival, at most maxYears before it) or
// the assessed age: one of them is required.
func (c *checker) age(i int, p *Person) {
	if !p.BirthDate.IsZero() && c.date(i, "birth_date", "birth_date", p.BirthDate) {
		switch {
		case p.BirthDate.After(c.day):
			c.fail(i, "birth_date", "birth_date %s is after the arrival %s", fmtDate(p.BirthDate), fmtDate(c.day))
		case p.BirthDate.Before(c.day.AddDate(-maxYears, 0, 0)):
			c.fail(i, "birth_date", "birth_date %s is more than %d years before the arrival %s", fmtDate(p.BirthDate), maxYears, fmtDate(c.day))
		}
	}
	switch {
	case p.AssessedAge < 0 || p.AssessedAge > maxYears:
		c.fail(i, "assessed_age", "assessed_age %d is not between 0 and %d", p.AssessedAge, maxYears)
	case p.BirthDate.IsZero() && p.AssessedAge == 0:
		c.fail(i, "birth_date", "birth_date and assessed_age are both missing: one of them is required")
	}
}

// particulars checks sex, nationality and languages: codes from their lists.
func (c *checker) particulars(i int, p *Person) {
	switch p.Sex {
	case Female, Male, OtherSx:
	case "":
		c.fail(i, "sex", "sex is missing (F, M or X)")
	default:
		c.fail(i, "sex", "sex %q is not F, M or X", string(p.Sex))
	}
	if p.Nationality != "" && !ValidNationality(p.Nationality) {
		c.fail(i, "nationality", "nationality %q is not an ISO 3166-1 alpha-2 country code (two upper-case letters, e.g. ER)", p.Nationality)
	}
	for j, lang := range p.Languages {
		if !langRE.MatchString(lang) {
			c.fail(i, fmt.Sprintf("languages[%d]", j), "language %d %q is not an ISO 639 code of 2 or 3 lower-case letters", j+1, lang)
		}
	}
}

// document checks document j of person i: a known kind, its issuer, and its period of
// validity in order.
func (c *checker) document(i, j int, d rules.Document) {
	path, label := fmt.Sprintf("documents[%d]", j), fmt.Sprintf("document %d", j+1)
	if !slices.Contains(documentKinds, d.Kind) {
		c.fail(i, path+".kind", "%s: kind %q is not one of %s", label, d.Kind, joinValues(documentKinds))
	}
	c.state(i, path+".issuer", label+": issuer", d.Issuer, false)
	from := c.requiredDate(i, path+".valid_from", label+": valid_from", d.ValidFrom)
	to := c.requiredDate(i, path+".valid_to", label+": valid_to", d.ValidTo)
	if from && to && d.ValidTo.Before(d.ValidFrom) {
		c.fail(i, path+".valid_to", "%s: valid_to %s is before valid_from %s", label, fmtDate(d.ValidTo), fmtDate(d.ValidFrom))
	}
	if !d.Withdrawn.IsZero() {
		c.date(i, path+".withdrawn", label+": withdrawn", d.Withdrawn)
	}
}

// priorStay checks prior stay j of person i: a Member State, and a period that began
// before the arrival and ends after it began.
func (c *checker) priorStay(i, j int, s rules.Stay) {
	path, label := fmt.Sprintf("prior_stays[%d]", j), fmt.Sprintf("prior stay %d", j+1)
	c.state(i, path+".state", label+": state", s.State, false)
	from := c.requiredDate(i, path+".from", label+": from", s.From)
	if from && s.From.After(c.day) {
		c.fail(i, path+".from", "%s: from %s is after the arrival %s", label, fmtDate(s.From), fmtDate(c.day))
	}
	if !s.To.IsZero() && c.date(i, path+".to", label+": to", s.To) && from && s.To.Before(s.From) {
		c.fail(i, path+".to", "%s: to %s is before from %s", label, fmtDate(s.To), fmtDate(s.From))
	}
}

// vulnerability checks that an unaccompanied minor is a minor on the arrival date, and
// the free text of another vulnerability.
func (c *checker) vulnerability(i int, p *Person) {
	if p.UnaccompaniedMinor && !p.Minor(c.day) {
		c.fail(i, "unaccompanied_minor", "an unaccompanied minor must be under 18 on the arrival date %s (%s)", fmtDate(c.day), ageText(p))
	}
	switch {
	case !plainText(p.OtherVulnerability):
		c.fail(i, "other_vulnerability", "other_vulnerability is not valid UTF-8 text without control characters: %s", TextProblem(p.OtherVulnerability))
	case utf8.RuneCountInString(p.OtherVulnerability) > maxNote:
		c.fail(i, "other_vulnerability", "other_vulnerability is longer than %d characters", maxNote)
	}
}

func (c *checker) relative(i, j int, r *rules.FamilyMember) {
	path, label := fmt.Sprintf("relatives[%d]", j), fmt.Sprintf("relative %d", j+1)
	if !slices.Contains(relations, r.Relation) {
		c.fail(i, path+".relation", "%s: relation %q is not one of %s", label, r.Relation, joinValues(relations))
	}
	c.state(i, path+".state", label+": state", r.State, true)
	if !slices.Contains(statuses, r.Status) {
		c.fail(i, path+".status", "%s: status %q is not one of %s, or empty (unknown)", label, r.Status, joinValues(statuses[:len(statuses)-1]))
	}
	if r.Ref != "" {
		switch k, ok := c.refs[r.Ref]; {
		case !ok:
			c.fail(i, path+".ref", "%s: family link to unknown person %s", label, quoteRef(r.Ref))
		case k == i:
			c.fail(i, path+".ref", "%s: family link of %s to itself", label, r.Ref)
		}
	}
	if !r.BirthDate.IsZero() {
		c.date(i, path+".birth_date", label+": birth_date", r.BirthDate)
	}
}

// quoteRef writes a ref as it is when it is well formed, quoted otherwise.
func quoteRef(ref string) string {
	if refRE.MatchString(ref) {
		return ref
	}
	return fmt.Sprintf("%q", ref)
}

// state checks a Member State code; "" passes only when optional.
func (c *checker) state(i int, path, what string, m solidarity.MemberState, optional bool) {
	switch {
	case m == "" && !optional:
		c.fail(i, path, "%s is missing (a Member State)", what)
	case m != "" && !m.Valid():
		c.fail(i, path, "%s %q is not the Eurostat code of an EU Member State (Greece is EL)", what, string(m))
	}
}

// requiredDate checks a date that must be given; it reports whether it is usable.
func (c *checker) requiredDate(i int, path, what string, t time.Time) bool {
	if t.IsZero() {
		c.fail(i, path, "%s is missing", what)
		return false
	}
	return c.date(i, path, what, t)
}

// date checks that a person's date is a civil date: midnight UTC, years 0001 to 9999.
func (c *checker) date(i int, path, what string, t time.Time) bool {
	if t.Location() != time.UTC || !t.Equal(civil(t)) || t.Year() < 1 || t.Year() > 9999 {
		c.fail(i, path, "%s %v is not a date (midnight UTC, years 0001 to 9999)", what, t)
		return false
	}
	return true
}

// rulesPath translates a field of rules.Applicant into the Person's JSON path.
func rulesPath(f string) string {
	for _, r := range [][2]string{{"family[", "relatives["}, {"stays[", "prior_stays["}} {
		if rest, ok := strings.CutPrefix(f, r[0]); ok {
			return r[1] + rest
		}
	}
	return f
}

func ageText(p *Person) string {
	if !p.BirthDate.IsZero() {
		return "born " + fmtDate(p.BirthDate)
	}
	return fmt.Sprintf("assessed age %d", p.AssessedAge)
}

func joinValues[T ~string](vs []T) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = string(v)
	}
	return strings.Join(s, ", ")
}

// civil returns the calendar date of t (in t's own location) as midnight UTC.
func civil(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

func fmtDate(t time.Time) string { return t.Format(dateLayout) }

const dateLayout = "2006-01-02"
