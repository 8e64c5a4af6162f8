package e2e_test

import (
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"solidarity/internal/app"
	"solidarity/internal/catalog"
	"solidarity/internal/keyring"
	"solidarity/internal/sqlite"
	"solidarity/internal/web"
)

// demoServer serves the real handler as `solidarity serve` does on a new SQLite file:
// the shipped cycles, one demonstration user per role and the Diciotti replay (arrivals,
// cases in every state, relocation candidates). It returns the server's URL and the
// users' credentials as SOLIDARITY_<USER>_USER/_PASSWORD lines for node.
func demoServer(t *testing.T) (string, []string) {
	t.Helper()
	ctx := t.Context()
	st, err := sqlite.Open(ctx, filepath.Join(t.TempDir(), "demo.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := app.Ledger(st)
	creds, err := app.Seed(ctx, svc, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(creds) == 0 {
		t.Fatal("the demonstration seeded no users")
	}
	cs, err := app.Cases(svc, mustKeys(t))
	if err != nil {
		t.Fatal(err)
	}
	if err := app.SeedDiciotti(ctx, svc, cs); err != nil {
		t.Fatal(err)
	}
	env := []string{"SOLIDARITY_DEMO_CYCLE=" + strconv.Itoa(app.DemoCycle)}
	for _, c := range creds {
		key := strings.ToUpper(strings.ReplaceAll(c.Name, "-", "_"))
		env = append(env, "SOLIDARITY_"+key+"_USER="+c.Name, "SOLIDARITY_"+key+"_PASSWORD="+c.Password)
	}
	srv, err := web.New(&catalog.Catalog{}, serverLog(t), 2026, web.WithLedger(svc), web.WithCases(cs))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	return ts.URL, env
}

// mustKeys is a fresh keyring for the personal records of a test's cases.
func mustKeys(t *testing.T) *keyring.Keyring {
	t.Helper()
	keys, err := keyring.Parse("e2e", strings.NewReader(keyring.NewKey(1)))
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestAccessibilityInBrowser runs axe-core's WCAG 2.1 A/AA rules over every page as
// the public and every role, and the 390 px check (e2e/a11y.test.mjs).
func TestAccessibilityInBrowser(t *testing.T) {
	node := prerequisites(t)
	url, env := demoServer(t)
	runNode(t, node, "a11y.test.mjs", append(env, "SOLIDARITY_URL="+url)...)
}

// TestKeyboardInBrowser walks the main tasks with the keyboard alone
// (e2e/keyboard.test.mjs).
func TestKeyboardInBrowser(t *testing.T) {
	node := prerequisites(t)
	url, env := demoServer(t)
	runNode(t, node, "keyboard.test.mjs", append(env, "SOLIDARITY_URL="+url)...)
}

// TestFindingsInBrowser shows issue 14's findings fixed, as their readers meet them
// (e2e/findings.test.mjs).
func TestFindingsInBrowser(t *testing.T) {
	node := prerequisites(t)
	url, env := demoServer(t)
	runNode(t, node, "findings.test.mjs", append(env, "SOLIDARITY_URL="+url)...)
}
