package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/sqlite"
	"solidarity/internal/web"
)

// findCounter is a store that counts Find and FindAfter, the read of a cycle's entries
// (all, or those since the ledger service's cached state) that every computation of
// balances starts with.
type findCounter struct {
	solidarity.Store
	finds atomic.Int64
}

func (c *findCounter) Find(ctx context.Context, cycle int, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	c.finds.Add(1)
	return c.Store.Find(ctx, cycle, types...)
}

func (c *findCounter) FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	c.finds.Add(1)
	return c.Store.FindAfter(ctx, cycle, afterSeq, types...)
}

// countedLedger is a ledger service on a new SQLite store whose reads of a cycle's
// entries are counted, on the clock now, with the test cycle and a coordinator's token.
func countedLedger(t *testing.T, now func() time.Time) (*findCounter, *ledgersvc.Service, string) {
	t.Helper()
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "x.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	store := &findCounter{Store: st}
	svc := ledgersvc.New(store, nil)
	svc.Now = now
	if _, _, err := svc.CreateCycle(system(), testCycle, ""); err != nil {
		t.Fatal(err)
	}
	if err := svc.AddUser(system(), &solidarity.User{Name: "coord", Role: solidarity.Coordinator}, ""); err != nil {
		t.Fatal(err)
	}
	token, err := svc.CreateToken(system(), "coord", "test")
	if err != nil {
		t.Fatal(err)
	}
	return store, svc, token
}

// TestBalancesComputedOncePerHead: the dashboard, the state pages and the balances API
// under load read the same balances; the server computes them once per ledger head
// (and second of the ledger's clock), and a write is seen by the next read.
func TestBalancesComputedOncePerHead(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC).Unix())
	store, svc, token := countedLedger(t, func() time.Time { return time.Unix(now.Load(), 0).UTC() })
	srv, err := web.New(&catalog.Catalog{}, slog.New(slog.NewTextHandler(io.Discard, nil)), 2027, web.WithLedger(svc))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)

	get := func(path string) string {
		t.Helper()
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Error(err)
			return ""
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		if res.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %s %s", path, res.Status, b)
		}
		return string(b)
	}
	reads := []string{"/pool/2027", "/pool/2027/states/DE", "/api/v1/ledger/cycles/2027/balances"}
	delivered := func() (relocations, head int64) {
		t.Helper()
		var b struct {
			Delivered struct {
				Relocations int64 `json:"relocations"`
			} `json:"delivered_total"`
			AsOf string `json:"as_of"`
			Head int64  `json:"ledger_head"`
		}
		if err := json.Unmarshal([]byte(get("/api/v1/ledger/cycles/2027/balances")), &b); err != nil {
			t.Fatal(err)
		}
		return b.Delivered.Relocations, b.Head
	}

	for _, p := range reads {
		get(p)
	}
	before := store.finds.Load()
	var wg sync.WaitGroup
	for i := range 30 {
		wg.Go(func() { get(reads[i%len(reads)]) })
	}
	wg.Wait()
	if n := store.finds.Load() - before; n != 0 {
		t.Errorf("30 reads at one ledger head computed the balances %d more times, want 0", n)
	}

	req, _ := http.NewRequest("POST", ts.URL+"/api/v1/ledger/cycles/2027/deliveries/DE",
		strings.NewReader(`{"type":"relocation.delivered","relocations":3,"over_delivery":true}`))
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusCreated {
		t.Fatalf("delivery: %s", res.Status)
	}
	if got, _ := delivered(); got != 3 {
		t.Errorf("after a delivery of 3 the balances say %d delivered: a cached answer outlived its head", got)
	}
	if !strings.Contains(get("/pool/2027/states/DE"), `<dd id="delivered">3 relocations`) {
		t.Errorf("after a delivery of 3 DE's page does not show it")
	}

	// A user's page is never the public's kept answer, nor the other way round.
	public := get("/pool/2027/states/DE")
	req, _ = http.NewRequest("GET", ts.URL+"/pool/2027/states/DE", nil)
	req.Header.Set("Authorization", "Bearer "+token)
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	own, _ := io.ReadAll(res.Body)
	res.Body.Close()
	const form = `action="/pool/2027/states/DE/pledges"`
	if strings.Contains(public, form) || !strings.Contains(string(own), form) {
		t.Errorf("pledge form: on the public page %v, on the coordinator's %v; want false, true",
			strings.Contains(public, form), strings.Contains(string(own), form))
	}
	if get("/pool/2027/states/DE") != public {
		t.Errorf("the public page changed after a user's request at the same head")
	}

	// The pace is computed to the second: the next second is computed anew.
	before = store.finds.Load()
	get("/api/v1/ledger/cycles/2027/balances")
	if n := store.finds.Load() - before; n != 0 {
		t.Errorf("a read in the same second and head computed again (%d)", n)
	}
	now.Add(1)
	get("/api/v1/ledger/cycles/2027/balances")
	if n := store.finds.Load() - before; n != 1 {
		t.Errorf("a read one second later computed %d times, want 1", n)
	}
}

