package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"html"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/app"
	"solidarity/internal/web"
)

// caseRoute is one operation of the case API in the role matrix: the status for the
// coordinator, the benefitting state's officer (it), another state's officer (fr) and
// an auditor. The public always gets 401.
type caseRoute struct {
	name, method, path, body, contentType string
	want                                  [4]int
}

func caseRoutes(f *fixture) []caseRoute {
	single, head, arr := string(f.caseIDs[2]), string(f.caseIDs[0]), string(f.arrival)
	csv := strings.Replace(seedList, "Test Star", "Second Star", 1)
	return []caseRoute{
		{"register arrival", "POST", "/api/v1/arrivals", csv, "text/csv", [4]int{201, 201, 403, 403}},
		{"list arrivals", "GET", "/api/v1/arrivals", "", "", [4]int{200, 200, 200, 200}},
		{"arrival", "GET", "/api/v1/arrivals/" + arr, "", "", [4]int{200, 200, 404, 200}},
		{"list cases", "GET", "/api/v1/cases?arrival=" + arr, "", "", [4]int{200, 200, 200, 200}},
		{"list cases of another state", "GET", "/api/v1/cases?state=IT", "", "", [4]int{200, 200, 403, 200}},
		{"case", "GET", "/api/v1/cases/" + single, "", "", [4]int{200, 200, 404, 200}},
		{"person", "GET", "/api/v1/cases/" + single + "/person", "", "", [4]int{200, 200, 404, 403}},
		{"determination", "GET", "/api/v1/cases/" + single + "/determination", "", "", [4]int{200, 200, 404, 403}},
		{"event", "POST", "/api/v1/cases/" + single + "/events", `{"event":"screening-started","at":"2027-02-21T08:00:00Z"}`, "", [4]int{201, 201, 404, 403}},
		{"allocation", "POST", "/api/v1/cases/" + head + "/allocation", `{"state":"FR"}`, "", [4]int{201, 403, 403, 403}},
		{"deadlines", "GET", "/api/v1/deadlines?within=30d", "", "", [4]int{200, 200, 200, 200}},
		{"apply missed", "POST", "/api/v1/deadlines/apply", "", "", [4]int{200, 403, 403, 403}},
		{"access log", "GET", "/api/v1/access-log", "", "", [4]int{200, 403, 403, 200}},
	}
}

// TestCaseAPIRoles sends every route of the case API as each role, each on a fresh
// case flow: allowed requests succeed, refusals are 403 or (for a case the user may
// not see) 404, the public 401.
func TestCaseAPIRoles(t *testing.T) {
	probe := newFixture(t, fixtureOpts{cases: true})
	for i, rt := range caseRoutes(probe) {
		for j, as := range []string{"coord", "it", "fr", "audit", ""} {
			role := []string{"coordinator", "benefitting officer", "other officer", "auditor", "anonymous"}[j]
			t.Run(rt.name+"/"+role, func(t *testing.T) {
				t.Parallel()
				f := newFixture(t, fixtureOpts{cases: true})
				rt := caseRoutes(f)[i]
				res, body := f.do(req{method: rt.method, path: rt.path, as: as, body: rt.body, contentType: rt.contentType})
				want := http.StatusUnauthorized
				if as != "" {
					want = rt.want[j]
				}
				if res.StatusCode != want {
					t.Fatalf("%s %s as %s: %d, want %d: %s", rt.method, rt.path, role, res.StatusCode, want, body)
				}
				if want >= 400 {
					code := map[int]string{401: solidarity.EUNAUTHENTICATED, 403: solidarity.EUNAUTHORIZED, 404: solidarity.ENOTFOUND}[want]
					if got := apiErr(t, body).Code; got != code {
						t.Errorf("code %q, want %q", got, code)
					}
				}
			})
		}
	}
}

// TestCaseAPIScope: an officer of another state sees nothing of an arrival until a
// family is allocated to its state; then it sees those cases and their people.
func TestCaseAPIScope(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	var cases web.CasePage
	_, body := f.do(req{method: "GET", path: "/api/v1/cases", as: "fr"})
	mustJSON(t, body, &cases)
	if len(cases.Cases) != 0 {
		t.Fatalf("FR's officer sees %d cases before any allocation", len(cases.Cases))
	}
	if res, body := f.do(req{method: "POST", path: "/api/v1/cases/" + string(f.caseIDs[0]) + "/allocation", as: "coord",
		body: `{"state":"FR"}`, header: map[string]string{"Idempotency-Key": "alloc-1"}}); res.StatusCode != 201 {
		t.Fatalf("allocation: %d %s", res.StatusCode, body)
	}
	// A retry with the same key is a replay.
	if res, _ := f.do(req{method: "POST", path: "/api/v1/cases/" + string(f.caseIDs[0]) + "/allocation", as: "coord",
		body: `{"state":"FR"}`, header: map[string]string{"Idempotency-Key": "alloc-1"}}); res.StatusCode != 200 || res.Header.Get("Idempotency-Replayed") != "true" {
		t.Fatalf("replayed allocation: %d", res.StatusCode)
	}
	var d web.ArrivalDetail
	res, body := f.do(req{method: "GET", path: "/api/v1/arrivals/" + string(f.arrival), as: "fr"})
	if res.StatusCode != 200 {
		t.Fatalf("arrival as FR after allocation: %d %s", res.StatusCode, body)
	}
	mustJSON(t, body, &d)
	if len(d.Cases) != 2 || d.Counts["RELOCATION_IDENTIFIED"] != 2 || d.Cases[0].Allocated != "FR" {
		t.Errorf("FR sees %+v, counts %v", d.Cases, d.Counts)
	}
	if res, body := f.do(req{method: "GET", path: "/api/v1/cases/" + string(f.caseIDs[1]) + "/person", as: "fr"}); res.StatusCode != 200 {
		t.Errorf("FR reading an allocated person: %d %s", res.StatusCode, body)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/cases/" + string(f.caseIDs[2]) + "/person", as: "fr"}); res.StatusCode != 404 {
		t.Errorf("FR reading a person not allocated to it: %d", res.StatusCode)
	}
}

