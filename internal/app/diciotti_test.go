package app_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"solidarity"
	"solidarity/cases"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/keyring"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/pgtest"
	"solidarity/internal/scenario"
)

var demoNow = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// seeded opens dsn, seeds the cycles and the Diciotti demo twice (the second run
// must change nothing) and checks what the demo must show.
func seeded(t *testing.T, dsn string) (*ledgersvc.Service, *casesvc.Service) {
	t.Helper()
	ctx := context.Background()
	svc, err := app.Service(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Store.Close() })
	svc.Now = func() time.Time { return demoNow }
	if _, err := app.Seed(ctx, svc, false); err != nil {
		t.Fatal(err)
	}
	k, err := keyring.Parse("test", strings.NewReader(keyring.NewKey(1)))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := app.Cases(svc, k)
	if err != nil {
		t.Fatal(err)
	}
	if err := app.SeedDiciotti(ctx, svc, cs); err != nil {
		t.Fatal(err)
	}
	seq, _, _ := svc.Store.Head(ctx)
	if err := app.SeedDiciotti(ctx, svc, cs); err != nil {
		t.Fatal(err)
	}
	if seq2, _, _ := svc.Store.Head(ctx); seq2 != seq {
		t.Fatalf("a second seed appended entries: head %d -> %d", seq, seq2)
	}

	sys := solidarity.NewContextWithUser(ctx, solidarity.System)
	counts, err := cs.CaseCounts(sys, solidarity.CaseFilter{})
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, n := range counts {
		total += n
	}
	if total != scenario.Rescued {
		t.Fatalf("cases = %d, want %d (%v)", total, scenario.Rescued, counts)
	}
	// Where the cases went: relocations drawn on every demo pledge, requests to
	// the states the criteria designate, the security gate, examinations here.
	for _, s := range []cases.State{"RELOCATION_ARRIVED", "RELOCATED_OUT", "TCR_SENT", "TRANSFER_AGREED", "BORDER_PROCEDURE", "NORMAL"} {
		if counts[s] == 0 {
			t.Errorf("no case in %s: %v", s, counts)
		}
	}
	// The real 2026 cycle holds nothing of the demonstration: no delivery, and the
	// pledges of the shipped file alone.
	real, err := svc.Balances(sys, 2026, demoNow)
	if err != nil {
		t.Fatal(err)
	}
	if real.Pool.Cycle.Demonstration {
		t.Error("the real 2026 cycle is marked demonstration")
	}
	for _, st := range real.States {
		if n := st.Delivered.Totals.Of(solidarity.RelocationDelivered); n != 0 {
			t.Errorf("the real 2026 cycle counts %d relocations delivered by %s", n, st.State)
		}
	}
	for _, e := range mustEntries(t, svc, 2026) {
		if e.Type == solidarity.PledgeMade || e.Type == solidarity.CaseEvent || e.Type == solidarity.ArrivalRegistered || e.Type == solidarity.RelocationDelivered {
			t.Errorf("the real 2026 cycle holds a demonstration entry: %d %s %s", e.Seq, e.Type, e.State)
		}
	}
	// Transfers are relocations delivered in the ledger, against the pledges of the
	// demonstration's own cycle.
	b, err := svc.Balances(sys, app.DemoCycle, demoNow)
	if err != nil {
		t.Fatal(err)
	}
	delivered := map[solidarity.MemberState]int64{}
	for _, st := range b.States {
		delivered[st.State] = st.Delivered.Totals.Of(solidarity.RelocationDelivered)
	}
	var moved int64
	for _, p := range app.DiciottiPledges {
		moved += delivered[p.State]
	}
	if want := int64(counts["RELOCATION_ARRIVED"] + counts["RELOCATED_OUT"]); moved != want {
		t.Errorf("relocations delivered to the pledging states = %d, want the %d transferred cases (%v)", moved, want, delivered)
	}
	if delivered["IE"] == 0 || delivered["IE"] > 20 {
		t.Errorf("IE delivered %d, want 1..20 (its pledge)", delivered["IE"])
	}
	// The demonstration's families allocated and not yet moved hold places of its
	// own cycle only, never of a real pledge.
	for _, m := range []solidarity.MemberState{"DE", "FR", "PT"} {
		realHeld, err := svc.Store.Allocated(ctx, m, 0, "")
		if err != nil {
			t.Fatal(err)
		}
		demoHeld, err := svc.Store.Allocated(ctx, m, app.DemoCycle, "")
		if err != nil {
			t.Fatal(err)
		}
		if realHeld != 0 || (m != "PT" && demoHeld == 0) {
			t.Errorf("%s: %d real places and %d of the demonstration held by its allocations", m, realHeld, demoHeld)
		}
	}
	if !b.Pool.Cycle.Demonstration {
		t.Errorf("the demonstration cycle %d is not marked demonstration", app.DemoCycle)
	}
	as, err := cs.Arrivals(sys, solidarity.ArrivalFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if !a.Demonstration || a.Cycle != app.DemoCycle {
			t.Errorf("arrival %s: demonstration %v, cycle %d", a.ID, a.Demonstration, a.Cycle)
		}
	}
	// Deadlines run, and some are missed by now.
	rows, err := cs.Deadlines(sys, 0, nil, 10000)
	if err != nil {
		t.Fatal(err)
	}
	overdue := 0
	for _, r := range rows {
		if r.Overdue {
			overdue++
		}
	}
	if overdue == 0 {
		t.Errorf("no overdue time limit among %d rows on %s", len(rows), demoNow)
	}
	v, err := svc.Verify(sys)
	if err != nil || !v.OK {
		t.Fatalf("ledger verify: %+v %v", v, err)
	}
	return svc, cs
}

