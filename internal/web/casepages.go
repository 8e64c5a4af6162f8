package web

import (
	"crypto/rand"
	"errors"
	"mime/multipart"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/deadline"
	"solidarity/internal/casesvc"
)

// The pages of the case flow: the arrivals and the import of a ship's list, an
// arrival's cases, a case (its flow, deadlines, the forms to record an event or
// allocate the family, the personal record and the responsibility determination),
// the access log (the deadline view is in deadlinepages.go). As on the state pages,
// the role table decides which forms a page shows and the service decides again on
// post; a post answers with a redirect (303) to the page, or shows the page again with
// what was wrong.

// casePages wraps a page of the case flow: 404 without the case service, the login
// page for the public.
func (s *Server) casePages(h http.HandlerFunc) http.HandlerFunc {
	return s.pages(func(w http.ResponseWriter, r *http.Request) {
		if s.cases == nil {
			s.pageError(w, r, errNoCases)
			return
		}
		if solidarity.UserFromContext(r.Context()) == nil {
			s.toLogin(w, r)
			return
		}
		h(w, r)
	})
}

// formKey is an idempotency key for one rendering of a form: one submission, one entry.
func formKey() string { return "form-" + rand.Text() }

// --- arrivals ---

// arrivalRow is an arrival in the list, its counts in the page's form.
type arrivalRow struct {
	*solidarity.Arrival
	Persons, Families, Minors string
}

type arrivalsPage struct {
	base
	Arrivals  []arrivalRow
	Import    bool   // the user may import a ship's list
	ImportKey string // idempotency key of the import form
	Error     *solidarity.Error
	// SameLanding: the list was refused as the same landing as a registered arrival;
	// the form asks to confirm a new landing.
	SameLanding bool
}

func (s *Server) arrivalsPage(r *http.Request) (*arrivalsPage, error) {
	as, err := s.cases.Arrivals(r.Context(), solidarity.ArrivalFilter{Limit: solidarity.MaxPageLimit})
	if err != nil {
		return nil, err
	}
	u := solidarity.UserFromContext(r.Context())
	page := &arrivalsPage{base: s.base(r, "Arrivals"), Import: mayImport(u), ImportKey: formKey()}
	for _, a := range as {
		l := page.L
		page.Arrivals = append(page.Arrivals, arrivalRow{Arrival: a, Persons: l.Int(int64(a.Persons)), Families: l.Int(int64(a.Families)), Minors: l.Int(int64(a.Minors))})
	}
	return page, nil
}

func (s *Server) handleArrivalsPage(w http.ResponseWriter, r *http.Request) {
	page, err := s.arrivalsPage(r)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "arrivals.html", page)
}

// handleImportForm registers the ship's list of the upload: CSV or JSON, read by its
// first byte. A bad list shows the arrivals page again with the line and field of the
// first problem; nothing of it is registered.
func (s *Server) handleImportForm(w http.ResponseWriter, r *http.Request) {
	fail := func(err error) {
		page, perr := s.arrivalsPage(r)
		if perr != nil {
			s.pageServiceError(w, r, perr)
			return
		}
		e, ok := errors.AsType[*solidarity.Error](err)
		if !ok || e.Code == solidarity.EINTERNAL {
			s.pageServiceError(w, r, err)
			return
		}
		if e.Code == solidarity.EUNAUTHORIZED {
			s.pageError(w, r, err)
			return
		}
		page.Error = e
		page.SameLanding = e.Code == solidarity.ECONFLICT && e.Field == "arrival"
		s.render(w, r, HTTPStatus(e.Code), "arrivals.html", page)
	}
	if err := r.ParseMultipartForm(1 << 20); err != nil { // larger files spill to a temporary file
		fail(&solidarity.Error{Code: solidarity.EINVALID, Field: "list", Message: "cannot read the upload (a ship's list is at most 10 MiB)"})
		return
	}
	defer r.MultipartForm.RemoveAll()
	key := r.PostForm.Get("idempotency_key")
	if err := checkKey(key); err != nil {
		fail(err)
		return
	}
	f, fh, err := r.FormFile("list")
	if err != nil {
		fail(&solidarity.Error{Code: solidarity.EINVALID, Field: "list", Message: "choose a file: the ship's list as CSV or JSON"})
		return
	}
	defer f.Close()
	l, err := readUpload(f, fh)
	if err != nil {
		fail(err)
		return
	}
	register := s.cases.Register
	if r.PostForm.Get("new_landing") != "" {
		register = s.cases.RegisterNewLanding
	}
	reg, err := register(r.Context(), l, key)
	if err != nil {
		fail(err)
		return
	}
	if !reg.Replayed {
		s.metrics.appends.WithLabelValues(string(reg.Entry.Type)).Inc()
	}
	http.Redirect(w, r, "/arrivals/"+url.PathEscape(string(reg.Arrival.ID))+"?imported=1", http.StatusSeeOther)
}