// TestShippedPoolCopies: the shipped pool is computed once, and a handler changing its
// copy does not change what the next request gets.
func TestShippedPoolCopies(t *testing.T) {
	srv, err := web.New(&catalog.Catalog{}, slog.New(slog.NewTextHandler(io.Discard, nil)), 2026)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	get := func(path string) string {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.Status + string(b)
	}
	first := get("/api/v1/cycles/2026/pool")
	get("/pool/2026") // the dashboard without a ledger serves the shipped pool
	get("/api/v1/cycles/2026/pool?as_of=2026-13-01")
	if again := get("/api/v1/cycles/2026/pool"); again != first {
		t.Errorf("the shipped pool changed between requests")
	}
	if bad := get("/api/v1/cycles/2026/pool?as_of=2026-13-01"); !strings.HasPrefix(bad, "400") {
		t.Errorf("a bad as_of after a good one: %.60s, want 400", bad)
	}
}

// TestPublicMaxAge: with WithPublicMaxAge, the public's answers are computed at most
// once per window of that length whatever the writes meanwhile (under load the head
// moves with every write, so a head-exact cache never hits), they say which entry
// they show, a user's answer is always computed, and the next window shows the write.
func TestPublicMaxAge(t *testing.T) {
	var now atomic.Int64
	now.Store(time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC).UnixNano())
	clock := func() time.Time { return time.Unix(0, now.Load()).UTC() }
	store, svc, token := countedLedger(t, clock)
	srv, err := web.New(&catalog.Catalog{}, slog.New(slog.NewTextHandler(io.Discard, nil)), 2027,
		web.WithLedger(svc), web.WithClock(clock), web.WithPublicMaxAge(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	delivered := func(auth string) int64 {
		t.Helper()
		req, _ := http.NewRequest("GET", ts.URL+"/api/v1/ledger/cycles/2027/balances", nil)
		if auth != "" {
			req.Header.Set("Authorization", "Bearer "+auth)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var b struct {
			Delivered struct {
				Relocations int64 `json:"relocations"`
			} `json:"delivered_total"`
		}
		if err := json.NewDecoder(res.Body).Decode(&b); err != nil {
			t.Fatal(err)
		}
		return b.Delivered.Relocations
	}
	deliver := func(key string) {
		t.Helper()
		req, _ := http.NewRequest("POST", ts.URL+"/api/v1/ledger/cycles/2027/deliveries/DE",
			strings.NewReader(`{"type":"relocation.delivered","relocations":2,"over_delivery":true}`))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", key)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusCreated {
			t.Fatalf("delivery: %s", res.Status)
		}
	}

	if got := delivered(""); got != 0 {
		t.Fatalf("delivered %d before any delivery", got)
	}
	for i := range 5 {
		deliver(fmt.Sprint("k", i))
	}
	before := store.finds.Load()
	for range 5 {
		now.Add(int64(100 * time.Millisecond))
		if got := delivered(""); got != 0 {
			t.Fatalf("within the window the public saw %d delivered, want the window's first answer (0)", got)
		}
	}
	if n := store.finds.Load() - before; n != 0 {
		t.Errorf("5 public reads within one window read the ledger %d times, want 0", n)
	}
	if got := delivered(token); got != 10 {
		t.Errorf("a user's read says %d delivered, want 10: a user is never served the public's answer", got)
	}
	now.Add(int64(time.Second))
	if got := delivered(""); got != 10 {
		t.Errorf("the next window says %d delivered, want 10", got)
	}
}

// TestPublicPagesKeepTheirLanguage: the anonymous dashboard kept for a while is kept
// per language: an English reader after a German one gets English (review of issue
// 14: the kept page was keyed by the URL alone).
func TestPublicPagesKeepTheirLanguage(t *testing.T) {
	clock := func() time.Time { return time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC) }
	_, svc, _ := countedLedger(t, clock)
	srv, err := web.New(&catalog.Catalog{}, slog.New(slog.NewTextHandler(io.Discard, nil)), 2027,
		web.WithLedger(svc), web.WithClock(clock), web.WithPublicMaxAge(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ accept, cookie, want string }{
		{"de", "", `<html lang="de">`}, {"en", "", `<html lang="en">`}, {"en", "fr", `<html lang="fr">`}, {"de", "", `<html lang="de">`},
	} {
		req := httptest.NewRequest("GET", "/pool/2027", nil)
		req.Header.Set("Accept-Language", c.accept)
		if c.cookie != "" {
			req.AddCookie(&http.Cookie{Name: "lang", Value: c.cookie})
		}
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		if !strings.Contains(rec.Body.String(), c.want) {
			t.Errorf("Accept-Language %s, cookie %q: want %s", c.accept, c.cookie, c.want)
		}
	}
}
