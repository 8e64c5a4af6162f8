package web

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
	"solidarity/deadline"
	"solidarity/internal/casesvc"
	"solidarity/internal/i18n"
)

// The deadline view (/deadlines) and its CSV (/deadlines.csv): the time limits of the
// cases the user may see (the service decides which), overdue first, sorted by a
// column of the query (?sort=), each with how far it is from the service's clock.

// --- deadlines ---

// deadlineRow is a row of the deadline view: the service's row and how far its limit
// is from the service's clock (dueIn).
type deadlineRow struct {
	casesvc.DueRow
	When string // English, for the CSV
	// The page's texts in its language: how far, the last day, the tag, the state.
	WhenText, DueText, TagText, StateText string
}

// sortColumn is a column header of the deadline view: a link sorting by it, marked
// (aria-sort) when it is the current one.
type sortColumn struct {
	Key, Label, URL string
	Current         bool
}

type deadlinesPage struct {
	base
	Overdue, Soon []deadlineRow
	Total         int
	Within        string
	States        []solidarity.MemberState
	State         string
	Sort          string
	Columns       []sortColumn
	CSV           string // the CSV of the same rows and filters
	Apply         bool   // the user may apply the consequences of missed time limits
	Applied       []casesvc.Consequence
	AppliedDone   bool
	// Preview is what applying would record, shown for confirmation.
	Preview     []casesvc.Consequence
	PreviewDone bool
}

type deadlineSort struct {
	Key, Label string
	Cmp        func(a, b casesvc.DueRow) int
}

// deadlineSorts are the orders of ?sort=, by the column's key; ties keep the
// service's order (earliest first). The first is the default.
var deadlineSorts = []deadlineSort{
	{"due", msg("Due"), func(a, b casesvc.DueRow) int { return a.Due.Due.Compare(b.Due.Due) }},
	{"case", msg("Case"), func(a, b casesvc.DueRow) int { return cmp.Compare(a.Case, b.Case) }},
	{"limit", msg("Time limit"), func(a, b casesvc.DueRow) int { return cmp.Compare(a.Due.Title, b.Due.Title) }},
	{"state", msg("Case state"), func(a, b casesvc.DueRow) int { return cmp.Compare(a.State, b.State) }},
}

// dueIn says how far a time limit is from now: "N days overdue" or "due in N days"
// ("due today" on its last day) for a limit in days, which ends with its last day;
// in hours for a limit in hours, which ends at its instant.
func dueIn(d deadline.Due, now time.Time) string {
	if d.Hours {
		if d.Overdue(now) {
			return count(int(now.Sub(d.Due)/time.Hour), "hour") + " overdue"
		}
		return "due in " + count(int(d.Due.Sub(now)/time.Hour), "hour")
	}
	days := int(d.Due.Sub(deadline.Civil(now)).Hours() / 24)
	switch {
	case days < 0:
		return count(-days, "day") + " overdue"
	case days == 0:
		return "due today"
	}
	return "due in " + count(days, "day")
}

