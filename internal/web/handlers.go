package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"html/template"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"solidarity/internal/i18n"
	"strconv"
	"strings"
	"sync"
	"time"

	"solidarity"
	"solidarity/apportion"
	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/refdata"
	"solidarity/internal/report"
)

func itoa(i int) string { return strconv.Itoa(i) }

// cycle resolves the {year} path value to a shipped cycle. Over HTTP only shipped
// cycles are reachable by year; never a file path on the server.
func (s *Server) cycle(r *http.Request) (*solidarity.Cycle, error) {
	y, err := strconv.Atoi(r.PathValue("year"))
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "year", Message: fmt.Sprintf("%q is not a cycle year", r.PathValue("year"))}
	}
	return s.Catalog.Cycle(y) // the server's catalog reads no file
}

// poolFor computes the pool for a request's cycle, ?method= and ?as_of=.
func (s *Server) poolFor(r *http.Request, cy *solidarity.Cycle) (*report.Pool, error) {
	q := r.URL.Query()
	asOf, err := solidarity.ParseAsOfDay(q.Get("as_of"))
	if err != nil {
		return nil, err
	}
	p, err := s.Catalog.Pool(catalog.PoolRequest{Cycle: cy, Method: q.Get("method"), AsOf: asOf})
	if err != nil {
		return nil, err
	}
	return report.FromPool(p.Result, p.Population, p.GDP, p.Warnings), nil
}

// shippedPool computes the pool of the shipped cycle named by {year}.
func (s *Server) shippedPool(r *http.Request) (*report.Pool, error) {
	return s.pools.shippedPool(r, func() (*report.Pool, error) {
		cy, err := s.cycle(r)
		if err != nil {
			return nil, err
		}
		return s.poolFor(r, cy)
	})
}

// poolState computes the pool of {year} and picks the row of {state}.
func (s *Server) poolState(r *http.Request) (*report.Pool, report.PoolState, error) {
	p, err := s.shippedPool(r)
	if err != nil {
		return nil, report.PoolState{}, err
	}
	st, ok := p.State(stateCode(r.PathValue("state")))
	if !ok {
		return nil, report.PoolState{}, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "state",
			Message: fmt.Sprintf("%q is not a participating state of the %d cycle", r.PathValue("state"), p.Cycle.Year)}
	}
	return p, st, nil
}

// --- API ---

// CycleSummary is an entry of GET /api/v1/cycles.
type CycleSummary struct {
	Year         int        `json:"year"`
	Title        string     `json:"title"`
	Illustrative bool       `json:"illustrative"`
	Relocations  int64      `json:"reference_relocations"`
	EUR          report.Num `json:"reference_eur"`
	Method       string     `json:"method"`
}

func (s *Server) handleCycles(w http.ResponseWriter, r *http.Request) {
	out := []CycleSummary{}
	for _, y := range cyclefile.Shipped() {
		c, err := s.Catalog.Cycle(y)
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		out = append(out, CycleSummary{Year: c.Year, Title: c.Title, Illustrative: c.Illustrative,
			Relocations: c.Reference.Relocations, EUR: report.EUR(c.Reference.EUR), Method: c.Method})
	}
	writeJSON(w, http.StatusOK, map[string]any{"cycles": out})
}

