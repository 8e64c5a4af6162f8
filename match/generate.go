package match

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"solidarity"
)

// GenConfig shapes a generated problem. Zero fields take the defaults in brackets.
type GenConfig struct {
	Families   int // families to place [12 000, about 30 000 persons]
	Localities int // localities per Member State [40]
	Dims       int // 1 (persons), 2 (children; adults with seniors) or 3 (children, adults, seniors) [3]
	// States are the receiving Member States [the 26 bound by Part IV: solidarity.PartIV()].
	States []solidarity.MemberState
	// Key is each state's share of the places, e.g. the Art. 66 reference key; states
	// it leaves out get no places [equal shares].
	Key map[solidarity.MemberState]float64
	// Slack is the total capacity over the persons to place [1.15].
	Slack float64
	// StatesPerFamily and LocalitiesPerState bound the pairs: each family is compatible
	// with that many localities in that many states [4 and 6].
	StatesPerFamily    int
	LocalitiesPerState int
	// Groups adds one group per state capping its intake at 90 % of its localities'
	// capacities (a national ceiling below the sum of local offers).
	Groups bool
	// Balance, when set, adds a balance section with this tolerance and the states'
	// pledges (their capacities in persons).
	Balance *float64
	// Must is the fraction of families that must be placed [0].
	Must float64
	// Weeks, when > 0, gives each family an arrival date in a year of that many
	// weeks from Start, for a replay (match/online): the weeks drawn uniformly, the
	// day within the week too, from a random source of their own (the rest of the
	// problem is the same with or without dates).
	Weeks int
	// Start is the first day of the year of arrivals [2026-06-12, the day the Pact's
	// regulations apply].
	Start time.Time
}

func (c GenConfig) withDefaults() GenConfig {
	if c.Families <= 0 {
		c.Families = 12000
	}
	if c.Localities <= 0 {
		c.Localities = 40
	}
	if c.Dims < 1 || c.Dims > 3 {
		c.Dims = 3
	}
	if len(c.States) == 0 {
		c.States = solidarity.PartIV()
	}
	if c.Slack <= 0 {
		c.Slack = 1.15
	}
	if c.StatesPerFamily <= 0 {
		c.StatesPerFamily = 4
	}
	c.StatesPerFamily = min(c.StatesPerFamily, len(c.States))
	if c.LocalitiesPerState <= 0 {
		c.LocalitiesPerState = 6
	}
	c.LocalitiesPerState = min(c.LocalitiesPerState, c.Localities)
	return c
}

// languages is the number of language groups families are drawn from.
const languages = 12

// Generate returns a synthetic relocation problem, the same for the same seed and
// configuration (math/rand/v2 PCG). The model behind it (docs/match-problem.md,
// "Generated problems"):
//
//   - Family sizes follow relocation cohorts: 55 % single adults (3 % of them seniors,
//     5 % unaccompanied minors), 45 % families of 2 (10 %), 3 (15 %), 4 (25 %), 5 (25 %)
//     or 6 (25 %) persons with one or two adults and children, one child in ten of
//     families of four or more replaced by a grandparent: about 2.5 persons a family.
//   - Each state's places are its Key share of the persons times Slack, split over its
//     localities in proportion to populations drawn by the rank-size rule (Zipf:
//     population ∝ 1/rank), each locality's capacity split over the dimensions in the
//     cohort's proportions plus 10 %. One locality in five (at least one a state) takes
//     unaccompanied minors; three in five take families of six.
//   - Scores: links = ½ diaspora strength of the family's language group in the state
//   - ½ if the family has relatives there (one in ten does); preference = 1, ⅔, ⅓
//     for the states a family ranked first to third (six in ten rank some); integration
//     = the locality's labour-market prospect (0.2–0.6) + 0.1 if the state speaks the
//     family's language + a family synergy and a family–locality one (normal, σ 0.05
//     each), clipped to 0…1.
//     Weights: links 1, preference 1, integration 2.
func Generate(seed uint64, cfg GenConfig) *Problem {
	cfg = cfg.withDefaults()
	g := &generator{cfg: cfg, rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)),
		pr: &Problem{Weights: &Weights{Links: 1, Preference: 1, Integration: 2}}}
	switch cfg.Dims {
	case 1:
		g.pr.Dimensions = []string{"persons"}
	case 2:
		g.pr.Dimensions = []string{"children", "adults"}
	default:
		g.pr.Dimensions = []string{"children", "adults", "seniors"}
	}
	// The steps draw from one random source, in this order.
	g.shares()
	g.languages()
	g.families()
	g.places()
	g.pairs()
	g.ceilings()
	g.arrivals(seed)
	return g.pr
}

