package online

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"solidarity"
	"solidarity/match"
)

// maxBatches bounds a year's batches: ten years of days.
const maxBatches = 3660

// FromProblem makes the year of a problem file: every family's arrival date
// (families[i].arrival) puts it in a batch of batch days counted from the earliest
// arrival; revisions[] date the capacity revisions the same way. A file without
// arrival dates gives a nil year (replay it in seeded orders, Shuffled); one with
// some dates missing is refused. A balance's pledges are the pro-rata shares
// (its minimums are not a batch's constraint: Config.Balance is); without one, a
// state's share is its places' capacity in persons.
func FromProblem(pr *match.Problem, batch time.Duration) (*Year, *match.Index, error) {
	days := int(batch / (24 * time.Hour))
	if days < 1 || batch%(24*time.Hour) != 0 {
		return nil, nil, &solidarity.Error{Code: solidarity.EINVALID, Field: "--batch", Message: fmt.Sprintf("batch %v: a whole number of days, at least one", batch)}
	}
	bal := pr.Balance
	cp := *pr
	cp.Balance = nil
	m, idx, err := cp.Compile()
	if err != nil {
		return nil, nil, err
	}
	dates := make([]time.Time, len(pr.Families))
	have := 0
	var start time.Time
	for i, f := range pr.Families {
		if f.Arrival == "" {
			continue
		}
		t, err := time.Parse(time.DateOnly, f.Arrival)
		if err != nil {
			return nil, nil, invalid(fmt.Sprintf("families[%d].arrival", i), "arrival %q is not a date (YYYY-MM-DD)", f.Arrival)
		}
		dates[i] = t
		if have == 0 || t.Before(start) {
			start = t
		}
		have++
	}
	states := map[solidarity.MemberState]int{}
	y := &Year{Model: m, State: make([]int, len(m.Places))}
	for pl, s := range idx.States {
		k, ok := states[s]
		if !ok {
			k = len(y.Pledge)
			states[s] = k
			y.Pledge = append(y.Pledge, 0)
		}
		y.State[pl] = k
		if bal == nil {
			y.Pledge[k] += float64(persons(m.Places[pl].Cap))
		}
	}
	if bal != nil {
		for s, k := range states {
			y.Pledge[k] = float64(bal.Pledges[s])
		}
	}
	if have == 0 {
		if len(pr.Revisions) > 0 {
			return nil, nil, invalid("revisions", "revisions are dated, and no family has an arrival date")
		}
		return y, idx, nil
	}
	if have < len(pr.Families) {
		for i, f := range pr.Families {
			if f.Arrival == "" {
				return nil, nil, invalid(fmt.Sprintf("families[%d].arrival", i), "family %q has no arrival date, and others have one", f.ID)
			}
		}
	}
	batchOf := func(t time.Time) int { return max(0, int(t.Sub(start).Hours()/24)/days) }
	y.Batch = make([]int, len(m.Families))
	for i, t := range dates {
		y.Batch[i] = batchOf(t)
		y.Batches = max(y.Batches, y.Batch[i]+1)
	}
	if y.Batches > maxBatches {
		return nil, nil, invalid("families", "the arrivals span %d batches of %d days (at most %d)", y.Batches, days, maxBatches)
	}
	placeIdx := map[string]int{}
	for pl, id := range idx.Places {
		placeIdx[id] = pl
	}
	for i, r := range pr.Revisions {
		path := fmt.Sprintf("revisions[%d]", i)
		pl, ok := placeIdx[r.Place]
		if !ok {
			return nil, nil, invalid(path+".place", "no place %q", r.Place)
		}
		t, err := time.Parse(time.DateOnly, r.From)
		if err != nil {
			return nil, nil, invalid(path+".from", "%q is not a date (YYYY-MM-DD)", r.From)
		}
		if len(r.Capacity) != m.Dims {
			return nil, nil, invalid(path+".capacity", "%d capacities, want %d", len(r.Capacity), m.Dims)
		}
		for d, c := range r.Capacity {
			if c < 0 || c > match.MaxValue {
				return nil, nil, invalid(fmt.Sprintf("%s.capacity[%d]", path, d), "capacity %d outside 0…%d", c, match.MaxValue)
			}
		}
		b := min(batchOf(t), y.Batches-1)
		y.Revisions = append(y.Revisions, Revision{Batch: b, Place: pl, Cap: r.Capacity})
	}
	// Stable: revisions of one batch keep the file's order (the last wins).
	slices.SortStableFunc(y.Revisions, func(a, b Revision) int { return cmp.Compare(a.Batch, b.Batch) })
	return y, idx, nil
}

func invalid(path, format string, args ...any) *solidarity.Error {
	return &solidarity.Error{Code: solidarity.EINVALID, Field: path, Message: fmt.Sprintf(format, args...)}
}
