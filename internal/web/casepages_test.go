package web_test

import (
	"encoding/csv"
	"html"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// deadlineRowRE reads a row of the deadline view: case, state, limit title, due, when.
var deadlineRowRE = regexp.MustCompile(`<tr data-case="(C-[0-9A-Z]+)"[^>]*><td class="id"><a [^>]*>[^<]*</a></td><td [^>]*>([A-Z_]+)</td><td>([^<]*)</td><td class="date">([^<]*)</td><td class="when">([^<]*)</td>`)

func deadlineRows(t *testing.T, f *fixture, path, as string) [][]string {
	t.Helper()
	res, body := f.do(req{method: "GET", path: path, as: as})
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %d %.500s", path, res.StatusCode, body)
	}
	var rows [][]string
	for _, m := range deadlineRowRE.FindAllStringSubmatch(body, -1) {
		row := m[1:]
		for i := range row {
			row[i] = html.UnescapeString(row[i])
		}
		rows = append(rows, row)
	}
	return rows
}

// The deadline view counts its rows, says how far each limit is overdue, sorts by
// the column of ?sort= and offers the same rows as CSV.
func TestDeadlinesPage(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	_, body := f.do(req{method: "GET", path: "/deadlines?within=30d", as: "coord"})
	rows := deadlineRows(t, f, "/deadlines?within=30d", "coord")
	if len(rows) == 0 {
		t.Fatalf("no rows: %.3000s", body)
	}
	overdue := strings.Count(body, `class="overdue"><td class="id">`)
	want := strconv.Itoa(len(rows)) + " time limits: " + strconv.Itoa(overdue) + " overdue"
	if !strings.Contains(body, `<p id="deadlines-count" role="status">`+want+`</p>`) {
		t.Errorf("no count %q", want)
	}
	// The single person's screening (Art. 8(3) SR) ended on 27 February; the clock
	// is on 1 March.
	single := string(f.caseIDs[2])
	found := false
	for _, r := range rows {
		if r[0] == single && r[2] == "Finish the screening at the external border" {
			found = true
			if r[3] != "2027-02-27" || r[4] != "2 days overdue" {
				t.Errorf("screening of %s: due %q, %q; want 2027-02-27, 2 days overdue", single, r[3], r[4])
			}
		}
	}
	if !found {
		t.Errorf("no screening limit of %s in %v", single, rows)
	}
	if !strings.Contains(body, `aria-sort="ascending"><a href="/deadlines?sort=due&amp;within=30d">Due</a>`) {
		t.Error("the Due column is not marked as the current sort")
	}

	for _, c := range []struct {
		sort string
		col  int
	}{{"case", 0}, {"limit", 2}, {"state", 1}} {
		path := "/deadlines?within=30d&sort=" + c.sort
		sorted := deadlineRows(t, f, path, "coord")
		if len(sorted) != len(rows) {
			t.Errorf("%s: %d rows, want %d", path, len(sorted), len(rows))
		}
		// Overdue rows come first, each table sorted.
		keys := []string{}
		for _, r := range sorted {
			keys = append(keys, r[c.col])
		}
		if !slices.IsSorted(keys) {
			t.Errorf("%s: column %d not sorted: %v", path, c.col, keys)
		}
		_, page := f.do(req{method: "GET", path: path, as: "coord"})
		if !strings.Contains(page, `aria-sort="ascending"><a href="/deadlines?sort=`+c.sort+`&amp;within=30d">`) {
			t.Errorf("%s: the current column is not marked", path)
		}
		// The CSV has the page's rows in the page's order.
		res, text := f.do(req{method: "GET", path: strings.Replace(path, "/deadlines?", "/deadlines.csv?", 1), as: "coord"})
		if res.StatusCode != 200 || res.Header.Get("Content-Type") != "text/csv; charset=utf-8" {
			t.Fatalf("CSV: %d %q", res.StatusCode, res.Header.Get("Content-Type"))
		}
		recs, err := csv.NewReader(strings.NewReader(text)).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(recs) != len(sorted)+1 || recs[0][0] != "case" {
			t.Fatalf("CSV %s: %d records for %d rows", c.sort, len(recs), len(sorted))
		}
		for i, r := range sorted {
			got := recs[i+1]
			if w := []string{got[0], got[3], got[5], got[6], got[7]}; !slices.Equal(w, r) {
				t.Errorf("CSV %s row %d: %v, page %v", c.sort, i, w, r)
			}
		}
	}
	if res, _ := f.do(req{method: "GET", path: "/deadlines?sort=nonsense", as: "coord"}); res.StatusCode != 400 {
		t.Errorf("unknown sort: %d, want 400", res.StatusCode)
	}
	// The CSV keeps the roles: a state's officer sees no more rows there than on the page.
	fr := deadlineRows(t, f, "/deadlines?within=30d", "fr")
	if _, text := f.do(req{method: "GET", path: "/deadlines.csv?within=30d", as: "fr"}); strings.Count(text, "\n") != len(fr)+1 {
		t.Errorf("CSV as fr: %q, page has %d rows", text, len(fr))
	}
}

