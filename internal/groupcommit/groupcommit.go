// Package groupcommit is the single writer that internal/sqlite and internal/postgres
// share: the queue of pending appends, the goroutine that commits them in groups, and
// the rules by which a caller that gives up gets its answer.
//
// Every append is chained onto the one before it, so appends cannot run side by side:
// the store has a single writer. Committing each append in a transaction of its own
// would make every append wait for its own durable commit (an fsync of the WAL on
// SQLite, a WAL flush on PostgreSQL) while holding the writer. Instead, Append queues a
// request and waits; one writer goroutine takes whatever is queued (at most maxBatch
// requests), runs those appends in order in one transaction, each inside a savepoint
// so that a failing check or statement undoes only that append, commits once, and only
// then answers every caller of the batch.
//
// The store supplies the transaction (Tx): its SQL, its savepoints and its idempotency
// lookups. This package decides when a request is the writer's, answers every request
// of a batch that fails, and answers none before the batch's transaction has committed.
package groupcommit

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"solidarity"
	"solidarity/ledger"
)

// Request is one Append waiting for the writer. A store's Tx reads its exported
// fields and answers it with Answer.
type Request struct {
	ctx context.Context // the caller's: only read to see whether it gave up

	Key string // the idempotency key, or ""
	// Entry is the caller's entry. The writer reads it only while it holds mu, and
	// copies it once Check has returned (Check may fill fields in, as the ledger
	// service numbers its references): the caller does not touch it until Append
	// returns, which is after that even when the caller gives up.
	Entry       *solidarity.Entry
	Fingerprint string // ledger.Fingerprint of Entry as passed, for the idempotency key
	Check       func(solidarity.View) error
	// Cases is what the append changes in the case tables (CaseStore.AppendCase), or
	// nil for a plain append. Like Entry it is the caller's, and check may fill it in:
	// a store reads it through CaseWrite, once check has returned.
	Cases *solidarity.CaseWrite

	// mu is held by the writer from taking the request until its append is done (or
	// undone) inside the batch transaction, so a caller that gives up either takes its
	// request back before the writer looked at it, or waits until check has returned:
	// check never runs after Append has returned.
	mu    sync.Mutex
	state reqState

	// The answer, written by the writer before it closes done.
	out      *solidarity.Entry
	replayed bool
	err      error
	panicked any // what check panicked with, raised again in the caller
	done     chan struct{}
}

type reqState int

const (
	queued    reqState = iota
	taken              // the writer has it; it may commit
	abandoned          // the caller gave up before the writer took it: never written
)

// NewRequest returns the request of an append of e under key (none when "") with
// check, made by a caller whose context is ctx. Writer.Append makes its requests with
// it; tests make them to run a batch with Writer.Commit.
func NewRequest(ctx context.Context, key string, e *solidarity.Entry, check func(solidarity.View) error) *Request {
	r := &Request{ctx: ctx, Key: key, Entry: e, Check: check, done: make(chan struct{})}
	if key != "" {
		r.Fingerprint = ledger.Fingerprint(e)
	}
	return r
}

// take marks r as the writer's, locking r.mu; it reports false (r.mu not held) if the
// caller gave up first. A request whose context is done by now is answered at once
// with nothing written.
func (r *Request) take(gaveUp func(error) error) bool {
	r.mu.Lock()
	if r.state == abandoned {
		r.mu.Unlock()
		return false
	}
	r.state = taken
	if err := r.ctx.Err(); err != nil {
		r.err = gaveUp(err)
		r.mu.Unlock()
		close(r.done)
		return false
	}
	return true
}

// abandon is called by a caller whose context is done. It reports whether the
// request was taken back before the writer took it.
func (r *Request) abandon() bool {
	r.mu.Lock() // waits while the writer runs this request's check
	defer r.mu.Unlock()
	if r.state == queued {
		r.state = abandoned
		return true
	}
	return false
}

// Answer records what the append of r comes to: the entry written or replayed, or
// the error that refused it. A Tx calls it from its Append, and may correct it until
// its Commit returns; the caller is told once the batch has committed.
func (r *Request) Answer(out *solidarity.Entry, replayed bool, err error) {
	r.out, r.replayed, r.err = out, replayed, err
}

// Result returns the answer recorded by Answer (or by the writer for a request that
// was given up on). It is final once Done is closed.
func (r *Request) Result() (out *solidarity.Entry, replayed bool, err error) {
	return r.out, r.replayed, r.err
}

// Done is closed when r has been answered: its batch committed or failed.
func (r *Request) Done() <-chan struct{} { return r.done }

// Panicked returns what r's check panicked with (RunCheck), or nil.
func (r *Request) Panicked() any { return r.panicked }

// RunCheck calls r's check with v, turning a panic into r.Panicked (raised again in
// the caller's goroutine) and a refused append.
func (r *Request) RunCheck(v solidarity.View) (err error) {
	defer func() {
		if p := recover(); p != nil {
			r.panicked = p
			err = errCheckPanicked
		}
	}()
	return r.Check(v)
}

