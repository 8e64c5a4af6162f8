package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/internal/refdata"
	"solidarity/internal/report"
	"solidarity/internal/web"
)

// MustOpenAPI loads and validates the served OpenAPI document and builds a router on it.
func MustOpenAPI(tb testing.TB) (*openapi3.T, routers.Router) {
	tb.Helper()
	// The cycle file of POST /api/v1/pool is text: decode it as such for validation.
	openapi3filter.RegisterBodyDecoder("application/toml", openapi3filter.PlainBodyDecoder)
	doc, err := openapi3.NewLoader().LoadFromData(web.OpenAPI())
	if err != nil {
		tb.Fatalf("load openapi.yaml: %v", err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		tb.Fatalf("openapi.yaml is not a valid OpenAPI document: %v", err)
	}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		tb.Fatalf("router: %v", err)
	}
	return doc, router
}

// MustServer starts the real server handler on a test listener.
func MustServer(tb testing.TB) *httptest.Server {
	tb.Helper()
	s, err := web.New(&catalog.Catalog{}, nil, 2026)
	if err != nil {
		tb.Fatalf("web.New: %v", err)
	}
	ts := httptest.NewServer(s)
	tb.Cleanup(ts.Close)
	return ts
}

// MustShipped returns the TOML text of a shipped cycle.
func MustShipped(tb testing.TB, year int) string {
	tb.Helper()
	src, err := cyclefile.ShippedSource(year)
	if err != nil {
		tb.Fatal(err)
	}
	return string(src)
}

// apiCase is one request of the contract test.
type apiCase struct {
	name        string
	method      string
	target      string // path and query
	contentType string
	header      map[string]string
	body        string
	status      int
	// badRequest marks requests that break the document themselves (a method or date
	// outside its enum or format): the document must reject them as the server does.
	badRequest bool
	// errorField, when set, is the field the error body must name; errorLine asks for
	// a line number in it.
	errorField string
	errorLine  bool
	check      func(t *testing.T, body []byte)
}

