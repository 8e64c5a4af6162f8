package simulation

import (
	"fmt"
	"math"
	"slices"
	"time"
)

// A replay "as it happened" takes its deliveries from published figures: at each
// published date, each state's relocations from each state of relocation. Where the
// sources give a figure it is used exactly; where they give only totals, the rest is
// estimated and shown as such:
//
//  1. a state's total without the split by state of relocation is split as at the
//     nearest date where its split is published;
//  2. at a date with published Union totals, what the published states leave is
//     apportioned over the others by their figures at the nearest date where theirs
//     are published (largest remainder, so the totals hold exactly);
//  3. any state still unknown at a date is interpolated in time between its known
//     dates (held flat after the last).
//
// Between dates the cumulative figures are interpolated linearly by day.

type replayPlan struct {
	dates []time.Time
	src   []int           // indices of the states of relocation (benefitting)
	val   [][][]float64   // [date][state][source]
	known [][]bool        // [date][state]: the state's total is published
	split [][]bool        // [date][state]: its split is published too
	est   map[[2]int]bool // (date, state) estimated by rule 2
	obs   []Observation
}

type obsKey struct {
	d       int
	s, from int // -1 = all
}

func (m *Model) observed() error {
	p := &replayPlan{obs: m.S.Observed}
	for b := range m.States {
		if m.benef[b] {
			p.src = append(p.src, b)
		}
	}
	if len(p.src) == 0 {
		return errorf("benefitting", "a replay needs the states relocations came from")
	}
	given, err := m.givenFigures(p)
	if err != nil {
		return err
	}
	p.fill(len(m.States), given)
	p.splitTotals()                  // rule 1
	p.unionTotals(given, m.oblig[0]) // rule 2
	p.inTime(m.S.Start)              // rule 3
	m.replay = p
	m.monthlyReplay(p)
	return nil
}

// givenFigures checks the published figures and indexes them by (date, state, source).
func (m *Model) givenFigures(p *replayPlan) (map[obsKey]float64, error) {
	for _, o := range m.S.Observed {
		if !slices.ContainsFunc(p.dates, func(d time.Time) bool { return d.Equal(o.Date) }) {
			p.dates = append(p.dates, o.Date)
		}
	}
	slices.SortFunc(p.dates, func(a, b time.Time) int { return a.Compare(b) })
	given := map[obsKey]float64{}
	for k, o := range m.S.Observed {
		d, _ := slices.BinarySearchFunc(p.dates, o.Date, func(a, b time.Time) int { return a.Compare(b) })
		s, f := -1, -1
		if o.State != "" {
			i, ok := m.index[o.State]
			if !ok {
				return nil, errorf("observed", "row %d: %s is not participating", k+1, o.State)
			}
			s = i
		}
		if o.From != "" {
			if f = p.srcIndex(m.States, o.From); f < 0 {
				return nil, errorf("observed", "row %d: relocations from %s, which is not a benefitting state", k+1, o.From)
			}
		}
		if o.Value < 0 || o.Value > 1e8 {
			return nil, errorf("observed", "row %d: %d relocations out of range", k+1, o.Value)
		}
		if _, dup := given[obsKey{d, s, f}]; dup {
			return nil, errorf("observed", "row %d: a second figure for %s from %s on %s", k+1, orAll(o.State), orAll(o.From), o.Date.Format(time.DateOnly))
		}
		given[obsKey{d, s, f}] = float64(o.Value)
	}
	return given, nil
}

func (p *replayPlan) srcIndex(states []Code, c Code) int {
	for k, b := range p.src {
		if states[b] == c {
			return k
		}
	}
	return -2
}

// fill lays the published per-state figures into the matrix; a total without its
// split waits in the first source's cell until rule 1 splits it.
func (p *replayPlan) fill(n int, given map[obsKey]float64) {
	D, B := len(p.dates), len(p.src)
	p.val, p.known, p.split = make([][][]float64, D), make([][]bool, D), make([][]bool, D)
	for d := range D {
		p.val[d], p.known[d], p.split[d] = make([][]float64, n), make([]bool, n), make([]bool, n)
		for s := range n {
			p.val[d][s] = make([]float64, B)
			all := true
			for f := range B {
				v, ok := given[obsKey{d, s, f}]
				all = all && ok
				p.val[d][s][f] = v
			}
			tot, hasTot := given[obsKey{d, s, -1}]
			switch {
			case all:
				p.known[d][s], p.split[d][s] = true, true
			case hasTot:
				p.known[d][s] = true
				p.val[d][s][0] = tot
			}
		}
	}
}

