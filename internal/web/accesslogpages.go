package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"

	"solidarity"
)

// The access log page: who read which personal record, when and why, latest first;
// filters by case and actor (ignoring case), role and days; numbered pages keyed like
// the ledger's (?before= the next, ?after= the previous, ?last=1), with the total.

type accessLogPage struct {
	base
	Rows                    []*solidarity.Access
	Case, Actor, Role       string
	From, To                string
	Roles                   []solidarity.Role
	Limit                   int
	Total                   int64
	Number, Pages           int
	First, Prev, Next, Last string
}

// accessPageLimit is the page's default length.
const accessPageLimit = 100

func (s *Server) handleAccessLogPage(w http.ResponseWriter, r *http.Request) {
	f, err := accessFilter(r)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	q := r.URL.Query()
	if v := q.Get("before"); v != "" {
		if f.BeforeSeq, err = strconv.ParseInt(v, 10, 64); err != nil {
			f.BeforeSeq = -1 // Normalize names it
		}
	}
	if v := q.Get("after"); v != "" {
		if f.AfterSeq, err = strconv.ParseInt(v, 10, 64); err != nil {
			f.AfterSeq = -1
		}
	}
	if f, err = f.Normalize(); err != nil {
		s.pageError(w, r, err)
		return
	}
	page := accessLogPage{base: s.base(r, "Access log"), Case: q.Get("case"), Actor: q.Get("actor"), Role: q.Get("role"),
		From: q.Get("from"), To: q.Get("to"), Limit: f.Limit, Roles: []solidarity.Role{solidarity.Coordinator, solidarity.Officer, solidarity.Auditor}}
	ctx := r.Context()
	all := f
	all.AfterSeq, all.BeforeSeq = 0, 0
	if page.Total, err = s.cases.CountAccess(ctx, all); err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	page.Pages = max(1, int((page.Total+int64(f.Limit)-1)/int64(f.Limit)))
	// A page back (?after=) and the last page read oldest first, and are turned.
	read := f
	back := f.AfterSeq > 0 && f.BeforeSeq == 0
	if q.Get("last") == "1" {
		read = all
		read.Limit = max(1, int(page.Total-int64(page.Pages-1)*int64(f.Limit)))
		back = true
	}
	read.Oldest = back
	if page.Rows, err = s.cases.AccessLog(ctx, read); err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	if back {
		slices.Reverse(page.Rows)
	}
	link := func(set ...string) string {
		v := url.Values{}
		for _, k := range []string{"case", "actor", "role", "from", "to"} {
			if x := q.Get(k); x != "" {
				v.Set(k, x)
			}
		}
		if f.Limit != accessPageLimit {
			v.Set("limit", strconv.Itoa(f.Limit))
		}
		for i := 0; i+1 < len(set); i += 2 {
			v.Set(set[i], set[i+1])
		}
		if len(v) == 0 {
			return "/access-log"
		}
		return "/access-log?" + v.Encode()
	}
	page.Number = 1
	if len(page.Rows) == 0 && page.Total > 0 { // a key past either end: a way back
		page.First, page.Prev = link(), link()
	}
	if n := len(page.Rows); n > 0 {
		newer := all
		newer.AfterSeq = page.Rows[0].Seq
		ahead, err := s.cases.CountAccess(ctx, newer)
		if err != nil {
			s.pageServiceError(w, r, err)
			return
		}
		page.Number = min(page.Pages, int((ahead+int64(f.Limit)-1)/int64(f.Limit))+1)
		if ahead > 0 {
			page.First, page.Prev = link(), link("after", strconv.FormatInt(page.Rows[0].Seq, 10))
		}
		if ahead+int64(n) < page.Total {
			page.Next, page.Last = link("before", strconv.FormatInt(page.Rows[n-1].Seq, 10)), link("last", "1")
		}
	}
	s.render(w, r, http.StatusOK, "accesslog.html", page)
}
