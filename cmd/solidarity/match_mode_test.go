package main

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// TestMatchOutputsOwnerOnly: the files match generate --out and match export --out
// write are the owner's only (0600), like a ledger export, whatever the umask, also
// where a world-readable file of that name was before; no temporary file is left.
func TestMatchOutputsOwnerOnly(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are POSIX")
	}
	old := syscallUmask(0o022)
	defer syscallUmask(old)
	dir := t.TempDir()
	gen, lp := filepath.Join(dir, "gen.json"), filepath.Join(dir, "gen.lp")
	if err := os.WriteFile(lp, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := run(t, "match", "generate", "--seed", "3", "--families", "20", "--localities", "2", "--out", gen); code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	if code, _, errs := run(t, "match", "export", "--out", lp, gen); code != 0 {
		t.Fatalf("export: exit %d: %s", code, errs)
	}
	for _, p := range []string{gen, lp} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 2 {
		t.Errorf("%d files in the directory, want 2: %v", len(entries), entries)
	}
}
