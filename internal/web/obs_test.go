package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func newRecorder() *httptest.ResponseRecorder { return httptest.NewRecorder() }

// httptestRequest is a request for calling the handler directly; a body is a form.
func httptestRequest(method, target, form string) *http.Request {
	if form == "" {
		return httptest.NewRequest(method, target, nil)
	}
	r := httptest.NewRequest(method, target, strings.NewReader(form))
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	return r
}

func metricsText(t *testing.T, f *fixture) string {
	t.Helper()
	res, body := f.do(req{method: "GET", path: "/metrics"})
	if res.StatusCode != 200 {
		t.Fatalf("/metrics: %d", res.StatusCode)
	}
	return body
}

// TestMetrics: requests are counted by route pattern and status, appends by entry
// type (replays not), and the registry is the server's own.
func TestMetrics(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	key := map[string]string{"Idempotency-Key": "k1"}
	for range 2 {
		f.do(req{method: "POST", path: "/api/v1/ledger/cycles/2027/pledges/DE", as: "de", body: `{"type":"offset","relocations":5}`, header: key})
	}
	f.do(req{method: "POST", path: "/api/v1/ledger/cycles/2027/pledges/DE", as: "fr", body: `{"type":"offset","relocations":5}`})
	f.do(req{method: "GET", path: "/pool/2027/states/DE"})
	f.do(req{method: "GET", path: "/no/such/page"})
	m := metricsText(t, f)
	for _, want := range []string{
		`solidarity_http_requests_total{code="201",route="POST /api/v1/ledger/cycles/{year}/pledges/{state}"} 1`,
		`solidarity_http_requests_total{code="200",route="POST /api/v1/ledger/cycles/{year}/pledges/{state}"} 1`,
		`solidarity_http_requests_total{code="403",route="POST /api/v1/ledger/cycles/{year}/pledges/{state}"} 1`,
		`solidarity_http_requests_total{code="200",route="GET /pool/{year}/states/{state}"} 1`,
		`solidarity_http_requests_total{code="404",route="unmatched"} 1`,
		`solidarity_http_request_duration_seconds_count{route="GET /pool/{year}/states/{state}"} 1`,
		`solidarity_ledger_appends_total{type="pledge.made"} 1`,
		`solidarity_ledger_appends_total{type="payment.made"} 0`,
		`solidarity_login_failures_total{reason="password"} 0`,
		"go_goroutines",
	} {
		if !strings.Contains(m, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	// Two servers in one process each count their own.
	g := newFixture(t, fixtureOpts{})
	if m := metricsText(t, g); strings.Contains(m, `type="pledge.made"} 1`) {
		t.Error("a second server shares the first one's metrics")
	}
}

func TestProbes(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	for _, p := range []string{"/healthz", "/readyz"} {
		if res, body := f.do(req{method: "GET", path: p}); res.StatusCode != 200 || !strings.Contains(body, `"ok"`) {
			t.Errorf("%s: %d %s", p, res.StatusCode, body)
		}
	}
	f.store.Close()
	if res, body := f.do(req{method: "GET", path: "/readyz"}); res.StatusCode != 503 || !strings.Contains(body, "unavailable") {
		t.Errorf("readyz with the database closed: %d %s", res.StatusCode, body)
	}
	if res, _ := f.do(req{method: "GET", path: "/healthz"}); res.StatusCode != 200 {
		t.Errorf("healthz with the database closed: %d", res.StatusCode)
	}
}

// TestLogsKeepSecrets: the request log names the route, status and user, and never a
// password, token, session secret or cookie.
func TestLogsKeepSecrets(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	res, _ := f.do(req{method: "POST", path: "/api/v1/session", body: `{"name":"de","password":"` + testPassword + `"}`})
	var session string
	for _, c := range res.Cookies() {
		session = c.Value
	}
	f.do(req{method: "GET", path: "/api/v1/ledger/entries?cycle=2027", as: "audit"})
	f.do(req{method: "GET", path: "/ledger", cookie: &http.Cookie{Name: "solidarity_session", Value: session}})
	r := httptestRequest("POST", "/login", "name=fr&password=wrong+password+here")
	f.srv.ServeHTTP(newRecorder(), r)
	logs := f.logs.String()
	if session == "" {
		t.Fatal("no session")
	}
	for what, secret := range map[string]string{"password": "horse battery", "wrong password": "wrong password", "token": f.tokens["audit"], "session": session, "query": "cycle=2027"} {
		if strings.Contains(logs, secret) || strings.Contains(logs, strings.ReplaceAll(secret, " ", "+")) {
			t.Errorf("the log holds the %s", what)
		}
	}
	for _, want := range []string{`"route":"GET /api/v1/ledger/entries"`, `"user":{"name":"audit","role":"auditor"}`, `"status":201`, `"user":"anonymous"`} {
		if !strings.Contains(logs, want) {
			t.Errorf("log lacks %s:\n%s", want, logs)
		}
	}
}
