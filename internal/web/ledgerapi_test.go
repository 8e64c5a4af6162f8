package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/web"
)

// matrixRoute is one operation of the API in the authorisation matrix. own is the
// officer of the state the operation concerns.
type matrixRoute struct {
	name, method, path, body, contentType string
	own                                   string
	ok                                    int // the status of an allowed request
	// allowed, in the order coordinator, own officer, other officer, auditor.
	allowed [4]bool
}

func matrixRoutes(t *testing.T) []matrixRoute {
	const y = "/api/v1/ledger/cycles/2027"
	return []matrixRoute{
		{"create cycle", "POST", "/api/v1/ledger/cycles", MustShipped(t, 2026), "application/toml", "de", 201, [4]bool{true, false, false, false}},
		{"amend cycle", "PUT", y, testCycle, "application/toml", "de", 201, [4]bool{true, false, false, false}},
		{"set status", "POST", y + "/statuses/DE", `{"at_risk":true}`, "", "de", 201, [4]bool{true, false, false, false}},
		{"pledge", "POST", y + "/pledges/DE", `{"type":"financial","eur_cents":100}`, "", "de", 201, [4]bool{true, true, false, false}},
		{"request deduction", "POST", y + "/deductions/DE", `{"article":"Art. 61","full":true}`, "", "de", 201, [4]bool{true, true, false, false}},
		{"assess deduction", "POST", y + "/deductions/DED-2027-DE-1/assessment", `{"favourable":true}`, "", "de", 201, [4]bool{true, false, false, false}},
		{"decide deduction", "POST", y + "/deductions/DED-2027-DE-1/decision", `{"act":"CID 2027/1","granted":true,"fraction":"1/10"}`, "", "de", 201, [4]bool{true, false, false, false}},
		{"request offset", "POST", y + "/offsets/IT/requests", `{"counterpart":"FR","applications":3}`, "", "it", 201, [4]bool{true, true, false, false}},
		{"offer offset", "POST", y + "/offsets/DE/offers", `{"counterpart":"IT","applications":3}`, "", "de", 201, [4]bool{true, true, false, false}},
		{"reply offset", "POST", y + "/offsets/OFF-2027-IT-1/reply", `{"accepted":2}`, "", "de", 201, [4]bool{true, true, false, false}},
		{"deliver", "POST", y + "/deliveries/DE", `{"type":"payment.made","eur_cents":1}`, "", "de", 201, [4]bool{true, true, false, false}},
		{"add user", "POST", "/api/v1/users", `{"name":"new","role":"auditor"}`, "", "de", 201, [4]bool{true, false, false, false}},
		{"create token", "POST", "/api/v1/tokens", `{"name":"de","label":"x"}`, "", "de", 201, [4]bool{true, false, false, false}},
		{"list users", "GET", "/api/v1/users", "", "", "de", 200, [4]bool{true, false, false, false}},
		{"list entries", "GET", "/api/v1/ledger/entries", "", "", "de", 200, [4]bool{true, true, true, true}},
	}
}

