package web_test

import (
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func getLang(t *testing.T, h http.Handler, target, lang string) (int, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("GET", target, nil)
	if lang != "" {
		r.Header.Set("Accept-Language", lang)
	}
	h.ServeHTTP(rec, r)
	return rec.Code, rec.Body.String()
}

var rowState = regexp.MustCompile(`<tr data-state="([A-Z]{2})"`)

// fairShares reads the Fair share column of the dashboard's rows, in order.
func fairShares(t *testing.T, body string) []int64 {
	t.Helper()
	var out []int64
	for _, m := range regexp.MustCompile(`<td class="fair">([0-9,]+)</td>`).FindAllStringSubmatch(body, -1) {
		n, err := strconv.ParseInt(strings.ReplaceAll(m[1], ",", ""), 10, 64)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, n)
	}
	return out
}

func TestDashboardSort(t *testing.T) {
	s := mustServer(t)
	for _, dir := range []string{"asc", "desc"} {
		code, body := getLang(t, s, "/pool/2026?sort=fair&dir="+dir, "")
		if code != 200 {
			t.Fatalf("%s: %d", dir, code)
		}
		fs := fairShares(t, body)
		if len(fs) < 20 {
			t.Fatalf("%d rows", len(fs))
		}
		for i := 1; i < len(fs); i++ {
			if (dir == "asc" && fs[i] < fs[i-1]) || (dir == "desc" && fs[i] > fs[i-1]) {
				t.Fatalf("%s: row %d has %d after %d", dir, i, fs[i], fs[i-1])
			}
		}
		want := map[string]string{"asc": "ascending", "desc": "descending"}[dir]
		if !regexp.MustCompile(`<th scope="col" class="col-fair" aria-sort="` + want + `"`).MatchString(body) {
			t.Errorf("%s: the Fair share header has no aria-sort=%s", dir, want)
		}
		// The header links keep the other view parameters.
		if !regexp.MustCompile(`class="col-share"[^>]*><a href="/pool/2026\?dir=asc&amp;method=[a-z-]+&amp;mode=share&amp;sort=share`).MatchString(body) {
			t.Errorf("header links lose the view")
		}
	}
	_, body := getLang(t, s, "/pool/2026?sort=state&dir=desc&mode=coverage", "")
	rows := rowState.FindAllStringSubmatch(body, -1)
	if len(rows) < 2 {
		t.Fatal("no rows")
	}
	if !regexp.MustCompile(`href="[^"]*mode=coverage[^"]*sort=share`).MatchString(body) {
		t.Errorf("a sort link drops mode=coverage")
	}
	if m := regexp.MustCompile(`id="csv-link" href="([^"]+)"`).FindStringSubmatch(body); m == nil || strings.Contains(m[1], "sort=") || !strings.Contains(m[1], "mode=coverage") {
		t.Errorf("the CSV link is not the view's data: %v", m)
	}
	if !strings.Contains(body, `name="sort" value="state"`) || !strings.Contains(body, `name="mode" value="coverage"`) {
		t.Errorf("the as-of form does not keep the view")
	}
}

func TestDashboardBadSort(t *testing.T) {
	s := mustServer(t)
	for _, q := range []string{"sort=nope", "sort=fair&dir=up", "dir=sideways"} {
		if code, _ := getLang(t, s, "/pool/2026?"+q, ""); code != http.StatusBadRequest {
			t.Errorf("%s: %d, want 400", q, code)
		}
	}
}

