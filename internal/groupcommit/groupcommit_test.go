package groupcommit_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"solidarity"
	"solidarity/internal/groupcommit"
	"solidarity/ledger"
)

// db is a fake store: it numbers the entries of a batch and keeps them once the batch
// commits. Its hooks run inside a batch, on the writer's goroutine.
type db struct {
	mu        sync.Mutex
	committed []*solidarity.Entry
	appended  []string // the Ref of every request a Tx was asked to append
	batches   []int    // the size of every batch begun

	beginErr error
	onAppend func(r *groupcommit.Request) error // before the entry is written
	onCommit func() error
}

// errReplayed is what onAppend returns when it has answered the request itself.
var errReplayed = errors.New("replayed")

type tx struct {
	db    *db
	seq   int64
	wrote []*solidarity.Entry
}

func (d *db) begin(_ context.Context, reqs []*groupcommit.Request) (groupcommit.Tx, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.batches = append(d.batches, len(reqs))
	if d.beginErr != nil {
		return nil, d.beginErr
	}
	return &tx{db: d, seq: int64(len(d.committed))}, nil
}

func (t *tx) Append(r *groupcommit.Request) error {
	t.db.mu.Lock()
	t.db.appended = append(t.db.appended, r.Entry.Ref)
	hook := t.db.onAppend
	t.db.mu.Unlock()
	if hook != nil {
		if err := hook(r); errors.Is(err, errReplayed) {
			return nil
		} else if err != nil {
			return err
		}
	}
	if r.Check != nil {
		if err := r.RunCheck(nil); err != nil {
			r.Answer(nil, false, err)
			return nil
		}
	}
	c := *r.Entry
	t.seq++
	c.Seq = t.seq
	t.wrote = append(t.wrote, &c)
	r.Answer(&c, false, nil)
	return nil
}

func (t *tx) Commit() error {
	if t.db.onCommit != nil {
		if err := t.db.onCommit(); err != nil {
			return err
		}
	}
	t.db.mu.Lock()
	defer t.db.mu.Unlock()
	t.db.committed = append(t.db.committed, t.wrote...)
	return nil
}

func (t *tx) Rollback() {}

func (d *db) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.committed)
}

func internal(op string, err error) error { return fmt.Errorf("test: %s: %w", op, err) }

func start(t *testing.T, d *db) *groupcommit.Writer {
	t.Helper()
	w := groupcommit.Start(256, time.Minute, d.begin, internal)
	t.Cleanup(w.Stop)
	return w
}

func entry(ref string) *solidarity.Entry {
	return &solidarity.Entry{Cycle: 2026, Type: solidarity.PaymentMade, State: "DE", Ref: ref, Actor: "officer",
		At: time.Date(2026, 7, 1, 0, 0, 0, 0, time.UTC), LegalBasis: "Art. 64", Payload: json.RawMessage(`{"eur_cents":1}`)}
}

type result struct {
	out      *solidarity.Entry
	replayed bool
	err      error
}

// appendAsync appends e on a goroutine of its own; its result arrives on the channel.
func appendAsync(ctx context.Context, w *groupcommit.Writer, e *solidarity.Entry) <-chan result {
	c := make(chan result, 1)
	go func() {
		out, replayed, err := w.Append(ctx, "", e, nil)
		c <- result{out, replayed, err}
	}()
	return c
}

// startHeld starts a writer on a fake store whose first commit waits until release
// is called.
func startHeld(t *testing.T) (d *db, w *groupcommit.Writer, release func()) {
	t.Helper()
	gate := make(chan struct{})
	d = &db{}
	d.onCommit = func() error {
		<-gate
		d.onCommit = nil
		return nil
	}
	return d, start(t, d), func() { close(gate) }
}

// TestAnswerAfterCommit checks that no caller is answered before its batch has
// committed, and that appends waiting together make one batch.
func TestAnswerAfterCommit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, w, release := startHeld(t)
		ctx := context.Background()
		first := appendAsync(ctx, w, entry("first"))
		synctest.Wait() // the writer waits in the first batch's commit
		var rest []<-chan result
		for i := range 5 {
			rest = append(rest, appendAsync(ctx, w, entry(fmt.Sprint("r", i))))
		}
		synctest.Wait()
		select {
		case r := <-first:
			t.Fatalf("answered before the commit: %+v", r)
		default:
		}
		if n := w.Queued(); n != 5 {
			t.Fatalf("%d queued, want 5", n)
		}
		release()
		if r := <-first; r.err != nil || r.out.Seq != 1 {
			t.Fatalf("first: %+v", r)
		}
		for _, c := range rest {
			if r := <-c; r.err != nil || r.out.Seq < 2 || r.out.Seq > 6 {
				t.Fatalf("rest: %+v", r)
			}
		}
		w.Stop()
		if fmt.Sprint(d.batches) != "[1 5]" {
			t.Fatalf("batches of %v, want [1 5]", d.batches)
		}
	})
}