// TestAuthorizationMatrix sends every write (and every read that needs a user) of the
// API as the coordinator, the officer of the state concerned, another state's
// officer, an auditor and the public, each on a fresh ledger where the operation is
// possible: allowed requests must succeed (so the test cannot pass by refusing
// everything), refused ones be 403 for a known user and 401 for the public.
func TestAuthorizationMatrix(t *testing.T) {
	for _, rt := range matrixRoutes(t) {
		other := "fr"
		if rt.own == "fr" {
			other = "de"
		}
		for i, as := range []string{"coord", rt.own, other, "audit", ""} {
			role := []string{"coordinator", "own officer", "other officer", "auditor", "anonymous"}[i]
			t.Run(rt.name+"/"+role, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, fixtureOpts{setup: true})
				res, body := f.do(req{method: rt.method, path: rt.path, as: as, body: rt.body, contentType: rt.contentType})
				want := http.StatusForbidden
				switch {
				case as == "":
					want = http.StatusUnauthorized
				case rt.allowed[i]:
					want = rt.ok
				}
				if res.StatusCode != want {
					t.Fatalf("%s %s as %s: %d, want %d: %s", rt.method, rt.path, role, res.StatusCode, want, body)
				}
				if want >= 400 {
					code := map[int]string{401: solidarity.EUNAUTHENTICATED, 403: solidarity.EUNAUTHORIZED}[want]
					if got := apiErr(t, body).Code; got != code {
						t.Errorf("code %q, want %q", got, code)
					}
					if want == 401 && res.Header.Get("WWW-Authenticate") == "" {
						t.Error("401 without WWW-Authenticate")
					}
				}
			})
		}
	}
	// Public reads need no user.
	f := newFixture(t, fixtureOpts{})
	for _, path := range []string{"/api/v1/ledger/cycles/2027/balances", "/api/v1/ledger/verify", "/api/v1/ledger/public.jsonl"} {
		if res, body := f.do(req{method: "GET", path: path}); res.StatusCode != 200 {
			t.Errorf("public %s: %d %s", path, res.StatusCode, body)
		}
	}
}

func apiErr(t *testing.T, body string) web.APIError {
	t.Helper()
	var e struct{ Error web.APIError }
	if err := json.Unmarshal([]byte(body), &e); err != nil || e.Error.Code == "" {
		t.Fatalf("not an error body: %v: %s", err, body)
	}
	return e.Error
}

func TestAuthentication(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true, passwords: true})
	pledge := `{"type":"financial","eur_cents":100}`
	for _, c := range []struct {
		name string
		r    req
		want int
	}{
		{"no credentials write", req{method: "POST", path: "/api/v1/ledger/cycles/2027/pledges/DE", body: pledge}, 401},
		{"no credentials entries", req{method: "GET", path: "/api/v1/ledger/entries"}, 401},
		{"no credentials verify", req{method: "GET", path: "/api/v1/ledger/verify"}, 200}, // the public summary (issue 14)
		{"bad token", req{method: "POST", path: "/api/v1/ledger/cycles/2027/pledges/DE", body: pledge, header: map[string]string{"Authorization": "Bearer nope"}}, 401},
		{"bad token on a public read", req{method: "GET", path: "/api/v1/ledger/cycles/2027/balances", header: map[string]string{"Authorization": "Bearer nope"}}, 401},
		{"basic scheme", req{method: "GET", path: "/api/v1/ledger/entries", header: map[string]string{"Authorization": "Basic ZGU6eA=="}}, 401},
		{"empty bearer", req{method: "GET", path: "/api/v1/ledger/entries", header: map[string]string{"Authorization": "Bearer "}}, 401},
		{"session secret as token", req{method: "GET", path: "/api/v1/ledger/entries", header: map[string]string{"Authorization": "Bearer " + f.session("de").Value}}, 401},
		{"token as session", req{method: "GET", path: "/api/v1/ledger/entries", cookie: &http.Cookie{Name: web.SessionCookie, Value: f.tokens["de"]}}, 401},
		{"stale cookie on the API", req{method: "GET", path: "/api/v1/ledger/entries", cookie: &http.Cookie{Name: web.SessionCookie, Value: "expired"}}, 401},
		{"good token", req{method: "GET", path: "/api/v1/ledger/entries", as: "de"}, 200},
		{"lower-case scheme", req{method: "GET", path: "/api/v1/ledger/entries", header: map[string]string{"Authorization": "bearer " + f.tokens["audit"]}}, 200},
		{"session cookie", req{method: "GET", path: "/api/v1/ledger/entries", cookie: f.session("audit")}, 200},
		{"officer for another state", req{method: "POST", path: "/api/v1/ledger/cycles/2027/pledges/DE", as: "fr", body: pledge}, 403},
		{"officer reading another state", req{method: "GET", path: "/api/v1/ledger/entries?state=DE", as: "fr"}, 403},
		{"officer verifying", req{method: "GET", path: "/api/v1/ledger/verify", as: "de"}, 200}, // the public summary (issue 14)
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := f.do(c.r)
			if res.StatusCode != c.want {
				t.Fatalf("%d, want %d: %s", res.StatusCode, c.want, body)
			}
			if c.want == 401 {
				if e := apiErr(t, body); e.Code != solidarity.EUNAUTHENTICATED {
					t.Errorf("code %q", e.Code)
				}
				if res.Header.Get("WWW-Authenticate") == "" {
					t.Error("no WWW-Authenticate")
				}
			}
			if c.want == 403 && apiErr(t, body).Code != solidarity.EUNAUTHORIZED {
				t.Errorf("code %q", apiErr(t, body).Code)
			}
		})
	}
}

