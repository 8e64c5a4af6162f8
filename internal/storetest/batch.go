package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"solidarity"
	"solidarity/ledger"
)

// Cases for stores that commit appends in groups (one transaction for whatever
// appends are waiting). Whether appends share a transaction is the store's business:
// each case holds the writer busy in a check (a gate) while the appends it is about
// queue up behind it, so that a store that groups them groups them, but what it checks
// holds of any store, as if the appends had run one after the other.

// queueDelay is how long a case waits for its appends to queue behind the gate.
const queueDelay = 100 * time.Millisecond

// gate appends an entry whose check blocks until the returned release is called, and
// returns once that check is running: the writer is busy until release. wait waits for
// the gated append and fails the test if it failed.
func gate(t *testing.T, s solidarity.Store) (release func(), wait func()) {
	t.Helper()
	running, open := make(chan struct{}), make(chan struct{})
	done := make(chan error, 1)
	go func() {
		e := pledge(t, cycle+9, "SE", 0)
		_, _, err := s.Append(context.Background(), "", e, func(solidarity.View) error {
			close(running)
			<-open
			return nil
		})
		done <- err
	}()
	select {
	case <-running:
	case err := <-done:
		t.Fatalf("gate append: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("the gate's check was not called")
	}
	var once sync.Once
	release = func() { once.Do(func() { close(open) }) }
	t.Cleanup(release)
	return release, func() {
		t.Helper()
		if err := <-done; err != nil {
			t.Fatalf("gate append: %v", err)
		}
	}
}

// checkDense verifies the chain, checks that it holds n entries with sequence
// numbers 1..n, and that the totals of every cycle in cycles are ledger.Sum.
func checkDense(t *testing.T, s solidarity.Store, n int, cycles ...int) []*solidarity.Entry {
	t.Helper()
	es := all(t, s)
	if len(es) != n {
		t.Fatalf("%d entries, want %d", len(es), n)
	}
	for i, e := range es {
		if e.Seq != int64(i+1) {
			t.Fatalf("entry %d has seq %d: not dense", i, e.Seq)
		}
	}
	mustVerify(t, s, int64(n))
	checkTotals(t, s, cycles...)
	return es
}

// checkTotals checks that the stored totals of each cycle are ledger.Sum over All.
func checkTotals(t *testing.T, s solidarity.Store, cycles ...int) {
	t.Helper()
	sum := ledgerSum(t, s)
	got := map[[2]string]solidarity.Totals{}
	for _, c := range cycles {
		for _, x := range totals(t, s, c) {
			got[[2]string{strconv.Itoa(x.Cycle), string(x.State)}] = x
		}
	}
	want := map[[2]string]solidarity.Totals{}
	for k, v := range sum {
		if slices.Contains(cycles, v.Cycle) {
			want[k] = v
		}
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("totals\n %v\nwant ledger.Sum\n %v", got, want)
	}
}

type appendResult struct {
	in       *solidarity.Entry
	out      *solidarity.Entry
	replayed bool
	err      error
}

// testBatchCheckFails queues appends behind the gate, one of them refused by its check:
// it alone is not written, the chain stays dense, and every check sees the appends
// sequenced before its own, those of the same group included.
func testBatchCheckFails(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "", pledge(t, cycle, "DE", 0))
	release, wait := gate(t, s)

	const n, bad = 12, 6
	refused := errors.New("refused in the middle of a batch")
	var mu sync.Mutex
	seen := map[string]int64{} // ref -> the DE relocations its check saw
	results := make([]appendResult, n)
	var wg sync.WaitGroup
	for i := range n {
		e := delivery(t, cycle, "DE", solidarity.RelocationDelivered, int64(i+1), i)
		e.Ref = fmt.Sprintf("b%02d", i)
		results[i].in = e
		wg.Go(func() {
			key := ""
			if i%2 == 0 {
				key = "batch-" + e.Ref
			}
			out, replayed, err := s.Append(ctx, key, e, func(v solidarity.View) error {
				ts, err := v.Totals(ctx, cycle)
				if err != nil {
					return err
				}
				var de int64
				for _, x := range ts {
					if x.State == "DE" {
						de = x.Delivered.Of(solidarity.RelocationDelivered)
					}
				}
				mu.Lock()
				seen[e.Ref] = de
				mu.Unlock()
				if i == bad {
					return refused
				}
				return nil
			})
			results[i] = appendResult{in: e, out: out, replayed: replayed, err: err}
		})
		time.Sleep(queueDelay / n) // queue them in order, as far as the scheduler lets
	}
	time.Sleep(queueDelay)
	release()
	wg.Wait()
	wait()

	for i, r := range results {
		switch {
		case i == bad:
			if r.err != refused {
				t.Fatalf("the refused append returned %v, want its check's error unchanged", r.err)
			}
			if r.out != nil || r.in.Seq != 0 || r.in.Hash != "" {
				t.Fatalf("the refused append was sealed: %+v", r.in)
			}
		case r.err != nil || r.replayed:
			t.Fatalf("append %d: replayed=%v, %v", i, r.replayed, r.err)
		case r.out != r.in || r.out.Seq == 0:
			t.Fatalf("append %d: Append did not return its entry sealed", i)
		}
	}
	es := checkDense(t, s, 2+n-1, cycle, cycle+9)
	// Each check saw exactly the deliveries sequenced before its append.
	var before int64
	for _, e := range es {
		if e.Type != solidarity.RelocationDelivered {
			continue
		}
		if got := seen[e.Ref]; got != before {
			t.Fatalf("the check of entry %d (%s) saw %d relocations, want %d: it did not see the appends before it",
				e.Seq, e.Ref, got, before)
		}
		d, _, _ := ledger.Delta(e)
		before += d.Delivered.Of(solidarity.RelocationDelivered)
		r := results[slices.IndexFunc(results, func(r appendResult) bool { return r.in.Ref == e.Ref })]
		if !sameStored(r.out, e) {
			t.Fatalf("append returned\n %+v\nbut stored is\n %+v", r.out, e)
		}
	}
	// The refused append's key was not used up.
	e := delivery(t, cycle, "DE", solidarity.RelocationDelivered, bad+1, bad)
	e.Ref = fmt.Sprintf("b%02d", bad)
	out := mustAppend(t, s, "batch-"+e.Ref, e)
	if out.Seq != int64(2+n) {
		t.Fatalf("append after the batch got seq %d, want %d", out.Seq, 2+n)
	}
}