// TestGiveUpQueued checks that a caller that gives up while its request is still
// queued is told so at once, and that the request is never written.
func TestGiveUpQueued(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, w, release := startHeld(t)
		first := appendAsync(context.Background(), w, entry("first"))
		synctest.Wait()
		ctx, cancel := context.WithCancel(context.Background())
		gaveUp := appendAsync(ctx, w, entry("gave up"))
		synctest.Wait()
		cancel()
		r := <-gaveUp
		if !errors.Is(r.err, context.Canceled) || r.out != nil ||
			!strings.Contains(r.err.Error(), "test: append abandoned by its caller") {
			t.Fatalf("gave up: %+v", r)
		}
		release()
		if r := <-first; r.err != nil {
			t.Fatal(r.err)
		}
		w.Stop()
		if fmt.Sprint(d.appended) != "[first]" || d.count() != 1 {
			t.Fatalf("appended %v, committed %d", d.appended, d.count())
		}
	})
}

// TestGiveUpTaken checks that a caller that gives up once the writer has taken its
// request waits until the append is done inside the batch (its check never runs after
// Append has returned), and that the append still commits.
func TestGiveUpTaken(t *testing.T) {
	d := &db{}
	inside, leave := make(chan struct{}), make(chan struct{})
	var mu sync.Mutex
	left := false
	d.onAppend = func(*groupcommit.Request) error {
		close(inside)
		<-leave
		mu.Lock()
		left = true
		mu.Unlock()
		return nil
	}
	w := start(t, d)
	var once sync.Once
	release := func() { once.Do(func() { close(leave) }) }
	t.Cleanup(release) // before w.Stop, should the test fail while the append waits
	ctx, cancel := context.WithCancel(context.Background())
	c := appendAsync(ctx, w, entry("taken"))
	<-inside
	cancel()
	time.Sleep(20 * time.Millisecond) // time for Append to return too early
	select {
	case r := <-c:
		t.Fatalf("returned while its append ran: %+v", r)
	default:
	}
	release()
	r := <-c
	mu.Lock()
	defer mu.Unlock()
	if !left {
		t.Fatal("Append returned before the append was done")
	}
	// Answered meanwhile or not, the caller gets either the answer or its own error.
	if r.err != nil && !errors.Is(r.err, context.Canceled) {
		t.Fatalf("taken: %+v", r)
	}
	w.Stop()
	if d.count() != 1 {
		t.Fatalf("%d committed, want the taken append", d.count())
	}
}

// TestStopDrains checks that Stop lets the writer commit what is queued, and that
// appends after it fail.
func TestStopDrains(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		d, w, release := startHeld(t)
		ctx := context.Background()
		cs := []<-chan result{appendAsync(ctx, w, entry("first"))}
		synctest.Wait()
		for i := range 3 {
			cs = append(cs, appendAsync(ctx, w, entry(fmt.Sprint("q", i))))
		}
		synctest.Wait()
		stopped := make(chan struct{})
		go func() {
			w.Stop()
			close(stopped)
		}()
		synctest.Wait()
		if _, _, err := w.Append(ctx, "", entry("late"), nil); err == nil || !strings.Contains(err.Error(), "test: append: store is closed") {
			t.Fatalf("append after Stop: %v", err)
		}
		release()
		for _, c := range cs {
			if r := <-c; r.err != nil {
				t.Fatal(r.err)
			}
		}
		<-stopped
		w.Stop() // again: nothing to do
		if d.count() != 4 {
			t.Fatalf("%d committed, want 4", d.count())
		}
	})
	var none *groupcommit.Writer
	none.Stop()
}

// TestBatchFails checks that every request of a batch that fails is answered with the
// failure, those already appended in it included.
func TestBatchFails(t *testing.T) {
	boom := errors.New("boom")
	batch := func(names ...string) []*groupcommit.Request {
		var reqs []*groupcommit.Request
		for _, n := range names {
			reqs = append(reqs, groupcommit.NewRequest(context.Background(), "", entry(n), nil))
		}
		return reqs
	}
	failed := func(t *testing.T, reqs []*groupcommit.Request) {
		t.Helper()
		for i, r := range reqs {
			<-r.Done()
			if out, _, err := r.Result(); out != nil || !errors.Is(err, boom) || !strings.HasPrefix(err.Error(), "test: append: ") {
				t.Fatalf("request %d: %v %v", i, out, err)
			}
		}
	}
	t.Run("begin", func(t *testing.T) {
		d := &db{beginErr: boom}
		reqs := batch("a", "b")
		start(t, d).Commit(reqs)
		failed(t, reqs)
	})
	t.Run("append", func(t *testing.T) {
		d := &db{onAppend: func(r *groupcommit.Request) error {
			if r.Entry.Ref == "b" {
				return boom
			}
			return nil
		}}
		reqs := batch("a", "b", "c")
		start(t, d).Commit(reqs)
		failed(t, reqs)
		if fmt.Sprint(d.appended) != "[a b]" || d.count() != 0 {
			t.Fatalf("appended %v, committed %d", d.appended, d.count())
		}
	})
	t.Run("commit", func(t *testing.T) {
		d := &db{onCommit: func() error { return boom }}
		reqs := batch("a", "b")
		start(t, d).Commit(reqs)
		failed(t, reqs)
	})
}