// TestSessionAPI logs in and out through the API: the cookie's attributes, its use,
// and its end.
func TestSessionAPI(t *testing.T) {
	for _, tls := range []bool{false, true} {
		t.Run(fmt.Sprintf("tls=%v", tls), func(t *testing.T) {
			f := newFixture(t, fixtureOpts{passwords: true, tls: tls})
			res, body := f.do(req{method: "POST", path: "/api/v1/session", body: `{"name":"de","password":"` + testPassword + `"}`})
			if res.StatusCode != 201 {
				t.Fatalf("login: %d %s", res.StatusCode, body)
			}
			var s web.Session
			if err := json.Unmarshal([]byte(body), &s); err != nil || s.User.Name != "de" || s.User.State != "DE" {
				t.Fatalf("session %+v %v", s, err)
			}
			if strings.Contains(body, "secret") || res.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("body %s, cache %q", body, res.Header.Get("Cache-Control"))
			}
			var c *http.Cookie
			for _, x := range res.Cookies() {
				if x.Name == web.SessionCookie {
					c = x
				}
			}
			if c == nil || !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" || c.Secure != tls || c.MaxAge <= 0 {
				t.Fatalf("cookie %+v", c)
			}
			if res, body := f.do(req{method: "GET", path: "/api/v1/ledger/entries", cookie: c}); res.StatusCode != 200 {
				t.Fatalf("with the cookie: %d %s", res.StatusCode, body)
			}
			if res, body := f.do(req{method: "DELETE", path: "/api/v1/session", cookie: c}); res.StatusCode != 204 {
				t.Fatalf("logout: %d %s", res.StatusCode, body)
			}
			if res, _ := f.do(req{method: "GET", path: "/api/v1/ledger/entries", cookie: c}); res.StatusCode != 401 {
				t.Fatalf("after logout: %d", res.StatusCode)
			}
			if res, _ := f.do(req{method: "DELETE", path: "/api/v1/session", cookie: c}); res.StatusCode != 204 {
				t.Fatalf("second logout with a stale cookie: %d", res.StatusCode)
			}
			res, body = f.do(req{method: "POST", path: "/api/v1/session", body: `{"name":"de","password":"wrong password!"}`})
			if res.StatusCode != 401 || apiErr(t, body).Code != solidarity.EUNAUTHENTICATED {
				t.Fatalf("wrong password: %d %s", res.StatusCode, body)
			}
			res, body = f.do(req{method: "POST", path: "/api/v1/session", body: `{"name":"de","password":"x","remember":true}`})
			if res.StatusCode != 400 || apiErr(t, body).Field != "remember" {
				t.Fatalf("unknown field: %d %s", res.StatusCode, body)
			}
		})
	}
}

