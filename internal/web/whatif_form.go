package web

import (
	"fmt"
	"math"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/i18n"
	"solidarity/internal/scenariofile"
	"solidarity/simulation"
)

// The What-if page's form (issue 15): which shipped scenario it starts from and what
// the reader changes in it. The form is sent with GET, so that the address of a view
// reproduces it; whatIfQuery reads it back, checks every field against the bounds
// below, and whatIfTOML writes scenario B as a scenario file: base = the shipped
// scenario, plus the keys that differ from it and nothing else. B is always built from
// that text by scenariofile.Parse, with no directory: a request never reads a file on
// the server, and the file offered for download is the very one the page ran.

// whatIfDefaultBase is the scenario the page opens on: the first cycle, under today's
// rules.
const whatIfDefaultBase = "cycle-2026"

// Bounds of the page's fields. The runs are fewer than the API allows (MaxAPIRuns):
// the page answers while the reader waits, and its bands do not move much beyond
// 1 000 runs. The other bounds are the engine's (simulation/prepare.go), so that a value the
// form lets through is one the engine accepts.
const (
	whatIfMaxRuns      = 1000
	whatIfMaxScale     = 1000 // percent: simulation allows a scale of 0 to 10
	whatIfMaxReference = 10_000_000
	// whatIfMaxText bounds a field's text before it is parsed as a number.
	whatIfMaxText = 32
)

// Query keys of the form; a choice is "choice." + a state's code.
const (
	qBase       = "base"
	qReference  = "reference"
	qScale      = "arrivals_scale"
	qOffsets    = "offsets_at_transfer_ratio"
	qRatio      = "dublin_transfer_ratio"
	qReturnRate = "return_rate"
	qRuns       = "runs"
	qSeed       = "seed"
	qChoicePfx  = "choice."
	qTable      = "table" // the CSV's table (whatIfCSV)
	qSide       = "side"  // the CSV's side: a, b or compare
	whatIfFile  = "whatif.toml"
)

// choiceForms are the forms a state's choice may take on the page, as the scenario
// file spells them (form = "…"), each with its label.
var choiceForms = []struct{ Form, Label string }{
	{"relocate", msg("Relocation")},
	{"pay", msg("Financial contribution")},
	{"offset", msg("Offsets (Art. 63)")},
	{"alternative", msg("Alternative measures")},
	{"refuse", msg("Refusal")},
}

// formLabel is the label of a choice's form as Choice.Form names it ("mixed" for a
// choice of several forms, as some shipped scenarios make).
func formLabel(form string) string {
	for _, f := range choiceForms {
		if f.Form == form {
			return f.Label
		}
	}
	switch form {
	case "mixed":
		return msg("Mixed")
	case "":
		return msg("none (no solidarity)")
	}
	return form
}

// whatIf is a read form: the base scenario, the values of the fields (as the reader
// sent them, for the form shown again) and what they come to.
type whatIf struct {
	Info scenariofile.Info
	Base *simulation.Scenario // A: the shipped scenario as it is

	// The fields as text, for the form.
	Reference, Scale, Ratio, ReturnRate, Runs, Seed string
	Offsets                                         bool
	// Choices are the forms chosen per state ("" where the base's choice is kept).
	Choices map[simulation.Code]string

	// Their values: a fraction for the scale and rates.
	reference, scale, ratio, returnRate float64
	runs                                int
	seed                                uint64
}

// fieldError is a field the reader must correct: its query key and what is wrong, in
// the reader's language.
type fieldError struct {
	Field, Message string
}

func (e *fieldError) Error() string { return e.Field + ": " + e.Message }

// solidarity returns e as the project's error, for the CSV and TOML downloads (JSON).
func (e *fieldError) solidarity() *solidarity.Error {
	return &solidarity.Error{Code: solidarity.EINVALID, Field: e.Field, Message: e.Message}
}

