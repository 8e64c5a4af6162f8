package web_test

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"solidarity/internal/catalog"
	"solidarity/internal/i18n"
	"solidarity/internal/web"
)

// TestAccessibilityStatement: /accessibility follows the model statement of
// Commission Implementing Decision (EU) 2018/1523 (Annex): its sections in the model's
// order, a compliance status that is one of the model's three, the preparation and
// review dates in the page's language, and a method that names the tests that exist
// (e2e/a11y.test.mjs, e2e/keyboard.test.mjs) and the axe-core version they run. Every
// page links to it.
func TestAccessibilityStatement(t *testing.T) {
	s := mustServer(t)
	page := func(lang string) string {
		t.Helper()
		req := httptest.NewRequest("GET", "/accessibility", nil)
		req.Header.Set("Accept-Language", lang)
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != 200 {
			t.Fatalf("GET /accessibility (%s): %d", lang, rec.Code)
		}
		return rec.Body.String()
	}
	for _, lang := range []string{"en", "de", "fr"} {
		body := page(lang)
		if !strings.Contains(body, `<html lang="`+lang+`"`) {
			t.Errorf("%s: the statement is not in its language", lang)
		}
		// The model's sections, in its order.
		last := -1
		for _, id := range []string{"compliance", "non-accessible", "preparation", "feedback", "enforcement"} {
			i := strings.Index(body, `<h2 id="`+id+`"`)
			if i < 0 {
				t.Errorf("%s: no section %q", lang, id)
				continue
			}
			if i < last {
				t.Errorf("%s: section %q is out of the model's order", lang, id)
			}
			last = i
		}
		m := regexp.MustCompile(`id="compliance-status" data-status="([a-z]+)"`).FindStringSubmatch(body)
		if m == nil || (m[1] != "fully" && m[1] != "partially" && m[1] != "not") {
			t.Errorf("%s: the compliance status is not fully, partially or not compliant: %v", lang, m)
		}
		var dates []time.Time
		for _, id := range []string{"prepared", "reviewed"} {
			m := regexp.MustCompile(`id="` + id + `" data-date="([0-9-]+)">([^<]*)<`).FindStringSubmatch(body)
			if m == nil {
				t.Errorf("%s: no %s date", lang, id)
				continue
			}
			d, err := time.Parse("2006-01-02", m[1])
			if err != nil {
				t.Fatal(err)
			}
			if want := i18n.New(lang).Date(d); !strings.Contains(m[2], want) {
				t.Errorf("%s: the %s date reads %q, want it to hold %q", lang, id, m[2], want)
			}
			dates = append(dates, d)
		}
		if len(dates) == 2 && (dates[1].Before(dates[0]) || dates[1].After(time.Now())) {
			t.Errorf("%s: reviewed %v is before the preparation %v or in the future", lang, dates[1], dates[0])
		}
	}

	// The method names the tests that exist and the axe-core they run.
	for _, f := range []string{"../../e2e/a11y.test.mjs", "../../e2e/keyboard.test.mjs"} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the statement's method relies on %s: %v", f, err)
		}
	}
	b, err := os.ReadFile("../../e2e/package.json")
	if err != nil {
		t.Fatal(err)
	}
	var pkg struct {
		DevDependencies map[string]string `json:"devDependencies"`
	}
	if err := json.Unmarshal(b, &pkg); err != nil {
		t.Fatal(err)
	}
	v := pkg.DevDependencies["axe-core"]
	if parts := strings.Split(v, "."); len(parts) < 2 || !strings.Contains(page("en"), "axe-core "+parts[0]+"."+parts[1]+" ") {
		t.Errorf("the statement does not name the axe-core version the tests run (%q)", v)
	}

	// Every page links to it (the layout's footer).
	for _, p := range []string{"/pool/2026", "/pool/2026/states/DE", "/accessibility"} {
		if _, body := get(t, s, p); !strings.Contains(body, `<a href="/accessibility">`) {
			t.Errorf("%s does not link to the accessibility statement", p)
		}
	}
}

// TestAccessibilityContact: the statement gives the operator's contact when it is
// set (Directive (EU) 2016/2102, Art. 7(1)(b)), as a mail or web link, and no empty
// contact line when it is not.
func TestAccessibilityContact(t *testing.T) {
	for _, c := range []struct{ contact, want string }{
		{"a11y@example.eu", `href="mailto:a11y@example.eu"`},
		{"https://example.eu/accessibility-feedback", `href="https://example.eu/accessibility-feedback"`},
		{"", ""},
	} {
		s, err := web.New(&catalog.Catalog{}, nil, 2026, web.WithAccessibilityContact(c.contact))
		if err != nil {
			t.Fatal(err)
		}
		_, body := get(t, s, "/accessibility")
		if has := strings.Contains(body, `id="contact"`); has != (c.want != "") || !strings.Contains(body, c.want) {
			t.Errorf("contact %q: contact line %v, want %q in the page", c.contact, has, c.want)
		}
	}
}
