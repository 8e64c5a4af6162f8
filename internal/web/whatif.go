package web

import (
	"bytes"
	"context"
	"encoding/csv"
	"errors"
	"html/template"
	"net/http"
	"slices"
	"strings"

	"solidarity"
	"solidarity/internal/i18n"
	"solidarity/internal/scenariofile"
	"solidarity/simulation"
)

// The What-if page, GET /whatif (issue 15): a shipped scenario as it is (A) beside
// the same scenario with the reader's changes (B), with their figures, charts and
// downloads. The form is in whatif_form.go, the charts in whatif_charts.go, the API
// in whatif_api.go. The page is public, as the dashboard is: it shows shipped data
// and the consequences of choices, nothing of any person.
//
// Both sides run with the same runs and seed, each from its own scenario file, and
// a result is deterministic for a seed: A is what `solidarity simulate NAME` prints,
// B what `solidarity simulate` prints for the downloaded file.

// whatIfPage is the page's data.
type whatIfPage struct {
	base
	Bases  []scenariofile.Info
	Form   *whatIf
	States []whatIfState
	Forms  []struct{ Form, Label string }
	Error  *fieldError // the field to correct; nothing is computed then
	// A and B are the two results, or nil when the form is shown alone (no field
	// sent yet) or with an error.
	A, B    *simulation.Result
	Changes []string
	Rows    []whatIfRow
	Union   []whatIfMetric
	// The charts, each with its table on the page.
	StatesChart, CoverageChart, FrontierChart template.HTML
	Months                                    []whatIfMonth
	Frontier                                  []whatIfFrontier
	Depends                                   []whatIfDepends
	// Links: the form's query (for the downloads) and the shipped scenario's own.
	Query    string
	TOMLHref string
	CSV      []whatIfCSVLink
}

// whatIfState is one state's line of the form.
type whatIfState struct {
	Code        simulation.Code
	Name        string
	Benefitting bool
	BaseForm    string // the base's choice, as Choice.Form names it
	Chosen      string // the form selected; "" keeps the base's
}

// whatIfRow is one state's line of the per-state table: A and B side by side.
type whatIfRow struct {
	State   simulation.Code
	Name    string
	Changed bool
	A, B    simulation.StateResult
}

// whatIfMetric is one of the Union's figures under A and B.
type whatIfMetric struct {
	ID, Label string
	A, B      simulation.Band
	Kind      string // "pct", "eur", "units", "gini"
}

// whatIfDepends is an assumption of A or B, with the value each side assumes (nil
// where that side does not rest on it) and the results that depend on it.
type whatIfDepends struct {
	Field   string
	A, B    *float64
	Affects []string
}

// dependsOf merges the assumptions of A and B, A's first, each field once.
func dependsOf(a, b *simulation.Result) []whatIfDepends {
	var out []whatIfDepends
	at := map[string]int{}
	add := func(d simulation.Dependency, side int) {
		i, ok := at[d.Field]
		if !ok {
			i = len(out)
			at[d.Field] = i
			out = append(out, whatIfDepends{Field: d.Field})
		}
		v := d.Assumed
		if side == 0 {
			out[i].A = &v
		} else {
			out[i].B = &v
		}
		for _, x := range d.Affects {
			if !slices.Contains(out[i].Affects, x) {
				out[i].Affects = append(out[i].Affects, x)
			}
		}
	}
	for _, d := range a.DependsOn {
		add(d, 0)
	}
	for _, d := range b.DependsOn {
		add(d, 1)
	}
	return out
}

// whatIfCSVLink is a download of one table.
type whatIfCSVLink struct{ Table, Side, Href string }

// handleWhatIf serves GET /whatif: the form alone until a field is sent, then the two
// scenarios; an invalid field gets the form again, naming it, with status 400 and no
// figure.
func (s *Server) handleWhatIf(w http.ResponseWriter, r *http.Request) {
	l := i18n.FromRequest(r)
	p := &whatIfPage{base: s.base(r, "What if"), Bases: scenariofile.Shipped(), Forms: choiceForms}
	q := r.URL.Query()
	f, err := whatIfQuery(l, q)
	if f == nil {
		// The base itself is wrong: show the default's form, with the error.
		if f, _ = whatIfQuery(l, nil); f == nil {
			s.pageError(w, r, err)
			return
		}
		f.Choices = map[simulation.Code]string{}
	}
	p.Form = f
	p.States = formStates(f)
	status := http.StatusOK
	if err == nil && submitted(q) {
		var a, b *simulation.Result
		a, b, err = runBoth(r.Context(), f)
		if r.Context().Err() != nil {
			return // over the budget (its 503 is written) or the client has gone
		}
		if err == nil {
			p.fill(l, f, a, b)
		}
	}
	if err != nil {
		fe, ok := errors.AsType[*fieldError](err)
		if !ok {
			if solidarity.ErrorCode(err) != solidarity.EINVALID {
				s.pageError(w, r, err)
				return
			}
			fe = &fieldError{Field: formField(fieldOf(err)), Message: solidarity.ErrorMessage(err)}
		}
		p.Error, p.A, p.B = fe, nil, nil
		status = http.StatusBadRequest
	}
	s.render(w, r, status, "whatif.html", p)
}