// readUpload parses an uploaded ship's list, named in errors by its base name.
func readUpload(f multipart.File, fh *multipart.FileHeader) (*arrival.List, error) {
	name := path.Base(strings.ReplaceAll(fh.Filename, "\\", "/"))
	if name == "." || name == "/" || name == "" {
		name = "upload"
	}
	return arrival.ParseList(name, f)
}

// countRow is the number of cases in one state, with the link showing only them.
type countRow struct {
	State   cases.State
	Label   string // a message (the state table's meaning)
	N       int
	Count   string // N in the page's form
	URL     string
	Current bool
}

// countRows orders counts by the flow.
func countRows(counts map[cases.State]int) []countRow {
	var out []countRow
	for _, st := range cases.States() {
		if n := counts[st]; n > 0 {
			out = append(out, countRow{State: st, Label: st.Label(), N: n})
		}
	}
	return out
}

// caseRow is a case in a table, with its next time limit (casesvc.Service.Next: the
// limit the case page lists first).
type caseRow struct {
	CaseSummary
	Next          *deadline.Due
	Due           string // when Next ends, in the page's language
	Overdue, Soon bool
}

// familyGroup is the rows of one family in the arrival's table of cases (a tbody).
type familyGroup struct {
	Family solidarity.FamilyID
	Cases  []caseRow
}

// relocationRow is how a Member State's relocation pledge is drawn on by an
// arrival's families.
type relocationRow struct {
	State                  solidarity.MemberState
	Allocated, Transferred int
	Year                   int
	Pledged, Delivered     int64 // the state's relocation pledge and deliveries in the cycle
	PledgeKnown            bool
}

// arrivalFilter is what the query of an arrival page keeps of its cases: a case
// state, overdue ones only, and a Member State of allocation ("none": not allocated).
type arrivalFilter struct {
	State     cases.State
	Overdue   bool
	Allocated string
}

// notAllocated is the allocation filter's value for the cases not allocated.
const notAllocated = "none"

func parseArrivalFilter(q url.Values) (arrivalFilter, error) {
	f := arrivalFilter{State: cases.State(q.Get("state")), Overdue: q.Get("overdue") != ""}
	if f.State != "" && !f.State.Valid() {
		return f, &solidarity.Error{Code: solidarity.EINVALID, Field: "state", Message: "not a case state"}
	}
	if v := q.Get("allocated"); v == notAllocated {
		f.Allocated = v
	} else if v != "" {
		m, ok := solidarity.ParseMemberState(v)
		if !ok {
			return f, &solidarity.Error{Code: solidarity.EINVALID, Field: "allocated", Message: "not a Member State"}
		}
		f.Allocated = string(m)
	}
	return f, nil
}

// keeps reports whether the filter shows row.
func (f arrivalFilter) keeps(row caseRow) bool {
	switch {
	case f.State != "" && row.State != f.State, f.Overdue && !row.Overdue:
		return false
	case f.Allocated == notAllocated:
		return row.Allocated == ""
	}
	return f.Allocated == "" || string(row.Allocated) == f.Allocated
}

// url is the arrival page's link with the filter.
func (f arrivalFilter) url(id solidarity.ArrivalID) string {
	v := url.Values{}
	if f.State != "" {
		v.Set("state", string(f.State))
	}
	if f.Overdue {
		v.Set("overdue", "1")
	}
	if f.Allocated != "" {
		v.Set("allocated", f.Allocated)
	}
	u := "/arrivals/" + url.PathEscape(string(id))
	if len(v) > 0 {
		u += "?" + v.Encode()
	}
	return u
}

type arrivalPage struct {
	base
	Arrival    *solidarity.Arrival
	Counts     []countRow
	Total      int
	AllURL     string // the counts' total: every state, the other filters kept
	Filter     arrivalFilter
	Filtered   bool
	Shown      int // the cases the filter keeps
	Allocated  []solidarity.MemberState
	Families   []familyGroup
	Relocation []relocationRow
	Imported   bool
	Funnel     *funnelView // how far the arrival's cases got (casesvc.Funnel)
	TotalText  string      // Total in the page's form
}

