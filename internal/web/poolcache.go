package web

import (
	"bytes"
	"context"
	"net/http"
	"sync"
	"time"

	"solidarity"
	"solidarity/internal/i18n"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/report"
)

// poolCache keeps what the public pages compute over and over: the ledger's balances
// of a cycle as of now (the dashboard, every state page and the balances API read
// them), and the pools of the shipped cycle files.
//
// Balances are kept while they cannot have changed: for one ledger head (every write
// that can move a figure appends an entry, and the head is read before the balances,
// so an answer never misses a write acknowledged before the request came) and within
// one second of the ledger service's clock (the balances' as-of time and their pace
// are computed to the second). Requests that ask for the same head and second while
// the balances are computed wait for that computation instead of starting their own.
// A shipped pool never changes: it is kept by year, method and as-of date, for a
// bounded number of such requests.
//
// The zero value is ready to use. Callers get their own copy of the top-level values
// (the handlers adjust a pool's AsOf); what the copies share is read only.
type poolCache struct {
	mu       sync.Mutex
	balances map[int]*balancesCall // by cycle year: the latest computation
	shipped  map[shippedKey]*report.Pool
	gen      generation // of pages
	pages    map[pageKey]*pageCall
}

// maxShipped bounds the shipped pools kept: the years and methods are few, but as_of
// is the client's choice.
const maxShipped = 256

type balancesCall struct {
	head   int64
	second int64
	done   chan struct{}    // closed when b and err are set
	b      *report.Balances // rendered once, for every request of its head and second
	err    error
}

type shippedKey struct{ year, method, asOf string }

// balancesNow returns the balances of year as of now, computed by l at most once per
// ledger head and second.
func (c *poolCache) balancesNow(ctx context.Context, l *ledgersvc.Service, year int) (*report.Balances, error) {
	head, _, err := l.Store.Head(ctx)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if l.Now != nil {
		now = l.Now
	}
	second := now().Unix()
	c.mu.Lock()
	call := c.balances[year]
	if call == nil || call.head != head || call.second != second {
		call = &balancesCall{head: head, second: second, done: make(chan struct{})}
		if c.balances == nil {
			c.balances = map[int]*balancesCall{}
		}
		c.balances[year] = call
		c.mu.Unlock()
		call.b, call.err = rendered(l.Balances(ctx, year, time.Time{}))
		close(call.done)
		if call.err != nil {
			c.mu.Lock()
			if c.balances[year] == call {
				delete(c.balances, year) // an error (perhaps the caller's cancellation) is not kept
			}
			c.mu.Unlock()
		}
		return copyBalances(call.b), call.err
	}
	c.mu.Unlock()
	select {
	case <-call.done:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	if call.err != nil {
		// Another request's failure (its client may have gone away): compute it for
		// this one.
		return rendered(l.Balances(ctx, year, time.Time{}))
	}
	return copyBalances(call.b), nil
}

// copyBalances is b with its own Balances and Pool values.
func copyBalances(b *report.Balances) *report.Balances {
	if b == nil {
		return nil
	}
	out := *b
	if b.Pool != nil {
		p := *b.Pool
		out.Pool = &p
	}
	return &out
}

// balances is Service.Balances through the server's cache: as of now it is served
// from the cache, as of another time computed.
func (s *Server) balances(ctx context.Context, year int, asOf time.Time) (*report.Balances, error) {
	if !asOf.IsZero() {
		return rendered(s.ledger.Balances(ctx, year, asOf))
	}
	return s.pools.balancesNow(ctx, s.ledger, year)
}

// rendered is the report of the balances b, or err.
func rendered(b *ledgersvc.Balances, err error) (*report.Balances, error) {
	if err != nil {
		return nil, err
	}
	return report.FromBalances(b), nil
}

// shippedPool returns the pool of a shipped cycle for the request's {year}, ?method=
// and ?as_of=, computing it with compute the first time.
func (c *poolCache) shippedPool(r *http.Request, compute func() (*report.Pool, error)) (*report.Pool, error) {
	k := shippedKey{r.PathValue("year"), r.URL.Query().Get("method"), r.URL.Query().Get("as_of")}
	c.mu.Lock()
	p := c.shipped[k]
	c.mu.Unlock()
	if p == nil {
		var err error
		if p, err = compute(); err != nil {
			return nil, err
		}
		c.mu.Lock()
		if c.shipped == nil {
			c.shipped = map[shippedKey]*report.Pool{}
		}
		if len(c.shipped) < maxShipped {
			c.shipped[k] = p
		}
		c.mu.Unlock()
	}
	cp := *p
	return &cp, nil
}

// Public answers: the dashboard, a state's page, the balances and the shipped pool,
// as the public sees them, are a function of the request's path and query, the
// ledger's head and the second of the clocks. publicPage keeps the last such
// generation's answers and serves them again to anonymous GET requests; a request
// with a user (a page shows their forms and entries) is always computed.

// maxPages bounds the answers kept for one generation: the paths are few, but the
// query is the client's choice.
const maxPages = 64

// generation identifies the answers that may be served again: those of one ledger head
// and second of each clock, or (head −1) one window of WithPublicMaxAge.
type generation struct{ head, ledgerSecond, serverSecond int64 }

// WithPublicMaxAge lets the public's answers of the dashboard, the state pages, the
// balances and the shipped pool be up to d old: computed once per window of d however
// many writes come meanwhile. 0 (the default) keeps them exact to the ledger's head.
// A user's request is always computed.
func WithPublicMaxAge(d time.Duration) Option { return func(s *Server) { s.publicMaxAge = d } }

// pageKey is what an anonymous answer varies by: the URL and the page's language.
type pageKey struct{ path, query, lang string }

type pageCall struct {
	done   chan struct{} // closed when the fields below are set
	ok     bool          // a 200 answer worth keeping
	header http.Header
	body   []byte
}

// pageRecorder is the ResponseWriter a kept answer is written to.
type pageRecorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func (p *pageRecorder) Header() http.Header { return p.header }
func (p *pageRecorder) WriteHeader(status int) {
	if p.status == 0 {
		p.status = status
	}
}
func (p *pageRecorder) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return p.body.Write(b)
}