func TestContract(t *testing.T) {
	doc, router := MustOpenAPI(t)
	ts := MustServer(t)
	toml2027 := MustShipped(t, 2027)
	toml2026 := MustShipped(t, 2026)

	cases := []apiCase{
		{name: "healthz", method: "GET", target: "/healthz", status: 200},
		{name: "openapi", method: "GET", target: "/openapi.yaml", status: 200},
		{name: "cycles", method: "GET", target: "/api/v1/cycles", status: 200, check: checkCycles},
		{name: "datasets", method: "GET", target: "/api/v1/datasets", status: 200},
		{name: "dataset population", method: "GET", target: "/api/v1/datasets/population-2025-01-01", status: 200},
		{name: "dataset gdp", method: "GET", target: "/api/v1/datasets/gdp-2024", status: 200},
		{name: "dataset unknown", method: "GET", target: "/api/v1/datasets/no-such-dataset", status: 404, errorField: "id"},
		{name: "key default", method: "GET", target: "/api/v1/key", status: 200, check: checkKey(26)},
		{name: "key eu27", method: "GET", target: "/api/v1/key?participating=eu27", status: 200, check: checkKey(27)},
		{name: "key codes", method: "GET", target: "/api/v1/key?participating=de,fr,gr&population=population-2025-01-01&gdp=gdp-2024", status: 200, check: checkKey(3)},
		{name: "key bad state", method: "GET", target: "/api/v1/key?participating=DE,XX", status: 400, errorField: "participating"},
		{name: "key unknown dataset", method: "GET", target: "/api/v1/key?population=no-such-dataset", status: 400, errorField: "dataset"},
		{name: "key wrong indicator", method: "GET", target: "/api/v1/key?population=gdp-2024", status: 400, errorField: "population"},
		{name: "key missing figures", method: "GET", target: "/api/v1/key?gdp=gdp-2024-official-partial", status: 400, errorField: "gdp"},
		{name: "pool unknown year", method: "GET", target: "/api/v1/cycles/2025/pool", status: 404},
		{name: "pool bad method", method: "GET", target: "/api/v1/cycles/2026/pool?method=dhondt", status: 400, badRequest: true, errorField: "method"},
		{name: "pool bad as_of", method: "GET", target: "/api/v1/cycles/2026/pool?as_of=19-12-2025", status: 400, badRequest: true, errorField: "as_of"},
		{name: "pool 2026 as_of before deductions", method: "GET", target: "/api/v1/cycles/2026/pool?as_of=2025-12-18", status: 200, check: checkAsOfBeforeDeductions},
		{name: "state unknown", method: "GET", target: "/api/v1/cycles/2026/pool/states/XX", status: 404, errorField: "state"},
		{name: "state not participating", method: "GET", target: "/api/v1/cycles/2026/pool/states/DK", status: 404, errorField: "state"},
		{name: "state unknown year", method: "GET", target: "/api/v1/cycles/1999/pool/states/DE", status: 404},
		{name: "state lower case GR", method: "GET", target: "/api/v1/cycles/2026/pool/states/gr", status: 200, check: checkStateCode("EL")},
		{name: "state bad method", method: "GET", target: "/api/v1/cycles/2026/pool/states/DE?method=x", status: 400, badRequest: true, errorField: "method"},

		{name: "post 2027 toml", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: toml2027, status: 200, check: checkPosted(2027)},
		{name: "post 2026 text", method: "POST", target: "/api/v1/pool?method=webster", contentType: "text/plain; charset=utf-8", body: toml2026, status: 200, check: checkPosted(2026)},
		{name: "post 2027 as_of", method: "POST", target: "/api/v1/pool?method=largest-remainder&as_of=2027-06-30", contentType: "application/toml", body: toml2027, status: 200},
		{name: "post broken toml", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: "year = 2027\ntitle = \"x\n", status: 400, errorLine: true},
		{name: "post unknown key", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: "favourite_colour = \"blue\"\n" + toml2027, status: 400, errorLine: true, errorField: "favourite_colour"},
		{name: "post invalid rule", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: strings.Replace(toml2027, "relocations = 30000\neur = 600_000_000\nsource = \"assumed", "relocations = 0\neur = 600_000_000\nsource = \"assumed", 1), status: 400, errorLine: true, errorField: "reference.relocations"},
		{name: "post server dataset", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: strings.Replace(toml2027, `population = "population-2025-01-01"`, `population = "/etc/passwd"`, 1), status: 400},
		{name: "post bad method", method: "POST", target: "/api/v1/pool?method=ceiling", contentType: "application/toml", body: toml2027, status: 400, badRequest: true, errorField: "method"},
		{name: "post too large", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: toml2027 + "#" + strings.Repeat("x", 1<<20) + "\n", status: 400},
		{name: "post cross-origin", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: toml2027, header: map[string]string{"Sec-Fetch-Site": "cross-site"}, status: 403},
	}
	for _, id := range refdata.IDs() {
		cases = append(cases, apiCase{name: "dataset " + id, method: "GET", target: "/api/v1/datasets/" + id, status: 200})
	}
	for _, year := range []int{2026, 2027} {
		y := strconv.Itoa(year)
		for _, m := range []string{"", "round-up", "largest-remainder", "webster"} {
			q := ""
			if m != "" {
				q = "?method=" + m
			}
			cases = append(cases,
				apiCase{name: "pool " + y + " " + m, method: "GET", target: "/api/v1/cycles/" + y + "/pool" + q, status: 200, check: checkPool(year, m)},
				apiCase{name: "state " + y + " DE " + m, method: "GET", target: "/api/v1/cycles/" + y + "/pool/states/DE" + q, status: 200, check: checkStateCode("DE")},
			)
		}
	}

	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			newReq := func() *http.Request {
				var body io.Reader
				if c.body != "" {
					body = strings.NewReader(c.body)
				}
				r, err := http.NewRequest(c.method, ts.URL+c.target, body)
				if err != nil {
					t.Fatal(err)
				}
				if c.contentType != "" {
					r.Header.Set("Content-Type", c.contentType)
				}
				for k, v := range c.header {
					r.Header.Set(k, v)
				}
				return r
			}

			req := newReq()
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("%s %s is not in the document: %v", c.method, c.target, err)
			}
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{IncludeResponseStatus: true}}
			err = openapi3filter.ValidateRequest(context.Background(), in)
			switch {
			case c.badRequest && err == nil:
				t.Errorf("the document accepts a request the server refuses")
			case !c.badRequest && err != nil:
				t.Errorf("request breaks the document: %v", err)
			}

			resp, err := http.DefaultClient.Do(newReq())
			if err != nil {
				t.Fatal(err)
			}
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != c.status {
				t.Fatalf("status %d, want %d; body %s", resp.StatusCode, c.status, body)
			}
			err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
				RequestValidationInput: in, Status: resp.StatusCode, Header: resp.Header,
				Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{IncludeResponseStatus: true}})
			if err != nil {
				t.Errorf("response breaks the document: %v\nbody: %.2000s", err, body)
			}
			if resp.StatusCode >= 400 && resp.StatusCode != http.StatusForbidden {
				checkError(t, doc, body, c)
			}
			if c.check != nil && resp.StatusCode == http.StatusOK {
				c.check(t, body)
			}
		})
	}
}