// splitTotals is rule 1: a published total is split as at the nearest date with a
// published split.
func (p *replayPlan) splitTotals() {
	B := len(p.src)
	for d := range p.dates {
		for s := range p.val[d] {
			if !p.known[d][s] || p.split[d][s] {
				continue
			}
			tot := p.val[d][s][0]
			w := p.nearest(d, s, func(e int) bool { return p.split[e][s] })
			p.val[d][s] = spread(tot, w, B)
		}
	}
}

// unionTotals is rule 2: what the published states leave of a Union total goes to
// the others by their figures at the nearest date (or, where none is published,
// their commitment), by largest remainder so that the total holds exactly.
func (p *replayPlan) unionTotals(given map[obsKey]float64, commitment []float64) {
	B := len(p.src)
	for d := range p.dates {
		n := len(p.val[d])
		uf := make([]float64, B)
		allFrom := true
		for f := range B {
			v, ok := given[obsKey{d, -1, f}]
			uf[f] = v
			allFrom = allFrom && ok
		}
		tot, hasTot := given[obsKey{d, -1, -1}]
		if !allFrom && !hasTot {
			continue
		}
		var unknown []int
		for s := range n {
			if !p.known[d][s] {
				unknown = append(unknown, s)
			}
		}
		weights := func(f int) []float64 {
			w := make([]float64, len(unknown))
			for k, s := range unknown {
				near := p.nearest(d, s, func(e int) bool { return p.known[e][s] })
				if f < 0 {
					for _, x := range near {
						w[k] += x
					}
				} else if near != nil {
					w[k] = near[f]
				}
				if near == nil && commitment[s] > 0 {
					w[k] = commitment[s] // nobody published: the commitment
				}
			}
			return w
		}
		if allFrom {
			for f := range B {
				res := uf[f] - p.knownSum(d, f)
				for k, x := range largestRemainder(max(res, 0), weights(f)) {
					p.val[d][unknown[k]][f] = x
				}
			}
		} else {
			res := tot - p.knownSum(d, -1)
			for k, x := range largestRemainder(max(res, 0), weights(-1)) {
				s := unknown[k]
				p.val[d][s] = spread(x, p.nearest(d, s, func(e int) bool { return p.known[e][s] }), B)
			}
		}
		for _, s := range unknown {
			p.known[d][s] = true // estimated, now settled for rule 3
			p.split[d][s] = true
		}
		p.markEstimated(d, unknown)
	}
}

// knownSum adds the known states' figures at date d from source f (-1: all sources).
func (p *replayPlan) knownSum(d, f int) float64 {
	var sum float64
	for s := range p.val[d] {
		if !p.known[d][s] {
			continue
		}
		for g, x := range p.val[d][s] {
			if f < 0 || g == f {
				sum += x
			}
		}
	}
	return sum
}

// inTime is rule 3: what is still unknown is interpolated between known dates.
func (p *replayPlan) inTime(start time.Time) {
	for d := range p.dates {
		for s := range p.val[d] {
			if !p.known[d][s] {
				p.val[d][s] = p.interpolate(start, d, s)
			}
		}
	}
}

// monthlyReplay turns the plan into cumulative relocations at each month's end,
// per state of relocation and per state relocated from.
func (m *Model) monthlyReplay(p *replayPlan) {
	n := len(m.States)
	m.obsCum = make([][]float64, m.S.Months)
	m.obsFrom = make([][]float64, m.S.Months)
	for t := range m.S.Months {
		at := m.S.Start.AddDate(0, t+1, 0)
		m.obsCum[t], m.obsFrom[t] = make([]float64, n), make([]float64, n)
		for s := range n {
			for f, b := range p.src {
				x := p.at(m.S.Start, at, s, f)
				m.obsCum[t][s] += x
				m.obsFrom[t][b] += x
			}
		}
	}
}

func orAll(c Code) string {
	if c == "" {
		return "all"
	}
	return string(c)
}

// estimated marks, per date, the states whose figures rule 2 estimated.
func (p *replayPlan) markEstimated(d int, states []int) {
	if p.est == nil {
		p.est = map[[2]int]bool{}
	}
	for _, s := range states {
		p.est[[2]int{d, s}] = true
	}
}

// nearest returns the state's figures at the date nearest to d where ok holds.
func (p *replayPlan) nearest(d, s int, ok func(e int) bool) []float64 {
	best := -1
	for e := range p.dates {
		if e == d || !ok(e) {
			continue
		}
		if best < 0 || absDur(p.dates[e].Sub(p.dates[d])) < absDur(p.dates[best].Sub(p.dates[d])) {
			best = e
		}
	}
	if best < 0 {
		return nil
	}
	return p.val[best][s]
}

