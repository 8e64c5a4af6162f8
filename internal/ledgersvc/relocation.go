package ledgersvc

import (
	"context"
	"fmt"

	"solidarity"
)

// RelocationRoom returns, from a check's view of the ledger, state m's relocation
// pledges for a cycle (the relocation measures, Art. 56(2)(a)) and the relocations
// it has delivered so far. The case flow uses it to allocate people only to states with
// room left, and to flag a transfer beyond the pledge as an over-delivery.
func RelocationRoom(ctx context.Context, v solidarity.View, year int, m solidarity.MemberState) (pledged, delivered int64, err error) {
	return (*Service)(nil).RelocationRoom(ctx, v, year, m)
}

// RelocationRoom is the package's RelocationRoom from the service's cached state of
// the cycle (cache.go); on a nil service, from scratch.
func (s *Service) RelocationRoom(ctx context.Context, v solidarity.View, year int, m solidarity.MemberState) (pledged, delivered int64, err error) {
	st, err := s.loadDelivery(ctx, v, year)
	if err != nil {
		return 0, 0, err
	}
	for k, p := range st.pledges {
		if k.state == m && k.t.Relocation() {
			var ok bool
			if pledged, ok = solidarity.AddChecked(pledged, p.Relocations); !ok {
				return 0, 0, solidarity.Overflow(solidarity.EINVALID, fmt.Sprintf("%s's relocation pledges", m))
			}
		}
	}
	tot, err := v.Totals(ctx, year)
	if err != nil {
		return 0, 0, err
	}
	for _, t := range tot {
		if t.State == m {
			delivered = t.Delivered.Of(solidarity.RelocationDelivered)
		}
	}
	return pledged, delivered, nil
}

// RelocationPledge is one state's relocation pledges for a cycle and what it has
// delivered of them.
type RelocationPledge struct {
	State     solidarity.MemberState
	Pledged   int64 // applicants and beneficiaries, Art. 56(2)(a)
	Delivered int64
}

// RelocationPledges returns, from a view of the ledger, every state that pledged
// relocations for a cycle (a pledge above zero), in protocol order, with its
// deliveries: the places the matching engine may propose.
func RelocationPledges(ctx context.Context, v solidarity.View, year int) ([]RelocationPledge, error) {
	return (*Service)(nil).RelocationPledges(ctx, v, year)
}

// RelocationPledges is the package's RelocationPledges from the service's cached state
// of the cycle; on a nil service, from scratch.
func (s *Service) RelocationPledges(ctx context.Context, v solidarity.View, year int) ([]RelocationPledge, error) {
	st, err := s.loadDelivery(ctx, v, year)
	if err != nil {
		return nil, err
	}
	pledged := map[solidarity.MemberState]int64{}
	for k, p := range st.pledges {
		if k.t.Relocation() {
			n, ok := solidarity.AddChecked(pledged[k.state], p.Relocations)
			if !ok {
				return nil, solidarity.Overflow(solidarity.EINVALID, fmt.Sprintf("%s's relocation pledges", k.state))
			}
			pledged[k.state] = n
		}
	}
	tot, err := v.Totals(ctx, year)
	if err != nil {
		return nil, err
	}
	delivered := map[solidarity.MemberState]int64{}
	for _, t := range tot {
		delivered[t.State] = t.Delivered.Of(solidarity.RelocationDelivered)
	}
	var out []RelocationPledge
	for _, m := range solidarity.MemberStates() {
		if pledged[m] > 0 {
			out = append(out, RelocationPledge{State: m, Pledged: pledged[m], Delivered: delivered[m]})
		}
	}
	return out, nil
}

// loadDelivery loads the state of a cycle from deliveryTypes: through the cache of s,
// or from scratch when s is nil.
func (s *Service) loadDelivery(ctx context.Context, v solidarity.View, year int) (*state, error) {
	if s == nil {
		return load(ctx, v, year, deliveryTypes...)
	}
	return s.load(ctx, v, year, deliveryTypes...)
}
