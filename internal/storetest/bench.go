package storetest

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"solidarity"
)

// benchWriters are the numbers of concurrent writers BenchAppend measures, unless
// STORETEST_BENCH_WRITERS lists others ("16,50,64").
func benchWriters(b *testing.B) []int {
	v := os.Getenv("STORETEST_BENCH_WRITERS")
	if v == "" {
		return []int{16, 64}
	}
	var ns []int
	for f := range strings.SplitSeq(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			b.Fatalf("STORETEST_BENCH_WRITERS=%q: want numbers of writers, such as 16,64", v)
		}
		ns = append(ns, n)
	}
	return ns
}

// BenchAppend measures appends as the ledger service makes them: concurrent writers
// (16 and 64 goroutines by default, one sub-benchmark each), each delivery under its
// own idempotency key, with a check that reads the state's pledges and the cycle's
// totals. It reports appends/s and the p50 and p99 latency of one append.
func BenchAppend(b *testing.B, s solidarity.Store) {
	ctx := context.Background()
	for i, st := range states {
		mustAppend(b, s, "", pledge(b, cycle, st, i))
	}
	var n atomic.Int64
	for _, writers := range benchWriters(b) {
		// RunParallel starts parallelism×GOMAXPROCS goroutines: as many as asked, or
		// the next multiple of GOMAXPROCS, which the name gives.
		procs := runtime.GOMAXPROCS(0)
		p := (writers + procs - 1) / procs
		b.Run(fmt.Sprintf("writers=%d", p*procs), func(b *testing.B) {
			b.SetParallelism(p)
			var mu sync.Mutex
			var lat []time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				var mine []time.Duration
				for pb.Next() {
					i := int(n.Add(1))
					st := states[i%len(states)]
					e := delivery(b, cycle, st, deliveryTypes[i%3], 1, i)
					start := time.Now()
					_, _, err := s.Append(ctx, fmt.Sprintf("bench-%d", i), e, func(v solidarity.View) error {
						if _, err := v.Find(ctx, cycle, solidarity.PledgeMade, solidarity.PledgeChanged); err != nil {
							return err
						}
						_, err := v.Totals(ctx, cycle)
						return err
					})
					mine = append(mine, time.Since(start))
					if err != nil {
						b.Error(err)
						return
					}
				}
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			})
			b.StopTimer()
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "appends/s")
			if len(lat) > 0 {
				slices.Sort(lat)
				q := func(p float64) float64 {
					return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
				}
				b.ReportMetric(q(0.50), "p50-ms")
				b.ReportMetric(q(0.99), "p99-ms")
			}
		})
	}
}