// submitted reports whether the form was sent: any field but the base's (which its own
// small form sends alone, to load another scenario's states).
func submitted(q map[string][]string) bool {
	for k := range q {
		if k != qBase {
			return true
		}
	}
	return false
}

func fieldOf(err error) string {
	if e, ok := errors.AsType[*solidarity.Error](err); ok {
		return e.Field
	}
	return ""
}

// runBoth runs A, the base as shipped, and B, the base with the changes, with the
// form's runs and seed. B's file is parsed first: a fault in it is reported before
// anything is run.
func runBoth(ctx context.Context, f *whatIf) (a, b *simulation.Result, err error) {
	sb, err := f.scenarioB()
	if err != nil {
		return nil, nil, err
	}
	if a, err = runGated(ctx, f.Base, f.runs, f.seed); err != nil {
		return nil, nil, err
	}
	if b, err = runGated(ctx, sb, f.runs, f.seed); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// formStates are the form's lines: every participating state of the base.
func formStates(f *whatIf) []whatIfState {
	var out []whatIfState
	for _, c := range f.Base.Participating {
		out = append(out, whatIfState{Code: c, Name: simulation.Name(c), Benefitting: slices.Contains(f.Base.Benefitting, c),
			BaseForm: baseForm(f.Base, c), Chosen: f.Choices[c]})
	}
	return out
}

// Selected is the form the state's select shows: the one chosen, else the base's.
func (st whatIfState) Selected() string {
	if st.Chosen != "" {
		return st.Chosen
	}
	return st.BaseForm
}

// compareTables are the tables of simulation.Compare, by name.
var compareTables = []string{"compare-states", "compare-union"}

// fill puts the two results on the page.
func (p *whatIfPage) fill(l *i18n.Locale, f *whatIf, a, b *simulation.Result) {
	p.A, p.B = a, b
	p.Changes = f.Changes(l)
	q := f.Query()
	p.Query = q.Encode()
	p.TOMLHref = "/whatif.toml?" + p.Query
	for _, side := range []struct {
		name string
		r    *simulation.Result
	}{{"a", a}, {"b", b}} {
		for _, t := range side.r.Tables() {
			p.CSV = append(p.CSV, whatIfCSVLink{Table: t.Name, Side: side.name, Href: csvHref(p.Query, t.Name, side.name)})
		}
	}
	for _, t := range compareTables {
		p.CSV = append(p.CSV, whatIfCSVLink{Table: t, Side: "compare", Href: csvHref(p.Query, t, "compare")})
	}
	bi := map[simulation.Code]simulation.StateResult{}
	for _, st := range b.States {
		bi[st.State] = st
	}
	for _, st := range a.States {
		p.Rows = append(p.Rows, whatIfRow{State: st.State, Name: st.Name, A: st, B: bi[st.State], Changed: st.Form != bi[st.State].Form})
	}
	U, V := a.Union, b.Union
	last := func(r *simulation.Result) simulation.Band {
		if len(r.Coverage) == 0 {
			return simulation.Band{}
		}
		return r.Coverage[len(r.Coverage)-1]
	}
	p.Union = []whatIfMetric{
		{"coverage", msg("Coverage: pledged ÷ need"), U.Coverage, V.Coverage, "pct"},
		{"coverage-places", msg("Places: relocations and offsets pledged ÷ need"), U.PlaceCoverage, V.PlaceCoverage, "pct"},
		{"coverage-delivered", msg("Coverage delivered by the end of the period"), last(a), last(b), "pct"},
		{"shortfall", msg("Shortfall (relocation-equivalents)"), U.Shortfall, V.Shortfall, "units"},
		{"relocations", msg("Relocations carried out"), U.Relocations, V.Relocations, "units"},
		{"offsets", msg("Offsets"), U.Offsets, V.Offsets, "units"},
		{"payments", msg("Payments and alternative measures"), U.Payments, V.Payments, "eur"},
		{"returns", msg("Returns after the border procedure"), U.Returns, V.Returns, "units"},
		{"gini-before", msg("Gini of responsibility per capita, before solidarity"), U.GiniBefore, V.GiniBefore, "gini"},
		{"gini-after", msg("Gini of responsibility per capita, after solidarity"), U.GiniAfter, V.GiniAfter, "gini"},
	}
	p.Depends = dependsOf(a, b)
	p.StatesChart = statesChart(l, p.Rows)
	p.Months, p.CoverageChart = coverageChart(l, a, b)
	p.Frontier, p.FrontierChart = frontierChart(l, a, b, p.Rows)
}

func csvHref(query, table, side string) string {
	return "/whatif.csv?" + query + "&" + qTable + "=" + table + "&" + qSide + "=" + side
}

// Value writes a metric's figure for its kind.
func (m whatIfMetric) Value(l *i18n.Locale, v float64) string {
	switch m.Kind {
	case "pct":
		return l.Pct(v)
	case "eur":
		return l.T("EUR %s", l.Float(v, 0))
	case "gini":
		return l.Float(v, 3)
	}
	return l.Float(v, 0)
}

// handleWhatIfCSV serves GET /whatif.csv: one table of A, of B, or of their
// comparison, for the same query as the page.
func (s *Server) handleWhatIfCSV(w http.ResponseWriter, r *http.Request) {
	l := i18n.New(i18n.Source) // the download's errors, as the API's, are in English
	q := r.URL.Query()
	f, err := whatIfQuery(l, q, qTable, qSide)
	if err != nil {
		s.whatIfAPIError(w, r, err)
		return
	}
	name, side := q.Get(qTable), q.Get(qSide)
	if side == "" {
		side = "compare"
	}
	if side != "a" && side != "b" && side != "compare" {
		s.whatIfAPIError(w, r, &fieldError{qSide, "want a, b or compare, not " + short(side)})
		return
	}
	a, b, err := runBoth(r.Context(), f)
	if r.Context().Err() != nil {
		return
	}
	if err != nil {
		s.whatIfAPIError(w, r, err)
		return
	}
	var tables []simulation.Table
	switch side {
	case "a":
		tables = a.Tables()
	case "b":
		tables = b.Tables()
	default:
		tables = simulation.Compare(a, b)
	}
	var names []string
	for _, t := range tables {
		names = append(names, t.Name)
		if t.Name != name {
			continue
		}
		var buf bytes.Buffer
		cw := csv.NewWriter(&buf)
		cw.Write(t.Header)
		cw.WriteAll(t.Rows) // flushes
		if err := cw.Error(); err != nil {
			s.apiError(w, r, err)
			return
		}
		w.Header().Set("Content-Type", "text/csv; charset=utf-8")
		w.Header().Set("Content-Disposition", `attachment; filename="whatif-`+f.Info.Name+"-"+side+"-"+t.Name+`.csv"`)
		w.Write(buf.Bytes())
		return
	}
	s.whatIfAPIError(w, r, &fieldError{qTable, "no table " + short(name) + " on side " + side + "; want one of " + strings.Join(names, ", ")})
}

// handleWhatIfTOML serves GET /whatif.toml: scenario B's file, which reproduces B
// with `solidarity simulate FILE`. It is checked as the page checks it (parsed), not
// run.
func (s *Server) handleWhatIfTOML(w http.ResponseWriter, r *http.Request) {
	f, err := whatIfQuery(i18n.New(i18n.Source), r.URL.Query())
	if err == nil {
		_, err = f.scenarioB()
	}
	if err != nil {
		s.whatIfAPIError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/toml; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="whatif-`+f.Info.Name+`.toml"`)
	w.Write(f.TOML())
}

// whatIfAPIError answers a download's error as the API does, with the form's field.
func (s *Server) whatIfAPIError(w http.ResponseWriter, r *http.Request, err error) {
	if fe, ok := errors.AsType[*fieldError](err); ok {
		err = fe.solidarity()
	}
	s.apiError(w, r, err)
}

// BaseLabel is the label of the base's choice.
func (st whatIfState) BaseLabel() string { return formLabel(st.BaseForm) }

// LabelA and LabelB are the labels of the state's forms under A and B.
func (r whatIfRow) LabelA() string { return formLabel(r.A.Form) }
func (r whatIfRow) LabelB() string { return formLabel(r.B.Form) }

// SideLabel names a download's side: A, B, or the two compared (the page says so).
func (c whatIfCSVLink) SideLabel() string { return strings.ToUpper(c.Side) }

// CSVHref is the download of one table of a side, for the page's links.
func (p *whatIfPage) CSVHref(table, side string) string { return csvHref(p.Query, table, side) }

// Runs are the runs of both sides, for the locale's digits.
func (p *whatIfPage) Runs() int64 {
	if p.A == nil {
		return 0
	}
	return int64(p.A.Runs)
}

// IsInvalid reports whether field is the one the error names; Invalid marks it so
// for assistive technology (the error's text is its description).
func (p *whatIfPage) IsInvalid(field string) bool { return p.Error != nil && p.Error.Field == field }

func (p *whatIfPage) Invalid(field string) template.HTMLAttr {
	if p.IsInvalid(field) {
		return ` aria-invalid="true"`
	}
	return ""
}