// testBatchIdempotency queues, behind the gate, appends that share idempotency keys:
// they end as if they had run one after the other in some order. Of two same requests
// under one key, one is written and the other replays it; a different request under
// that key is a conflict (or is the one written, and then both others conflict); a
// request refused by its check does not use its key up for the next.
func testBatchIdempotency(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "", pledge(t, cycle, "FR", 0))
	release, wait := gate(t, s)

	same := func(i int) *solidarity.Entry {
		e := delivery(t, cycle, "FR", solidarity.PaymentMade, 500, 1)
		e.Ref = "same"
		e.At = e.At.Add(time.Duration(i) * time.Minute) // a retry's clock
		return e
	}
	other := delivery(t, cycle, "FR", solidarity.PaymentMade, 999, 1)
	other.Ref = "same"
	refused := errors.New("refused")
	type job struct {
		key   string
		e     *solidarity.Entry
		check func(solidarity.View) error
	}
	retry := delivery(t, cycle, "FR", solidarity.AlternativeDelivered, 7, 2)
	retry.Ref = "retried"
	var calledOnReplay sync.Once
	called := false
	jobs := []job{
		{"k1", same(0), nil},
		{"k1", same(1), func(solidarity.View) error { calledOnReplay.Do(func() { called = true }); return nil }},
		{"k1", other, nil},
		{"k2", retry, func(solidarity.View) error { return refused }},
		{"k2", func() *solidarity.Entry { e := *retry; return &e }(), func(v solidarity.View) error {
			_, err := v.Totals(ctx, cycle)
			return err
		}},
		{"", delivery(t, cycle, "FR", solidarity.PaymentMade, 1, 3), nil},
	}
	results := make([]appendResult, len(jobs))
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Go(func() {
			out, replayed, err := s.Append(ctx, j.key, j.e, j.check)
			results[i] = appendResult{in: j.e, out: out, replayed: replayed, err: err}
		})
		time.Sleep(queueDelay / time.Duration(len(jobs)))
	}
	time.Sleep(queueDelay)
	release()
	wg.Wait()
	wait()

	if results[1].replayed && called {
		t.Fatal("check called on a replay")
	}
	es := checkDense(t, s, 5, cycle, cycle+9)
	byRef := map[string][]*solidarity.Entry{}
	for _, e := range es {
		byRef[e.Ref] = append(byRef[e.Ref], e)
	}
	// k1: exactly one written.
	if len(byRef["same"]) != 1 {
		t.Fatalf("%d entries written under key k1, want 1", len(byRef["same"]))
	}
	stored := byRef["same"][0]
	fresh := 0
	for i, r := range results[:3] {
		switch {
		case r.err == nil && !r.replayed:
			fresh++
			if !sameStored(r.out, stored) {
				t.Fatalf("k1 append %d returned %+v, stored %+v", i, r.out, stored)
			}
		case r.err == nil && r.replayed:
			if !ledger.SameEntry(stored, r.in) {
				t.Fatalf("k1 append %d replayed a different entry", i)
			}
			if !sameStored(r.out, stored) {
				t.Fatalf("k1 replay %d returned\n %+v\nwant the stored\n %+v", i, r.out, stored)
			}
			if r.in.Seq != 0 || r.in.Hash != "" {
				t.Fatalf("a replay changed its argument: %+v", r.in)
			}
		default:
			wantCode(t, r.err, solidarity.ECONFLICT)
			if ledger.SameEntry(stored, r.in) {
				t.Fatalf("k1 append %d: conflict for the same request", i)
			}
			if r.in.Seq != 0 || r.in.Hash != "" {
				t.Fatalf("a refused entry was sealed: %+v", r.in)
			}
		}
	}
	if fresh != 1 {
		t.Fatalf("%d appends under key k1 were written, want 1", fresh)
	}
	// k2: the refused one did not use the key up; the other is written (or, had it
	// come first, the refused one would replay it).
	if len(byRef["retried"]) != 1 {
		t.Fatalf("%d entries written under key k2, want 1", len(byRef["retried"]))
	}
	if r := results[4]; r.err != nil || r.replayed {
		t.Fatalf("k2 append after a refused one: replayed=%v, %v", r.replayed, r.err)
	}
	if r := results[3]; r.err != refused && !(r.err == nil && r.replayed) {
		t.Fatalf("refused k2 append: replayed=%v, %v", r.replayed, r.err)
	}
	if r := results[5]; r.err != nil || r.replayed {
		t.Fatalf("append without a key: replayed=%v, %v", r.replayed, r.err)
	}
}