// TestLoginRateLimit: five wrong passwords of a name from one address are free, then
// that name waits at that address (a minute, doubling with each further failure),
// even with the right password, while the same name from another address and other
// names from the same address log in (issue 12: neither a name nor an address was a
// lock on everyone else). Only a looser cap per address (addrMax) stops spraying.
func TestLoginRateLimit(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	login := func(name, password, ip string) *http.Response {
		t.Helper()
		r, err := http.NewRequest("POST", "/api/v1/session", strings.NewReader(fmt.Sprintf(`{"name":%q,"password":%q}`, name, password)))
		if err != nil {
			t.Fatal(err)
		}
		r.RemoteAddr = ip + ":1234"
		w := newRecorder()
		f.srv.ServeHTTP(w, r)
		return w.Result()
	}
	// One name from many addresses: no address is held back by another's failures.
	for i := range 10 {
		if res := login("de", "wrong password "+fmt.Sprint(i), fmt.Sprintf("10.0.0.%d", i)); res.StatusCode != 401 {
			t.Fatalf("failure %d: %d", i, res.StatusCode)
		}
	}
	if res := login("de", testPassword, "10.0.1.1"); res.StatusCode != 201 {
		t.Fatalf("the right password from a clean address after 10 failures elsewhere: %d", res.StatusCode)
	}
	// One name from one address: backoff.
	for i := range 5 {
		if res := login("fr", "wrong password "+fmt.Sprint(i), "10.0.2.1"); res.StatusCode != 401 {
			t.Fatalf("failure %d: %d", i, res.StatusCode)
		}
	}
	res := login("fr", testPassword, "10.0.2.1")
	if res.StatusCode != http.StatusTooManyRequests || res.Header.Get("Retry-After") != "60" {
		t.Fatalf("sixth try: %d, Retry-After %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	if res := login("fr", testPassword, "10.0.2.2"); res.StatusCode != 201 {
		t.Fatalf("the same name from another address: %d", res.StatusCode)
	}
	if res := login("it", testPassword, "10.0.2.1"); res.StatusCode != 201 {
		t.Fatalf("another name from the throttled address: %d", res.StatusCode)
	}
	f.clock.Add(30 * time.Second)
	if res := login("fr", testPassword, "10.0.2.1"); res.StatusCode != 429 || res.Header.Get("Retry-After") != "30" {
		t.Fatalf("half a minute later: %d %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	f.clock.Add(30 * time.Second)
	if res := login("fr", "wrong again", "10.0.2.1"); res.StatusCode != 401 {
		t.Fatalf("after the wait, a sixth failure: %d", res.StatusCode)
	}
	if res := login("fr", testPassword, "10.0.2.1"); res.StatusCode != 429 || res.Header.Get("Retry-After") != "120" {
		t.Fatalf("after the sixth failure the wait doubles: %d %q", res.StatusCode, res.Header.Get("Retry-After"))
	}
	f.clock.Add(2 * time.Minute)
	if res := login("fr", testPassword, "10.0.2.1"); res.StatusCode != 201 {
		t.Fatalf("after the doubled wait: %d", res.StatusCode)
	}
	// A success forgets the pair's failures.
	for range 5 {
		login("fr", "wrong", "10.0.2.1")
	}
	if res := login("fr", "wrong", "10.0.2.1"); res.StatusCode != 429 {
		t.Fatalf("the success reset the count: %d", res.StatusCode)
	}
	// IPv6: one /64 is one address.
	for i := range 5 {
		login("audit", "wrong", fmt.Sprintf("[2001:db8:1:1::%x]", i+1))
	}
	if res := login("audit", testPassword, "[2001:db8:1:1::ff]"); res.StatusCode != 429 {
		t.Fatalf("another address of the same /64: %d", res.StatusCode)
	}
	if res := login("audit", testPassword, "[2001:db8:1:2::1]"); res.StatusCode != 201 {
		t.Fatalf("another /64: %d", res.StatusCode)
	}
	// The login page shares the limit.
	form := "name=fr&password=" + strings.ReplaceAll(testPassword, " ", "+")
	r := httptestRequest("POST", "/login", form)
	r.RemoteAddr = "10.0.2.1:1"
	w := newRecorder()
	f.srv.ServeHTTP(w, r)
	if w.Code != 429 || w.Header().Get("Retry-After") == "" || !strings.Contains(w.Body.String(), "Too many failed logins") {
		t.Fatalf("login page: %d %q", w.Code, w.Header().Get("Retry-After"))
	}
	if m := metricsText(t, f); !strings.Contains(m, `solidarity_login_failures_total{reason="password"} 26`) ||
		!strings.Contains(m, `solidarity_login_failures_total{reason="rate_limited"} 6`) {
		t.Errorf("login failure metrics:\n%s", grep(m, "login_failures"))
	}
}

// TestLoginSpraying: one address trying many names is refused after addrMax failures
// in the window, but only that address: the same names log in from elsewhere.
func TestLoginSpraying(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true, options: []web.Option{web.WithAddressLimit(20, 10*time.Minute)}})
	login := func(name, password, ip string) int {
		t.Helper()
		r := httptestRequest("POST", "/login", "name="+name+"&password="+strings.ReplaceAll(password, " ", "+"))
		r.RemoteAddr = ip + ":1"
		w := newRecorder()
		f.srv.ServeHTTP(w, r)
		return w.Code
	}
	n := 0
	for login(fmt.Sprintf("nobody%d", n), "whatever it is", "10.9.9.9") == 401 {
		n++
		if n > 1000 {
			t.Fatal("no cap per address")
		}
	}
	if n != 20 {
		t.Fatalf("the address cap allows %d names, want 20", n)
	}
	if c := login("audit", testPassword, "10.9.9.9"); c != 429 {
		t.Fatalf("after %d names, the right password from the spraying address: %d", n, c)
	}
	if c := login("audit", testPassword, "10.9.9.10"); c != 303 {
		t.Fatalf("the right password from another address: %d", c)
	}
	f.clock.Add(time.Hour)
	if c := login("audit", testPassword, "10.9.9.9"); c != 303 {
		t.Fatalf("an hour later: %d", c)
	}
}

// TestIdempotentReplay: a retried write returns the first entry with 200 and
// Idempotency-Replayed, writes nothing more, and the same key with another body is a
// conflict.
func TestIdempotentReplay(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	cases := []struct {
		name, path, body, other string
	}{
		{"pledge made", "/api/v1/ledger/cycles/2027/pledges/DE", `{"type":"relocation-applicants","relocations":100}`, `{"type":"relocation-applicants","relocations":101}`},
		{"payment", "/api/v1/ledger/cycles/2027/deliveries/DE", `{"type":"payment.made","eur_cents":500,"reference":"TR-1"}`, `{"type":"payment.made","eur_cents":501,"reference":"TR-1"}`},
		{"pledge changed", "/api/v1/ledger/cycles/2027/pledges/DE", `{"type":"financial","eur_cents":2000000}`, `{"type":"financial","eur_cents":2000001}`},
		{"deduction request", "/api/v1/ledger/cycles/2027/deductions/DE", `{"article":"Art. 62","relocations":10}`, `{"article":"Art. 62","relocations":11}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			key := map[string]string{"Idempotency-Key": "key-" + strings.ReplaceAll(c.name, " ", "-")}
			res, first := f.do(req{method: "POST", path: c.path, as: "de", body: c.body, header: key})
			if res.StatusCode != 201 || res.Header.Get("Idempotency-Replayed") != "" {
				t.Fatalf("first: %d %s", res.StatusCode, first)
			}
			head := headSeq(t, f)
			res, again := f.do(req{method: "POST", path: c.path, as: "de", body: c.body, header: key})
			if res.StatusCode != 200 || res.Header.Get("Idempotency-Replayed") != "true" {
				t.Fatalf("replay: %d %q %s", res.StatusCode, res.Header.Get("Idempotency-Replayed"), again)
			}
			var a, b solidarity.Entry
			json.Unmarshal([]byte(first), &a)
			json.Unmarshal([]byte(again), &b)
			if a.Seq == 0 || a.Seq != b.Seq || a.Hash != b.Hash {
				t.Errorf("replay returned another entry: %d %s / %d %s", a.Seq, a.Hash, b.Seq, b.Hash)
			}
			if headSeq(t, f) != head {
				t.Error("the replay wrote an entry")
			}
			res, body := f.do(req{method: "POST", path: c.path, as: "de", body: c.other, header: key})
			if res.StatusCode != 409 || apiErr(t, body).Code != solidarity.ECONFLICT {
				t.Fatalf("same key, other body: %d %s", res.StatusCode, body)
			}
			// Without a key, the same request is a new entry.
			if res, body := f.do(req{method: "POST", path: c.path, as: "de", body: c.body}); res.StatusCode != 201 && res.StatusCode != 409 {
				t.Fatalf("without a key: %d %s", res.StatusCode, body)
			}
		})
	}
	if res, body := f.do(req{method: "POST", path: cases[0].path, as: "de", body: cases[0].body, header: map[string]string{"Idempotency-Key": "has space"}}); res.StatusCode != 400 || apiErr(t, body).Field != "Idempotency-Key" {
		t.Fatalf("bad key: %d %s", res.StatusCode, body)
	}
}

func headSeq(t *testing.T, f *fixture) int64 {
	t.Helper()
	seq, _, err := f.store.Head(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

// TestPagination walks the entries a page at a time: every entry once, in order, and
// next_after null on the last page; filters and limits are checked.
func TestPagination(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	for i := range 7 {
		if res, body := f.do(req{method: "POST", path: "/api/v1/ledger/cycles/2027/deliveries/DE", as: "de",
			body: fmt.Sprintf(`{"type":"payment.made","eur_cents":%d}`, i+1)}); res.StatusCode != 201 {
			t.Fatalf("delivery %d: %d %s", i, res.StatusCode, body)
		}
	}
	total := headSeq(t, f) // 1 cycle + 4 setup + 7 deliveries
	walk := func(as, query string, limit int) []*solidarity.Entry {
		t.Helper()
		var all []*solidarity.Entry
		after := "0"
		for pages := 0; ; pages++ {
			if pages > 100 {
				t.Fatal("no end of pages")
			}
			res, body := f.do(req{method: "GET", path: fmt.Sprintf("/api/v1/ledger/entries?limit=%d&after=%s%s", limit, after, query), as: as})
			if res.StatusCode != 200 {
				t.Fatalf("%d %s", res.StatusCode, body)
			}
			var p web.EntryPage
			if err := json.Unmarshal([]byte(body), &p); err != nil {
				t.Fatal(err)
			}
			if len(p.Entries) > limit {
				t.Fatalf("%d entries on a page of %d", len(p.Entries), limit)
			}
			all = append(all, p.Entries...)
			if p.NextAfter == nil {
				return all
			}
			if len(p.Entries) != limit || *p.NextAfter != p.Entries[len(p.Entries)-1].Seq {
				t.Fatalf("next_after %d after a page of %d", *p.NextAfter, len(p.Entries))
			}
			after = fmt.Sprint(*p.NextAfter)
		}
	}
	for _, limit := range []int{1, 3, 4, 12, 13, 1000} {
		all := walk("audit", "", limit)
		if int64(len(all)) != total {
			t.Fatalf("limit %d: %d entries, want %d", limit, len(all), total)
		}
		for i, e := range all {
			if e.Seq != int64(i+1) {
				t.Fatalf("limit %d: entry %d has seq %d", limit, i, e.Seq)
			}
		}
	}
	if got := walk("audit", "&type=payment.made&state=de&cycle=2027", 2); len(got) != 7 {
		t.Errorf("filtered: %d entries", len(got))
	}
	for _, e := range walk("de", "", 2) {
		if e.State != "DE" {
			t.Errorf("DE's officer saw entry %d of %q", e.Seq, e.State)
		}
	}
	for _, q := range []string{"limit=0", "limit=1001", "after=-1", "after=x", "cycle=x", "state=XX", "type=gift"} {
		res, body := f.do(req{method: "GET", path: "/api/v1/ledger/entries?" + q, as: "audit"})
		if res.StatusCode != 400 || apiErr(t, body).Field == "" {
			t.Errorf("%s: %d %s", q, res.StatusCode, body)
		}
	}
	// The default page is 100 entries.
	res, body := f.do(req{method: "GET", path: "/api/v1/ledger/entries", as: "audit"})
	var p web.EntryPage
	if json.Unmarshal([]byte(body), &p); res.StatusCode != 200 || int64(len(p.Entries)) != total || p.NextAfter != nil {
		t.Errorf("default page: %d, %d entries, next %v", res.StatusCode, len(p.Entries), p.NextAfter)
	}
}

// TestRequestBodies: unknown fields, trailing data, wrong types and bad paths are 400
// with the field named; nothing is written.
func TestRequestBodies(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	head := headSeq(t, f)
	const p = "/api/v1/ledger/cycles/2027/pledges/DE"
	for _, c := range []struct {
		name, path, body, field string
		want                    int
	}{
		{"unknown field", p, `{"type":"financial","eur_cents":1,"colour":"blue"}`, "colour", 400},
		{"wrong type", p, `{"type":"financial","eur_cents":"1"}`, "eur_cents", 400},
		{"two values", p, `{"type":"financial","eur_cents":1}{}`, "", 400},
		{"not JSON", p, `type=financial`, "", 400},
		{"empty", p, ``, "", 400},
		{"bad pledge type", p, `{"type":"gift"}`, "type", 400},
		{"not a state", "/api/v1/ledger/cycles/2027/pledges/XX", `{"type":"financial","eur_cents":1}`, "state", 400},
		{"not participating", "/api/v1/ledger/cycles/2027/pledges/DK", `{"type":"financial","eur_cents":1}`, "state", 400},
		{"no such cycle", "/api/v1/ledger/cycles/2031/pledges/DE", `{"type":"financial","eur_cents":1}`, "cycle", 404},
		{"not a year", "/api/v1/ledger/cycles/next/pledges/DE", `{"type":"financial","eur_cents":1}`, "year", 404},
		{"delivery of a pledge type", "/api/v1/ledger/cycles/2027/deliveries/DE", `{"type":"pledge.made","eur_cents":1}`, "type", 400},
		{"delivery above the pledge", "/api/v1/ledger/cycles/2027/deliveries/DE", `{"type":"payment.made","eur_cents":1000001}`, "", 409},
		{"amend another year", "/api/v1/ledger/cycles/2026", testCycle, "year", 400},
	} {
		t.Run(c.name, func(t *testing.T) {
			method, ct := "POST", ""
			if strings.HasPrefix(c.body, "year =") {
				method, ct = "PUT", "application/toml"
			}
			res, body := f.do(req{method: method, path: c.path, as: "coord", body: c.body, contentType: ct})
			if res.StatusCode != c.want {
				t.Fatalf("%d, want %d: %s", res.StatusCode, c.want, body)
			}
			if e := apiErr(t, body); c.field != "" && e.Field != c.field {
				t.Errorf("field %q, want %q: %s", e.Field, c.field, body)
			}
		})
	}
	if headSeq(t, f) != head {
		t.Error("a refused request wrote an entry")
	}
}

// TestNoLedger: without a ledger the server is the dashboard of shipped data: the
// ledger's routes answer 404 and no page offers a login.
func TestNoLedger(t *testing.T) {
	s := mustServer(t)
	for _, target := range []string{"/api/v1/ledger/entries", "/api/v1/ledger/cycles/2026/balances", "/login", "/ledger"} {
		if res, body := get(t, s, target); res.StatusCode != 404 {
			t.Errorf("%s: %d %.200s", target, res.StatusCode, body)
		}
	}
	_, body := get(t, s, "/pool/2026")
	if strings.Contains(body, "Log in") {
		t.Error("the dashboard without a ledger offers a login")
	}
	if res, _ := get(t, s, "/readyz"); res.StatusCode != 200 {
		t.Errorf("readyz %d", res.StatusCode)
	}
	// A token is ignored without a ledger (there is nothing it could open).
	rec := newRecorder()
	r := httptestRequest("GET", "/api/v1/cycles", "")
	r.Header.Set("Authorization", "Bearer x")
	s.ServeHTTP(rec, r)
	if rec.Code != 200 {
		t.Errorf("cycles with a token: %d", rec.Code)
	}
}

func grep(s, sub string) string {
	var out []string
	for l := range strings.Lines(s) {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}
