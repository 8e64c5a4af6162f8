package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/casesvc"
)

// The case-flow API (issue 4): arrivals and their people, the legal events of each
// case, relocation allocations, the deadline view and the access log. Handlers have
// the ledger API's shape; the case service decides who may do what and records every
// read of a personal record. Nothing here logs a request body: the only values that
// reach the log are the method, the path (case IDs, never a person) and the user.

var errNoCases = &solidarity.Error{Code: solidarity.ENOTFOUND, Message: "this server has no case flow"}

// caseAPI wraps a handler of the case API: 404 without a case service, 401 for the
// public (every case route needs a user).
func (s *Server) caseAPI(h http.HandlerFunc) http.HandlerFunc {
	authed := s.authed(h)
	return func(w http.ResponseWriter, r *http.Request) {
		if s.cases == nil {
			s.apiError(w, r, errNoCases)
			return
		}
		authed(w, r)
	}
}

// CaseSummary is a case in a list: where it stands, without its flow or its person.
type CaseSummary struct {
	ID          solidarity.CaseID      `json:"id"`
	Arrival     solidarity.ArrivalID   `json:"arrival"`
	Family      solidarity.FamilyID    `json:"family"`
	Benefitting solidarity.MemberState `json:"benefitting_state"`
	Allocated   solidarity.MemberState `json:"allocated_state,omitempty"`
	Responsible solidarity.MemberState `json:"responsible_state,omitempty"`
	State       cases.State            `json:"state"`
	StateLabel  string                 `json:"state_label"`
	NextDue     time.Time              `json:"next_due,omitzero"`
	Opened      time.Time              `json:"opened"`
	Closed      time.Time              `json:"closed,omitzero"`
	Erased      time.Time              `json:"erased,omitzero"`
	Version     int64                  `json:"version"`
	// Demonstration: the case belongs to a demonstration's arrival (generated people).
	Demonstration bool `json:"demonstration,omitempty"`
}

// labelDemo marks the summaries of cases of a demonstration's arrivals, reading each
// arrival once.
func (s *Server) labelDemo(ctx context.Context, cs []CaseSummary) error {
	demo := map[solidarity.ArrivalID]bool{}
	for i := range cs {
		d, ok := demo[cs[i].Arrival]
		if !ok {
			a, err := s.cases.Store.Arrival(ctx, cs[i].Arrival)
			if err != nil {
				return err
			}
			d = a.Demonstration
			demo[cs[i].Arrival] = d
		}
		cs[i].Demonstration = d
	}
	return nil
}

func summarize(r *solidarity.CaseRecord) CaseSummary {
	st := r.State
	return CaseSummary{ID: r.ID, Arrival: r.Arrival, Family: r.Family, Benefitting: r.Benefitting, Allocated: r.Allocated,
		Responsible: r.Responsible, State: st, StateLabel: st.Label(), NextDue: r.NextDue, Opened: r.Opened,
		Closed: r.Closed, Erased: r.Erased, Version: r.Version}
}

func summaries(rs []*solidarity.CaseRecord) []CaseSummary {
	out := make([]CaseSummary, 0, len(rs))
	for _, r := range rs {
		out = append(out, summarize(r))
	}
	return out
}

// Registration is the answer of POST /api/v1/arrivals.
type Registration struct {
	Arrival  *solidarity.Arrival      `json:"arrival"`
	Cases    []solidarity.CaseID      `json:"cases"`
	Families []solidarity.FamilyCases `json:"families"`
	EntrySeq int64                    `json:"entry_seq"`
}

func registration(reg *casesvc.Registered) Registration {
	out := Registration{Arrival: reg.Arrival, Cases: []solidarity.CaseID{}, Families: []solidarity.FamilyCases{}, EntrySeq: reg.Entry.Seq}
	at := map[solidarity.FamilyID]int{}
	for _, c := range reg.Cases {
		out.Cases = append(out.Cases, c.ID)
		i, ok := at[c.Family]
		if !ok {
			i = len(out.Families)
			at[c.Family] = i
			out.Families = append(out.Families, solidarity.FamilyCases{Family: c.Family})
		}
		out.Families[i].Cases = append(out.Families[i].Cases, c.ID)
	}
	return out
}

