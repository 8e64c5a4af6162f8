package e2e_test

import "testing"

// TestWhatIfInBrowser: the What-if page as the public meets it, on the shipped
// scenarios (e2e/whatif.test.mjs): four states switched from relocation to payment,
// the coverage and the frontier changed, the CSV and the scenario file downloaded, a
// screenshot taken (to SOLIDARITY_SCREENSHOTS when set), and the form refusing a field
// out of bounds.
func TestWhatIfInBrowser(t *testing.T) {
	node := prerequisites(t)
	ts := publicServer(t)
	runNode(t, node, "whatif.test.mjs", "SOLIDARITY_URL="+ts.URL, "SOLIDARITY_TMP="+t.TempDir())
}