// publicPage serves h's answers to the public from the cache while the ledger's head
// and the clocks' second are those they were computed at, or, with WithPublicMaxAge,
// for a window of that length.
func (s *Server) publicPage(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.ledger == nil || r.Method != http.MethodGet || solidarity.UserFromContext(r.Context()) != nil {
			h(w, r)
			return
		}
		ledgerNow := time.Now
		if s.ledger.Now != nil {
			ledgerNow = s.ledger.Now
		}
		var gen generation
		if age := s.publicMaxAge; age > 0 {
			// One generation per window of the server's clock, whatever the writes:
			// under load the head moves with every write and a head-exact answer would
			// be computed for nearly every request. Each answer names its ledger entry
			// and as-of time, so it says how old it is.
			gen = generation{-1, 0, s.now().UnixNano() / int64(age)}
		} else {
			head, _, err := s.ledger.Store.Head(r.Context())
			if err != nil {
				h(w, r)
				return
			}
			gen = generation{head, ledgerNow().Unix(), s.now().Unix()}
		}
		k := pageKey{r.URL.Path, r.URL.RawQuery, i18n.CodeOf(r)}
		call, mine := s.pools.pageCall(gen, k)
		if call == nil { // too many different queries in this generation
			h(w, r)
			return
		}
		if mine {
			rec := &pageRecorder{header: http.Header{}}
			func() {
				defer func() {
					if !call.ok {
						close(call.done) // a panic or another answer: not kept
					}
				}()
				h(rec, r)
				if rec.status == 0 {
					rec.status = http.StatusOK
				}
				// An answer that sets a cookie is one client's, whatever the route.
				if rec.status == http.StatusOK && rec.header.Get("Set-Cookie") == "" {
					call.header, call.body, call.ok = rec.header.Clone(), rec.body.Bytes(), true
					close(call.done)
				}
			}()
			writePage(w, rec.header, rec.status, rec.body.Bytes())
			if !call.ok {
				s.pools.dropPage(gen, k, call)
			}
			return
		}
		select {
		case <-call.done:
		case <-r.Context().Done():
			return
		}
		if !call.ok {
			h(w, r) // the first request's answer was not a 200: compute this one
			return
		}
		writePage(w, call.header, http.StatusOK, call.body)
	}
}

func writePage(w http.ResponseWriter, header http.Header, status int, body []byte) {
	for k, v := range header {
		w.Header()[k] = v
	}
	w.WriteHeader(status)
	w.Write(body)
}

// pageCall returns the call of k in generation gen, and whether the caller is to
// compute it; nil when the generation keeps no more answers.
func (c *poolCache) pageCall(gen generation, k pageKey) (*pageCall, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen != gen || c.pages == nil {
		c.gen, c.pages = gen, map[pageKey]*pageCall{}
	}
	if call := c.pages[k]; call != nil {
		return call, false
	}
	if len(c.pages) >= maxPages {
		return nil, false
	}
	call := &pageCall{done: make(chan struct{})}
	c.pages[k] = call
	return call, true
}

// dropPage forgets a call whose answer is not kept, so that the next request computes.
func (c *poolCache) dropPage(gen generation, k pageKey, call *pageCall) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.gen == gen && c.pages[k] == call {
		delete(c.pages, k)
	}
}
