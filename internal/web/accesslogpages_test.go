package web_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"solidarity"
)

// The access log page of issue 14: numbered pages with the total, filters by role,
// days and case or actor ignoring case.

func TestAccessLogPage(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true, passwords: true})
	ctx := t.Context()
	count := func() int64 {
		t.Helper()
		n, err := f.cases.Store.CountAccess(ctx, solidarity.AccessFilter{})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := count()
	var as []*solidarity.Access
	for i := range 250 {
		role, actor := solidarity.Officer, "Officer-DE"
		if i%5 == 0 {
			role, actor = solidarity.Auditor, "audit"
		}
		as = append(as, &solidarity.Access{At: time.Date(2027, 4, 1+i%3, 8, 0, 0, 0, time.UTC), Actor: actor, Role: role,
			State: "DE", Case: f.caseIDs[0], Purpose: "view"})
	}
	if err := f.cases.Store.RecordAccess(ctx, as...); err != nil {
		t.Fatal(err)
	}
	c := f.session("coord")
	get := func(path string) string {
		t.Helper()
		res, body := f.do(req{method: "GET", path: path, cookie: c})
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, res.StatusCode)
		}
		return body
	}
	body := get("/access-log")
	all := count()
	if all < before+250 {
		t.Fatalf("%d records, want at least %d", all, before+250)
	}
	pages := (all + 99) / 100
	if !strings.Contains(body, fmt.Sprintf("reads recorded, page 1 of %d", pages)) || strings.Count(body, "<tr data-seq=") != 100 {
		t.Fatalf("first page: no count of %d pages, or not 100 rows", pages)
	}
	next := href(body, "next-page")
	if next == "" || href(body, "prev-page") != "" || href(body, "last-page") == "" {
		t.Fatal("first page links wrong")
	}
	second := get(next)
	if !strings.Contains(second, "page 2 of") || href(second, "prev-page") == "" {
		t.Error("second page has no number or no previous link")
	}
	first := ledgerSeqs(body)
	back := ledgerSeqs(get(href(second, "prev-page")))
	if strings.Join(back, " ") != strings.Join(first, " ") {
		t.Errorf("previous of the second page: %v, want %v", back, first)
	}
	last := get(href(body, "last-page"))
	if href(last, "next-page") != "" || href(last, "prev-page") == "" {
		t.Error("last page links wrong")
	}
	// Filters: role, days, actor ignoring case.
	for _, tc := range []struct {
		query string
		rows  int
	}{
		{"role=auditor&limit=1000", 50},
		{"actor=OFFICER-de&limit=1000&from=2027-04-01&to=2027-04-03", 200},
		{"actor=officer-de&from=2027-04-02&to=2027-04-02&limit=1000", 67}, // i%3 == 1 and i%5 != 0
	} {
		b := get("/access-log?" + tc.query)
		if n := strings.Count(b, "<tr data-seq="); n != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.query, n, tc.rows)
		}
	}
	for _, bad := range []string{"role=root", "from=01/04/2027", "before=x", "actor=" + strings.Repeat("a", 65)} {
		if res, _ := f.do(req{method: "GET", path: "/access-log?" + bad, cookie: c}); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", bad, res.StatusCode)
		}
	}
	if res, _ := f.do(req{method: "GET", path: "/access-log", cookie: f.session("de")}); res.StatusCode != http.StatusForbidden {
		t.Errorf("officer: %d", res.StatusCode)
	}
	// A key past the end: an empty page, and the way back to the first.
	if res, body := f.do(req{method: "GET", path: "/access-log?before=1", cookie: c}); res.StatusCode != 200 || !strings.Contains(body, `id="first-page" href="/access-log"`) {
		t.Errorf("GET /access-log?before=1: %d, no way back to the first page", res.StatusCode)
	}
}