func (s *Server) handleArrivalPage(w http.ResponseWriter, r *http.Request) {
	filter, err := parseArrivalFilter(r.URL.Query())
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	d, recs, err := s.arrivalDetail(r.Context(), solidarity.ArrivalID(r.PathValue("id")))
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	now := s.cases.Now()
	page := arrivalPage{base: s.base(r, "Arrival %s", d.Arrival.Vessel), Arrival: d.Arrival, Counts: countRows(d.Counts),
		Filter: filter, Filtered: filter != arrivalFilter{}, Imported: r.URL.Query().Get("imported") != ""}
	stages, err := casesvc.Funnel(recs)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	page.Funnel = newFunnelView(page.L, "funnel", stages)
	for i, c := range page.Counts {
		page.Total += c.N
		page.Counts[i].Count = page.L.Int(int64(c.N))
		f := filter
		f.State = c.State
		page.Counts[i].URL, page.Counts[i].Current = f.url(d.Arrival.ID), c.State == filter.State
	}
	all := filter
	all.State = ""
	page.AllURL = all.url(d.Arrival.ID)
	page.TotalText = page.L.Int(int64(page.Total))
	at := map[solidarity.FamilyID]int{}
	reloc := map[solidarity.MemberState]*relocationRow{}
	for k, c := range d.Cases {
		row := caseRow{CaseSummary: c}
		next, ok, err := s.cases.Next(recs[k])
		if err != nil {
			s.pageServiceError(w, r, err)
			return
		}
		if ok {
			row.Next, row.Due = &next, dueDate(page.L, next)
			row.Overdue = next.Overdue(now)
			row.Soon = !row.Overdue && next.Within(now, s.cases.Params.DueSoon)
		}
		if c.Allocated != "" {
			rr := reloc[c.Allocated]
			if rr == nil {
				rr = &relocationRow{State: c.Allocated, Year: d.Arrival.At.Year()}
				reloc[c.Allocated] = rr
			}
			rr.Allocated++
			if c.State.Relocation() == cases.Relocated {
				rr.Transferred++
			}
		}
		if !filter.keeps(row) {
			continue
		}
		i, ok := at[c.Family]
		if !ok {
			i = len(page.Families)
			at[c.Family] = i
			page.Families = append(page.Families, familyGroup{Family: c.Family})
		}
		page.Families[i].Cases = append(page.Families[i].Cases, row)
		page.Shown++
	}
	for _, m := range solidarity.MemberStates() {
		if reloc[m] != nil {
			page.Allocated = append(page.Allocated, m)
		}
	}
	if len(reloc) > 0 {
		s.pledgesOf(r, d.Arrival.At.Year(), reloc)
		for _, m := range page.Allocated {
			page.Relocation = append(page.Relocation, *reloc[m])
		}
	}
	s.render(w, r, http.StatusOK, "arrival.html", page)
}

// pledgesOf fills in the relocation pledges and deliveries of the year's cycle from
// the ledger's balances, when the ledger holds that cycle.
func (s *Server) pledgesOf(r *http.Request, year int, rows map[solidarity.MemberState]*relocationRow) {
	b, err := s.ledger.Balances(r.Context(), year, time.Time{})
	if err != nil {
		return // no such cycle: the page shows the allocations only
	}
	for _, sb := range b.States {
		rr := rows[sb.State]
		if rr == nil {
			continue
		}
		rr.Delivered = sb.Delivered.Totals.Of(solidarity.RelocationDelivered)
		if sb.Pool.PledgeKnown {
			rr.PledgeKnown = true
			rr.Pledged = sb.Pool.Pledged.Relocations()
		}
	}
}

// --- a case ---

type option struct {
	Value, Label string
}

type eventForm struct {
	Action, Key string
	Events      []option
	Targets     []solidarity.MemberState
	TargetFor   string // the events that need a target, for the label
	Now         string // the latest date the form accepts (UTC)
}

type allocationForm struct {
	Action, Key string
	States      []solidarity.MemberState
}

type historyRow struct {
	At                 time.Time
	Event              cases.Event
	Label              string
	From, To           cases.State
	FromLabel, ToLabel string
	Article            string
}

type dueRow struct {
	deadline.Due
	// The limit's texts in the page's language (Title and Consequence shadow the
	// Due's English ones).
	Title, Consequence, DueText, StartText, PeriodText, TagText, ConsequenceTagText string
	Overdue, Soon                                                                   bool
}