// knownNames are names of the demo's generated people that must never be stored in
// clear.
func knownNames(t *testing.T) [][]byte {
	var out [][]byte
	for _, l := range scenario.Diciotti(2018) {
		for _, p := range l.Persons[:3] {
			if len(p.Name) < 8 {
				t.Fatalf("name %q too short to grep for", p.Name)
			}
			out = append(out, []byte(p.Name))
		}
	}
	return out
}

func TestDiciottiSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "demo.db")
	svc, _ := seeded(t, path)
	svc.Store.Close()
	// Grep the raw files (database, WAL, shared memory) for the names.
	files, _ := filepath.Glob(path + "*")
	if len(files) == 0 {
		t.Fatal("no database file")
	}
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range knownNames(t) {
			if bytes.Contains(raw, n) {
				t.Errorf("%s contains the name %q in clear", filepath.Base(f), n)
			}
		}
	}
}

func TestDiciottiPostgres(t *testing.T) {
	dsn := pgtest.Schema(t)
	seeded(t, dsn)
	// Dump every table of the schema as text and look for the names.
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()`)
	if err != nil {
		t.Fatal(err)
	}
	tables, err := pgx.CollectRows(rows, pgx.RowTo[string])
	if err != nil || len(tables) < 5 {
		t.Fatalf("tables %v: %v", tables, err)
	}
	var dump bytes.Buffer
	for _, tb := range tables {
		rows, err := conn.Query(ctx, `SELECT x::text FROM `+pgx.Identifier{tb}.Sanitize()+` x`)
		if err != nil {
			t.Fatal(err)
		}
		texts, err := pgx.CollectRows(rows, pgx.RowTo[string])
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range texts {
			dump.WriteString(s)
		}
	}
	if dump.Len() < 10000 {
		t.Fatalf("dump of %v is only %d bytes", tables, dump.Len())
	}
	for _, n := range knownNames(t) {
		if bytes.Contains(dump.Bytes(), n) {
			t.Errorf("the database holds the name %q in clear", n)
		}
	}
}

// mustEntries returns every entry of a cycle.
func mustEntries(t *testing.T, svc *ledgersvc.Service, cycle int) []*solidarity.Entry {
	t.Helper()
	var out []*solidarity.Entry
	for e, err := range svc.Store.All(context.Background()) {
		if err != nil {
			t.Fatal(err)
		}
		if e.Cycle == cycle {
			out = append(out, e)
		}
	}
	return out
}