// testCheckFillsEntry has checks that fill in a field of their entry from what they
// read, as the ledger service numbers requests: the entry is stored, hashed and
// returned as the check left it, and appends queued together number on from one
// another.
func testCheckFillsEntry(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	release, wait := gate(t, s)
	const n = 8
	results := make([]appendResult, n)
	var wg sync.WaitGroup
	for i := range n {
		e := &solidarity.Entry{Cycle: cycle, Type: solidarity.DeductionRequested, State: states[i%len(states)],
			Actor: "officer", At: base, LegalBasis: "Art. 62(1)", Payload: payload(t, map[string]int{"i": i})}
		wg.Go(func() {
			key := ""
			if i%2 == 1 {
				key = fmt.Sprintf("numbered-%d", i)
			}
			out, replayed, err := s.Append(ctx, key, e, func(v solidarity.View) error {
				es, err := v.Find(ctx, cycle, solidarity.DeductionRequested)
				if err != nil {
					return err
				}
				// The appends of the batch before this one are seen by FindAfter
				// and EntryHash as by Find (what a cached state is extended with).
				if k := len(es); k > 0 {
					if h, err := v.EntryHash(ctx, es[k-1].Seq); err != nil || h != es[k-1].Hash {
						return fmt.Errorf("EntryHash(%d) in check = %q, %v; want %q", es[k-1].Seq, h, err, es[k-1].Hash)
					}
					after, err := v.FindAfter(ctx, cycle, es[k/2].Seq, solidarity.DeductionRequested, solidarity.PledgeMade)
					if err != nil {
						return err
					}
					if want := es[k/2+1:]; len(after) != len(want) || len(after) > 0 && !sameStored(after[len(after)-1], want[len(want)-1]) {
						return fmt.Errorf("FindAfter(%d) in check = %s, want %s", es[k/2].Seq, seqs(after), seqs(want))
					}
				}
				e.Ref = fmt.Sprintf("REQ-%d", len(es)+1)
				return nil
			})
			results[i] = appendResult{in: e, out: out, replayed: replayed, err: err}
		})
	}
	time.Sleep(queueDelay)
	release()
	wg.Wait()
	wait()
	es := checkDense(t, s, 1+n, cycle, cycle+9)
	refs := map[string]bool{}
	for i, r := range results {
		if r.err != nil || r.replayed || r.out != r.in {
			t.Fatalf("append %d: replayed=%v, %v", i, r.replayed, r.err)
		}
		if !sameStored(r.out, es[r.out.Seq-1]) {
			t.Fatalf("append %d returned\n %+v\nstored\n %+v", i, r.out, es[r.out.Seq-1])
		}
		refs[r.out.Ref] = true
	}
	for i := 1; i <= n; i++ {
		if !refs[fmt.Sprintf("REQ-%d", i)] {
			t.Fatalf("references %v, want REQ-1 to REQ-%d", refs, n)
		}
	}
}

