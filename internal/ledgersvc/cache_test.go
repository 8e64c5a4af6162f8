package ledgersvc_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"pgregory.net/rapid"

	"solidarity"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/pgtest"
	"solidarity/internal/postgres"
	"solidarity/internal/sqlite"
)

// openTruncatable is openStore with a function that deletes the entries from seq on,
// behind the store's back: what a batch that is rolled back leaves (its seq numbers are
// used again by the next). Only entries that are not deliveries may be deleted (the
// totals stay the sum of the entries).
func openTruncatable(t *testing.T) (solidarity.Store, func(seq int64)) {
	t.Helper()
	ctx := context.Background()
	if backend == "postgres" {
		dsn := pgtest.Schema(t)
		st, err := postgres.Open(ctx, pgtest.WithParams(dsn, "pool_max_conns", "4"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st, func(seq int64) {
			conn, err := pgx.Connect(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close(ctx)
			if _, err := conn.Exec(ctx, `DELETE FROM entries WHERE seq >= $1`, seq); err != nil {
				t.Fatal(err)
			}
			if _, err := conn.Exec(ctx, `UPDATE head SET (seq, hash) = (SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1)`); err != nil {
				t.Fatal(err)
			}
		}
	}
	path := filepath.Join(t.TempDir(), "test.db")
	st, err := sqlite.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, func(seq int64) {
		db, err := sql.Open("sqlite", path+"?_busy_timeout=10000")
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		if _, err := db.Exec(`DELETE FROM entries WHERE seq >= ?`, seq); err != nil {
			t.Fatal(err)
		}
	}
}

// TestStateCacheEqualsScratch: for any sequence of accepted and refused writes —
// pledges (of nothing too), deliveries, deductions, offsets, statuses, amendments —
// read back now and then, and entries undone behind the service's back, the state a
// check or the balances get through the service's cache is the state read from
// scratch, after every write, in the committed view and in the writer's.
func TestStateCacheEqualsScratch(t *testing.T) {
	st, truncate := openTruncatable(t)
	ctx := context.Background()
	coord := as(coordinator)
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	setup := ledgersvc.New(st, nil)
	setup.Now = func() time.Time { return now }
	if _, _, err := setup.CreateCycle(coord, testCycle, ""); err != nil {
		t.Fatal(err)
	}
	states := []solidarity.MemberState{"DE", "FR", "IT", "ES", "XX"} // XX participates in nothing
	types := append(solidarity.PledgeTypes(), solidarity.NoPledge)
	rapid.Check(t, func(rt *rapid.T) {
		// A service of its own: its cache starts empty on a ledger that has grown.
		svc := ledgersvc.New(st, nil)
		svc.Now = func() time.Time { return now }
		var refs, offsets []string
		state := func(label string) solidarity.MemberState {
			return rapid.SampledFrom(states).Draw(rt, label)
		}
		steps := rapid.IntRange(1, 25).Draw(rt, "steps")
		for i := range steps {
			now = now.Add(time.Duration(rapid.IntRange(0, 120).Draw(rt, "minutes")) * time.Minute)
			var e *solidarity.Entry
			var err error
			what := rapid.SampledFrom([]string{"pledge", "pledge", "none", "deliver", "deliver", "deduction", "assess",
				"decide", "offset", "reply", "status", "amend", "balances", "undo"}).Draw(rt, "write")
			switch what {
			case "pledge", "none":
				p := solidarity.PledgePayload{Type: rapid.SampledFrom(types).Draw(rt, "type")}
				if what == "none" {
					p.Type = solidarity.NoPledge
				}
				switch {
				case p.Type == solidarity.NoPledge:
				case p.Type.InUnits():
					p.Relocations = rapid.Int64Range(0, 500).Draw(rt, "relocations")
				default:
					p.EURCents = solidarity.Cents(rapid.Int64Range(0, 1e9).Draw(rt, "eur"))
				}
				e, _, err = svc.Pledge(coord, 2027, state("state"), p, "")
			case "deliver":
				t := rapid.SampledFrom([]solidarity.EntryType{solidarity.RelocationDelivered, solidarity.PaymentMade, solidarity.AlternativeDelivered}).Draw(rt, "delivery")
				p := solidarity.DeliveryPayload{OverDelivery: rapid.Bool().Draw(rt, "over")}
				if t == solidarity.RelocationDelivered {
					p.Relocations = rapid.Int64Range(1, 200).Draw(rt, "relocations")
				} else {
					p.EURCents = solidarity.Cents(rapid.Int64Range(1, 1e8).Draw(rt, "eur"))
				}
				e, _, err = svc.Deliver(coord, 2027, state("state"), t, p, "")
			case "deduction":
				p := solidarity.DeductionPayload{Article: rapid.SampledFrom([]string{"Art. 61", "Art. 62"}).Draw(rt, "article")}
				switch rapid.IntRange(0, 2).Draw(rt, "extent") {
				case 0:
					p.Full = true
				case 1:
					p.Fraction = rapid.SampledFrom([]string{"1/2", "0.25", "1", "2/3"}).Draw(rt, "fraction")
				default:
					p.Relocations = rapid.Int64Range(1, 100).Draw(rt, "relocations")
				}
				e, _, err = svc.RequestDeduction(coord, 2027, state("state"), p, "")
				if err == nil {
					refs = append(refs, e.Ref)
				}
			case "assess", "decide":
				ref := "DED-2027-DE-99"
				if len(refs) > 0 && rapid.IntRange(0, 4).Draw(rt, "known") > 0 {
					ref = rapid.SampledFrom(refs).Draw(rt, "ref")
				}
				if what == "assess" {
					e, _, err = svc.AssessDeduction(coord, 2027, ref, solidarity.AssessmentPayload{Favourable: rapid.Bool().Draw(rt, "favourable")}, "")
				} else {
					p := solidarity.DeductionPayload{Granted: rapid.Bool().Draw(rt, "granted"), Act: "CID 1"}
					if p.Granted {
						p.Fraction = "1/3"
					}
					e, _, err = svc.DecideDeduction(coord, 2027, ref, p, "")
				}
			case "offset":
				p := solidarity.OffsetPayload{Counterpart: state("counterpart"), Applications: rapid.Int64Range(1, 50).Draw(rt, "applications")}
				if rapid.Bool().Draw(rt, "request") {
					e, _, err = svc.RequestOffset(coord, 2027, state("state"), p, "")
				} else {
					e, _, err = svc.OfferOffset(coord, 2027, state("state"), p, "")
				}
				if err == nil {
					offsets = append(offsets, e.Ref)
				}
			case "reply":
				ref := "OFF-2027-IT-99"
				if len(offsets) > 0 {
					ref = rapid.SampledFrom(offsets).Draw(rt, "ref")
				}
				e, _, err = svc.ReplyOffset(coord, 2027, ref, solidarity.ReplyPayload{Accepted: rapid.Int64Range(0, 10).Draw(rt, "accepted")}, "")
			case "status":
				p := solidarity.StatusPayload{UnderPressure: rapid.Bool().Draw(rt, "pressure"), Benefitting: rapid.Bool().Draw(rt, "benefitting")}
				e, _, err = svc.SetStatus(coord, 2027, state("state"), p, "")
			case "amend":
				title := rapid.SampledFrom([]string{"test pool", "amended pool"}).Draw(rt, "title")
				e, _, err = svc.AmendCycle(coord, strings.Replace(testCycle, "test pool", title, 1), "")
			case "balances":
				_, err = reported(svc.Balances(ctx, 2027, time.Time{}))
			case "undo":
				// The last entry goes, unless it is a delivery or the cycle: a rolled-back
				// batch, whose seq the next append takes again.
				seq, _, herr := st.Head(ctx)
				if herr != nil {
					rt.Fatal(herr)
				}
				last, ferr := st.Entries(ctx, solidarity.EntryFilter{AfterSeq: seq - 1, Limit: 1})
				if ferr != nil {
					rt.Fatal(ferr)
				}
				if len(last) == 1 && seq > 1 && ledgerNonDelivery(last[0].Type) {
					truncate(seq)
				}
			}
			if err != nil && solidarity.ErrorCode(err) == solidarity.EINTERNAL {
				rt.Fatalf("step %d %s: %v", i, what, err)
			}
			_ = e
			for _, writer := range []bool{false, true} {
				var d string
				var derr error
				if writer {
					d, derr = ledgersvc.CacheDiffInWriter(ctx, svc, 2027)
				} else {
					d, derr = ledgersvc.CacheDiff(ctx, svc, st, 2027)
				}
				if derr != nil {
					rt.Fatalf("step %d %s: %v", i, what, derr)
				}
				if d != "" {
					rt.Fatalf("step %d %s (writer %v): the cached state differs: %s", i, what, writer, d)
				}
			}
		}
	})
}

func ledgerNonDelivery(t solidarity.EntryType) bool {
	switch t {
	case solidarity.RelocationDelivered, solidarity.PaymentMade, solidarity.AlternativeDelivered, solidarity.CycleCreated:
		return false
	}
	return true
}

// TestStateCacheRebuiltAfterRollback: a pledge that a cached state includes is undone
// and its seq taken by another pledge (a batch rolled back): the next check and the
// balances see the new pledge, not the cached one, and the stale state is dropped.
func TestStateCacheRebuiltAfterRollback(t *testing.T) {
	st, truncate := openTruncatable(t)
	ctx := context.Background()
	svc := ledgersvc.New(st, nil)
	now := time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC)
	svc.Now = func() time.Time { now = now.Add(time.Second); return now }
	coord := as(coordinator)
	if _, _, err := svc.CreateCycle(coord, testCycle, ""); err != nil {
		t.Fatal(err)
	}
	pledge := func(n int64) *solidarity.Entry {
		t.Helper()
		e, _, err := svc.Pledge(coord, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: n}, "")
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	deliver := func(n int64) error {
		_, _, err := svc.Deliver(coord, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: n}, "")
		return err
	}
	first := pledge(100)
	if err := deliver(1); err != nil { // the check caches the state with the pledge
		t.Fatal(err)
	}
	if got := ledgersvc.CachedSeqs(svc, 2027, "delivery"); len(got) == 0 || got[0] != first.Seq {
		t.Fatalf("cached delivery states end at %v, want %d first", got, first.Seq)
	}
	truncate(first.Seq)
	second := pledge(10) // not through the delivery states: they still hold the first pledge
	if second.Seq != first.Seq || second.Hash == first.Hash {
		t.Fatalf("the second pledge is entry %d %s, want %d with another hash than %s", second.Seq, second.Hash, first.Seq, first.Hash)
	}
	if err := deliver(20); code(err) != solidarity.ECONFLICT {
		t.Fatalf("delivering 21 against a pledge of 10 (a cached 100): %v, want ECONFLICT", err)
	}
	// The stale state is gone (a state read up to the second pledge replaces its
	// like, so two states ending at that seq would be the stale and the new).
	n := 0
	for _, seq := range ledgersvc.CachedSeqs(svc, 2027, "delivery") {
		if seq == first.Seq {
			n++
		}
	}
	if n != 1 {
		t.Fatalf("cached delivery states end at %v: want one ending at %d", ledgersvc.CachedSeqs(svc, 2027, "delivery"), first.Seq)
	}
	if err := deliver(9); err != nil {
		t.Fatal(err)
	}
	b, err := reported(svc.Balances(as(auditor), 2027, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range b.States {
		if s.State == "DE" && (s.Pledged == nil || s.Pledged.RelocationApplicants != 10) {
			t.Fatalf("DE's balances pledge %+v, want 10 relocations", s.Pledged)
		}
	}
	if d, err := ledgersvc.CacheDiff(ctx, svc, st, 2027); err != nil || d != "" {
		t.Fatalf("cache: %q, %v", d, err)
	}
}

// TestStateCacheConcurrent: checks in the writer and balances outside it share the
// cache (run with -race).
func TestStateCacheConcurrent(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	states := []solidarity.MemberState{"DE", "FR", "ES", "NL"}
	var wg sync.WaitGroup
	errs := make(chan error, 100)
	for w := range 6 {
		wg.Go(func() {
			for i := range 15 {
				m := states[(w+i)%len(states)]
				var err error
				if (w+i)%3 == 0 {
					_, _, err = f.svc.Pledge(f.coord, 2027, m, solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: int64(10 + i)}, "")
				} else {
					_, _, err = f.svc.Deliver(f.coord, 2027, m, solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 1, OverDelivery: true}, "")
				}
				if err != nil {
					errs <- fmt.Errorf("writer %d: %w", w, err)
					return
				}
			}
		})
	}
	for range 3 {
		wg.Go(func() {
			for range 15 {
				if _, err := reported(f.svc.Balances(ctx, 2027, time.Time{})); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if d, err := ledgersvc.CacheDiff(ctx, f.svc, f.svc.Store, 2027); err != nil || d != "" {
		t.Fatalf("cache: %q, %v", d, err)
	}
}
