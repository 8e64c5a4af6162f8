package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"solidarity/internal/report"
)

// Issue 12 §2 and §3 on the command line: a pledge without an amount, a delivery of
// 9223372036854775807 after one relocation and a payment of 10^18+1 cents exit 2 and
// change nothing; every read still answers and the ledger verifies.
func TestCLIRefusesWhatWouldBreakTheCycle(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	must := func(args ...string) string {
		t.Helper()
		code, out, errs := run(t, append(args, "--db", db)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return out
	}
	refused := func(want string, args ...string) {
		t.Helper()
		code, out, errs := run(t, append(args, "--db", db)...)
		if code != 2 || !strings.Contains(errs, want) {
			t.Fatalf("%v: exit %d, %s%s; want exit 2 naming %q", args, code, out, errs, want)
		}
	}
	if code, _, errs := run(t, "cycle", "create", "--db", db, filepath.Join("..", "..", "internal", "cyclefile", "cycles", "2027.toml")); code != 0 {
		t.Fatal(errs)
	}
	must("pledge", "add", "--cycle", "2027", "--state", "DE", "--type", "relocation-applicants", "--relocations", "500")
	must("deliver", "--cycle", "2027", "--state", "DE", "--type", "relocation", "--relocations", "1")
	refused("relocations", "pledge", "add", "--cycle", "2027", "--state", "DE", "--type", "relocation-applicants")
	refused("relocations", "deliver", "--cycle", "2027", "--state", "DE", "--type", "relocation", "--relocations", "9223372036854775807")
	refused("relocations", "deliver", "--cycle", "2027", "--state", "DE", "--type", "relocation", "--relocations", "9223372036854775807", "--over-delivery")
	refused("eur", "deliver", "--cycle", "2027", "--state", "DE", "--type", "payment", "--eur", "10000000000000000.01", "--over-delivery")
	must("pledge", "add", "--cycle", "2027", "--state", "FR", "--type", "none")

	var b report.Balances
	if err := json.Unmarshal([]byte(must("balances", "--cycle", "2027", "--format", "json")), &b); err != nil {
		t.Fatal(err)
	}
	for _, s := range b.States {
		if s.State == "DE" && (s.Pledged == nil || s.Pledged.RelocationApplicants != 500 || s.Delivered.Relocations != 1) {
			t.Fatalf("DE after the refused writes: pledged %+v, delivered %+v", s.Pledged, s.Delivered)
		}
	}
	if out := must("ledger", "verify"); !strings.Contains(out, "ledger OK: 4 entries") {
		t.Fatalf("verify: %s", out)
	}
}

// Issue 12 §3: `balances --as-of DATE` shows the ledger as it stood at the end of that
// day: deliveries recorded later (here: today) do not count.
func TestCLIBalancesAsOf(t *testing.T) {
	db := filepath.Join(t.TempDir(), "t.db")
	for _, args := range [][]string{
		{"cycle", "create", "--db", db, filepath.Join("..", "..", "internal", "cyclefile", "cycles", "2027.toml")},
		{"deliver", "--db", db, "--cycle", "2027", "--state", "DE", "--type", "relocation", "--relocations", "3", "--over-delivery"},
	} {
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	now := time.Now().UTC()
	for _, c := range []struct {
		day  string
		want int64
	}{{now.AddDate(0, 0, -1).Format(time.DateOnly), 0}, {now.Format(time.DateOnly), 3}, {"", 3}} {
		args := []string{"balances", "--cycle", "2027", "--format", "json", "--db", db}
		if c.day != "" {
			args = append(args, "--as-of", c.day)
		}
		code, out, errs := run(t, args...)
		if code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
		var b report.Balances
		if err := json.Unmarshal([]byte(out), &b); err != nil {
			t.Fatal(err)
		}
		if b.Delivered.Relocations != c.want {
			t.Errorf("as of %q: delivered %d, want %d", c.day, b.Delivered.Relocations, c.want)
		}
	}
}
