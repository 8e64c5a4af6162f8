package ledgersvc

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"solidarity"
	"solidarity/internal/bound"
	"solidarity/internal/cyclefile"
)

type pledgeKey struct {
	state solidarity.MemberState
	t     solidarity.PledgeType
}

// state is what the ledger says about one cycle, apart from deliveries: the cycle file,
// and every status, pledge, deduction and offset entry on top of it.
type state struct {
	year     int
	cycle    *solidarity.Cycle // from the latest cycle.created/amended; nil if none
	entries  []*solidarity.Entry
	pledges  map[pledgeKey]solidarity.PledgePayload // the latest per state and type
	statuses map[solidarity.MemberState]*solidarity.Entry
	byRef    map[solidarity.EntryType]map[string]*solidarity.Entry
	// tail is shared by the states whose entries share one array: how much of it
	// some state holds, so that an extension appends in place only after the last
	// (nil for a state as of a past time, which is never extended).
	tail *tail
}

type tail struct{ claimed atomic.Int64 }

// smallTypes are the entry types a rule check or a balance reads in full.
var smallTypes = []solidarity.EntryType{solidarity.CycleCreated, solidarity.CycleAmended, solidarity.StatusDecided,
	solidarity.PledgeMade, solidarity.PledgeChanged, solidarity.DeductionRequested, solidarity.DeductionAssessed,
	solidarity.DeductionDecided, solidarity.OffsetRequested, solidarity.OffsetOffered, solidarity.OffsetReplied}

// deliveryTypes are what a delivery's check needs: the cycle (who participates) and
// the pledges (what may be delivered without the over-delivery flag). Deliveries are
// the bulk of all writes, so their check reads no more than that.
var deliveryTypes = []solidarity.EntryType{solidarity.CycleCreated, solidarity.CycleAmended,
	solidarity.PledgeMade, solidarity.PledgeChanged}

// load reads what the ledger says about a cycle from the entries of the given types
// (smallTypes when none), from scratch.
func load(ctx context.Context, v solidarity.View, year int, types ...solidarity.EntryType) (*state, error) {
	return loadAsOf(ctx, v, year, time.Time{}, types...)
}

// loadAsOf is load from the entries recorded at or before asOf (all when zero): the
// ledger as it stood then. The cycle's definition is the latest cycle entry by then;
// for a pool recorded only later (the shipped cycles are seeded on a server's first
// start), the cycle as first recorded, so that the pool can be shown as of any day of it.
func loadAsOf(ctx context.Context, v solidarity.View, year int, asOf time.Time, types ...solidarity.EntryType) (*state, error) {
	if len(types) == 0 {
		types = smallTypes
	}
	es, err := v.Find(ctx, year, types...)
	if err != nil {
		return nil, err
	}
	if !asOf.IsZero() {
		es = upTo(es, asOf)
	}
	st, err := stateOf(year, es)
	if err != nil {
		return nil, err
	}
	if asOf.IsZero() {
		st.tail = &tail{}
		st.tail.claimed.Store(int64(len(st.entries)))
	}
	return st, nil
}

// stateOf is the state of cycle year made of the entries es, in sequence order.
func stateOf(year int, es []*solidarity.Entry) (*state, error) {
	st := &state{year: year, pledges: map[pledgeKey]solidarity.PledgePayload{},
		statuses: map[solidarity.MemberState]*solidarity.Entry{}, byRef: map[solidarity.EntryType]map[string]*solidarity.Entry{}}
	for _, e := range es {
		if err := st.apply(e); err != nil {
			return nil, err
		}
	}
	return st, nil
}

// throughSeq is st without the entries after sequence number head: the state as the
// ledger stood at that head (an append-only ledger's prefix), st itself when it holds
// none after it.
func throughSeq(st *state, head int64) (*state, error) {
	n := len(st.entries)
	if n == 0 || st.entries[n-1].Seq <= head {
		return st, nil
	}
	i, _ := slices.BinarySearchFunc(st.entries, head+1, func(e *solidarity.Entry, seq int64) int { return cmp.Compare(e.Seq, seq) })
	return stateOf(st.year, st.entries[:i])
}