func (s *Server) handlePool(w http.ResponseWriter, r *http.Request) {
	p, err := s.shippedPool(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// handlePoolCSV answers GET /pool/{year}.csv: the same pool as handlePool, as the
// dashboard's table for spreadsheets (report.WriteCSV).
func (s *Server) handlePoolCSV(w http.ResponseWriter, r *http.Request) {
	p, err := s.shippedPool(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var b bytes.Buffer
	if err := p.WriteCSV(&b); err != nil {
		s.apiError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", fmt.Sprintf(`attachment; filename="pool-%d-%s.csv"`, p.Cycle.Year, p.Method))
	w.Write(b.Bytes())
}

// handlePoolPath serves /pool/{year} and /pool/{year}.csv: a pattern's wildcard is a
// whole segment, so the suffix is told apart here, and {year} is then the bare year
// (which the pool cache keys on, shared with the JSON).
func (s *Server) handlePoolPath(w http.ResponseWriter, r *http.Request) {
	if y, ok := strings.CutSuffix(r.PathValue("year"), ".csv"); ok {
		r.SetPathValue("year", y)
		s.handlePoolCSV(w, r)
		return
	}
	s.handlePoolPage(w, r)
}

func (s *Server) handlePoolState(w http.ResponseWriter, r *http.Request) {
	_, st, err := s.poolState(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, st)
}

func stateCode(s string) string {
	if m, ok := solidarity.ParseMemberState(s); ok {
		return string(m)
	}
	return s
}

// handlePoolPost computes the pool of a cycle file sent as the request body (TOML).
// It lets analysts try a what-if without installing anything; bad input gets 400 with
// the line and field.
func (s *Server) handlePoolPost(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "request body larger than 1 MiB"})
			return
		}
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read request body"})
		return
	}
	cy, err := cyclefile.Parse("request body", bytes.TrimPrefix(body, []byte("\ufeff")))
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	// Only shipped datasets by id: a request must never name a file on the server.
	for _, ref := range []string{cy.PopulationData, cy.GDPData} {
		if _, ok := refdata.Lookup(ref); !ok {
			s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, File: "request body", Field: "population/gdp",
				Message: fmt.Sprintf("dataset %q is not a shipped dataset", ref)})
			return
		}
	}
	p, err := s.poolFor(r, cy)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handleKey(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	states, err := solidarity.ParseParticipating(q.Get("participating"))
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	// An id not shipped is a bad parameter of this resource (400), unlike GET
	// /api/v1/datasets/{id}, where it names a resource that does not exist (404).
	for _, ref := range []string{q.Get("population"), q.Get("gdp")} {
		if _, ok := refdata.Lookup(ref); ref != "" && !ok {
			s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Field: "dataset", Message: fmt.Sprintf("no shipped dataset %q", ref)})
			return
		}
	}
	k, pop, gdp, err := s.Catalog.Key(catalog.KeyRequest{Participating: states, Population: q.Get("population"), GDP: q.Get("gdp")})
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, report.FromKey(k, pop, gdp))
}

// CodeMethodNotAllowed is the error code of a method a path of the API does not have.
const CodeMethodNotAllowed = "method_not_allowed"

// apiMethods are the methods a route of the API may have, in the order Allow lists them.
var apiMethods = []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete}

// handleUnrouted answers what no route of the API serves: 405 with Allow when the path
// has other methods (RFC 9110, 15.5.6), as the mux does outside /api/, else 404. The
// catch-all that makes both JSON also hides the mux's own 405, so the methods are
// asked of the mux again here.
func (s *Server) handleUnrouted(w http.ResponseWriter, r *http.Request) {
	var allow []string
	for _, m := range apiMethods {
		r2 := r.Clone(r.Context())
		r2.Method = m
		if _, pattern := s.mux.Handler(r2); pattern != "" && pattern != "/api/" {
			allow = append(allow, m)
		}
	}
	if len(allow) == 0 {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.ENOTFOUND, Message: "no such API endpoint: " + r.Method + " " + r.URL.Path})
		return
	}
	w.Header().Set("Allow", strings.Join(allow, ", "))
	writeJSON(w, http.StatusMethodNotAllowed, map[string]APIError{"error": {Code: CodeMethodNotAllowed,
		Message: fmt.Sprintf("%s is not a method of %s (allowed: %s)", r.Method, r.URL.Path, strings.Join(allow, ", "))}})
}

// DatasetSummary is an entry of GET /api/v1/datasets.
type DatasetSummary struct {
	report.Dataset
	States int `json:"states"`
}

func (s *Server) handleDatasets(w http.ResponseWriter, r *http.Request) {
	out := []DatasetSummary{}
	for _, d := range refdata.Builtin() {
		out = append(out, DatasetSummary{Dataset: *report.FromDataset(d), States: withFigure(d)})
	}
	writeJSON(w, http.StatusOK, map[string]any{"datasets": out})
}

// withFigure counts the Member States that have a figure in d.
func withFigure(d *solidarity.Dataset) int {
	n := 0
	for _, o := range d.Rows {
		if o.Value != nil {
			n++
		}
	}
	return n
}

