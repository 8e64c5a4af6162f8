package main

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jackc/pgx/v5"
	_ "modernc.org/sqlite"

	"solidarity/internal/pgtest"
)

// Tampering: change one byte of one entry directly in the database; `ledger verify`
// exits 2 and names that entry.
func TestTamperSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	tamperTest(t, path, func(seq int) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		// One byte of the payload: the first "1" of a relocation count becomes "9".
		if _, err := db.Exec(`UPDATE entries SET payload = CAST(replace(CAST(payload AS TEXT), '"relocations":1', '"relocations":9') AS BLOB) WHERE seq = ?`, seq); err != nil {
			t.Fatal(err)
		}
	})
}

func TestTamperPostgres(t *testing.T) {
	dsn := pgtest.Schema(t)
	tamperTest(t, dsn, func(seq int) {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, `UPDATE entries SET payload = convert_to(replace(convert_from(payload, 'UTF8'), '"relocations":1', '"relocations":9'), 'UTF8') WHERE seq = $1`, seq); err != nil {
			t.Fatal(err)
		}
	})
}

func tamperTest(t *testing.T, db string, tamper func(seq int)) {
	must := func(args ...string) {
		t.Helper()
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	must("cycle", "create", "--db", db, filepath.Join("..", "..", "internal", "cyclefile", "cycles", "2027.toml"))
	for range 4 {
		must("deliver", "--db", db, "--cycle", "2027", "--state", "DE", "--type", "relocation", "--relocations", "1", "--over-delivery")
	}
	must("ledger", "verify", "--db", db)
	tamper(3)
	code, _, errs := run(t, "ledger", "verify", "--db", db)
	if code != 2 || !strings.Contains(errs, "entry 3:") || !strings.Contains(errs, "2 good entries") {
		t.Fatalf("after tampering with entry 3: exit %d, %s", code, errs)
	}
}

// Tampering with the totals projection, which balances and the public pages are read
// from: the chain is intact, yet `ledger verify` exits 2 and names the first cycle,
// state and delivery type whose figure is not the sum of the entries (issue 12: it said
// OK while the published figures had changed).
func TestTamperTotalsSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "t.db")
	tamperTotalsTest(t, path, func(stmt string) {
		db, err := sql.Open("sqlite", path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(stmt); err != nil {
			t.Fatal(err)
		}
	})
}

func TestTamperTotalsPostgres(t *testing.T) {
	dsn := pgtest.Schema(t)
	tamperTotalsTest(t, dsn, func(stmt string) {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, stmt); err != nil {
			t.Fatal(err)
		}
	})
}

func tamperTotalsTest(t *testing.T, db string, exec func(stmt string)) {
	must := func(args ...string) {
		t.Helper()
		if code, _, errs := run(t, args...); code != 0 {
			t.Fatalf("%v: %s", args, errs)
		}
	}
	must("cycle", "create", "--db", db, filepath.Join("..", "..", "internal", "cyclefile", "cycles", "2027.toml"))
	for _, m := range []string{"DE", "FR"} {
		must("deliver", "--db", db, "--cycle", "2027", "--state", m, "--type", "relocation", "--relocations", "4", "--over-delivery")
		must("deliver", "--db", db, "--cycle", "2027", "--state", m, "--type", "payment", "--eur", "100", "--over-delivery")
	}
	must("ledger", "verify", "--db", db)
	for _, c := range []struct{ stmt, want string }{
		{`UPDATE totals SET payments = payments + 1 WHERE state = 'FR'`, "cycle 2027, state FR, payment.made"},
		{`UPDATE totals SET relocations = 9 WHERE state = 'DE'`, "cycle 2027, state DE, relocation.delivered"},
		{`DELETE FROM totals WHERE state = 'DE'`, "cycle 2027, state DE, relocation.delivered"},
		{`INSERT INTO totals (cycle, state, relocations, payments, alternative) VALUES (2026, 'IT', 0, 0, 500)`, "cycle 2026, state IT, alternative.delivered"},
		// The daily totals, which balances as of a day are read from.
		{`UPDATE totals_daily SET relocations = relocations + 1 WHERE state = 'FR'`, "cycle 2027, state FR, day "},
	} {
		exec(`DELETE FROM totals`)
		exec(`INSERT INTO totals (cycle, state, relocations, payments, alternative) VALUES (2027, 'DE', 4, 10000, 0), (2027, 'FR', 4, 10000, 0)`)
		exec(`UPDATE totals_daily SET relocations = 4`)
		must("ledger", "verify", "--db", db)
		exec(c.stmt)
		code, out, errs := run(t, "ledger", "verify", "--db", db)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(out, "OK") {
			t.Fatalf("after %s: exit %d, %s%s; want it to name %q", c.stmt, code, out, errs, c.want)
		}
	}
}
