package web_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
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

	"solidarity"
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
	// So is a ship's list as CSV (POST /api/v1/arrivals).
	openapi3filter.RegisterBodyDecoder("text/csv", openapi3filter.PlainBodyDecoder)
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
	as          string // user whose token to send (ledger cases)
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

	runContract(t, doc, router, ts.URL, nil, cases)
}

// runContract sends every case to the server at base, in order, and checks request
// and response against the document. tokens maps a case's as to its bearer token.
func runContract(t *testing.T, doc *openapi3.T, router routers.Router, base string, tokens map[string]string, cases []apiCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			newReq := func() *http.Request {
				var body io.Reader
				if c.body != "" {
					body = strings.NewReader(c.body)
				}
				r, err := http.NewRequest(c.method, base+c.target, body)
				if err != nil {
					t.Fatal(err)
				}
				if c.contentType != "" {
					r.Header.Set("Content-Type", c.contentType)
				}
				for k, v := range c.header {
					r.Header.Set(k, v)
				}
				if c.as != "" {
					r.Header.Set("Authorization", "Bearer "+tokens[c.as])
				}
				return r
			}

			req := newReq()
			route, params, err := router.FindRoute(req)
			if err != nil {
				t.Fatalf("%s %s is not in the document: %v", c.method, c.target, err)
			}
			in := &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route,
				Options: &openapi3filter.Options{IncludeResponseStatus: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}}
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
				Body: io.NopCloser(bytes.NewReader(body)), Options: &openapi3filter.Options{IncludeResponseStatus: true, AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}})
			if err != nil {
				t.Errorf("response breaks the document: %v\nbody: %.2000s", err, body)
			}
			if resp.StatusCode >= 400 && resp.StatusCode != http.StatusForbidden {
				checkError(t, doc, body, c)
			}
			if c.check != nil && resp.StatusCode < 300 {
				c.check(t, body)
			}
		})
	}
}

