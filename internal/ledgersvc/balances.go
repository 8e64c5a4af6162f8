package ledgersvc

import (
	"context"
	"encoding/json"
	"fmt"
	"math/big"
	"time"

	"solidarity"
	"solidarity/internal/catalog"
	"solidarity/ledger"
	"solidarity/pool"
)

// computed is a pool computed from the ledger, with the lookups rule checks need.
type computed struct {
	*catalog.Pool
}

func (c *computed) status(m solidarity.MemberState) solidarity.Status { return c.Cycle.Statuses[m] }

// mayOffer is Art. 63(2) for m: No for a state outside the pool.
func (c *computed) mayOffer(m solidarity.MemberState) pool.Tri {
	for _, s := range c.States {
		if s.State == m {
			return s.MayOfferOffsets
		}
	}
	return pool.No
}

func (s *Service) compute(ctx context.Context, v solidarity.View, st *state, asOf time.Time) (*computed, error) {
	c, err := st.assemble()
	if err != nil {
		return nil, err
	}
	p, err := s.Catalog.Pool(catalog.PoolRequest{Cycle: c, AsOf: asOf})
	if err != nil {
		return nil, err
	}
	return &computed{Pool: p}, nil
}

// Delivered is what a state (or the Union) has delivered, from the ledger.
type Delivered struct {
	Totals          solidarity.Amounts // by delivery type of the measures
	OffsetsAccepted int64              // applications taken over in replies to offsets (Art. 69(2))
	Units           *big.Rat           // relocation-equivalents, exact
}

// StateBalance is a state's line of the balances: its row of the pool and what the
// ledger says it delivered.
type StateBalance struct {
	State       solidarity.MemberState
	Pool        *pool.State // the state's row of the pool
	Delivered   Delivered
	Outstanding *big.Rat  // pool.Outstanding: obligation − delivered units, ≥ 0
	Pace        pool.Pace // Art. 60(3)
}

// Balances are the pool with what the ledger says was delivered: exact figures, which
// report.FromBalances renders for the API, the pages and the CLI.
type Balances struct {
	Pool       *catalog.Pool
	States     []StateBalance // in the pool's order
	Delivered  Delivered      // the Union's
	AsOf       time.Time
	LedgerHead int64 // the ledger's head when they were read: every figure is of the entries up to it
}

