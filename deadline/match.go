package deadline

// This file decides, for one case, which variant of each limit runs and where its
// clock starts, from a single pass over the case's history (facts).

import (
	"fmt"
	"slices"
	"strings"

	"solidarity"
	"solidarity/cases"
)

// flag is a condition on a case or the Params that selects a variant.
type flag uint16

const (
	fBiometrics                flag = 1 << iota // not Facts.NoBiometrics
	fReduced                                    // Facts.ReducedScreening
	fCrisis                                     // Params.Crisis
	fUAM                                        // Facts.UnaccompaniedMinor
	fDetained                                   // detained now
	fDetainedAfterRegistration                  // detained now, since after registration
	fDetainedTransfer                           // detained now and Params.DetainedTransfer set
	fHitBefore                                  // a Eurodac (Art. 22/24) or VIS hit before the clock started
	fBorder                                     // Case.Track is the border procedure
	fRelocation                                 // the case is in a relocation step
	fGround38e                                  // Facts.InadmissibleGround38e
	fDublin                                     // registered before Params.DublinIIIUntil
	fAMMR                                       // not fDublin
)

// cond is when a variant applies: every flag in all holds, one of the events in
// after (if any) happened after the clock started, and the last rejection (if
// rejectedIn is set) was decided in that state.
type cond struct {
	all        flag
	after      []cases.Event
	rejectedIn cases.State
	afterIDs   []uint8
}

func is(f flag) cond                { return cond{all: f} }
func after(evs ...cases.Event) cond { return cond{after: evs} }
func rejectedIn(s cases.State) cond { return cond{rejectedIn: s} }
func (w *cond) none() bool          { return w.all == 0 && w.after == nil && w.rejectedIn == "" }
func (w *cond) holds(x *facts) bool { return w.all&^x.flags == 0 && w.afterOK(x) && w.rejectedOK(x) }
func (w *cond) afterOK(x *facts) bool {
	if w.afterIDs == nil {
		return true
	}
	for _, id := range w.afterIDs {
		if int(x.last[id]) > x.start {
			return true
		}
	}
	return false
}

func (w *cond) rejectedOK(x *facts) bool {
	if w.rejectedIn == "" {
		return true
	}
	j := x.last[rejectionID]
	return j >= 0 && x.h[j].From == w.rejectedIn
}

// facts is what the conditions of one case look at, computed once per case.
type facts struct {
	h     []cases.Transition
	last  [maxEvents]int32 // index in h of the last transition of each event, or -1 (see init)
	flags flag             // the flags that hold for the case (fHitBefore depends on start)
	start int              // the clock being tested started at h[start]
}

const maxEvents = 96

// eventID numbers the events of package cases, for facts.last.
var eventID = func() map[cases.Event]uint8 {
	evs := cases.Events()
	if len(evs) > maxEvents {
		panic("deadline: too many events")
	}
	m := make(map[cases.Event]uint8, len(evs))
	for i, e := range evs {
		m[e] = uint8(i)
	}
	return m
}()

// eventKey is an event name's first and last eight bytes, which tell the events of
// one length apart (checked at start-up). Finding an event is then a few integer
// comparisons and one string comparison, cheaper than hashing the name for the map on
// every transition of every case of a view.
type eventKey struct {
	head, tail uint64
	id         uint8
}

// key returns the first and the last eight bytes of s as integers (for a shorter s,
// its bytes and 0).
func key(s string) (head, tail uint64) {
	if len(s) < 8 {
		for i := range len(s) {
			head |= uint64(s[i]) << (8 * i)
		}
		return head, 0
	}
	return word(s), word(s[len(s)-8:])
}