// TestUnroutedAPI checks the API's answer to what the document does not describe: an
// unknown path gets a JSON not_found error (a method a path does not have: 405,
// TestWrongMethodAPI).
func TestUnroutedAPI(t *testing.T) {
	doc, router := MustOpenAPI(t)
	ts := MustServer(t)
	for _, c := range []struct{ method, target string }{
		{"GET", "/api/v1/no-such-endpoint"},
		{"GET", "/api/v2/cycles"},
		{"GET", "/api/v1/cycles/2026"},
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
	"POST /pool/{year}/states/{state}/pledges":    "HTML form post of the state page (TestStatePageForms)",
	"POST /pool/{year}/states/{state}/deliveries": "HTML form post of the state page (TestStatePageForms)",
	"GET /ledger":                    "HTML ledger view (TestLedgerPage)",
	"GET /language":                  "the language switcher of every page (TestLanguage)",
	"GET /accessibility":             "HTML accessibility statement (TestAccessibilityStatement)",
	"GET /whatif":                    "HTML What-if page (TestWhatIfForm, TestWhatIfFourStatesPay)",
	"GET /whatif.csv":                "CSV of one table of the What-if page (TestWhatIfCSV)",
	"GET /whatif.toml":               "scenario file of the What-if page's B (TestWhatIfTOML)",
	"GET /login":                     "HTML login page (TestLoginPage)",
	"POST /login":                    "HTML login form post (TestLoginPage)",
	"POST /logout":                   "HTML logout form post (TestLoginPage)",
	"GET /arrivals":                  "HTML arrivals and import form (TestCasePages)",
	"POST /arrivals":                 "HTML import form post (TestImportForm)",
	"GET /arrivals/{id}":             "HTML arrival page (TestCasePages)",
	"GET /cases/{id}":                "HTML case page (TestCasePages)",
	"POST /cases/{id}/events":        "HTML event form post (TestCaseForms)",
	"POST /cases/{id}/allocation":    "HTML allocation form post (TestCaseForms)",
	"POST /cases/{id}/person":        "HTML case page with the personal record, a logged read (TestCasePages)",
	"POST /cases/{id}/determination": "HTML case page with the determination, a logged read (TestCasePages)",
	"GET /deadlines":                 "HTML deadline view (TestCasePages)",
	"GET /deadlines.csv":             "CSV of the deadline view (TestDeadlinesPage)",
	"POST /deadlines/apply":          "HTML form post of the deadline view (TestCasePages)",
	"GET /access-log":                "HTML access log (TestCasePages)",
	"GET /relocation":                "HTML relocation proposal page (TestRelocationPages)",
	"POST /relocation/proposal":      "HTML proposal form post: reads personal records, a logged read (TestRelocationPages)",
	"POST /relocation/accept":        "HTML accept form post of the proposal page (TestRelocationPages)",
	// The account pages (issue 12).
	"GET /account":                     "HTML account page (TestAccountPages)",
	"POST /account/password":           "HTML password change form post (TestAccountPages)",
	"POST /account/tokens/{id}/revoke": "HTML token revocation form post (TestAccountPages)",
	"GET /users":                       "HTML users page of the coordinator (TestAccountPages)",
	"POST /users/{name}/disable":       "HTML form post of the users page (TestAccountPages)",
	"POST /users/{name}/enable":        "HTML form post of the users page (TestAccountPages)",
	"POST /users/{name}/password":      "HTML form post of the users page (TestAccountPages)",
}

// muxPatterns returns the patterns registered in routes() of server.go, read from the
// source so that a route added there without documentation fails TestRoutesDocumented.
func muxPatterns(t *testing.T) []string {
	t.Helper()
	var out []string
	routes := clientRoutes(t)
	// routes() in server.go registers the routes, and the functions it calls for
	// groups of them.
	for file, fun := range map[string]string{"server.go": "routes", "account.go": "accountRoutes"} {
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fn, ok := n.(*ast.FuncDecl)
			if ok && fn.Name.Name != fun {
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
			p, ok := stringConst(call.Args[0], routes)
			if !ok {
				t.Errorf("mux pattern is not a string literal or constant at offset %d", call.Pos())
				return true
			}
			out = append(out, p)
			return true
		})
	}
	if len(out) == 0 {
		t.Fatal("no mux patterns found in server.go")
	}
	return out
}

// clientRoutes returns the route constants of internal/client (routes.go), which
// routes() registers as client.Name, by name.
func clientRoutes(t *testing.T) map[string]string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../client/routes.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	consts := map[string]string{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, name := range v.Names {
				if s, ok := stringConst(v.Values[i], consts); ok {
					consts[name.Name] = s
				}
			}
		}
	}
	return consts
}

// stringConst evaluates a string expression of literals, constants of consts (by
// name, or as client.Name) and +.
func stringConst(e ast.Expr, consts map[string]string) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.Ident:
		s, ok := consts[e.Name]
		return s, ok
	case *ast.SelectorExpr:
		if x, ok := e.X.(*ast.Ident); !ok || x.Name != "client" {
			return "", false
		}
		s, ok := consts[e.Sel.Name]
		return s, ok
	case *ast.BinaryExpr:
		x, okx := stringConst(e.X, consts)
		y, oky := stringConst(e.Y, consts)
		return x + y, okx && oky && e.Op == token.ADD
	}
	return "", false
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
		if !slices.Contains(mux, op) && !slices.Contains(mux, suffixRoutes[op]) {
			t.Errorf("openapi.yaml describes %q, which routes() does not register", op)
		}
	}
	for p := range undocumented {
		if !slices.Contains(mux, p) {
			t.Errorf("undocumented lists %q, which routes() no longer registers", p)
		}
	}
}