// arrivals dates the families (GenConfig.Weeks).
func (g *generator) arrivals(seed uint64) {
	if g.cfg.Weeks <= 0 {
		return
	}
	start := g.cfg.Start
	if start.IsZero() {
		start = time.Date(2026, 6, 12, 0, 0, 0, 0, time.UTC)
	}
	rng := rand.New(rand.NewPCG(seed, 0x61727269766c))
	for i := range g.pr.Families {
		day := 7*rng.IntN(g.cfg.Weeks) + rng.IntN(7)
		g.pr.Families[i].Arrival = start.AddDate(0, 0, day).Format(time.DateOnly)
	}
}

// generator is the state of a Generate.
type generator struct {
	cfg        GenConfig
	rng        *rand.Rand
	pr         *Problem
	share      []float64 // per state: its share of the places (the key, or equal)
	shareSum   float64
	langWeight []float64   // per language group: its weight
	diaspora   [][]float64 // per state, language group: the diaspora's strength
	fams       []genFamily
	cohort     [3]int64 // persons in each of children, adults, seniors
	persons    int64
	locs       []genLocality // per place
	pledge     []int64       // per state: its pledge in persons
}

type genFamily struct {
	need       [3]int64 // children, adults, seniors
	uam, large bool
	lang       int
	tie        int   // state with relatives, or -1
	prefs      []int // ranked states
	persons    int64
}

type genLocality struct {
	state      int
	uam, large bool
	labour     float64
}

// shares is each state's share of the places: its key, or equal shares.
func (g *generator) shares() {
	cfg := g.cfg
	S := len(cfg.States)
	g.share = make([]float64, S)
	share := g.share
	shareSum := 0.0
	for s, st := range cfg.States {
		share[s] = 1
		if cfg.Key != nil {
			share[s] = max(cfg.Key[st], 0)
		}
		shareSum += share[s]
	}
	if shareSum == 0 {
		for s := range share {
			share[s] = 1
		}
		shareSum = float64(S)
	}
	g.shareSum = shareSum
}

// languages draws the language groups: a heavy-tailed mix, and a diaspora strength
// in each state.
func (g *generator) languages() {
	rng, S := g.rng, len(g.cfg.States)
	g.langWeight = make([]float64, languages)
	for i := range g.langWeight {
		g.langWeight[i] = 1 / float64(i+1)
	}
	g.diaspora = make([][]float64, S)
	diaspora := g.diaspora
	for s := range diaspora {
		diaspora[s] = make([]float64, languages)
		for k := range diaspora[s] {
			diaspora[s][k] = round4(math.Pow(rng.Float64(), 3))
		}
	}
}