// TestImportBadCSV: a list with a bad row is 400 naming the line and the field, and
// nothing is registered.
func TestImportBadCSV(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	head, _, _ := f.store.Head(context.Background())
	bad := strings.Replace(seedList, "P002,K1,Bilal Testperson,1988-01-30,,M", "P002,K1,Bilal Testperson,1988-01-30,,Q", 1)
	res, body := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: bad, contentType: "text/csv"})
	if res.StatusCode != 400 {
		t.Fatalf("bad CSV: %d %s", res.StatusCode, body)
	}
	e := apiErr(t, body)
	if e.Line != 8 || e.Field != "sex" {
		t.Errorf("error at line %d field %q, want line 8, field sex: %s", e.Line, e.Field, body)
	}
	if strings.Contains(body, "Bilal") {
		t.Errorf("the error echoes a name: %s", body)
	}
	if h, _, _ := f.store.Head(context.Background()); h != head {
		t.Errorf("ledger head %d -> %d after a refused import", head, h)
	}
	var as struct{ Arrivals []solidarity.Arrival }
	_, body = f.do(req{method: "GET", path: "/api/v1/arrivals", as: "coord"})
	mustJSON(t, body, &as)
	if len(as.Arrivals) != 1 {
		t.Errorf("%d arrivals after a refused import, want 1", len(as.Arrivals))
	}
	// The JSON list is read too; a misspelt field is named by its path.
	res, body = f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", contentType: "application/json",
		body: `{"arrival":{"vessel":"X","port":"Y","at":"2027-02-22T00:00:00Z","sar":true,"benefitting_state":"IT"},"persons":[{"ref":"A","name":"N","sex":"F","assessed_age":30,"colour":"blue"}]}`})
	if res.StatusCode != 400 || apiErr(t, body).Field != "persons[0].colour" {
		t.Errorf("bad JSON list: %d %s", res.StatusCode, body)
	}
	res, body = f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", contentType: "application/xml", body: "<list/>"})
	if res.StatusCode != 400 || apiErr(t, body).Field != "Content-Type" {
		t.Errorf("XML list: %d %s", res.StatusCode, body)
	}
}

// TestEventNotAllowed: an event the case's state does not allow is 409 naming the
// events it allows; a date in the future is 400 on at.
func TestEventNotAllowed(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	path := "/api/v1/cases/" + string(f.caseIDs[2]) + "/events"
	res, body := f.do(req{method: "POST", path: path, as: "it", body: `{"event":"transferred","at":"2027-02-21"}`})
	if res.StatusCode != 409 {
		t.Fatalf("transferred on arrival: %d %s", res.StatusCode, body)
	}
	if e := apiErr(t, body); !strings.Contains(e.Message, "allowed: ") || !strings.Contains(e.Message, "screening-started") {
		t.Errorf("the refusal does not name the allowed events: %s", body)
	}
	res, body = f.do(req{method: "POST", path: path, as: "it", body: `{"event":"screening-started","at":"2030-01-01T00:00:00Z"}`})
	if res.StatusCode != 400 || apiErr(t, body).Field != "at" {
		t.Errorf("future event: %d %s", res.StatusCode, body)
	}
	res, body = f.do(req{method: "POST", path: path, as: "it", body: `{"event":"screening-started","at":"soon"}`})
	if res.StatusCode != 400 || apiErr(t, body).Field != "at" {
		t.Errorf("bad date: %d %s", res.StatusCode, body)
	}
	res, body = f.do(req{method: "POST", path: path, as: "it", body: `{"event":"no-such-event"}`})
	if res.StatusCode != 400 || apiErr(t, body).Field != "event" {
		t.Errorf("unknown event: %d %s", res.StatusCode, body)
	}
	// The family moves together: registered with family true moved both members.
	var v struct {
		Allowed []string `json:"allowed"`
		Case    struct {
			State string `json:"state"`
		} `json:"case"`
	}
	_, body = f.do(req{method: "GET", path: "/api/v1/cases/" + string(f.caseIDs[1]), as: "it"})
	mustJSON(t, body, &v)
	if v.Case.State != "RELOCATION_IDENTIFIED" || len(v.Allowed) == 0 {
		t.Errorf("second family member %s, allowed %v", v.Case.State, v.Allowed)
	}
}

// TestPersonReadLogged: reading a personal record (and running the determination)
// writes an access-log record first.
func TestPersonReadLogged(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	id := string(f.caseIDs[2])
	res, body := f.do(req{method: "GET", path: "/api/v1/cases/" + id + "/person", as: "it"})
	if res.StatusCode != 200 || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("person: %d %q", res.StatusCode, res.Header.Get("Cache-Control"))
	}
	var p struct{ Name, Sex string }
	mustJSON(t, body, &p)
	if p.Name != seedNames[2] {
		t.Errorf("person %+v", p)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/cases/" + id + "/determination", as: "coord"}); res.StatusCode != 200 {
		t.Fatalf("determination: %d", res.StatusCode)
	}
	var log struct{ Accesses []solidarity.Access }
	_, body = f.do(req{method: "GET", path: "/api/v1/access-log?case=" + id, as: "audit"})
	mustJSON(t, body, &log)
	if len(log.Accesses) != 2 {
		t.Fatalf("%d access records, want 2: %s", len(log.Accesses), body)
	}
	// Latest first.
	if a := log.Accesses[1]; a.Actor != "it" || a.Role != solidarity.Officer || a.State != "IT" || a.Purpose != "view" || string(a.Case) != id {
		t.Errorf("access %+v", a)
	}
	if a := log.Accesses[0]; a.Actor != "coord" || a.Purpose != "determination" {
		t.Errorf("access %+v", a)
	}
	// A refused read is not a read.
	f.do(req{method: "GET", path: "/api/v1/cases/" + id + "/person", as: "audit"})
	_, body = f.do(req{method: "GET", path: "/api/v1/access-log?actor=audit", as: "coord"})
	mustJSON(t, body, &log)
	if len(log.Accesses) != 0 {
		t.Errorf("a refused read was logged: %s", body)
	}
}

// TestNoPersonalDataInLogs runs a whole flow, from an import through reads of the
// personal record as JSON and as pages, to a refused import, and checks that the
// server's log never holds a person's name.
func TestNoPersonalDataInLogs(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	names := append([]string{"Zainab Uniquename", "Yusuf Uniquename"}, seedNames...)
	list := strings.NewReplacer("Amal Testperson", names[0], "Bilal Testperson", names[1], "Test Star", "Log Star").Replace(seedList)
	res, body := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: list, contentType: "text/csv"})
	if res.StatusCode != 201 {
		t.Fatalf("import: %d %s", res.StatusCode, body)
	}
	var reg web.Registration
	mustJSON(t, body, &reg)
	for _, id := range append(reg.Cases, f.caseIDs...) {
		for _, p := range []string{"/api/v1/cases/" + string(id) + "/person", "/api/v1/cases/" + string(id) + "/determination",
			"POST /cases/" + string(id) + "/person", "POST /cases/" + string(id) + "/determination"} {
			method := "GET"
			if m, rest, ok := strings.Cut(p, " "); ok {
				method, p = m, rest
			}
			if res, body := f.do(req{method: method, path: p, as: "it"}); res.StatusCode != 200 {
				t.Fatalf("%s: %d %.300s", p, res.StatusCode, body)
			}
		}
	}
	if _, body := f.do(req{method: "POST", path: "/cases/" + string(reg.Cases[0]) + "/person", as: "it"}); !strings.Contains(body, names[0]) {
		t.Fatal("the page does not show the person: the test would prove nothing")
	}
	bad := strings.Replace(list, ",F,ER,ti;en", ",Q,ER,ti;en", 1)
	if res, _ := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: bad, contentType: "text/csv"}); res.StatusCode != 400 {
		t.Fatalf("bad import: %d", res.StatusCode)
	}
	// An import as a user who may not: refused before the body is read.
	f.do(req{method: "POST", path: "/api/v1/arrivals", as: "fr", body: list, contentType: "text/csv"})
	logs := f.logs.String()
	if !strings.Contains(logs, string(reg.Cases[0])) {
		t.Fatal("no request was logged: the test would prove nothing")
	}
	for _, n := range names {
		for _, part := range strings.Fields(n) {
			if strings.Contains(logs, part) {
				t.Errorf("the server log holds %q", part)
			}
		}
	}
}