// TestUnroutedAPI checks the API's answer to what the document does not describe: an
// unknown path or a method a path does not have gets a JSON not_found error.
func TestUnroutedAPI(t *testing.T) {
	doc, router := MustOpenAPI(t)
	ts := MustServer(t)
	for _, c := range []struct{ method, target string }{
		{"GET", "/api/v1/no-such-endpoint"},
		{"GET", "/api/v2/cycles"},
		{"GET", "/api/v1/cycles/2026"},
		{"DELETE", "/api/v1/cycles"},
		{"PUT", "/api/v1/pool"},
	} {
		t.Run(c.method+" "+c.target, func(t *testing.T) {
			req, err := http.NewRequest(c.method, ts.URL+c.target, nil)
			if err != nil {
				t.Fatal(err)
			}
			if _, _, err := router.FindRoute(req); err == nil {
				t.Fatalf("the document describes %s %s", c.method, c.target)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusNotFound {
				t.Fatalf("status %d, want 404; body %s", resp.StatusCode, body)
			}
			if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
				t.Errorf("content type %q", ct)
			}
			checkError(t, doc, body, apiCase{})
			if code := errorBody(t, body).Code; code != "not_found" {
				t.Errorf("code %q, want not_found", code)
			}
		})
	}
}

// undocumented are the mux patterns that are not part of the JSON API, and why.
var undocumented = map[string]string{
	"GET /static/":                    "stylesheets and images of the HTML pages",
	"GET /{$}":                        "redirect to the dashboard",
	"GET /pool/{year}":                "HTML dashboard",
	"GET /pool/{year}/states/{state}": "HTML state page",
	"/api/":                           "fallback: JSON not_found for any other API path (TestUnroutedAPI)",
}

// muxPatterns returns the patterns registered in routes() of server.go, read from the
// source so that a route added there without documentation fails TestRoutesDocumented.
func muxPatterns(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "server.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	ast.Inspect(f, func(n ast.Node) bool {
		fn, ok := n.(*ast.FuncDecl)
		if ok && fn.Name.Name != "routes" {
			return false
		}
		call, ok := n.(*ast.CallExpr)
		if !ok || len(call.Args) == 0 {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || (sel.Sel.Name != "Handle" && sel.Sel.Name != "HandleFunc") {
			return true
		}
		if x, ok := sel.X.(*ast.Ident); !ok || x.Name != "mux" {
			return true
		}
		lit, ok := call.Args[0].(*ast.BasicLit)
		if !ok || lit.Kind != token.STRING {
			t.Errorf("mux pattern is not a string literal at offset %d", call.Pos())
			return true
		}
		p, err := strconv.Unquote(lit.Value)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
		return true
	})
	if len(out) == 0 {
		t.Fatal("no mux patterns found in server.go")
	}
	return out
}

// documented returns the document's operations as ServeMux patterns ("GET /healthz").
func documented(doc *openapi3.T) []string {
	var out []string
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			out = append(out, method+" "+path)
		}
	}
	slices.Sort(out)
	return out
}

// TestRoutesDocumented checks that every route of the mux is documented or listed in
// undocumented, and that every documented operation exists in the mux.
func TestRoutesDocumented(t *testing.T) {
	doc, _ := MustOpenAPI(t)
	ops := documented(doc)
	mux := muxPatterns(t)
	for _, p := range mux {
		if _, ok := undocumented[p]; ok {
			continue
		}
		if !slices.Contains(ops, p) {
			t.Errorf("route %q is served but not in openapi.yaml", p)
		}
	}
	for _, op := range ops {
		if !slices.Contains(mux, op) {
			t.Errorf("openapi.yaml describes %q, which routes() does not register", op)
		}
	}
	for p := range undocumented {
		if !slices.Contains(mux, p) {
			t.Errorf("undocumented lists %q, which routes() no longer registers", p)
		}
	}
}

