package web

import (
	"context"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// DefaultRequestBudget is the time one request may take, from its headers read to its
// answer written, unless WithRequestBudget says otherwise. The slowest legitimate
// request is a relocation proposal: two solves of casesvc.MatchTimeLimit (10 s) each;
// everything else answers in milliseconds.
const DefaultRequestBudget = 30 * time.Second

// RetryAfter is the Retry-After of a 503 for a request over its budget: long enough for
// whatever made the server slow to pass.
const RetryAfter = 5 * time.Second

// CodeUnavailable is the error code of a 503: the request was refused for lack of time,
// not for anything in it (the codes of solidarity.Error describe the request).
const CodeUnavailable = "unavailable"

// WithRequestBudget sets the time budget of every request (DefaultRequestBudget when
// not set or not positive).
func WithRequestBudget(d time.Duration) Option { return func(s *Server) { s.budget = d } }

// withBudget gives every request a time budget (issue 12: work must not outlive its
// purpose). The request's context carries the deadline, so that the store, the case
// service and the matching engine stop at it, and stop as soon as the client goes away
// (net/http cancels the context then). A request whose handler has not answered when
// the budget runs out gets 503 with Retry-After and the usual error JSON at once; what
// the handler writes afterwards is dropped, and the middleware returns when the handler
// has stopped. A handler that answers after the deadline
// passed (a store call that failed because of it) is answered 503 the same way, not
// with the 500 its error would map to.
func (s *Server) withBudget(next http.Handler) http.Handler {
	d := s.budget
	if d <= 0 {
		d = DefaultRequestBudget
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), d)
		defer cancel()
		bw := &budgetWriter{w: w, ctx: ctx, s: s, r: r, h: w.Header().Clone()}
		done := make(chan struct{})
		panicked := make(chan any, 1)
		go func() {
			defer func() {
				if p := recover(); p != nil {
					panicked <- p
				}
				close(done)
			}()
			next.ServeHTTP(bw, r.WithContext(ctx))
		}()
		select {
		case <-done:
		case <-ctx.Done():
			if ctx.Err() == context.DeadlineExceeded {
				bw.expire()
			}
			// The handler sees the cancelled context and stops; wait for it, so that
			// nothing uses the request or the writer once ServeHTTP returns.
			<-done
		}
		select {
		case p := <-panicked:
			panic(p)
		default:
		}
	})
}

// budgetWriter passes a handler's answer through until the budget runs out, then
// answers 503 itself unless the handler had begun answering.
type budgetWriter struct {
	w http.ResponseWriter
	// h is the handler's own header map, copied into w's when it answers: the 503
	// is written from another goroutine, and two writers of one map would end the
	// process, not just the request.
	h       http.Header
	ctx     context.Context
	s       *Server
	r       *http.Request
	mu      sync.Mutex
	wrote   bool // the handler has written a status
	expired bool // the budget ran out first: the 503 is written, the rest is dropped
}

func (b *budgetWriter) Header() http.Header { return b.h }

func (b *budgetWriter) WriteHeader(code int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.expired || b.wrote {
		return
	}
	if b.ctx.Err() == context.DeadlineExceeded {
		b.over()
		return
	}
	b.wrote = true
	h := b.w.Header()
	clear(h)
	for k, v := range b.h {
		h[k] = v
	}
	b.w.WriteHeader(code)
}

func (b *budgetWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	if !b.wrote && !b.expired {
		b.mu.Unlock()
		b.WriteHeader(http.StatusOK)
		b.mu.Lock()
	}
	defer b.mu.Unlock()
	if b.expired {
		return 0, http.ErrHandlerTimeout
	}
	return b.w.Write(p)
}

// Unwrap lets http.ResponseController reach the underlying writer.
func (b *budgetWriter) Unwrap() http.ResponseWriter { return b.w }

// expire answers 503 unless the handler has begun answering.
func (b *budgetWriter) expire() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.wrote || b.expired {
		return
	}
	b.over()
}

// over writes the 503; b.mu is held.
func (b *budgetWriter) over() {
	b.expired = true
	// w's headers are still those set before the handler ran (the handler's own are
	// in b.h): the security headers stay.
	h := b.w.Header()
	h.Set("Retry-After", strconv.Itoa(int(RetryAfter/time.Second)))
	writeJSON(b.w, http.StatusServiceUnavailable, map[string]APIError{"error": {Code: CodeUnavailable,
		Message: "the server could not answer within the time it gives one request; try again later"}})
	_ = http.NewResponseController(b.w).Flush() // the client has its answer now, not when the handler stops
	b.s.Logger.Warn("request over its time budget", "method", b.r.Method, "path", b.r.URL.Path)
}