// TestCasePages renders every page of the case flow for each role.
func TestCasePages(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	single, head, arr := "/cases/"+string(f.caseIDs[2]), "/cases/"+string(f.caseIDs[0]), "/arrivals/"+string(f.arrival)
	type check struct {
		path   string
		status int
		has    []string
		hasNot []string
	}
	pages := map[string][]check{
		"coord": {
			{"/arrivals", 200, []string{`id="import-form"`, "Test Star (fictional)", `href="/access-log"`}, nil},
			{arr, 200, []string{`id="counts"`, "RELOCATION_IDENTIFIED", `data-family=`, "Disembarked after a search-and-rescue operation"}, nil},
			{head, 200, []string{`id="allocation-form"`, `id="event-form"`, `value="relocation-security-cleared"`, `id="person-form"`, `id="determine-form"`}, []string{`id="person-name"`}},
			{"POST " + single + "/person", 200, []string{`id="person-name"`, seedNames[2], "This read is recorded"}, nil},
			{"POST " + single + "/determination", 200, []string{`id="explanation"`, `id="track-reasons"`}, nil},
			{"/deadlines", 200, []string{`id="apply-form"`, "Overdue", "Due soon"}, nil},
			{"/access-log", 200, []string{`id="access-log"`, string(f.caseIDs[2])}, nil},
		},
		"it": {
			{"/arrivals", 200, []string{`id="import-form"`, "Test Star (fictional)"}, []string{`href="/access-log"`}},
			{arr, 200, []string{`id="counts"`}, nil},
			{head, 200, []string{`id="event-form"`, `id="person-form"`}, []string{`id="allocation-form"`, `value="relocation-confirmed"`}},
			{single, 200, []string{`value="screening-started"`, "Screening started"}, nil},
			{"POST " + single + "/person", 200, []string{seedNames[2]}, nil},
			{"/deadlines", 200, []string{"Overdue"}, []string{`id="apply-form"`}},
			{"/access-log", 403, nil, nil},
		},
		"fr": {
			{"/arrivals", 200, []string{`id="import-form"`, `id="no-arrivals"`}, []string{"Test Star"}},
			{arr, 404, nil, nil},
			{single, 404, nil, []string{seedNames[2]}},
			{"POST " + single + "/person", 404, nil, []string{seedNames[2]}},
			{"/deadlines", 200, nil, nil},
		},
		"audit": {
			{"/arrivals", 200, []string{"Test Star (fictional)"}, []string{`id="import-form"`}},
			{arr, 200, []string{`id="counts"`}, nil},
			{single, 200, []string{`id="person-not-allowed"`, `id="history"`}, []string{`id="event-form"`, `id="person-form"`, `id="determine-form"`}},
			{"POST " + single + "/person", 200, []string{`id="person-not-allowed"`}, []string{seedNames[2]}},
			{"/deadlines", 200, nil, []string{`id="apply-form"`}},
			{"/access-log", 200, []string{`id="access-log"`}, nil},
		},
	}
	for _, as := range []string{"coord", "it", "fr", "audit"} {
		for _, c := range pages[as] {
			method, path := "GET", c.path
			if m, rest, ok := strings.Cut(c.path, " "); ok {
				method, path = m, rest
			}
			res, body := f.do(req{method: method, path: path, as: as})
			if res.StatusCode != c.status {
				t.Errorf("%s as %s: %d, want %d", c.path, as, res.StatusCode, c.status)
				continue
			}
			if strings.Contains(body, "<script") {
				t.Errorf("%s has a script", c.path)
			}
			for _, s := range c.has {
				if !strings.Contains(body, s) {
					t.Errorf("%s as %s lacks %q", c.path, as, s)
				}
			}
			for _, s := range c.hasNot {
				if strings.Contains(body, s) {
					t.Errorf("%s as %s shows %q", c.path, as, s)
				}
			}
		}
	}
	// The public is sent to log in.
	for _, p := range []string{"/arrivals", arr, single, "/deadlines", "/access-log"} {
		if res, _ := f.do(req{method: "GET", path: p}); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login?next=") {
			t.Errorf("%s as the public: %d %s", p, res.StatusCode, res.Header.Get("Location"))
		}
	}
	// The coordinator applies the consequences of missed time limits: the 72-hour
	// Eurodac and screening limits of the single person have run by 1 March. The
	// first post shows them, the second applies them.
	res, body := f.do(req{method: "POST", path: "/deadlines/apply", as: "coord"})
	if res.StatusCode != 200 || !strings.Contains(body, `id="preview"`) || strings.Contains(body, `id="applied"`) {
		t.Fatalf("apply: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "POST", path: "/deadlines/apply", as: "it"}); res.StatusCode != 403 {
		t.Errorf("apply as an officer: %d", res.StatusCode)
	}
}