// TestDocumentedServed requests every documented operation with example parameters
// and checks that the server routes it (no 404 or 405) and answers with a documented
// status.
func TestDocumentedServed(t *testing.T) {
	doc, router := MustOpenAPI(t)
	ts := MustServer(t)
	example := strings.NewReplacer("{year}", "2026", "{state}", "DE", "{id}", "population-2025-01-01")
	body := MustShipped(t, 2027)
	for _, op := range documented(doc) {
		t.Run(op, func(t *testing.T) {
			method, path, _ := strings.Cut(op, " ")
			var rd io.Reader
			if method == http.MethodPost {
				rd = strings.NewReader(body)
			}
			req, err := http.NewRequest(method, ts.URL+example.Replace(path), rd)
			if err != nil {
				t.Fatal(err)
			}
			if rd != nil {
				req.Header.Set("Content-Type", "application/toml")
			}
			if _, _, err := router.FindRoute(req); err != nil {
				t.Fatalf("the document does not route its own example: %v", err)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("status %d, want 200; body %.500s", resp.StatusCode, b)
			}
		})
	}
}

// --- behaviour checks ---

func errorBody(t *testing.T, body []byte) web.APIError {
	t.Helper()
	var e struct {
		Error web.APIError `json:"error"`
	}
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatalf("error body: %v: %s", err, body)
	}
	return e.Error
}

// checkError validates an error body against the Error schema (also for responses no
// route describes) and the locators the case asks for.
func checkError(t *testing.T, doc *openapi3.T, body []byte, c apiCase) {
	t.Helper()
	var v any
	if err := json.Unmarshal(body, &v); err != nil {
		t.Fatalf("error body is not JSON: %v: %s", err, body)
	}
	if err := doc.Components.Schemas["Error"].Value.VisitJSON(v); err != nil {
		t.Errorf("error body breaks the Error schema: %v: %s", err, body)
	}
	e := errorBody(t, body)
	if e.Message == "" {
		t.Errorf("error without message: %s", body)
	}
	if c.errorField != "" && e.Field != c.errorField {
		t.Errorf("error field %q, want %q: %s", e.Field, c.errorField, body)
	}
	if c.errorLine && e.Line <= 0 {
		t.Errorf("error without line: %s", body)
	}
}

func decodePool(t *testing.T, body []byte) *report.Pool {
	t.Helper()
	var p report.Pool
	d := json.NewDecoder(bytes.NewReader(body))
	d.UseNumber()
	if err := d.Decode(&p); err != nil {
		t.Fatalf("pool: %v", err)
	}
	return &p
}

func checkCycles(t *testing.T, body []byte) {
	var out struct{ Cycles []web.CycleSummary }
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatal(err)
	}
	var years []int
	for _, c := range out.Cycles {
		years = append(years, c.Year)
	}
	if !slices.Equal(years, []int{2026, 2027}) {
		t.Errorf("cycles %v, want [2026 2027]", years)
	}
	if len(out.Cycles) > 0 && (out.Cycles[0].Relocations != 21000 || out.Cycles[0].EUR != "420000000.00") {
		t.Errorf("2026 reference %+v", out.Cycles[0])
	}
}

func checkKey(states int) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		var k report.Key
		if err := json.Unmarshal(body, &k); err != nil {
			t.Fatal(err)
		}
		if len(k.States) != states {
			t.Errorf("%d states, want %d", len(k.States), states)
		}
		if k.Sum != "1" {
			t.Errorf("shares sum to %s", k.Sum)
		}
		if !strings.Contains(k.Article, "Art. 66") {
			t.Errorf("key article %q", k.Article)
		}
	}
}

func checkStateCode(want string) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		var s report.PoolState
		if err := json.Unmarshal(body, &s); err != nil {
			t.Fatal(err)
		}
		if s.State != want {
			t.Errorf("state %q, want %q", s.State, want)
		}
	}
}

