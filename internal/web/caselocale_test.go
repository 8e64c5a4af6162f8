package web_test

import (
	"context"
	"regexp"
	"strings"
	"testing"
)

// TestCasePagesInGerman: under Accept-Language: de the arrivals list, the arrival,
// a case and the deadline view are German pages (lang="de") whose dates are in the
// German form (02.01.2006), with no ISO day left in the page's text; the same pages
// in English keep the ISO form.
func TestCasePagesInGerman(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	a, err := f.store.Arrival(context.Background(), f.arrival)
	if err != nil {
		t.Fatal(err)
	}
	german, iso := a.At.Format("02.01.2006"), a.At.Format("2006-01-02")
	// ISO days in the text between tags, not in attributes or links.
	isoText := regexp.MustCompile(`>[^<]*\b\d{4}-\d{2}-\d{2}\b[^<]*<`)
	for _, path := range []string{"/arrivals", "/arrivals/" + string(f.arrival), "/cases/" + string(f.caseIDs[0])} {
		_, de := f.do(req{method: "GET", path: path, as: "coord", header: map[string]string{"Accept-Language": "de"}})
		if !strings.Contains(de, `lang="de"`) || !strings.Contains(de, german) {
			t.Errorf("%s in German: lang or the date %s missing", path, german)
		}
		if m := isoText.FindString(de[strings.Index(de, "<main"):]); m != "" && !strings.Contains(m, "/api/") {
			t.Errorf("%s in German shows an ISO day: %q", path, m)
		}
		_, en := f.do(req{method: "GET", path: path, as: "coord"})
		if !strings.Contains(en, iso) {
			t.Errorf("%s in English lacks the date %s", path, iso)
		}
	}
	_, de := f.do(req{method: "GET", path: "/deadlines?within=30d", as: "coord", header: map[string]string{"Accept-Language": "de"}})
	if !regexp.MustCompile(`<td class="date">\d{2}\.\d{2}\.\d{4}`).MatchString(de) {
		t.Error("the deadline view in German has no German last day")
	}
}