type casePage struct {
	base
	View        *casesvc.CaseView
	Arrival     *solidarity.Arrival
	History     []historyRow
	Dues        []dueRow
	EventForm   *eventForm
	AllocForm   *allocationForm
	FormError   string
	Flash       string
	MayPersonal bool // the user may read the personal record (every read is logged)
	Person      *arrival.Person
	PersonError string
	Determined  *casesvc.Determination
}

// mayOn reports whether u may do a on the case's benefitting or allocated state.
func mayOn(u *solidarity.User, a solidarity.Action, r *solidarity.CaseRecord) bool {
	return solidarity.Can(u, a, r.Benefitting) || (r.Allocated != "" && solidarity.Can(u, a, r.Allocated))
}

func (s *Server) casePage(r *http.Request, id solidarity.CaseID) (*casePage, error) {
	v, err := s.cases.Case(r.Context(), id)
	if err != nil {
		return nil, err
	}
	u := solidarity.UserFromContext(r.Context())
	now := s.cases.Now()
	page := &casePage{base: s.base(r, "Case %s", string(id)), View: v, MayPersonal: mayOn(u, solidarity.ReadPersonal, v.Record)}
	if a, err := s.cases.Arrival(r.Context(), v.Record.Arrival); err == nil {
		page.Arrival = a
	}
	l := page.L
	for _, t := range v.Flow.History {
		page.History = append(page.History, historyRow{At: t.At, Event: t.Event, Label: l.T(t.Event.Label()), From: t.From, To: t.To,
			FromLabel: l.T(t.From.Label()), ToLabel: l.T(t.To.Label()), Article: t.Article})
	}
	for _, d := range v.Dues {
		over := d.Overdue(now)
		row := dueRow{Due: d, Title: l.T(d.Title), DueText: dueDate(l, d), StartText: l.DateTime(d.Start), PeriodText: periodWords(l, d.Period),
			TagText: l.T(tagText(d.Tag)), Overdue: over, Soon: !over && d.Within(now, s.cases.Params.DueSoon)}
		if d.Consequence != "" {
			row.Consequence = l.T(d.Consequence)
		}
		if d.ConsequenceTag != "" {
			row.ConsequenceTagText = l.T(tagText(d.ConsequenceTag))
		}
		page.Dues = append(page.Dues, row)
	}
	rec := v.Record
	benefitting := solidarity.Can(u, solidarity.WriteCaseEvent, rec.Benefitting)
	relocating := rec.Allocated != "" && solidarity.Can(u, solidarity.WriteCaseEvent, rec.Allocated)
	if benefitting || relocating {
		f := &eventForm{Action: "/cases/" + url.PathEscape(string(id)) + "/events", Key: formKey(),
			Now: now.UTC().Format("2006-01-02T15:04")}
		for _, ev := range v.Allowed {
			// The allocation is the coordinator's (the allocation form below).
			if by := ev.By(); by == cases.ByRelocation && relocating || by == cases.ByBenefitting && benefitting {
				f.Events = append(f.Events, option{Value: string(ev), Label: l.T(ev.Label())})
			}
		}
		var names []string
		for _, ev := range cases.Events() {
			if ev.SentToAnotherState() {
				names = append(names, string(ev))
			}
		}
		f.TargetFor = strings.Join(names, ", ")
		for _, m := range solidarity.MemberStates() {
			if m != rec.Benefitting {
				f.Targets = append(f.Targets, m)
			}
		}
		if len(f.Events) > 0 {
			page.EventForm = f
		}
	}
	if cases.Can(rec.State, cases.RelocationAllocated) && solidarity.Can(u, solidarity.AssignCase, "") {
		f := &allocationForm{Action: "/cases/" + url.PathEscape(string(id)) + "/allocation", Key: formKey()}
		for _, m := range solidarity.MemberStates() {
			if m != rec.Benefitting {
				f.States = append(f.States, m)
			}
		}
		page.AllocForm = f
	}
	q := r.URL.Query()
	if ev := cases.Event(q.Get("recorded")); ev.Valid() {
		page.Flash = l.T("Recorded: %s.", l.T(ev.Label()))
	}
	if m, ok := solidarity.ParseMemberState(q.Get("allocated")); ok {
		page.Flash = l.T("The family is allocated to %s for relocation.", string(m))
	}
	return page, nil
}

func (s *Server) handleCasePage(w http.ResponseWriter, r *http.Request) {
	s.renderCase(w, r, false, false)
}

// handlePersonForm and handleDetermineForm show the case page with the personal record
// or the determination. They are POSTs (behind the cross-origin protection), not
// GETs: a read of a personal record is recorded, and must not be caused by a link,
// a prefetch or a reload.
func (s *Server) handlePersonForm(w http.ResponseWriter, r *http.Request) {
	s.renderCase(w, r, true, false)
}

