package web_test

import (
	"context"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/casesvc"
	"solidarity/internal/web"
)

// relocationFixture is the case-flow fixture with a relocation pledge by Germany (5
// places) beside France's: family K1 (two persons, who want France) has a
// next-best state. It returns K1's family ID.
func relocationFixture(t *testing.T) (*fixture, solidarity.FamilyID) {
	t.Helper()
	f := newFixture(t, fixtureOpts{cases: true})
	if _, _, err := f.svc.Pledge(system(), 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 5}, ""); err != nil {
		t.Fatal(err)
	}
	head, err := f.store.Case(context.Background(), f.caseIDs[0])
	if err != nil {
		t.Fatal(err)
	}
	return f, head.Family
}

// TestRelocationAPIRoles: the proposal and its acceptance are the coordinator's;
// officers and auditors get 403, the public 401.
func TestRelocationAPIRoles(t *testing.T) {
	for _, rt := range []struct{ path, body string }{
		{"/api/v1/relocation/proposal", `{"year":2027}`},
		{"/api/v1/relocation/proposal/accept", `{"placements":[{"family":"{fam}","state":"FR"}]}`},
	} {
		for _, as := range []string{"coord", "it", "fr", "audit", ""} {
			t.Run(rt.path+"/"+as, func(t *testing.T) {
				t.Parallel()
				f, fam := relocationFixture(t)
				res, body := f.do(req{method: "POST", path: rt.path, as: as, body: strings.ReplaceAll(rt.body, "{fam}", string(fam))})
				want := map[string]int{"coord": 200, "it": 403, "fr": 403, "audit": 403, "": 401}[as]
				if res.StatusCode != want {
					t.Fatalf("%s as %q: %d, want %d: %s", rt.path, as, res.StatusCode, want, body)
				}
				if want != 200 {
					code := map[int]string{401: solidarity.EUNAUTHENTICATED, 403: solidarity.EUNAUTHORIZED}[want]
					if got := apiErr(t, body).Code; got != code {
						t.Errorf("code %q, want %q", got, code)
					}
				}
			})
		}
	}
}

// TestRelocationAPIFlow: a proposal places K1 in France (its preference), explains
// it with Germany as the next-best state, follows a pin, and its acceptance allocates
// the family; nothing is left to propose after.
func TestRelocationAPIFlow(t *testing.T) {
	f, fam := relocationFixture(t)
	var p casesvc.Proposal
	res, body := f.do(req{method: "POST", path: "/api/v1/relocation/proposal", as: "coord", body: `{"year":2027,"explain":["` + string(fam) + `"]}`})
	if res.StatusCode != 200 {
		t.Fatalf("proposal: %d %s", res.StatusCode, body)
	}
	mustJSON(t, body, &p)
	if len(p.Placements) != 1 || p.Placements[0].Family != fam || p.Placements[0].State != "FR" || len(p.Placements[0].Cases) != 2 {
		t.Fatalf("placements %+v", p.Placements)
	}
	e := p.Explanations[fam]
	if e == nil || e.NextBest == nil || e.NextBest.State != "DE" || e.NextBest.Cost != 1 || !strings.Contains(e.Text, "next-best place is DE") {
		t.Fatalf("explanation %+v", e)
	}
	for _, n := range seedNames {
		if strings.Contains(body, strings.Fields(n)[0]) {
			t.Errorf("the proposal holds %q", n)
		}
	}
	// A pin to Germany.
	_, body = f.do(req{method: "POST", path: "/api/v1/relocation/proposal", as: "coord", body: `{"year":2027,"pins":{"` + string(fam) + `":"DE"}}`})
	mustJSON(t, body, &p)
	if len(p.Placements) != 1 || p.Placements[0].State != "DE" || !p.Placements[0].Pinned {
		t.Fatalf("pinned placements %+v", p.Placements)
	}
	// Bad requests.
	for _, bad := range []struct {
		body   string
		status int
	}{
		{`{"year":2027,"pins":{"` + string(fam) + `":"PL"}}`, 400},
		{`{"year":2027,"pins":{"F-NOSUCH":"DE"}}`, 400},
		{`{"year":2027,"colour":"red"}`, 400},
		{`{"year":2027,"explain":["F-NOSUCH"]}`, 404},
	} {
		if res, body := f.do(req{method: "POST", path: "/api/v1/relocation/proposal", as: "coord", body: bad.body}); res.StatusCode != bad.status {
			t.Errorf("%s: %d, want %d: %s", bad.body, res.StatusCode, bad.status, body)
		}
	}
	// Accept France.
	var acc web.AcceptResult
	res, body = f.do(req{method: "POST", path: "/api/v1/relocation/proposal/accept", as: "coord",
		body: `{"placements":[{"family":"` + string(fam) + `","state":"FR"},{"family":"F-NOSUCH","state":"DE"}]}`, header: map[string]string{"Idempotency-Key": "acc-1"}})
	if res.StatusCode != 200 {
		t.Fatalf("accept: %d %s", res.StatusCode, body)
	}
	mustJSON(t, body, &acc)
	if acc.Allocated != 1 || acc.Failed != 1 || acc.Results[1].Error == nil || acc.Results[1].Error.Code != solidarity.ENOTFOUND {
		t.Fatalf("accepted %+v", acc)
	}
	for _, id := range f.caseIDs[:2] {
		c, err := f.store.Case(context.Background(), id)
		if err != nil || c.Allocated != "FR" {
			t.Errorf("case %s allocated %q (%v)", id, c.Allocated, err)
		}
	}
	_, body = f.do(req{method: "POST", path: "/api/v1/relocation/proposal", as: "coord", body: `{"year":2027}`})
	mustJSON(t, body, &p)
	if len(p.Placements) != 0 || p.Families != 0 {
		t.Errorf("after accepting: %+v", p)
	}
}

