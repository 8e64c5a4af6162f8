// Package e2e_test runs the browser tests (node --test and playwright-core driving
// Debian's chromium) against the real web handler, so that `go test ./...` covers
// what a person sees in a browser: dashboard.test.mjs on the shipped data, and
// ledger.test.mjs on a server with a SQLite ledger (login, pledging, refusals).
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
	"strings"
	"sync"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/cyclefile"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/sqlite"
	"solidarity/internal/web"
)

const timeout = 2 * time.Minute

func TestDashboardInBrowser(t *testing.T) {
	node := prerequisites(t)
	srv, err := web.New(&catalog.Catalog{}, serverLog(t), 2026)
	if err != nil {
		t.Fatalf("web.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	runNode(t, node, "dashboard.test.mjs", "SOLIDARITY_URL="+ts.URL)
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