// families draws the families: single persons (some of them unaccompanied minors or
// seniors) and families of two to six, their language, ties and preferences.
func (g *generator) families() {
	rng, cfg := g.rng, g.cfg
	g.fams = make([]genFamily, cfg.Families)
	fams := g.fams
	for i := range fams {
		f := &fams[i]
		if rng.Float64() < 0.55 {
			switch u := rng.Float64(); {
			case u < 0.05:
				f.need[0], f.uam = 1, true
			case u < 0.08:
				f.need[2] = 1
			default:
				f.need[1] = 1
			}
		} else {
			size := pick(rng, []float64{0.10, 0.15, 0.25, 0.25, 0.25}) + 2
			adults := 2
			if size == 2 || rng.Float64() < 0.25 {
				adults = 1
			}
			f.need[1], f.need[0] = int64(adults), int64(size-adults)
			if size >= 4 && rng.Float64() < 0.10 {
				f.need[0]--
				f.need[2]++
			}
			f.large = size >= 6
		}
		f.lang = pick(rng, g.langWeight)
		f.tie = -1
		if rng.Float64() < 0.10 {
			f.tie = pick(rng, g.share)
		}
		if rng.Float64() < 0.60 {
			for range 1 + rng.IntN(3) {
				s := pick(rng, g.share)
				if !slices.Contains(f.prefs, s) {
					f.prefs = append(f.prefs, s)
				}
			}
		}
		for d := range 3 {
			g.cohort[d] += f.need[d]
			f.persons += f.need[d]
		}
		g.persons += f.persons
	}
}

// places makes each state's pledge in persons, split over its localities by
// rank-size.
func (g *generator) places() {
	rng, cfg, pr := g.rng, g.cfg, g.pr
	L := cfg.Localities
	S := len(cfg.States)
	g.locs = make([]genLocality, 0, S*L)
	g.pledge = make([]int64, S)
	pledge, persons, cohort := g.pledge, g.persons, g.cohort
	for s, st := range cfg.States {
		pledge[s] = int64(math.Ceil(g.share[s] / g.shareSum * float64(persons) * cfg.Slack))
		weights := make([]float64, L)
		for k := range weights {
			weights[k] = 1 / float64(k+1)
		}
		rng.Shuffle(L, func(i, j int) { weights[i], weights[j] = weights[j], weights[i] })
		caps := apportion(pledge[s], weights)
		uamAt := rng.IntN(L)
		for k := range L {
			l := genLocality{state: s, uam: k == uamAt || rng.Float64() < 0.2, large: rng.Float64() < 0.6,
				labour: round4(0.2 + 0.4*rng.Float64())}
			var capacity [3]int64
			for d := range 3 {
				capacity[d] = int64(math.Ceil(float64(caps[k]) * float64(cohort[d]) / float64(max(persons, 1)) * 1.1))
			}
			pr.Places = append(pr.Places, PlaceEntry{ID: fmt.Sprintf("%s-%02d", st, k+1), State: st, Capacity: fold(capacity, cfg.Dims)})
			g.locs = append(g.locs, l)
		}
	}
}

// pairs makes the families' entries and their pairs.
func (g *generator) pairs() {
	width := len(fmt.Sprint(g.cfg.Families))
	for i := range g.fams {
		g.pairsOf(i, width)
	}
}

