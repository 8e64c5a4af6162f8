package ledgersvc

import (
	"context"
	"slices"
	"strings"
	"sync"

	"solidarity"
)

// The states of the cycles a service read last, so that a rule check in the single
// writer, and the balances, read only the entries added since rather than every
// entry of the cycle (docs/mixed-load.md).
//
// A cached state was read from the entries of its types up to its last, entry seq N
// with hash H. A load in a view first looks up the hash of entry N there: since every
// hash seals its predecessor's, H at seq N means every entry up to N is the one the
// state was read from; the state is then extended with the entries of its types after
// N (View.FindAfter). Any other hash means the entries were undone, and the seq used
// again by other entries (a batch rolled back on PostgreSQL numbers its appends anew),
// and no entry N means it is not in this view: undone, or not yet committed (the
// writer's view sees the pending appends of its batch, a reader's does not). Then the
// next state of the key is tried, and at the last the state is read from scratch.
//
// States are shared by every goroutine that loads them: a cached state is never
// changed (extend copies).
const (
	cachedKeys   = 16 // (year, entry types): a few years times the type sets of the checks
	cachedStates = 4  // per key: the last ones stored, so that a reader finds a committed one
)

type stateKey struct {
	year  int
	types string // the entry types, sorted, comma-separated
}

func keyOf(year int, types []solidarity.EntryType) stateKey {
	ts := make([]string, len(types))
	for i, t := range types {
		ts[i] = string(t)
	}
	slices.Sort(ts)
	return stateKey{year, strings.Join(slices.Compact(ts), ",")}
}

type stateCache struct {
	mu    sync.Mutex
	m     map[stateKey]*cachedStatesOf
	clock uint64
}

type cachedStatesOf struct {
	states []*state // the last stored first
	used   uint64   // the clock when last read or stored, for eviction
}

// get returns the states of k, the last stored first.
func (c *stateCache) get(k stateKey) []*state {
	c.mu.Lock()
	defer c.mu.Unlock()
	s := c.m[k]
	if s == nil {
		return nil
	}
	c.clock++
	s.used = c.clock
	return slices.Clone(s.states)
}

// put stores st, which has entries, as the last state of k: it replaces a state read
// up to the same entry (the same entries), and the oldest beyond cachedStates; a new
// key beyond cachedKeys evicts the least recently used.
func (c *stateCache) put(k stateKey, st *state) {
	last := st.entries[len(st.entries)-1]
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[stateKey]*cachedStatesOf{}
	}
	s := c.m[k]
	if s == nil {
		if len(c.m) >= cachedKeys {
			var lru stateKey
			var min uint64
			first := true
			for key, v := range c.m {
				if first || v.used < min {
					lru, min, first = key, v.used, false
				}
			}
			delete(c.m, lru)
		}
		s = &cachedStatesOf{}
		c.m[k] = s
	}
	c.clock++
	s.used = c.clock
	states := []*state{st}
	for _, o := range s.states {
		if ol := o.entries[len(o.entries)-1]; (ol.Seq != last.Seq || ol.Hash != last.Hash) && len(states) < cachedStates {
			states = append(states, o)
		}
	}
	s.states = states
}

// drop removes st from the states of k.
func (c *stateCache) drop(k stateKey, st *state) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if s := c.m[k]; s != nil {
		s.states = slices.DeleteFunc(s.states, func(o *state) bool { return o == st })
	}
}

// load is load through the service's cache: what the ledger says about a cycle now,
// in v, from the entries of the given types (smallTypes when none), reading only the
// entries added since a cached state that v still has. The result is shared: read it,
// never change it.
func (s *Service) load(ctx context.Context, v solidarity.View, year int, types ...solidarity.EntryType) (*state, error) {
	if len(types) == 0 {
		types = smallTypes
	}
	k := keyOf(year, types)
	for _, c := range s.states.get(k) {
		last := c.entries[len(c.entries)-1]
		h, err := v.EntryHash(ctx, last.Seq)
		if err != nil {
			return nil, err
		}
		if h != last.Hash {
			if h != "" {
				s.states.drop(k, c) // undone: never valid again
			}
			continue
		}
		es, err := v.FindAfter(ctx, year, last.Seq, types...)
		if err != nil {
			return nil, err
		}
		st, err := c.extend(es)
		if err != nil {
			return nil, err
		}
		s.states.put(k, st)
		return st, nil
	}
	st, err := load(ctx, v, year, types...)
	if err != nil {
		return nil, err
	}
	if len(st.entries) > 0 {
		s.states.put(k, st)
	}
	return st, nil
}