// TestRelocationPages: the coordinator's relocation page proposes, explains a
// family, re-solves with a pin and accepts, then shows the family allocated; an
// officer gets 403, the public the login page, and only the coordinator has the link.
func TestRelocationPages(t *testing.T) {
	f, fam := relocationFixture(t)
	res, page := f.do(req{method: "GET", path: "/relocation", as: "coord"})
	if res.StatusCode != 200 || !strings.Contains(page, `id="proposal-form"`) || !strings.Contains(page, `id="nav-relocation"`) {
		t.Fatalf("relocation page: %d", res.StatusCode)
	}
	key := idemKeyOf(t, page, "proposal-form")
	if res, page := f.do(req{method: "GET", path: "/relocation", as: "it"}); res.StatusCode != 403 {
		t.Errorf("relocation page as an officer: %d", res.StatusCode)
	} else if _, page = f.do(req{method: "GET", path: "/arrivals", as: "it"}); strings.Contains(page, `id="nav-relocation"`) {
		t.Error("an officer has the relocation link")
	}
	if res, _ := f.do(req{method: "GET", path: "/relocation"}); res.StatusCode/100 != 3 || !strings.HasPrefix(res.Header.Get("Location"), "/login") {
		t.Errorf("relocation page for the public: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	if res, _ := f.do(req{method: "POST", path: "/relocation/proposal", as: "it", body: "year=2027", contentType: "application/x-www-form-urlencoded"}); res.StatusCode != 403 {
		t.Errorf("proposal form as an officer: %d", res.StatusCode)
	}
	post := func(path string, v url.Values) (*http.Response, string) {
		return f.do(req{method: "POST", path: path, as: "coord", body: v.Encode(), contentType: "application/x-www-form-urlencoded"})
	}
	res, page = post("/relocation/proposal", url.Values{"year": {"2027"}, "explain": {string(fam)}})
	if res.StatusCode != 200 {
		t.Fatalf("proposal form: %d %.500s", res.StatusCode, page)
	}
	for _, want := range []string{`data-family="` + string(fam) + `" data-state="FR"`, `id="explanation-text"`, "next-best place is DE", "preference 1 × weight 1", `id="accept"`} {
		if !strings.Contains(page, want) {
			t.Errorf("the proposal page lacks %q", want)
		}
	}
	// A pin to Germany, re-solved.
	if res, page = post("/relocation/proposal", url.Values{"year": {"2027"}, "pin-" + string(fam): {"DE"}}); res.StatusCode != 200 || !strings.Contains(page, `data-state="DE"`) {
		t.Errorf("pinned: %d", res.StatusCode)
	}
	// A pin beyond the room: the page again with the reason.
	if _, _, err := f.svc.Pledge(system(), 2027, "ES", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 1}, ""); err != nil {
		t.Fatal(err)
	}
	if res, page = post("/relocation/proposal", url.Values{"year": {"2027"}, "pin-" + string(fam): {"ES"}}); res.StatusCode != 409 || !strings.Contains(page, `id="form-error"`) {
		t.Errorf("pin beyond the room: %d", res.StatusCode)
	}
	// Accept France.
	res, _ = post("/relocation/accept", url.Values{"idempotency_key": {key}, "accept": {string(fam)}, "place-" + string(fam): {"FR"}})
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/relocation?accepted=") {
		t.Fatalf("accept form: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	res, page = f.do(req{method: "GET", path: res.Header.Get("Location"), as: "coord"})
	if res.StatusCode != 200 || !strings.Contains(page, `id="accepted"`) || !strings.Contains(page, `<td class="state">FR</td>`) ||
		!strings.Contains(page, string(f.caseIDs[0])) {
		t.Errorf("accepted summary: %d %.800s", res.StatusCode, page)
	}
	// Accepting again with nothing ticked says so.
	if res, _ = post("/relocation/accept", url.Values{"idempotency_key": {"k2"}}); res.StatusCode != 400 {
		t.Errorf("accept with nothing ticked: %d", res.StatusCode)
	}
}