// mayImport reports whether u may register arrivals for some state (the role table;
// the service decides again for the list's benefitting state).
func mayImport(u *solidarity.User) bool {
	return u != nil && (solidarity.Can(u, solidarity.WriteArrival, "") || solidarity.Can(u, solidarity.WriteArrival, u.State))
}

// mayReadCases reports whether u may read cases of some state.
func mayReadCases(u *solidarity.User) bool {
	return u != nil && (solidarity.Can(u, solidarity.ReadCases, "") || solidarity.Can(u, solidarity.ReadCases, u.State))
}

// parseList reads a ship's list in the format its media type names: application/json
// or text/csv (text/plain is read by its first byte, as arrival.ParseList does).
func parseList(name, contentType string, body []byte) (*arrival.List, error) {
	mt, _, err := mime.ParseMediaType(contentType)
	if contentType == "" {
		mt, err = "", nil
	}
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "Content-Type", Message: "cannot read the media type"}
	}
	switch mt {
	case "application/json":
		return arrival.ParseJSON(name, bytes.NewReader(body))
	case "text/csv":
		return arrival.ParseCSV(name, bytes.NewReader(body))
	case "", "text/plain", "application/octet-stream":
		return arrival.ParseList(name, bytes.NewReader(body))
	}
	return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "Content-Type",
		Message: fmt.Sprintf("a ship's list is application/json or text/csv, not %s", mt)}
}

func (s *Server) handleRegisterArrival(w http.ResponseWriter, r *http.Request) {
	if u := solidarity.UserFromContext(r.Context()); !mayImport(u) {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Message: "not allowed: " + string(solidarity.WriteArrival)})
		return
	}
	key, err := idempotencyKey(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	body, err := readBody(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	l, err := parseList("request body", r.Header.Get("Content-Type"), body)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	register := s.cases.Register
	switch v := r.URL.Query().Get("new_landing"); v {
	case "", "false":
	case "true":
		register = s.cases.RegisterNewLanding
	default:
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Field: "new_landing", Message: "want true or false"})
		return
	}
	reg, err := register(r.Context(), l, key)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	status := http.StatusCreated
	if reg.Replayed {
		status = http.StatusOK
		w.Header().Set("Idempotency-Replayed", "true")
	} else {
		s.metrics.appends.WithLabelValues(string(reg.Entry.Type)).Inc()
	}
	writeJSON(w, status, registration(reg))
}

// queryState reads an optional Member State code from the query.
func queryState(r *http.Request, field string) (*solidarity.MemberState, error) {
	v := r.URL.Query().Get(field)
	if v == "" {
		return nil, nil
	}
	m, ok := solidarity.ParseMemberState(v)
	if !ok {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: fmt.Sprintf("%q is not a Member State code", v)}
	}
	return &m, nil
}

// queryLimit reads ?limit= within [1, max], def when absent.
func queryLimit(r *http.Request, def, max int) (int, error) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return def, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 || n > max {
		return 0, &solidarity.Error{Code: solidarity.EINVALID, Field: "limit", Message: fmt.Sprintf("want a number from 1 to %d", max)}
	}
	return n, nil
}

// ArrivalPage is a page of GET /api/v1/arrivals, latest landing first: NextCursor
// continues it (null on the last page), Total counts every arrival the filter selects.
type ArrivalPage struct {
	Arrivals   []*solidarity.Arrival `json:"arrivals"`
	NextCursor *string               `json:"next_cursor"`
	Total      int64                 `json:"total"`
}

// arrivalList names the arrivals' cursors; the key is the last arrival's landing
// time (RFC 3339) and ID, with a space between (an ID has none).
const arrivalList = "arrivals"

func arrivalCursor(a *solidarity.Arrival) string {
	return encodeCursor(arrivalList, a.At.UTC().Format(time.RFC3339Nano)+" "+string(a.ID))
}

func parseArrivalCursor(c string) (*solidarity.ArrivalKey, error) {
	key, err := decodeCursor(arrivalList, c)
	if err != nil {
		return nil, err
	}
	at, id, ok := strings.Cut(key, " ")
	t, err := time.Parse(time.RFC3339Nano, at)
	if !ok || err != nil || id == "" {
		return nil, badCursor(arrivalList)
	}
	return &solidarity.ArrivalKey{At: t, ID: solidarity.ArrivalID(id)}, nil
}