func TestDashboardLinksAndForm(t *testing.T) {
	s := mustServer(t)
	_, body := getLang(t, s, "/pool/2026?as_of=2026-03-01", "")
	for _, want := range []string{
		`id="csv-link" href="/pool/2026.csv?`, `id="json-link" href="/api/v1/cycles/2026/pool?`,
		`<form id="as-of-form"`, `<input type="date" id="as-of" name="as_of" value="2026-03-01">`,
		`id="status-legend"`, `Art. 11(a)`, `<caption id="pool-table-caption">`,
		`<a href="https://`, // sources are links
		`id="pledge-types-chart"`, `id="pledge-types-table"`,
	} {
		if !strings.Contains(body, want) {
			t.Errorf("dashboard lacks %s", want)
		}
	}
	// The map holds links: it is a group, not an image (axe nested-interactive).
	if m := regexp.MustCompile(`<svg id="map"[^>]*>`).FindString(body); strings.Contains(m, `role="img"`) || !strings.Contains(m, `role="group"`) {
		t.Errorf("map svg: %s", m)
	}
	if !regexp.MustCompile(`<a href="/pool/2026/states/[A-Z]{2}\?[^"]*" aria-label="[^"]+: `).MatchString(body) {
		t.Errorf("map links have no accessible name with the figure")
	}
	// Adjacent legend classes differ by pattern as well as colour.
	if !strings.Contains(body, `<pattern id="class-share-1"`) || !strings.Contains(body, `stroke-opacity=".35"`) {
		t.Errorf("legend classes are not patterned")
	}
	code, csv := getLang(t, s, "/pool/2026.csv", "")
	if code != 200 || !strings.HasPrefix(csv, "state") && !strings.Contains(csv, "DE") {
		t.Errorf("csv: %d %.80q", code, csv)
	}
}

// TestDashboardGermanNumbers: under Accept-Language: de the figures use German digit
// groups and decimal commas, and no English-formatted figure is left.
func TestDashboardGermanNumbers(t *testing.T) {
	s := mustServer(t)
	_, en := getLang(t, s, "/pool/2026", "en")
	_, de := getLang(t, s, "/pool/2026", "de")
	if !strings.Contains(de, `lang="de"`) {
		t.Fatal("no lang=de")
	}
	fairEN := regexp.MustCompile(`<td id="fair-total">([^<]+)</td>`).FindStringSubmatch(en)
	fairDE := regexp.MustCompile(`<td id="fair-total">([^<]+)</td>`).FindStringSubmatch(de)
	if fairEN == nil || fairDE == nil {
		t.Fatal("no fair-share total")
	}
	if strings.ReplaceAll(fairEN[1], ",", ".") != fairDE[1] || !strings.Contains(fairDE[1], ".") {
		t.Errorf("fair total en %q de %q", fairEN[1], fairDE[1])
	}
	// Every cell of the table: no figure with an English thousands comma or decimal point.
	tbl := de[strings.Index(de, `<table id="pool-table">`):strings.Index(de, `</table>`)]
	if m := regexp.MustCompile(`<td[^>]*>\d{1,3}(,\d{3})+(\.\d+)?<|<td[^>]*>\d+\.\d{1,2}<`).FindString(tbl); m != "" {
		t.Errorf("English number in German table: %s", m)
	}
	if !regexp.MustCompile(`<td>\d+,\d{4}</td>`).MatchString(tbl) {
		t.Errorf("no German decimal comma in the share column")
	}
}

// TestOneNumberFormat: the table never shows a figure with two zero decimals beside
// grouped integers (the "4558.00" beside "4,558").
func TestOneNumberFormat(t *testing.T) {
	s := mustServer(t)
	_, body := getLang(t, s, "/pool/2026", "")
	tbl := body[strings.Index(body, `<table id="pool-table">`):strings.Index(body, `</table>`)]
	if m := regexp.MustCompile(`>\d{4,}(\.\d+)?<`).FindString(tbl); m != "" {
		t.Errorf("ungrouped figure %s", m)
	}
	if m := regexp.MustCompile(`>[\d,]+\.00<`).FindString(tbl); m != "" {
		t.Errorf("whole number with .00: %s", m)
	}
}

// TestNoFormatErrors: no page of the dashboard or a state shows a message whose
// percent sign was read as a verb ("%!(NOVERB)").
func TestNoFormatErrors(t *testing.T) {
	s := mustServer(t)
	for _, p := range []string{"/pool/2026", "/pool/2026?mode=coverage", "/pool/2026?mode=pledge", "/pool/2026?sort=share&dir=desc",
		"/pool/2026/states/IT", "/pool/2026/states/DE", "/pool/2027"} {
		for _, lang := range []string{"en", "de"} {
			code, body := getLang(t, s, p, lang)
			if code != 200 {
				t.Errorf("%s: %d", p, code)
			}
			if i := strings.Index(body, "%!"); i >= 0 {
				t.Errorf("%s (%s): format error %q", p, lang, body[max(0, i-60):min(len(body), i+20)])
			}
		}
	}
}