// apply adds entry e, the next of the state's types in sequence order, to st, which
// must own the maps e changes (extend copies them first).
func (st *state) apply(e *solidarity.Entry) error {
	st.entries = append(st.entries, e)
	if e.Ref != "" {
		if st.byRef[e.Type] == nil {
			st.byRef[e.Type] = map[string]*solidarity.Entry{}
		}
		st.byRef[e.Type][e.Ref] = e
	}
	switch e.Type {
	case solidarity.CycleCreated, solidarity.CycleAmended:
		c, err := parsedCycle(e)
		if err != nil {
			return err
		}
		st.cycle = c
	case solidarity.StatusDecided:
		st.statuses[e.State] = e
	case solidarity.PledgeMade, solidarity.PledgeChanged:
		var p solidarity.PledgePayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return fmt.Errorf("entry %d: %w", e.Seq, err)
		}
		// A pledge of nothing (type none) replaces all of the state's pledges; a
		// pledge of something replaces a pledge of nothing (Art. 57(1): the act
		// records one set of pledges per state).
		for k := range st.pledges {
			if k.state == e.State && (p.Type == solidarity.NoPledge || k.t == solidarity.NoPledge) {
				delete(st.pledges, k)
			}
		}
		st.pledges[pledgeKey{e.State, p.Type}] = p
	}
	return nil
}

// extend returns st with es, the entries of its types after its last, applied: st
// itself when there are none. st is shared (see stateCache), so it is left as it is:
// the result has copies of the maps es change, and entries appended to st's slice in
// place only when no other extension of st has claimed that part of the array first.
func (st *state) extend(es []*solidarity.Entry) (*state, error) {
	if len(es) == 0 {
		return st, nil
	}
	out := *st
	ownPledges, ownStatuses := false, false
	var ownRefs map[solidarity.EntryType]bool
	for _, e := range es {
		switch e.Type {
		case solidarity.StatusDecided:
			if !ownStatuses {
				out.statuses, ownStatuses = maps.Clone(st.statuses), true
			}
		case solidarity.PledgeMade, solidarity.PledgeChanged:
			if !ownPledges {
				out.pledges, ownPledges = maps.Clone(st.pledges), true
			}
		}
		if e.Ref != "" && !ownRefs[e.Type] {
			if ownRefs == nil {
				ownRefs, out.byRef = map[solidarity.EntryType]bool{}, maps.Clone(st.byRef)
			}
			ownRefs[e.Type] = true
			out.byRef[e.Type] = maps.Clone(st.byRef[e.Type])
		}
	}
	n, k := len(st.entries), len(es)
	if st.tail != nil && cap(st.entries)-n >= k && st.tail.claimed.CompareAndSwap(int64(n), int64(n+k)) {
		// The slots after n are this extension's alone: no state holds them.
		out.entries = st.entries
	} else {
		out.entries = make([]*solidarity.Entry, n, 2*(n+k)+16)
		copy(out.entries, st.entries)
		out.tail = &tail{}
		out.tail.claimed.Store(int64(n + k))
	}
	for _, e := range es {
		if err := out.apply(e); err != nil {
			return nil, err
		}
	}
	return &out, nil
}

// upTo returns the entries of es recorded at or before asOf, keeping the first cycle
// entry when no cycle entry is that old (see loadAsOf).
func upTo(es []*solidarity.Entry, asOf time.Time) []*solidarity.Entry {
	var out []*solidarity.Entry
	var first *solidarity.Entry
	haveCycle := false
	for _, e := range es {
		isCycle := e.Type == solidarity.CycleCreated || e.Type == solidarity.CycleAmended
		if isCycle && first == nil {
			first = e
		}
		if !e.At.After(asOf) {
			out = append(out, e)
			haveCycle = haveCycle || isCycle
		}
	}
	if !haveCycle && first != nil {
		out = append([]*solidarity.Entry{first}, out...)
	}
	return out
}

// cycles caches parsed cycle files by the hash of their entry: entries never change,
// and every rule check and balance needs the cycle, so a file is parsed once.
var cycles sync.Map // entry hash → *solidarity.Cycle

// parsedCycle returns the cycle a cycle.created/amended entry records. The result is
// shared: callers copy what they change (assemble does).
func parsedCycle(e *solidarity.Entry) (*solidarity.Cycle, error) {
	if c, ok := cycles.Load(e.Hash); ok && e.Hash != "" {
		return c.(*solidarity.Cycle), nil
	}
	var p solidarity.CyclePayload
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return nil, fmt.Errorf("entry %d: %w", e.Seq, err)
	}
	c, err := cyclefile.Parse(fmt.Sprintf("ledger entry %d", e.Seq), []byte(p.TOML))
	if err != nil {
		return nil, err
	}
	if e.Hash != "" {
		cycles.Store(e.Hash, c)
	}
	return c, nil
}

