package web_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"solidarity/internal/catalog"
	"solidarity/internal/web"
)

func mustServer(tb testing.TB) *web.Server {
	tb.Helper()
	s, err := web.New(&catalog.Catalog{}, nil, 2026)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func get(tb testing.TB, h http.Handler, target string) (*http.Response, string) {
	tb.Helper()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	return res, string(b)
}

func TestDashboard(t *testing.T) {
	s := mustServer(t)
	res, _ := get(t, s, "/")
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/pool/2026" {
		t.Fatalf("/ → %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	for _, mode := range []string{"share", "coverage", "pledge"} {
		res, body := get(t, s, "/pool/2026?mode="+mode)
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d", mode, res.StatusCode)
		}
		if n := strings.Count(body, `class="region member participating shaded"`); n != 26 {
			t.Errorf("%s: %d shaded regions, want 26", mode, n)
		}
		if !strings.Contains(body, `data-state="DK"`) || strings.Contains(body, `<tr data-state="DK"`) {
			t.Errorf("%s: Denmark must be on the map but not in the table", mode)
		}
		if n := len(regexp.MustCompile(`<tr data-state="[A-Z]{2}"`).FindAllString(body, -1)); n != 26 {
			t.Errorf("%s: %d table rows", mode, n)
		}
		if !strings.Contains(body, `data-mode="`+mode+`"`) {
			t.Errorf("%s: map not in that mode", mode)
		}
		// The shipped GDP is not a Eurostat extract: the page must say so.
		if !strings.Contains(body, `class="banner caveat"`) {
			t.Errorf("%s: no data caveat banner", mode)
		}
	}
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") {
		t.Errorf("CSP %q", csp)
	}
}

func TestPagesRefuseBadInput(t *testing.T) {
	s := mustServer(t)
	for target, want := range map[string]int{
		"/pool/2026?mode=pie":                     400,
		"/pool/2026?method=dhondt":                400,
		"/pool/1999":                              404,
		"/pool/abc":                               404,
		"/pool/2026/states/DK":                    404,
		"/pool/2026/states/de":                    200,
		"/pool/2027/states/EL":                    200,
		"/api/v1/cycles/2026/pool?as_of=tomorrow": 400,
		"/api/v1/nothing":                         404,
		"/healthz":                                200,
		"/openapi.yaml":                           200,
		"/static/style.css":                       200,
	} {
		if res, body := get(t, s, target); res.StatusCode != want {
			t.Errorf("%s: %d, want %d: %.200s", target, res.StatusCode, want, body)
		}
	}
}

func TestStatePage(t *testing.T) {
	s := mustServer(t)
	_, body := get(t, s, "/pool/2026/states/IE")
	for _, want := range []string{"<h1>Ireland", "EUR 9,260,000", "newsbeep", "at-risk"} {
		if !strings.Contains(body, want) {
			t.Errorf("Ireland page lacks %q", want)
		}
	}
	_, body = get(t, s, "/pool/2026/states/AT")
	if !strings.Contains(body, `<dd id="obligation">0</dd>`) { // whole numbers without decimals
		t.Errorf("Austria's obligation is not 0")
	}
}

func BenchmarkDashboard(b *testing.B) {
	s := mustServer(b)
	req := httptest.NewRequest("GET", "/pool/2026", nil)
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkDashboardGerman: the same page through a translated catalogue.
func BenchmarkDashboardGerman(b *testing.B) {
	s := mustServer(b)
	req := httptest.NewRequest("GET", "/pool/2026", nil)
	req.Header.Set("Accept-Language", "de")
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			b.Fatal(rec.Code)
		}
	}
}