// TestCaseForms posts the event and allocation forms of the case page.
func TestCaseForms(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	single, head := "/cases/"+string(f.caseIDs[2]), "/cases/"+string(f.caseIDs[0])
	post := func(as, path string, vals map[string]string) (*http.Response, string) {
		return f.do(req{method: "POST", path: path, as: as, body: form(vals), contentType: "application/x-www-form-urlencoded"})
	}
	_, page := f.do(req{method: "GET", path: single, as: "it"})
	key := idemKeyOf(t, page, "event-form")
	res, _ := post("it", single+"/events", map[string]string{"event": "screening-started", "at": "2027-02-21T08:00", "idempotency_key": key})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != single+"?recorded=screening-started#flow" {
		t.Fatalf("event form: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	_, page = f.do(req{method: "GET", path: single + "?recorded=screening-started", as: "it"})
	if !strings.Contains(page, `id="flash"`) || !strings.Contains(page, `data-state="SCREENING"`) {
		t.Error("the case page does not show the event recorded")
	}
	// The same form posted again does not record the event twice.
	post("it", single+"/events", map[string]string{"event": "screening-started", "at": "2027-02-21T08:00", "idempotency_key": key})
	if _, page = f.do(req{method: "GET", path: single, as: "it"}); strings.Count(page, `data-event="screening-started"`) != 1 {
		t.Error("a form posted twice recorded the event twice")
	}
	// A refused event shows the page again with the reason.
	res, body := post("it", single+"/events", map[string]string{"event": "transferred", "at": "2027-02-22T08:00", "idempotency_key": "k2"})
	if res.StatusCode != 409 || !strings.Contains(body, `id="form-error"`) || !strings.Contains(body, "allowed: ") {
		t.Errorf("refused event: %d", res.StatusCode)
	}
	// Another state's officer gets the error page.
	if res, _ := post("fr", single+"/events", map[string]string{"event": "application-made", "idempotency_key": "k3"}); res.StatusCode != 404 {
		t.Errorf("event by another state's officer: %d", res.StatusCode)
	}
	// The coordinator allocates the family; then the relocation info goes out and the
	// relocation state's limits show, tagged R.
	_, page = f.do(req{method: "GET", path: head, as: "coord"})
	res, _ = post("coord", head+"/allocation", map[string]string{"state": "FR", "idempotency_key": idemKeyOf(t, page, "allocation-form")})
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != head+"?allocated=FR#flow" {
		t.Fatalf("allocation form: %d %s", res.StatusCode, res.Header.Get("Location"))
	}
	for _, ev := range []string{"relocation-security-cleared", "relocation-info-sent"} {
		if res, body := post("it", head+"/events", map[string]string{"event": ev, "at": "2027-02-25T10:00", "idempotency_key": "k-" + ev}); res.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s: %d %.500s", ev, res.StatusCode, body)
		}
	}
	_, page = f.do(req{method: "GET", path: head, as: "fr"})
	for _, s := range []string{`id="allocated">FR`, `value="relocation-confirmed"`, "R — recalled, not read: verify"} {
		if !strings.Contains(page, s) {
			t.Errorf("FR's case page lacks %q", s)
		}
	}
	if regexp.MustCompile(`value="transfer-decision-notified"`).MatchString(page) {
		t.Error("FR's officer is offered an act of the benefitting state")
	}
}

// TestImportForm uploads a ship's list through the arrivals page.
func TestImportForm(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	_, page := f.do(req{method: "GET", path: "/arrivals", as: "it"})
	upload := func(name, content, key string, fields ...string) (*http.Response, string) {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		w.WriteField("idempotency_key", key)
		for i := 0; i+1 < len(fields); i += 2 {
			w.WriteField(fields[i], fields[i+1])
		}
		fw, _ := w.CreateFormFile("list", name)
		fw.Write([]byte(content))
		w.Close()
		return f.do(req{method: "POST", path: "/arrivals", as: "it", body: b.String(), contentType: w.FormDataContentType()})
	}
	bad := strings.Replace(seedList, "1988-01-30", "1988-13-30", 1)
	res, body := upload("bad.csv", bad, idemKeyOf(t, page, "import-form"))
	if res.StatusCode != 400 || !strings.Contains(body, `id="import-error"`) || !strings.Contains(body, `<span class="line">8</span>`) ||
		!strings.Contains(body, `<code class="field">birth_date</code>`) || !strings.Contains(body, "Nothing was imported") {
		t.Fatalf("bad upload: %d %s", res.StatusCode, body)
	}
	res, _ = upload("ship.csv", strings.Replace(seedList, "Test Star", "Form Star", 1), idemKeyOf(t, page, "import-form"))
	loc := res.Header.Get("Location")
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/arrivals/ARR-") {
		t.Fatalf("upload: %d %s", res.StatusCode, loc)
	}
	_, body = f.do(req{method: "GET", path: loc, as: "it"})
	if !strings.Contains(body, "Form Star") || !strings.Contains(body, `id="flash"`) || strings.Count(body, `data-case=`) != 3 {
		t.Errorf("arrival page after upload: %.1000s", body)
	}
	// The fixture's own list again: the same landing, refused naming the arrival, and
	// the form asks to confirm a new landing.
	res, body = upload("ship.csv", seedList, "k-again")
	if res.StatusCode != http.StatusConflict || !strings.Contains(body, string(f.arrival)) || !strings.Contains(body, `id="new-landing"`) {
		t.Fatalf("the same list again: %d %s", res.StatusCode, body)
	}
	if res, _ := upload("ship.csv", seedList, "k-again", "new_landing", "1"); res.StatusCode != 303 {
		t.Errorf("the same list confirmed as a new landing: %d", res.StatusCode)
	}
}

// TestReimportSameLanding: the same ship's list registered again without its
// idempotency key is 409 naming the arrival it repeats, nothing is written; with
// new_landing=true it is registered; a retry under the first key is a replay.
func TestReimportSameLanding(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	head, _, _ := f.store.Head(context.Background())
	res, body := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: seedList, contentType: "text/csv"})
	if res.StatusCode != http.StatusConflict || apiErr(t, body).Code != solidarity.ECONFLICT || !strings.Contains(body, string(f.arrival)) {
		t.Fatalf("the same list again: %d %s", res.StatusCode, body)
	}
	if h, _, _ := f.store.Head(context.Background()); h != head {
		t.Fatalf("ledger head %d -> %d after a refused import", head, h)
	}
	// The same landing in JSON, another spelling of the vessel: refused too.
	var d web.ArrivalDetail
	_, body = f.do(req{method: "GET", path: "/api/v1/arrivals/" + string(f.arrival), as: "coord"})
	mustJSON(t, body, &d)
	l := d.Arrival
	jsonList := fmt.Sprintf(`{"arrival":{"vessel":%q,"port":%q,"at":%q,"sar":true,"benefitting_state":"IT"},"persons":[{"ref":"A1","name":"Ines Example","sex":"F","assessed_age":40}]}`,
		strings.ToUpper(l.Vessel), l.Port, l.At.Format(time.RFC3339))
	if res, body := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: jsonList, contentType: "application/json"}); res.StatusCode != http.StatusConflict {
		t.Fatalf("the same landing in JSON: %d %s", res.StatusCode, body)
	}
	if res, body := f.do(req{method: "POST", path: "/api/v1/arrivals?new_landing=maybe", as: "it", body: seedList, contentType: "text/csv"}); res.StatusCode != 400 || apiErr(t, body).Field != "new_landing" {
		t.Fatalf("new_landing=maybe: %d %s", res.StatusCode, body)
	}
	res, body = f.do(req{method: "POST", path: "/api/v1/arrivals?new_landing=true", as: "it", body: seedList, contentType: "text/csv",
		header: map[string]string{"Idempotency-Key": "landing-2"}})
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("confirmed as a new landing: %d %s", res.StatusCode, body)
	}
	res, _ = f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: seedList, contentType: "text/csv",
		header: map[string]string{"Idempotency-Key": "landing-2"}})
	if res.StatusCode != http.StatusOK || res.Header.Get("Idempotency-Replayed") != "true" {
		t.Fatalf("retry of the new landing: %d", res.StatusCode)
	}
}

