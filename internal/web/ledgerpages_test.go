package web_test

import (
	"encoding/csv"
	"encoding/json"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"solidarity"
)

// The ledger view of issue 14: one line per entry, newest first, numbered pages with
// first/previous/next/last, a search by reference, a range of days, and the filtered
// list as CSV and JSON lines, each authorised like the page.

// ledgerSeqs returns the sequence numbers of the page's rows, in order.
func ledgerSeqs(body string) []string {
	var out []string
	for _, m := range regexp.MustCompile(`<tr data-seq="(\d+)">`).FindAllStringSubmatch(body, -1) {
		out = append(out, m[1])
	}
	return out
}

// href returns the unescaped href of the link with id, "" when there is none.
func href(body, id string) string {
	m := regexp.MustCompile(`id="` + id + `"[^>]* href="([^"]*)"`).FindStringSubmatch(body)
	if m == nil {
		return ""
	}
	return strings.ReplaceAll(m[1], "&amp;", "&")
}

// ledgerFixture is the fixture's five entries (a cycle, two pledges, a deduction
// request, an offset request) and two payments a day later each: seven in all, the
// payments on 2027-03-02 and 2027-03-03.
func ledgerFixture(t *testing.T) *fixture {
	f := newFixture(t, fixtureOpts{setup: true, passwords: true})
	for i, day := range []int{2, 3} {
		f.svc.Now = func() time.Time { return time.Date(2027, 3, day, 9, 0, 0, 0, time.UTC) }
		if _, _, err := f.svc.Deliver(system(), 2027, "DE", solidarity.PaymentMade,
			solidarity.DeliveryPayload{EURCents: solidarity.Cents(100_000 * (i + 1)), Reference: "PAY-" + string(rune('A'+i))}, ""); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func TestLedgerPageLines(t *testing.T) {
	f := ledgerFixture(t)
	c := f.session("audit")
	res, body := f.do(req{method: "GET", path: "/ledger", cookie: c})
	if res.StatusCode != 200 {
		t.Fatalf("GET /ledger: %d", res.StatusCode)
	}
	// Newest first by default; oldest first when asked.
	if got := strings.Join(ledgerSeqs(body), " "); got != "7 6 5 4 3 2 1" {
		t.Errorf("default order: %s", got)
	}
	_, old := f.do(req{method: "GET", path: "/ledger?order=oldest", cookie: c})
	if got := strings.Join(ledgerSeqs(old), " "); got != "1 2 3 4 5 6 7" {
		t.Errorf("oldest first: %s", got)
	}
	for _, want := range []string{
		"FR pledged 15,000 relocations of applicants, Art. 56(2) AMMR; Art. 57(1) AMMR",
		"DE pledged a financial contribution of EUR 10,000.00, ",
		"DE requested a deduction of 1/10 of the pledge, ",
		"IT asked DE to take over 5 applications as offsets, ",
		"DE paid EUR 2,000.00, ",
		"The pool of 2027 was established, ",
	} {
		if !strings.Contains(body, want) {
			t.Errorf("no line %q in %s", want, regexp.MustCompile(`<span class="summary">[^<]*`).FindAllString(body, -1))
		}
	}
	// The line's figures are the reader's locale's (the sentence is its catalogue's).
	_, de := f.do(req{method: "GET", path: "/ledger", cookie: c, header: map[string]string{"Accept-Language": "de"}})
	if !strings.Contains(de, "15.000") || !strings.Contains(de, "10.000,00") || !strings.Contains(de, `lang="de"`) {
		t.Error("the lines do not format numbers in German for Accept-Language: de")
	}
	// The raw payload is behind a toggle, not the line.
	if !strings.Contains(body, "<details><summary>Payload and hash</summary>") || !strings.Contains(body, `&#34;relocations&#34;:15000`) {
		t.Error("the payload is not behind its toggle")
	}
	if strings.Contains(body, "[toml]") {
		t.Error("the cycle file is shown on the page")
	}
}

func TestLedgerPagePaging(t *testing.T) {
	f := ledgerFixture(t)
	c := f.session("coord")
	get := func(path string) string {
		t.Helper()
		res, body := f.do(req{method: "GET", path: path, cookie: c})
		if res.StatusCode != 200 {
			t.Fatalf("GET %s: %d", path, res.StatusCode)
		}
		return body
	}
	for _, order := range []struct {
		query string
		pages []string // each page's rows
	}{
		{"", []string{"7 6 5", "4 3 2", "1"}},
		{"&order=oldest", []string{"1 2 3", "4 5 6", "7"}},
	} {
		first := "/ledger?limit=3" + order.query
		body := get(first)
		// Next to the end, then previous back to the start, then last and first.
		for i, want := range order.pages {
			if got := strings.Join(ledgerSeqs(body), " "); got != want {
				t.Fatalf("%s page %d: %s, want %s", order.query, i+1, got, want)
			}
			if !strings.Contains(body, "7 entries, page "+string(rune('1'+i))+" of 3") {
				t.Errorf("%s page %d: no count %q", order.query, i+1, "page N of 3")
			}
			if (href(body, "prev-page") == "") != (i == 0) || (href(body, "first-page") == "") != (i == 0) {
				t.Errorf("%s page %d: previous/first links wrong", order.query, i+1)
			}
			if (href(body, "next-page") == "") != (i == len(order.pages)-1) || (href(body, "last-page") == "") != (i == len(order.pages)-1) {
				t.Errorf("%s page %d: next/last links wrong", order.query, i+1)
			}
			if next := href(body, "next-page"); next != "" {
				if !strings.Contains(next, "limit=3") || strings.Contains(order.query, "oldest") != strings.Contains(next, "order=oldest") {
					t.Errorf("%s: next link %s loses the query", order.query, next)
				}
				body = get(next)
			}
		}
		for i := len(order.pages) - 2; i >= 0; i-- {
			body = get(href(body, "prev-page"))
			if got := strings.Join(ledgerSeqs(body), " "); got != order.pages[i] {
				t.Fatalf("%s back to page %d: %s, want %s", order.query, i+1, got, order.pages[i])
			}
		}
		last := get(href(get(first), "last-page"))
		if got := strings.Join(ledgerSeqs(last), " "); got != order.pages[len(order.pages)-1] || !strings.Contains(last, "page 3 of 3") {
			t.Errorf("%s last page: %s", order.query, got)
		}
		if got := strings.Join(ledgerSeqs(get(href(last, "first-page"))), " "); got != order.pages[0] {
			t.Errorf("%s first page from the last: %s", order.query, got)
		}
	}
}

func TestLedgerPageFilters(t *testing.T) {
	f := ledgerFixture(t)
	c := f.session("audit")
	for _, tc := range []struct {
		query, want string
	}{
		{"ref=ded-2027", "4"},            // a prefix, ignoring case
		{"ref=OFF-2027-IT-1", "5"},       // exact
		{"ref=nothing", ""},              // none
		{"from=2027-03-02", "7 6"},       // the payments' days
		{"to=2027-03-02", "6 5 4 3 2 1"}, // to includes its day
		{"from=2027-03-03&to=2027-03-03", "7"},
		{"from=2027-03-02&state=DE", "7 6"},
	} {
		res, body := f.do(req{method: "GET", path: "/ledger?" + tc.query, cookie: c})
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d", tc.query, res.StatusCode)
		}
		if got := strings.Join(ledgerSeqs(body), " "); got != tc.want {
			t.Errorf("%s: rows %q, want %q", tc.query, got, tc.want)
		}
	}
	for _, bad := range []string{"from=2027-13-01", "to=yesterday", "from=2027-03-03&to=2027-03-02",
		"ref=" + strings.Repeat("x", solidarity.MaxSearchLength+1), "order=sideways", "format=xml", "before=-1"} {
		if res, _ := f.do(req{method: "GET", path: "/ledger?" + bad, cookie: c}); res.StatusCode != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", bad, res.StatusCode)
		}
	}
}

