package online

import (
	"context"
	"fmt"
	"slices"

	"solidarity/match"
)

// BatchPotentials are the potentials of one batch outside a replay (a proposal
// in the product): batch is the batch's model over the room left (every place's
// and group's capacity what remains of the year), pool the families that arrived
// before it this year or in the history, and future the number of families
// expected in the rest of the year. It draws samples futures of future families
// from pool with replacement (seeded) and returns the average of the capacity
// prices of batch with each future, as the Potentials method does. An empty pool
// or future gives zero prices: nothing to learn from, nothing to keep room for.
func BatchPotentials(ctx context.Context, batch *match.Model, pool []match.Family, future, samples int, seed uint64) (*match.PlacePrices, error) {
	if err := batch.Validate(); err != nil {
		return nil, err
	}
	if len(batch.Mins) > 0 {
		return nil, fmt.Errorf("online: the batch has minimum rows")
	}
	if future < 0 || samples < 0 || future > maxFuture || samples > maxSamples {
		return nil, fmt.Errorf("online: %d future families, %d samples (at most %d and %d)", future, samples, maxFuture, maxSamples)
	}
	for i, f := range pool {
		if len(f.Need) != batch.Dims {
			return nil, fmt.Errorf("online: pool family %d has %d needs, want %d", i, len(f.Need), batch.Dims)
		}
		for j, a := range f.Arcs {
			if a.Place < 0 || a.Place >= len(batch.Places) || (j > 0 && a.Place <= f.Arcs[j-1].Place) {
				return nil, fmt.Errorf("online: pool family %d arc %d: place %d", i, j, a.Place)
			}
		}
	}
	y := &Year{Model: &match.Model{Dims: batch.Dims, Places: batch.Places, Groups: batch.Groups, Families: slices.Clone(batch.Families)},
		Batches: 1, Batch: make([]int, len(batch.Families))}
	cfg := DefaultConfig()
	cfg.Samples = samples
	st := newState(y, cfg, seed)
	batchIdx := make([]int, len(batch.Families))
	for i := range batchIdx {
		batchIdx[i] = i
	}
	st.begin(0, batchIdx)
	st.fixed = future
	st.pool = pool
	pp, _, err := st.potentials(ctx, batchIdx)
	return pp, err
}

// Bounds of BatchPotentials' request: a year of the Pool's size, and the samples.
const (
	maxFuture  = 1_000_000
	maxSamples = 1000
)
