package postgres

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"solidarity"
)

// Group commit.
//
// Every append is chained onto the one before it, so appends cannot run side by side:
// the store has a single writer. Committing each append in a transaction of its own
// would make every append wait for its own durable commit (a WAL flush) while holding
// the writer. Instead, Append queues a request and waits; one writer goroutine takes
// whatever is queued (at most maxBatch requests), runs those appends in order in one
// transaction, each inside a savepoint so that a failing check or statement undoes only
// that append, commits once, and only then answers every caller of the batch.

// request is one Append waiting for the writer.
type request struct {
	ctx context.Context // the caller's: only read to see whether it gave up
	key string
	// e is the caller's entry. The writer reads it only while it holds mu, and copies
	// it once check has returned (check may fill fields in, as the ledger service
	// numbers its references): the caller does not touch it until Append returns,
	// which is after that even when the caller gives up.
	e     *solidarity.Entry
	fp    string // ledger.Fingerprint of e as passed, for the idempotency key
	check func(solidarity.View) error

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

// take marks r as the writer's, locking r.mu; it reports false (r.mu not held) if the
// caller gave up first. A request whose context is done by now is answered at once
// with nothing written.
func (r *request) take() bool {
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
func (r *request) abandon() bool {
	r.mu.Lock() // waits while the writer runs this request's check
	defer r.mu.Unlock()
	if r.state == queued {
		r.state = abandoned
		return true
	}
	return false
}

func (r *request) answer(out *solidarity.Entry, replayed bool, err error) {
	r.out, r.replayed, r.err = out, replayed, err
}

// gaveUp is the error of an append whose caller's context ended before the answer.
func gaveUp(err error) error { return internal("append abandoned by its caller", err) }

var errClosed = errors.New("store is closed")

// writer is the queue of pending appends and the goroutine that commits them.
type writer struct {
	mu      sync.Mutex
	cond    sync.Cond // signalled when a request is queued or the writer must stop
	pending []*request
	closed  bool
	stopped chan struct{} // closed when the writer goroutine has returned
}

// start runs commit on batches of at most max requests until stop.
func (w *writer) start(max int, commit func([]*request)) {
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
			n := min(len(w.pending), max)
			batch := make([]*request, n)
			copy(batch, w.pending)
			clear(w.pending[:n])
			w.pending = w.pending[n:]
			if len(w.pending) == 0 {
				w.pending = nil
			}
			w.mu.Unlock()
			commit(batch)
		}
	}()
}

// enqueue queues r, or fails once the writer is stopping.
func (w *writer) enqueue(r *request) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return errClosed
	}
	w.pending = append(w.pending, r)
	w.cond.Signal()
	return nil
}

// stop refuses new requests, lets the writer commit those already queued, and waits
// for it to return.
func (w *writer) stop() {
	if w.stopped == nil {
		return
	}
	w.mu.Lock()
	w.closed = true
	w.cond.Signal()
	w.mu.Unlock()
	<-w.stopped
}

// submit queues an append and waits for its answer, or for ctx to end.
func (w *writer) submit(ctx context.Context, r *request) (*solidarity.Entry, bool, error) {
	r.ctx, r.done = ctx, make(chan struct{})
	if err := w.enqueue(r); err != nil {
		return nil, false, internal("append", err)
	}
	select {
	case <-r.done:
	case <-ctx.Done():
		if r.abandon() {
			return nil, false, gaveUp(ctx.Err())
		}
		if r.panicked != nil { // set under r.mu, which abandon took after the check
			panic(r.panicked)
		}
		select {
		case <-r.done: // answered meanwhile: the answer is as good as ever
		default:
			// The writer has taken the request; it may still commit. Its caller is not
			// told: a retry under the same idempotency key replays it.
			return nil, false, gaveUp(ctx.Err())
		}
	}
	if r.panicked != nil {
		panic(r.panicked)
	}
	return r.out, r.replayed, r.err
}