func (st *state) participates(m solidarity.MemberState) error {
	if st.cycle == nil {
		return &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "cycle", Message: fmt.Sprintf("no %d cycle in the ledger", st.year)}
	}
	if !slices.Contains(st.cycle.Participating, m) {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "state", Article: "Art. 57(1) AMMR",
			Message: fmt.Sprintf("%q is not in the participating set of the %d cycle", m, st.year)}
	}
	return nil
}

func (st *state) count(t solidarity.EntryType, m solidarity.MemberState) int {
	n := 0
	for _, e := range st.entries {
		if e.Type == t && e.State == m {
			n++
		}
	}
	return n
}

// assemble returns the cycle as the ledger has it: the cycle file, with statuses
// replaced by status entries, pledges of a (state, type) replaced by pledge entries,
// and the deductions the Council granted added, dated on their decision.
func (st *state) assemble() (*solidarity.Cycle, error) {
	if st.cycle == nil {
		return nil, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "cycle", Message: fmt.Sprintf("no %d cycle in the ledger", st.year)}
	}
	c := *st.cycle
	c.Statuses = map[solidarity.MemberState]solidarity.Status{}
	for m, s := range st.cycle.Statuses {
		c.Statuses[m] = s
	}
	for m, e := range st.statuses {
		var p solidarity.StatusPayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return nil, err
		}
		c.Statuses[m] = solidarity.Status{UnderPressure: p.UnderPressure, AtRisk: p.AtRisk, SignificantSituation: p.SignificantSituation,
			Benefitting: p.Benefitting, Fact: solidarity.Fact{Source: fmt.Sprintf("ledger entry %d", e.Seq), Certainty: "V", Note: p.Act}}
	}
	c.Pledges = nil
	ledgerNone := map[solidarity.MemberState]bool{}
	ledgerSome := map[solidarity.MemberState]bool{}
	for k := range st.pledges {
		if k.t == solidarity.NoPledge {
			ledgerNone[k.state] = true
		} else {
			ledgerSome[k.state] = true
		}
	}
	for _, p := range st.cycle.Pledges {
		_, replaced := st.pledges[pledgeKey{p.State, p.Type}]
		// The ledger's "none" replaces every pledge of the file for that state, and a
		// pledge in the ledger replaces the file's "none".
		replaced = replaced || ledgerNone[p.State] || p.Type == solidarity.NoPledge && ledgerSome[p.State]
		if !replaced {
			c.Pledges = append(c.Pledges, p)
		}
	}
	keys := make([]pledgeKey, 0, len(st.pledges))
	for k := range st.pledges {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b pledgeKey) int {
		if d := a.state.Index() - b.state.Index(); d != 0 {
			return d
		}
		return slices.Index(solidarity.PledgeTypes(), a.t) - slices.Index(solidarity.PledgeTypes(), b.t)
	})
	for _, k := range keys {
		p := st.pledges[k]
		if p.Type != solidarity.NoPledge && p.Amount() == 0 {
			// A pledge changed to zero is a known zero: keep the state's pledge known.
			c.Pledges = append(c.Pledges, solidarity.Pledge{State: k.state, Type: solidarity.NoPledge, Fact: solidarity.Fact{Source: "ledger"}})
			continue
		}
		c.Pledges = append(c.Pledges, solidarity.Pledge{State: k.state, Type: p.Type, Relocations: p.Relocations, EUR: p.EURCents,
			Fact: solidarity.Fact{Source: "ledger", Certainty: "V"}})
	}
	c.Deductions = slices.Clone(st.cycle.Deductions)
	for _, e := range st.entries {
		if e.Type != solidarity.DeductionDecided {
			continue
		}
		var p solidarity.DeductionPayload
		if err := json.Unmarshal(e.Payload, &p); err != nil {
			return nil, err
		}
		if !p.Granted {
			continue
		}
		d := solidarity.Deduction{State: e.State, Date: e.At, Full: p.Full, Relocations: p.Relocations, Act: p.Act,
			Article: p.Article, Fact: solidarity.Fact{Source: fmt.Sprintf("ledger entry %d (%s)", e.Seq, e.Ref), Certainty: "V"}}
		if p.Fraction != "" {
			// bound.Rat, as checkExtent read it when the entry was written: never
			// big.Rat.SetString on stored text (issue 12).
			f, err := bound.Rat("fraction", p.Fraction, true, bound.Numbers{})
			if err != nil {
				return nil, fmt.Errorf("ledger entry %d (%s): %w", e.Seq, e.Ref, err)
			}
			d.Fraction = f
		}
		c.Deductions = append(c.Deductions, d)
	}
	return &c, nil
}
