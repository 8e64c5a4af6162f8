package web

import (
	"math"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"solidarity/internal/i18n"
	"solidarity/internal/scenariofile"
)

// FuzzWhatIfQuery: whatever the query, the form either names a field to correct or
// gives a scenario file B that the scenario file parser accepts, and the address of
// the view (Query) reads back to the very same file: a shared link reproduces B.
func FuzzWhatIfQuery(f *testing.F) {
	for _, q := range []string{
		"",
		"base=cycle-2026&runs=10&seed=3",
		"choice.DE=pay&choice.FR=pay&choice.NL=pay&choice.BE=pay",
		"arrivals_scale=150&offsets_at_transfer_ratio=false&offsets_at_transfer_ratio=true&dublin_transfer_ratio=14",
		"reference=30000&return_rate=35,5",
		"runs=5000", "arrivals_scale=-3", "choice.XX=pay", "base=nope", "choice.gr=refuse", "seed=0",
		"reference=1e3", "arrivals_scale=0x10", "return_rate=%00", "choice.DE=",
	} {
		f.Add(q)
	}
	en := i18n.New(i18n.Source)
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		w, err := whatIfQuery(en, q)
		if err != nil {
			fe, ok := err.(*fieldError)
			if _, sent := q[fe.Field]; !ok || !sent || fe.Message == "" {
				t.Fatalf("%q: an error that names no field sent: %#v", raw, err)
			}
			return
		}
		src := w.TOML()
		if _, err := scenariofile.Parse(whatIfFile, src, nil); err != nil {
			t.Fatalf("%q: the form accepted what the scenario file refuses: %v\n%s", raw, err, src)
		}
		again, err := whatIfQuery(en, w.Query())
		if err != nil {
			t.Fatalf("%q: the view's own address %q is refused: %v", raw, w.Query().Encode(), err)
		}
		if got := again.TOML(); string(got) != string(src) {
			t.Fatalf("%q: the view's address gives another file:\n%s\nwant\n%s", raw, got, src)
		}
	})
}

// TestWhatIfTOMLOnlyChanges: a field left as the base has it writes no key; each
// change writes exactly its key.
func TestWhatIfTOMLOnlyChanges(t *testing.T) {
	en := i18n.New(i18n.Source)
	base, err := whatIfQuery(en, url.Values{"base": {whatIfDefaultBase}})
	if err != nil {
		t.Fatal(err)
	}
	// Sending the base's own values back changes nothing.
	same := url.Values{"base": {whatIfDefaultBase}, "reference": {base.Reference}, "arrivals_scale": {base.Scale},
		"dublin_transfer_ratio": {base.Ratio}, "return_rate": {base.ReturnRate}, "offsets_at_transfer_ratio": {map[bool]string{true: "true", false: "false"}[base.Offsets]}}
	for _, c := range base.Base.Participating {
		v := baseForm(base.Base, c)
		if v == "mixed" {
			v = "" // the select's "as in the scenario"
		}
		same.Set("choice."+string(c), v)
	}
	w, err := whatIfQuery(en, same)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"[parameters]", "[choice.", "[operations]"} {
		if strings.Contains(string(w.TOML()), key) {
			t.Errorf("the base's own values write %s:\n%s", key, w.TOML())
		}
	}
	if len(w.Changes(en)) != 0 {
		t.Errorf("changes %q of the base's own values", w.Changes(en))
	}
	for _, c := range []struct{ field, value, want string }{
		{"reference", "30000", "[parameters]\nreference = 30000\n"},
		{"arrivals_scale", "150", "[operations]\narrivals_scale = 1.5\n"},
		{"return_rate", "35", "[operations]\nreturn_rate = 0.35\n"},
		{"choice.DE", "refuse", "[choice.DE]\nform = \"refuse\"\n"},
	} {
		q := url.Values{"base": {whatIfDefaultBase}, c.field: {c.value}}
		w, err := whatIfQuery(en, q)
		if err != nil {
			t.Fatalf("%s=%s: %v", c.field, c.value, err)
		}
		src := string(w.TOML())
		if !strings.Contains(src, c.want) || strings.Count(src, "[") != 1 {
			t.Errorf("%s=%s writes\n%s\nwant only\n%s", c.field, c.value, src, c.want)
		}
	}
}

// TestWhatIfNumberLocale: a number typed as the page prints it in the reader's
// language means what it says: "21.000" in German is twenty-one thousand, not 21
// (which it was), "30 000" in French, "1,000" in English; a decimal comma or point
// alone is a decimal mark.
func TestWhatIfNumberLocale(t *testing.T) {
	for _, tc := range []struct {
		lang, in string
		want     float64
	}{
		{"de", "21.000", 21000}, {"de", "21000", 21000}, {"de", "14,5", 14.5}, {"de", "0.5", 0.5}, {"de", "1.234.567", 1234567},
		{"en", "1,000", 1000}, {"en", "1,000.5", 1000.5}, {"en", "14.5", 14.5}, {"en", "35,5", 35.5},
		{"fr", "30 000", 30000}, {"fr", "30\u00a0000", 30000}, {"fr", "30\u202f000,5", 30000.5}, {"fr", "14,5", 14.5},
		{"it", "1.000", 1000}, {"ro", "1.000", 1000}, {"el", "1.000", 1000},
	} {
		x, err := number(i18n.New(tc.lang), "reference", "Reference number", tc.in, 0, 1e7, 1)
		if err != nil || x != tc.want {
			t.Errorf("%s %q: %v %v, want %v", tc.lang, tc.in, x, err, tc.want)
		}
	}
	for _, in := range []string{"1.000,000.5", "1,2.3", "12 34.5.6"} {
		if x, err := number(i18n.New("de"), "reference", "Reference number", in, 0, 1e7, 1); err == nil {
			t.Errorf("de %q read as %v", in, x)
		}
	}
}

// TestWriteJSONNotFinite: an answer that cannot be encoded is a 500 with an error,
// not a 200 with an empty body (a Dublin IV price of 1e308 made one).
func TestWriteJSONNotFinite(t *testing.T) {
	rec := httptest.NewRecorder()
	writeJSON(rec, 200, map[string]float64{"x": math.Inf(1)})
	if rec.Code != 500 || !strings.Contains(rec.Body.String(), `"code": "internal"`) {
		t.Errorf("%d %q", rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	writeJSON(rec, 201, map[string]int{"x": 1})
	if rec.Code != 201 || !strings.Contains(rec.Body.String(), `"x": 1`) {
		t.Errorf("%d %q", rec.Code, rec.Body.String())
	}
}
