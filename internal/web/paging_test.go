package web_test

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"solidarity"
)

// Every list of the API pages the same way (issue 14): limit and cursor, next_cursor
// in the answer, and a total. A walk over more rows than the most one page holds
// lists each exactly once; a cursor the server did not make is a 400 naming it.

// walk follows next_cursor from path until it is null, decoding each page into a
// fresh page() and returning the rows' keys and the totals seen.
func walk[P any](t *testing.T, f *fixture, as, path string, rows func(*P) []int64, next func(*P) *string, total func(*P) int64) ([]int64, []int64) {
	t.Helper()
	var keys, totals []int64
	cursor := ""
	for pages := 0; ; pages++ {
		if pages > 50 {
			t.Fatalf("%s: pages do not end", path)
		}
		p := path
		if cursor != "" {
			p += "&cursor=" + url.QueryEscape(cursor)
		}
		res, body := f.do(req{method: "GET", path: p, as: as})
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", p, res.StatusCode, body)
		}
		var page P
		if err := json.Unmarshal([]byte(body), &page); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, rows(&page)...)
		totals = append(totals, total(&page))
		c := next(&page)
		if c == nil {
			return keys, totals
		}
		cursor = *c
	}
}

type entryPage struct {
	Entries []struct {
		Seq int64 `json:"seq"`
	} `json:"entries"`
	NextCursor *string `json:"next_cursor"`
	NextAfter  *int64  `json:"next_after"`
	Total      int64   `json:"total"`
}

func TestEntriesCursorWalk(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	const n = 1205 // more than solidarity.MaxPageLimit, with the cycle entry
	for i := range n - 1 {
		e := &solidarity.Entry{Cycle: 2027, Type: solidarity.PaymentMade, State: "DE", Actor: "system", At: time.Date(2027, 3, 1, 0, 0, i, 0, time.UTC),
			LegalBasis: "Art. 64 AMMR", Payload: json.RawMessage(`{"eur_cents":1}`)}
		if _, _, err := f.store.Append(t.Context(), "", e, nil); err != nil {
			t.Fatal(err)
		}
	}
	rows := func(p *entryPage) []int64 {
		var out []int64
		for _, e := range p.Entries {
			out = append(out, e.Seq)
		}
		return out
	}
	next := func(p *entryPage) *string { return p.NextCursor }
	total := func(p *entryPage) int64 { return p.Total }
	for _, c := range []struct {
		query  string
		newest bool
	}{
		{"?limit=1000", false},
		{"?limit=1000&order=newest", true},
		{"?limit=77&order=oldest", false},
	} {
		keys, totals := walk(t, f, "coord", "/api/v1/ledger/entries"+c.query, rows, next, total)
		if len(keys) != n {
			t.Fatalf("%s: %d entries listed, want %d", c.query, len(keys), n)
		}
		for i, k := range keys {
			want := int64(i + 1)
			if c.newest {
				want = int64(n - i)
			}
			if k != want {
				t.Fatalf("%s: entry %d is %d, want %d", c.query, i, k, want)
			}
		}
		for _, tot := range totals {
			if tot != n {
				t.Fatalf("%s: total %d, want %d", c.query, tot, n)
			}
		}
	}
	// The old after= still pages, and next_after goes with it.
	res, body := f.do(req{method: "GET", path: "/api/v1/ledger/entries?after=1200&limit=3", as: "audit"})
	var p entryPage
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &p) != nil || len(p.Entries) != 3 || p.NextAfter == nil || *p.NextAfter != 1203 {
		t.Fatalf("after=1200: %d %s", res.StatusCode, body)
	}
	// A filtered total counts the filter's entries, not the ledger's.
	_, body = f.do(req{method: "GET", path: "/api/v1/ledger/entries?type=cycle.created", as: "audit"})
	if json.Unmarshal([]byte(body), &p) != nil || p.Total != 1 || p.NextCursor != nil {
		t.Fatalf("type=cycle.created: %s", body)
	}
}

