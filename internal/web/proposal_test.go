package web_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// solverIndex matches what the solvers say in indices: "family 0", "place 1",
// "dimension 0", "capacity 0 < need 1".
var solverIndex = regexp.MustCompile(`(?i)\b(family|place|group|dimension) \d+\b|capacity \d+ < need`)

// explanationOf returns the text of the page's explanation paragraph.
func explanationOf(t *testing.T, page string) string {
	t.Helper()
	m := regexp.MustCompile(`(?s)<p id="explanation-text">(.*?)</p>`).FindStringSubmatch(page)
	if m == nil {
		t.Fatalf("no explanation on the page: %.600s", page)
	}
	return m[1]
}

// TestProposalExplanationNamesFamiliesAndPlaces: the explanation of a family speaks
// of its ID and the Member States, never of the solver's indices; its row is marked
// as the one explained and the explanation links to it.
func TestProposalExplanationNamesFamiliesAndPlaces(t *testing.T) {
	f, fam := relocationFixture(t)
	_, page := f.do(req{method: "POST", path: "/relocation/proposal", as: "coord", contentType: "application/x-www-form-urlencoded",
		body: url.Values{"year": {"2027"}, "explain": {string(fam)}}.Encode()})
	text := explanationOf(t, page)
	for _, want := range []string{"Family " + string(fam), "is placed in FR", "The next-best place is DE"} {
		if !strings.Contains(text, want) {
			t.Errorf("explanation %q lacks %q", text, want)
		}
	}
	if solverIndex.MatchString(text) {
		t.Errorf("explanation %q speaks in solver indices", text)
	}
	anchor := "family-" + string(fam)
	row := regexp.MustCompile(`<tr id="` + regexp.QuoteMeta(anchor) + `"[^>]*>`).FindString(page)
	if !strings.Contains(row, `class="explained"`) || !strings.Contains(row, `aria-current="true"`) {
		t.Errorf("the explained row is not marked: %q", row)
	}
	if !strings.Contains(page, `href="#`+anchor+`"`) {
		t.Error("the explanation does not link to the family's row")
	}
	if n := strings.Count(page, `class="explained"`); n != 1 {
		t.Errorf("%d rows marked as explained, want 1", n)
	}
}

// TestProposalForbidCheckboxes: each placement the coordinator may forbid is a
// checkbox (family:state) in the form; ticking France for the family that went
// there and asking again places it elsewhere, with the box still ticked; a box
// with a bad value is refused, naming the field.
func TestProposalForbidCheckboxes(t *testing.T) {
	f, fam := relocationFixture(t)
	post := func(v url.Values) (int, string) {
		res, page := f.do(req{method: "POST", path: "/relocation/proposal", as: "coord", contentType: "application/x-www-form-urlencoded", body: v.Encode()})
		return res.StatusCode, page
	}
	code, page := post(url.Values{"year": {"2027"}})
	box := `name="forbid" value="` + string(fam) + `:FR"`
	if code != 200 || !strings.Contains(page, box) || !strings.Contains(page, `value="`+string(fam)+`:DE"`) {
		t.Fatalf("proposal: %d; no forbid checkboxes for %s", code, fam)
	}
	if !strings.Contains(page, `data-family="`+string(fam)+`" data-state="FR"`) {
		t.Fatalf("the fixture's family is not proposed for France")
	}
	code, page = post(url.Values{"year": {"2027"}, "forbid": {string(fam) + ":FR"}})
	if code != 200 {
		t.Fatalf("forbidden: %d %.400s", code, page)
	}
	if strings.Contains(page, `data-family="`+string(fam)+`" data-state="FR"`) {
		t.Error("the family is still proposed for France, which was forbidden")
	}
	if !strings.Contains(page, box+" checked") {
		t.Error("the forbid box is not ticked on the re-proposal")
	}
	for _, bad := range []string{"no-state", string(fam) + ":XX", ":FR"} {
		if code, page = post(url.Values{"year": {"2027"}, "forbid": {bad}}); code != 400 || !strings.Contains(page, `id="form-error"`) {
			t.Errorf("forbid=%q: %d, want 400 with the form's error", bad, code)
		}
	}
}

// TestProposalInGerman: under Accept-Language: de the proposal page is German
// (lang="de") and its explanation is still there, by family ID (the scores' German
// form: TestExplanationViewGerman).
func TestProposalInGerman(t *testing.T) {
	f, fam := relocationFixture(t)
	_, page := f.do(req{method: "POST", path: "/relocation/proposal", as: "coord", contentType: "application/x-www-form-urlencoded",
		body: url.Values{"year": {"2027"}, "explain": {string(fam)}}.Encode(), header: map[string]string{"Accept-Language": "de"}})
	if !strings.Contains(page, `lang="de"`) {
		t.Fatal("the page is not in German")
	}
	if text := explanationOf(t, page); !strings.Contains(text, string(fam)) || solverIndex.MatchString(text) {
		t.Errorf("German explanation %q", text)
	}
}
