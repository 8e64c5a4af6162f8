package web_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"solidarity/internal/catalog"
	"solidarity/internal/scenariofile"
	"solidarity/internal/web"
	"solidarity/simulation"
)

// whatIfBase is the base scenario the tests change, as the page opens on it.
const whatIfBase = "cycle-2026"

// shippedScenario parses a shipped scenario as the page does.
func shippedScenario(t testing.TB, name string) *simulation.Scenario {
	t.Helper()
	src, err := scenariofile.ShippedSource(name)
	if err != nil {
		t.Fatal(err)
	}
	s, err := scenariofile.Parse(name, src, nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// csvTable fetches one table of the What-if downloads and parses it.
func csvTable(t testing.TB, h http.Handler, query string) ([]string, [][]string) {
	t.Helper()
	res, body := get(t, h, "/whatif.csv?"+query)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: status %d: %s", query, res.StatusCode, body)
	}
	rows, err := csv.NewReader(strings.NewReader(body)).ReadAll()
	if err != nil {
		t.Fatalf("%s: not CSV: %v", query, err)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: empty CSV", query)
	}
	return rows[0], rows[1:]
}

func column(t testing.TB, header []string, name string) int {
	t.Helper()
	i := slices.Index(header, name)
	if i < 0 {
		t.Fatalf("no column %q in %q", name, header)
	}
	return i
}

// relocators are four states that relocate in the base and owe something: the states
// the what-if switches to payment.
func relocators(t testing.TB, h http.Handler) []string {
	t.Helper()
	head, rows := csvTable(t, h, "base="+whatIfBase+"&runs=0&table=states&side=a")
	st, form, ob, be := column(t, head, "state"), column(t, head, "form"), column(t, head, "obligation"), column(t, head, "benefitting")
	var out []string
	for _, r := range rows {
		o, _ := strconv.ParseFloat(r[ob], 64)
		if r[form] == "relocate" && o > 0 && r[be] == "false" {
			out = append(out, r[st])
		}
	}
	if len(out) < 4 {
		t.Fatalf("only %d relocating states with an obligation in %s: %q", len(out), whatIfBase, out)
	}
	return out[:4]
}

func payQuery(states []string, runs int) string {
	q := url.Values{"base": {whatIfBase}, "runs": {strconv.Itoa(runs)}, "seed": {"1"}}
	for _, s := range states {
		q.Set("choice."+s, "pay")
	}
	return q.Encode()
}

// TestWhatIfForm: the page opens on the form: every shipped scenario to start from,
// and a choice for every state of the base, set to the base's; nothing is computed
// until a field is sent.
func TestWhatIfForm(t *testing.T) {
	s := mustServer(t)
	res, body := get(t, s, "/whatif")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, in := range scenariofile.Shipped() {
		if !strings.Contains(body, `<option value="`+in.Name+`"`) {
			t.Errorf("no option for the shipped scenario %s", in.Name)
		}
	}
	base := shippedScenario(t, whatIfBase)
	for _, c := range base.Participating {
		m := regexp.MustCompile(`<select id="choice-` + string(c) + `" name="choice\.` + string(c) + `"[^>]*>.*?</select>`).FindString(body)
		if m == "" {
			t.Errorf("no choice for %s", c)
			continue
		}
		ch, ok := base.Choices[c]
		if !ok {
			ch = base.DefaultChoice
		}
		if want := ch.Form(); want != "mixed" && !strings.Contains(m, `value="`+want+`" selected`) {
			t.Errorf("%s: the base's choice %q is not selected: %s", c, want, m)
		}
		if !strings.Contains(body, `<label class="visually-hidden" for="choice-`+string(c)+`">`) {
			t.Errorf("%s: the choice has no label", c)
		}
	}
	for _, id := range []string{"reference", "arrivals_scale", "offsets_at_transfer_ratio", "dublin_transfer_ratio", "return_rate", "runs", "seed"} {
		if !strings.Contains(body, `<label for="`+id+`">`) || !strings.Contains(body, `id="`+id+`" name="`+id+`"`) {
			t.Errorf("no labelled field %s", id)
		}
	}
	if strings.Contains(body, `id="results"`) {
		t.Error("the form alone shows results")
	}
	if !strings.Contains(body, `<a id="nav-whatif" href="/whatif">`) {
		t.Error("the layout does not link the page")
	}
}

// TestWhatIfFourStatesPay: four relocating states switch to payment. B's payments
// rise and its coverage over the months changes; A is the base as shipped, whatever B
// changes.
func TestWhatIfFourStatesPay(t *testing.T) {
	s := mustServer(t)
	four := relocators(t, s)
	q := payQuery(four, 200)
	res, body := get(t, s, "/whatif?"+q)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %.500s", res.StatusCode, body)
	}
	for _, id := range []string{`id="results"`, `id="union-table"`, `id="states-table"`, `id="whatif-states-chart"`, `id="whatif-coverage-chart"`, `id="whatif-frontier-chart"`, `id="toml-link"`} {
		if !strings.Contains(body, id) {
			t.Errorf("the page lacks %s", id)
		}
	}
	for _, c := range four {
		row := regexp.MustCompile(`(?s)<tr data-state="` + c + `" class="changed">.*?</tr>`).FindString(body)
		if !strings.Contains(row, `<td class="form-b">Financial contribution</td>`) {
			t.Errorf("%s is not shown paying in B: %s", c, row)
		}
	}

	union := func(side, query string) map[string]float64 {
		head, rows := csvTable(t, s, query+"&table=union&side="+side)
		m, med := column(t, head, "metric"), column(t, head, "median")
		out := map[string]float64{}
		for _, r := range rows {
			out[r[m]], _ = strconv.ParseFloat(r[med], 64)
		}
		return out
	}
	ua, ub := union("a", q), union("b", q)
	if !(ub["payments_eur"] > ua["payments_eur"]) {
		t.Errorf("payments: B %v, A %v; want B's higher", ub["payments_eur"], ua["payments_eur"])
	}
	if !(ub["relocations"] < ua["relocations"]) {
		t.Errorf("relocations: B %v, A %v; want B's lower", ub["relocations"], ua["relocations"])
	}
	// A payment covers the pool but gives no one a place (Art. 64).
	if !(ub["place_coverage"] < ua["place_coverage"]) {
		t.Errorf("place coverage: B %v, A %v; want B's lower", ub["place_coverage"], ua["place_coverage"])
	}
	unchanged := "base=" + whatIfBase + "&runs=200&seed=1"
	months := func(query, side string) []string {
		head, rows := csvTable(t, s, query+"&table=months&side="+side)
		c := column(t, head, "coverage")
		var out []string
		for _, r := range rows {
			out = append(out, r[c])
		}
		return out
	}
	a, b, base := months(q, "a"), months(q, "b"), months(unchanged, "a")
	if !slices.Equal(a, base) {
		t.Errorf("A's coverage moved with B's changes:\n%q\n%q", a, base)
	}
	if slices.Equal(a, b) {
		t.Errorf("B's coverage is A's: %q", b)
	}
	if !slices.Equal(months(unchanged, "b"), base) {
		t.Error("B without changes is not A")
	}
}

