package web_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"solidarity/internal/web"
)

// TestReadyReflectsWrites: /readyz answers 503 when a write would fail (issue 12: it
// said 200 on a full disk while writes answered 500), with the probe's answer cached
// for a few seconds, and 200 again once writes work.
func TestReadyReflectsWrites(t *testing.T) {
	var failing atomic.Bool
	var calls atomic.Int64
	probe := func(context.Context) error {
		calls.Add(1)
		if failing.Load() {
			return errors.New("sqlite: database or disk is full")
		}
		return nil
	}
	f := newFixture(t, fixtureOpts{options: []web.Option{web.WithReadyProbe(probe)}})
	status := func() int {
		t.Helper()
		res, _ := f.do(req{method: "GET", path: "/readyz"})
		return res.StatusCode
	}
	if c := status(); c != 200 {
		t.Fatalf("writable: %d", c)
	}
	failing.Store(true)
	if c := status(); c != 200 || calls.Load() != 1 {
		t.Fatalf("within the cache: %d after %d probes", c, calls.Load())
	}
	f.clock.Add(6 * time.Second)
	if c := status(); c != 503 {
		t.Fatalf("full disk: %d, want 503", c)
	}
	if c := status(); c != 503 || calls.Load() != 2 {
		t.Fatalf("full disk, cached: %d after %d probes", c, calls.Load())
	}
	failing.Store(false)
	f.clock.Add(6 * time.Second)
	if c := status(); c != 200 {
		t.Fatalf("writable again: %d", c)
	}
	if _, body := f.do(req{method: "GET", path: "/healthz"}); body == "" {
		t.Fatal("healthz")
	}
}

// TestReadyWritesToTheStore: the default probe is a real write to the store.
func TestReadyWritesToTheStore(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	if res, _ := f.do(req{method: "GET", path: "/readyz"}); res.StatusCode != 200 {
		t.Fatalf("readyz: %d", res.StatusCode)
	}
	f.store.Close()
	f.clock.Add(time.Minute)
	if res, _ := f.do(req{method: "GET", path: "/readyz"}); res.StatusCode != 503 {
		t.Fatalf("readyz on a closed store: %d", res.StatusCode)
	}
}
