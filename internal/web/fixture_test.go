package web_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/catalog"
	"solidarity/internal/keyring"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/sqlite"
	"solidarity/internal/web"
)

// testCycle is a cycle small enough to reason about: 2027 with Italy benefitting, as
// in the service's own tests.
const testCycle = `year = 2027
title = "test pool"
pool_start = 2027-01-01
deadline = 2027-12-31
method = "largest-remainder"

[proposal]
relocations = 30000
eur = 600_000_000

[reference]
relocations = 30000
eur = 600_000_000

[status.IT]
under_pressure = true
benefitting = true
`

// testPassword is the password of the fixture's users when it has passwords.
const testPassword = "correct horse battery staple"

// The fixture's users: name → user. "de" is the officer of the state most operations
// concern, "fr" another state's, "it" the benefitting state's.
var fixtureUsers = []*solidarity.User{
	{Name: "coord", Role: solidarity.Coordinator},
	{Name: "de", Role: solidarity.Officer, State: "DE"},
	{Name: "fr", Role: solidarity.Officer, State: "FR"},
	{Name: "it", Role: solidarity.Officer, State: "IT"},
	{Name: "audit", Role: solidarity.Auditor},
}

// clock is a settable clock for the login rate limit.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// fixture is a server with a ledger on a fresh SQLite database: the test cycle, the
// users above with an API token each, and the service clock on 1 March 2027.
type fixture struct {
	tb     testing.TB
	store  *sqlite.Store
	svc    *ledgersvc.Service
	srv    *web.Server
	ts     *httptest.Server
	clock  *clock
	tokens map[string]string
	logs   *syncBuffer
	// With the case flow (fixtureOpts.cases): the service, the seeded arrival and its
	// cases in the order of seedList (K1 head, K1 second member, single).
	cases   *casesvc.Service
	arrival solidarity.ArrivalID
	caseIDs []solidarity.CaseID
}

type fixtureOpts struct {
	passwords bool // give every user testPassword (argon2id: slow, so only when needed)
	setup     bool // the entries every operation needs (see setup)
	tls       bool
	cases     bool // the case flow, with seedList registered and its family K1 made relocation candidates
	options   []web.Option
}

// system is the context of the local administrator.
func system() context.Context {
	return solidarity.NewContextWithUser(context.Background(), solidarity.System)
}

func newFixture(tb testing.TB, o fixtureOpts) *fixture {
	tb.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, filepath.Join(tb.TempDir(), "x.db"))
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	svc := ledgersvc.New(st, nil)
	svc.Now = func() time.Time { return time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC) }
	if _, _, err := svc.CreateCycle(system(), testCycle, ""); err != nil {
		tb.Fatal(err)
	}
	f := &fixture{tb: tb, store: st, svc: svc, clock: &clock{t: time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)},
		tokens: map[string]string{}, logs: &syncBuffer{}}
	for _, u := range fixtureUsers {
		c := *u
		pw := ""
		if o.passwords {
			pw = testPassword
		}
		if err := svc.AddUser(system(), &c, pw); err != nil {
			tb.Fatal(err)
		}
		tok, err := svc.CreateToken(system(), c.Name, "test")
		if err != nil {
			tb.Fatal(err)
		}
		f.tokens[c.Name] = tok
	}
	if o.setup || o.cases {
		f.setup()
	}
	logger := slog.New(slog.NewJSONHandler(f.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opts := append([]web.Option{web.WithLedger(svc), web.WithClock(f.clock.Now)}, o.options...)
	if o.cases {
		opts = append(opts, web.WithCases(f.seedCases()))
	}
	f.srv, err = web.New(&catalog.Catalog{}, logger, 2027, opts...)
	if err != nil {
		tb.Fatal(err)
	}
	if o.tls {
		f.ts = httptest.NewTLSServer(f.srv)
	} else {
		f.ts = httptest.NewServer(f.srv)
	}
	tb.Cleanup(f.ts.Close)
	return f
}

// setup makes every operation possible: DE pledged money, FR relocations (so that the
// Art. 63(1) threshold is met), DE requested a deduction (DED-2027-DE-1), and IT asked
// DE for offsets (OFF-2027-IT-1).
func (f *fixture) setup() {
	f.tb.Helper()
	must := func(_ *solidarity.Entry, _ bool, err error) {
		f.tb.Helper()
		if err != nil {
			f.tb.Fatal(err)
		}
	}
	ctx := system()
	must(f.svc.Pledge(ctx, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1_000_000}, ""))
	must(f.svc.Pledge(ctx, 2027, "FR", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 15000}, ""))
	must(f.svc.RequestDeduction(ctx, 2027, "DE", solidarity.DeductionPayload{Article: "Art. 61", Fraction: "1/10"}, ""))
	must(f.svc.RequestOffset(ctx, 2027, "IT", solidarity.OffsetPayload{Counterpart: "DE", Applications: 5}, ""))
}

