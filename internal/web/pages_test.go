package web_test

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"solidarity/internal/i18n"
	"solidarity/internal/web"
)

func form(vals map[string]string) string {
	v := url.Values{}
	for k, x := range vals {
		v.Set(k, x)
	}
	return v.Encode()
}

// idemKeyOf returns the idempotency key of a form on a page.
func idemKeyOf(t *testing.T, page, formID string) string {
	t.Helper()
	i := strings.Index(page, `id="`+formID+`"`)
	if i < 0 {
		t.Fatalf("no form %s", formID)
	}
	m := regexp.MustCompile(`name="idempotency_key" value="([^"]+)"`).FindStringSubmatch(page[i:])
	if m == nil {
		t.Fatalf("form %s has no idempotency key", formID)
	}
	return m[1]
}

func TestLoginPage(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	res, body := f.do(req{method: "GET", path: "/login?next=/ledger"})
	if res.StatusCode != 200 || !strings.Contains(body, `id="login-form"`) || !strings.Contains(body, `name="next" value="/ledger"`) {
		t.Fatalf("login page: %d", res.StatusCode)
	}
	if strings.Contains(body, "<script") {
		t.Error("the login page has a script")
	}
	res, body = f.do(req{method: "POST", path: "/login", contentType: "application/x-www-form-urlencoded",
		body: form(map[string]string{"name": "de", "password": "not the password", "next": "/ledger"})})
	if res.StatusCode != 401 || !strings.Contains(body, "Wrong user name or password") || len(res.Cookies()) != 0 {
		t.Fatalf("wrong password: %d", res.StatusCode)
	}
	res, _ = f.do(req{method: "POST", path: "/login", contentType: "application/x-www-form-urlencoded",
		body: form(map[string]string{"name": "de", "password": testPassword, "next": "/ledger"})})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/ledger" {
		t.Fatalf("login: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	var c *http.Cookie
	for _, x := range res.Cookies() {
		if x.Name == web.SessionCookie {
			c = x
		}
	}
	if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Secure {
		t.Fatalf("cookie %+v", c)
	}
	_, body = f.do(req{method: "GET", path: "/pool/2027", cookie: c})
	if !strings.Contains(body, `<strong id="who-name">de</strong>`) || !strings.Contains(body, `action="/logout"`) {
		t.Error("the header does not show who is logged in")
	}
	// Logging out ends the session: the old cookie no longer opens anything.
	res, _ = f.do(req{method: "POST", path: "/logout", cookie: c})
	if res.StatusCode != http.StatusSeeOther || len(res.Cookies()) == 0 || res.Cookies()[0].MaxAge >= 0 {
		t.Fatalf("logout: %d %+v", res.StatusCode, res.Cookies())
	}
	res, _ = f.do(req{method: "GET", path: "/ledger", cookie: c})
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login") {
		t.Fatalf("stale cookie on a page: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	// With a stale cookie the login page itself still answers (and drops the cookie).
	if res, _ := f.do(req{method: "GET", path: "/login", cookie: c}); res.StatusCode != 200 {
		t.Fatalf("login page with a stale cookie: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/static/style.css", cookie: c}); res.StatusCode != 200 {
		t.Fatalf("stylesheet with a stale cookie: %d", res.StatusCode)
	}
	// next never leads off the site.
	for _, next := range []string{"https://evil.example/", "//evil.example/", "/\\evil.example"} {
		res, _ := f.do(req{method: "POST", path: "/login", contentType: "application/x-www-form-urlencoded",
			body: form(map[string]string{"name": "de", "password": testPassword, "next": next})})
		if res.Header.Get("Location") != "/" {
			t.Errorf("next %q → %s", next, res.Header.Get("Location"))
		}
	}
}

// TestStatePageForms: the forms are shown to and accepted from the state's officer
// and the coordinator only; others get no form and 403 on post; the public is sent
// to log in.
func TestStatePageForms(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true, passwords: true})
	const page = "/pool/2027/states/DE"
	pledge := func(c *http.Cookie, key, amount string) (*http.Response, string) {
		return f.do(req{method: "POST", path: page + "/pledges", cookie: c, contentType: "application/x-www-form-urlencoded",
			body: form(map[string]string{"type": "relocation-applicants", "amount": amount, "idempotency_key": key})})
	}
	anon, body := f.do(req{method: "GET", path: page})
	if anon.StatusCode != 200 || strings.Contains(body, `id="pledge-form"`) || !strings.Contains(body, "shown to its officer") {
		t.Fatalf("public state page: %d", anon.StatusCode)
	}
	for _, c := range []struct {
		user  string
		forms bool
	}{{"de", true}, {"coord", true}, {"fr", false}, {"it", false}, {"audit", false}} {
		t.Run(c.user, func(t *testing.T) {
			cookie := f.session(c.user)
			res, body := f.do(req{method: "GET", path: page, cookie: cookie})
			if res.StatusCode != 200 {
				t.Fatalf("page: %d", res.StatusCode)
			}
			has := strings.Contains(body, `id="pledge-form"`) && strings.Contains(body, `id="delivery-form"`)
			if has != c.forms {
				t.Fatalf("forms shown: %v, want %v", has, c.forms)
			}
			if !c.forms {
				res, body := pledge(cookie, "form-"+c.user, "10")
				if res.StatusCode != http.StatusForbidden || !strings.Contains(body, "not allowed") {
					t.Fatalf("post by %s: %d", c.user, res.StatusCode)
				}
				return
			}
			// The officer reads the state's entries on the page.
			if !strings.Contains(body, `id="state-entries"`) {
				t.Error("no entries listed")
			}
			key := idemKeyOf(t, body, "pledge-form")
			amount := map[string]string{"de": "1200", "coord": "1,300"}[c.user]
			res, _ = pledge(cookie, key, amount)
			if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), page) {
				t.Fatalf("pledge: %d %s", res.StatusCode, res.Header.Get("Location"))
			}
			if c.user == "de" {
				// Submitting the same form again (its key) writes nothing. (A resubmitted
				// pledge change is TestIdempotentReplay's "pledge changed".)
				head := headSeq(t, f)
				if res, _ := pledge(cookie, key, amount); res.StatusCode != http.StatusSeeOther || headSeq(t, f) != head {
					t.Fatalf("a resubmitted form wrote again: %d", res.StatusCode)
				}
			}
			_, body = f.do(req{method: "GET", path: page, cookie: cookie})
			pledged := regexp.MustCompile(`(?s)<dd id="pledged">(.*?)</dd>`).FindStringSubmatch(body)
			n, _ := strconv.ParseInt(strings.ReplaceAll(amount, ",", ""), 10, 64)
			want := i18n.New("en").Int(n) + " relocations of applicants" // the locale's digit groups
			if pledged == nil || !strings.Contains(pledged[1], want) {
				t.Fatalf("pledged after the form: %v, want %q", pledged, want)
			}
			// A delivery beyond the pledge is refused with the reason, on the page.
			res, body = f.do(req{method: "POST", path: page + "/deliveries", cookie: cookie, contentType: "application/x-www-form-urlencoded",
				body: form(map[string]string{"type": "relocation.delivered", "amount": "999999", "idempotency_key": "d-" + c.user})})
			if res.StatusCode != http.StatusConflict || !strings.Contains(body, `id="form-error"`) || !strings.Contains(body, "over_delivery") {
				t.Fatalf("delivery above the pledge: %d", res.StatusCode)
			}
			res, body = f.do(req{method: "POST", path: page + "/deliveries", cookie: cookie, contentType: "application/x-www-form-urlencoded",
				body: form(map[string]string{"type": "relocation.delivered", "amount": "ten", "idempotency_key": "e-" + c.user})})
			if res.StatusCode != http.StatusBadRequest || !strings.Contains(body, `id="form-error"`) {
				t.Fatalf("bad amount: %d", res.StatusCode)
			}
			res, _ = f.do(req{method: "POST", path: page + "/deliveries", cookie: cookie, contentType: "application/x-www-form-urlencoded",
				body: form(map[string]string{"type": "relocation.delivered", "amount": "12", "reference": "flight 1", "idempotency_key": "f-" + c.user})})
			if res.StatusCode != http.StatusSeeOther {
				t.Fatalf("delivery: %d", res.StatusCode)
			}
		})
	}
	// The public is sent to log in, and comes back to the page.
	res, _ := pledge(nil, "anon", "10")
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login?next="+url.QueryEscape(page) {
		t.Fatalf("public post: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	// A cross-site form post is refused whoever sends it.
	res, _ = f.do(req{method: "POST", path: page + "/pledges", cookie: f.session("de"), contentType: "application/x-www-form-urlencoded",
		body: form(map[string]string{"type": "financial", "amount": "1"}), header: map[string]string{"Sec-Fetch-Site": "cross-site"}})
	if res.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site post: %d", res.StatusCode)
	}
	// The balance and the pace chart are on the page for everyone.
	_, body = f.do(req{method: "GET", path: page})
	for _, want := range []string{`id="balance"`, `<svg id="pace-chart"`, `id="delivered">24 relocations`} {
		if !strings.Contains(body, want) {
			t.Errorf("state page lacks %s: %s", want, body)
		}
	}
}