// testConcurrent64 appends from 64 goroutines at once, with checks, keys, replays and
// refusals: the chain is dense and valid, each acknowledged entry is stored as
// returned, and the totals are ledger.Sum.
func testConcurrent64(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	const writers, each = 64, 6
	refused := errors.New("refused")
	var wg sync.WaitGroup
	var mu sync.Mutex
	acked := map[int64]*solidarity.Entry{}
	fresh := map[string]int{}
	errs := make(chan error, writers*each*2)
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				c := cycle + g%2
				e := delivery(t, c, states[(g+i)%len(states)], deliveryTypes[(g+i)%3], int64(g*100+i), g*each+i)
				e.Ref = fmt.Sprintf("w%02d-%d", g, i)
				key := ""
				if i%2 == 0 {
					key = e.Ref
				}
				if i == 4 {
					key = fmt.Sprintf("shared-%d", g%8) // 8 writers send the same request
					e = delivery(t, cycle, "IT", solidarity.PaymentMade, 100, g%8)
					e.Ref = key
				}
				fail := (g+i)%9 == 0
				out, replayed, err := s.Append(ctx, key, e, func(v solidarity.View) error {
					if _, err := v.Totals(ctx, c); err != nil {
						return err
					}
					if _, err := v.Find(ctx, c, solidarity.PledgeMade); err != nil {
						return err
					}
					if fail {
						return refused
					}
					return nil
				})
				switch {
				case fail && err == refused:
				case fail && err == nil && replayed:
				case err != nil:
					errs <- fmt.Errorf("writer %d append %d: %w", g, i, err)
				default:
					mu.Lock()
					if !replayed {
						if acked[out.Seq] != nil {
							errs <- fmt.Errorf("seq %d acknowledged twice", out.Seq)
						}
						acked[out.Seq] = out
						fresh[key]++
					}
					mu.Unlock()
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for k, n := range fresh {
		if k != "" && n != 1 {
			t.Fatalf("key %q written %d times", k, n)
		}
	}
	es := all(t, s)
	if len(es) != len(acked) {
		t.Fatalf("%d entries stored, %d acknowledged", len(es), len(acked))
	}
	checkDense(t, s, len(es), cycle, cycle+1)
	for _, e := range es {
		if !sameStored(acked[e.Seq], e) {
			t.Fatalf("entry %d stored as\n %+v\nacknowledged as\n %+v", e.Seq, e, acked[e.Seq])
		}
	}
}

// testCancelWhileQueued gives up on an append that waits for the writer: it returns
// the context's error at once, with its entry untouched, and a retry under the same
// key is either written or replays it (if the store had already taken it).
func testCancelWhileQueued(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "", pledge(t, cycle, "ES", 0))
	release, wait := gate(t, s)

	cctx, cancel := context.WithCancel(ctx)
	e := delivery(t, cycle, "ES", solidarity.PaymentMade, 42, 1)
	checked := make(chan struct{}, 1)
	done := make(chan error, 1)
	go func() {
		_, _, err := s.Append(cctx, "cancelled", e, func(solidarity.View) error {
			checked <- struct{}{}
			return nil
		})
		done <- err
	}()
	time.Sleep(queueDelay)
	cancel()
	var err error
	select {
	case err = <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Append did not return after its context was cancelled")
	}
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled append: %v, want an error wrapping context.Canceled", err)
	}
	if e.Seq != 0 || e.Hash != "" {
		t.Fatalf("a cancelled append changed its argument: %+v", e)
	}
	release()
	wait()
	select {
	case <-checked:
		t.Fatal("the check of an append given up before the writer took it was called")
	default:
	}
	again := delivery(t, cycle, "ES", solidarity.PaymentMade, 42, 1)
	out, _, err := s.Append(ctx, "cancelled", again, nil)
	if err != nil {
		t.Fatalf("retry: %v", err)
	}
	es := checkDense(t, s, 3, cycle, cycle+9)
	if !sameStored(out, es[2]) {
		t.Fatalf("retry returned %+v, stored %+v", out, es[2])
	}
}

