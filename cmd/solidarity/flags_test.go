package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// Every command parses its own flags: a flag of another command is an error (exit 2,
// naming the flag), never silently ignored. `cases --apply --target DE --family` used
// to list the cases and exit 0.
func TestFlagOfAnotherCommandIsAnError(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	t.Setenv("SOLIDARITY_SERVER", "")
	db := filepath.Join(t.TempDir(), "f.db")
	if code, _, errs := run(t, "arrival", "import", "../../arrival/testdata/ship.csv", "--db", db, "--key", "k1"); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"cases", "--apply", "--target", "DE", "--family"}, "apply"},
		{[]string{"cases", "--target", "DE"}, "target"},
		{[]string{"case", "C-1", "--within", "1h"}, "within"},
		{[]string{"event", "C-1", "screening-started", "--yes"}, "yes"},
		{[]string{"allocate", "C-1", "DE", "--family"}, "family"},
		{[]string{"deadlines", "--person"}, "person"},
		{[]string{"erase", "--format", "json"}, "format"},
		{[]string{"arrival", "import", "x.csv", "--state", "IT"}, "state"},
		{[]string{"keys", "reseal", "--id", "2"}, "id"},
		{[]string{"pledge", "add", "--cycle", "2026", "--state", "DE", "--type", "none", "--ref", "x"}, "ref"},
		{[]string{"deliver", "--cycle", "2026", "--state", "DE", "--type", "relocation", "--relocations", "1", "--favourable"}, "favourable"},
		{[]string{"deduction", "assess", "--cycle", "2026", "--ref", "x", "--article", "61"}, "article"},
		{[]string{"deduction", "request", "--cycle", "2026", "--state", "AT", "--article", "62", "--full", "--granted"}, "granted"},
		{[]string{"offset", "reply", "--cycle", "2026", "--ref", "x", "--accepted", "1", "--counterpart", "IT"}, "counterpart"},
		{[]string{"status", "set", "--cycle", "2026", "--state", "DE", "--eur", "1"}, "eur"},
		{[]string{"balances", "--cycle", "2026", "--key", "k"}, "key"},
		{[]string{"cycle", "create", "--cycle", "2026", "x.toml"}, "cycle"},
		{[]string{"ledger", "verify", "--out", "x"}, "out"},
		{[]string{"user", "list", "--role", "auditor"}, "role"},
		{[]string{"token", "list", "--ttl", "1d"}, "ttl"},
	} {
		code, out, errs := run(t, append(c.args, "--db", db)...)
		if code != 2 || !strings.Contains(errs, "flag provided but not defined: -"+c.flag) {
			t.Errorf("%v: exit %d, stdout %.200q, stderr %.200q; want exit 2 naming -%s", c.args, code, out, errs, c.flag)
		}
	}
}

// A command sent to a server takes no --db and no --as: the token says who acts, and
// a local flag that would be ignored is an error (exit 2, naming the flag), before any
// request is sent.
func TestLocalFlagWithServerIsAnError(t *testing.T) {
	t.Setenv("SOLIDARITY_SERVER", "")
	for _, c := range []struct {
		args []string
		flag string
	}{
		{[]string{"balances", "--cycle", "2026", "--db", "x.db"}, "--db"},
		{[]string{"ledger", "verify", "--as", "coord"}, "--as"},
		{[]string{"deadlines", "--db", "x.db"}, "--db"},
		{[]string{"cases", "--as", "off-it"}, "--as"},
	} {
		// The port is closed: an error about the flag came before any request.
		code, _, errs := run(t, append(c.args, "--server", "http://127.0.0.1:1")...)
		if code != 2 || !strings.Contains(errs, c.flag) || !strings.Contains(errs, "--server") {
			t.Errorf("%v: exit %d, stderr %.200q; want exit 2 naming %s and --server", c.args, code, errs, c.flag)
		}
	}
}

// --token on a local database is an error naming it: --as says who acts there.
func TestTokenWithoutServerIsAnError(t *testing.T) {
	t.Setenv("SOLIDARITY_SERVER", "")
	db := filepath.Join(t.TempDir(), "t.db")
	code, _, errs := run(t, "ledger", "verify", "--db", db, "--token", "zzz")
	if code != 2 || !strings.Contains(errs, "--token") {
		t.Errorf("exit %d, stderr %.200q; want exit 2 naming --token", code, errs)
	}
}
