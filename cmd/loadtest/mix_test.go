package main

import (
	"testing"
	"time"
)

// TestSchedule: the mixed load's 20 slots are 80 % reads and 20 % writes, and spread
// keeps every kind's count without sending one kind twice in a row.
func TestSchedule(t *testing.T) {
	var schedule []int
	reads := 0
	for k, kind := range mixKinds {
		for range kind.slots {
			schedule = append(schedule, k)
			if !kind.write {
				reads++
			}
		}
	}
	if len(schedule) != 20 || reads != 16 {
		t.Fatalf("%d slots, %d reads; want 20 and 16", len(schedule), reads)
	}
	got := spread(schedule)
	count := map[int]int{}
	for i, k := range got {
		count[k]++
		if i > 0 && got[i-1] == k {
			t.Errorf("slot %d repeats kind %d", i, k)
		}
	}
	for k, kind := range mixKinds {
		if count[k] != kind.slots {
			t.Errorf("kind %d has %d slots, want %d", k, count[k], kind.slots)
		}
	}
}

// TestRank is the nearest-rank percentile.
func TestRank(t *testing.T) {
	var s []time.Duration
	for i := 1; i <= 200; i++ {
		s = append(s, time.Duration(i))
	}
	for _, c := range []struct {
		p    int
		want time.Duration
	}{{50, 100}, {99, 198}, {100, 200}, {1, 2}} {
		if got := rank(s, c.p); got != c.want {
			t.Errorf("p%d of 1..200: %d, want %d", c.p, got, c.want)
		}
	}
	if got := rank(s[:1], 99); got != 1 {
		t.Errorf("p99 of one: %d", got)
	}
}
