package web

import (
	"sync"
	"time"
)

// limiter counts failures per key (a client IP, a user name) in a sliding window and
// refuses a key that reached max failures within it. It lives in memory: a restart
// forgets it, and several server processes each count their own (good enough to slow
// password guessing down; a shared store is not worth it here).
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
		l.fails[k] = append(l.prune(k, now), now)
	}
	// Forget keys that have not failed for a window, now and then, so that the map
	// does not grow with every address that ever mistyped.
	if now.Sub(l.lastSweep) > l.window {
		for k := range l.fails {
			l.prune(k, now)
		}
		l.lastSweep = now
	}
}

// Reset forgets the failures of key (a user who logged in).
func (l *limiter) Reset(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.fails, key)
}
