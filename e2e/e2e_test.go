// Package e2e_test runs the browser tests (node --test and playwright-core driving
// Debian's chromium) against the real web handler, so that `go test ./...` covers
// what a person sees in a browser: dashboard.test.mjs on the shipped data,
// ledger.test.mjs on a server with a SQLite ledger (login, pledging, refusals), and
// caseflow.test.mjs on a server with the case flow (a landing imported, a family
// relocated from Italy to Germany, the transfer counted against Germany's pledge), and
// proposal.test.mjs on a server with relocation candidates and pledges (the matching
// engine's proposal, a family's explanation, the placements accepted).
//
// Set up once with `cd e2e && npm ci` and `apt-get install chromium`. Without node,
// playwright-core or chromium the test skips, unless SOLIDARITY_E2E=required (as in CI),
// where it fails instead.
package e2e_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
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
	"solidarity/internal/cyclefile"
	"solidarity/internal/keyring"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/sqlite"
	"solidarity/internal/web"
)

const timeout = 2 * time.Minute

func TestDashboardInBrowser(t *testing.T) {
	node := prerequisites(t)
	ts := publicServer(t)
	runNode(t, node, "dashboard.test.mjs", "SOLIDARITY_URL="+ts.URL)
}

// publicServer serves the shipped data without a store: the public's pages (the
// dashboard, the What-if page). It is closed when the test ends.
func publicServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv, err := web.New(&catalog.Catalog{}, serverLog(t), 2026)
	if err != nil {
		t.Fatalf("web.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts
}

// TestLedgerInBrowser serves the real handler with a ledger on a fresh SQLite
// database, seeded with the shipped 2026 cycle and two officers, DE and FR, whose
// credentials go to ledger.test.mjs in the environment.
func TestLedgerInBrowser(t *testing.T) {
	node := prerequisites(t)
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "ledger.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	svc := ledgersvc.New(st, nil)
	system := solidarity.NewContextWithUser(ctx, solidarity.System)
	src, err := cyclefile.ShippedSource(2026)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := svc.CreateCycle(system, string(src), ""); err != nil {
		t.Fatalf("seeding the 2026 cycle: %v", err)
	}
	env := []string{}
	for _, u := range []*solidarity.User{
		{Name: "officer-de", Role: solidarity.Officer, State: "DE"},
		{Name: "officer-fr", Role: solidarity.Officer, State: "FR"},
	} {
		password := rand.Text()
		if err := svc.AddUser(system, u, password); err != nil {
			t.Fatal(err)
		}
		env = append(env, fmt.Sprintf("SOLIDARITY_%s_USER=%s", u.State, u.Name), fmt.Sprintf("SOLIDARITY_%s_PASSWORD=%s", u.State, password))
	}
	srv, err := web.New(&catalog.Catalog{}, serverLog(t), 2026, web.WithLedger(svc))
	if err != nil {
		t.Fatalf("web.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	runNode(t, node, "ledger.test.mjs", append(env, "SOLIDARITY_URL="+ts.URL)...)
}

// caseflowNames are the fictional people caseflow.test.mjs imports: a family of two
// and one person alone. The server's log must never hold them.
var caseflowNames = []string{"Hanna Fictiva", "Omar Fictivo", "Lina Inventa"}

// TestCaseflowInBrowser serves the real handler with a ledger and the case flow on a
// fresh SQLite database: the shipped cycles, a relocation pledge of 10 places by
// Germany for the year of the landing, and the coordinator and the officers of Italy,
// Germany and France, whose credentials go to caseflow.test.mjs in the environment.
// The landing is dated four days ago (the server's clock is real time), so that every
// event the test records is after it and not in the future.
func TestCaseflowInBrowser(t *testing.T) {
	node := prerequisites(t)
	ctx := t.Context()
	svc, cases := caseServices(t, "cases.db")
	system := solidarity.NewContextWithUser(ctx, solidarity.System)
	landed := time.Now().UTC().Add(-4 * 24 * time.Hour).Truncate(time.Hour)
	// Allocation draws on the pledge of the current year, the transfer is delivered in
	// the year it happens: pledge for both (they differ only around New Year).
	for _, y := range slices.Compact([]int{landed.Year(), time.Now().UTC().Year()}) {
		if !slices.Contains(cyclefile.Shipped(), y) {
			t.Skipf("no shipped cycle for %d: the browser test of the case flow needs one", y)
		}
		if _, _, err := svc.Pledge(system, y, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 10}, ""); err != nil {
			t.Fatal(err)
		}
	}
	env := []string{"SOLIDARITY_LANDED=" + landed.Format(time.RFC3339), "SOLIDARITY_YEAR=" + strconv.Itoa(landed.Year()),
		"SOLIDARITY_NAMES=" + strings.Join(caseflowNames, ";")}
	for _, u := range []*solidarity.User{
		{Name: "coordinator", Role: solidarity.Coordinator},
		{Name: "officer-it", Role: solidarity.Officer, State: "IT"},
		{Name: "officer-de", Role: solidarity.Officer, State: "DE"},
		{Name: "officer-fr", Role: solidarity.Officer, State: "FR"},
	} {
		password := rand.Text()
		if err := svc.AddUser(system, u, password); err != nil {
			t.Fatal(err)
		}
		key := strings.ToUpper(strings.ReplaceAll(u.Name, "-", "_"))
		env = append(env, "SOLIDARITY_"+key+"_USER="+u.Name, "SOLIDARITY_"+key+"_PASSWORD="+password)
	}
	// Every log line of the server, at every level, to check it for names after.
	var logs syncBuffer
	logger := slog.New(slog.NewMultiHandler(serverLog(t).Handler(),
		slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	srv, err := web.New(&catalog.Catalog{}, logger, 2026, web.WithLedger(svc), web.WithCases(cases))
	if err != nil {
		t.Fatalf("web.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	runNode(t, node, "caseflow.test.mjs", append(env, "SOLIDARITY_URL="+ts.URL, "SOLIDARITY_TMP="+t.TempDir())...)
	out := logs.String()
	if !strings.Contains(out, "/cases/") {
		t.Fatal("the server logged no case request: the log check would prove nothing")
	}
	for _, n := range caseflowNames {
		for _, part := range strings.Fields(n) {
			if strings.Contains(out, part) {
				t.Errorf("the server log holds %q, part of a person's name", part)
			}
		}
	}
}

// proposalNames are the fictional people of TestProposalInBrowser's landing: two
// families and one person alone. The server's log must never hold them.
var proposalNames = []string{"Ada Fintiva", "Bo Fintiva", "Cyra Fintivo", "Dan Fintivo", "Eda Fintivo", "Fay Inventada"}

// TestProposalInBrowser serves the real handler with a ledger and the case flow on a
// fresh SQLite database: the shipped cycles; relocation pledges for the current year
// by Germany (6) and France (4); a landing in Italy four days ago whose three families
// (two, three and one persons, with stated preferences and languages) are cleared
// for relocation and not allocated; and the coordinator, whose credentials go to
// proposal.test.mjs in the environment.
func TestProposalInBrowser(t *testing.T) {
	node := prerequisites(t)
	ctx := t.Context()
	svc, cs := caseServices(t, "proposal.db")
	system := solidarity.NewContextWithUser(ctx, solidarity.System)
	year := time.Now().UTC().Year()
	if !slices.Contains(cyclefile.Shipped(), year) {
		t.Skipf("no shipped cycle for %d: the browser test of the proposal needs one", year)
	}
	for _, p := range []struct {
		m solidarity.MemberState
		n int64
	}{{"DE", 6}, {"FR", 4}} {
		if _, _, err := svc.Pledge(system, year, p.m, solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: p.n}, ""); err != nil {
			t.Fatal(err)
		}
	}
	landed := time.Now().UTC().Add(-4 * 24 * time.Hour).Truncate(time.Hour)
	person := func(ref, fam, name string, langs []string, prefs ...solidarity.MemberState) arrival.Person {
		return arrival.Person{Ref: ref, Family: solidarity.FamilyID(fam), Name: name, AssessedAge: 30, Sex: arrival.OtherSx,
			Nationality: "ER", Languages: langs, Preferences: prefs}
	}
	list := &arrival.List{
		Arrival: solidarity.Arrival{Vessel: "Proposal Star (fictional)", Port: "Pozzallo", At: landed, SAR: true, Benefitting: "IT"},
		Persons: []arrival.Person{
			person("P1", "K1", proposalNames[0], []string{"ti", "de"}, "DE"), person("P2", "K1", proposalNames[1], []string{"ti"}),
			person("P3", "K2", proposalNames[2], []string{"fr"}, "FR", "DE"), person("P4", "K2", proposalNames[3], nil), person("P5", "K2", proposalNames[4], nil),
			person("P6", "", proposalNames[5], []string{"ar"}, "FR"),
		},
	}
	registerCandidates(t, system, cs, list, landed, 0, 2, 5)
	password := rand.Text()
	if err := svc.AddUser(system, &solidarity.User{Name: "coordinator", Role: solidarity.Coordinator}, password); err != nil {
		t.Fatal(err)
	}
	env := []string{"SOLIDARITY_COORDINATOR_USER=coordinator", "SOLIDARITY_COORDINATOR_PASSWORD=" + password,
		"SOLIDARITY_FAMILIES=3", "SOLIDARITY_YEAR=" + strconv.Itoa(year), "SOLIDARITY_NAMES=" + strings.Join(proposalNames, ";")}
	ts, logs := caseFlowServer(t, svc, cs)
	runNode(t, node, "proposal.test.mjs", append(env, "SOLIDARITY_URL="+ts.URL)...)
	checkLogNames(t, logs, "/relocation", proposalNames)
}

// registerCandidates registers the arrival list, takes its cases through
// screening, application and registration together, and clears the families
// whose heads are at those indices for relocation.
func registerCandidates(t *testing.T, system context.Context, cs *casesvc.Service, list *arrival.List, landed time.Time, heads ...int) {
	t.Helper()
	reg, err := cs.Register(system, list, "")
	if err != nil {
		t.Fatal(err)
	}
	ids := make([]solidarity.CaseID, len(reg.Cases))
	for i, c := range reg.Cases {
		ids[i] = c.ID
	}
	step := func(req casesvc.EventRequest) {
		t.Helper()
		if _, err := cs.Apply(system, req, ""); err != nil {
			t.Fatalf("%s: %v", req.Event, err)
		}
	}
	for i, ev := range []cases.Event{cases.ScreeningStarted, cases.Applied, cases.Registration} {
		step(casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: ev, At: landed.Add(time.Duration(i+1) * time.Hour)})
	}
	for _, head := range heads {
		step(casesvc.EventRequest{Case: ids[head], Event: cases.RelocationCandidate, At: landed.Add(4 * time.Hour)})
		step(casesvc.EventRequest{Case: ids[head], Event: cases.RelocationCleared, At: landed.Add(5 * time.Hour)})
	}
}

// caseFlowServer serves the real handler over the ledger and the case flow, its log
// to the test's and to the buffer returned (checkLogNames reads it).
func caseFlowServer(t *testing.T, svc *ledgersvc.Service, cs *casesvc.Service) (*httptest.Server, *syncBuffer) {
	t.Helper()
	logs := &syncBuffer{}
	logger := slog.New(slog.NewMultiHandler(serverLog(t).Handler(),
		slog.NewJSONHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})))
	srv, err := web.New(&catalog.Catalog{}, logger, 2026, web.WithLedger(svc), web.WithCases(cs))
	if err != nil {
		t.Fatalf("web.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts, logs
}

// checkLogNames fails when the server's log holds a part of one of names, or no
// request to path (then the check would prove nothing).
func checkLogNames(t *testing.T, logs *syncBuffer, path string, names []string) {
	t.Helper()
	out := logs.String()
	if !strings.Contains(out, path) {
		t.Fatalf("the server logged no request to %s: the log check would prove nothing", path)
	}
	for _, n := range names {
		for _, part := range strings.Fields(n) {
			if strings.Contains(out, part) {
				t.Errorf("the server log holds %q, part of a person's name", part)
			}
		}
	}
}

// TestDiciottiProposalInBrowser: the coordinator asks the matching engine for a
// proposal for the Diciotti demo's relocation candidates and reads one family's
// explanation (e2e/proposal-diciotti.test.mjs). The demo's pledges are those of its
// own cycle (app.DemoCycle), whatever the current year.
func TestDiciottiProposalInBrowser(t *testing.T) {
	node := prerequisites(t)
	ctx := t.Context()
	svc, cs := caseServices(t, "diciotti.db")
	system := solidarity.NewContextWithUser(ctx, solidarity.System)
	if err := app.SeedDiciotti(ctx, svc, cs); err != nil {
		t.Fatal(err)
	}
	recs, err := cs.Cases(system, solidarity.CaseFilter{Open: true})
	if err != nil {
		t.Fatal(err)
	}
	families := map[solidarity.FamilyID]bool{}
	for _, r := range recs {
		if r.State == cases.RelocationSecurityCleared && r.Allocated == "" {
			families[r.Family] = true
		}
	}
	if len(families) == 0 {
		t.Fatal("the Diciotti demo left no relocation candidate to propose for")
	}
	password := rand.Text()
	if err := svc.AddUser(system, &solidarity.User{Name: "coordinator", Role: solidarity.Coordinator}, password); err != nil {
		t.Fatal(err)
	}
	srv, err := web.New(&catalog.Catalog{}, serverLog(t), 2026, web.WithLedger(svc), web.WithCases(cs))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	runNode(t, node, "proposal-diciotti.test.mjs", "SOLIDARITY_URL="+ts.URL, "SOLIDARITY_COORDINATOR_USER=coordinator",
		"SOLIDARITY_COORDINATOR_PASSWORD="+password, "SOLIDARITY_FAMILIES="+strconv.Itoa(len(families)), "SOLIDARITY_DEMO_CYCLE="+strconv.Itoa(app.DemoCycle))
}

// caseServices opens a fresh SQLite database named name, seeds the shipped cycles and
// returns the ledger and case-flow services on it (closed when the test ends).
func caseServices(t *testing.T, name string) (*ledgersvc.Service, *casesvc.Service) {
	t.Helper()
	st, err := sqlite.Open(t.Context(), filepath.Join(t.TempDir(), name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := ledgersvc.New(st, &catalog.Catalog{})
	if _, err := app.Seed(t.Context(), svc, false); err != nil {
		t.Fatal(err)
	}
	keys, err := keyring.Parse("e2e", strings.NewReader(keyring.NewKey(1)))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := app.Cases(svc, keys)
	if err != nil {
		t.Fatal(err)
	}
	return svc, cs
}

// syncBuffer collects log lines from the server's goroutines.
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

// serverLog sends the server's warnings and errors to the test log.
func serverLog(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

// runNode runs one test file under node --test with env added to the environment.
func runNode(t *testing.T, node, file string, env ...string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "--test", "--test-reporter=spec", file)
	cmd.Dir = "."
	cmd.Env = append(append(os.Environ(), "NO_COLOR=1", "FORCE_COLOR=0"), env...)
	cmd.WaitDelay = 5 * time.Second
	w := &lineWriter{t: t}
	cmd.Stdout, cmd.Stderr = w, w

	start := time.Now()
	err := cmd.Run()
	w.flush()
	if ctx.Err() != nil {
		t.Fatalf("node --test %s did not finish within %v", file, timeout)
	}
	if err != nil {
		t.Fatalf("node --test %s failed after %v: %v", file, time.Since(start).Round(time.Millisecond), err)
	}
	t.Logf("node --test %s passed in %v", file, time.Since(start).Round(time.Millisecond))
}

// prerequisites returns the node binary, or skips (fails under SOLIDARITY_E2E=required)
// when node, playwright-core or chromium is missing.
func prerequisites(t *testing.T) string {
	t.Helper()
	required := os.Getenv("SOLIDARITY_E2E") == "required"
	missing := func(format string, args ...any) {
		t.Helper()
		if required {
			t.Fatalf("SOLIDARITY_E2E=required: "+format, args...)
		}
		t.Skipf("skipping browser tests: "+format+" (set SOLIDARITY_E2E=required to fail instead)", args...)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		missing("node not found on PATH: %v", err)
	}
	if _, err := os.Stat(filepath.Join("node_modules", "playwright-core", "package.json")); err != nil {
		missing("e2e/node_modules/playwright-core is not installed: run `cd e2e && npm ci`")
	}
	chromium := os.Getenv("CHROMIUM")
	if chromium == "" {
		chromium = "/usr/bin/chromium"
	}
	if st, err := os.Stat(chromium); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		missing("no chromium executable at %s: run `apt-get install chromium` or set CHROMIUM", chromium)
	}
	return node
}

// lineWriter sends node's output to the test log line by line, as it comes.
type lineWriter struct {
	t   *testing.T
	mu  sync.Mutex
	buf []byte
}

func (w *lineWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf = append(w.buf, p...)
	for {
		i := strings.IndexByte(string(w.buf), '\n')
		if i < 0 {
			break
		}
		w.t.Log(strings.TrimRight(string(w.buf[:i]), "\r"))
		w.buf = w.buf[i+1:]
	}
	return len(p), nil
}

func (w *lineWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.buf) > 0 {
		w.t.Log(string(w.buf))
		w.buf = nil
	}
}

// testWriter sends the server's warnings and errors to the test log.
type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}
