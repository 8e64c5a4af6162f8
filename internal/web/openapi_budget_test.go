package web_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"solidarity/internal/catalog"
	"solidarity/internal/web"
)

// TestBudgetDocumented: every operation of the API documents the 503 of the request
// budget (code unavailable, Retry-After) by the shared response, and the server's real
// 503, from a server whose budget is spent before any handler answers, is what the
// document says on the POST routes and the pool and relocation routes.
func TestBudgetDocumented(t *testing.T) {
	doc, router := MustOpenAPI(t)
	n := 0
	for path, item := range doc.Paths.Map() {
		if !strings.HasPrefix(path, "/api/v1/") {
			continue
		}
		for method, op := range item.Operations() {
			r := op.Responses.Status(503)
			if r == nil || r.Ref != "#/components/responses/Unavailable" {
				t.Errorf("%s %s: no 503 $ref Unavailable", method, path)
			}
			n++
		}
	}
	if n < 40 {
		t.Errorf("only %d API operations", n)
	}
	u := doc.Components.Responses["Unavailable"]
	if u == nil || u.Value.Headers["Retry-After"] == nil || !u.Value.Headers["Retry-After"].Value.Required {
		t.Fatal("components.responses.Unavailable has no required Retry-After")
	}

	s, err := web.New(&catalog.Catalog{}, nil, 2026, web.WithRequestBudget(time.Nanosecond))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	const js = "application/json"
	runContract(t, doc, router, ts.URL, nil, []apiCase{
		{name: "pool", method: "GET", target: "/api/v1/cycles/2026/pool", status: 503},
		{name: "state", method: "GET", target: "/api/v1/cycles/2026/pool/states/DE", status: 503},
		{name: "post pool", method: "POST", target: "/api/v1/pool", contentType: "application/toml", body: MustShipped(t, 2027), status: 503},
		{name: "pledge", method: "POST", target: "/api/v1/ledger/cycles/2027/pledges/DE", contentType: js, body: `{"type":"financial","eur_cents":100}`, status: 503},
		{name: "proposal", method: "POST", target: "/api/v1/relocation/proposal", contentType: js, body: `{"year":2027}`, status: 503},
		{name: "accept", method: "POST", target: "/api/v1/relocation/proposal/accept", contentType: js, body: `{"placements":[{"family":"F-1","state":"FR"}]}`, status: 503},
	})
}