// pairsOf makes family i's entry and its pairs: candidate states (relatives,
// preferences, the strongest diaspora, then by key), and in each a sample of the
// compatible localities, scored.
func (g *generator) pairsOf(i, width int) {
	rng, cfg, pr := g.rng, g.cfg, g.pr
	S, L := len(cfg.States), cfg.Localities
	f := &g.fams[i]
	id := fmt.Sprintf("F%0*d", width, i+1)
	fe := FamilyEntry{ID: id, Needs: fold(f.need, cfg.Dims), Must: rng.Float64() < cfg.Must}
	pr.Families = append(pr.Families, fe)
	// Candidate states: relatives, preferences, the strongest diaspora, then by key.
	states := make([]int, 0, cfg.StatesPerFamily)
	add := func(s int) {
		if s >= 0 && len(states) < cfg.StatesPerFamily && !slices.Contains(states, s) {
			states = append(states, s)
		}
	}
	add(f.tie)
	for _, s := range f.prefs {
		add(s)
	}
	strongest := 0
	for s := range S {
		if g.diaspora[s][f.lang] > g.diaspora[strongest][f.lang] {
			strongest = s
		}
	}
	add(strongest)
	for len(states) < cfg.StatesPerFamily {
		add(pick(rng, g.share))
	}
	slices.Sort(states)
	synergy := rng.NormFloat64() * 0.05
	for _, s := range states {
		links := 0.5 * g.diaspora[s][f.lang]
		if s == f.tie {
			links += 0.5
		}
		pref := 0.0
		if r := slices.Index(f.prefs, s); r >= 0 {
			pref = float64(3-r) / 3
		}
		// Compatible localities of the state, then a sample of them.
		var ok []int
		for k := range L {
			l := &g.locs[s*L+k]
			if (!f.uam || l.uam) && (!f.large || l.large) {
				ok = append(ok, s*L+k)
			}
		}
		rng.Shuffle(len(ok), func(i, j int) { ok[i], ok[j] = ok[j], ok[i] })
		ok = ok[:min(len(ok), cfg.LocalitiesPerState)]
		slices.Sort(ok)
		for _, p := range ok {
			integ := g.locs[p].labour + synergy + rng.NormFloat64()*0.05
			if g.diaspora[s][f.lang] > 0.5 {
				integ += 0.1
			}
			pr.Pairs = append(pr.Pairs, Pair{Family: id, Place: pr.Places[p].ID, Components: Components{
				Links: round4(links), Preference: round4(pref), Integration: round4(min(max(integ, 0), 1)),
			}})
		}
	}
}

// ceilings adds the groups (a national ceiling per state, 90% of its localities'
// places) and the balance section, when asked for.
func (g *generator) ceilings() {
	cfg, pr, L := g.cfg, g.pr, g.cfg.Localities
	if cfg.Groups {
		for s, st := range cfg.States {
			c := make([]int64, cfg.Dims)
			for _, p := range pr.Places[s*L : (s+1)*L] {
				for d, x := range p.Capacity {
					c[d] += x
				}
			}
			for d := range c {
				c[d] = c[d] * 9 / 10
			}
			pr.Groups = append(pr.Groups, GroupEntry{ID: string(st), State: st, Capacity: c})
		}
	}
	if cfg.Balance != nil {
		b := &Balance{Tolerance: min(max(*cfg.Balance, 0), 1), Pledges: map[solidarity.MemberState]int64{}}
		for s, st := range cfg.States {
			b.Pledges[st] = g.pledge[s]
		}
		pr.Balance = b
	}
}

// fold maps children, adults, seniors onto dims dimensions.
func fold(n [3]int64, dims int) []int64 {
	switch dims {
	case 1:
		return []int64{n[0] + n[1] + n[2]}
	case 2:
		return []int64{n[0], n[1] + n[2]}
	}
	return []int64{n[0], n[1], n[2]}
}

// pick draws an index with probability proportional to w.
func pick(rng *rand.Rand, w []float64) int {
	var sum float64
	for _, x := range w {
		sum += x
	}
	u := rng.Float64() * sum
	for i, x := range w {
		if u < x {
			return i
		}
		u -= x
	}
	return len(w) - 1
}

// apportion splits total over weights by largest remainder (ties to the lower index).
func apportion(total int64, w []float64) []int64 {
	var sum float64
	for _, x := range w {
		sum += x
	}
	out := make([]int64, len(w))
	type rem struct {
		i int
		r float64
	}
	rems := make([]rem, len(w))
	var given int64
	for i, x := range w {
		q := float64(total) * x / sum
		out[i] = int64(math.Floor(q))
		given += out[i]
		rems[i] = rem{i, q - math.Floor(q)}
	}
	slices.SortStableFunc(rems, func(a, b rem) int { return cmp.Compare(b.r, a.r) })
	for k := 0; given < total && k < len(rems); k++ {
		out[rems[k].i]++
		given++
	}
	return out
}

func round4(x float64) float64 { return math.Round(x*1e4) / 1e4 }