var errCheckPanicked = errors.New("check panicked")

// CaseWrite returns a copy of r.Cases as check left it (nil for a plain append), for
// the store to apply after the entry. It is a copy because a store may send its
// statements after the writer has let go of r (PostgreSQL pipelines an append's writes
// with the next query), by which time a caller that gave up may be using its records
// again. A write that names no ID, or names a case twice (whose outcome would depend on
// the order of the statements), is EINVALID.
func (r *Request) CaseWrite() (*solidarity.CaseWrite, error) {
	w := r.Cases
	if w == nil {
		return nil, nil
	}
	c := &solidarity.CaseWrite{NewLanding: w.NewLanding}
	if w.Arrival != nil {
		if w.Arrival.ID == "" {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "arrival.id", Message: "arrival ID is required"}
		}
		a := *w.Arrival
		c.Arrival = &a
	}
	seen := make(map[solidarity.CaseID]bool, len(w.Insert)+len(w.Update))
	clone := func(recs []*solidarity.CaseRecord) ([]*solidarity.CaseRecord, error) {
		out := make([]*solidarity.CaseRecord, 0, len(recs))
		for _, rec := range recs {
			switch {
			case rec == nil || rec.ID == "":
				return nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "case.id", Message: "case ID is required"}
			case seen[rec.ID]:
				return nil, solidarity.Errorf(solidarity.EINVALID, "case %s is written twice in one append", rec.ID)
			}
			seen[rec.ID] = true
			x := *rec
			x.Flow = bytes.Clone(rec.Flow)
			out = append(out, &x)
		}
		return out, nil
	}
	var err error
	if c.Insert, err = clone(w.Insert); err != nil {
		return nil, err
	}
	if c.Update, err = clone(w.Update); err != nil {
		return nil, err
	}
	return c, nil
}

// Retries reports whether r retries the request that first used its key, whose entry
// stored was kept with the fingerprint storedFP: the fingerprints match. Entries
// written before fingerprints were kept ("") are compared field by field.
func (r *Request) Retries(storedFP string, stored *solidarity.Entry) bool {
	if storedFP != "" {
		return storedFP == r.Fingerprint
	}
	return ledger.SameEntry(stored, r.Entry)
}

var errClosed = errors.New("store is closed")

// A Tx is the transaction in which a store appends one batch. The writer calls its
// methods on one goroutine, in this order: Append for each request the writer takes,
// then Commit, and Rollback last whatever happened.
type Tx interface {
	// Append runs r inside the transaction (in a savepoint of its own) and answers it
	// with r.Answer. An error means the transaction is unusable: the batch fails, r
	// included.
	Append(r *Request) error
	// Commit commits what the appends wrote, or rolls back when they wrote nothing
	// (what replays and refusals read was committed). An error fails the batch.
	Commit() error
	// Rollback ends the transaction if Commit did not; after Commit it does nothing.
	Rollback()
}

// Begin opens the transaction of a batch of reqs (some of which may yet turn out to
// be given up on). ctx bounds the whole batch.
type Begin func(ctx context.Context, reqs []*Request) (Tx, error)

// Writer is the queue of pending appends and the goroutine that commits them.
type Writer struct {
	max      int
	timeout  time.Duration
	begin    Begin
	internal func(op string, err error) error

	mu      sync.Mutex
	cond    sync.Cond // signalled when a request is queued or the writer must stop
	pending []*Request
	closed  bool
	stopped chan struct{} // closed when the writer goroutine has returned
}

// Start starts a writer that commits batches of at most max requests, each in a
// transaction that begin opens and that timeout bounds (so that a stuck database
// fails the batch rather than holding the writer for ever), until Stop.
//
// internal wraps the failures the writer reports itself as the store's database
// errors: a batch whose transaction failed, an append after Stop, a caller that gave
// up. It is given the operation ("append", "append abandoned by its caller") and the
// cause.
func Start(max int, timeout time.Duration, begin Begin, internal func(op string, err error) error) *Writer {
	if internal == nil {
		internal = func(op string, err error) error { return fmt.Errorf("%s: %w", op, err) }
	}
	w := &Writer{max: max, timeout: timeout, begin: begin, internal: internal}
	w.cond.L = &w.mu
	w.stopped = make(chan struct{})
	go func() {
		defer close(w.stopped)
		for {
			// The callers just answered queue their next appends at once: let them,
			// so that they make one batch rather than a batch of the first one and
			// another of the rest.
			runtime.Gosched()
			w.mu.Lock()
			for len(w.pending) == 0 && !w.closed {
				w.cond.Wait()
			}
			if len(w.pending) == 0 { // closed and drained
				w.mu.Unlock()
				return
			}
			n := min(len(w.pending), w.max)
			batch := make([]*Request, n)
			copy(batch, w.pending)
			clear(w.pending[:n])
			w.pending = w.pending[n:]
			if len(w.pending) == 0 {
				w.pending = nil
			}
			w.mu.Unlock()
			w.Commit(batch)
		}
	}()
	return w
}

