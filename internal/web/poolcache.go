package web

import (
	"context"
	"net/http"
	"sync"
	"time"

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
}

// maxShipped bounds the shipped pools kept: the years and methods are few, but as_of
// is the client's choice.
const maxShipped = 256

type balancesCall struct {
	head   int64
	second int64
	done   chan struct{} // closed when b and err are set
	b      *ledgersvc.Balances
	err    error
}

type shippedKey struct{ year, method, asOf string }

// balancesNow returns the balances of year as of now, computed by l at most once per
// ledger head and second.
func (c *poolCache) balancesNow(ctx context.Context, l *ledgersvc.Service, year int) (*ledgersvc.Balances, error) {
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
		call.b, call.err = l.Balances(ctx, year, time.Time{})
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
		return l.Balances(ctx, year, time.Time{})
	}
	return copyBalances(call.b), nil
}

// copyBalances is b with its own Balances and Pool values.
func copyBalances(b *ledgersvc.Balances) *ledgersvc.Balances {
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
func (s *Server) balances(ctx context.Context, year int, asOf time.Time) (*ledgersvc.Balances, error) {
	if !asOf.IsZero() {
		return s.ledger.Balances(ctx, year, asOf)
	}
	return s.pools.balancesNow(ctx, s.ledger, year)
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