// TestDiciottiPages seeds the Diciotti demonstration and checks that the pages show
// its outcome: four landings, families allocated to the pledging states and drawn on
// their pledges.
func TestDiciottiPages(t *testing.T) {
	if testing.Short() {
		t.Skip("seeds 190 cases")
	}
	f := newFixture(t, fixtureOpts{cases: true})
	// The demo is of 2026: its allocations draw on 2026 pledges.
	f.svc.Now = func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }
	ctx := context.Background()
	if _, err := app.Seed(ctx, f.svc, false); err != nil {
		t.Fatal(err)
	}
	if err := app.SeedDiciotti(ctx, f.svc, f.cases); err != nil {
		t.Fatal(err)
	}
	_, body := f.do(req{method: "GET", path: "/arrivals", as: "coord"})
	if n := strings.Count(body, "<tr data-arrival="); n != 5 {
		t.Fatalf("%d arrivals listed, want the 4 of the Diciotti and the fixture's", n)
	}
	ids := regexp.MustCompile(`href="/arrivals/(ARR-[0-9A-Z-]+)"`).FindAllStringSubmatch(body, -1)
	seen := map[string]bool{}
	for _, m := range ids {
		if solidarity.ArrivalID(m[1]) == f.arrival {
			continue
		}
		res, page := f.do(req{method: "GET", path: "/arrivals/" + m[1], as: "coord"})
		if res.StatusCode != 200 {
			t.Fatalf("arrival %s: %d %.500s", m[1], res.StatusCode, page)
		}
		if !strings.Contains(page, `id="counts"`) {
			t.Errorf("arrival %s: no counts", m[1])
		}
		for _, st := range regexp.MustCompile(`<tr data-state="([A-Z]{2})"><td>[A-Z]{2}</td><td class="allocated">`).FindAllStringSubmatch(page, -1) {
			seen[st[1]] = true
		}
	}
	for _, m := range []string{"IE", "DE"} {
		if !seen[m] {
			t.Errorf("no arrival page shows families allocated to %s (saw %v)", m, seen)
		}
	}
	_, body = f.do(req{method: "GET", path: "/deadlines?within=30d", as: "coord"})
	if !strings.Contains(body, "class=\"overdue\"") {
		t.Errorf("the deadline view of the demo shows nothing overdue: %.3000s", body[strings.Index(body, "<main>"):])
	}
}

func mustJSON(t *testing.T, body string, v any) {
	t.Helper()
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("%v: %.500s", err, body)
	}
}

// TestCaseContract runs the case API, in order, on one case flow: every response,
// errors included, must be what the document says.
func TestCaseContract(t *testing.T) {
	doc, router := MustOpenAPI(t)
	f := newFixture(t, fixtureOpts{cases: true})
	single, head, arr := "/api/v1/cases/"+string(f.caseIDs[2]), "/api/v1/cases/"+string(f.caseIDs[0]), "/api/v1/arrivals/"+string(f.arrival)
	js := "application/json"
	key := func(k string) map[string]string { return map[string]string{"Idempotency-Key": k} }
	csv := strings.Replace(seedList, "Test Star", "Contract Star", 1)
	jsonList := `{"arrival":{"vessel":"Json Star","port":"Augusta","at":"2027-02-22T05:00:00Z","sar":true,"benefitting_state":"IT"},"persons":[{"ref":"A1","name":"Ines Example","sex":"F","assessed_age":40}]}`
	runContract(t, doc, router, f.ts.URL, f.tokens, []apiCase{
		{name: "import csv", method: "POST", target: "/api/v1/arrivals", contentType: "text/csv", body: csv, as: "it", header: key("imp-1"), status: 201},
		{name: "import replay", method: "POST", target: "/api/v1/arrivals", contentType: "text/csv", body: csv, as: "it", header: key("imp-1"), status: 200},
		{name: "import json", method: "POST", target: "/api/v1/arrivals", contentType: js, body: jsonList, as: "coord", status: 201},
		{name: "import bad csv", method: "POST", target: "/api/v1/arrivals", contentType: "text/csv", body: strings.Replace(csv, ",M,", ",Q,", 1), as: "it", status: 400, errorLine: true, errorField: "sex"},
		{name: "import other state", method: "POST", target: "/api/v1/arrivals", contentType: "text/csv", body: csv, as: "fr", status: 403},
		{name: "import public", method: "POST", target: "/api/v1/arrivals", contentType: "text/csv", body: csv, status: 401},
		{name: "arrivals", method: "GET", target: "/api/v1/arrivals?limit=2", as: "audit", status: 200},
		{name: "arrivals bad limit", method: "GET", target: "/api/v1/arrivals?limit=0", as: "audit", status: 400, badRequest: true, errorField: "limit"},
		{name: "arrival", method: "GET", target: arr, as: "it", status: 200},
		{name: "arrival unknown", method: "GET", target: "/api/v1/arrivals/ARR-NONE", as: "coord", status: 404},
		{name: "cases", method: "GET", target: "/api/v1/cases?limit=2", as: "coord", status: 200},
		{name: "cases bad state", method: "GET", target: "/api/v1/cases?state=XX", as: "coord", status: 400, errorField: "state"},
		{name: "case", method: "GET", target: head, as: "audit", status: 200},
		{name: "case hidden", method: "GET", target: head, as: "fr", status: 404},
		{name: "person", method: "GET", target: single + "/person?purpose=review", as: "it", status: 200},
		{name: "person auditor", method: "GET", target: single + "/person", as: "audit", status: 403},
		{name: "determination", method: "GET", target: single + "/determination", as: "coord", status: 200},
		{name: "event", method: "POST", target: single + "/events", contentType: js, body: `{"event":"screening-started","at":"2027-02-21T09:00","note":"landing screened"}`, as: "it", status: 201},
		{name: "event not allowed", method: "POST", target: single + "/events", contentType: js, body: `{"event":"transferred"}`, as: "it", status: 409, errorField: "event"},
		{name: "event unknown field", method: "POST", target: single + "/events", contentType: js, body: `{"event":"registered","when":"now"}`, as: "it", status: 400, badRequest: true, errorField: "when"},
		{name: "event future", method: "POST", target: single + "/events", contentType: js, body: `{"event":"application-made","at":"2031-01-01"}`, as: "it", status: 400, errorField: "at"},
		{name: "allocation officer", method: "POST", target: head + "/allocation", contentType: js, body: `{"state":"FR"}`, as: "it", status: 403},
		{name: "allocation no room", method: "POST", target: head + "/allocation", contentType: js, body: `{"state":"DE"}`, as: "coord", status: 409},
		{name: "allocation", method: "POST", target: head + "/allocation", contentType: js, body: `{"state":"FR"}`, as: "coord", status: 201},
		{name: "allocation of a single not a candidate", method: "POST", target: single + "/allocation", contentType: js, body: `{"state":"FR"}`, as: "coord", status: 409},
		{name: "deadlines", method: "GET", target: "/api/v1/deadlines?within=168h&state=IT", as: "it", status: 200},
		{name: "deadlines bad within", method: "GET", target: "/api/v1/deadlines?within=soon", as: "it", status: 400, errorField: "within"},
		{name: "apply missed dry run", method: "POST", target: "/api/v1/deadlines/apply?dry_run=true", as: "coord", status: 200},
		{name: "apply confirmed none", method: "POST", target: "/api/v1/deadlines/apply", contentType: js, body: `{"confirm":[]}`, as: "coord", status: 400, errorField: "confirm"},
		{name: "apply confirmed stale", method: "POST", target: "/api/v1/deadlines/apply", contentType: js, body: `{"confirm":[{"case":"` + string(f.caseIDs[2]) + `","limit":"screening","version":1}]}`, as: "coord", status: 200},
		{name: "apply missed", method: "POST", target: "/api/v1/deadlines/apply", as: "coord", status: 200},
		{name: "access log", method: "GET", target: "/api/v1/access-log?case=" + string(f.caseIDs[2]), as: "audit", status: 200, check: func(t *testing.T, b []byte) {
			if n := strings.Count(string(b), `"seq"`); n != 2 {
				t.Errorf("%d reads of the single person logged, want 2 (view, determination)", n)
			}
		}},
		{name: "access log officer", method: "GET", target: "/api/v1/access-log", as: "it", status: 403},
		{name: "entries of the case flow", method: "GET", target: "/api/v1/ledger/entries?type=case.event", as: "audit", status: 200},
	})
}

