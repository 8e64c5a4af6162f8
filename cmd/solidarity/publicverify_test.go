package main

import (
	"bytes"
	"context"
	"encoding/csv"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"solidarity/internal/ledgersvc"
	"solidarity/internal/sqlite"
	"solidarity/ledger"
)

// publicDownload writes the public download of the ledger in db to a file, as GET
// /api/v1/ledger/public.jsonl serves it.
func publicDownload(t *testing.T, db string) string {
	t.Helper()
	st, err := sqlite.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	var b bytes.Buffer
	enc := ledger.NewPublicEncoder(&b)
	for p, err := range ledgersvc.New(st, nil).PublicEntries(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(p); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(t.TempDir(), "public.jsonl")
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// `ledger verify --file`: a download of a ledger with a pool, a pledge and a ship's
// list verifies offline, case-flow entries linked only; it holds no name of the list;
// one changed byte of the pledge exits 2 naming its line and entry.
func TestVerifyPublicFile(t *testing.T) {
	t.Setenv("SOLIDARITY_KEYS_FILE", "")
	t.Setenv("SOLIDARITY_KEYS", "")
	db := filepath.Join(t.TempDir(), "p.db")
	for _, args := range [][]string{
		{"cycle", "create", "--db", db, filepath.Join("..", "..", "internal", "cyclefile", "cycles", "2027.toml")},
		{"pledge", "add", "--cycle", "2027", "--state", "DE", "--type", "relocation-applicants", "--relocations", "500"},
		{"arrival", "import", "../../arrival/testdata/ship.csv"},
		{"deliver", "--cycle", "2027", "--state", "DE", "--type", "relocation", "--relocations", "1"},
	} {
		if !strings.Contains(strings.Join(args, " "), db) {
			args = append(args, "--db", db)
		}
		if code, out, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: exit %d %s %s", args, code, out, errs)
		}
	}
	file := publicDownload(t, db)
	_, full, _ := run(t, "ledger", "verify", "--db", db)
	head := regexp.MustCompile(`head ([0-9a-f]{64})`).FindStringSubmatch(full)
	code, out, errs := run(t, "ledger", "verify", "--file", file)
	if code != 0 || head == nil || !strings.Contains(out, "public ledger OK: 4 entries, 3 recomputed, 1 linked only") || !strings.Contains(out, "head 4 "+head[1]) {
		t.Fatalf("exit %d %s %s; the ledger: %s", code, out, errs, full)
	}

	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	ship, _ := os.ReadFile("../../arrival/testdata/ship.csv")
	var rows [][]string
	for _, l := range strings.Split(string(ship), "\n") {
		if !strings.HasPrefix(l, "#") && l != "" {
			r, err := csv.NewReader(strings.NewReader(l)).Read()
			if err == nil {
				rows = append(rows, r)
			}
		}
	}
	if len(rows) < 3 {
		t.Fatal("no people in the list")
	}
	for _, r := range rows[1:] { // name and birth date
		for _, personal := range []string{r[2], r[3]} {
			if personal != "" && bytes.Contains(src, []byte(personal)) {
				t.Errorf("the download holds %q", personal)
			}
		}
	}

	tampered := bytes.Replace(src, []byte(`"relocations":500`), []byte(`"relocations":501`), 1)
	if bytes.Equal(tampered, src) {
		t.Fatalf("no pledge of 500 in\n%s", src)
	}
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	os.WriteFile(bad, tampered, 0o644)
	code, _, errs = run(t, "ledger", "verify", "--file", bad)
	if code != 2 || !strings.Contains(errs, "line 2, entry 2: content does not match") {
		t.Fatalf("tampered: exit %d %s", code, errs)
	}
	if code, _, errs := run(t, "ledger", "verify", "--file", filepath.Join(t.TempDir(), "none")); code == 0 || !strings.Contains(errs, "cannot read") {
		t.Fatalf("no file: exit %d %s", code, errs)
	}
}
