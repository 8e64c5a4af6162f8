package web_test

import (
	"regexp"
	"solidarity"
	"strconv"
	"strings"
	"testing"
)

// TestBenefittingStatePage: Italy's page says what it receives — its arrivals, the
// relocations out of it by state of relocation (in flight once allocated), its
// offsets — to those who may read cases, and why not to the others; "none recorded"
// when there is nothing.
func TestBenefittingStatePage(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	page := "/pool/2027/states/IT"
	_, body := f.do(req{method: "GET", path: page, as: "coord"})
	if !strings.Contains(body, `id="receipts"`) || !strings.Contains(body, `id="arrivals-summary">Arrivals in 2027: 1, with 3 persons.`) {
		t.Fatalf("no arrivals on IT's page: %s", body)
	}
	if !strings.Contains(body, `id="relocations-none"`) {
		t.Errorf("before any allocation the page does not say none")
	}
	// The offset IT asked of DE (fixture setup) is listed.
	if !regexp.MustCompile(`(?s)<table id="offsets-table">.*offset.requested`).MatchString(body) {
		t.Errorf("IT's offset request missing")
	}
	if res, b := f.do(req{method: "POST", path: "/api/v1/cases/" + string(f.caseIDs[0]) + "/allocation", as: "coord", body: `{"state":"FR"}`}); res.StatusCode != 201 {
		t.Fatalf("allocation: %d %s", res.StatusCode, b)
	}
	for _, as := range []string{"coord", "it", "audit"} {
		_, body = f.do(req{method: "GET", path: page, as: as})
		row := regexp.MustCompile(`<tr data-state="FR"><th scope="row"><a href="[^"]+">FR</a></th><td>(\d+)</td><td>(\d+)</td></tr>`).FindStringSubmatch(body)
		if row == nil || row[1] == "0" || row[2] != "0" {
			t.Errorf("as %s: relocations to FR %v, want in flight > 0 and none transferred", as, row)
		}
	}
	// The public and another state's officer are told why, not shown zeros.
	for _, as := range []string{"", "fr"} {
		_, body = f.do(req{method: "GET", path: page, as: as})
		if !strings.Contains(body, `id="receipts-msg"`) || strings.Contains(body, `id="relocations-out"`) {
			t.Errorf("as %q: the case figures are shown or their absence is not explained", as)
		}
	}
	if strings.Contains(body, "%!") {
		t.Errorf("a format error on the page")
	}
	// A state that is not benefitting has no such section.
	_, body = f.do(req{method: "GET", path: "/pool/2027/states/DE", as: "coord"})
	if strings.Contains(body, `id="receipts"`) {
		t.Errorf("DE's page has a benefitting section")
	}
	// Charts with their tables: the pace and pledged-against-delivered.
	for _, want := range []string{`<svg id="pace-chart"`, `aria-labelledby="pace-chart-title pace-chart-desc"`, `id="pace-table"`, `<svg id="delivered-chart"`, `id="over-time-data"`} {
		if !strings.Contains(body, want) {
			t.Errorf("DE's page lacks %s", want)
		}
	}
}

// TestLiveDashboardSortAndLocale: with the ledger's balances the live columns sort
// too, and the German page writes the ledger's figures the German way.
func TestLiveDashboardSortAndLocale(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	for _, key := range []string{"delivered", "outstanding", "pace", "pledged", "coverage"} {
		res, body := f.do(req{method: "GET", path: "/pool/2027?sort=" + key + "&dir=desc"})
		if res.StatusCode != 200 || !strings.Contains(body, `class="col-`+key+`" aria-sort="descending"`) {
			t.Errorf("sort=%s: %d", key, res.StatusCode)
		}
	}
	// Outstanding, descending: the figures do not increase down the table.
	_, body := f.do(req{method: "GET", path: "/pool/2027?sort=outstanding&dir=desc"})
	var prev float64 = -1
	for _, m := range regexp.MustCompile(`<td class="outstanding">([0-9,.]+)</td>`).FindAllStringSubmatch(body, -1) {
		v, err := strconv.ParseFloat(strings.ReplaceAll(m[1], ",", ""), 64)
		if err != nil {
			t.Fatal(err)
		}
		if prev >= 0 && v > prev {
			t.Errorf("outstanding %v after %v", v, prev)
		}
		prev = v
	}
	if prev < 0 {
		t.Fatal("no outstanding figures")
	}
	_, de := f.do(req{method: "GET", path: "/pool/2027", header: map[string]string{"Accept-Language": "de"}})
	// FR pledged 15000 relocations: 15.000 in German.
	if !regexp.MustCompile(`<tr data-state="FR"[\s\S]*?<td class="pledged">15\.000</td>`).MatchString(de) {
		t.Errorf("FR's pledge is not written the German way")
	}
}

// TestDeliveredOverTime: a relocation delivery shows in the state's chart and, with
// its day and running sum, in the table beside it.
func TestDeliveredOverTime(t *testing.T) {
	f := newFixture(t, fixtureOpts{setup: true})
	_, body := f.do(req{method: "GET", path: "/pool/2027/states/FR"})
	if !strings.Contains(body, `<svg id="delivered-chart"`) || strings.Contains(body, `id="days-table"`) {
		t.Fatalf("before any delivery: chart missing or a table of days shown")
	}
	for _, n := range []int64{7, 5} {
		if _, _, err := f.svc.Deliver(system(), 2027, "FR", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: n}, ""); err != nil {
			t.Fatal(err)
		}
	}
	_, body = f.do(req{method: "GET", path: "/pool/2027/states/FR"})
	row := regexp.MustCompile(`<tr><td>(\d{4}-\d{2}-\d{2})</td><td>(\d+)</td><td>(\d+)</td></tr>`).FindAllStringSubmatch(body, -1)
	if len(row) != 1 || row[0][2] != "12" || row[0][3] != "12" {
		t.Errorf("days table: %v, want one day with 12 delivered", row)
	}
	if !strings.Contains(body, `relocations delivered`) || strings.Contains(body, "NaN") {
		t.Errorf("chart has no delivered series or a NaN")
	}
}
