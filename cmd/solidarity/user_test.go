package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// withStdin runs fn with standard input reading s.
func withStdin(t *testing.T, s string, fn func()) {
	t.Helper()
	f, err := os.CreateTemp(t.TempDir(), "stdin")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(s)
	f.Seek(0, 0)
	old := os.Stdin
	os.Stdin = f
	defer func() { os.Stdin = old; f.Close() }()
	fn()
}

// TestAccountCommands: the operator's account commands on a local database (issue
// 12): tokens with a lifetime, listed and revoked; users disabled and enabled;
// passwords reset and changed; all of it in the admin log, without secrets.
func TestAccountCommands(t *testing.T) {
	db := filepath.Join(t.TempDir(), "a.db")
	must := func(args ...string) string {
		t.Helper()
		code, out, errs := run(t, append(args, "--db", db)...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
		return out
	}
	withStdin(t, "first long password\n", func() {
		must("user", "add", "--name", "ana", "--role", "officer", "--state", "PT", "--password-stdin")
	})
	tok := strings.TrimSpace(must("token", "create", "--name", "ana", "--label", "laptop", "--ttl", "30d"))
	list := must("token", "list")
	m := regexp.MustCompile(`(?m)^([0-9a-f]{16})\s+ana\s+laptop\s+\S+\s+(\S+)$`).FindStringSubmatch(list)
	if m == nil || strings.Contains(list, tok) {
		t.Fatalf("token list:\n%s", list)
	}
	if code, _, _ := run(t, "token", "create", "--db", db, "--name", "ana", "--ttl", "5y"); code != 2 {
		t.Fatalf("a bad --ttl: exit %d", code)
	}
	must("user", "disable", "--name", "ana")
	if out := must("user", "list"); !regexp.MustCompile(`ana\s+officer\s+PT\s+disabled`).MatchString(out) {
		t.Fatalf("user list:\n%s", out)
	}
	must("user", "enable", "--name", "ana")
	out := must("user", "reset-password", "--name", "ana")
	pw := regexp.MustCompile(`shown once\): (\S+)`).FindStringSubmatch(out)
	if pw == nil {
		t.Fatalf("reset-password: %s", out)
	}
	withStdin(t, pw[1]+"\nsecond long password\n", func() { must("user", "passwd", "--name", "ana") })
	withStdin(t, "not the password\nthird long password\n", func() {
		if code, _, _ := run(t, "user", "passwd", "--db", db, "--name", "ana"); code != 2 {
			t.Fatalf("passwd with a wrong current password: exit %d", code)
		}
	})
	must("token", "revoke", "--id", m[1])
	if code, _, _ := run(t, "token", "revoke", "--db", db, "--id", m[1]); code != 2 {
		t.Fatalf("revoking twice: exit %d", code)
	}
	if out := must("token", "list"); strings.Contains(out, m[1]) {
		t.Fatalf("a revoked token listed:\n%s", out)
	}
	log := must("user", "log")
	for _, want := range []string{"user.add", "token.create", "user.disable", "user.enable", "password.reset", "password.change", "token.revoke"} {
		if !strings.Contains(log, want) {
			t.Errorf("user log lacks %s:\n%s", want, log)
		}
	}
	for _, secret := range []string{tok, pw[1], "first long password", "second long password"} {
		if strings.Contains(log, secret) {
			t.Errorf("a secret in the admin log")
		}
	}
}

// TestServeTransportFlags: a bad --trusted-proxy or an unusable --tls-cert/--tls-key
// is refused (exit 2) before the database is touched.
func TestServeTransportFlags(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	for _, args := range [][]string{
		{"--trusted-proxy", "proxy.example"},
		{"--tls-cert", filepath.Join(dir, "cert.pem")},
		{"--tls-cert", filepath.Join(dir, "cert.pem"), "--tls-key", filepath.Join(dir, "key.pem")},
	} {
		code, _, errs := run(t, append([]string{"serve", "--db", db, "--addr", "127.0.0.1:0"}, args...)...)
		if code != 2 || !strings.Contains(errs, "--t") {
			t.Errorf("%v: exit %d: %s", args, code, errs)
		}
	}
	if _, err := os.Stat(db); !os.IsNotExist(err) {
		t.Errorf("the database was created: %v", err)
	}
}
