package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"solidarity"
	"solidarity/ledger"
)

// Backfill checks migration 0005 (the daily delivery totals) on a ledger written
// before it: it appends deliveries over several days to s, calls forget — which must
// drop the daily totals, the index entries_cycle_type_at and the record of their migration, behind the store's back —
// and reopen, which must open the same database again (running the migration), and
// checks that the backfilled projection is ledger.Project over the entries.
func Backfill(t *testing.T, s solidarity.Store, forget func(), reopen func() solidarity.Store) {
	ctx := context.Background()
	for i := range 40 {
		e := delivery(t, cycle+i%2, states[i%5], deliveryTypes[i%3], int64(1+i*i), i)
		e.At = base.Add(time.Duration(i) * 7 * time.Hour) // over twelve days
		mustAppend(t, s, "", e)
		if i%9 == 0 {
			mustAppend(t, s, "", pledge(t, cycle, states[i%5], i))
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	forget()
	s = reopen()
	got, err := s.AllTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want, err := ledger.Project(s.All(ctx), got.Seq)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got.Daily) != fmt.Sprint(want.Daily) || fmt.Sprint(got.Totals) != fmt.Sprint(want.Totals) || len(got.Daily) < 12 {
		t.Fatalf("backfilled projection\n %+v\nwant\n %+v", got, want)
	}
	mustVerify(t, s, got.Seq)
	// Appends go on updating the backfilled rows: the last day's, of the first state.
	e := delivery(t, cycle, states[0], solidarity.RelocationDelivered, 5, 100)
	e.At = base.Add(39 * 7 * time.Hour)
	mustAppend(t, s, "", e)
	mustVerify(t, s, got.Seq+1)
}
