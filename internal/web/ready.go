package web

import (
	"context"
	"sync"
	"time"
)

// readyCacheTTL is how long /readyz reuses the answer of its write probe, so that a
// probe every second costs one small write every few seconds.
const readyCacheTTL = 5 * time.Second

// WithReadyProbe replaces the write probe of /readyz (the store's ProbeWrite by
// default): tests inject a failing one.
func WithReadyProbe(probe func(context.Context) error) Option {
	return func(s *Server) { s.probe.fn = probe }
}

// readyProbe caches the last answer of the write probe.
type readyProbe struct {
	fn func(context.Context) error

	mu  sync.Mutex
	at  time.Time // when err was found; zero: never probed
	err error
}

// ready reports whether the server can serve writes: the store answers and a small
// write commits (issue 12: /readyz said 200 on a full disk while every write answered
// 500). The write's answer is cached for readyCacheTTL.
func (s *Server) ready(ctx context.Context) error {
	if s.ledger == nil {
		return nil
	}
	if err := s.ledger.Store.Ping(ctx); err != nil {
		return err
	}
	p := &s.probe
	fn := p.fn
	if fn == nil {
		fn = s.ledger.Store.ProbeWrite
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := s.now()
	if !p.at.IsZero() && now.Sub(p.at) < readyCacheTTL && now.Sub(p.at) >= 0 {
		return p.err
	}
	p.err = fn(ctx)
	p.at = now
	return p.err
}