// TestWhatIfCSV: every table of either side, and the comparison, downloads as CSV
// that encoding/csv reads; the per-state tables have a state column.
func TestWhatIfCSV(t *testing.T) {
	s := mustServer(t)
	q := payQuery(relocators(t, s), 50)
	for _, side := range []string{"a", "b"} {
		for _, name := range simulation.TableNames {
			if name == "replay" || name == "compared" {
				continue // a replay's only
			}
			res, body := get(t, s, "/whatif.csv?"+q+"&table="+name+"&side="+side)
			if res.StatusCode != http.StatusOK {
				t.Fatalf("%s %s: status %d: %s", side, name, res.StatusCode, body)
			}
			if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="whatif-`+whatIfBase+"-"+side+"-"+name+`.csv"` {
				t.Errorf("%s %s: Content-Disposition %q", side, name, cd)
			}
			if _, err := csv.NewReader(strings.NewReader(body)).ReadAll(); err != nil {
				t.Errorf("%s %s: %v", side, name, err)
			}
		}
	}
	for _, name := range []string{"states", "frontier"} {
		head, rows := csvTable(t, s, q+"&table="+name+"&side=b")
		st := column(t, head, "state")
		if len(rows) == 0 || rows[0][st] == "" {
			t.Errorf("%s: no state in the first row", name)
		}
	}
	head, rows := csvTable(t, s, q+"&table=compare-states&side=compare")
	column(t, head, "state")
	column(t, head, "b_form")
	if len(rows) < 20 {
		t.Errorf("compare-states: %d rows", len(rows))
	}
	for _, c := range []struct{ query, field string }{
		{q + "&table=nonesuch&side=a", "table"},
		{q + "&table=states&side=c", "side"},
		{q + "&table=states&side=a&runs=5000", "runs"},
	} {
		res, body := get(t, s, "/whatif.csv?"+c.query)
		if e := apiErr(t, body); res.StatusCode != http.StatusBadRequest || e.Field != c.field {
			t.Errorf("%s: %d %s, want 400 naming %s", c.query, res.StatusCode, body, c.field)
		}
	}
}

// TestWhatIfTOML: the scenario file of B is what the page ran: it parses as a
// scenario file on its own, and running it with its own runs and seed gives B's
// coverage month by month.
func TestWhatIfTOML(t *testing.T) {
	s := mustServer(t)
	four := relocators(t, s)
	q := payQuery(four, 100) + "&arrivals_scale=150&return_rate=35"
	res, body := get(t, s, "/whatif.toml?"+q)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d: %s", res.StatusCode, body)
	}
	if cd := res.Header.Get("Content-Disposition"); cd != `attachment; filename="whatif-`+whatIfBase+`.toml"` {
		t.Errorf("Content-Disposition %q", cd)
	}
	for _, want := range append([]string{`base = "` + whatIfBase + `"`, "runs = 100", "seed = 1", "arrivals_scale = 1.5", "return_rate = 0.35"}, func() []string {
		var out []string
		for _, c := range four {
			out = append(out, "[choice."+c+"]\nform = \"pay\"")
		}
		return out
	}()...) {
		if !strings.Contains(body, want) {
			t.Errorf("the file lacks %q:\n%s", want, body)
		}
	}
	// Only what changed: no key for what the form left as the base has it.
	if strings.Contains(body, "reference") || strings.Contains(body, "offsets_at_transfer_ratio") {
		t.Errorf("the file names keys the form did not change:\n%s", body)
	}
	sc, err := scenariofile.Parse("whatif.toml", []byte(body), nil)
	if err != nil {
		t.Fatalf("the downloaded file does not parse: %v\n%s", err, body)
	}
	r, err := simulation.Run(context.Background(), sc, sc.Runs, sc.Seed)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := r.Table("months")
	head, rows := csvTable(t, s, q+"&table=months&side=b")
	if !slices.Equal(got.Header, head) || len(got.Rows) != len(rows) {
		t.Fatalf("months: %q × %d from the file, %q × %d on the page", got.Header, len(got.Rows), head, len(rows))
	}
	for i := range rows {
		if !slices.Equal(got.Rows[i], rows[i]) {
			t.Errorf("month %d: the file gives %q, the page %q", i, got.Rows[i], rows[i])
		}
	}
}

// TestWhatIfBadInput: a field out of bounds gets the form again, naming the field,
// with 400 and no figure at all.
func TestWhatIfBadInput(t *testing.T) {
	s := mustServer(t)
	for _, c := range []struct{ query, field string }{
		{"runs=5000", "runs"},
		{"runs=2.5", "runs"},
		{"arrivals_scale=-3", "arrivals_scale"},
		{"arrivals_scale=NaN", "arrivals_scale"},
		{"return_rate=120", "return_rate"},
		{"dublin_transfer_ratio=x", "dublin_transfer_ratio"},
		{"reference=0", "reference"},
		{"reference=30000.5", "reference"},
		{"seed=0", "seed"},
		{"seed=-1", "seed"},
		{"choice.XX=pay", "choice.XX"},
		{"choice.DK=pay", "choice.DK"}, // Denmark is not bound by Part IV
		{"choice.DE=share", "choice.DE"},
		{"offsets_at_transfer_ratio=maybe", "offsets_at_transfer_ratio"},
		{"arrival_scale=150", "arrival_scale"}, // misspelt: refused, not ignored
		{"base=no-such-scenario&runs=10", "base"},
		{"base=/etc/passwd", "base"},
	} {
		t.Run(c.query, func(t *testing.T) {
			res, body := get(t, s, "/whatif?"+c.query)
			if res.StatusCode != http.StatusBadRequest {
				t.Fatalf("status %d, want 400", res.StatusCode)
			}
			if !strings.Contains(body, `id="form-error" data-error-field="`+c.field+`"`) {
				t.Errorf("the error does not name %s: %s", c.field, regexp.MustCompile(`(?s)<p class="banner error".*?</p>`).FindString(body))
			}
			if !strings.Contains(body, `id="whatif-form"`) {
				t.Error("the form is not shown again")
			}
			for _, half := range []string{`id="results"`, `id="union-table"`, `whatif-coverage-chart`, `id="toml-link"`} {
				if strings.Contains(body, half) {
					t.Errorf("a refused form shows %s", half)
				}
			}
			// A field of the form is marked for assistive technology (one that is
			// not on the form, a misspelt key or another scenario's state, cannot be).
			if strings.Contains(body, `name="`+c.field+`"`) && !regexp.MustCompile(`name="`+regexp.QuoteMeta(c.field)+`"[^>]* aria-invalid="true"`).MatchString(body) {
				t.Errorf("the field %s is not marked invalid", c.field)
			}
		})
	}
	// The downloads refuse the same fields, as the API does (JSON).
	res, body := get(t, s, "/whatif.toml?arrivals_scale=-3")
	if e := apiErr(t, body); res.StatusCode != http.StatusBadRequest || e.Field != "arrivals_scale" {
		t.Errorf("TOML: %d %s", res.StatusCode, body)
	}
}

// post sends a body to the handler.
func post(t testing.TB, h http.Handler, target, contentType, body string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	r := httptest.NewRequest("POST", target, strings.NewReader(body))
	r.Header.Set("Content-Type", contentType)
	h.ServeHTTP(rec, r)
	return rec.Result(), rec.Body.String()
}

// TestSimulationsAPI: POST /api/v1/simulations runs a scenario file sent as JSON or
// as TOML, bounded like every input.
func TestSimulationsAPI(t *testing.T) {
	s := mustServer(t)
	file := "base = \"" + whatIfBase + "\"\n\n[choice.DE]\nform = \"pay\"\n"
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	decode := func(t *testing.T, body string) *simulation.Result {
		t.Helper()
		var r simulation.Result
		if err := json.Unmarshal([]byte(body), &r); err != nil {
			t.Fatalf("%v: %.300s", err, body)
		}
		return &r
	}
	t.Run("json", func(t *testing.T) {
		res, body := post(t, s, "/api/v1/simulations", "application/json", js(map[string]any{"scenario": file, "runs": 20, "seed": 7}))
		if res.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", res.StatusCode, body)
		}
		r := decode(t, body)
		if r.Runs != 20 || r.Seed != 7 || len(r.States) < 20 {
			t.Errorf("runs %d seed %d states %d", r.Runs, r.Seed, len(r.States))
		}
		var raw struct {
			States []map[string]any `json:"states"`
		}
		json.Unmarshal([]byte(body), &raw)
		for _, st := range raw.States {
			if c, _ := st["state"].(string); len(c) != 2 {
				t.Errorf("a state row without its state: %v", st)
			}
		}
	})
	t.Run("toml", func(t *testing.T) {
		res, body := post(t, s, "/api/v1/simulations?runs=0", "application/toml", file)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("status %d: %s", res.StatusCode, body)
		}
		if r := decode(t, body); r.Runs != 0 || r.Seed != 1 {
			t.Errorf("runs %d seed %d, want the expected run and the default seed", r.Runs, r.Seed)
		}
	})
	t.Run("same seed same answer", func(t *testing.T) {
		_, a := post(t, s, "/api/v1/simulations?runs=30&seed=3", "application/toml", file)
		_, b := post(t, s, "/api/v1/simulations", "application/json", js(map[string]any{"scenario": file, "runs": 30, "seed": 3}))
		_, c := post(t, s, "/api/v1/simulations", "application/json", js(map[string]any{"scenario": file, "runs": 30, "seed": 4}))
		ra, rb, rc := decode(t, a), decode(t, b), decode(t, c)
		ra.Scenario, rb.Scenario, rc.Scenario = "", "", "" // the name of the file each came in
		ja, jb, jc := js(ra), js(rb), js(rc)
		if ja != jb {
			t.Error("a TOML and a JSON request of the same file, runs and seed answer differently")
		}
		if ja == jc {
			t.Error("seeds 3 and 4 answer alike")
		}
	})
	for _, c := range []struct {
		name, target, ct, body string
		status                 int
		field                  string
		line                   bool
	}{
		{"unknown key", "/api/v1/simulations", "application/toml", "favourite_colour = \"blue\"\n" + file, 400, "favourite_colour", true},
		{"bad toml in json", "/api/v1/simulations", "application/json", js(map[string]any{"scenario": "base = \"" + whatIfBase + "\"\nfavourite_colour = 1\n"}), 400, "favourite_colour", true},
		{"runs 20000", "/api/v1/simulations", "application/json", js(map[string]any{"scenario": file, "runs": 20000}), 400, "runs", false},
		{"runs -1", "/api/v1/simulations?runs=-1", "application/toml", file, 400, "runs", false},
		{"runs in the query of json", "/api/v1/simulations?runs=5", "application/json", js(map[string]any{"scenario": file}), 400, "runs", false},
		{"no scenario", "/api/v1/simulations", "application/json", `{"runs": 5}`, 400, "scenario", false},
		{"unknown json field", "/api/v1/simulations", "application/json", `{"scenario": "x", "colour": 1}`, 400, "colour", false},
		{"wrong content type", "/api/v1/simulations", "image/png", file, 400, "Content-Type", false},
		{"deep nesting", "/api/v1/simulations", "application/toml", "x = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000), 400, "", false},
		{"oversized", "/api/v1/simulations", "application/toml", file + "#" + strings.Repeat("x", 1<<20) + "\n", 413, "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := post(t, s, c.target, c.ct, c.body)
			e := apiErr(t, body)
			if res.StatusCode != c.status || e.Code != "invalid" || e.Field != c.field || (c.line && e.Line <= 0) {
				t.Errorf("%d %s, want %d invalid with field %q (line: %v)", res.StatusCode, body, c.status, c.field, c.line)
			}
		})
	}
}

// TestSimulationsStop: the runs stop with the request's budget (503, code
// unavailable) and when the client goes away (nothing is answered), on the page as in
// the API.
func TestSimulationsStop(t *testing.T) {
	srv, err := web.New(&catalog.Catalog{}, nil, 2026, web.WithRequestBudget(time.Nanosecond))
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range []*http.Request{
		httptest.NewRequest("GET", "/whatif?runs=1000&choice.DE=pay", nil),
		httptest.NewRequest("POST", "/api/v1/simulations?runs=10000", strings.NewReader("base = \""+whatIfBase+"\"\n")),
	} {
		r.Header.Set("Content-Type", "application/toml")
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, r)
		if rec.Code != http.StatusServiceUnavailable || apiErr(t, rec.Body.String()).Code != "unavailable" {
			t.Errorf("%s %s over its budget: %d %.200s", r.Method, r.URL, rec.Code, rec.Body.String())
		}
	}
	s := mustServer(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // the client has gone
	for _, r := range []*http.Request{
		httptest.NewRequestWithContext(ctx, "POST", "/api/v1/simulations?runs=10000", strings.NewReader("base = \""+whatIfBase+"\"\n")),
		httptest.NewRequestWithContext(ctx, "GET", "/whatif?runs=1000&choice.DE=pay", nil),
	} {
		r.Header.Set("Content-Type", "application/toml")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if rec.Body.Len() != 0 {
			t.Errorf("%s %s answered a client that has gone: %d %.200s", r.Method, r.URL, rec.Code, rec.Body.String())
		}
	}
}

// BenchmarkWhatIfPage: the page with four states paying, 1 000 runs on each side
// (the issue asks for an answer under 300 ms).
func BenchmarkWhatIfPage(b *testing.B) {
	s := mustServer(b)
	target := "/whatif?" + payQuery(relocators(b, s), 1000)
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", target, nil))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d", rec.Code)
		}
	}
}

// TestSimulationsContract: requests and answers of POST /api/v1/simulations, errors
// included, are what openapi.yaml says.
func TestSimulationsContract(t *testing.T) {
	doc, router := MustOpenAPI(t)
	ts := MustServer(t)
	file := "base = \"" + whatIfBase + "\"\n\n[choice.DE]\nform = \"pay\"\n"
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	checkStates := func(t *testing.T, body []byte) {
		var r simulation.Result
		if err := json.Unmarshal(body, &r); err != nil || len(r.States) == 0 || r.States[0].State == "" {
			t.Errorf("no per-state rows with their state: %v", err)
		}
	}
	const api = "/api/v1/simulations"
	runContract(t, doc, router, ts.URL, nil, []apiCase{
		{name: "json", method: "POST", target: api, contentType: "application/json", body: js(map[string]any{"scenario": file, "runs": 10, "seed": 2}), status: 200, check: checkStates},
		{name: "toml", method: "POST", target: api + "?runs=0", contentType: "application/toml", body: file, status: 200, check: checkStates},
		{name: "text", method: "POST", target: api + "?runs=5&seed=9", contentType: "text/plain; charset=utf-8", body: file, status: 200},
		{name: "unknown key", method: "POST", target: api, contentType: "application/toml", body: "favourite_colour = 1\n" + file, status: 400, errorLine: true, errorField: "favourite_colour"},
		{name: "runs 20000", method: "POST", target: api, contentType: "application/json", body: js(map[string]any{"scenario": file, "runs": 20000}), status: 400, badRequest: true, errorField: "runs"},
		{name: "runs -1 in the query", method: "POST", target: api + "?runs=-1", contentType: "application/toml", body: file, status: 400, badRequest: true, errorField: "runs"},
		{name: "unknown json field", method: "POST", target: api, contentType: "application/json", body: `{"scenario":"x","colour":1}`, status: 400, badRequest: true, errorField: "colour"},
		{name: "too large", method: "POST", target: api, contentType: "application/toml", body: file + "#" + strings.Repeat("x", 1<<20) + "\n", status: 413},
		{name: "cross-origin", method: "POST", target: api, contentType: "application/toml", body: file, header: map[string]string{"Sec-Fetch-Site": "cross-site"}, status: 403},
	})
}

// TestWhatIfEveryBase: every shipped scenario opens as a form and runs as A and B,
// with one state's choice changed.
func TestWhatIfEveryBase(t *testing.T) {
	s := mustServer(t)
	for _, in := range scenariofile.Shipped() {
		t.Run(in.Name, func(t *testing.T) {
			res, body := get(t, s, "/whatif?base="+in.Name)
			if res.StatusCode != http.StatusOK || strings.Contains(body, `id="results"`) {
				t.Fatalf("form: status %d", res.StatusCode)
			}
			sc := shippedScenario(t, in.Name)
			c := sc.Participating[len(sc.Participating)-1]
			res, body = get(t, s, "/whatif?base="+in.Name+"&runs=20&choice."+string(c)+"=refuse")
			if res.StatusCode != http.StatusOK || !strings.Contains(body, `id="results"`) {
				t.Fatalf("status %d: %s", res.StatusCode, regexp.MustCompile(`(?s)<p class="banner error".*?</p>`).FindString(body))
			}
		})
	}
}