// baseScenario parses the shipped scenario name, which must be one of
// scenariofile.Shipped(): the page never hands a reader's text to a function that
// might read it as a path.
func baseScenario(l *i18n.Locale, name string) (scenariofile.Info, *simulation.Scenario, error) {
	for _, in := range scenariofile.Shipped() {
		if in.Name != name {
			continue
		}
		src, err := scenariofile.ShippedSource(name)
		if err != nil {
			return in, nil, err
		}
		s, err := scenariofile.Parse(name, src, nil)
		return in, s, err
	}
	var names []string
	for _, in := range scenariofile.Shipped() {
		names = append(names, in.Name)
	}
	return scenariofile.Info{}, nil, &fieldError{qBase, l.T("%s is not a shipped scenario; choose one of %s.", strconv.Quote(short(name)), strings.Join(names, ", "))}
}

// short cuts a reader's text for an error message: the page repeats what was sent,
// not a megabyte of it.
func short(s string) string {
	if len(s) <= whatIfMaxText {
		return s
	}
	r := []rune(s)
	if len(r) > whatIfMaxText {
		r = r[:whatIfMaxText]
	}
	return string(r) + "…"
}

// baseDefaults are the values the base scenario gives the form's fields.
func baseDefaults(s *simulation.Scenario) (reference, scale, ratio, returnRate float64, runs int, seed uint64) {
	reference = s.Params.Reference.Value
	scale = 1
	if s.Ops.ArrivalsScale.Name != "" {
		scale = s.Ops.ArrivalsScale.Value
	}
	ratio = 0.14 // EUAA 2024, the figure, where the scenario names none
	if s.Ops.DublinTransferRatio.Name != "" {
		ratio = s.Ops.DublinTransferRatio.Value
	}
	returnRate = s.Ops.ReturnRate.Value
	runs, seed = s.Runs, s.Seed
	if runs <= 0 || runs > whatIfMaxRuns {
		runs = whatIfMaxRuns
	}
	if seed == 0 {
		seed = 1
	}
	return
}

// baseForm is the choice the base scenario makes for c, as Choice.Form names it.
func baseForm(s *simulation.Scenario, c simulation.Code) string {
	ch, ok := s.Choices[c]
	if !ok {
		ch = s.DefaultChoice
	}
	return ch.Form()
}