func (s *Server) handleArrivals(w http.ResponseWriter, r *http.Request) {
	m, err := queryState(r, "state")
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	want, err := queryLimit(r, solidarity.DefaultPageLimit, solidarity.MaxPageLimit)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	f := solidarity.ArrivalFilter{Benefitting: m, Limit: min(want+1, solidarity.MaxPageLimit)}
	if c := r.URL.Query().Get("cursor"); c != "" {
		if f.After, err = parseArrivalCursor(c); err != nil {
			s.apiError(w, r, err)
			return
		}
	}
	as, err := s.cases.Arrivals(r.Context(), f)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	all := f
	all.After = nil
	total, err := s.cases.CountArrivals(r.Context(), all)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	page := ArrivalPage{Arrivals: as, Total: total}
	if len(as) > want || len(as) == solidarity.MaxPageLimit {
		page.Arrivals = as[:want]
		c := arrivalCursor(page.Arrivals[len(page.Arrivals)-1])
		page.NextCursor = &c
	}
	if page.Arrivals == nil {
		page.Arrivals = []*solidarity.Arrival{}
	}
	writeJSON(w, http.StatusOK, page)
}

// ArrivalDetail is the answer of GET /api/v1/arrivals/{id}: the arrival, how many of
// its cases the user sees stand in each state, and those cases.
type ArrivalDetail struct {
	Arrival *solidarity.Arrival `json:"arrival"`
	Counts  map[cases.State]int `json:"counts"`
	Cases   []CaseSummary       `json:"cases"`
}