func absDur(d time.Duration) time.Duration {
	if d < 0 {
		return -d
	}
	return d
}

// interpolate estimates state s at date d from its known dates around it.
func (p *replayPlan) interpolate(start time.Time, d, s int) []float64 {
	B := len(p.src)
	prevT, prev := start, make([]float64, B)
	for e := d - 1; e >= 0; e-- {
		if p.known[e][s] {
			prevT, prev = p.dates[e], p.val[e][s]
			break
		}
	}
	for e := d + 1; e < len(p.dates); e++ {
		if p.known[e][s] {
			out := make([]float64, B)
			w := float64(p.dates[d].Sub(prevT)) / float64(p.dates[e].Sub(prevT))
			for f := range B {
				out[f] = math.Round(prev[f] + w*(p.val[e][s][f]-prev[f]))
			}
			return out
		}
	}
	return slices.Clone(prev)
}

// at is state s's cumulative relocations from source f at instant t, interpolated
// by day between the dates (0 at the start, flat after the last date).
func (p *replayPlan) at(start, t time.Time, s, f int) float64 {
	prevT, prev := start, 0.0
	for d, dt := range p.dates {
		if !dt.After(t) {
			prevT, prev = dt, p.val[d][s][f]
			continue
		}
		if !prevT.Before(dt) {
			return prev
		}
		w := float64(t.Sub(prevT)) / float64(dt.Sub(prevT))
		return prev + w*(p.val[d][s][f]-prev)
	}
	return prev
}

// spread splits tot over B sources in proportion to w (equally when w is nil or 0).
func spread(tot float64, w []float64, B int) []float64 {
	if len(w) != B {
		w = make([]float64, B) // no split anywhere: equal parts (an estimate, shown so)
	}
	return largestRemainder(tot, w)
}

// largestRemainder apportions the whole number tot over weights (equal weights when
// the weights are empty or sum to 0) so that the parts are whole and sum to tot.
func largestRemainder(tot float64, w []float64) []float64 {
	n := len(w)
	if n == 0 {
		return nil
	}
	var sum float64
	for _, x := range w {
		sum += max(x, 0)
	}
	out := make([]float64, n)
	rem := make([]float64, n)
	tot = math.Round(tot)
	var given float64
	for i, x := range w {
		q := tot / float64(n)
		if sum > 0 {
			q = tot * max(x, 0) / sum
		}
		out[i] = math.Floor(q)
		rem[i] = q - out[i]
		given += out[i]
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case rem[a] > rem[b]:
			return -1
		case rem[a] < rem[b]:
			return 1
		}
		return a - b
	})
	for k := 0; given < tot && k < n; k++ {
		out[order[k]]++
		given++
	}
	return out
}

// observedMonth books month t's deliveries from the published series and returns
// the persons relocated in the month.
func (m *Model) observedMonth(t int, v []float64) float64 {
	L := m.layout()
	var total float64
	for s := range m.States {
		prev, prevFrom := 0.0, 0.0
		if t > 0 {
			prev, prevFrom = m.obsCum[t-1][s], m.obsFrom[t-1][s]
		}
		d := m.obsCum[t][s] - prev
		v[L.state(s, sRelocIn)] += d
		if r := m.Params.Receipt.Value; r > 0 {
			v[L.state(s, sReceivedEUR)] += d * r
		}
		v[L.state(s, sRelocOut)] += m.obsFrom[t][s] - prevFrom
		total += d
	}
	return total
}

// Replay is what a replay met: every published figure with the replay's own, and
// the estimated figures beside them.
type Replay struct {
	Checkpoints []Checkpoint `json:"checkpoints"`
	Published   int          `json:"published"` // published figures compared
	Met         int          `json:"met"`       // of which the replay reproduces exactly
	// Compared are figures of other series (another cut-off day, another way of
	// counting) beside the replay's value on their date: how far the estimates and
	// the other series are apart.
	Compared []Comparison `json:"compared,omitempty"`
}

// Comparison is one figure of another series and the replay's value on its date.
type Comparison struct {
	Date      string `json:"date"`
	State     Code   `json:"state,omitempty"`
	From      Code   `json:"from,omitempty"`
	Published int64  `json:"published"`
	Replay    int64  `json:"replay"`
	Deviation int64  `json:"deviation"` // replay − published
	Source    string `json:"source,omitempty"`
	Certainty string `json:"certainty,omitempty"`
}