// Commit appends the requests in order in one transaction and answers each once the
// transaction has committed. The writer goroutine runs it on every batch; a test may
// run it on a batch of its own (NewRequest) while no append is pending, so that the
// batch's requests share one transaction for certain.
func (w *Writer) Commit(reqs []*Request) {
	ctx, cancel := context.WithTimeout(context.Background(), w.timeout)
	defer cancel()
	var taken []*Request
	// fail answers every request of the batch with err: nothing of it is committed.
	fail := func(err error, from int) {
		err = w.internal("append", err)
		for _, r := range taken {
			r.Answer(nil, false, err)
			close(r.done)
		}
		for _, r := range reqs[from:] {
			if r.take(w.gaveUp) {
				r.Answer(nil, false, err)
				r.mu.Unlock()
				close(r.done)
			}
		}
	}

	tx, err := w.begin(ctx, reqs)
	if err != nil {
		fail(err, 0)
		return
	}
	defer tx.Rollback()
	for i, r := range reqs {
		if !r.take(w.gaveUp) {
			continue
		}
		taken = append(taken, r)
		err := tx.Append(r)
		r.mu.Unlock()
		if err != nil {
			fail(err, i+1)
			return
		}
	}
	if err := tx.Commit(); err != nil {
		fail(err, len(reqs))
		return
	}
	for _, r := range taken {
		close(r.done)
	}
}

// gaveUp is the error of an append whose caller's context ended before the answer.
func (w *Writer) gaveUp(err error) error { return w.internal("append abandoned by its caller", err) }

// enqueue queues r, or fails once the writer is stopping.
func (w *Writer) enqueue(r *Request) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errClosed
	}
	w.pending = append(w.pending, r)
	w.cond.Signal()
	return nil
}

// Queued returns how many requests wait for the writer.
func (w *Writer) Queued() int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return len(w.pending)
}

// Stop refuses new requests, lets the writer commit those already queued, and waits
// for it to return. It may be called more than once, and on a Writer that Start did
// not make, such as the nil one of a store whose Open failed before it started one.
func (w *Writer) Stop() {
	if w == nil || w.stopped == nil {
		return
	}
	w.mu.Lock()
	w.closed = true
	w.cond.Signal()
	w.mu.Unlock()
	<-w.stopped
}

// Append refuses an entry that could not be stored as it is hashed
// (ledger.CheckEntry); otherwise it queues the append of e under key (none when "")
// with check, and waits for its answer, or for ctx to end. On success e itself is
// returned with the fields the store set; a replay returns the stored entry and leaves
// e alone.
//
// If ctx ends while the append waits, Append returns an error wrapping ctx.Err(). When
// the writer had not taken the append yet, nothing is written; when it had, the append
// may still commit: a retry under the same idempotency key then replays it. A panic of
// check is raised again here, in the caller's goroutine.
func (w *Writer) Append(ctx context.Context, key string, e *solidarity.Entry, check func(solidarity.View) error) (*solidarity.Entry, bool, error) {
	return w.AppendCase(ctx, key, e, nil, check)
}

// AppendCase is Append with the case writes cw (nil: none), which the store applies in
// the append's savepoint after the entry (solidarity.CaseStore.AppendCase). A replay
// applies nothing.
//
// The records of cw get their new Version here, once the batch has committed and the
// append is answered without error: an inserted case's becomes 1 and an updated case's
// goes up by one. Setting them in the transaction instead would leave them wrong when
// a later statement of the batch, or its commit, fails. A caller that gave up is told
// nothing, its records are left alone, and a retry under the same key replays.
func (w *Writer) AppendCase(ctx context.Context, key string, e *solidarity.Entry, cw *solidarity.CaseWrite, check func(solidarity.View) error) (*solidarity.Entry, bool, error) {
	if err := ledger.CheckEntry(e); err != nil {
		return nil, false, err
	}
	r := NewRequest(ctx, key, e, check)
	r.Cases = cw
	out, replayed, err := w.submit(r)
	if err != nil || replayed {
		return out, replayed, err
	}
	*e = *out
	if cw != nil {
		for _, rec := range cw.Insert {
			rec.Version = 1
		}
		for _, rec := range cw.Update {
			rec.Version++
		}
	}
	return e, false, nil
}

// submit queues an append and waits for its answer, or for its caller's context to
// end.
func (w *Writer) submit(r *Request) (*solidarity.Entry, bool, error) {
	ctx := r.ctx
	if err := w.enqueue(r); err != nil {
		return nil, false, w.internal("append", err)
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		if r.abandon() {
			return nil, false, w.gaveUp(ctx.Err())
		}
		if r.panicked != nil { // set under r.mu, which abandon took after the check
			panic(r.panicked)
		}
		select {
		case <-r.done: // answered meanwhile: the answer is as good as ever
		default:
			// The writer has taken the request; it may still commit. Its caller is not
			// told: a retry under the same idempotency key replays it.
			return nil, false, w.gaveUp(ctx.Err())
		}
	}
	if r.panicked != nil {
		panic(r.panicked)
	}
	return r.out, r.replayed, r.err
}