func word(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// eventsByLen lists the events by the length of their names. Names of one length
// must differ in their first or last 8 bytes; it is checked here, at start-up.
var eventsByLen = func() [][]eventKey {
	var t [][]eventKey
	for i, e := range cases.Events() {
		for len(t) <= len(e) {
			t = append(t, nil)
		}
		head, tail := key(string(e))
		k := eventKey{head, tail, uint8(i)}
		for _, o := range t[len(e)] {
			if o.head == k.head && o.tail == k.tail {
				panic(fmt.Sprintf("deadline: event names %q and %q share their first and last 8 bytes", e, cases.Events()[o.id]))
			}
		}
		t[len(e)] = append(t[len(e)], k)
	}
	return t
}()

var eventNames = cases.Events()

func lookupEvent(e cases.Event) (uint8, bool) {
	if len(e) >= len(eventsByLen) {
		return 0, false
	}
	head, tail := key(string(e))
	for _, k := range eventsByLen[len(e)] {
		if k.head == head && k.tail == tail {
			return k.id, eventNames[k.id] == e
		}
	}
	return 0, false
}

var (
	hitID       = eventID[cases.EurodacHit]
	rejectionID = eventID[cases.Rejection]
)

func (x *facts) init(c *cases.Case, p *Params, state cases.State) {
	x.h = c.History
	for i := range x.last {
		x.last[i] = -1
	}
	for i := range c.History {
		if id, ok := lookupEvent(c.History[i].Event); ok {
			x.last[id] = int32(i)
		}
	}
	f := flag(0)
	if !c.Facts.NoBiometrics {
		f |= fBiometrics
	}
	if c.Facts.ReducedScreening {
		f |= fReduced
	}
	if p.Crisis {
		f |= fCrisis
	}
	if c.Facts.UnaccompaniedMinor {
		f |= fUAM
	}
	if !c.Detained.IsZero() {
		f |= fDetained
		if !c.Registered.IsZero() && c.Detained.After(c.Registered) {
			f |= fDetainedAfterRegistration
		}
		if p.DetainedTransfer.N > 0 {
			f |= fDetainedTransfer
		}
	}
	if c.Track == cases.Border {
		f |= fBorder
	}
	if slices.Contains(relocationSteps, state) {
		f |= fRelocation
	}
	if c.Facts.InadmissibleGround38e {
		f |= fGround38e
	}
	if !c.Registered.IsZero() && civilDays(c.Registered) < p.dublinUntil {
		f |= fDublin
	} else {
		f |= fAMMR
	}
	x.flags = f
}

// at sets the start of the clock being tested, and the flags that depend on it.
func (x *facts) at(start int) {
	x.start = start
	x.flags &^= fHitBefore
	switch j := int(x.last[hitID]); {
	case j < 0:
	case j < start:
		x.flags |= fHitBefore
	default: // the last hit is after start; an earlier one may be before it
		for i := 0; i < start; i++ {
			if x.h[i].Event == cases.EurodacHit {
				x.flags |= fHitBefore
				break
			}
		}
	}
}

// findStart returns the index of the latest transition matching one of ts, or -1.
func (x *facts) findStart(ts []Trigger) int {
	best := -1
	for i := range ts {
		t := &ts[i]
		j := int(x.last[t.id])
		if j <= best {
			continue
		}
		if t.From != "" || t.To != "" {
			for j > best && !t.match(&x.h[j]) {
				j--
			}
			if j <= best {
				continue
			}
		}
		best = j
	}
	return best
}

// stopped reports whether one of the events ids happened after start.
func (x *facts) stopped(ids []uint8, start int) bool {
	for _, id := range ids {
		if int(x.last[id]) > start {
			return true
		}
	}
	return false
}

// byState lists, for each state, the catalogue entries that can run in it, in
// catalogue order.
var byState map[cases.State][]int

func init() {
	byState = map[cases.State][]int{}
	groups := map[string]int{}
	names := map[string]bool{}
	for i := range catalogue {
		l := &catalogue[i]
		if names[l.Name] {
			panic("deadline: duplicate limit " + l.Name)
		}
		names[l.Name] = true
		// Every article is a legal basis in the convention (legalbasis.go), as it may
		// be written into the ledger with a missed limit's consequence; a national
		// act's section (the Irish appeal periods) only where no consequence is applied.
		if _, err := solidarity.ParseLegalBases(l.Article); err != nil && (l.Then != "" || !strings.HasPrefix(l.Article, "IE ")) {
			panic(fmt.Sprintf("deadline: %s: %v", l.Name, err))
		}
		if l.Group != "" {
			g, ok := groups[l.Group]
			if !ok {
				g = len(groups) + 1
				groups[l.Group] = g
			}
			l.group = g
		}
		if len(groups) >= 64 {
			panic("deadline: too many groups")
		}
		if len(l.Start) == 0 {
			continue // a window applied elsewhere: never computed from a case
		}
		l.Start = slices.Clone(l.Start)
		l.Fallback = slices.Clone(l.Fallback)
		for _, ts := range [][]Trigger{l.Start, l.Fallback} {
			for j := range ts {
				ts[j].id = mustID(l.Name, ts[j].Event)
			}
		}
		for _, e := range l.Stop {
			l.stopIDs = append(l.stopIDs, mustID(l.Name, e))
		}
		for _, e := range l.when.after {
			l.when.afterIDs = append(l.when.afterIDs, mustID(l.Name, e))
		}
		if l.Discretion != "" {
			l.discretionConsequence = l.Consequence + "; " + l.Discretion
		}
		for _, s := range l.Running {
			if !s.Valid() {
				panic(fmt.Sprintf("deadline: %s runs in unknown state %q", l.Name, s))
			}
			byState[s] = append(byState[s], i)
		}
	}
}

func mustID(limit string, e cases.Event) uint8 {
	id, ok := eventID[e]
	if !ok {
		panic(fmt.Sprintf("deadline: %s uses unknown event %q", limit, e))
	}
	return id
}