// The arrival page shows its cases in one table with a family column, filtered by
// the query; the counts by state link to their filter.
func TestArrivalPage(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	arr := "/arrivals/" + string(f.arrival)
	res, body := f.do(req{method: "GET", path: arr, as: "coord"})
	if res.StatusCode != 200 {
		t.Fatalf("%s: %d", arr, res.StatusCode)
	}
	// Three tables: the funnel's, the counts and the cases (no relocation yet).
	if n, c := strings.Count(body, "<table"), strings.Count(body, `<table id="cases">`); n != 3 || c != 1 {
		t.Fatalf("%d tables, %d of cases; want the funnel's, the counts and one table of cases", n, c)
	}
	if !strings.Contains(body, `<th scope="col">Family</th>`) {
		t.Error("no family column")
	}
	rowRE := regexp.MustCompile(`<tr data-case="(C-[0-9A-Z]+)"[^>]*><td class="family"><code>(F-[0-9A-Z]+)</code></td><td class="id"><a [^>]*>[^<]*</a></td><td title="([A-Z_]+)">`)
	rows := rowRE.FindAllStringSubmatch(body, -1)
	if len(rows) != 3 {
		t.Fatalf("%d case rows with a family, want 3", len(rows))
	}
	families := map[string]int{}
	for _, r := range rows {
		families[r[2]]++
	}
	if len(families) != 2 { // K1 of two, and the single person
		t.Errorf("families %v: want one of two and one of one", families)
	}
	if !strings.Contains(body, `<p id="cases-shown" role="status">3 of 3 cases</p>`) {
		t.Error("no count of the cases shown")
	}
	// The count of a state links to its filter, which shows only that state.
	link := `<a href="` + arr + `?state=RELOCATION_IDENTIFIED">2</a>`
	if !strings.Contains(body, link) {
		t.Errorf("no link %s", link)
	}
	_, body = f.do(req{method: "GET", path: arr + "?state=RELOCATION_IDENTIFIED", as: "coord"})
	rows = rowRE.FindAllStringSubmatch(body, -1)
	if len(rows) != 2 {
		t.Fatalf("state filter: %d rows, want the 2 of K1", len(rows))
	}
	for _, r := range rows {
		if r[3] != "RELOCATION_IDENTIFIED" {
			t.Errorf("state filter shows %s in %s", r[1], r[3])
		}
	}
	if !strings.Contains(body, `<a href="`+arr+`?state=RELOCATION_IDENTIFIED" aria-current="true">2</a>`) {
		t.Error("the current state filter is not marked")
	}
	if !strings.Contains(body, `<p id="cases-shown" role="status">2 of 3 cases (filtered)</p>`) {
		t.Error("no filtered count")
	}
	// Overdue only: every case of the fixture has a limit overdue on 1 March.
	_, body = f.do(req{method: "GET", path: arr + "?overdue=1", as: "coord"})
	if n := len(rowRE.FindAllStringSubmatch(body, -1)); n != strings.Count(body, `class="overdue"><td class="family">`) || n == 0 {
		t.Errorf("overdue filter: %d rows, not all overdue", n)
	}
	// Allocation: no case is allocated yet.
	if _, body = f.do(req{method: "GET", path: arr + "?allocated=DE", as: "coord"}); !strings.Contains(body, `id="no-cases"`) {
		t.Error("allocated=DE shows cases")
	}
	if _, body = f.do(req{method: "GET", path: arr + "?allocated=none", as: "coord"}); len(rowRE.FindAllStringSubmatch(body, -1)) != 3 {
		t.Error("allocated=none does not show the 3 unallocated cases")
	}
	for _, q := range []string{"?state=NOPE", "?allocated=XX"} {
		if res, _ := f.do(req{method: "GET", path: arr + q, as: "coord"}); res.StatusCode != 400 {
			t.Errorf("%s: %d, want 400", q, res.StatusCode)
		}
	}
	// The arrivals list shows the arrival's ID.
	_, body = f.do(req{method: "GET", path: "/arrivals", as: "coord"})
	if !strings.Contains(body, `<th scope="col">Arrival</th>`) || !strings.Contains(body, `<tr data-arrival="`+string(f.arrival)+`"><td class="id"><code>`+string(f.arrival)+`</code></td>`) {
		t.Error("the arrivals list does not show the arrival ID")
	}
}
