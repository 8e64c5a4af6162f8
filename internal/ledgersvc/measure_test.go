package ledgersvc_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"solidarity"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/pgtest"
	"solidarity/internal/postgres"
	"solidarity/internal/sqlite"
	"solidarity/ledger"
)

// capacity is a measure the AMMR does not have — places of reception capacity
// provided for another state, counted in persons — added as one row of the table.
var capacity = &solidarity.Delivery{Type: "capacity.delivered", Article: solidarity.LegalBases{solidarity.AMMR.Art(56, 2)},
	Column: "capacity", Rule: "capacity is a positive number of places"}

// openWithCapacity opens a store and applies the one migration the new measure needs
// (a column of both totals tables), as a migration file of each database would.
func openWithCapacity(t *testing.T) solidarity.Store {
	t.Helper()
	ctx := context.Background()
	migrate := []string{`ALTER TABLE totals ADD COLUMN capacity bigint NOT NULL DEFAULT 0`,
		`ALTER TABLE totals_daily ADD COLUMN capacity bigint NOT NULL DEFAULT 0`}
	if backend == "postgres" {
		dsn := pgtest.Schema(t)
		st, err := postgres.Open(ctx, pgtest.WithParams(dsn, "pool_max_conns", "4"))
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range migrate {
			pgtest.Admin(t, dsn, m)
		}
		return st
	}
	path := filepath.Join(t.TempDir(), "test.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, m := range migrate {
		if _, err := db.ExecContext(ctx, m); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// TestNewMeasureIsOneRow: a measure added to the table (and its column to the
// totals) is validated when pledged and delivered, checked against its pledge,
// summed into the totals and the ledger's own sums, verified, and valued in the pool
// and the balances — with no other change. Not parallel: it changes the table.
func TestNewMeasureIsOneRow(t *testing.T) {
	defer solidarity.AddMeasure(solidarity.Measure{Pledge: "capacity", Article: solidarity.AMMR.Art(56, 2), Unit: solidarity.Persons,
		Valuation: solidarity.PerPerson, Delivery: capacity, Paced: true, Label: "reception capacity"})()
	ctx := context.Background()
	st := openWithCapacity(t)
	t.Cleanup(func() { st.Close() })
	f := &fixture{now: time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC), coord: as(coordinator)}
	f.svc = ledgersvc.New(st, nil)
	f.svc.Now = func() time.Time { return f.now }
	if _, _, err := f.svc.CreateCycle(f.coord, testCycle, ""); err != nil {
		t.Fatal(err)
	}
	de := as(officerDE)

	// Validation: the unit of the row.
	if _, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: "capacity", EURCents: 100}, ""); code(err) != solidarity.EINVALID {
		t.Fatalf("a capacity pledge in euro: %v, want %s", err, solidarity.EINVALID)
	}
	if _, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: "capacity", Relocations: 10}, ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.Deliver(de, 2027, "DE", capacity.Type, solidarity.DeliveryPayload{EURCents: 5}, ""); code(err) != solidarity.EINVALID {
		t.Fatalf("a capacity delivery in euro: %v, want %s", err, solidarity.EINVALID)
	}
	e, _, err := f.svc.Deliver(de, 2027, "DE", capacity.Type, solidarity.DeliveryPayload{Relocations: 4}, "")
	if err != nil {
		t.Fatal(err)
	}
	if e.LegalBasis != "Art. 56(2) AMMR" {
		t.Errorf("legal basis %q, want the row's", e.LegalBasis)
	}
	// The check against the pledge: 4 + 7 is beyond the 10 pledged.
	if _, _, err := f.svc.Deliver(de, 2027, "DE", capacity.Type, solidarity.DeliveryPayload{Relocations: 7}, ""); code(err) != solidarity.ECONFLICT {
		t.Fatalf("a delivery beyond the pledge: %v, want %s", err, solidarity.ECONFLICT)
	}
	// A relocation pledge does not cover it, nor it a relocation.
	if _, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 1}, ""); code(err) != solidarity.ECONFLICT {
		t.Fatalf("a relocation against a capacity pledge: %v, want %s", err, solidarity.ECONFLICT)
	}

	// The totals, the ledger's sums and the verification.
	ts, err := st.Totals(ctx, 2027)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != 1 || ts[0].State != "DE" || ts[0].Delivered.Of(capacity.Type) != 4 || ts[0].Delivered.Of(solidarity.RelocationDelivered) != 0 {
		t.Fatalf("totals %+v, want DE's 4 places", ts)
	}
	sums, err := ledger.Sum(st.All(ctx))
	if err != nil {
		t.Fatal(err)
	}
	if got := sums[[2]string{"2027", "DE"}]; got != ts[0] {
		t.Fatalf("ledger.Sum %+v, totals %+v", got, ts[0])
	}
	at, err := st.TotalsAt(ctx, 2027, f.now)
	if err != nil {
		t.Fatal(err)
	}
	if len(at) != 1 || at[0] != ts[0] {
		t.Fatalf("TotalsAt %+v, totals %+v", at, ts)
	}
	if v, err := f.svc.Verify(f.coord); err != nil || !v.OK {
		t.Fatalf("verify: %+v, %v", v, err)
	}

	// The pool and the balances value it at its row's valuation.
	b, err := reported(f.svc.Balances(f.coord, 2027, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range b.States {
		if s.State != "DE" {
			continue
		}
		if s.PledgedUnits == nil || *s.PledgedUnits != "10.00" || s.Delivered.Units != "4.00" {
			t.Fatalf("DE pledged %v units, delivered %s, want 10 and 4", s.PledgedUnits, s.Delivered.Units)
		}
		// Paced (Art. 60(3), as the row says): the whole pledge is expected over the
		// year, and its delivery counts toward it.
		if s.Pace.NonFinancialPledged != "10.00" || s.Pace.NonFinancialDelivered != "4.00" {
			t.Fatalf("DE's pace %+v, want 10 pledged and 4 delivered", s.Pace)
		}
	}
}

// TestCycleNamingAFileIsRefused: a cycle naming a file on the server as its dataset
// (one that exists) is refused before it is written, created or amended: the service's
// catalog reads no file.
func TestCycleNamingAFileIsRefused(t *testing.T) {
	f := newFixture(t)
	head := func() int64 { s, _, _ := f.svc.Store.Head(context.Background()); return s }
	before := head()
	for _, ref := range []string{"/etc/hostname", filepath.Join(t.TempDir(), "..", "x.csv")} {
		file := strings.Replace(testCycle, `method = "largest-remainder"`, `method = "largest-remainder"`+"\npopulation = \""+ref+"\"", 1)
		refused := func(err error) bool {
			return code(err) == solidarity.EINVALID && strings.Contains(err.Error(), "not a shipped dataset")
		}
		if _, _, err := f.svc.AmendCycle(f.coord, file, ""); !refused(err) {
			t.Errorf("amend naming %s: %v, want %s: not a shipped dataset", ref, err, solidarity.EINVALID)
		}
		if _, _, err := f.svc.CreateCycle(f.coord, strings.Replace(file, "year = 2027", "year = 2028", 1), ""); !refused(err) {
			t.Errorf("create naming %s: %v, want %s: not a shipped dataset", ref, err, solidarity.EINVALID)
		}
	}
	if head() != before {
		t.Fatal("a refused cycle was written")
	}
}
