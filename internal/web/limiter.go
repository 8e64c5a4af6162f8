package web

import (
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"
)

// Login throttling (issue 12): a password guesser is slowed down per (user name,
// client address), so that it cannot lock the user out from anywhere else, and a
// looser cap per address stops one address from spraying many names. Neither refuses
// the right password from another address.
const (
	// pairFree failures of a name from one address are free; each one after them
	// doubles the wait, starting at pairBase, up to pairMaxWait.
	pairFree    = 5
	pairBase    = time.Minute
	pairMaxWait = 15 * time.Minute
	// pairForget: a pair that has not failed for this long starts afresh.
	pairForget = time.Hour
	// addrMax failures from one address (any names) within addrWindow refuse further
	// attempts from it until the oldest leaves the window.
	addrMax    = 100
	addrWindow = 10 * time.Minute
	// maxTracked bounds the keys each part remembers: past it, the stale ones are
	// dropped, then any (a flood of fresh addresses then only buys fresh budgets).
	maxTracked = 100_000
)

// loginLimiter is the login throttle: backoff per (name, address) and a sliding
// window per address. It lives in memory: a restart forgets it, and several server
// processes each count their own (good enough to slow password guessing down; a
// shared store is not worth it here).
type loginLimiter struct {
	pair *backoff
	addr *limiter
}

func newLoginLimiter(free int, base time.Duration, now func() time.Time) *loginLimiter {
	return &loginLimiter{
		pair: newBackoff(free, base, max(base, pairMaxWait), max(pairForget, 2*pairMaxWait), now),
		addr: newLimiter(addrMax, addrWindow, now),
	}
}

// WithAddressLimit sets how many failed logins one client address (an IPv6 /64) may
// have within window, whatever the names, before its further attempts get 429
// (default addrMax in addrWindow). It never holds back other addresses.
func WithAddressLimit(failures int, window time.Duration) Option {
	return func(s *Server) { s.addrLimit = newLimiter(failures, window, nil) }
}

// setClock replaces the clock of both parts.
func (l *loginLimiter) setClock(now func() time.Time) { l.pair.now, l.addr.now = now, now }

// Allow reports whether a login of name from addr may be tried now; if not, how long
// until it may.
func (l *loginLimiter) Allow(name, addr string) (bool, time.Duration) {
	_, w1 := l.pair.Allow(pairKey(name, addr))
	_, w2 := l.addr.Allow(addrKey(addr))
	wait := max(w1, w2)
	return wait == 0, wait
}

// Fail records a wrong password of name from addr.
func (l *loginLimiter) Fail(name, addr string) {
	l.pair.Fail(pairKey(name, addr))
	l.addr.Fail(addrKey(addr))
}

// Succeed forgets the failures of name from addr (the address's count stays: one
// right password must not wipe a spraying address's record).
func (l *loginLimiter) Succeed(name, addr string) { l.pair.Reset(pairKey(name, addr)) }

// pairKey is the key of name from addr. Names are cut at maxNameKey bytes (no
// account's name is longer), so that a guesser's huge names cost no memory.
func pairKey(name, addr string) string {
	name = strings.ToLower(name[:min(len(name), maxNameKey)])
	return name + "\x00" + addrKey(addr)
}

// maxNameKey is the longest name the throttle keeps (ledgersvc allows 64 bytes).
const maxNameKey = 64

// addrKey is the unit an address is counted by: the address itself for IPv4, its /64
// for IPv6 (one host holds a whole /64, and would otherwise get a fresh budget per
// address).
func addrKey(addr string) string {
	a, err := netip.ParseAddr(addr)
	if err != nil {
		return addr
	}
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return p.String()
	}
	return a.String()
}

// backoff counts failures per key; after free of them a key waits base, then twice
// that after each further failure, up to maxWait. A key forgets its failures forget
// after the last one, or on Reset.
type backoff struct {
	free    int
	base    time.Duration
	maxWait time.Duration
	forget  time.Duration
	now     func() time.Time

	mu        sync.Mutex
	keys      map[string]backoffState
	lastSweep time.Time
}

