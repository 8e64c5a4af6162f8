package postgres

import (
	"context"
	"crypto/rand"
	"errors"
	"math"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"solidarity"
	"solidarity/ledger"
)

// openFresh opens a store on a schema of its own, dropped at cleanup (as the external
// tests' freshSchema does).
func openFresh(t *testing.T) *Store {
	t.Helper()
	dsn := os.Getenv("SOLIDARITY_TEST_POSTGRES")
	if dsn == "" {
		if os.Getenv("SOLIDARITY_TEST_POSTGRES_REQUIRED") == "1" {
			t.Fatal("SOLIDARITY_TEST_POSTGRES is not set but SOLIDARITY_TEST_POSTGRES_REQUIRED=1")
		}
		t.Skip("SOLIDARITY_TEST_POSTGRES is not set")
	}
	ctx := context.Background()
	name := "batchtest_" + strings.ToLower(rand.Text()[:12])
	exec := func(sql string) {
		conn, err := pgx.Connect(ctx, dsn)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, sql); err != nil {
			t.Fatal(err)
		}
	}
	exec(`CREATE SCHEMA ` + pgx.Identifier{name}.Sanitize())
	t.Cleanup(func() { exec(`DROP SCHEMA ` + pgx.Identifier{name}.Sanitize() + ` CASCADE`) })
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("search_path", name)
	q.Set("pool_max_conns", "4")
	u.RawQuery = q.Encode()
	s, err := Open(ctx, u.String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func payment(state solidarity.MemberState, cents int64, i int) *solidarity.Entry {
	p, _ := ledger.Payload(solidarity.DeliveryPayload{EURCents: solidarity.Cents(cents)})
	return &solidarity.Entry{Cycle: 2026, Type: solidarity.PaymentMade, State: state, Actor: "officer",
		At: time.Date(2026, 7, 1, 0, 0, i, 0, time.UTC), LegalBasis: "Art. 64", Payload: p}
}

func pledgeEntry(state solidarity.MemberState, i int) *solidarity.Entry {
	p, _ := ledger.Payload(solidarity.PledgePayload{Type: "relocation", Relocations: 10})
	return &solidarity.Entry{Cycle: 2026, Type: solidarity.PledgeMade, State: state, Actor: "officer",
		At: time.Date(2026, 7, 1, 0, 0, i, 0, time.UTC), LegalBasis: "Art. 57(1)", Payload: p}
}

func newRequest(ctx context.Context, key string, e *solidarity.Entry, check func(solidarity.View) error) *request {
	r := &request{ctx: ctx, key: key, e: e, check: check, done: make(chan struct{})}
	if key != "" {
		r.fp = ledger.Fingerprint(e)
	}
	return r
}

// TestBatchPaths runs one batch through commitBatch directly, so that its requests
// share one transaction for certain, and walks the batch's paths: a write that fails
// while pending (a totals overflow) with pending appends behind it, keys repeated
// while pending and once written, a committed key, refused and panicking checks, a
// check whose query fails, a caller that gave up, and pending appends at commit.
func TestBatchPaths(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t)
	if _, _, err := s.Append(ctx, "", pledgeEntry("FR", 0), nil); err != nil {
		t.Fatal(err)
	}
	old, _, err := s.Append(ctx, "old", payment("AT", 1, 1), nil)
	if err != nil {
		t.Fatal(err)
	}

	refused := errors.New("refused")
	var sawDE int64 = -1
	var sawPledges int
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	reqs := map[string]*request{
		"a": newRequest(ctx, "a", payment("DE", math.MaxInt64-10, 2), nil),
		"g": newRequest(ctx, "a", payment("DE", math.MaxInt64-10, 2), nil), // while a is pending
		"b": newRequest(ctx, "", payment("DE", 100, 3), nil),               // overflows the DE total
		"c": newRequest(ctx, "c", pledgeEntry("IT", 4), nil),
		"d": newRequest(ctx, "", payment("FR", 3, 5), func(v solidarity.View) error {
			ts, err := v.Totals(ctx, 2026)
			if err != nil {
				return err
			}
			for _, x := range ts {
				if x.State == "DE" {
					sawDE = int64(x.Payments)
				}
			}
			ps, err := v.Find(ctx, 2026, solidarity.PledgeMade, solidarity.PledgeChanged, solidarity.PledgeMade)
			sawPledges = len(ps)
			return err
		}),
		"e": newRequest(ctx, "c", pledgeEntry("ES", 4), nil),               // c's key, another entry
		"f": newRequest(ctx, "a", payment("DE", math.MaxInt64-10, 9), nil), // a's key, written
		"h": newRequest(ctx, "old", payment("AT", 1, 1), nil),              // committed before
		"i": newRequest(ctx, "", payment("FR", 1, 6), func(v solidarity.View) error {
			if _, err := v.Totals(ctx, 2026); err != nil {
				return err
			}
			return refused
		}),
		"j": newRequest(ctx, "", payment("FR", 1, 7), func(solidarity.View) error { panic("boom") }),
		"l": newRequest(ctx, "", payment("FR", 1, 8), func(v solidarity.View) error {
			_, err := v.Find(ctx, 2026, "nul\x00") // PostgreSQL refuses NUL in text
			return err
		}),
		"m": newRequest(ctx, "", payment("FR", 1, 9), func(v solidarity.View) error {
			v.Find(ctx, 2026, "nul\x00")
			return nil // swallows the error: the append is refused all the same
		}),
		"n": newRequest(cancelled, "n", payment("FR", 1, 10), nil),
		"k": newRequest(ctx, "k", payment("IT", 5, 11), nil),
	}
	order := strings.Split("a g b c d e f h i j l m n k", " ")
	var batch []*request
	for _, name := range order {
		batch = append(batch, reqs[name])
	}
	s.commitBatch(batch)
	for _, name := range order {
		select {
		case <-reqs[name].done:
		default:
			t.Fatalf("request %s not answered", name)
		}
	}

	fresh := func(name string, seq int64) {
		t.Helper()
		r := reqs[name]
		if r.err != nil || r.replayed || r.out == nil || r.out.Seq != seq {
			t.Fatalf("%s: out=%+v replayed=%v err=%v, want seq %d", name, r.out, r.replayed, r.err, seq)
		}
	}
	replay := func(name string, of *solidarity.Entry) {
		t.Helper()
		r := reqs[name]
		if r.err != nil || !r.replayed || r.out.Seq != of.Seq || r.out.Hash != of.Hash {
			t.Fatalf("%s: out=%+v replayed=%v err=%v, want a replay of seq %d", name, r.out, r.replayed, r.err, of.Seq)
		}
	}
	failed := func(name, code string) {
		t.Helper()
		r := reqs[name]
		if r.out != nil || solidarity.ErrorCode(r.err) != code {
			t.Fatalf("%s: out=%+v err=%v, want %s", name, r.out, r.err, code)
		}
	}
	fresh("a", 3)
	replay("g", reqs["a"].out)
	failed("b", solidarity.EINTERNAL)
	fresh("c", 4)
	fresh("d", 5)
	failed("e", solidarity.ECONFLICT)
	replay("f", reqs["a"].out)
	replay("h", old)
	if reqs["i"].err != refused {
		t.Fatalf("i: %v, want the check's error", reqs["i"].err)
	}
	if reqs["j"].panicked != "boom" || reqs["j"].out != nil {
		t.Fatalf("j: panicked=%v out=%v", reqs["j"].panicked, reqs["j"].out)
	}
	failed("l", solidarity.EINTERNAL)
	failed("m", solidarity.EINTERNAL)
	if !errors.Is(reqs["n"].err, context.Canceled) || reqs["n"].out != nil {
		t.Fatalf("n: %v, want context.Canceled", reqs["n"].err)
	}
	fresh("k", 6)
	if sawDE != math.MaxInt64-10 || sawPledges != 2 {
		t.Fatalf("d's check saw DE payments %d and %d pledges, want %d and 2", sawDE, sawPledges, int64(math.MaxInt64-10))
	}

	// The chain is dense and holds what was acknowledged; the totals are the sum.
	var es []*solidarity.Entry
	for e, err := range s.All(ctx) {
		if err != nil {
			t.Fatal(err)
		}
		es = append(es, e)
	}
	v, err := ledger.Verify(func(yield func(*solidarity.Entry, error) bool) {
		for _, e := range es {
			if !yield(e, nil) {
				return
			}
		}
	}, time.Now())
	if err != nil || !v.OK || v.Entries != 6 {
		t.Fatalf("Verify: %+v %v", v, err)
	}
	for _, name := range []string{"a", "c", "d", "k"} {
		if out := reqs[name].out; es[out.Seq-1].Hash != out.Hash {
			t.Fatalf("%s acknowledged as %+v, stored %+v", name, out, es[out.Seq-1])
		}
	}
	if seq, hash, err := s.Head(ctx); err != nil || seq != 6 || hash != es[5].Hash {
		t.Fatalf("Head = %d %q %v", seq, hash, err)
	}
	sum, err := ledger.Sum(s.All(ctx))
	if err != nil {
		t.Fatal(err)
	}
	ts, err := s.Totals(ctx, 2026)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts) != len(sum) {
		t.Fatalf("totals %v, want %v", ts, sum)
	}
	for _, x := range ts {
		if sum[[2]string{"2026", string(x.State)}] != x {
			t.Fatalf("totals %v, want %v", ts, sum)
		}
	}
}

