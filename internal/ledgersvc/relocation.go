package ledgersvc

import (
	"context"

	"solidarity"
)

// RelocationRoom returns, from a check's view of the ledger, state m's relocation
// pledges for a cycle (applicants and beneficiaries, Art. 56(2)(a)) and the relocations
// it has delivered so far. The case flow uses it to allocate people only to states with
// room left, and to flag a transfer beyond the pledge as an over-delivery.
func RelocationRoom(ctx context.Context, v solidarity.View, year int, m solidarity.MemberState) (pledged, delivered int64, err error) {
	st, err := load(ctx, v, year, deliveryTypes...)
	if err != nil {
		return 0, 0, err
	}
	for k, p := range st.pledges {
		if k.state == m && (k.t == solidarity.RelocationApplicants || k.t == solidarity.RelocationBeneficiaries) {
			pledged += p.Relocations
		}
	}
	tot, err := v.Totals(ctx, year)
	if err != nil {
		return 0, 0, err
	}
	for _, t := range tot {
		if t.State == m {
			delivered = t.Relocations
		}
	}
	return pledged, delivered, nil
}
