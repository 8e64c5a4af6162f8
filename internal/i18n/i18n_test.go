package i18n

import (
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"
)

// TestLanguages: the 24 official languages, once each, each with a layout that
// writes a day with its year, month and day.
func TestLanguages(t *testing.T) {
	ls := Languages()
	if len(ls) != 24 {
		t.Fatalf("%d languages, want the EU's 24", len(ls))
	}
	seen := map[string]bool{}
	day := time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	for _, l := range ls {
		if seen[l.Code] || l.Name == "" {
			t.Errorf("%q twice or unnamed", l.Code)
		}
		seen[l.Code] = true
		if d := New(l.Code).Date(day); !containsAll(d, "2026", "12", "3") {
			t.Errorf("%s writes 3 December 2026 as %q", l.Code, d)
		}
	}
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// TestNumbers: digit groups and decimal marks per language, as the issue asks (1 234,5
// in French, 1.234,5 in German), and exact decimals shown with their places.
func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		lang, int, dec, pct string
	}{
		{"en", "1,234,567", "4,558.50", "25.0\u00a0%"},
		{"de", "1.234.567", "4.558,50", "25,0\u00a0%"},
		{"fr", "1\u00a0234\u00a0567", "4\u00a0558,50", "25,0\u00a0%"},
		{"it", "1.234.567", "4.558,50", "25,0\u00a0%"},
	} {
		l := New(c.lang)
		if got := l.Int(1234567); got != c.int {
			t.Errorf("%s Int = %q, want %q", c.lang, got, c.int)
		}
		if got := l.Dec("4558.5", 2); got != c.dec {
			t.Errorf("%s Dec = %q, want %q", c.lang, got, c.dec)
		}
		if got := l.Pct(0.25); got != c.pct {
			t.Errorf("%s Pct = %q, want %q", c.lang, got, c.pct)
		}
	}
	if got := New("en").Dec("not a number", 2); got != "not a number" {
		t.Errorf("Dec of text = %q, want it unchanged", got)
	}
	if got := New("en").Int(-1000); got != "-1,000" {
		t.Errorf("Int(-1000) = %q", got)
	}
}

// TestFromRequest: the cookie, then Accept-Language, then English; a header too long
// is not parsed.
func TestFromRequest(t *testing.T) {
	for _, c := range []struct{ cookie, accept, want string }{
		{"", "", "en"},
		{"", "de-AT,de;q=0.9", "de"},
		{"", "pt-BR", "pt"},
		{"", "nb, sv;q=0.5", "sv"},
		{"", "zh", "en"},
		{"fi", "de", "fi"},
		{"zz", "de", "de"},
		{"", "x;;;=", "en"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		if c.accept != "" {
			r.Header.Set("Accept-Language", c.accept)
		}
		if c.cookie != "" {
			r.Header.Set("Cookie", CookieName+"="+c.cookie)
		}
		if got := FromRequest(r).Code(); got != c.want {
			t.Errorf("cookie %q Accept-Language %q: %s, want %s", c.cookie, c.accept, got, c.want)
		}
	}
}

// TestVerbs: the verbs a translation must keep, in any order and with explicit
// indexes; %% is not a verb.
func TestVerbs(t *testing.T) {
	for _, c := range []struct {
		msg  string
		want []string
	}{
		{"%d days overdue", []string{"%d"}},
		{"%s of %s, 100 %%", []string{"%s", "%s"}},
		{"%[2]s then %[1]d", []string{"%d", "%s"}},
		{"%.1f %%", []string{"%.1f"}},
		{"no verbs", nil},
	} {
		if got := Verbs(c.msg); !slices.Equal(got, c.want) {
			t.Errorf("Verbs(%q) = %q, want %q", c.msg, got, c.want)
		}
	}
}

// TestTranslate: a message a catalogue has comes out translated with the locale's
// numbers; one it lacks comes out in English.
func TestTranslate(t *testing.T) {
	de, ok := Lookup("de")
	if !ok || len(de.Translations()) == 0 {
		t.Skip("no German catalogue")
	}
	var key string
	for k := range de.Translations() {
		if slices.Equal(Verbs(k), []string{"%d"}) {
			key = k
			break
		}
	}
	if key == "" {
		t.Skip("no German message with one integer verb")
	}
	got := New("de").T(key, 12345)
	if got == New("en").T(key, 12345) || !strings.Contains(got, "12.345") {
		t.Errorf("T(%q, 12345) in German = %q", key, got)
	}
	if got := New("de").T("a message no catalogue has: %d", 1000); got != "a message no catalogue has: 1.000" {
		t.Errorf("an unknown message = %q", got)
	}
}