func TestBadCursor(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	entryCursor := base64.RawURLEncoding.EncodeToString([]byte("entries:5"))
	newestCursor := base64.RawURLEncoding.EncodeToString([]byte("entries.newest:5"))
	for _, c := range []struct{ path, cursor string }{
		{"/api/v1/ledger/entries?", "not base64!"},
		{"/api/v1/ledger/entries?", base64.RawURLEncoding.EncodeToString([]byte("entries:x"))},
		{"/api/v1/ledger/entries?", base64.RawURLEncoding.EncodeToString([]byte("entries:-3"))},
		{"/api/v1/ledger/entries?", base64.RawURLEncoding.EncodeToString([]byte("access-log:5"))}, // another list's
		{"/api/v1/ledger/entries?", newestCursor},                                                 // the other order's
		{"/api/v1/ledger/entries?order=newest&", entryCursor},
		{"/api/v1/ledger/entries?", strings.Repeat("A", 300)},
		{"/api/v1/access-log?", entryCursor},
		{"/api/v1/access-log?", ""},
	} {
		path := c.path + "cursor=" + url.QueryEscape(c.cursor)
		if c.cursor == "" {
			path = c.path + "cursor=" + url.QueryEscape(base64.RawURLEncoding.EncodeToString([]byte("access-log:")))
		}
		res, body := f.do(req{method: "GET", path: path, as: "coord"})
		var e struct {
			Error struct{ Code, Field string } `json:"error"`
		}
		if res.StatusCode != http.StatusBadRequest || json.Unmarshal([]byte(body), &e) != nil || e.Error.Code != solidarity.EINVALID || e.Error.Field != "cursor" {
			t.Errorf("%s: %d %s, want 400 EINVALID naming cursor", path, res.StatusCode, body)
		}
	}
	for _, q := range []string{"from=2027-02-30", "to=soon", "from=2027-03-02&to=2027-03-01", "role=root", "actor=" + strings.Repeat("x", 65)} {
		res, body := f.do(req{method: "GET", path: "/api/v1/access-log?" + q, as: "coord"})
		if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"code": "`+solidarity.EINVALID+`"`) {
			t.Errorf("access log %s: %d %s", q, res.StatusCode, body)
		}
	}
}

type accessAPIPage struct {
	Accesses []struct {
		Seq   int64  `json:"seq"`
		Actor string `json:"actor"`
		Role  string `json:"role"`
	} `json:"accesses"`
	NextCursor *string `json:"next_cursor"`
	Total      int64   `json:"total"`
}

func TestAccessLogCursorWalk(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	before, err := f.cases.Store.CountAccess(t.Context(), solidarity.AccessFilter{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 1110
	var as []*solidarity.Access
	for i := range n {
		role, actor := solidarity.Officer, fmt.Sprintf("Officer-%d", i%3)
		if i%10 == 0 {
			role, actor = solidarity.Auditor, "Audit"
		}
		as = append(as, &solidarity.Access{At: time.Date(2027, 3, 2+i%2, 10, 0, 0, 0, time.UTC), Actor: actor, Role: role,
			Case: f.caseIDs[i%len(f.caseIDs)], Purpose: "view"})
	}
	if err := f.cases.Store.RecordAccess(t.Context(), as...); err != nil {
		t.Fatal(err)
	}
	rows := func(p *accessAPIPage) []int64 {
		var out []int64
		for _, a := range p.Accesses {
			out = append(out, a.Seq)
		}
		return out
	}
	next := func(p *accessAPIPage) *string { return p.NextCursor }
	total := func(p *accessAPIPage) int64 { return p.Total }
	for _, c := range []struct {
		query string
		want  int
	}{
		{"?limit=1000", n + int(before)},
		{"?limit=400&role=auditor", n / 10},
		{"?limit=1000&actor=officer-1", 333},                 // ignoring case
		{"?limit=1000&from=2027-03-03&to=2027-03-03", n / 2}, // the odd ones
	} {
		keys, totals := walk(t, f, "coord", "/api/v1/access-log"+c.query, rows, next, total)
		if len(keys) != c.want {
			t.Fatalf("%s: %d records, want %d", c.query, len(keys), c.want)
		}
		for i := 1; i < len(keys); i++ {
			if keys[i] >= keys[i-1] {
				t.Fatalf("%s: not latest first at %d", c.query, i)
			}
		}
		for _, tot := range totals {
			if tot != int64(c.want) {
				t.Fatalf("%s: total %d, want %d", c.query, tot, c.want)
			}
		}
	}
	// An officer may not read the log.
	if res, _ := f.do(req{method: "GET", path: "/api/v1/access-log", as: "de"}); res.StatusCode != http.StatusForbidden {
		t.Errorf("officer: %d", res.StatusCode)
	}
}

type casePage struct {
	Cases []struct {
		ID string `json:"id"`
	} `json:"cases"`
	NextCursor *string `json:"next_cursor"`
	NextAfter  *string `json:"next_after"`
	Total      int64   `json:"total"`
}

func TestCasesCursor(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	var ids []string
	next := func(p *casePage) *string { return p.NextCursor }
	total := func(p *casePage) int64 { return p.Total }
	rows := func(p *casePage) []int64 {
		for _, c := range p.Cases {
			ids = append(ids, c.ID)
		}
		return make([]int64, len(p.Cases))
	}
	_, totals := walk(t, f, "coord", "/api/v1/cases?limit=1", rows, next, total)
	if len(ids) != len(f.caseIDs) || len(totals) != len(f.caseIDs) {
		t.Fatalf("walked %v, want the %d cases one a page", ids, len(f.caseIDs))
	}
	for i, tot := range totals {
		if tot != int64(len(f.caseIDs)) {
			t.Fatalf("page %d: total %d, want %d", i, tot, len(f.caseIDs))
		}
		if i > 0 && ids[i] <= ids[i-1] {
			t.Fatalf("not in ID order: %v", ids)
		}
	}
	// cursor and after do not go together; a case cursor is not an entry cursor.
	c := url.QueryEscape(base64.RawURLEncoding.EncodeToString([]byte("cases:" + ids[0])))
	for _, path := range []string{"/api/v1/cases?after=x&cursor=" + c, "/api/v1/ledger/entries?cursor=" + c} {
		if res, body := f.do(req{method: "GET", path: path, as: "coord"}); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"field": "cursor"`) {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
}

func TestArrivalsCursor(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	// Two more landings, one at the seeded one's time, so that the ID orders them.
	for i, at := range []string{"2027-02-20T06:00:00Z", "2027-02-21T06:00:00Z"} {
		list := strings.Replace(strings.Replace(seedList, "2027-02-20T06:00:00Z", at, 1), "Test Star", fmt.Sprintf("Test Star %d", i+2), 1)
		res, body := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: list, contentType: "text/csv",
			header: map[string]string{"Idempotency-Key": fmt.Sprintf("arr-%d", i)}})
		if res.StatusCode != http.StatusCreated && res.StatusCode != http.StatusOK {
			t.Fatalf("register %d: %d %s", i, res.StatusCode, body)
		}
	}
	type arrivalPage struct {
		Arrivals []struct {
			ID string    `json:"id"`
			At time.Time `json:"at"`
		} `json:"arrivals"`
		NextCursor *string `json:"next_cursor"`
		Total      int64   `json:"total"`
	}
	var ids []string
	var ats []time.Time
	rows := func(p *arrivalPage) []int64 {
		for _, a := range p.Arrivals {
			ids, ats = append(ids, a.ID), append(ats, a.At)
		}
		return make([]int64, len(p.Arrivals))
	}
	_, totals := walk(t, f, "coord", "/api/v1/arrivals?limit=1", rows, func(p *arrivalPage) *string { return p.NextCursor }, func(p *arrivalPage) int64 { return p.Total })
	if len(ids) != 3 || len(totals) != 3 || totals[0] != 3 {
		t.Fatalf("walked %v with totals %v, want 3 arrivals one a page", ids, totals)
	}
	for i := 1; i < len(ids); i++ {
		if ats[i].After(ats[i-1]) || ats[i].Equal(ats[i-1]) && ids[i] >= ids[i-1] || ids[i] == ids[i-1] {
			t.Fatalf("not latest first, then by ID: %v %v", ids, ats)
		}
	}
	bad := url.QueryEscape(base64.RawURLEncoding.EncodeToString([]byte("arrivals:yesterday A-1")))
	if res, body := f.do(req{method: "GET", path: "/api/v1/arrivals?cursor=" + bad, as: "coord"}); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"field": "cursor"`) {
		t.Errorf("bad arrival cursor: %d %s", res.StatusCode, body)
	}
}

type deadlinePage struct {
	Deadlines []struct {
		Case string `json:"case"`
		Due  struct {
			Limit string `json:"limit"`
		} `json:"due"`
	} `json:"deadlines"`
	NextCursor *string `json:"next_cursor"`
	Total      int64   `json:"total"`
	Complete   bool    `json:"complete"`
}

// TestDeadlinesCursor: the deadline view pages like the other lists; the walk lists
// each (case, limit) of the whole view once, in its order.
func TestDeadlinesCursor(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	res, body := f.do(req{method: "GET", path: "/api/v1/deadlines?within=30d", as: "coord"})
	var all deadlinePage
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &all) != nil {
		t.Fatalf("%d %s", res.StatusCode, body)
	}
	if len(all.Deadlines) < 2 || all.NextCursor != nil || all.Total != int64(len(all.Deadlines)) || !all.Complete {
		t.Fatalf("one page: %d rows, total %d, next %v: want every row, no next page", len(all.Deadlines), all.Total, all.NextCursor)
	}
	var walked []string
	rows := func(p *deadlinePage) []int64 {
		for _, d := range p.Deadlines {
			walked = append(walked, d.Case+"/"+d.Due.Limit)
		}
		return make([]int64, len(p.Deadlines))
	}
	_, totals := walk(t, f, "coord", "/api/v1/deadlines?within=30d&limit=1", rows,
		func(p *deadlinePage) *string { return p.NextCursor }, func(p *deadlinePage) int64 { return p.Total })
	var want []string
	for _, d := range all.Deadlines {
		want = append(want, d.Case+"/"+d.Due.Limit)
	}
	if fmt.Sprint(walked) != fmt.Sprint(want) {
		t.Fatalf("walked %v, want %v", walked, want)
	}
	for _, tot := range totals {
		if tot != all.Total {
			t.Fatalf("totals %v, want %d on every page", totals, all.Total)
		}
	}
	for _, c := range []string{"x", base64.RawURLEncoding.EncodeToString([]byte("deadlines:nope")), base64.RawURLEncoding.EncodeToString([]byte("cases:C-1"))} {
		path := "/api/v1/deadlines?cursor=" + url.QueryEscape(c)
		if res, body := f.do(req{method: "GET", path: path, as: "coord"}); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"field": "cursor"`) {
			t.Errorf("%s: %d %s", path, res.StatusCode, body)
		}
	}
}