// count writes n units, "under 1 hour" for less than one.
func count(n int, unit string) string {
	switch n {
	case 0:
		return "under 1 " + unit
	case 1:
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

func (s *Server) deadlinesPage(r *http.Request) (*deadlinesPage, error) {
	q := r.URL.Query()
	within, err := parseWithin(q.Get("within"))
	if err != nil {
		return nil, err
	}
	m, err := queryState(r, "state")
	if err != nil {
		return nil, err
	}
	sortBy := q.Get("sort")
	if sortBy == "" {
		sortBy = deadlineSorts[0].Key
	}
	at := slices.IndexFunc(deadlineSorts, func(c deadlineSort) bool { return c.Key == sortBy })
	if at < 0 {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "sort", Message: "sort by due, case, limit or state"}
	}
	rows, err := s.cases.Deadlines(r.Context(), within, m, 1000)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(rows, deadlineSorts[at].Cmp)
	u := solidarity.UserFromContext(r.Context())
	page := &deadlinesPage{base: s.base(r, "Deadlines"), Within: q.Get("within"), State: q.Get("state"), Sort: sortBy,
		Total: len(rows), Apply: solidarity.Can(u, solidarity.WriteCaseEvent, "")}
	if solidarity.Can(u, solidarity.ReadCases, "") {
		page.States = solidarity.MemberStates()
	}
	filter := url.Values{}
	for _, k := range []string{"within", "state"} {
		if v := q.Get(k); v != "" {
			filter.Set(k, v)
		}
	}
	for _, c := range deadlineSorts {
		v := maps.Clone(filter)
		v.Set("sort", c.Key)
		page.Columns = append(page.Columns, sortColumn{Key: c.Key, Label: page.L.T(c.Label), URL: "/deadlines?" + v.Encode(), Current: c.Key == sortBy})
	}
	filter.Set("sort", sortBy)
	page.CSV = "/deadlines.csv?" + filter.Encode()
	if page.Within == "" {
		page.Within = fmt.Sprintf("%dd", int(s.cases.Params.DueSoon/(24*time.Hour)))
	}
	now := s.cases.Now()
	for _, row := range rows {
		l := page.L
		dr := deadlineRow{DueRow: row, When: dueIn(row.Due, now), WhenText: whenIn(l, row.Due, now), DueText: dueDate(l, row.Due),
			TagText: l.T(tagText(row.Due.Tag)), StateText: l.T(row.State.Label())}
		if row.Overdue {
			page.Overdue = append(page.Overdue, dr)
		} else {
			page.Soon = append(page.Soon, dr)
		}
	}
	return page, nil
}

// duesTable is one table of the deadline view: its rows and the sort links of its
// headers, by key.
type duesTable struct {
	ID      string
	L       *i18n.Locale // the page's language
	Caption string
	Rows    []deadlineRow
	Columns map[string]sortColumn
}

func (p *deadlinesPage) table(id string, rows []deadlineRow) duesTable {
	t := duesTable{ID: id, L: p.L, Rows: rows, Columns: map[string]sortColumn{}}
	t.Caption = p.L.T("Time limits due soon")
	if id == "overdue" {
		t.Caption = p.L.T("Overdue time limits")
	}
	for _, c := range p.Columns {
		t.Columns[c.Key] = c
	}
	return t
}

// OverdueTable and SoonTable are the two tables of the page.
func (p *deadlinesPage) OverdueTable() duesTable { return p.table("overdue", p.Overdue) }
func (p *deadlinesPage) SoonTable() duesTable    { return p.table("soon", p.Soon) }

// Rows are the page's rows in its order: overdue, then due soon.
func (p *deadlinesPage) Rows() []deadlineRow { return append(slices.Clip(p.Overdue), p.Soon...) }

// handleDeadlinesCSV writes the rows of the deadline view, with its filters and
// order, as CSV.
func (s *Server) handleDeadlinesCSV(w http.ResponseWriter, r *http.Request) {
	page, err := s.deadlinesPage(r)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="deadlines.csv"`)
	w.Header().Set("Cache-Control", "no-store")
	cw := csv.NewWriter(w)
	cw.Write([]string{"case", "family", "arrival", "state", "limit", "title", "due", "when", "overdue", "article", "tag", "benefitting_state", "allocated_state"})
	for _, row := range page.Rows() {
		cw.Write([]string{string(row.Case), string(row.Family), string(row.Arrival), string(row.State), row.Due.Limit, row.Due.Title,
			casesvc.DueText(row.Due), row.When, strconv.FormatBool(row.Overdue), row.Due.Article, string(row.Due.Tag),
			string(row.Benefitting), string(row.Allocated)})
	}
	cw.Flush()
}

func (s *Server) handleDeadlinesPage(w http.ResponseWriter, r *http.Request) {
	page, err := s.deadlinesPage(r)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "deadlines.html", page)
}

// handleApplyForm runs the two steps of applying the consequences of missed time
// limits. Without a confirmation it records nothing and shows what would be applied
// (case, limit, article, consequence) with a form confirming exactly that list; the
// confirmation (the list's case, limit and case version) applies those and shows the
// deadline view with what was applied.
func (s *Server) handleApplyForm(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read the form"})
		return
	}
	var done []casesvc.Consequence
	var err error
	values := r.PostForm["confirm"]
	if len(values) == 0 {
		done, err = s.cases.PreviewMissed(r.Context())
	} else {
		var confirmed []casesvc.Confirmed
		if confirmed, err = parseConfirmed(values); err == nil {
			done, err = s.cases.ApplyConfirmed(r.Context(), confirmed)
		}
	}
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	r2 := r.Clone(r.Context())
	r2.Method, r2.URL = http.MethodGet, &url.URL{Path: "/deadlines"}
	page, err := s.deadlinesPage(r2)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	if len(values) == 0 {
		page.Preview, page.PreviewDone = done, true
	} else {
		page.Applied, page.AppliedDone = done, true
	}
	s.render(w, r, http.StatusOK, "deadlines.html", page)
}

// confirmValue writes a previewed consequence as the confirm form sends it back:
// case, limit and case version.
func confirmValue(c casesvc.Consequence) string {
	return fmt.Sprintf("%s|%s|%d", c.Case, c.Limit, c.Version)
}

// parseConfirmed reads the confirm values of the form (confirmValue).
func parseConfirmed(values []string) ([]casesvc.Confirmed, error) {
	out := make([]casesvc.Confirmed, 0, len(values))
	for i, v := range values {
		parts := strings.Split(v, "|")
		var n int64
		if len(parts) == 3 {
			n, _ = strconv.ParseInt(parts[2], 10, 64)
		}
		if len(parts) != 3 || n <= 0 || parts[0] == "" || parts[1] == "" {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: fmt.Sprintf("confirm[%d]", i), Message: "not a consequence of the preview"}
		}
		out = append(out, casesvc.Confirmed{Case: solidarity.CaseID(parts[0]), Limit: parts[1], Version: n})
	}
	return out, nil
}