func (s *Server) handleDetermineForm(w http.ResponseWriter, r *http.Request) {
	s.renderCase(w, r, false, true)
}

func (s *Server) renderCase(w http.ResponseWriter, r *http.Request, person, determine bool) {
	id := pathCase(r)
	page, err := s.casePage(r, id)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	if person {
		p, err := s.cases.Person(r.Context(), id, "view")
		switch code := solidarity.ErrorCode(err); code {
		case "":
			page.Person = p
		case solidarity.EUNAUTHORIZED, solidarity.ENOTFOUND:
			page.PersonError = solidarity.ErrorMessage(err)
		default:
			s.pageError(w, r, err)
			return
		}
	}
	if determine {
		d, err := s.cases.Determine(r.Context(), id)
		switch code := solidarity.ErrorCode(err); code {
		case "":
			page.Determined = d
		case solidarity.EUNAUTHORIZED, solidarity.ENOTFOUND:
			page.PersonError = solidarity.ErrorMessage(err)
		default:
			s.pageError(w, r, err)
			return
		}
	}
	w.Header().Set("Cache-Control", "no-store")
	s.render(w, r, http.StatusOK, "case.html", page)
}

// caseForm runs a form post of a case page: a rule broken shows the page again with
// the reason; a refusal is the error page; success redirects to the page.
func (s *Server) caseForm(w http.ResponseWriter, r *http.Request, do func(key string) (*casesvc.Applied, string, error)) {
	id := pathCase(r)
	if err := r.ParseForm(); err != nil {
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read the form"})
		return
	}
	key := r.PostForm.Get("idempotency_key")
	if err := checkKey(key); err != nil {
		s.pageError(w, r, err)
		return
	}
	a, flash, err := do(key)
	switch code := solidarity.ErrorCode(err); code {
	case "":
		if !a.Replayed {
			s.metrics.appends.WithLabelValues(string(a.Entry.Type)).Inc()
		}
		http.Redirect(w, r, "/cases/"+url.PathEscape(string(id))+"?"+flash+"#flow", http.StatusSeeOther)
	case solidarity.EUNAUTHORIZED, solidarity.ENOTFOUND, solidarity.EINTERNAL:
		s.pageServiceError(w, r, err)
	default:
		page, perr := s.casePage(r, id)
		if perr != nil {
			s.pageServiceError(w, r, perr)
			return
		}
		page.FormError = solidarity.ErrorMessage(err)
		if e, ok := errors.AsType[*solidarity.Error](err); ok && e.Article != "" {
			page.FormError += " (" + e.Article + ")"
		}
		s.render(w, r, HTTPStatus(code), "case.html", page)
	}
}

func (s *Server) handleEventForm(w http.ResponseWriter, r *http.Request) {
	s.caseForm(w, r, func(key string) (*casesvc.Applied, string, error) {
		f := r.PostForm
		req, err := eventRequest(pathCase(r), EventRequest{Event: cases.Event(f.Get("event")), At: f.Get("at"),
			Target: solidarity.MemberState(f.Get("target")), Family: f.Get("family") != "", Note: f.Get("note")})
		if err != nil {
			return nil, "", err
		}
		if !req.Event.SentToAnotherState() {
			req.Target = "" // the form's target select is for requests only
		}
		a, err := s.cases.Apply(r.Context(), req, key)
		return a, "recorded=" + url.QueryEscape(string(req.Event)), err
	})
}

func (s *Server) handleAllocationForm(w http.ResponseWriter, r *http.Request) {
	s.caseForm(w, r, func(key string) (*casesvc.Applied, string, error) {
		m, ok := solidarity.ParseMemberState(r.PostForm.Get("state"))
		if !ok {
			return nil, "", &solidarity.Error{Code: solidarity.EINVALID, Field: "state", Message: "choose a Member State"}
		}
		a, err := s.cases.Assign(r.Context(), pathCase(r), m, key)
		return a, "allocated=" + string(m), err
	})
}

// --- template helpers ---

// tagText spells out a certainty tag; R (recalled, not read in the legal text) asks
// the reader to verify.
func tagText(c solidarity.Certainty) string {
	switch c {
	case "V":
		return "V — read in the legal text"
	case "P":
		return "P — partly read"
	case "R":
		return "R — recalled, not read: verify"
	case "M":
		return "M — modelled"
	case "S":
		return "S — secondary source"
	case "U":
		return "U — unattributed"
	}
	return string(c)
}