// TestBatchGroups checks that appends waiting together do share a transaction: with
// the writer held, queued appends commit in fewer transactions than appends.
func TestBatchGroups(t *testing.T) {
	ctx := context.Background()
	s := openFresh(t)
	var commits int
	var sizes []int
	s.w.stop()
	s.w = writer{}
	s.w.start(maxBatch, func(reqs []*request) {
		commits++
		sizes = append(sizes, len(reqs))
		s.commitBatch(reqs)
	})
	hold, held := make(chan struct{}), make(chan struct{})
	go s.Append(ctx, "", pledgeEntry("SE", 0), func(solidarity.View) error {
		close(held)
		<-hold
		return nil
	})
	<-held
	errs := make(chan error, 20)
	for i := range 20 {
		go func() {
			_, _, err := s.Append(ctx, "", payment("DE", 1, i), nil)
			errs <- err
		}()
	}
	waitQueued(t, &s.w, 20)
	close(hold)
	for range 20 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	s.w.stop() // commits and sizes are the writer goroutine's
	if commits != 2 || sizes[1] != 20 {
		t.Fatalf("%d batches of %v, want the gate's and one of the 20 others", commits, sizes)
	}
}

// waitQueued waits until n requests wait in w's queue.
func waitQueued(t *testing.T, w *writer, n int) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		w.mu.Lock()
		queued := len(w.pending)
		w.mu.Unlock()
		if queued == n {
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%d requests queued, want %d", queued, n)
		}
	}
}