// whatIfQuery reads the form from q. extra are further keys the caller reads itself
// (the CSV's table and side); any other key is an error, so that a misspelt field in
// a shared address is not silently ignored. It returns the form even with an error,
// for the page to show again with what the reader sent.
func whatIfQuery(l *i18n.Locale, q url.Values, extra ...string) (*whatIf, error) {
	name := q.Get(qBase)
	if name == "" {
		name = whatIfDefaultBase
	}
	info, base, err := baseScenario(l, name)
	if err != nil {
		return nil, err
	}
	f := &whatIf{Info: info, Base: base, Choices: map[simulation.Code]string{}}
	f.reference, f.scale, f.ratio, f.returnRate, f.runs, f.seed = baseDefaults(base)
	f.Reference, f.Scale = num(f.reference), pct(f.scale)
	f.Ratio, f.ReturnRate = pct(f.ratio), pct(f.returnRate)
	f.Runs, f.Seed = strconv.Itoa(f.runs), strconv.FormatUint(f.seed, 10)
	f.Offsets = base.Ops.OffsetsAtTransferRatio

	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range q {
			if !yield(k) {
				return
			}
		}
	})
	var first *fieldError
	fail := func(err *fieldError) {
		if first == nil {
			first = err
		}
	}
	for _, k := range keys {
		v := q[k][len(q[k])-1] // the last: a checkbox follows its hidden "false"
		switch {
		case k == qBase:
		case k == qReference:
			f.Reference = v
			x, err := number(l, k, l.T("Reference number"), v, 1, whatIfMaxReference, 1)
			f.reference = x
			fail(err)
			if err == nil && x != math.Trunc(x) {
				fail(&fieldError{k, l.T("%s: %s is not a whole number of relocations.", l.T("Reference number"), short(v))})
			}
		case k == qScale:
			f.Scale = v
			x, err := number(l, k, l.T("Arrivals (%% of the scenario's)"), v, 0, whatIfMaxScale, 100)
			f.scale = x
			fail(err)
		case k == qRatio:
			f.Ratio = v
			x, err := number(l, k, l.T("Dublin transfer ratio (%%)"), v, 0, 100, 100)
			f.ratio = x
			fail(err)
		case k == qReturnRate:
			f.ReturnRate = v
			x, err := number(l, k, l.T("Return rate after a negative decision (%%)"), v, 0, 100, 100)
			f.returnRate = x
			fail(err)
		case k == qOffsets:
			switch v {
			case "true", "on":
				f.Offsets = true
			case "false", "":
				f.Offsets = false
			default:
				fail(&fieldError{k, l.T("%s: want true or false, not %s.", l.T("Offsets count at the Dublin transfer ratio"), strconv.Quote(short(v)))})
			}
		case k == qRuns:
			f.Runs = v
			x, err := number(l, k, l.T("Runs"), v, 0, whatIfMaxRuns, 1)
			if err == nil && x != math.Trunc(x) {
				err = &fieldError{k, l.T("%s: %s is not a whole number.", l.T("Runs"), short(v))}
			}
			if err != nil {
				err.Message += " " + l.T("The page makes at most %s runs; POST /api/v1/simulations makes up to %s.", l.Int(whatIfMaxRuns), l.Int(MaxAPIRuns))
			}
			f.runs = int(x)
			fail(err)
		case k == qSeed:
			f.Seed = v
			s, err := strconv.ParseUint(strings.TrimSpace(v), 10, 64)
			if err != nil || s == 0 {
				fail(&fieldError{k, l.T("%s: want a whole number from 1 to %s, not %s.", l.T("Seed"), "18446744073709551615", strconv.Quote(short(v)))})
			}
			f.seed = s
		case strings.HasPrefix(k, qChoicePfx):
			fail(f.choice(l, k, v))
		case slices.Contains(extra, k):
		default:
			fail(&fieldError{k, l.T("%s is not a field of this form.", strconv.Quote(short(k)))})
		}
	}
	if first != nil {
		return f, first
	}
	return f, nil
}

// choice reads the form chosen for one state; "" keeps the base's choice.
func (f *whatIf) choice(l *i18n.Locale, key, v string) *fieldError {
	code := strings.TrimPrefix(key, qChoicePfx)
	c := simulation.Code(code)
	if m, ok := solidarity.ParseMemberState(code); ok {
		c = m
	}
	if !slices.Contains(f.Base.Participating, c) {
		return &fieldError{key, l.T("%s is not a state of the scenario %s.", strconv.Quote(short(code)), f.Info.Name)}
	}
	if v != "" && !slices.ContainsFunc(choiceForms, func(x struct{ Form, Label string }) bool { return x.Form == v }) {
		f.Choices[c] = ""
		return &fieldError{key, l.T("%s: %s is not a form of solidarity; want relocate, pay, offset, alternative or refuse.", string(c), strconv.Quote(short(v)))}
	}
	f.Choices[c] = v
	return nil
}

// number reads a field's number, which may use a decimal comma, and checks that it
// lies in [lo, hi]; the value returned is divided by unit (100 for a percentage).
func number(l *i18n.Locale, key, label, v string, lo, hi, unit float64) (float64, *fieldError) {
	t, ok := plainNumber(l, v)
	x, err := strconv.ParseFloat(t, 64)
	if !ok {
		err = strconv.ErrSyntax
	}
	switch {
	case len(t) > whatIfMaxText || err != nil || math.IsNaN(x) || math.IsInf(x, 0):
		return 0, &fieldError{key, l.T("%s: %s is not a number.", label, strconv.Quote(short(v)))}
	case x < lo || x > hi:
		return 0, &fieldError{key, l.T("%s: %s is out of range; want %s to %s.", label, short(v), num(lo), num(hi))}
	}
	return x / unit, nil
}

