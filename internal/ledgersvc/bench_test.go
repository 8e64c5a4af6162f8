package ledgersvc_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/cyclefile"
)

// BenchmarkBalances measures the dashboard's balances for the 26 states of the 2026
// pool over a ledger of SOLIDARITY_BENCH_ENTRIES deliveries (default 20 000; BENCHMARKS.md
// records a run with 1 000 000). Balances read the delivery totals and the few
// non-delivery entries, never the deliveries themselves, so the time should not grow
// with the ledger.
func BenchmarkBalances(b *testing.B) {
	name := backend
	if name == "" {
		name = "sqlite"
	}
	b.Run(name, func(b *testing.B) { benchmarkBalances(b, time.Time{}) })
}

// BenchmarkBalancesAsOf is BenchmarkBalances as of a past day (the deliveries are
// recorded on 2027-03-01; the clock is moved a day on): the ledger as it stood then,
// from the daily totals (a few rows per state) for a date, and for a time within a day
// from the daily totals of the days before and that day's delivery entries up to the
// time — here the worst case, every delivery of the ledger recorded on that day.
func BenchmarkBalancesAsOf(b *testing.B) {
	name := backend
	if name == "" {
		name = "sqlite"
	}
	day, _ := solidarity.ParseAsOf("2027-03-01")
	b.Run(name+"/date", func(b *testing.B) { benchmarkBalances(b, day) })
	b.Run(name+"/time", func(b *testing.B) { benchmarkBalances(b, time.Date(2027, 3, 1, 23, 0, 0, 0, time.UTC)) })
}

func benchmarkBalances(b *testing.B, asOf time.Time) {
	n := 20_000
	if v, err := strconv.Atoi(os.Getenv("SOLIDARITY_BENCH_ENTRIES")); err == nil && v > 0 {
		n = v
	}
	f := newBenchFixture(b)
	src, _ := cyclefile.ShippedSource(2026)
	if _, _, err := f.svc.CreateCycle(f.coord, string(src), ""); err != nil {
		b.Fatal(err)
	}
	states := solidarity.PartIV()
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(n) {
					return
				}
				m := states[(int(i)+w)%len(states)]
				if _, _, err := f.svc.Deliver(f.coord, 2026, m, solidarity.RelocationDelivered,
					solidarity.DeliveryPayload{Relocations: 1, OverDelivery: true}, ""); err != nil {
					panic(err)
				}
			}
		}()
	}
	wg.Wait()
	b.Logf("filled %d deliveries in %s (%.0f/s)", n, time.Since(start).Round(time.Second), float64(n)/time.Since(start).Seconds())
	ctx := context.Background()
	if !asOf.IsZero() {
		f.now = asOf.AddDate(0, 0, 1) // the as-of day is in the past
	}
	b.ResetTimer()
	for b.Loop() {
		bal, err := reported(f.svc.Balances(ctx, 2026, asOf)) // as the dashboard renders them
		if err != nil {
			b.Fatal(err)
		}
		if len(bal.States) != 26 || bal.Delivered.Relocations != int64(n) {
			b.Fatal(fmt.Sprint(len(bal.States), bal.Delivered.Relocations))
		}
	}
	b.ReportMetric(float64(n), "entries")
}

// BenchmarkDeliveryCheck measures one delivery's rule check in the writer with 2 000
// pledge entries in the cycle (SOLIDARITY_BENCH_PLEDGES): a delivery beyond the
// state's pledge, refused by the check, so that nothing is committed and the time is
// the check's — reading what the ledger says of the cycle (the cycle and the pledges),
// the delivery totals, and comparing. Read from scratch, its cost grows with the
// pledge changes of the cycle; from the service's cached state, it reads the entries
// added since (none here) after one lookup of the last one's hash.
func BenchmarkDeliveryCheck(b *testing.B) {
	name := backend
	if name == "" {
		name = "sqlite"
	}
	b.Run(name, func(b *testing.B) {
		n := 2_000
		if v, err := strconv.Atoi(os.Getenv("SOLIDARITY_BENCH_PLEDGES")); err == nil && v > 0 {
			n = v
		}
		f := newBenchFixture(b)
		states := []solidarity.MemberState{"DE", "FR", "ES", "NL", "AT", "BE", "PL", "SE"}
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				for {
					i := next.Add(1)
					if i > int64(n) {
						return
					}
					m := states[int(i)%len(states)]
					if _, _, err := f.svc.Pledge(f.coord, 2027, m, solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 100 + i}, ""); err != nil {
						panic(err)
					}
				}
			})
		}
		wg.Wait()
		over := solidarity.DeliveryPayload{Relocations: 1_000_000}
		for b.Loop() {
			if _, _, err := f.svc.Deliver(f.coord, 2027, "DE", solidarity.RelocationDelivered, over, ""); solidarity.ErrorCode(err) != solidarity.ECONFLICT {
				b.Fatalf("delivery beyond the pledge: %v", err)
			}
		}
		b.ReportMetric(float64(n), "pledges")
	})
}