// TestImportLargeList: a ship's list larger than the 1 MiB other requests may send is
// accepted up to arrival.MaxBytes.
func TestImportLargeList(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	var b strings.Builder
	lines := strings.Split(seedList, "\n")
	for _, l := range lines[:6] {
		b.WriteString(strings.Replace(l, "Test Star", "Large Star", 1) + "\n")
	}
	pad := strings.Repeat("x", 90)
	for i := range 9000 {
		fmt.Fprintf(&b, "L%05d,,Person %05d %s,,30,M,ER,ti,\n", i, i, pad)
	}
	if b.Len() <= 1<<20 {
		t.Fatalf("list of %d bytes is not larger than 1 MiB", b.Len())
	}
	res, body := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: b.String(), contentType: "text/csv"})
	if res.StatusCode != 201 {
		t.Fatalf("a %d-byte list: %d %.300s", b.Len(), res.StatusCode, body)
	}
}

// TestArrivalsOfRelocationState: an officer of a state of relocation sees, in the list
// of arrivals (API and page), the arrivals with people allocated to its state, and no
// others; the other roles see what they saw.
func TestArrivalsOfRelocationState(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	list := func(as string) []solidarity.ArrivalID {
		t.Helper()
		var got struct{ Arrivals []solidarity.Arrival }
		res, body := f.do(req{method: "GET", path: "/api/v1/arrivals", as: as})
		if res.StatusCode != 200 {
			t.Fatalf("arrivals as %s: %d %s", as, res.StatusCode, body)
		}
		mustJSON(t, body, &got)
		var ids []solidarity.ArrivalID
		for _, a := range got.Arrivals {
			ids = append(ids, a.ID)
		}
		return ids
	}
	want := func(as string, n int) {
		t.Helper()
		ids := list(as)
		if len(ids) != n || n == 1 && ids[0] != f.arrival {
			t.Errorf("arrivals as %s: %v, want %d (%s)", as, ids, n, f.arrival)
		}
		_, page := f.do(req{method: "GET", path: "/arrivals", as: as})
		if got := strings.Count(page, "<tr data-arrival="); got != n || (n == 0) != strings.Contains(page, `id="no-arrivals"`) {
			t.Errorf("arrivals page as %s lists %d, want %d", as, got, n)
		}
	}
	for _, as := range []string{"coord", "it", "audit"} {
		want(as, 1)
	}
	want("fr", 0)
	if res, body := f.do(req{method: "GET", path: "/api/v1/arrivals?state=IT", as: "fr"}); res.StatusCode != 403 {
		t.Errorf("FR asking for IT's arrivals: %d %s", res.StatusCode, body)
	}
	if res, body := f.do(req{method: "POST", path: "/api/v1/cases/" + string(f.caseIDs[0]) + "/allocation", as: "coord",
		body: `{"state":"FR"}`}); res.StatusCode != 201 {
		t.Fatalf("allocation: %d %s", res.StatusCode, body)
	}
	for _, as := range []string{"coord", "it", "audit", "fr"} {
		want(as, 1)
	}
	// What FR sees of the arrival is its people only.
	var d web.ArrivalDetail
	_, body := f.do(req{method: "GET", path: "/api/v1/arrivals/" + string(f.arrival), as: "fr"})
	mustJSON(t, body, &d)
	for _, c := range d.Cases {
		if c.Allocated != "FR" {
			t.Errorf("FR sees case %s allocated to %q", c.ID, c.Allocated)
		}
	}
}