// compare puts the scenario's other published figures beside the replay's values; a
// figure for a state or source outside the replay, or a date outside the period, is
// left out.
func (m *Model) compare() []Comparison {
	p := m.replay
	var out []Comparison
	end := m.S.Start.AddDate(0, m.S.Months, 0)
	for _, o := range m.S.Published {
		if o.Date.Before(m.S.Start) || o.Date.After(end) {
			continue
		}
		states := []int{}
		if o.State == "" {
			for s := range m.States {
				states = append(states, s)
			}
		} else if i, ok := m.index[o.State]; ok {
			states = append(states, i)
		} else {
			continue
		}
		srcs := []int{}
		for f, b := range p.src {
			if o.From == "" || m.States[b] == o.From {
				srcs = append(srcs, f)
			}
		}
		if len(srcs) == 0 {
			continue
		}
		var v float64
		for _, s := range states {
			for _, f := range srcs {
				v += p.at(m.S.Start, o.Date, s, f)
			}
		}
		rv := int64(math.Round(v))
		out = append(out, Comparison{Date: o.Date.Format(time.DateOnly), State: o.State, From: o.From, Published: o.Value,
			Replay: rv, Deviation: rv - o.Value, Source: o.Source, Certainty: string(o.Certainty)})
	}
	return out
}

// Checkpoint is one figure at one date: by a state ("" = all) from a state of
// relocation ("" = all).
type Checkpoint struct {
	Date      string `json:"date"`
	State     Code   `json:"state,omitempty"`
	From      Code   `json:"from,omitempty"`
	Value     int64  `json:"value"`
	Estimated bool   `json:"estimated"`
	// Published is the published figure, when there is one; Met says the replay's
	// value equals it.
	Published *int64 `json:"published,omitempty"`
	// Percent is the value as "% of legal commitment", to one decimal as the
	// Commission's tables print it; PublishedPercent the printed one.
	Percent          string `json:"percent,omitempty"`
	PublishedPercent string `json:"published_percent,omitempty"`
	Met              *bool  `json:"met,omitempty"` // nil: nothing was published to meet
	Source           string `json:"source,omitempty"`
	Certainty        string `json:"certainty,omitempty"`
}

func (m *Model) replayResult() *Replay {
	p := m.replay
	r := &Replay{}
	pub := map[[3]string]Observation{}
	for _, o := range p.obs {
		pub[[3]string{o.Date.Format(time.DateOnly), string(o.State), string(o.From)}] = o
	}
	for d, dt := range p.dates {
		ds := dt.Format(time.DateOnly)
		add := func(state, from Code, v float64, est bool, oblig float64) {
			c := Checkpoint{Date: ds, State: state, From: from, Value: int64(math.Round(v)), Estimated: est}
			meet := func(ok bool) {
				if c.Met == nil || !ok {
					c.Met = &ok
				}
			}
			o, ok := pub[[3]string{ds, string(state), string(from)}]
			if ok {
				pv := o.Value
				c.Published, c.Source, c.Certainty, c.Estimated = &pv, o.Source, string(o.Certainty), false
				c.PublishedPercent = o.Percent
				r.Published++
				if pv == c.Value {
					r.Met++
				}
				meet(pv == c.Value)
			}
			if state != "" && from == "" && oblig > 0 {
				c.Percent = fmt.Sprintf("%.1f", 100*v/oblig)
				if c.PublishedPercent != "" {
					r.Published++
					if c.Percent == c.PublishedPercent {
						r.Met++
					}
					meet(c.Percent == c.PublishedPercent)
				}
			}
			r.Checkpoints = append(r.Checkpoints, c)
		}
		union := make([]float64, len(p.src))
		for s, c := range m.States {
			var tot float64
			est := p.est[[2]int{d, s}]
			for f, b := range p.src {
				x := p.val[d][s][f]
				tot += x
				union[f] += x
				if _, ok := pub[[3]string{ds, string(c), string(m.States[b])}]; ok {
					add(c, m.States[b], x, false, 0)
				}
			}
			_, published := pub[[3]string{ds, string(c), ""}]
			add(c, "", tot, est || !published && !p.split[d][s], m.oblig[0][s])
		}
		var all float64
		allPub := true // the total of published parts is published too
		for f, b := range p.src {
			all += union[f]
			_, ok := pub[[3]string{ds, "", string(m.States[b])}]
			allPub = allPub && ok
			add("", m.States[b], union[f], !ok, 0)
		}
		_, ok := pub[[3]string{ds, "", ""}]
		add("", "", all, !ok && !allPub, 0)
	}
	r.Compared = m.compare()
	return r
}
