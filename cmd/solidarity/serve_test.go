package main

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeRequestBudget: --request-budget is a positive duration; zero, a negative
// one or something that is not a duration is refused (exit 2) before the database is
// touched, and a good one passes on to the start (here stopped by a busy port).
func TestServeRequestBudget(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	for _, v := range []string{"0", "0s", "-1s", "ten", "30"} {
		code, _, errs := run(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--request-budget", v)
		if code != 2 || !strings.Contains(errs, "request-budget") {
			t.Errorf("--request-budget %s: exit %d: %s", v, code, errs)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the database was created: %v", err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, errs := run(t, "serve", "--db", db, "--addr", ln.Addr().String(), "--request-budget", "45s")
	if code == 0 || strings.Contains(errs, "request-budget") || strings.Contains(errs, "shorter than") || !strings.Contains(errs, "in use") {
		t.Errorf("--request-budget 45s on a busy port: exit %d: %s", code, errs)
	}
	// A budget too short for a relocation proposal starts, with a warning.
	code, _, errs = run(t, "serve", "--db", db, "--addr", ln.Addr().String(), "--request-budget", "5s")
	if code == 0 || !strings.Contains(errs, "shorter than the two solves") || !strings.Contains(errs, "in use") {
		t.Errorf("--request-budget 5s on a busy port: exit %d: %s", code, errs)
	}
	if code, out, _ := run(t, "serve", "--help"); code != 0 || !strings.Contains(out, "--request-budget") {
		t.Errorf("serve --help: exit %d, no --request-budget: %s", code, out)
	}
}

// TestServePublicMaxAge: --public-max-age takes 0 to 1m and nothing else, refused
// before the database is touched.
func TestServePublicMaxAge(t *testing.T) {
	db := filepath.Join(t.TempDir(), "s.db")
	for _, v := range []string{"-1s", "2m", "soon"} {
		code, _, errs := run(t, "serve", "--db", db, "--addr", "127.0.0.1:0", "--public-max-age", v)
		if code != 2 || !strings.Contains(errs, "public-max-age") {
			t.Errorf("--public-max-age %s: exit %d: %s", v, code, errs)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the database was created: %v", err)
	}
	if code, out, _ := run(t, "serve", "--help"); code != 0 || !strings.Contains(out, "--public-max-age") {
		t.Errorf("serve --help: exit %d, no --public-max-age: %s", code, out)
	}
}
