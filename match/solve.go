package match

import "context"

// solve is replaced by the exact solver; until then a greedy placement with no bound
// beyond the sum of each family's best score.
func solve(ctx context.Context, m *Model, opts Options) (*Solution, error) {
	s := &Solution{Status: Feasible, Place: make([]int, len(m.Families))}
	used := make([][]int64, len(m.Places))
	for i := range used {
		used[i] = make([]int64, m.Dims)
	}
	for i, f := range m.Families {
		s.Place[i] = -1
		best, bestScore := -1, 0.0
		for _, a := range f.Arcs {
			fits := true
			for d := range m.Dims {
				if used[a.Place][d]+f.Need[d] > m.Places[a.Place].Cap[d] {
					fits = false
				}
			}
			if fits && (best < 0 || a.Score > bestScore) {
				best, bestScore = a.Place, a.Score
			}
			if a.Score > 0 {
				s.Bound += 0
			}
		}
		if best >= 0 {
			s.Place[i] = best
			s.Value += bestScore
			for d := range m.Dims {
				used[best][d] += f.Need[d]
			}
		}
		top := 0.0
		for _, a := range f.Arcs {
			top = max(top, a.Score)
		}
		s.Bound += top
	}
	return s, nil
}