// TestNextDueOneValue walks the single person's case through a table of steps whose
// next time limits are in hours and in days, and checks after each that the arrival
// page, the case page and the API (the case, its deadlines and the case list) give
// its next limit the same date: the first of the case's deadlines.
func TestNextDueOneValue(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	id := string(f.caseIDs[2])
	steps := []struct{ event, at string }{
		{"", ""}, // disembarked: the 72-hour Eurodac limit
		{"screening-started", "2027-02-20T09:00:00Z"},
		{"application-made", "2027-02-21T10:30:00Z"},
		{"registered", "2027-02-22T16:45:00Z"},
		{"eurodac-recorded", "2027-02-22T23:30:00Z"},
		{"regular-procedure-applied", "2027-02-23T23:59:00Z"},
		{"take-charge-request-sent", "2027-02-24T23:30:00Z"},
		{"eurodac-applicant-recorded", "2027-02-25T10:00:00Z"}, // the reply to the request: a limit in days
	}
	kinds := map[bool]int{} // limits in hours and in days seen
	cell := regexp.MustCompile(`<tr data-case="` + id + `"[^>]*>.*?<td class="next-due">([^<]*)`)
	firstDue := regexp.MustCompile(`<td class="due">([^<]*)`)
	for _, st := range steps {
		if st.event != "" {
			body := fmt.Sprintf(`{"event":%q,"at":%q}`, st.event, st.at)
			if st.event == "take-charge-request-sent" {
				body = fmt.Sprintf(`{"event":%q,"at":%q,"target":"DE"}`, st.event, st.at)
			}
			if res, b := f.do(req{method: "POST", path: "/api/v1/cases/" + id + "/events", as: "it", body: body}); res.StatusCode != 201 {
				t.Fatalf("%s: %d %s", st.event, res.StatusCode, b)
			}
		}
		var v struct {
			Case struct {
				NextDue string `json:"next_due"`
			} `json:"case"`
			Deadlines []struct {
				Due   string `json:"due"`
				Hours bool   `json:"hours"`
			} `json:"deadlines"`
		}
		_, body := f.do(req{method: "GET", path: "/api/v1/cases/" + id, as: "it"})
		mustJSON(t, body, &v)
		if len(v.Deadlines) == 0 {
			t.Fatalf("after %q: no time limit runs", st.event)
		}
		want := v.Deadlines[0]
		kinds[want.Hours]++
		if v.Case.NextDue != want.Due {
			t.Errorf("after %q: the case's next_due %s, its first deadline's due %s", st.event, v.Case.NextDue, want.Due)
		}
		var list web.CasePage
		_, body = f.do(req{method: "GET", path: "/api/v1/cases?arrival=" + string(f.arrival), as: "it"})
		mustJSON(t, body, &list)
		for _, c := range list.Cases {
			if string(c.ID) == id && c.NextDue.Format(time.RFC3339) != want.Due {
				t.Errorf("after %q: the case list's next_due %s, the deadline's %s", st.event, c.NextDue.Format(time.RFC3339), want.Due)
			}
		}
		var d web.ArrivalDetail
		_, body = f.do(req{method: "GET", path: "/api/v1/arrivals/" + string(f.arrival), as: "it"})
		mustJSON(t, body, &d)
		for _, c := range d.Cases {
			if string(c.ID) == id && c.NextDue.Format(time.RFC3339) != want.Due {
				t.Errorf("after %q: the arrival's next_due %s, the deadline's %s", st.event, c.NextDue.Format(time.RFC3339), want.Due)
			}
		}
		_, arrivalPage := f.do(req{method: "GET", path: "/arrivals/" + string(f.arrival), as: "it"})
		_, casePage := f.do(req{method: "GET", path: "/cases/" + id, as: "it"})
		a, c := cell.FindStringSubmatch(arrivalPage), firstDue.FindStringSubmatch(casePage)
		if a == nil || c == nil {
			t.Fatalf("after %q: no next due on the arrival page (%v) or the case page (%v)", st.event, a, c)
		}
		if strings.TrimSpace(a[1]) != strings.TrimSpace(c[1]) {
			t.Errorf("after %q: the arrival page says %q, the case page %q", st.event, a[1], c[1])
		}
		due, _ := time.Parse(time.RFC3339, want.Due)
		if text := due.Format(time.DateOnly); !strings.HasPrefix(strings.TrimSpace(c[1]), text) {
			t.Errorf("after %q: the case page says %q for due %s", st.event, c[1], want.Due)
		}
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Errorf("the steps' next limits: %d in hours, %d in days; want both", kinds[true], kinds[false])
	}
}

// TestApplyMissedConfirm: applying the consequences of missed time limits shows them
// first and records nothing; the confirmation applies exactly the list shown; the
// API previews with dry_run=true and applies a confirmed list; a case changed since
// the preview is left out.
func TestApplyMissedConfirm(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	ctx := context.Background()
	// The single person's screening started on 20 February: its limit ran out on the
	// 27th, and the law says what follows (Art. 18(1) SR).
	if res, b := f.do(req{method: "POST", path: "/api/v1/cases/" + string(f.caseIDs[2]) + "/events", as: "it",
		body: `{"event":"screening-started","at":"2027-02-20T09:00:00Z"}`}); res.StatusCode != 201 {
		t.Fatalf("screening: %d %s", res.StatusCode, b)
	}
	head0, _, _ := f.store.Head(ctx)
	res, body := f.do(req{method: "POST", path: "/deadlines/apply", as: "coord"})
	if res.StatusCode != 200 || !strings.Contains(body, `id="confirm-form"`) {
		t.Fatalf("preview: %d %s", res.StatusCode, body[strings.Index(body, "<h1>"):])
	}
	if h, _, _ := f.store.Head(ctx); h != head0 {
		t.Fatalf("the preview wrote entries %d -> %d", head0, h)
	}
	rows := regexp.MustCompile(`<tr data-case="(C-[0-9A-Z]+)"><td>.*?</td><td>([a-z0-9-]+)</td><td>[0-9-]+</td><td>(Art\.[^<]+)</td><td>([a-z-]+)</td><td>([^<]+)</td>`).FindAllStringSubmatch(body, -1)
	confirms := regexp.MustCompile(`name="confirm" value="([^"]+)"`).FindAllStringSubmatch(body, -1)
	if len(rows) == 0 || len(rows) != len(confirms) {
		t.Fatalf("preview: %d rows (case, limit, article, event, consequence), %d confirmations: %.3000s", len(rows), len(confirms), body)
	}
	// The API's preview is the same list.
	var api struct {
		Consequences []struct{ Case, Limit, Article, Event, Outcome string }
	}
	res, b := f.do(req{method: "POST", path: "/api/v1/deadlines/apply?dry_run=true", as: "coord"})
	mustJSON(t, b, &api)
	if res.StatusCode != 200 || len(api.Consequences) != len(rows) {
		t.Fatalf("dry run: %d, %d consequences, want %d", res.StatusCode, len(api.Consequences), len(rows))
	}
	for i, c := range api.Consequences {
		if c.Case != rows[i][1] || c.Limit != rows[i][2] || c.Event != rows[i][4] || c.Outcome == "" {
			t.Errorf("dry run %d: %+v, the page shows %v", i, c, rows[i][1:])
		}
	}
	if h, _, _ := f.store.Head(ctx); h != head0 {
		t.Fatalf("the dry run wrote entries %d -> %d", head0, h)
	}
	if res, b := f.do(req{method: "POST", path: "/api/v1/deadlines/apply?dry_run=yes", as: "coord"}); res.StatusCode != 400 || apiErr(t, b).Field != "dry_run" {
		t.Errorf("dry_run=yes: %d %s", res.StatusCode, b)
	}
	if res, b := f.do(req{method: "POST", path: "/api/v1/deadlines/apply", as: "coord", body: `{"confirm":[]}`}); res.StatusCode != 400 || apiErr(t, b).Field != "confirm" {
		t.Errorf("an empty confirmation: %d %s", res.StatusCode, b)
	}
	// A forged confirmation is refused, nothing applied.
	form := url.Values{"confirm": {"C-NOPE"}}
	if res, _ := f.do(req{method: "POST", path: "/deadlines/apply", as: "coord", body: form.Encode(), contentType: "application/x-www-form-urlencoded"}); res.StatusCode != 400 {
		t.Errorf("a malformed confirmation: %d", res.StatusCode)
	}
	// The confirmation applies the list shown.
	form = url.Values{}
	for _, c := range confirms {
		form.Add("confirm", html.UnescapeString(c[1]))
	}
	res, body = f.do(req{method: "POST", path: "/deadlines/apply", as: "coord", body: form.Encode(), contentType: "application/x-www-form-urlencoded"})
	if res.StatusCode != 200 || !strings.Contains(body, `id="applied-table"`) || strings.Contains(body, "not applied: ") {
		t.Fatalf("confirm: %d %.3000s", res.StatusCode, body)
	}
	if h, _, _ := f.store.Head(ctx); h != head0+int64(len(rows)) {
		t.Errorf("the confirmation wrote %d entries, want %d", h-head0, len(rows))
	}
	// The same confirmation again: every case changed since, nothing applied.
	head1, _, _ := f.store.Head(ctx)
	res, body = f.do(req{method: "POST", path: "/deadlines/apply", as: "coord", body: form.Encode(), contentType: "application/x-www-form-urlencoded"})
	if res.StatusCode != 200 || strings.Count(body, "not applied: ") != len(rows) {
		t.Errorf("the confirmation again: %d %.3000s", res.StatusCode, body)
	}
	if h, _, _ := f.store.Head(ctx); h != head1 {
		t.Errorf("a stale confirmation wrote %d entries", h-head1)
	}
	if res, _ := f.do(req{method: "POST", path: "/deadlines/apply", as: "it", body: form.Encode(), contentType: "application/x-www-form-urlencoded"}); res.StatusCode != 403 {
		t.Errorf("confirm as an officer: %d", res.StatusCode)
	}
}

