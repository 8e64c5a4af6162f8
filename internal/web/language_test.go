package web_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"solidarity/internal/i18n"
)

// TestLanguage: the page's language is the user's choice (the cookie the switcher
// sets), then Accept-Language, then English; lang="…" says which; the switcher
// returns only to a local path and refuses a language that is not one of the 24.
func TestLanguage(t *testing.T) {
	s := mustServer(t)
	page := func(accept, cookie string) string {
		req := httptest.NewRequest("GET", "/pool/2026", nil)
		if accept != "" {
			req.Header.Set("Accept-Language", accept)
		}
		if cookie != "" {
			req.AddCookie(&http.Cookie{Name: "lang", Value: cookie})
		}
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("GET /pool/2026 (Accept-Language %q, lang %q): %d", accept, cookie, rec.Code)
		}
		return rec.Body.String()
	}
	for _, c := range []struct{ accept, cookie, want string }{
		{"", "", `lang="en"`},
		{"de-DE,de;q=0.9,en;q=0.8", "", `lang="de"`},
		{"fr-BE", "", `lang="fr"`},
		{"ja, zh;q=0.5", "", `lang="en"`},
		{"de", "pl", `lang="pl"`},                     // the user's choice comes first
		{"de", "xx", `lang="de"`},                     // an unknown choice is ignored
		{strings.Repeat("de,", 400), "", `lang="en"`}, // too long to parse: not parsed
	} {
		if body := page(c.accept, c.cookie); !strings.Contains(body, "<html "+c.want) {
			t.Errorf("Accept-Language %q, cookie %q: want <html %s>", c.accept, c.cookie, c.want)
		}
	}
	res, _ := get(t, s, "/pool/2026")
	if v := res.Header.Values("Vary"); !strings.Contains(strings.Join(v, ","), "Accept-Language") || !strings.Contains(strings.Join(v, ","), "Cookie") {
		t.Errorf("Vary %q: a shared cache would mix the languages", v)
	}
	if body := page("", ""); strings.Contains(body, `id="unreviewed"`) {
		t.Error("the English page says its translation is unreviewed")
	}

	for _, c := range []struct {
		target   string
		code     int
		location string
	}{
		{"/language?lang=de&next=/pool/2026%3Fmode%3Dcoverage", http.StatusSeeOther, "/pool/2026?mode=coverage"},
		{"/language?lang=de&next=//evil.example/", http.StatusSeeOther, "/"},
		{"/language?lang=de&next=https://evil.example/", http.StatusSeeOther, "/"},
		{"/language?lang=xx&next=/", http.StatusBadRequest, ""},
		{"/language", http.StatusBadRequest, ""},
	} {
		res, _ := get(t, s, c.target)
		if res.StatusCode != c.code || res.Header.Get("Location") != c.location {
			t.Errorf("GET %s: %d Location %q, want %d %q", c.target, res.StatusCode, res.Header.Get("Location"), c.code, c.location)
		}
		if c.code == http.StatusSeeOther {
			if ck := res.Cookies(); len(ck) != 1 || ck[0].Name != "lang" || ck[0].Value != "de" || !ck[0].HttpOnly {
				t.Errorf("GET %s: cookies %v, want lang=de HttpOnly", c.target, ck)
			}
		}
	}
}

// TestDashboardInGerman: Accept-Language: de gives the dashboard in German: lang="de",
// the headings from the German catalogue, and numbers with German digit groups (the
// 2026 reference number, 21 000, as 21.000).
func TestDashboardInGerman(t *testing.T) {
	s := mustServer(t)
	req := httptest.NewRequest("GET", "/pool/2026", nil)
	req.Header.Set("Accept-Language", "de-DE,de;q=0.9")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	body := rec.Body.String()
	if rec.Code != 200 || !strings.Contains(body, `<html lang="de">`) {
		t.Fatalf("%d, want 200 and <html lang=\"de\">", rec.Code)
	}
	de := i18n.New("de")
	for _, en := range []string{"Fair shares and pledges", "Map", "Pledges by type"} {
		got := de.T(en)
		if got == en {
			t.Errorf("the German catalogue does not translate %q", en)
		}
		if !strings.Contains(body, `>`+got+`</h2>`) {
			t.Errorf("the German dashboard has no heading %q (%q)", got, en)
		}
	}
	if !strings.Contains(body, "21.000") || strings.Contains(body, "21,000") {
		t.Error("the German dashboard does not write 21 000 as 21.000")
	}
	if !strings.Contains(body, `id="unreviewed"`) {
		t.Error("the German page does not say its translation is unreviewed")
	}
}

// TestErrorPageInLanguage: an error page says what went wrong in the reader's
// language, the service's detail marked as English beside it.
func TestErrorPageInLanguage(t *testing.T) {
	s := mustServer(t)
	de := i18n.New("de")
	for _, c := range []struct {
		path    string
		code    int
		explain string
	}{
		{"/pool/1999", 404, "There is no such page or record, or it is not one you may see."},
		{"/pool/2026?sort=bogus", 400, "A value in the address or the form is not valid; the detail below names it."},
		{"/no/such/page", 404, "There is no such page or record, or it is not one you may see."},
	} {
		req := httptest.NewRequest("GET", c.path, nil)
		req.Header.Set("Accept-Language", "de")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		body := rec.Body.String()
		if rec.Code != c.code || !strings.Contains(body, `<html lang="de">`) || !strings.Contains(body, de.T(c.explain)) || !strings.Contains(body, `<span lang="en">`) {
			t.Errorf("GET %s: %d, want %d, a German page with %q and the detail in English", c.path, rec.Code, c.code, de.T(c.explain))
		}
	}
}

// TestUnknownPathsKeepMethods: the not-found page leaves a known path's other methods
// to the mux (405 with Allow) and the API to its own JSON answers.
func TestUnknownPathsKeepMethods(t *testing.T) {
	s := mustServer(t)
	for _, c := range []struct {
		method, path string
		code         int
		html         bool
	}{
		{"GET", "/no/such/page", 404, true},
		{"GET", "/relocation/proposal", 405, false},
		{"GET", "/api/v1/nope", 404, false},
		{"DELETE", "/pool/2026", 405, false},
	} {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest(c.method, c.path, nil))
		html := strings.Contains(rec.Header().Get("Content-Type"), "text/html")
		if rec.Code != c.code || html != c.html {
			t.Errorf("%s %s: %d (html %v), want %d (html %v)", c.method, c.path, rec.Code, html, c.code, c.html)
		}
	}
}