// TestLiveDashboard: with a ledger the dashboard shows the ledger's pool and live
// balances; asking for another method shows the shipped file without them.
func TestLiveDashboard(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	f.do(req{method: "POST", path: "/api/v1/ledger/cycles/2027/deliveries/DE", as: "de", body: `{"type":"payment.made","eur_cents":1000000}`})
	res, body := f.do(req{method: "GET", path: "/pool/2027"})
	if res.StatusCode != 200 || !strings.Contains(body, `id="live"`) {
		t.Fatalf("dashboard: %d", res.StatusCode)
	}
	if n := len(regexp.MustCompile(`<tr data-state="[A-Z]{2}"`).FindAllString(body, -1)); n != 26 {
		t.Errorf("%d rows", n)
	}
	row := regexp.MustCompile(`(?s)<tr data-state="DE".*?</tr>`).FindString(body)
	if !strings.Contains(row, `<td class="delivered">0.50</td>`) {
		t.Errorf("DE's row lacks the delivery (EUR 10 000 = 0.5 relocation-equivalents): %s", row)
	}
	if !strings.Contains(body, `href="/pool/2026"`) {
		t.Error("the shipped cycles are not linked")
	}
	_, body = f.do(req{method: "GET", path: "/pool/2027?method=webster"})
	if strings.Contains(body, `id="live"`) {
		t.Error("live balances under another method than the ledger's")
	}
	_, body = f.do(req{method: "GET", path: "/pool/2026"})
	if strings.Contains(body, `id="live"`) {
		t.Error("live balances for a cycle the ledger does not hold")
	}
	if res, _ := f.do(req{method: "GET", path: "/pool/2027?as_of=2027-02-30"}); res.StatusCode != 400 {
		t.Errorf("bad as_of: %d", res.StatusCode)
	}
}