type backoffState struct {
	fails int
	last  time.Time
}

func newBackoff(free int, base, maxWait, forget time.Duration, now func() time.Time) *backoff {
	return &backoff{free: free, base: base, maxWait: maxWait, forget: forget, now: now, keys: map[string]backoffState{}}
}

// wait is how long st must wait at now; the caller holds mu.
func (b *backoff) wait(st backoffState, now time.Time) time.Duration {
	if st.fails < b.free {
		return 0
	}
	d := b.maxWait
	if n := st.fails - b.free; n < 32 {
		d = min(b.base<<n, b.maxWait)
	}
	return max(0, st.last.Add(d).Sub(now))
}

// state returns key's state at now, dropping it if forgotten; the caller holds mu.
func (b *backoff) state(key string, now time.Time) backoffState {
	st, ok := b.keys[key]
	if ok && now.Sub(st.last) >= b.forget {
		delete(b.keys, key)
		return backoffState{}
	}
	return st
}

// Allow reports whether key may try now; if not, how long until it may.
func (b *backoff) Allow(key string) (bool, time.Duration) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	w := b.wait(b.state(key, now), now)
	return w == 0, w
}

// Fail records a failure of key.
func (b *backoff) Fail(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	now := b.now()
	st := b.state(key, now)
	b.keys[key] = backoffState{fails: st.fails + 1, last: now}
	// Forget stale keys now and then, so that the map does not grow with every
	// address that ever mistyped.
	if now.Sub(b.lastSweep) > b.forget || len(b.keys) > maxTracked {
		for k := range b.keys {
			b.state(k, now)
		}
		b.lastSweep = now
	}
	for k := range b.keys {
		if len(b.keys) <= maxTracked {
			break
		}
		if k != key {
			delete(b.keys, k)
		}
	}
}

// Reset forgets the failures of key.
func (b *backoff) Reset(key string) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.keys, key)
}

// limiter counts failures per key in a sliding window and refuses a key that reached
// max failures within it.
type limiter struct {
	max    int
	window time.Duration
	now    func() time.Time

	mu        sync.Mutex
	fails     map[string][]time.Time // failure times within the window, oldest first
	lastSweep time.Time
}

func newLimiter(max int, window time.Duration, now func() time.Time) *limiter {
	return &limiter{max: max, window: window, now: now, fails: map[string][]time.Time{}}
}

// prune drops the failures of key older than the window; the caller holds mu.
func (l *limiter) prune(key string, now time.Time) []time.Time {
	ts := l.fails[key]
	i := 0
	for i < len(ts) && !ts[i].After(now.Add(-l.window)) {
		i++
	}
	ts = ts[i:]
	if len(ts) == 0 {
		delete(l.fails, key)
		return nil
	}
	l.fails[key] = ts
	return ts
}

// Allow reports whether every key may try again now; if not, how long until the
// first of them may.
func (l *limiter) Allow(keys ...string) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	var wait time.Duration
	for _, k := range keys {
		ts := l.prune(k, now)
		if len(ts) >= l.max {
			// The oldest failure that keeps the key at max leaves the window first.
			wait = max(wait, ts[len(ts)-l.max].Add(l.window).Sub(now))
		}
	}
	return wait == 0, wait
}

// Fail records a failure for every key.
func (l *limiter) Fail(keys ...string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	for _, k := range keys {
		ts := append(l.prune(k, now), now)
		if len(ts) > l.max {
			ts = ts[len(ts)-l.max:] // only the last max count
		}
		l.fails[k] = ts
	}
	if now.Sub(l.lastSweep) > l.window || len(l.fails) > maxTracked {
		for k := range l.fails {
			l.prune(k, now)
		}
		l.lastSweep = now
	}
	for k := range l.fails {
		if len(l.fails) <= maxTracked {
			break
		}
		if !slices.Contains(keys, k) {
			delete(l.fails, k)
		}
	}
}

// Reset forgets the failures of key.
func (l *limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, key)
}
