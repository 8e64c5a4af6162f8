package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"strconv"
	"testing"
	"time"

	"solidarity"
	"solidarity/ledger"
)

// seed returns the random seed of a property test: SOLIDARITY_TEST_SEED, or a new one.
func seed(t *testing.T) uint64 {
	if v := os.Getenv("SOLIDARITY_TEST_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("SOLIDARITY_TEST_SEED: %v", err)
		}
		return n
	}
	return rand.Uint64()
}

// testTotalsEqualSum appends a random mix of deliveries, other entries, replays and
// refused appends, and checks after each round that the stored totals are
// ledger.Sum over All.
func testTotalsEqualSum(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	sd := seed(t)
	t.Logf("seed %d (rerun with SOLIDARITY_TEST_SEED=%d)", sd, sd)
	r := rand.New(rand.NewPCG(sd, 0))
	cycles := []int{cycle, cycle + 1}
	refused := errors.New("refused")
	var keys []string
	byKey := map[string]*solidarity.Entry{}
	n := int64(0)
	// model is the exact sum of each (cycle, state, type): an append that would take
	// one beyond an int64 must be refused with ECONFLICT (never wrap), all others kept.
	model := map[string]*big.Int{}
	overflows := func(e *solidarity.Entry) (bool, func()) {
		d, ok, err := ledger.Delta(e)
		if err != nil || !ok {
			return false, func() {}
		}
		k := fmt.Sprint(e.Cycle, e.State, e.Type)
		if model[k] == nil {
			model[k] = new(big.Int)
		}
		next := new(big.Int).Add(model[k], big.NewInt(d.Delivered.Of(e.Type)))
		return !next.IsInt64(), func() { model[k] = next }
	}
	for round := range 4 {
		for i := range 40 {
			j := round*40 + i
			c := cycles[r.IntN(len(cycles))]
			st := states[r.IntN(len(states))]
			var e *solidarity.Entry
			switch k := r.IntN(10); {
			case k < 6:
				amount := r.Int64N(1_000_000)
				switch r.IntN(20) {
				case 0, 1:
					amount = -r.Int64N(1000) // a correction
				case 2:
					amount = math.MaxInt64/2 + r.Int64N(1000) // two of these do not fit
				}
				e = delivery(t, c, st, deliveryTypes[r.IntN(3)], amount, j)
			case k < 8:
				e = pledge(t, c, st, j)
			default:
				if len(keys) == 0 {
					continue
				}
				// A replay: find the keyed entry and send it again.
				key := keys[r.IntN(len(keys))]
				again := *byKey[key]
				_, replayed, err := s.Append(ctx, key, &again, nil)
				if err != nil || !replayed {
					t.Fatalf("replay of %q: replayed=%v, %v", key, replayed, err)
				}
				continue
			}
			key := ""
			if r.IntN(2) == 0 {
				key = fmt.Sprintf("key-%d", j)
			}
			var check func(solidarity.View) error
			fail := r.IntN(8) == 0
			if fail {
				check = func(solidarity.View) error { return refused }
			}
			over, commit := overflows(e)
			_, _, err := s.Append(ctx, key, e, check)
			if fail {
				if err != refused {
					t.Fatalf("refused append: %v", err)
				}
				continue
			}
			if over {
				wantCode(t, err, solidarity.ECONFLICT)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			commit()
			n++
			if key != "" {
				keys = append(keys, key)
				byKey[key] = e
			}
		}
		sum := ledgerSum(t, s)
		got := map[[2]string]solidarity.Totals{}
		for _, c := range cycles {
			for _, x := range totals(t, s, c) {
				if x.Cycle != c {
					t.Fatalf("Totals(%d) returned a row of cycle %d", c, x.Cycle)
				}
				got[[2]string{strconv.Itoa(x.Cycle), string(x.State)}] = x
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(sum) {
			t.Fatalf("round %d: totals\n %v\nwant ledger.Sum\n %v", round, got, sum)
		}
	}
	mustVerify(t, s, n)
}

// testTotalsOverflow: a delivery whose total would not fit an int64 is refused with
// ECONFLICT and writes nothing, and the row stays readable (issue 12: on SQLite the sum
// became a REAL and every later read of the cycle failed; on PostgreSQL it answered 500).
func testTotalsOverflow(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	for i, typ := range deliveryTypes {
		mustAppend(t, s, "", delivery(t, cycle, "DE", typ, math.MaxInt64-10, i))
	}
	for i, typ := range deliveryTypes {
		_, _, err := s.Append(ctx, fmt.Sprintf("k-%d", i), delivery(t, cycle, "DE", typ, 11, 10+i), nil)
		wantCode(t, err, solidarity.ECONFLICT)
	}
	if n, _ := head(t, s); n != 3 {
		t.Fatalf("head %d after refused appends, want 3", n)
	}
	// The store goes on: the row reads, fits, and takes what still fits.
	mustAppend(t, s, "", delivery(t, cycle, "DE", solidarity.RelocationDelivered, 10, 20))
	mustAppend(t, s, "", delivery(t, cycle, "FR", solidarity.RelocationDelivered, 5, 21))
	checkCycleTotals(t, s, "")
	ts := totals(t, s, cycle)
	if len(ts) != 2 || ts[0].State != "DE" || ts[0].Delivered.Of(solidarity.RelocationDelivered) != math.MaxInt64 || ts[0].Delivered.Of(solidarity.PaymentMade) != math.MaxInt64-10 {
		t.Fatalf("totals %+v", ts)
	}
	// The refused key was not recorded: the same key may be used for another entry.
	mustAppend(t, s, "k-0", delivery(t, cycle, "FR", solidarity.PaymentMade, 1, 22))
	mustVerify(t, s, 6)
}

// testAllTotals: AllTotals returns every cycle's rows with the head they include, and
// equals ledger.Sum over the entries up to it.
func testAllTotals(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	p, err := s.AllTotals(ctx)
	if err != nil || p.Seq != 0 || len(p.Totals) != 0 || len(p.Daily) != 0 {
		t.Fatalf("empty store: %+v, %v", p, err)
	}
	for i := range 30 {
		mustAppend(t, s, "", delivery(t, cycle+i%3, states[i%5], deliveryTypes[i%3], int64(1+i), i))
		if i%7 == 0 {
			mustAppend(t, s, "", pledge(t, cycle, states[i%5], i))
		}
	}
	p, err = s.AllTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seq, ts := p.Seq, p.Totals
	// The daily rows: one per cycle, state and day, summing to the cycle's totals; and
	// TotalsThrough the last day is the totals, through the day before the first
	// delivery nothing.
	byState := map[[2]string]solidarity.Totals{}
	for i, d := range p.Daily {
		if i > 0 && !dailyBefore(p.Daily[i-1], d) {
			t.Fatalf("daily rows out of order: %v", p.Daily)
		}
		k := [2]string{strconv.Itoa(d.Cycle), string(d.State)}
		sum, ok := ledger.AddTotals(byState[k], d.Totals)
		if !ok {
			t.Fatal("daily overflow")
		}
		byState[k] = sum
	}
	if fmt.Sprint(byState) != fmt.Sprint(ledgerSum(t, s)) {
		t.Fatalf("daily rows sum to %v, want %v", byState, ledgerSum(t, s))
	}
	endOfDay := base.Truncate(24 * time.Hour).Add(24*time.Hour - time.Microsecond)
	for _, c := range []int{cycle, cycle + 1, cycle + 2} {
		through, err := s.TotalsAt(ctx, c, endOfDay)
		if err != nil || fmt.Sprint(through) != fmt.Sprint(totals(t, s, c)) {
			t.Fatalf("TotalsAt(%d, the end of the day): %v, %v; want %v", c, through, err, totals(t, s, c))
		}
		if none, err := s.TotalsAt(ctx, c, endOfDay.AddDate(0, 0, -1)); err != nil || len(none) != 0 {
			t.Fatalf("TotalsAt(%d, the day before): %v, %v", c, none, err)
		}
		// Within the day: the entries up to then.
		for _, at := range []time.Time{base.Add(-time.Microsecond), base.Add(10 * time.Second), base.Add(10*time.Second + time.Microsecond)} {
			var upTo []*solidarity.Entry
			for _, e := range all(t, s) {
				if !e.At.After(at) {
					upTo = append(upTo, e)
				}
			}
			want, _ := ledger.Sum(func(yield func(*solidarity.Entry, error) bool) {
				for _, e := range upTo {
					if e.Cycle == c && !yield(e, nil) {
						return
					}
				}
			})
			got, err := s.TotalsAt(ctx, c, at)
			if err != nil || len(got) != len(want) {
				t.Fatalf("TotalsAt(%d, %s): %v, %v; want %v", c, at, got, err, want)
			}
			for _, x := range got {
				if want[[2]string{strconv.Itoa(c), string(x.State)}] != x {
					t.Fatalf("TotalsAt(%d, %s): %v; want %v", c, at, got, want)
				}
			}
		}
	}
	if n, _ := head(t, s); seq != n {
		t.Fatalf("AllTotals at %d, head %d", seq, n)
	}
	sum := ledgerSum(t, s)
	if len(ts) != len(sum) {
		t.Fatalf("%d rows, want %d", len(ts), len(sum))
	}
	for i, x := range ts {
		if i > 0 && (ts[i-1].Cycle > x.Cycle || ts[i-1].Cycle == x.Cycle && ts[i-1].State >= x.State) {
			t.Fatalf("rows out of order: %v", ts)
		}
		if sum[[2]string{strconv.Itoa(x.Cycle), string(x.State)}] != x {
			t.Fatalf("row %+v, want %+v", x, sum[[2]string{strconv.Itoa(x.Cycle), string(x.State)}])
		}
	}
	mustVerify(t, s, seq)
}

func dailyBefore(a, b solidarity.DayTotals) bool {
	if a.Cycle != b.Cycle {
		return a.Cycle < b.Cycle
	}
	if a.State != b.State {
		return a.State < b.State
	}
	return a.Day < b.Day
}

// testHeadTotals: HeadTotals reads the head and the totals in one snapshot: while
// deliveries are appended, the totals it returns are always the sum of the entries up
// to the head it returns, neither fewer nor more; as of a time, they are TotalsAt.
func testHeadTotals(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	if head, ts, err := s.HeadTotals(ctx, cycle, time.Time{}); err != nil || head != 0 || len(ts) != 0 {
		t.Fatalf("empty store: %d, %v, %v", head, ts, err)
	}
	done := make(chan error)
	go func() {
		var err error
		for i := range 60 {
			if _, _, err = s.Append(ctx, "", delivery(t, cycle, states[i%len(states)], deliveryTypes[i%3], int64(1+i), i), nil); err != nil {
				break
			}
		}
		done <- err
	}()
	check := func() {
		head, ts, err := s.HeadTotals(ctx, cycle, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		p, err := ledger.Project(s.All(ctx), head)
		if err != nil {
			t.Fatal(err)
		}
		var want []solidarity.Totals
		for _, x := range p.Totals {
			if x.Cycle == cycle {
				want = append(want, x)
			}
		}
		if fmt.Sprint(ts) != fmt.Sprint(want) {
			t.Fatalf("HeadTotals: head %d with totals %v; the entries up to %d sum to %v", head, ts, head, want)
		}
	}
	for running := true; running; {
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			running = false
		default:
		}
		check()
	}
	at := base.Add(30 * time.Second)
	head, ts, err := s.HeadTotals(ctx, cycle, at)
	if err != nil {
		t.Fatal(err)
	}
	want, err := s.TotalsAt(ctx, cycle, at)
	if err != nil || head != 60 || fmt.Sprint(ts) != fmt.Sprint(want) {
		t.Fatalf("HeadTotals as of %v: %d, %v; want 60, %v (%v)", at, head, ts, want, err)
	}
}
