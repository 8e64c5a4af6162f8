package e2e_test

import (
	"net/http/httptest"
	"testing"

	"solidarity/internal/catalog"
	"solidarity/internal/web"
)

// TestWhatIfInBrowser: the What-if page as the public meets it, on the shipped
// scenarios (e2e/whatif.test.mjs): four states switched from relocation to payment,
// the coverage and the frontier changed, the CSV and the scenario file downloaded, a
// screenshot taken (to SOLIDARITY_SCREENSHOTS when set), and the form refusing a field
// out of bounds.
func TestWhatIfInBrowser(t *testing.T) {
	node := prerequisites(t)
	srv, err := web.New(&catalog.Catalog{}, serverLog(t), 2026)
	if err != nil {
		t.Fatalf("web.New: %v", err)
	}
	ts := httptest.NewServer(srv)
	defer ts.Close()
	runNode(t, node, "whatif.test.mjs", "SOLIDARITY_URL="+ts.URL, "SOLIDARITY_TMP="+t.TempDir())
}
