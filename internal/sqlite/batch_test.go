package sqlite

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/groupcommit"
	"solidarity/ledger"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "solidarity.db"))
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
// share one transaction for certain: a write refused by the database (a trigger), keys
// repeated within the batch and from before it, refused and panicking checks, a caller
// that gave up, and a check that sees the earlier appends of the batch.
func TestBatchPaths(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	if _, _, err := s.Append(ctx, "", pledgeEntry("FR", 0), nil); err != nil {
		t.Fatal(err)
	}
	old, _, err := s.Append(ctx, "old", payment("AT", 1, 1), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.write.ExecContext(ctx, `CREATE TRIGGER refuse BEFORE INSERT ON entries
		WHEN NEW.ref = 'refuse me' BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END`); err != nil {
		t.Fatal(err)
	}

	refused := errors.New("refused")
	var sawDE int64 = -1
	var sawPledges int
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	boom := payment("DE", 100, 3)
	boom.Ref = "refuse me"
	reqs := map[string]*groupcommit.Request{
		"a": groupcommit.NewRequest(ctx, "a", payment("DE", 1000, 2), nil),
		"g": groupcommit.NewRequest(ctx, "a", payment("DE", 1000, 2), nil),
		"b": groupcommit.NewRequest(ctx, "b", boom, nil),
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
			ps, err := v.Find(ctx, 2026, solidarity.PledgeMade, solidarity.PledgeChanged)
			sawPledges = len(ps)
			return err
		}),
		"e": groupcommit.NewRequest(ctx, "c", pledgeEntry("ES", 4), nil),
		"f": groupcommit.NewRequest(ctx, "a", payment("DE", 1000, 9), nil),
		"h": groupcommit.NewRequest(ctx, "old", payment("AT", 1, 1), nil),
		"i": groupcommit.NewRequest(ctx, "", payment("FR", 1, 6), func(v solidarity.View) error {
			if _, err := v.Totals(ctx, 2026); err != nil {
				return err
			}
			return refused
		}),
		"j":  groupcommit.NewRequest(ctx, "", payment("FR", 1, 7), func(solidarity.View) error { panic("boom") }),
		"n":  groupcommit.NewRequest(cancelled, "n", payment("FR", 1, 10), nil),
		"b2": groupcommit.NewRequest(ctx, "b", func() *solidarity.Entry { e := *boom; e.Ref = "fine now"; return &e }(), nil),
		"k":  groupcommit.NewRequest(ctx, "k", payment("IT", 5, 11), nil),
	}
	order := strings.Split("a g b c d e f h i j n b2 k", " ")
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
	failed("b", solidarity.EINTERNAL)
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
	if out, _, err := reqs["n"].Result(); !errors.Is(err, context.Canceled) || out != nil {
		t.Fatalf("n: %v, want context.Canceled", err)
	}
	fresh("b2", 6) // b's key was not used up by its failed write
	fresh("k", 7)
	if sawDE != 1000 || sawPledges != 2 {
		t.Fatalf("d's check saw DE payments %d and %d pledges, want 1000 and 2", sawDE, sawPledges)
	}

	v, err := ledger.Verify(s.All(ctx), time.Now())
	if err != nil || !v.OK || v.Entries != 7 {
		t.Fatalf("Verify: %+v %v", v, err)
	}
	es, err := s.Entries(ctx, solidarity.EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a", "c", "d", "b2", "k"} {
		if out := outOf(reqs[name]); es[out.Seq-1].Hash != out.Hash {
			t.Fatalf("%s acknowledged as %+v, stored %+v", name, out, es[out.Seq-1])
		}
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
// the writer held, queued appends commit in one transaction after the gate's.
func TestBatchGroups(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t)
	var sizes []int
	s.w.Stop()
	s.w = groupcommit.Start(maxBatch, batchTimeout, func(ctx context.Context, reqs []*groupcommit.Request) (groupcommit.Tx, error) {
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
	s.w.Stop() // sizes is the writer goroutine's
	if len(sizes) != 2 || sizes[1] != 20 {
		t.Fatalf("batches of %v, want the gate's and one of the 20 others", sizes)
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
