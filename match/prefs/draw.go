package prefs

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"solidarity/match"
)

// Kind is how Draw correlates the families' preferences, after DKT's simulations
// (§7; their setParameters and genFamPref): family f's utility for place l is
//
//	u(f,l) = δ·V(f,l) + β·Y(l) + γ·E(f,l)
//
// with V the arc's score over the largest score, Y(l) a draw per place shared by
// every family and E(f,l) a draw per pair, both uniform on [0,1).
type Kind int

const (
	// ScoreNoise: δ = γ = 1 (DKT's type 3): the score plus idiosyncratic noise,
	// families uncorrelated with one another but correlated with the places'
	// priorities. The default.
	ScoreNoise Kind = iota
	// Common: β = 1 (type 1): every family ranks the places alike.
	Common
	// Idiosyncratic: γ = 1 (type 2): independent uniform rankings.
	Idiosyncratic
	// ScoreCommon: δ = β = 1 (type 4).
	ScoreCommon
)

// ParseKind reads a Kind's name: score-noise, common, idiosyncratic, score-common.
func ParseKind(s string) (Kind, error) {
	for k := ScoreNoise; k <= ScoreCommon; k++ {
		if k.String() == s {
			return k, nil
		}
	}
	return 0, fmt.Errorf("prefs: no preference kind %q (want score-noise, common, idiosyncratic or score-common)", s)
}

func (k Kind) String() string {
	switch k {
	case ScoreNoise:
		return "score-noise"
	case Common:
		return "common"
	case Idiosyncratic:
		return "idiosyncratic"
	case ScoreCommon:
		return "score-common"
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

func (k Kind) weights() (delta, beta, gamma float64) {
	switch k {
	case Common:
		return 0, 1, 0
	case Idiosyncratic:
		return 0, 0, 1
	case ScoreCommon:
		return 1, 1, 0
	}
	return 1, 0, 1
}

// Draw draws one preference profile for m from seed: every family ranks every
// place it has an arc to by u (above; ties by place index), and every place lists
// every family with an arc to it by the arc's score, highest first (ties by family
// index), as DKT's priorities follow the employment weights. The same seed and
// model give the same profile.
func Draw(m *match.Model, seed uint64, kind Kind) *Prefs {
	rng := rand.New(rand.NewPCG(seed, seed^0x6a09e667f3bcc909))
	delta, beta, gamma := kind.weights()
	top := 0.0
	for _, f := range m.Families {
		for _, a := range f.Arcs {
			top = max(top, math.Abs(a.Score))
		}
	}
	if top == 0 {
		top = 1
	}
	// Draw in a fixed order (places, then families by arc) whatever the weights,
	// so that one seed gives the same noise to every kind.
	common := make([]float64, len(m.Places))
	for j := range common {
		common[j] = rng.Float64()
	}
	p := &Prefs{Family: make([][]int, len(m.Families)), Place: make([][]int, len(m.Places))}
	u := map[int]float64{}
	for i, f := range m.Families {
		clear(u)
		r := make([]int, 0, len(f.Arcs))
		for _, a := range f.Arcs {
			e := rng.Float64()
			u[a.Place] = delta*a.Score/top + beta*common[a.Place] + gamma*e
			r = append(r, a.Place)
		}
		slices.SortStableFunc(r, func(a, b int) int { return cmp.Compare(u[b], u[a]) })
		p.Family[i] = r
	}
	p.Place = ScorePriorities(m)
	return p
}

// ScorePriorities lists, for every place, the families with an arc to it by the
// arc's score, highest first (ties by family index).
func ScorePriorities(m *match.Model) [][]int {
	pri := make([][]int, len(m.Places))
	score := make([]map[int]float64, len(m.Places))
	for j := range score {
		score[j] = map[int]float64{}
	}
	for i, f := range m.Families {
		for _, a := range f.Arcs {
			pri[a.Place] = append(pri[a.Place], i)
			score[a.Place][i] = a.Score
		}
	}
	for j := range pri {
		slices.SortStableFunc(pri[j], func(a, b int) int { return cmp.Compare(score[j][b], score[j][a]) })
	}
	return pri
}
