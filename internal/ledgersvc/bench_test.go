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
	b.Run(name, benchmarkBalances)
}

func benchmarkBalances(b *testing.B) {
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
	b.ResetTimer()
	for b.Loop() {
		bal, err := f.svc.Balances(ctx, 2026, time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC))
		if err != nil {
			b.Fatal(err)
		}
		if len(bal.States) != 26 {
			b.Fatal(fmt.Sprint(len(bal.States)))
		}
	}
	b.ReportMetric(float64(n), "entries")
}