// seedNames are the fictional names of seedList: the log test looks for them.
var seedNames = []string{"Amal Testperson", "Bilal Testperson", "Chiara Placeholder"}

// seedList is a small SAR landing in Italy: a family of two (K1) and one person alone.
const seedList = `# vessel: Test Star (fictional)
# port: Pozzallo
# at: 2027-02-20T06:00:00Z
# sar: true
# benefitting_state: IT
ref,family,name,birth_date,assessed_age,sex,nationality,languages,preferences
P001,K1,Amal Testperson,1990-03-12,,F,ER,ti;en,FR
P002,K1,Bilal Testperson,1988-01-30,,M,ER,ti,FR
P003,,Chiara Placeholder,,30,F,SY,ar,
`

// seedCases makes the case service (sharing the ledger's clock), registers seedList
// and takes family K1 to RELOCATION_IDENTIFIED.
func (f *fixture) seedCases() *casesvc.Service {
	f.tb.Helper()
	keys, err := keyring.Parse("t", strings.NewReader(keyring.NewKey(1)))
	if err != nil {
		f.tb.Fatal(err)
	}
	cs, err := app.Cases(f.svc, keys)
	if err != nil {
		f.tb.Fatal(err)
	}
	l, err := arrival.ParseList("seed.csv", strings.NewReader(seedList))
	if err != nil {
		f.tb.Fatal(err)
	}
	reg, err := cs.Register(system(), l, "seed")
	if err != nil {
		f.tb.Fatal(err)
	}
	f.cases, f.arrival = cs, reg.Arrival.ID
	for _, c := range reg.Cases {
		f.caseIDs = append(f.caseIDs, c.ID)
	}
	at := reg.Arrival.At
	for i, ev := range []string{"screening-started", "application-made", "registered", "relocation-candidate"} {
		_, err := cs.Apply(system(), casesvc.EventRequest{Case: f.caseIDs[0], Event: cases.Event(ev), Family: true,
			At: at.Add(time.Duration(i+1) * time.Hour)}, "")
		if err != nil {
			f.tb.Fatal(err)
		}
	}
	return cs
}

// session logs name in through the service and returns the session cookie.
func (f *fixture) session(name string) *http.Cookie {
	f.tb.Helper()
	_, secret, err := f.svc.Login(context.Background(), name, testPassword)
	if err != nil {
		f.tb.Fatal(err)
	}
	return &http.Cookie{Name: web.SessionCookie, Value: secret}
}

// req describes one request of a test.
type req struct {
	method, path string
	as           string // user name whose token to send; "" for none
	cookie       *http.Cookie
	body         string
	contentType  string
	header       map[string]string
}

// do sends r without following redirects.
func (f *fixture) do(r req) (*http.Response, string) {
	f.tb.Helper()
	var body io.Reader
	if r.body != "" {
		body = strings.NewReader(r.body)
	}
	hr, err := http.NewRequest(r.method, f.ts.URL+r.path, body)
	if err != nil {
		f.tb.Fatal(err)
	}
	if r.body != "" {
		ct := r.contentType
		if ct == "" {
			ct = "application/json"
		}
		hr.Header.Set("Content-Type", ct)
	}
	if r.as != "" {
		hr.Header.Set("Authorization", "Bearer "+f.tokens[r.as])
	}
	if r.cookie != nil {
		hr.AddCookie(r.cookie)
	}
	for k, v := range r.header {
		hr.Header.Set(k, v)
	}
	client := f.ts.Client()
	client.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	res, err := client.Do(hr)
	if err != nil {
		f.tb.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		f.tb.Fatal(err)
	}
	return res, string(b)
}

// syncBuffer collects the server's log lines.
type syncBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