// TestDocumentedServed requests every documented operation with an example on a
// server with a ledger (a fresh one per operation, where every operation is possible),
// as the coordinator, and checks that the server routes it (no 404 or 405) and
// succeeds with a documented status.
func TestDocumentedServed(t *testing.T) {
	doc, router := MustOpenAPI(t)
	toml2027, toml2026 := MustShipped(t, 2027), MustShipped(t, 2026)
	type example struct {
		path, body, contentType string
		status                  int
	}
	const y = "/api/v1/ledger/cycles/2027"
	examples := map[string]example{
		"GET /healthz":                   {"/healthz", "", "", 200},
		"GET /readyz":                    {"/readyz", "", "", 200},
		"GET /metrics":                   {"/metrics", "", "", 200},
		"GET /openapi.yaml":              {"/openapi.yaml", "", "", 200},
		"GET /api/v1/cycles":             {"/api/v1/cycles", "", "", 200},
		"GET /api/v1/cycles/{year}/pool": {"/api/v1/cycles/2026/pool", "", "", 200},
		"GET /pool/{year}.csv":           {"/pool/2026.csv", "", "", 200},
		"GET /api/v1/cycles/{year}/pool/states/{state}":                 {"/api/v1/cycles/2026/pool/states/DE", "", "", 200},
		"POST /api/v1/pool":                                             {"/api/v1/pool", toml2027, "application/toml", 200},
		"POST /api/v1/simulations":                                      {"/api/v1/simulations?runs=10", "base = \"cycle-2026\"\n", "application/toml", 200},
		"GET /api/v1/key":                                               {"/api/v1/key", "", "", 200},
		"GET /api/v1/datasets":                                          {"/api/v1/datasets", "", "", 200},
		"GET /api/v1/datasets/{id}":                                     {"/api/v1/datasets/population-2025-01-01", "", "", 200},
		"GET /api/v1/ledger/cycles/{year}/balances":                     {y + "/balances", "", "", 200},
		"GET /api/v1/ledger/entries":                                    {"/api/v1/ledger/entries", "", "", 200},
		"GET /api/v1/ledger/verify":                                     {"/api/v1/ledger/verify", "", "", 200},
		"GET /api/v1/ledger/public.jsonl":                               {"/api/v1/ledger/public.jsonl", "", "", 200},
		"POST /api/v1/ledger/cycles":                                    {"/api/v1/ledger/cycles", toml2026, "application/toml", 201},
		"PUT /api/v1/ledger/cycles/{year}":                              {y, testCycle, "application/toml", 201},
		"POST /api/v1/ledger/cycles/{year}/statuses/{state}":            {y + "/statuses/DE", `{"at_risk":true,"act":"CID"}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/pledges/{state}":             {y + "/pledges/DE", `{"type":"financial","eur_cents":100}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/deductions/{state}":          {y + "/deductions/DE", `{"article":"Art. 62","relocations":3}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/deductions/{ref}/assessment": {y + "/deductions/DED-2027-DE-1/assessment", `{"favourable":false}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/deductions/{ref}/decision":   {y + "/deductions/DED-2027-DE-1/decision", `{"act":"CID 2027/9","granted":false}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/offsets/{state}/requests":    {y + "/offsets/IT/requests", `{"counterpart":"FR","applications":2}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/offsets/{state}/offers":      {y + "/offsets/DE/offers", `{"counterpart":"IT","applications":2}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/offsets/{ref}/reply":         {y + "/offsets/OFF-2027-IT-1/reply", `{"accepted":5}`, "application/json", 201},
		"POST /api/v1/ledger/cycles/{year}/deliveries/{state}":          {y + "/deliveries/DE", `{"type":"payment.made","eur_cents":100,"reference":"T1"}`, "application/json", 201},
		"GET /api/v1/users":                                             {"/api/v1/users", "", "", 200},
		"POST /api/v1/users":                                            {"/api/v1/users", `{"name":"pl","role":"officer","state":"PL"}`, "application/json", 201},
		"POST /api/v1/tokens":                                           {"/api/v1/tokens", `{"name":"fr","label":"cli"}`, "application/json", 201},
		"POST /api/v1/session":                                          {"/api/v1/session", `{"name":"coord","password":"` + testPassword + `"}`, "application/json", 201},
		"DELETE /api/v1/session":                                        {"/api/v1/session", "", "", 204},
		"GET /api/v1/tokens":                                            {"/api/v1/tokens", "", "", 200},
		"DELETE /api/v1/tokens/{id}":                                    {"/api/v1/tokens/{token}", "", "", 200},
		"POST /api/v1/users/{name}/disable":                             {"/api/v1/users/fr/disable", "", "", 200},
		"POST /api/v1/users/{name}/enable":                              {"/api/v1/users/fr/enable", "", "", 200},
		"POST /api/v1/users/{name}/password":                            {"/api/v1/users/fr/password", `{}`, "application/json", 200},
		"POST /api/v1/account/password":                                 {"/api/v1/account/password", `{"current":"` + testPassword + `","new":"a different long passphrase"}`, "application/json", 204},
		"GET /api/v1/admin-log":                                         {"/api/v1/admin-log", "", "", 200},
		// The case flow: {case} is the fixture's single person (ARRIVED_SAR), {family}
		// the head of its family K1 (RELOCATION_IDENTIFIED), {arrival} their arrival.
		"POST /api/v1/arrivals":                   {"/api/v1/arrivals", strings.Replace(seedList, "Test Star", "Other Star", 1), "text/csv", 201},
		"GET /api/v1/arrivals":                    {"/api/v1/arrivals", "", "", 200},
		"GET /api/v1/arrivals/{id}":               {"/api/v1/arrivals/{arrival}", "", "", 200},
		"GET /api/v1/cases":                       {"/api/v1/cases?arrival={arrival}", "", "", 200},
		"GET /api/v1/cases/{id}":                  {"/api/v1/cases/{case}", "", "", 200},
		"GET /api/v1/cases/{id}/person":           {"/api/v1/cases/{case}/person", "", "", 200},
		"GET /api/v1/cases/{id}/determination":    {"/api/v1/cases/{case}/determination", "", "", 200},
		"POST /api/v1/cases/{id}/events":          {"/api/v1/cases/{case}/events", `{"event":"screening-started","at":"2027-02-21T08:00:00Z"}`, "application/json", 201},
		"POST /api/v1/cases/{id}/allocation":      {"/api/v1/cases/{family}/allocation", `{"state":"FR"}`, "application/json", 201},
		"GET /api/v1/deadlines":                   {"/api/v1/deadlines?within=30d", "", "", 200},
		"POST /api/v1/deadlines/apply":            {"/api/v1/deadlines/apply", "", "", 200},
		"GET /api/v1/access-log":                  {"/api/v1/access-log", "", "", 200},
		"POST /api/v1/relocation/proposal":        {"/api/v1/relocation/proposal", `{"year":2027,"explain":["{familyID}"]}`, "application/json", 200},
		"POST /api/v1/relocation/proposal/accept": {"/api/v1/relocation/proposal/accept", `{"placements":[{"family":"{familyID}","state":"FR"}]}`, "application/json", 200},
	}
	for _, op := range documented(doc) {
		t.Run(op, func(t *testing.T) {
			ex, ok := examples[op]
			if !ok {
				t.Fatalf("no example for %s: add one", op)
			}
			method, _, _ := strings.Cut(op, " ")
			caseFlow := strings.Contains(op, "/arrivals") || strings.Contains(op, "/cases") || strings.Contains(op, "/deadlines") || strings.Contains(op, "/access-log") || strings.Contains(op, "/relocation")
			f := newFixture(t, fixtureOpts{setup: true, passwords: op == "POST /api/v1/session" || op == "POST /api/v1/account/password", cases: caseFlow})
			ex.path = strings.ReplaceAll(ex.path, "{token}", solidarity.TokenID(fmt.Sprintf("%x", sha256.Sum256([]byte(f.tokens["fr"])))))
			if caseFlow {
				ex.path = strings.NewReplacer("{case}", string(f.caseIDs[2]), "{family}", string(f.caseIDs[0]), "{arrival}", string(f.arrival)).Replace(ex.path)
				if strings.Contains(ex.body, "{familyID}") {
					head, err := f.store.Case(context.Background(), f.caseIDs[0])
					if err != nil {
						t.Fatal(err)
					}
					ex.body = strings.ReplaceAll(ex.body, "{familyID}", string(head.Family))
				}
			}
			runContract(t, doc, router, f.ts.URL, f.tokens, []apiCase{{name: "example", method: method, target: ex.path,
				contentType: ex.contentType, body: ex.body, as: "coord", status: ex.status}})
		})
	}
}

// TestLedgerContract runs the ledger API, in order, on one ledger: every response,
// errors included, must be what the document says.
func TestLedgerContract(t *testing.T) {
	doc, router := MustOpenAPI(t)
	f := newFixture(t, fixtureOpts{setup: true, passwords: true})
	const y = "/api/v1/ledger/cycles/2027"
	js := "application/json"
	key := func(k string) map[string]string { return map[string]string{"Idempotency-Key": k} }
	cases := []apiCase{
		{name: "readyz", method: "GET", target: "/readyz", status: 200},
		{name: "metrics", method: "GET", target: "/metrics", status: 200},
		{name: "balances public", method: "GET", target: y + "/balances", status: 200, check: checkBalances},
		{name: "balances as_of day", method: "GET", target: y + "/balances?as_of=2027-02-01", as: "de", status: 200},
		{name: "balances as_of time", method: "GET", target: y + "/balances?as_of=2027-02-01T10:00:00Z", status: 200},
		{name: "balances bad as_of", method: "GET", target: y + "/balances?as_of=soon", status: 400, errorField: "as_of"},
		{name: "balances no cycle", method: "GET", target: "/api/v1/ledger/cycles/2030/balances", status: 404},
		{name: "balances bad token", method: "GET", target: y + "/balances", header: map[string]string{"Authorization": "Bearer x"}, status: 401},
		{name: "entries", method: "GET", target: "/api/v1/ledger/entries?limit=2", as: "audit", status: 200, check: checkPage(2, true)},
		{name: "entries last page", method: "GET", target: "/api/v1/ledger/entries?after=4&limit=2", as: "coord", status: 200, check: checkPage(1, false)},
		{name: "entries filtered", method: "GET", target: "/api/v1/ledger/entries?cycle=2027&state=DE&type=pledge.made", as: "de", status: 200, check: checkPage(1, false)},
		{name: "entries anonymous", method: "GET", target: "/api/v1/ledger/entries", status: 401},
		{name: "entries other state", method: "GET", target: "/api/v1/ledger/entries?state=DE", as: "fr", status: 403},
		{name: "entries limit too large", method: "GET", target: "/api/v1/ledger/entries?limit=5000", as: "audit", status: 400, badRequest: true, errorField: "limit"},
		{name: "entries bad type", method: "GET", target: "/api/v1/ledger/entries?type=gift", as: "audit", status: 400, badRequest: true, errorField: "type"},
		{name: "verify", method: "GET", target: "/api/v1/ledger/verify", as: "audit", status: 200, check: checkVerified},
		{name: "verify officer", method: "GET", target: "/api/v1/ledger/verify", as: "de", status: 200, check: checkPublicVerified}, // the public summary (issue 14)
		{name: "verify anonymous", method: "GET", target: "/api/v1/ledger/verify", status: 200, check: checkPublicVerified},
		{name: "public ledger", method: "GET", target: "/api/v1/ledger/public.jsonl", status: 200},
		{name: "create cycle", method: "POST", target: "/api/v1/ledger/cycles", contentType: "application/toml", body: MustShipped(t, 2026), as: "coord", header: key("c1"), status: 201},
		{name: "create cycle replay", method: "POST", target: "/api/v1/ledger/cycles", contentType: "application/toml", body: MustShipped(t, 2026), as: "coord", header: key("c1"), status: 200},
		{name: "create cycle twice", method: "POST", target: "/api/v1/ledger/cycles", contentType: "application/toml", body: MustShipped(t, 2026), as: "coord", status: 409},
		{name: "create cycle broken", method: "POST", target: "/api/v1/ledger/cycles", contentType: "application/toml", body: "year = 2030\ntitle = \"x\n", as: "coord", status: 400, errorLine: true},
		{name: "create cycle officer", method: "POST", target: "/api/v1/ledger/cycles", contentType: "application/toml", body: MustShipped(t, 2027), as: "de", status: 403},
		{name: "amend cycle", method: "PUT", target: y, contentType: "text/plain", body: testCycle, as: "coord", status: 201},
		{name: "amend other year", method: "PUT", target: "/api/v1/ledger/cycles/2028", contentType: "application/toml", body: testCycle, as: "coord", status: 400, errorField: "year"},
		{name: "status", method: "POST", target: y + "/statuses/FR", contentType: js, body: `{"significant_situation":true,"act":"CID"}`, as: "coord", status: 201},
		{name: "pledge", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"alternative","eur_cents":5000000}`, as: "de", header: key("p1"), status: 201, check: checkEntry("pledge.made", "DE")},
		{name: "pledge replay", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"alternative","eur_cents":5000000}`, as: "de", header: key("p1"), status: 200, check: checkEntry("pledge.made", "DE")},
		{name: "pledge key reused", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"alternative","eur_cents":1}`, as: "de", header: key("p1"), status: 409},
		{name: "pledge changed", method: "POST", target: y + "/pledges/de", contentType: js, body: `{"type":"alternative","eur_cents":6000000}`, as: "de", status: 201, check: checkEntry("pledge.changed", "DE")},
		{name: "pledge unknown field", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"financial","eur_cents":1,"note":"x"}`, as: "de", status: 400, badRequest: true, errorField: "note"},
		{name: "pledge bad type", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"gift"}`, as: "de", status: 400, badRequest: true, errorField: "type"},
		{name: "pledge bad key", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"none"}`, as: "de", header: key("a b"), status: 400, badRequest: true, errorField: "Idempotency-Key"},
		{name: "pledge other state", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"none"}`, as: "fr", status: 403},
		{name: "pledge anonymous", method: "POST", target: y + "/pledges/DE", contentType: js, body: `{"type":"none"}`, status: 401},
		{name: "pledge not participating", method: "POST", target: y + "/pledges/DK", contentType: js, body: `{"type":"none"}`, as: "coord", status: 400, errorField: "state"},
		{name: "deduction request", method: "POST", target: y + "/deductions/FR", contentType: js, body: `{"article":"Art. 61","full":true,"reason":"x"}`, as: "fr", status: 201, check: checkEntry("deduction.requested", "FR")},
		{name: "deduction request two extents", method: "POST", target: y + "/deductions/FR", contentType: js, body: `{"article":"Art. 61","full":true,"relocations":3}`, as: "fr", status: 400, errorField: "full"},
		{name: "assessment", method: "POST", target: y + "/deductions/DED-2027-FR-1/assessment", contentType: js, body: `{"favourable":true,"summary":"ok"}`, as: "coord", status: 201},
		{name: "assessment unknown ref", method: "POST", target: y + "/deductions/DED-2027-FR-9/assessment", contentType: js, body: `{"favourable":true}`, as: "coord", status: 404, errorField: "ref"},
		{name: "decision", method: "POST", target: y + "/deductions/DED-2027-FR-1/decision", contentType: js, body: `{"article":"Art. 61","full":true,"granted":true,"act":"CID 2027/2"}`, as: "coord", status: 201},
		{name: "decision twice", method: "POST", target: y + "/deductions/DED-2027-FR-1/decision", contentType: js, body: `{"full":true,"granted":true,"act":"CID 2027/3"}`, as: "coord", status: 409},
		{name: "decision without request", method: "POST", target: y + "/deductions/DED-2027-PL-1/decision", contentType: js, body: `{"full":true,"granted":true,"act":"CID"}`, as: "coord", status: 409},
		{name: "offset request", method: "POST", target: y + "/offsets/IT/requests", contentType: js, body: `{"counterpart":"PL","applications":10}`, as: "it", status: 201, check: checkEntry("offset.requested", "IT")},
		{name: "offset request not benefitting", method: "POST", target: y + "/offsets/PL/requests", contentType: js, body: `{"counterpart":"IT","applications":10}`, as: "coord", status: 409},
		{name: "offset offer", method: "POST", target: y + "/offsets/DE/offers", contentType: js, body: `{"counterpart":"IT","applications":4}`, as: "de", status: 201},
		{name: "offset offer bad counterpart", method: "POST", target: y + "/offsets/DE/offers", contentType: js, body: `{"counterpart":"XX","applications":4}`, as: "de", status: 400, badRequest: true},
		{name: "offset reply", method: "POST", target: y + "/offsets/OFF-2027-IT-1/reply", contentType: js, body: `{"accepted":3}`, as: "de", status: 201, check: checkEntry("offset.replied", "DE")},
		{name: "offset reply too many", method: "POST", target: y + "/offsets/OFF-2027-IT-2/reply", contentType: js, body: `{"accepted":30}`, as: "coord", status: 400, errorField: "accepted"},
		{name: "offset reply unknown", method: "POST", target: y + "/offsets/OFF-2027-IT-9/reply", contentType: js, body: `{"accepted":1}`, as: "coord", status: 404},
		{name: "delivery", method: "POST", target: y + "/deliveries/DE", contentType: js, body: `{"type":"alternative.delivered","eur_cents":100000,"reference":"M-1"}`, as: "de", header: key("d1"), status: 201, check: checkEntry("alternative.delivered", "DE")},
		{name: "delivery replay", method: "POST", target: y + "/deliveries/DE", contentType: js, body: `{"type":"alternative.delivered","eur_cents":100000,"reference":"M-1"}`, as: "de", header: key("d1"), status: 200},
		{name: "delivery beyond the pledge", method: "POST", target: y + "/deliveries/DE", contentType: js, body: `{"type":"payment.made","eur_cents":100000000}`, as: "de", status: 409},
		{name: "delivery over_delivery", method: "POST", target: y + "/deliveries/DE", contentType: js, body: `{"type":"payment.made","eur_cents":100000000,"over_delivery":true}`, as: "de", status: 201},
		{name: "delivery bad kind", method: "POST", target: y + "/deliveries/DE", contentType: js, body: `{"type":"gift","eur_cents":1}`, as: "de", status: 400, badRequest: true, errorField: "type"},
		{name: "balances after", method: "GET", target: y + "/balances", status: 200, check: checkDelivered("DE", "53.05")},
		{name: "users", method: "GET", target: "/api/v1/users", as: "coord", status: 200},
		{name: "users officer", method: "GET", target: "/api/v1/users", as: "de", status: 403},
		{name: "add user", method: "POST", target: "/api/v1/users", contentType: js, body: `{"name":"el","role":"officer","state":"GR","password":"a long enough password"}`, as: "coord", status: 201},
		{name: "add user taken", method: "POST", target: "/api/v1/users", contentType: js, body: `{"name":"el","role":"auditor"}`, as: "coord", status: 409},
		{name: "add user bad role", method: "POST", target: "/api/v1/users", contentType: js, body: `{"name":"x","role":"king"}`, as: "coord", status: 400, badRequest: true, errorField: "role"},
		{name: "add user short password", method: "POST", target: "/api/v1/users", contentType: js, body: `{"name":"y","role":"auditor","password":"short"}`, as: "coord", status: 400, errorField: "password"},
		{name: "token", method: "POST", target: "/api/v1/tokens", contentType: js, body: `{"name":"el","label":"cli"}`, as: "coord", status: 201},
		{name: "token unknown user", method: "POST", target: "/api/v1/tokens", contentType: js, body: `{"name":"nobody"}`, as: "coord", status: 404},
		{name: "token officer", method: "POST", target: "/api/v1/tokens", contentType: js, body: `{"name":"de"}`, as: "de", status: 403},
		{name: "session", method: "POST", target: "/api/v1/session", contentType: js, body: `{"name":"el","password":"a long enough password"}`, status: 201},
		{name: "session wrong", method: "POST", target: "/api/v1/session", contentType: js, body: `{"name":"el","password":"a wrong password"}`, status: 401},
		{name: "session missing field", method: "POST", target: "/api/v1/session", contentType: js, body: `{"name":"el"}`, status: 401, badRequest: true},
		{name: "session end", method: "DELETE", target: "/api/v1/session", status: 204},
	}
	runContract(t, doc, router, f.ts.URL, f.tokens, cases)
	// Rate limited: the same document describes the 429.
	for range 5 {
		f.do(req{method: "POST", path: "/api/v1/session", body: `{"name":"el","password":"not it at all"}`})
	}
	runContract(t, doc, router, f.ts.URL, f.tokens, []apiCase{{name: "session rate limited", method: "POST", target: "/api/v1/session",
		contentType: js, body: `{"name":"el","password":"a long enough password"}`, status: 429}})
}