// plainNumber reads a number as a reader may type it in their language: with the
// digit groups the page prints (21.000 in German, 30 000 in French, 1,000 in English)
// and either decimal mark. A group separator is one only where it groups three
// digits; a text with both marks in the wrong order, or a mark twice that does not
// group, is not a number (false). It returns the number with a dot decimal and no
// groups, for strconv.
func plainNumber(l *i18n.Locale, v string) (string, bool) {
	t := strings.TrimSpace(v)
	// Spaces group digits in French and others (a plain, no-break or narrow no-break
	// space); they never mark decimals.
	t = strings.Map(func(r rune) rune {
		if r == ' ' || r == '\u00a0' || r == '\u202f' {
			return -1
		}
		return r
	}, t)
	group, dec := ",", "."
	if p := l.Float(1.5, 1); strings.Contains(p, ",") {
		group, dec = ".", ","
	}
	grouped := groupedRE[group]
	if m := grouped.FindStringSubmatch(t); m != nil {
		t = strings.ReplaceAll(m[1], group, "") + strings.Replace(m[2], dec, ".", 1)
		return t, true
	}
	if strings.Contains(t, ".") && strings.Contains(t, ",") {
		return t, false
	}
	return strings.ReplaceAll(t, ",", "."), true
}

// groupedRE match a number with its digits grouped by the separator (the key) and
// the other mark as its decimal: "1.234.567,5" for ".", "1,234.5" for ",".
var groupedRE = map[string]*regexp.Regexp{
	".": regexp.MustCompile(`^([+-]?\d{1,3}(?:\.\d{3})+)((?:,\d+)?)$`),
	",": regexp.MustCompile(`^([+-]?\d{1,3}(?:,\d{3})+)((?:\.\d+)?)$`),
}

// num writes a number as the form's fields and the scenario file hold it: a dot
// decimal, no digit groups, no more digits than it needs.
func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

// pct writes a fraction as the form's percentage: 0.14 is "14", not the
// "14.000000000000002" of 100 × 0.14 in binary.
func pct(x float64) string { return num(math.Round(x*100*1e9) / 1e9) }