func (s *Server) handleDataset(w http.ResponseWriter, r *http.Request) {
	d, ok := refdata.Lookup(r.PathValue("id"))
	if !ok {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "id", Message: fmt.Sprintf("no shipped dataset %q", r.PathValue("id"))})
		return
	}
	writeJSON(w, http.StatusOK, report.FromDatasetRows(d))
}

// --- pages ---

func (s *Server) render(w http.ResponseWriter, r *http.Request, status int, page string, data any) {
	var buf bytes.Buffer
	if err := s.tmpl[page].Execute(&buf, data); err != nil {
		s.Logger.Error("template", slog.String("page", page), slog.Any("err", err))
		http.Error(w, "internal error", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	// A page's language comes from the lang cookie or Accept-Language: a shared cache
	// must not give one reader's language to another.
	w.Header().Add("Vary", "Cookie, Accept-Language")
	if solidarity.UserFromContext(r.Context()) != nil {
		w.Header().Set("Cache-Control", "private, no-store") // a page for one user
	}
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// base is what the layout of every page needs: the title, the language and who is
// logged in.
type base struct {
	Title  string
	L      *i18n.Locale // the page's language: {{$.L.T "message"}}, $.L.Int, $.L.Date
	Path   string       // the page's path and query, where the language switcher returns
	User   *solidarity.User
	Ledger bool // the server has a ledger: login, the ledger view
	// Cases: the server has the case flow and the user may read cases (the arrivals
	// and deadlines links); AccessLog: and may read the access log.
	Cases, AccessLog bool
	// Demonstration, when not empty, is the label of a page that shows demonstration
	// data (a demonstration cycle, or the case flow and ledger of a server that holds
	// a demonstration): every such page says so.
	Demonstration string
}

// base returns the layout's data; title is a message (translated, formatted with args).
func (s *Server) base(r *http.Request, title string, args ...any) base {
	u := solidarity.UserFromContext(r.Context())
	l := i18n.FromRequest(r)
	b := base{Title: l.T(title, args...), L: l, Path: r.URL.RequestURI(), User: u, Ledger: s.ledger != nil}
	if s.cases != nil && s.ledger != nil {
		b.Cases = mayReadCases(u)
		b.AccessLog = solidarity.Can(u, solidarity.ReadAccessLog, "")
	}
	b.Demonstration = s.demonstration(r, l)
	return b
}

// demonstration is the label of a page that shows demonstration data, or "": the
// pages of a demonstration cycle, and the case-flow and ledger pages of a server
// whose ledger holds one (their lists mix its arrivals and entries with real ones).
func (s *Server) demonstration(r *http.Request, l *i18n.Locale) string {
	if y, err := strconv.Atoi(r.PathValue("year")); err == nil && solidarity.IsDemoCycle(y) {
		return l.T("Cycle %s is a demonstration: generated people and the places pledged for the Diciotti in 2018, not a real pool. Its figures are never part of a real cycle's.", strconv.Itoa(y))
	}
	p := r.URL.Path
	if s.ledger == nil || !(p == "/ledger" || p == "/arrivals" || p == "/deadlines" || p == "/access-log" ||
		strings.HasPrefix(p, "/relocation") || strings.HasPrefix(p, "/arrivals/") || strings.HasPrefix(p, "/cases/")) {
		return ""
	}
	if y := s.demo.cycle(r.Context(), s.ledger); y != 0 {
		return l.T("This server holds a demonstration: the arrivals and cases of cycle %s (the Diciotti replay) are generated people, not real cases, and count only in that cycle.", strconv.Itoa(y))
	}
	return ""
}

// demoCache remembers the demonstration cycle of the ledger: found once, for good (the
// ledger is append-only); not found, looked for again at most every demoRecheck, so
// that the case-flow pages do not read the ledger's cycles on every request.
type demoCache struct {
	mu      sync.Mutex
	found   int
	checked time.Time
}

const demoRecheck = 30 * time.Second

func (c *demoCache) cycle(ctx context.Context, l *ledgersvc.Service) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.found != 0 || (!c.checked.IsZero() && time.Since(c.checked) < demoRecheck) {
		return c.found
	}
	ys, err := l.Cycles(ctx)
	if err != nil {
		return 0
	}
	c.checked = time.Now()
	for _, y := range ys {
		if solidarity.IsDemoCycle(y) {
			c.found = y
		}
	}
	return c.found
}

type errorPage struct {
	base
	Message, Code string
	Explain       string // what the code means, in the page's language
}

// errorExplanations say to a reader what each error code means; the service's
// message beside it names the field and the value, in English.
var errorExplanations = map[string]string{
	solidarity.EINVALID:         msg("A value in the address or the form is not valid; the detail below names it."),
	solidarity.ENOTFOUND:        msg("There is no such page or record, or it is not one you may see."),
	solidarity.ECONFLICT:        msg("This contradicts what is already recorded."),
	solidarity.EUNAUTHORIZED:    msg("Your role may not see or do this."),
	solidarity.EUNAUTHENTICATED: msg("Log in to see this."),
	solidarity.EINTERNAL:        msg("Something went wrong on the server; it has been logged."),
}

func (s *Server) pageError(w http.ResponseWriter, r *http.Request, err error) {
	code := solidarity.ErrorCode(err)
	if code == solidarity.EINTERNAL {
		s.Logger.Error("internal error", slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	title := msg("Error")
	switch code {
	case solidarity.EUNAUTHORIZED:
		title = msg("Not allowed")
	case solidarity.ENOTFOUND:
		title = msg("Not found")
	}
	s.render(w, r, HTTPStatus(code), "error.html", errorPage{base: s.base(r, title), Message: solidarity.ErrorMessage(err), Code: code,
		Explain: i18n.FromRequest(r).T(errorExplanations[code])})
}

// pageServiceError answers a service error on a page: the public is sent to log in,
// a known user who may not gets 403.
func (s *Server) pageServiceError(w http.ResponseWriter, r *http.Request, err error) {
	if solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED && solidarity.UserFromContext(r.Context()) == nil {
		s.toLogin(w, r)
		return
	}
	s.pageError(w, r, err)
}

// pages wraps a page handler that needs the ledger: 404 without one.
func (s *Server) pages(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.ledger == nil {
			s.pageError(w, r, errNoLedger)
			return
		}
		h(w, r)
	}
}

func (s *Server) handlePoolPage(w http.ResponseWriter, r *http.Request) {
	p, live, err := s.dashboardPool(r)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	v, err := viewOf(r, p)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	b := s.base(r, "%s", p.Cycle.Title)
	mv, err := s.mapView(p, v, b.L)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	rows := sortStates(p.States, live, v)
	s.render(w, r, http.StatusOK, "pool.html", poolPage{base: b, Pool: p, Map: mv, View: v,
		Methods: methodLinks(v), Cycles: s.cycleLinks(r.Context(), p.Cycle.Year), Live: live,
		Rows: rows, Header: headerCells(v, live != nil), Statuses: statusMeanings,
		PledgeChart: pledgeTypesChart(b.L, p, rows)})
}

func (s *Server) handleStatePage(w http.ResponseWriter, r *http.Request) {
	page, err := s.statePage(r)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "state.html", page)
}

type poolPage struct {
	base
	Pool    *report.Pool
	Map     *mapView
	View    view
	Methods []link
	Cycles  []link
	Live    *live // nil: no ledger for this cycle
	// Rows are the states in the view's order (Sort); Header the table's header cells.
	Rows        []report.PoolState
	Header      []headerCell
	Statuses    []struct{ Tag, Meaning string }
	PledgeChart template.HTML
}

type statePage struct {
	base
	Pool  *report.Pool
	State report.PoolState
	View  view
	Live  *live
	// With a ledger:
	Balance *report.StateBalance
	PaceSVG template.HTML // Art. 60(3) chart (benefit.go)
	// DeliveredSVG draws Days: the relocations delivered day by day against the pledge.
	DeliveredSVG template.HTML
	Days         []dayPoint
	Receipts     *receipts           // a benefitting state's arrivals and relocations out; nil otherwise
	Offsets      []*solidarity.Entry // the state's offset entries (Arts. 63, 69)
	Entries      []*solidarity.Entry // the state's pledge and delivery entries, if the viewer may read them
	EntriesMsg   string              // why the entries are not listed
	Forms        *stateForms         // nil: the viewer may not write for this state
	FormError    string
}

// view is what a page shows: a cycle under a method, a map mode, as of a day. Every
// link a page draws keeps it, so that a click never silently changes the figures.
type view struct {
	Year               int
	Method, Mode, AsOf string
	Sort, Dir          string // the dashboard table's order (dashboard.go): a column key, asc or desc
}

// viewOf reads the view of a request; an unknown sort column or direction is
// EINVALID (the method, mode and day are checked where they are used).
func viewOf(r *http.Request, p *report.Pool) (view, error) {
	q := r.URL.Query()
	v := view{Year: p.Cycle.Year, Method: p.Method, Mode: q.Get("mode"), AsOf: q.Get("as_of"), Sort: q.Get("sort"), Dir: q.Get("dir")}
	if v.Mode == "" {
		v.Mode = ModeShare
	}
	if err := checkSort(v.Sort, v.Dir); err != nil {
		return view{}, err
	}
	if v.Sort == "" {
		v.Dir = ""
	} else if v.Dir == "" {
		v.Dir = "asc"
	}
	return v, nil
}

// Hidden are the view's settings but the day, for the as-of form's hidden fields.
func (v view) Hidden() [][2]string {
	out := [][2]string{{"method", v.Method}, {"mode", v.Mode}}
	if v.Sort != "" {
		out = append(out, [2]string{"sort", v.Sort}, [2]string{"dir", v.Dir})
	}
	return out
}

// with returns a copy of v with one setting changed.
func (v view) with(key, value string) view {
	switch key {
	case "method":
		v.Method = value
	case "mode":
		v.Mode = value
	}
	return v
}

// Pool is the dashboard URL of v; State the page of one state.
func (v view) Pool() string { return fmt.Sprintf("/pool/%d?%s", v.Year, v.query()) }
func (v view) State(m string) string {
	return fmt.Sprintf("/pool/%d/states/%s?%s", v.Year, m, v.query())
}

// Today is the view without a chosen day.
func (v view) Today() string { v.AsOf = ""; return v.Pool() }

// API and CSV are the view's figures as data: the view without the table's order,
// which is the page's.
func (v view) API() string { return fmt.Sprintf("/api/v1/cycles/%d/pool?%s", v.Year, v.dataQuery()) }
func (v view) CSV() string { return fmt.Sprintf("/pool/%d.csv?%s", v.Year, v.dataQuery()) }

func (v view) dataQuery() string { return v.values(false).Encode() }
func (v view) query() string     { return v.values(true).Encode() }

// values are the view's parameters, with the table's order or without it.
func (v view) values(order bool) url.Values {
	q := url.Values{}
	q.Set("method", v.Method)
	q.Set("mode", v.Mode)
	if v.AsOf != "" {
		q.Set("as_of", v.AsOf)
	}
	if order && v.Sort != "" {
		q.Set("sort", v.Sort)
		q.Set("dir", v.Dir)
	}
	return q
}

type link struct {
	Label, Href, Mode string
	Current           bool
}

func methodLinks(v view) []link {
	var out []link
	for _, m := range apportion.Methods() {
		out = append(out, link{Label: string(m), Href: v.with("method", string(m)).Pool(), Current: string(m) == v.Method})
	}
	return out
}

// cycleLinks links the shipped cycles and those of the ledger.
func (s *Server) cycleLinks(ctx context.Context, current int) []link {
	years := cyclefile.Shipped()
	if s.ledger != nil {
		if ys, err := s.ledger.Cycles(ctx); err == nil {
			years = append(years, ys...)
		} else {
			s.Logger.Warn("ledger cycles", slog.Any("err", err))
		}
	}
	slices.Sort(years)
	var out []link
	for _, y := range slices.Compact(years) {
		label := itoa(y)
		if solidarity.IsDemoCycle(y) {
			label += " (demonstration)"
		}
		out = append(out, link{Label: label, Href: "/pool/" + itoa(y), Current: y == current})
	}
	return out
}