// arrivalDetail reads an arrival and every case of it the user may see.
func (s *Server) arrivalDetail(ctx context.Context, id solidarity.ArrivalID) (*ArrivalDetail, []*solidarity.CaseRecord, error) {
	a, err := s.cases.Arrival(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	counts, err := s.cases.CaseCounts(ctx, solidarity.CaseFilter{Arrival: &id})
	if err != nil {
		return nil, nil, err
	}
	var all []*solidarity.CaseRecord
	f := solidarity.CaseFilter{Arrival: &id, Limit: solidarity.MaxCaseLimit}
	for {
		page, err := s.cases.Cases(ctx, f)
		if err != nil {
			return nil, nil, err
		}
		all = append(all, page...)
		if len(page) < f.Limit {
			break
		}
		f.After = page[len(page)-1].ID
	}
	if counts == nil {
		counts = map[cases.State]int{}
	}
	d := &ArrivalDetail{Arrival: a, Counts: counts, Cases: summaries(all)}
	for i := range d.Cases {
		d.Cases[i].Demonstration = a.Demonstration
	}
	return d, all, nil
}

func (s *Server) handleArrival(w http.ResponseWriter, r *http.Request) {
	d, _, err := s.arrivalDetail(r.Context(), solidarity.ArrivalID(r.PathValue("id")))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// CasePage is a page of GET /api/v1/cases: NextCursor continues it (null on the last
// page), Total counts every case the filter selects; NextAfter is the same key as the
// after= of the next page, kept for the clients that page so.
type CasePage struct {
	Cases      []CaseSummary      `json:"cases"`
	NextCursor *string            `json:"next_cursor"`
	Total      int64              `json:"total"`
	NextAfter  *solidarity.CaseID `json:"next_after"`
}

// caseList names the case listing's cursors.
const caseList = "cases"

func (s *Server) handleCases(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := solidarity.CaseFilter{After: solidarity.CaseID(q.Get("after")), Open: q.Get("open") == "true"}
	if c := q.Get("cursor"); c != "" {
		key, err := decodeCursor(caseList, c)
		if err == nil && f.After != "" {
			err = &solidarity.Error{Code: solidarity.EINVALID, Field: "cursor", Message: "give cursor or after, not both"}
		}
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		f.After = solidarity.CaseID(key)
	}
	if v := q.Get("arrival"); v != "" {
		id := solidarity.ArrivalID(v)
		f.Arrival = &id
	}
	if v := q.Get("family"); v != "" {
		id := solidarity.FamilyID(v)
		f.Family = &id
	}
	var err error
	if f.Involving, err = queryState(r, "state"); err != nil {
		s.apiError(w, r, err)
		return
	}
	want, err := queryLimit(r, solidarity.DefaultPageLimit, solidarity.MaxPageLimit)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	f.Limit = want + 1
	rs, err := s.cases.Cases(r.Context(), f)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	counts, err := s.cases.CaseCounts(r.Context(), f)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	page := CasePage{}
	for _, n := range counts {
		page.Total += int64(n)
	}
	if len(rs) > want {
		rs = rs[:want]
		next := rs[len(rs)-1].ID
		c := encodeCursor(caseList, string(next))
		page.NextAfter, page.NextCursor = &next, &c
	}
	page.Cases = summaries(rs)
	if err := s.labelDemo(r.Context(), page.Cases); err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}

func pathCase(r *http.Request) solidarity.CaseID { return solidarity.CaseID(r.PathValue("id")) }

func (s *Server) handleCase(w http.ResponseWriter, r *http.Request) {
	v, err := s.cases.Case(r.Context(), pathCase(r))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// noStore marks an answer that holds a personal record: no cache keeps it.
func noStore(w http.ResponseWriter) { w.Header().Set("Cache-Control", "no-store") }

func (s *Server) handlePerson(w http.ResponseWriter, r *http.Request) {
	purpose := r.URL.Query().Get("purpose")
	if len(purpose) > 64 {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Field: "purpose", Message: "at most 64 characters"})
		return
	}
	p, err := s.cases.Person(r.Context(), pathCase(r), purpose)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	noStore(w)
	writeJSON(w, http.StatusOK, p)
}

func (s *Server) handleDetermination(w http.ResponseWriter, r *http.Request) {
	d, err := s.cases.Determine(r.Context(), pathCase(r))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	noStore(w)
	writeJSON(w, http.StatusOK, d)
}

// EventRequest is the body of POST /api/v1/cases/{id}/events.
type EventRequest struct {
	Event cases.Event `json:"event"`
	// At is when the event happened: an RFC 3339 time, a UTC time as
	// YYYY-MM-DDTHH:MM, or a day (midnight UTC); empty means now.
	At     string                 `json:"at,omitempty"`
	Target solidarity.MemberState `json:"target,omitempty"`
	Family bool                   `json:"family,omitempty"`
	Note   string                 `json:"note,omitempty"`
}

// eventRequest turns the API's (or a form's) request into the service's.
func eventRequest(id solidarity.CaseID, req EventRequest) (casesvc.EventRequest, error) {
	at, err := casesvc.ParseAt("at", req.At)
	if err != nil {
		return casesvc.EventRequest{}, err
	}
	out := casesvc.EventRequest{Case: id, Event: req.Event, At: at, Family: req.Family, Note: strings.TrimSpace(req.Note)}
	if req.Target != "" {
		m, ok := solidarity.ParseMemberState(string(req.Target))
		if !ok {
			return out, &solidarity.Error{Code: solidarity.EINVALID, Field: "target", Message: fmt.Sprintf("%q is not a Member State code", req.Target)}
		}
		out.Target = m
	}
	if len(out.Note) > 500 {
		return out, &solidarity.Error{Code: solidarity.EINVALID, Field: "note", Message: "a note is at most 500 characters"}
	}
	return out, nil
}

// Moved is the answer of a case write: the ledger entry and the cases it moved.
type Moved struct {
	Entry *solidarity.Entry `json:"entry"`
	Cases []CaseSummary     `json:"cases"`
}

// writeMoved answers a case write: 201, or 200 with Idempotency-Replayed.
func (s *Server) writeMoved(w http.ResponseWriter, r *http.Request, a *casesvc.Applied, err error) {
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	status := http.StatusCreated
	if a.Replayed {
		status = http.StatusOK
		w.Header().Set("Idempotency-Replayed", "true")
	} else {
		s.metrics.appends.WithLabelValues(string(a.Entry.Type)).Inc()
	}
	writeJSON(w, status, Moved{Entry: a.Entry, Cases: summaries(a.Cases)})
}

func (s *Server) handleCaseEvent(w http.ResponseWriter, r *http.Request) {
	key, err := idempotencyKey(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var req EventRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	er, err := eventRequest(pathCase(r), req)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	a, err := s.cases.Apply(r.Context(), er, key)
	s.writeMoved(w, r, a, err)
}

// AllocationRequest is the body of POST /api/v1/cases/{id}/allocation.
type AllocationRequest struct {
	State solidarity.MemberState `json:"state"`
}

func (s *Server) handleAllocation(w http.ResponseWriter, r *http.Request) {
	key, err := idempotencyKey(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var req AllocationRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	m, ok := solidarity.ParseMemberState(string(req.State))
	if !ok {
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Field: "state", Message: fmt.Sprintf("%q is not a Member State code", req.State)})
		return
	}
	a, err := s.cases.Assign(r.Context(), pathCase(r), m, key)
	s.writeMoved(w, r, a, err)
}

// parseWithin reads the deadline view's horizon: a Go duration (168h) or days (7d);
// zero when absent (the service's default).
func parseWithin(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	bad := &solidarity.Error{Code: solidarity.EINVALID, Field: "within", Message: "want a duration such as 168h or 7d, at most 366 days"}
	var d time.Duration
	if n, ok := strings.CutSuffix(v, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil {
			return 0, bad
		}
		d = time.Duration(days) * 24 * time.Hour
	} else {
		var err error
		if d, err = time.ParseDuration(v); err != nil {
			return 0, bad
		}
	}
	if d <= 0 || d > 366*24*time.Hour {
		return 0, bad
	}
	return d, nil
}

func (s *Server) handleDeadlines(w http.ResponseWriter, r *http.Request) {
	within, err := parseWithin(r.URL.Query().Get("within"))
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	m, err := queryState(r, "state")
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	limit, err := queryLimit(r, 500, solidarity.MaxCaseLimit)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var after *dueKey
	if c := r.URL.Query().Get("cursor"); c != "" {
		k, err := decodeCursor("deadlines", c)
		if err != nil {
			s.apiError(w, r, err)
			return
		}
		if after, err = parseDueKey(k); err != nil {
			s.apiError(w, r, badCursor("deadlines"))
			return
		}
	}
	// The rows are computed from the cases, not stored: every page computes the view
	// (at most MaxCaseLimit rows) and cuts its page after the cursor's row, in the
	// view's order (end of the limit, then case, then limit), which is total.
	rows, complete, err := s.cases.DeadlineView(r.Context(), within, m, solidarity.MaxCaseLimit)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	slices.SortStableFunc(rows, func(a, b casesvc.DueRow) int { return keyOfDue(a).compare(keyOfDue(b)) })
	start := 0
	if after != nil {
		start, _ = slices.BinarySearchFunc(rows, *after, func(row casesvc.DueRow, k dueKey) int {
			if c := keyOfDue(row).compare(k); c != 0 {
				return c
			}
			return -1 // the cursor's own row is before the page
		})
	}
	page := rows[start:min(start+limit, len(rows))]
	var next *string
	if start+len(page) < len(rows) {
		c := encodeCursor("deadlines", keyOfDue(page[len(page)-1]).String())
		next = &c
	}
	writeJSON(w, http.StatusOK, map[string]any{"deadlines": page, "next_cursor": next, "total": len(rows), "complete": complete})
}

// dueKey orders the deadline view: when the limit ends, then the case, then the limit.
type dueKey struct {
	end          time.Time
	case_, limit string
}

func keyOfDue(r casesvc.DueRow) dueKey {
	end := r.Due.Due
	if !r.Due.Hours {
		end = end.AddDate(0, 0, 1) // a limit in days ends with its last day
	}
	return dueKey{end: end, case_: string(r.Case), limit: r.Due.Limit}
}

func (k dueKey) compare(o dueKey) int {
	if c := k.end.Compare(o.end); c != 0 {
		return c
	}
	if c := strings.Compare(k.case_, o.case_); c != 0 {
		return c
	}
	return strings.Compare(k.limit, o.limit)
}

// String is the cursor's key: the end in Unix nanoseconds, the case and the limit.
func (k dueKey) String() string {
	return strconv.FormatInt(k.end.UnixNano(), 10) + "|" + k.case_ + "|" + k.limit
}

func parseDueKey(s string) (*dueKey, error) {
	parts := strings.SplitN(s, "|", 3)
	if len(parts) != 3 || parts[1] == "" || parts[2] == "" {
		return nil, errors.New("bad key")
	}
	n, err := strconv.ParseInt(parts[0], 10, 64)
	if err != nil {
		return nil, err
	}
	return &dueKey{end: time.Unix(0, n).UTC(), case_: parts[1], limit: parts[2]}, nil
}

// ApplyRequest is the optional body of POST /api/v1/deadlines/apply: the consequences
// of a preview (?dry_run=true) to apply, and only those.
type ApplyRequest struct {
	Confirm []casesvc.Confirmed `json:"confirm"`
}

// handleApplyMissed applies the consequences of missed time limits: with
// ?dry_run=true it records nothing and answers what would be applied; with a body
// whose confirm lists consequences of a preview it applies those (an empty list is
// EINVALID); without confirm, all.
func (s *Server) handleApplyMissed(w http.ResponseWriter, r *http.Request) {
	var cs []casesvc.Consequence
	var err error
	switch dry := r.URL.Query().Get("dry_run"); {
	case dry == "true":
		cs, err = s.cases.PreviewMissed(r.Context())
	case dry != "" && dry != "false":
		s.apiError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Field: "dry_run", Message: "want true or false"})
		return
	default:
		var req ApplyRequest
		if r.ContentLength != 0 {
			if err := decodeJSON(r, &req); err != nil {
				s.apiError(w, r, err)
				return
			}
		}
		if req.Confirm != nil {
			cs, err = s.cases.ApplyConfirmed(r.Context(), req.Confirm)
		} else {
			cs, err = s.cases.ApplyMissed(r.Context())
		}
	}
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	if cs == nil {
		cs = []casesvc.Consequence{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"consequences": cs})
}