// Balances computes a cycle's balances as of a time (zero: now): the ledger as it stood
// then, from the entries recorded at or before asOf — pledges, statuses, deductions,
// offsets and deliveries alike (solidarity.ParseAsOf reads a day as its end). Anyone may read the
// published figures; the per-state pledges and deliveries of the result are published
// figures of the pool.
func (s *Service) Balances(ctx context.Context, year int, asOf time.Time) (*Balances, error) {
	if err := authorize(ctx, solidarity.ReadPublished, ""); err != nil {
		return nil, err
	}
	// cut is the last instant whose entries count; zero when every entry does (now, or
	// a day to come: then the pace is the one expected by that day, on what is
	// recorded so far).
	var cut time.Time
	switch now := s.now(); {
	case asOf.IsZero():
		asOf = now
	case asOf.Before(now):
		cut = asOf
	}
	// The head and the delivery totals in one snapshot: the head reported is the last
	// entry the totals include, whatever is written meanwhile.
	head, totals, err := s.Store.HeadTotals(ctx, year, cut)
	if err != nil {
		return nil, err
	}
	var st *state
	if cut.IsZero() {
		st, err = s.load(ctx, s.Store, year)
	} else {
		st, err = loadAsOf(ctx, s.Store, year, cut)
	}
	if err != nil {
		return nil, err
	}
	// The pledges, statuses, deductions and offsets are read after the snapshot:
	// without the entries appended since its head, so that every figure is of the
	// same ledger, the one up to head.
	if st, err = throughSeq(st, head); err != nil {
		return nil, err
	}
	res, err := s.compute(ctx, s.Store, st, asOf)
	if err != nil {
		return nil, err
	}
	byState := map[solidarity.MemberState]solidarity.Totals{}
	for _, t := range totals {
		byState[t.State] = t
	}
	offsets := map[solidarity.MemberState]int64{}
	for _, e := range st.entries {
		if e.Type != solidarity.OffsetReplied {
			continue
		}
		var r solidarity.ReplyPayload
		if err := json.Unmarshal(e.Payload, &r); err != nil {
			return nil, err
		}
		// The replying state is the one that takes responsibility when it answers a
		// request; when it answers an offer, the offering state takes it.
		taker := e.State
		if req := st.byRef[solidarity.OffsetOffered][e.Ref]; req != nil {
			taker = req.State
		}
		n, ok := solidarity.AddChecked(offsets[taker], r.Accepted)
		if !ok {
			return nil, solidarity.Overflow(solidarity.EINVALID, fmt.Sprintf("%s's accepted offsets", taker))
		}
		offsets[taker] = n
	}
	ratio := res.Cycle.EURPerRelocation
	elapsed := pool.Elapsed(res.Cycle.PoolStart, res.Cycle.Deadline, asOf)
	out := &Balances{Pool: res.Pool, AsOf: asOf, LedgerHead: head}
	var all solidarity.Totals
	var allOffsets int64
	for i := range res.States {
		st := &res.States[i]
		m := st.State
		t := byState[m]
		var ok1, ok2 bool
		all, ok1 = ledger.AddTotals(all, t)
		allOffsets, ok2 = solidarity.AddChecked(allOffsets, offsets[m])
		if !ok1 || !ok2 {
			return nil, solidarity.Overflow(solidarity.EINVALID, fmt.Sprintf("the %d delivery totals", year))
		}
		units := deliveredUnits(t, offsets[m], ratio)
		out.States = append(out.States, StateBalance{State: m, Pool: st,
			Delivered:   Delivered{Totals: t.Delivered, OffsetsAccepted: offsets[m], Units: units},
			Outstanding: pool.Outstanding(st.Obligation, units),
			// Art. 60(3): the paced measures (financial contributions are not).
			Pace: pool.PaceOf(st, ratio, deliveredPaced(t, offsets[m], ratio), elapsed)})
	}
	out.Delivered = Delivered{Totals: all.Delivered, OffsetsAccepted: allOffsets, Units: deliveredUnits(all, allOffsets, ratio)}
	return out, nil
}

// deliveredUnits values deliveries and accepted offsets in relocation-equivalents,
// each delivery at its measures' valuation.
func deliveredUnits(t solidarity.Totals, offsets int64, eurPerRelocation solidarity.Cents) *big.Rat {
	u := new(big.Rat).SetInt64(offsets)
	for i, d := range solidarity.Deliveries() {
		u.Add(u, d.Value(t.Delivered[i], eurPerRelocation))
	}
	return u
}

// deliveredPaced is deliveredUnits of what Art. 60(3) paces: the non-financial
// deliveries and the accepted offsets.
func deliveredPaced(t solidarity.Totals, offsets int64, eurPerRelocation solidarity.Cents) *big.Rat {
	u := new(big.Rat).SetInt64(offsets)
	for i, d := range solidarity.Deliveries() {
		if d.Paced() {
			u.Add(u, d.Value(t.Delivered[i], eurPerRelocation))
		}
	}
	return u
}

// DailyTotals returns state m's delivery totals in cycle year per UTC day of
// recording, oldest first: the published figures behind the state page's
// delivered-over-time chart. Anyone may read them (solidarity.ReadPublished).
func (s *Service) DailyTotals(ctx context.Context, year int, m solidarity.MemberState) ([]solidarity.DayTotals, error) {
	if err := authorize(ctx, solidarity.ReadPublished, ""); err != nil {
		return nil, err
	}
	p, err := s.Store.AllTotals(ctx)
	if err != nil {
		return nil, err
	}
	var out []solidarity.DayTotals
	for _, d := range p.Daily {
		if d.Cycle == year && d.State == m {
			out = append(out, d)
		}
	}
	return out, nil
}
