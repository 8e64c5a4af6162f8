package ledgersvc

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"sync"

	"solidarity"
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
}

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
// (smallTypes when none).
func load(ctx context.Context, v solidarity.View, year int, types ...solidarity.EntryType) (*state, error) {
	if len(types) == 0 {
		types = smallTypes
	}
	es, err := v.Find(ctx, year, types...)
	if err != nil {
		return nil, err
	}
	st := &state{year: year, entries: es, pledges: map[pledgeKey]solidarity.PledgePayload{},
		statuses: map[solidarity.MemberState]*solidarity.Entry{}, byRef: map[solidarity.EntryType]map[string]*solidarity.Entry{}}
	for _, e := range es {
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
				return nil, err
			}
			st.cycle = c
		case solidarity.StatusDecided:
			st.statuses[e.State] = e
		case solidarity.PledgeMade, solidarity.PledgeChanged:
			var p solidarity.PledgePayload
			if err := json.Unmarshal(e.Payload, &p); err != nil {
				return nil, fmt.Errorf("entry %d: %w", e.Seq, err)
			}
			st.pledges[pledgeKey{e.State, p.Type}] = p
		}
	}
	return st, nil
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
	for _, p := range st.cycle.Pledges {
		if _, replaced := st.pledges[pledgeKey{p.State, p.Type}]; !replaced {
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
		if p.Type.InUnits() && p.Relocations == 0 || !p.Type.InUnits() && p.Type != solidarity.NoPledge && p.EURCents == 0 {
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
			d.Fraction, _ = new(big.Rat).SetString(p.Fraction)
		}
		c.Deductions = append(c.Deductions, d)
	}
	return &c, nil
}