// accessList names the access log's cursors.
const accessList = "access-log"

// accessFilter reads the query of the access log: case, actor (both ignoring case),
// role, from/to (queryDays), cursor and limit.
func accessFilter(r *http.Request) (solidarity.AccessFilter, error) {
	q := r.URL.Query()
	f := solidarity.AccessFilter{}
	if v := strings.TrimSpace(q.Get("case")); v != "" {
		id := solidarity.CaseID(v)
		f.Case = &id
	}
	if v := strings.TrimSpace(q.Get("actor")); v != "" {
		f.Actor = &v
	}
	if v := q.Get("role"); v != "" {
		role := solidarity.Role(v)
		f.Role = &role
	}
	var err error
	if f.From, f.To, err = queryDays(r); err != nil {
		return f, err
	}
	if c := q.Get("cursor"); c != "" {
		if f.BeforeSeq, err = seqCursor(accessList, c); err != nil {
			return f, err
		}
	}
	if f.Limit, err = queryLimit(r, solidarity.DefaultPageLimit, solidarity.MaxPageLimit); err != nil {
		return f, err
	}
	return f.Normalize()
}

// AccessPage is a page of GET /api/v1/access-log, latest first: NextCursor continues
// it (null on the last page), Total counts every record the filter selects.
type AccessPage struct {
	Accesses   []*solidarity.Access `json:"accesses"`
	NextCursor *string              `json:"next_cursor"`
	Total      int64                `json:"total"`
}

// accessPage reads a page of the access log and the total of its filter.
func (s *Server) accessPage(ctx context.Context, f solidarity.AccessFilter) (*AccessPage, error) {
	want := f.Limit
	f.Limit = min(want+1, solidarity.MaxPageLimit)
	as, err := s.cases.AccessLog(ctx, f)
	if err != nil {
		return nil, err
	}
	all := f
	all.BeforeSeq, all.Limit = 0, 0
	total, err := s.cases.CountAccess(ctx, all)
	if err != nil {
		return nil, err
	}
	page := &AccessPage{Accesses: as, Total: total}
	if len(as) > want || len(as) == solidarity.MaxPageLimit {
		page.Accesses = as[:want]
		c := seqCursorText(accessList, page.Accesses[len(page.Accesses)-1].Seq)
		page.NextCursor = &c
	}
	if page.Accesses == nil {
		page.Accesses = []*solidarity.Access{}
	}
	return page, nil
}

func (s *Server) handleAccessLog(w http.ResponseWriter, r *http.Request) {
	f, err := accessFilter(r)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	page, err := s.accessPage(r.Context(), f)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, page)
}
