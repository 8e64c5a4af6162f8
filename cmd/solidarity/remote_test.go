package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// The reads and the deadline commands run the same code on a server as on a local
// database, through internal/client: verify, export, the deadline view and --apply.
// The other case commands say they need a local database.
func TestRemoteReadsAndDeadlines(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	db := filepath.Join(t.TempDir(), "r.db")
	addr, _ := startServe(t, "--db", db, "--demo=false")
	server := "http://" + addr
	if code, _, errs := run(t, "user", "add", "--db", db, "--name", "coord", "--role", "coordinator"); code != 0 {
		t.Fatal(errs)
	}
	_, tok, _ := run(t, "token", "create", "--db", db, "--name", "coord")
	remote := []string{"--server", server, "--token", strings.TrimSpace(tok)}

	_, local, _ := run(t, "ledger", "verify", "--db", db)
	code, out, errs := run(t, append([]string{"ledger", "verify"}, remote...)...)
	if code != 0 || out != local || !strings.HasPrefix(out, "ledger OK: 2 entries") {
		t.Fatalf("remote verify: exit %d %q %s; local %q", code, out, errs, local)
	}
	_, localExport, _ := run(t, "ledger", "export", "--db", db)
	code, out, errs = run(t, append([]string{"ledger", "export"}, remote...)...)
	if code != 0 || out != localExport || strings.Count(out, "\n") != 2 || !strings.Contains(errs, "exported 2 entries") {
		t.Fatalf("remote export: exit %d %.200q %s", code, out, errs)
	}
	code, out, errs = run(t, append([]string{"deadlines", "--state", "it", "--within", "48h"}, remote...)...)
	if code != 0 || !strings.Contains(out, "0 time limits as of") {
		t.Fatalf("remote deadlines: exit %d %q %s", code, out, errs)
	}
	code, out, errs = run(t, append([]string{"deadlines", "--apply", "--yes"}, remote...)...)
	if code != 0 || !strings.Contains(out, "no missed time limit has a consequence to apply") {
		t.Fatalf("remote deadlines --apply: exit %d %q %s", code, out, errs)
	}
	code, _, errs = run(t, append([]string{"cases"}, remote...)...)
	if code != 2 || !strings.Contains(errs, "cases works on a local database only") {
		t.Fatalf("remote cases: exit %d %s", code, errs)
	}
	// The public may not verify: the server's refusal is exit 2.
	if code, _, errs := run(t, "ledger", "verify", "--server", server); code != 2 || !strings.Contains(errs, "authentication required") {
		t.Fatalf("public verify: exit %d %s", code, errs)
	}
}