// frac writes a fraction for the scenario file, always with a decimal point, so that
// it reads as a TOML float ("1.0", not "1").
func frac(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// changed reports whether two of the form's values differ by more than the rounding
// of a percentage typed in the form.
func changed(a, b float64) bool { return math.Abs(a-b) > 1e-12 }

// TOML writes scenario B: the base, and the keys the form changes. The runs and
// seed are written too, so that `solidarity simulate FILE` reproduces the page's B.
func (f *whatIf) TOML() []byte {
	ref, scale, ratio, rr, _, _ := baseDefaults(f.Base)
	var b strings.Builder
	fmt.Fprintf(&b, "# Scenario B of the What-if page: the shipped scenario %q with the changes below.\n", f.Info.Name)
	// The runs and seed are given on the command line too: a file cannot ask for the
	// expected run alone (runs = 0 is refused there), the command line can.
	fmt.Fprintf(&b, "# Reproduce it with: solidarity simulate FILE --runs %d --seed %d\n", f.runs, f.seed)
	b.WriteString("# A number without a source is an assumption: the output lists what depends on it.\n")
	fmt.Fprintf(&b, "base = %q\n", f.Info.Name)
	fmt.Fprintf(&b, "title = %q\n", f.Info.Name+": what if")
	if f.runs > 0 {
		fmt.Fprintf(&b, "runs = %d\n", f.runs)
	}
	fmt.Fprintf(&b, "seed = %d\n", f.seed)
	if changed(f.reference, ref) {
		fmt.Fprintf(&b, "\n[parameters]\nreference = %s\n", num(f.reference))
	}
	for _, c := range f.Base.Participating {
		if v := f.Choices[c]; v != "" && v != baseForm(f.Base, c) {
			fmt.Fprintf(&b, "\n[choice.%s]\nform = %q\n", c, v)
		}
	}
	var ops []string
	if changed(f.scale, scale) {
		ops = append(ops, "arrivals_scale = "+frac(f.scale))
	}
	if f.Offsets != f.Base.Ops.OffsetsAtTransferRatio {
		ops = append(ops, "offsets_at_transfer_ratio = "+strconv.FormatBool(f.Offsets))
	}
	if changed(f.ratio, ratio) || (f.Offsets && f.Base.Ops.DublinTransferRatio.Name == "") {
		ops = append(ops, "dublin_transfer_ratio = "+frac(f.ratio))
	}
	if changed(f.returnRate, rr) {
		ops = append(ops, "return_rate = "+frac(f.returnRate))
	}
	if len(ops) > 0 {
		b.WriteString("\n[operations]\n" + strings.Join(ops, "\n") + "\n")
	}
	return []byte(b.String())
}

// Changes lists what B changes, in the reader's language, for the page's summary.
func (f *whatIf) Changes(l *i18n.Locale) []string {
	ref, scale, ratio, rr, _, _ := baseDefaults(f.Base)
	var out []string
	if changed(f.reference, ref) {
		out = append(out, l.T("reference number %s instead of %s", l.Float(f.reference, 0), l.Float(ref, 0)))
	}
	for _, c := range f.Base.Participating {
		if v := f.Choices[c]; v != "" && v != baseForm(f.Base, c) {
			out = append(out, l.T("%s: %s instead of %s", l.T(simulation.Name(c)), l.T(formLabel(v)), l.T(formLabel(baseForm(f.Base, c)))))
		}
	}
	if changed(f.scale, scale) {
		out = append(out, l.T("arrivals at %s of the scenario's", l.Pct(f.scale)))
	}
	if f.Offsets != f.Base.Ops.OffsetsAtTransferRatio {
		if f.Offsets {
			out = append(out, l.T("offsets count at the Dublin transfer ratio (%s)", l.Pct(f.ratio)))
		} else {
			out = append(out, l.T("offsets count in full"))
		}
	} else if changed(f.ratio, ratio) {
		out = append(out, l.T("Dublin transfer ratio %s", l.Pct(f.ratio)))
	}
	if changed(f.returnRate, rr) {
		out = append(out, l.T("return rate %s", l.Pct(f.returnRate)))
	}
	return out
}

// Query is the form as a query string, for the page's links (the CSV and TOML
// downloads, the language switcher): the fields that differ from the base, and the
// runs and seed.
func (f *whatIf) Query() url.Values {
	ref, scale, ratio, rr, _, _ := baseDefaults(f.Base)
	q := url.Values{}
	q.Set(qBase, f.Info.Name)
	if changed(f.reference, ref) {
		q.Set(qReference, num(f.reference))
	}
	for _, c := range f.Base.Participating {
		if v := f.Choices[c]; v != "" && v != baseForm(f.Base, c) {
			q.Set(qChoicePfx+string(c), v)
		}
	}
	if changed(f.scale, scale) {
		q.Set(qScale, pct(f.scale))
	}
	if f.Offsets != f.Base.Ops.OffsetsAtTransferRatio {
		q.Set(qOffsets, strconv.FormatBool(f.Offsets))
	}
	if changed(f.ratio, ratio) {
		q.Set(qRatio, pct(f.ratio))
	}
	if changed(f.returnRate, rr) {
		q.Set(qReturnRate, pct(f.returnRate))
	}
	q.Set(qRuns, strconv.Itoa(f.runs))
	q.Set(qSeed, strconv.FormatUint(f.seed, 10))
	return q
}

// scenarioB parses B's scenario file. A fault the form did not catch (the scenario
// file's own rules) is named by the file's field, and reported on the form's.
func (f *whatIf) scenarioB() (*simulation.Scenario, error) {
	return scenariofile.Parse(whatIfFile, f.TOML(), nil)
}

// formField is the form's field for a field of the scenario file or the engine
// ("operations.arrivals_scale" → "arrivals_scale", "choice.HU.form" → "choice.HU").
func formField(field string) string {
	field = strings.TrimPrefix(strings.TrimPrefix(field, "operations."), "parameters.")
	if strings.HasPrefix(field, qChoicePfx) {
		return strings.TrimSuffix(field, ".form")
	}
	return field
}