// TestLedgerPage: the ledger view for each role, with paging and verification.
func TestLedgerPage(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true, passwords: true})
	res, _ := f.do(req{method: "GET", path: "/ledger?limit=2"})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/login?next="+url.QueryEscape("/ledger?limit=2") {
		t.Fatalf("public: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	for _, u := range []string{"audit", "coord"} {
		res, body := f.do(req{method: "GET", path: "/ledger?limit=2", cookie: f.session(u)})
		if res.StatusCode != 200 || !strings.Contains(body, "Chain verified: all 5 entries") {
			t.Fatalf("%s: %d", u, res.StatusCode)
		}
		if n := strings.Count(body, "<tr data-seq="); n != 2 {
			t.Errorf("%s: %d rows on a page of 2", u, n)
		}
		// Newest first (issue 14): the next page is below the page's last entry.
		if !strings.Contains(body, `id="next-page" rel="next" href="/ledger?before=4&amp;limit=2"`) {
			t.Errorf("%s: no next page link", u)
		}
		_, body = f.do(req{method: "GET", path: "/ledger?limit=2&before=2", cookie: f.session(u)})
		if strings.Contains(body, `id="next-page"`) || !strings.Contains(body, `id="first-page"`) {
			t.Errorf("%s: last page links wrong", u)
		}
	}
	res, body := f.do(req{method: "GET", path: "/ledger", cookie: f.session("de")})
	// Issue 14: an officer sees the public summary of the verification, not a refusal.
	if res.StatusCode != 200 || !strings.Contains(body, "Chain verified (public summary)") || !strings.Contains(body, "public.jsonl") {
		t.Fatalf("officer: %d", res.StatusCode)
	}
	for _, st := range regexp.MustCompile(`<tr data-seq="\d+"><td>\d+</td><td>[^<]*</td><td>\d+</td><td>[^<]*</td><td>([^<]*)</td>`).FindAllStringSubmatch(body, -1) {
		if st[1] != "DE" {
			t.Errorf("the officer of DE sees an entry of %q", st[1])
		}
	}
	if res, _ := f.do(req{method: "GET", path: "/ledger?state=FR", cookie: f.session("de")}); res.StatusCode != 403 {
		t.Errorf("officer of DE asking for FR: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/ledger?limit=x", cookie: f.session("audit")}); res.StatusCode != 400 {
		t.Errorf("bad limit: %d", res.StatusCode)
	}
}