// testCloseDrains closes the store while appends wait for the writer: Close returns
// after them, and each append either fails or is there after reopening.
func testCloseDrains(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "", pledge(t, cycle, "AT", 0))
	release, wait := gate(t, s)

	const n = 8
	results := make([]appendResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			e := delivery(t, cycle, "AT", solidarity.PaymentMade, int64(i+1), i)
			e.Ref = fmt.Sprintf("c%d", i)
			out, replayed, err := s.Append(ctx, e.Ref, e, nil)
			results[i] = appendResult{in: e, out: out, replayed: replayed, err: err}
		})
	}
	time.Sleep(queueDelay)
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	time.Sleep(queueDelay / 2)
	release()
	wg.Wait()
	wait()
	select {
	case err := <-closed:
		if err != nil {
			t.Fatalf("Close: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not return")
	}
	_, _, err := s.Append(ctx, "", pledge(t, cycle, "AT", 1), nil)
	wantCode(t, err, solidarity.EINTERNAL)

	s = h.Reopen()
	es := all(t, s)
	stored := map[string]*solidarity.Entry{}
	for _, e := range es {
		stored[e.Ref] = e
	}
	for i, r := range results {
		if r.err == nil && !sameStored(r.out, stored[r.in.Ref]) {
			t.Fatalf("append %d was acknowledged as %+v but stored as %+v", i, r.out, stored[r.in.Ref])
		}
	}
	checkDense(t, s, len(es), cycle, cycle+9)
}
