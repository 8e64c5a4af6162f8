package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"solidarity"
	"solidarity/internal/sqlite"
)

// A database that must exist is never created: a missing path is ENOTFOUND naming it
// and leaves no file (nor -wal, -shm) behind.
func TestOpenMissingMustExist(t *testing.T) {
	for _, opt := range []sqlite.Option{sqlite.MustExist, sqlite.ReadOnly} {
		dir := t.TempDir()
		path := filepath.Join(dir, "typo.db")
		_, err := sqlite.Open(context.Background(), path, opt)
		if solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
			t.Errorf("option %d: %v, want ENOTFOUND", opt, err)
		}
		if e, ok := err.(*solidarity.Error); !ok || e.File != path {
			t.Errorf("option %d: error %v does not name %s", opt, err, path)
		}
		if ents, _ := os.ReadDir(dir); len(ents) != 0 {
			t.Errorf("option %d: left %v", opt, ents)
		}
	}
}

// A 0-byte file is refused in every mode, and left as it was.
func TestOpenEmptyFileRefused(t *testing.T) {
	for _, opts := range [][]sqlite.Option{nil, {sqlite.MustExist}, {sqlite.ReadOnly}} {
		path := filepath.Join(t.TempDir(), "empty.db")
		if err := os.WriteFile(path, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := sqlite.Open(context.Background(), path, opts...)
		if solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Errorf("%v: %v, want EINVALID", opts, err)
		}
		if fi, err := os.Stat(path); err != nil || fi.Size() != 0 {
			t.Errorf("%v: the empty file was changed: %v %v", opts, fi, err)
		}
	}
}

// A new database and its -wal and -shm files are readable by the owner only.
func TestOpenCreatesOwnerOnlyFiles(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("file modes are POSIX")
	}
	old := umask(0o022)
	defer umask(old)
	path := filepath.Join(t.TempDir(), "new.db")
	s, err := sqlite.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if err := s.CreateUser(context.Background(), &solidarity.User{Name: "a", Role: solidarity.Auditor}, ""); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path, path + "-wal", path + "-shm"} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: mode %v, want 0600", filepath.Base(p), fi.Mode().Perm())
		}
	}
}

// A read-only open reads a database the process may not write, and writes fail.
func TestOpenReadOnly(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ro.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateUser(ctx, &solidarity.User{Name: "a", Role: solidarity.Auditor}, ""); err != nil {
		t.Fatal(err)
	}
	s.Close()
	if err := os.Chmod(path, 0o400); err != nil {
		t.Fatal(err)
	}
	ro, err := sqlite.Open(ctx, path, sqlite.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	users, err := ro.Users(ctx)
	if err != nil || len(users) != 1 {
		t.Fatalf("users %v, %v", users, err)
	}
	if err := ro.CreateUser(ctx, &solidarity.User{Name: "b", Role: solidarity.Auditor}, ""); err == nil {
		t.Error("a read-only store wrote a user")
	}
}

// TestOpenReadOnlyCreatesNothing: reading a database nobody has open (no -wal, no
// -shm beside it) leaves nothing beside it: a read-only command creates nothing.
func TestOpenReadOnlyCreatesNothing(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "ro.db")
	s, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateUser(ctx, &solidarity.User{Name: "a", Role: solidarity.Auditor}, ""); err != nil {
		t.Fatal(err)
	}
	s.Close()
	list := func() []string {
		es, _ := os.ReadDir(dir)
		var names []string
		for _, e := range es {
			names = append(names, e.Name())
		}
		return names
	}
	before := list()
	ro, err := sqlite.Open(ctx, path, sqlite.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	if users, err := ro.Users(ctx); err != nil || len(users) != 1 {
		t.Fatalf("users %v, %v", users, err)
	}
	ro.Close()
	if after := list(); !slices.Equal(after, before) {
		t.Errorf("files %v after a read-only open, %v before", after, before)
	}
}