func checkEntry(typ, state string) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		var e solidarity.Entry
		if err := json.Unmarshal(body, &e); err != nil {
			t.Fatal(err)
		}
		if string(e.Type) != typ || string(e.State) != state || len(e.Hash) != 64 {
			t.Errorf("entry %s %s %q, want %s %s", e.Type, e.State, e.Hash, typ, state)
		}
	}
}

func checkPage(n int, more bool) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		var p web.EntryPage
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatal(err)
		}
		if len(p.Entries) != n || (p.NextAfter != nil) != more {
			t.Errorf("%d entries, next %v; want %d, more %v", len(p.Entries), p.NextAfter, n, more)
		}
	}
}

func checkVerified(t *testing.T, body []byte) {
	var v struct {
		OK      bool  `json:"ok"`
		Entries int64 `json:"entries"`
	}
	if err := json.Unmarshal(body, &v); err != nil || !v.OK || v.Entries != 5 {
		t.Errorf("verification %s", body)
	}
}

func checkPublicVerified(t *testing.T, body []byte) {
	var v struct {
		ChainOK bool  `json:"chain_ok"`
		Entries int64 `json:"entries"`
	}
	if err := json.Unmarshal(body, &v); err != nil || !v.ChainOK || v.Entries != 5 {
		t.Errorf("public verification %s", body)
	}
}

func checkBalances(t *testing.T, body []byte) {
	var b struct {
		Pool   report.Pool
		States []struct {
			State       string
			Outstanding *json.Number
		}
	}
	if err := json.Unmarshal(body, &b); err != nil {
		t.Fatal(err)
	}
	if b.Pool.Cycle.Year != 2027 || len(b.States) != 26 {
		t.Errorf("balances of %d with %d states", b.Pool.Cycle.Year, len(b.States))
	}
}

func checkDelivered(state, units string) func(*testing.T, []byte) {
	return func(t *testing.T, body []byte) {
		var b struct {
			States []struct {
				State     string `json:"state"`
				Delivered struct {
					Units json.Number `json:"units"`
				} `json:"delivered"`
			} `json:"states"`
		}
		if err := json.Unmarshal(body, &b); err != nil {
			t.Fatal(err)
		}
		for _, s := range b.States {
			if s.State == state && string(s.Delivered.Units) != units {
				t.Errorf("%s delivered %s units, want %s", state, s.Delivered.Units, units)
			}
		}
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