// TestGaveUpBeforeTaken checks that a request whose caller's context has ended when
// the writer comes to it is answered with nothing written.
func TestGaveUpBeforeTaken(t *testing.T) {
	d := &db{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := groupcommit.NewRequest(ctx, "k", entry("n"), nil)
	start(t, d).Commit([]*groupcommit.Request{r})
	<-r.Done()
	if out, _, err := r.Result(); out != nil || !errors.Is(err, context.Canceled) {
		t.Fatalf("%v %v", out, err)
	}
	if len(d.appended) != 0 {
		t.Fatalf("appended %v", d.appended)
	}
}

// TestCheckPanics checks that a panic in a check is raised again in the caller, and
// refuses only that append.
func TestCheckPanics(t *testing.T) {
	d := &db{}
	w := start(t, d)
	func() {
		defer func() {
			if p := recover(); p != "boom" {
				t.Fatalf("recovered %v, want boom", p)
			}
		}()
		w.Append(context.Background(), "", entry("p"), func(solidarity.View) error { panic("boom") })
		t.Fatal("Append returned")
	}()
	if _, _, err := w.Append(context.Background(), "", entry("after"), nil); err != nil {
		t.Fatal(err)
	}
	if d.count() != 1 {
		t.Fatalf("%d committed, want 1", d.count())
	}
}

// TestAppendResult checks what Append returns: e itself, with the fields the store
// set, for a new entry; the stored entry, with e left alone, for a replay.
func TestAppendResult(t *testing.T) {
	stored := entry("stored")
	stored.Seq = 7
	d := &db{onAppend: func(r *groupcommit.Request) error {
		if r.Key == "stored" {
			r.Answer(stored, true, nil)
			return errReplayed
		}
		return nil
	}}
	w := start(t, d)
	e := entry("new")
	out, replayed, err := w.Append(context.Background(), "", e, nil)
	if err != nil || replayed || out != e || e.Seq != 1 {
		t.Fatalf("%p %v %v, want %p with seq 1", out, replayed, err, e)
	}
	again := entry("stored")
	out, replayed, err = w.Append(context.Background(), "stored", again, nil)
	if err != nil || !replayed || out != stored || again.Seq != 0 {
		t.Fatalf("%+v %v %v, want the stored entry and %+v unchanged", out, replayed, err, again)
	}
}

// TestRetries checks the idempotency comparison: fingerprints, or for entries stored
// without one, the fields of the request.
func TestRetries(t *testing.T) {
	e := entry("a")
	r := groupcommit.NewRequest(context.Background(), "k", e, nil)
	if r.Fingerprint != ledger.Fingerprint(e) {
		t.Fatal("no fingerprint")
	}
	if groupcommit.NewRequest(context.Background(), "", e, nil).Fingerprint != "" {
		t.Fatal("a fingerprint without a key")
	}
	other := entry("b")
	if !r.Retries(ledger.Fingerprint(e), other) || r.Retries(ledger.Fingerprint(other), e) {
		t.Fatal("fingerprints not compared")
	}
	stored := *e
	stored.Seq, stored.Hash, stored.At = 9, "h", time.Now()
	if !r.Retries("", &stored) || r.Retries("", other) {
		t.Fatal("entries without a fingerprint not compared field by field")
	}
}

// TestAppendChecksEntry checks that an entry that could not be stored as it is hashed
// is refused before it is queued.
func TestAppendChecksEntry(t *testing.T) {
	d := &db{}
	w := start(t, d)
	noType := entry("no type")
	noType.Type = ""
	badJSON := entry("bad JSON")
	badJSON.Payload = json.RawMessage(`{"broken`)
	late := entry("year 10000")
	late.At = time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, e := range []*solidarity.Entry{nil, noType, badJSON, late} {
		if _, _, err := w.Append(context.Background(), "", e, nil); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("%+v: %v, want EINVALID", e, err)
		}
	}
	w.Stop()
	if len(d.batches) != 0 {
		t.Fatalf("batches %v: a refused entry was queued", d.batches)
	}
}