type userPage struct {
	Users []struct {
		Name string `json:"name"`
	} `json:"users"`
	NextCursor *string `json:"next_cursor"`
	Total      int64   `json:"total"`
}

type adminPage struct {
	Events []struct {
		Seq int64 `json:"seq"`
	} `json:"events"`
	NextCursor *string `json:"next_cursor"`
}

// TestAccountListsCursor: the users and the admin log page like the other lists; a
// walk one row a page lists each once, in order.
func TestAccountListsCursor(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	var names []string
	_, totals := walk(t, f, "coord", "/api/v1/users?limit=1", func(p *userPage) []int64 {
		for _, u := range p.Users {
			names = append(names, u.Name)
		}
		return make([]int64, len(p.Users))
	}, func(p *userPage) *string { return p.NextCursor }, func(p *userPage) int64 { return p.Total })
	if len(names) < 3 || int64(len(names)) != totals[0] {
		t.Fatalf("users walked %v, totals %v", names, totals)
	}
	for i := 1; i < len(names); i++ {
		if names[i] <= names[i-1] {
			t.Fatalf("users not by name: %v", names)
		}
	}
	// The admin log: add accounts so that it has lines, then walk it two a page.
	for i := range 5 {
		body := fmt.Sprintf(`{"name": "walker-%d", "role": "auditor", "password": "a long enough passphrase %d"}`, i, i)
		if res, b := f.do(req{method: "POST", path: "/api/v1/users", as: "coord", body: body}); res.StatusCode != 201 && res.StatusCode != 200 {
			t.Fatalf("add user: %d %s", res.StatusCode, b)
		}
	}
	seqs, _ := walk(t, f, "coord", "/api/v1/admin-log?limit=2", func(p *adminPage) []int64 {
		var out []int64
		for _, e := range p.Events {
			out = append(out, e.Seq)
		}
		return out
	}, func(p *adminPage) *string { return p.NextCursor }, func(*adminPage) int64 { return 0 })
	if len(seqs) < 5 {
		t.Fatalf("admin log walked %v, want at least the 5 additions", seqs)
	}
	for i := 1; i < len(seqs); i++ {
		if seqs[i] >= seqs[i-1] {
			t.Fatalf("admin log not latest first: %v", seqs)
		}
	}
	if res, body := f.do(req{method: "GET", path: "/api/v1/users?cursor=" + url.QueryEscape(encode("admin-log:1")), as: "coord"}); res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `"field": "cursor"`) {
		t.Errorf("a log cursor for the users: %d %s", res.StatusCode, body)
	}
}

func encode(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