// TestEventFormEmptyChoice: the event and allocation forms start with an empty
// choice, and an event post without an event is refused naming the field.
func TestEventFormEmptyChoice(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	_, page := f.do(req{method: "GET", path: "/cases/" + string(f.caseIDs[0]), as: "coord"})
	for _, sel := range []string{`name="event" required><option value="" selected>`, `name="state" required><option value="" selected>`} {
		if !strings.Contains(page, sel) {
			t.Errorf("the case page lacks %s", sel)
		}
	}
	_, page = f.do(req{method: "GET", path: "/cases/" + string(f.caseIDs[2]), as: "it"})
	form := url.Values{"idempotency_key": {idemKeyOf(t, page, "event-form")}, "event": {""}, "at": {"2027-02-21T08:00"}}
	res, body := f.do(req{method: "POST", path: "/cases/" + string(f.caseIDs[2]) + "/events", as: "it", body: form.Encode(), contentType: "application/x-www-form-urlencoded"})
	if res.StatusCode != 400 || !strings.Contains(body, "no event chosen") {
		t.Errorf("an empty event: %d %.2000s", res.StatusCode, body)
	}
	res, body = f.do(req{method: "POST", path: "/api/v1/cases/" + string(f.caseIDs[2]) + "/events", as: "it", body: `{"event":""}`})
	if res.StatusCode != 400 || apiErr(t, body).Field != "event" {
		t.Errorf("an empty event in the API: %d %s", res.StatusCode, body)
	}
}

// TestTimesAndTextFromOutside: every time read from outside (an event's at in the API
// and the form, an arrival's at in a list) is refused when missing-as-zero, before
// 1990 or in the future, naming the field, and nothing is written; text with a bidi
// override is refused in a list and in an event's note.
func TestTimesAndTextFromOutside(t *testing.T) {
	f := newFixture(t, fixtureOpts{cases: true})
	ctx := context.Background()
	head, _, _ := f.store.Head(ctx)
	events := "/api/v1/cases/" + string(f.caseIDs[2]) + "/events"
	for _, c := range []struct{ body, field string }{
		{`{"event":"screening-started","at":"0001-01-01"}`, "at"},
		{`{"event":"screening-started","at":"0001-01-01T00:00:00Z"}`, "at"},
		{`{"event":"screening-started","at":"1970-01-01"}`, "at"},
		{`{"event":"screening-started","at":"2100-01-01"}`, "at"},
		{`{"event":"screening-started","at":"2027-03-01T12:06:00Z"}`, "at"}, // beyond the 5 minutes of clock skew
		{`{"event":"screening-started","at":"yesterday"}`, "at"},
		{`{"event":"screening-started","note":"seen \u202Eefas"}`, "note"},
	} {
		res, body := f.do(req{method: "POST", path: events, as: "it", body: c.body})
		if res.StatusCode != 400 || apiErr(t, body).Field != c.field {
			t.Errorf("%s: %d %s", c.body, res.StatusCode, body)
		}
	}
	form := url.Values{"event": {"screening-started"}, "at": {"0001-01-01T00:00"}, "idempotency_key": {"form-k1"}}
	if res, body := f.do(req{method: "POST", path: "/cases/" + string(f.caseIDs[2]) + "/events", as: "it", body: form.Encode(),
		contentType: "application/x-www-form-urlencoded"}); res.StatusCode != 400 || !strings.Contains(body, "is missing") {
		t.Errorf("the form with at 0001-01-01: %d", res.StatusCode)
	}
	for _, list := range []string{
		strings.NewReplacer("Test Star", "Future Star", "2027-02-20T06:00:00Z", "2100-02-20T06:00:00Z").Replace(seedList),
		strings.NewReplacer("Test Star", "Old Star", "2027-02-20T06:00:00Z", "1900-02-20T06:00:00Z").Replace(seedList),
		strings.NewReplacer("Test Star", "Bidi Star", "Chiara Placeholder", "Chiara \u202Eredlohecalp").Replace(seedList),
		strings.NewReplacer("Test Star", "Bidi \u2066Star\u2069").Replace(seedList),
	} {
		res, body := f.do(req{method: "POST", path: "/api/v1/arrivals", as: "it", body: list, contentType: "text/csv"})
		if res.StatusCode != 400 {
			t.Errorf("list: %d %s", res.StatusCode, body)
			continue
		}
		if e := apiErr(t, body); e.Field != "arrival.at" && e.Field != "at" && e.Field != "name" && e.Field != "vessel" {
			t.Errorf("list refused on field %q: %s", e.Field, body)
		}
	}
	if h, _, _ := f.store.Head(ctx); h != head {
		t.Fatalf("refused times and texts wrote %d entries", h-head)
	}
	// Within the clock skew: accepted, recorded as now.
	res, body := f.do(req{method: "POST", path: events, as: "it", body: `{"event":"screening-started","at":"2027-03-01T12:03:00Z"}`})
	if res.StatusCode != 201 {
		t.Fatalf("an event 3 minutes ahead: %d %s", res.StatusCode, body)
	}
	var v struct {
		Flow struct {
			History []struct{ At time.Time } `json:"history"`
		} `json:"flow"`
	}
	_, body = f.do(req{method: "GET", path: "/api/v1/cases/" + string(f.caseIDs[2]), as: "it"})
	mustJSON(t, body, &v)
	if h := v.Flow.History; len(h) == 0 || !h[len(h)-1].At.Equal(time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)) {
		t.Errorf("the event 3 minutes ahead is recorded at %v, want now", h)
	}
}