// checkPool checks the shipped cycles: 26 states without Denmark (Part IV), shares
// summing to exactly 1, exact fair-share totals with the exact methods, the four full
// deductions of 2026 (Arts. 61–62) and unknown pledges reported as null.
func checkPool(year int, method string) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		p := decodePool(t, body)
		wantMethod := method
		if wantMethod == "" {
			wantMethod = map[int]string{2026: "round-up", 2027: "largest-remainder"}[year]
		}
		if p.Method != wantMethod {
			t.Errorf("method %q, want %q", p.Method, wantMethod)
		}
		if p.Cycle.Year != year {
			t.Errorf("cycle %d", p.Cycle.Year)
		}
		if len(p.States) != 26 {
			t.Errorf("%d states, want 26", len(p.States))
		}
		if _, ok := p.State("DK"); ok {
			t.Error("Denmark is in the pool (not bound by Part IV)")
		}
		if p.Union.SharesSumExact != "1" {
			t.Errorf("shares_sum_exact %q", p.Union.SharesSumExact)
		}
		reference := map[int]int64{2026: 21000, 2027: 30000}[year]
		var sum int64
		for _, s := range p.States {
			sum += s.FairShare
		}
		if sum != p.Union.FairShareTotal {
			t.Errorf("fair shares sum to %d, union says %d", sum, p.Union.FairShareTotal)
		}
		switch wantMethod {
		case "largest-remainder", "webster":
			if sum != reference {
				t.Errorf("fair shares sum to %d, want %d", sum, reference)
			}
		case "round-up":
			if sum < reference || sum >= reference+26 {
				t.Errorf("round-up fair shares sum to %d, want in [%d, %d)", sum, reference, reference+26)
			}
		}
		for _, s := range p.States {
			if s.PledgeKnown {
				continue
			}
			if s.Pledged != nil || s.PledgedUnits != nil || s.Coverage != nil {
				t.Errorf("%s: unknown pledge reported as a figure: %+v", s.State, s)
			}
			// The shortfall is known without the pledge only when nothing is owed.
			if zero := string(*s.Obligation) == "0.00"; zero != (s.Shortfall != nil) || zero && string(*s.Shortfall) != "0.00" {
				t.Errorf("%s: obligation %s, shortfall %v", s.State, *s.Obligation, s.Shortfall)
			}
			if !slices.Contains(p.Union.UnknownPledges, s.State) {
				t.Errorf("%s: unknown pledge missing from unknown_pledges", s.State)
			}
		}
		if year != 2026 {
			if len(p.Union.UnknownPledges) != 26 {
				t.Errorf("%d unknown pledges, want 26", len(p.Union.UnknownPledges))
			}
			return
		}
		for _, m := range []string{"AT", "CZ", "HR", "PL"} {
			s, ok := p.State(m)
			if !ok {
				t.Errorf("%s missing", m)
				continue
			}
			if s.Obligation == nil || mustFloat(t, *s.Obligation) != 0 {
				t.Errorf("%s: obligation %v, want 0 (full deduction)", m, s.Obligation)
			}
			if len(s.Deductions) != 1 || !s.Deductions[0].Full {
				t.Errorf("%s: deductions %+v", m, s.Deductions)
			}
		}
		for _, m := range []string{"EL", "CY", "ES", "IT"} {
			if s, _ := p.State(m); !s.Benefitting || s.Obligation == nil || mustFloat(t, *s.Obligation) != 0 {
				t.Errorf("%s: benefitting %v, obligation %v", m, s.Benefitting, s.Obligation)
			}
		}
		ie, _ := p.State("IE")
		if !ie.PledgeKnown || ie.Pledged == nil || ie.Pledged.FinancialEUR != "9260000.00" || ie.DominantPledge != "financial" {
			t.Errorf("IE pledge %+v", ie)
		}
		if hu, _ := p.State("HU"); !hu.PledgeKnown || hu.DominantPledge != "none" {
			t.Errorf("HU recorded as pledging nothing: %+v", hu)
		}
	}
}

// checkAsOfBeforeDeductions: the 2026 deductions are dated 19 December 2025, so the
// day before they are not in force.
func checkAsOfBeforeDeductions(t *testing.T, body []byte) {
	p := decodePool(t, body)
	if p.AsOf != "2025-12-18" {
		t.Errorf("as_of %q", p.AsOf)
	}
	at, _ := p.State("AT")
	if len(at.Deductions) != 0 || at.Obligation == nil || mustFloat(t, *at.Obligation) != float64(at.FairShare) {
		t.Errorf("AT before its deduction: obligation %v, fair share %d, deductions %+v", at.Obligation, at.FairShare, at.Deductions)
	}
}

func checkPosted(year int) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		p := decodePool(t, body)
		if p.Cycle.Year != year || p.Cycle.File != "request body" {
			t.Errorf("cycle %d from %q", p.Cycle.Year, p.Cycle.File)
		}
		if len(p.States) != 26 || p.Union.SharesSumExact != "1" {
			t.Errorf("%d states, shares sum %s", len(p.States), p.Union.SharesSumExact)
		}
	}
}

func mustFloat(t *testing.T, n report.Num) float64 {
	t.Helper()
	f, err := n.Float64()
	if err != nil {
		t.Fatalf("number %q: %v", n, err)
	}
	return f
}