func TestLedgerDownloads(t *testing.T) {
	f := ledgerFixture(t)
	// The public is sent to log in, as for the page.
	if res, _ := f.do(req{method: "GET", path: "/ledger?format=csv"}); res.StatusCode != http.StatusSeeOther {
		t.Errorf("public CSV: %d", res.StatusCode)
	}
	res, body := f.do(req{method: "GET", path: "/ledger?format=csv&from=2027-03-02", cookie: f.session("audit")})
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/csv") {
		t.Fatalf("CSV: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != "seq" || rows[1][0] != "7" || rows[2][0] != "6" || rows[1][8] != "DE paid EUR 2,000.00, Art. 64 AMMR" {
		t.Errorf("CSV of the payments, newest first: %q", rows)
	}
	// JSON lines, oldest first, every entry though the page shows 2.
	res, body = f.do(req{method: "GET", path: "/ledger?format=jsonl&order=oldest&limit=2", cookie: f.session("coord")})
	if res.StatusCode != 200 {
		t.Fatalf("JSON lines: %d", res.StatusCode)
	}
	lines := strings.Split(strings.TrimSpace(body), "\n")
	if len(lines) != 7 {
		t.Fatalf("JSON lines: %d lines, want 7", len(lines))
	}
	for i, l := range lines {
		var e solidarity.Entry
		if err := json.Unmarshal([]byte(l), &e); err != nil || e.Seq != int64(i+1) || e.Hash == "" {
			t.Fatalf("line %d: %v %+v", i, err, e)
		}
	}
	// An officer downloads its own state's entries only, and may not ask for another's.
	_, body = f.do(req{method: "GET", path: "/ledger?format=csv", cookie: f.session("fr")})
	rows, _ = csv.NewReader(strings.NewReader(body)).ReadAll()
	if len(rows) != 2 || rows[1][4] != "FR" {
		t.Errorf("FR's officer's CSV: %q", rows)
	}
	if res, _ := f.do(req{method: "GET", path: "/ledger?format=jsonl&state=DE", cookie: f.session("fr")}); res.StatusCode != http.StatusForbidden {
		t.Errorf("FR's officer asking DE's entries: %d", res.StatusCode)
	}
}

// TestEmptyPageWayBack: a key past either end (an old or edited link) shows an empty
// page with the way back to the first, on the ledger and on the access log.
func TestEmptyPageWayBack(t *testing.T) {
	f := ledgerFixture(t)
	c := f.session("coord")
	for _, path := range []string{"/ledger?before=1", "/ledger?after=99999", "/ledger?order=oldest&after=99999"} {
		res, body := f.do(req{method: "GET", path: path, cookie: c})
		if res.StatusCode != 200 || len(ledgerSeqs(body)) != 0 {
			t.Fatalf("GET %s: %d, rows %v; want an empty page", path, res.StatusCode, ledgerSeqs(body))
		}
		if !strings.Contains(body, `id="first-page" href="/ledger`) {
			t.Errorf("GET %s: an empty page with no way back to the first", path)
		}
	}
}
