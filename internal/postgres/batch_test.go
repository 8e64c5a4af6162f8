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
	"solidarity/internal/groupcommit"
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

// TestBatchPaths runs one batch through Writer.Commit directly, so that its requests
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
	reqs := map[string]*groupcommit.Request{
		"a": groupcommit.NewRequest(ctx, "a", payment("DE", math.MaxInt64-10, 2), nil),
		"g": groupcommit.NewRequest(ctx, "a", payment("DE", math.MaxInt64-10, 2), nil), // while a is pending
		"b": groupcommit.NewRequest(ctx, "", payment("DE", 100, 3), nil),               // overflows the DE total
		"c": groupcommit.NewRequest(ctx, "c", pledgeEntry("IT", 4), nil),
		"d": groupcommit.NewRequest(ctx, "", payment("FR", 3, 5), func(v solidarity.View) error {
			ts, err := v.Totals(ctx, 2026)
			if err != nil {
				return err
			}
			for _, x := range ts {
				if x.State == "DE" {
					sawDE = x.Delivered.Of(solidarity.PaymentMade)
				}
			}
			ps, err := v.Find(ctx, 2026, solidarity.PledgeMade, solidarity.PledgeChanged, solidarity.PledgeMade)
			sawPledges = len(ps)
			return err
		}),
		"e": groupcommit.NewRequest(ctx, "c", pledgeEntry("ES", 4), nil),               // c's key, another entry
		"f": groupcommit.NewRequest(ctx, "a", payment("DE", math.MaxInt64-10, 9), nil), // a's key, written
		"h": groupcommit.NewRequest(ctx, "old", payment("AT", 1, 1), nil),              // committed before
		"i": groupcommit.NewRequest(ctx, "", payment("FR", 1, 6), func(v solidarity.View) error {
			if _, err := v.Totals(ctx, 2026); err != nil {
				return err
			}
			return refused
		}),
		"j": groupcommit.NewRequest(ctx, "", payment("FR", 1, 7), func(solidarity.View) error { panic("boom") }),
		"l": groupcommit.NewRequest(ctx, "", payment("FR", 1, 8), func(v solidarity.View) error {
			_, err := v.Find(ctx, 2026, "nul\x00") // PostgreSQL refuses NUL in text
			return err
		}),
		"m": groupcommit.NewRequest(ctx, "", payment("FR", 1, 9), func(v solidarity.View) error {
			v.Find(ctx, 2026, "nul\x00")
			return nil // swallows the error: the append is refused all the same
		}),
		"n": groupcommit.NewRequest(cancelled, "n", payment("FR", 1, 10), nil),
		"k": groupcommit.NewRequest(ctx, "k", payment("IT", 5, 11), nil),
	}
	order := strings.Split("a g b c d e f h i j l m n k", " ")
	var batch []*groupcommit.Request
	for _, name := range order {
		batch = append(batch, reqs[name])
	}
	s.w.Commit(batch)
	for _, name := range order {
		select {
		case <-reqs[name].Done():
		default:
			t.Fatalf("request %s not answered", name)
		}
	}

	fresh := func(name string, seq int64) {
		t.Helper()
		out, replayed, err := reqs[name].Result()
		if err != nil || replayed || out == nil || out.Seq != seq {
			t.Fatalf("%s: out=%+v replayed=%v err=%v, want seq %d", name, out, replayed, err, seq)
		}
	}
	replay := func(name string, of *solidarity.Entry) {
		t.Helper()
		out, replayed, err := reqs[name].Result()
		if err != nil || !replayed || out.Seq != of.Seq || out.Hash != of.Hash {
			t.Fatalf("%s: out=%+v replayed=%v err=%v, want a replay of seq %d", name, out, replayed, err, of.Seq)
		}
	}
	failed := func(name, code string) {
		t.Helper()
		out, _, err := reqs[name].Result()
		if out != nil || solidarity.ErrorCode(err) != code {
			t.Fatalf("%s: out=%+v err=%v, want %s", name, out, err, code)
		}
	}
	fresh("a", 3)
	replay("g", outOf(reqs["a"]))
	failed("b", solidarity.ECONFLICT) // a total that does not fit is refused, not a 500
	fresh("c", 4)
	fresh("d", 5)
	failed("e", solidarity.ECONFLICT)
	replay("f", outOf(reqs["a"]))
	replay("h", old)
	if _, _, err := reqs["i"].Result(); err != refused {
		t.Fatalf("i: %v, want the check's error", err)
	}
	if p := reqs["j"].Panicked(); p != "boom" || outOf(reqs["j"]) != nil {
		t.Fatalf("j: panicked=%v out=%v", p, outOf(reqs["j"]))
	}
	failed("l", solidarity.EINTERNAL)
	failed("m", solidarity.EINTERNAL)
	if out, _, err := reqs["n"].Result(); !errors.Is(err, context.Canceled) || out != nil {
		t.Fatalf("n: %v, want context.Canceled", err)
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
		if out := outOf(reqs[name]); es[out.Seq-1].Hash != out.Hash {
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
	s.w.Stop()
	s.w = groupcommit.Start(maxBatch, batchTimeout, func(ctx context.Context, reqs []*groupcommit.Request) (groupcommit.Tx, error) {
		commits++
		sizes = append(sizes, len(reqs))
		return s.begin(ctx, reqs)
	}, internal)
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
	waitQueued(t, s.w, 20)
	close(hold)
	for range 20 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	s.w.Stop() // commits and sizes are the writer goroutine's
	if commits != 2 || sizes[1] != 20 {
		t.Fatalf("%d batches of %v, want the gate's and one of the 20 others", commits, sizes)
	}
}

// outOf returns the entry r was answered with.
func outOf(r *groupcommit.Request) *solidarity.Entry {
	out, _, _ := r.Result()
	return out
}

// waitQueued waits until n requests wait in w's queue.
func waitQueued(t *testing.T, w *groupcommit.Writer, n int) {
	t.Helper()
	for start := time.Now(); ; time.Sleep(time.Millisecond) {
		queued := w.Queued()
		if queued == n {
			return
		}
		if time.Since(start) > 10*time.Second {
			t.Fatalf("%d requests queued, want %d", queued, n)
		}
	}
}
