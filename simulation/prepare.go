package simulation

import (
	"maps"
	"math"
	"slices"
	"time"

	"solidarity"
	"solidarity/pool"
)

// Model is a scenario with its fixed parts computed once: the states, the key, the
// obligations of every pool year and each state's plan. Runs only draw and add up.
type Model struct {
	S      *Scenario
	Rules  Rules
	Params RuleParams

	States []Code
	index  map[Code]int
	benef  []bool // keeps its fair share, does not implement; relocations come from it
	inKey  []bool
	share  []float64 // key share (0 where not in the key)
	pop    []float64 // 0 where unknown

	Years int
	// fair and oblig are per pool year and state, in relocation-equivalents.
	fair  [][]int64
	oblig [][]float64
	// plan: per year and state, the units the state's choice puts in each form.
	planReloc, planPay, planOffset, planAlt, planRefuse [][]float64

	mean [][]float64 // per month and state: expected arrivals after scale
	// per state: the share of arrivals that goes to the border procedure (by the
	// nationality mix) and the share of those refused.
	borderShare, borderNeg []float64
	borderCap              []float64 // per month; 0 = no border procedure modelled

	obsCum  [][]float64 // observed mode: cumulative deliveries per month-end and state; nil otherwise
	obsFrom [][]float64 // observed mode: cumulative deliveries per month-end out of each benefitting state (same index as States)
	replay  *replayPlan

	lead       int
	delivery   float64
	eligible   float64
	returns    float64
	offsetVal  float64 // value of one pledged offset in relocation-equivalents
	rArr, rDel float64
	pressure   float64

	depends []dependency
	// otherForms2015 are the states whose choice under the 2015 rules is a form the
	// Decisions do not know, counted as not relocated.
	otherForms2015 []Code
}

type dependency struct {
	Field   string
	Value   float64
	Affects []string
}

// Prepare checks s and computes its fixed parts.
func Prepare(s *Scenario) (*Model, error) {
	r, err := Lookup(s.Rules)
	if err != nil {
		return nil, err
	}
	if s.Months < 1 || s.Months > 120 {
		return nil, errorf("months", "the period has %d months; want 1 to 120", s.Months)
	}
	if len(s.Participating) == 0 {
		return nil, errorf("participating", "no participating states")
	}
	m := &Model{S: s, Rules: r, Params: s.Params.effective(r), index: map[Code]int{}}
	if err := m.Params.check(); err != nil {
		return nil, err
	}
	m.Years = (s.Months + 11) / 12
	for _, c := range s.Participating {
		if !ValidCode(c) {
			return nil, errorf("participating", "unknown state %q", c)
		}
		if _, dup := m.index[c]; dup {
			return nil, errorf("participating", "%s named twice", c)
		}
		m.index[c] = len(m.States)
		m.States = append(m.States, c)
	}
	n := len(m.States)
	m.benef, m.inKey = make([]bool, n), make([]bool, n)
	m.share, m.pop = make([]float64, n), make([]float64, n)
	for _, b := range s.Benefitting {
		i, ok := m.index[b]
		if !ok {
			return nil, errorf("benefitting", "benefitting state %s is not participating", b)
		}
		m.benef[i] = true
	}
	if s.Key != nil {
		for _, sh := range s.Key.Shares {
			if i, ok := m.index[sh.State]; ok {
				m.inKey[i] = true
				m.share[i], _ = sh.Share.Float64()
			}
		}
	}
	for c, p := range s.Population {
		if i, ok := m.index[c]; ok {
			m.pop[i] = float64(p)
		}
	}
	if err := m.operations(); err != nil {
		return nil, err
	}
	if err := m.arrivals(); err != nil {
		return nil, err
	}
	if err := m.obligations(); err != nil {
		return nil, err
	}
	if err := m.plans(); err != nil {
		return nil, err
	}
	if len(s.Observed) > 0 {
		if err := m.observed(); err != nil {
			return nil, err
		}
	}
	return m, nil
}

// note records that results depend on an unknown number.
func (m *Model) note(n Number, affects ...string) float64 {
	if !n.Known && n.Name != "" {
		for i := range m.depends {
			if m.depends[i].Field == n.Name {
				for _, a := range affects {
					if !slices.Contains(m.depends[i].Affects, a) {
						m.depends[i].Affects = append(m.depends[i].Affects, a)
					}
				}
				return n.Value
			}
		}
		m.depends = append(m.depends, dependency{Field: n.Name, Value: n.Value, Affects: affects})
	}
	return n.Value
}

// orDefault is n, or the default the engine takes for it when the scenario leaves it
// out: an assumption too, listed under its field.
func orDefault(n Number, field string, def float64) Number {
	if n.Name == "" {
		return Number{Name: field, Value: def}
	}
	return n
}

func rate(field string, n Number, def float64) (float64, error) {
	if n.Name == "" {
		return def, nil
	}
	if math.IsNaN(n.Value) || n.Value < 0 || n.Value > 1 {
		return 0, errorf(field, "%s is %v; want a fraction from 0 to 1", field, n.Value)
	}
	return n.Value, nil
}

func (m *Model) operations() error {
	o := m.S.Ops
	var err error
	if m.delivery, err = rate("operations.delivery_rate", o.DeliveryRate, 1); err != nil {
		return err
	}
	m.note(orDefault(o.DeliveryRate, "operations.delivery_rate", 1), "relocations delivered", "coverage")
	if m.eligible, err = rate("operations.eligible_share", o.EligibleShare, 1); err != nil {
		return err
	}
	m.note(orDefault(o.EligibleShare, "operations.eligible_share", 1), "relocations delivered")
	if m.returns, err = rate("operations.return_rate", o.ReturnRate, 0); err != nil {
		return err
	}
	if len(o.BorderCapacity) > 0 {
		m.note(orDefault(o.ReturnRate, "operations.return_rate", 0), "returns")
		m.note(orDefault(o.BorderThreshold, "operations.border_threshold", 0.2), "border procedure", "returns")
	}
	m.pressure = 1
	if m.Rules.Set == AMMR2024 {
		m.note(orDefault(o.PressureThreshold, "operations.pressure_threshold", 1), "deduction eligibility")
	}
	if o.PressureThreshold.Name != "" {
		if o.PressureThreshold.Value <= 0 || o.PressureThreshold.Value > 100 {
			return errorf("operations.pressure_threshold", "threshold %v; want above 0, at most 100", o.PressureThreshold.Value)
		}
		m.pressure = m.note(o.PressureThreshold, "deduction eligibility")
	}
	m.offsetVal = 1
	if o.OffsetsAtTransferRatio {
		if m.offsetVal, err = rate("operations.dublin_transfer_ratio", o.DublinTransferRatio, 1); err != nil {
			return err
		}
		m.note(o.DublinTransferRatio, "offsets", "coverage")
	}
	if o.LeadMonths.Name != "" {
		if o.LeadMonths.Value < 0 || o.LeadMonths.Value > 24 {
			return errorf("operations.lead_months", "lead time %v months; want 0 to 24", o.LeadMonths.Value)
		}
		m.lead = int(math.Round(o.LeadMonths.Value))
		m.note(o.LeadMonths, "relocations delivered")
	}
	for _, d := range []struct {
		f   string
		n   Number
		dst *float64
	}{{"uncertainty.arrivals_dispersion", m.S.Uncertainty.ArrivalsDispersion, &m.rArr}, {"uncertainty.delivery_dispersion", m.S.Uncertainty.DeliveryDispersion, &m.rDel}} {
		if d.n.Value < 0 || d.n.Value > 1e9 || math.IsNaN(d.n.Value) {
			return errorf(d.f, "dispersion %v; want 0 (none) or a positive size", d.n.Value)
		}
		*d.dst = d.n.Value
		if d.n.Value > 0 {
			m.note(d.n, "bands")
		}
	}
	return nil
}

// arrivals sums the means per month and state and derives each state's border
// procedure shares from its nationality mix: nationalities whose recognition rate is
// at or below the threshold go to the border procedure (Regulation (EU) 2024/1348
// Art. 42(1)(j)); a nationality without a rate counts as not in it, and the output says
// the border figures depend on the unknown rate.
func (m *Model) arrivals() error {
	n, o := len(m.States), m.S.Ops
	scale := 1.0
	if o.ArrivalsScale.Name != "" {
		if o.ArrivalsScale.Value < 0 || o.ArrivalsScale.Value > 10 {
			return errorf("operations.arrivals_scale", "scale %v; want 0 to 10", o.ArrivalsScale.Value)
		}
		scale = m.note(o.ArrivalsScale, "arrivals")
	}
	m.mean = make([][]float64, m.S.Months)
	for t := range m.mean {
		m.mean[t] = make([]float64, n)
	}
	threshold, err := rate("operations.border_threshold", o.BorderThreshold, 0.2)
	if err != nil {
		return err
	}
	for _, nat := range slices.Sorted(maps.Keys(o.Recognition)) {
		if _, err := rate("operations.recognition."+nat, o.Recognition[nat], 0); err != nil {
			return err
		}
	}
	known := make([]float64, n) // arrivals with a known nationality
	inBorder := make([]float64, n)
	neg := make([]float64, n)
	for k, a := range m.S.Arrivals {
		i, ok := m.index[a.State]
		if !ok {
			continue // arrivals in a state outside the scheme stay its own
		}
		if a.Month < 0 || a.Month >= m.S.Months || a.Mean < 0 || math.IsNaN(a.Mean) || a.Mean > 1e9 {
			return errorf("arrivals", "row %d: month %d or mean %v out of range", k+1, a.Month, a.Mean)
		}
		v := a.Mean * scale
		m.mean[a.Month][i] += v
		if a.Nationality == "" {
			continue
		}
		known[i] += v
		rr, ok := o.Recognition[a.Nationality]
		if !ok {
			m.note(Number{Name: "operations.recognition." + a.Nationality}, "border procedure", "returns")
			continue
		}
		m.note(rr, "border procedure", "returns")
		if rr.Value <= threshold {
			inBorder[i] += v
			neg[i] += v * (1 - rr.Value)
		}
	}
	m.borderShare, m.borderNeg, m.borderCap = make([]float64, n), make([]float64, n), make([]float64, n)
	total := make([]float64, n)
	for t := range m.mean {
		for i, v := range m.mean[t] {
			total[i] += v
		}
	}
	for i := range n {
		if total[i] > 0 && known[i] > 0 {
			// Nationality rows are a mix: apply it to all arrivals of the state.
			m.borderShare[i] = inBorder[i] / known[i]
		}
		if inBorder[i] > 0 {
			m.borderNeg[i] = neg[i] / inBorder[i]
		}
	}
	for c, capa := range o.BorderCapacity {
		i, ok := m.index[c]
		if !ok {
			return errorf("operations.border_capacity", "%s is not participating", c)
		}
		if capa.Value < 0 || capa.Value > 1e9 {
			return errorf("operations.border_capacity."+string(c), "capacity %v; want 0 to 1e9", capa.Value)
		}
		m.borderCap[i] = m.note(capa, "border procedure", "returns")
	}
	return nil
}

// obligations computes each pool year's fair shares and obligations under the rule set.
func (m *Model) obligations() error {
	n := len(m.States)
	m.fair, m.oblig = make([][]int64, m.Years), make([][]float64, m.Years)
	for y := range m.Years {
		m.fair[y], m.oblig[y] = make([]int64, n), make([]float64, n)
	}
	switch m.Rules.Set {
	case AMMR2024:
		return m.ammr()
	case Council2015:
		return m.council2015()
	}
	return nil // Dublin IV allocates month by month; Dublin only shares nothing
}

// ammr computes the pool of one year with the pool package (Arts. 57, 61–62, 66):
// the same code that computes the real pool, on a cycle built from the scenario.
func (m *Model) ammr() error {
	if m.S.Key == nil {
		return errorf("population", "the AMMR rules need the reference key (population and GDP)")
	}
	ref := m.Params.Reference
	if ref.Value < 1 || ref.Value > 1e7 {
		return errorf("reference", "reference number %v; want 1 to 10 000 000", ref.Value)
	}
	m.note(ref, "fair shares", "coverage")
	c := &solidarity.Cycle{Year: m.S.Start.Year(), Title: m.S.Title, Illustrative: true, Statuses: map[solidarity.MemberState]solidarity.Status{}}
	if m.S.Cycle != nil {
		// A shipped cycle brings its statuses and deductions (Arts. 61–62).
		cc := *m.S.Cycle
		c = &cc
		c.Statuses = maps.Clone(m.S.Cycle.Statuses)
		c.Pledges = nil // the scenario's choices replace the pledges
	}
	c.Participating = nil
	for _, sh := range m.S.Key.Shares {
		c.Participating = append(c.Participating, sh.State)
	}
	// The scenario says who benefits (Art. 58): it may add to the cycle's benefitting
	// states or take one away.
	for i, b := range m.benef {
		if m.States[i].Valid() {
			st := c.Statuses[m.States[i]]
			st.Benefitting = b
			c.Statuses[m.States[i]] = st
		}
	}
	c.Reference.Relocations = int64(math.Round(ref.Value))
	price := m.Params.Price.Value
	c.EURPerRelocation = solidarity.EUR(int64(math.Round(price)))
	c.Reference.EUR = solidarity.Cents(c.Reference.Relocations) * c.EURPerRelocation
	if m.Params.Proposal.Value > 0 {
		c.Proposal.Relocations = int64(math.Round(m.Params.Proposal.Value))
	} else {
		c.Proposal.Relocations = c.Reference.Relocations
	}
	c.Proposal.EUR = solidarity.Cents(c.Proposal.Relocations) * c.EURPerRelocation
	res, err := pool.Compute(c, m.S.Key, m.Params.Method, time.Time{})
	if err != nil {
		return err
	}
	for _, st := range res.States {
		i, ok := m.index[st.State]
		if !ok {
			continue
		}
		o, _ := st.Obligation.Float64()
		for y := range m.Years {
			m.fair[y][i] = st.FairShare
			m.oblig[y][i] = o
		}
	}
	return nil
}

// council2015 takes the legal commitments (the annexes of 2015/1601 and the pledges
// under 2015/1523, historical-data.md §1.6), or the 2015 key in percent × the scheme's
// size. The scheme ran once: every commitment belongs to the first "year", which here
// is the whole period.
func (m *Model) council2015() error {
	m.Years = 1
	m.fair, m.oblig = m.fair[:1], m.oblig[:1]
	for c, v := range m.S.Commitments {
		i, ok := m.index[c]
		if !ok {
			return errorf("commitments", "%s has a commitment but is not participating", c)
		}
		if v.Value < 0 || v.Value > 1e7 {
			return errorf("commitments."+string(c), "commitment %v out of range", v.Value)
		}
		m.fair[0][i] = int64(math.Round(v.Value))
		m.oblig[0][i] = v.Value
		m.note(v, "obligations")
	}
	if len(m.S.Commitments) > 0 {
		return nil
	}
	if len(m.S.KeyPercent) == 0 && m.S.Key == nil {
		return errorf("commitments", "the 2015 rules need commitments, key_percent or the reference key")
	}
	// The scheme's size: the reference number for each pool year of the period, so
	// that the rule sets compare on the same need.
	ref := m.Params.Reference
	if ref.Value < 1 || ref.Value > 1e7 {
		return errorf("reference", "reference number %v; want 1 to 10 000 000", ref.Value)
	}
	m.note(ref, "obligations")
	size := ref.Value * float64((m.S.Months+11)/12)
	weights := make([]float64, len(m.States))
	if len(m.S.KeyPercent) == 0 {
		// No 2015 key in the file: the Art. 66 key stands in for it (both weigh
		// population and GDP; the 2015 key also weighs unemployment and past
		// applications, §1.2).
		copy(weights, m.share)
	}
	for c, v := range m.S.KeyPercent {
		i, ok := m.index[c]
		if !ok {
			return errorf("key_percent", "%s has a key share but is not participating", c)
		}
		if v.Value < 0 || v.Value > 100 {
			return errorf("key_percent."+string(c), "key %v %% out of range", v.Value)
		}
		weights[i] = v.Value
		m.note(v, "obligations")
	}
	var sum float64
	for _, w := range weights {
		sum += w
	}
	if sum <= 0 {
		return errorf("key_percent", "the key sums to 0")
	}
	for i, w := range weights {
		if m.benef[i] {
			continue // the states of relocation contribute nothing (2015/1601 recital 26)
		}
		q := w / sum * size
		m.fair[0][i] = int64(math.Round(q))
		m.oblig[0][i] = q
	}
	return nil
}

// plans splits each obligation into the forms of the state's choice.
func (m *Model) plans() error {
	n := len(m.States)
	mk := func() [][]float64 {
		v := make([][]float64, m.Years)
		for y := range v {
			v[y] = make([]float64, n)
		}
		return v
	}
	m.planReloc, m.planPay, m.planOffset, m.planAlt, m.planRefuse = mk(), mk(), mk(), mk(), mk()
	for i, c := range m.States {
		ch, ok := m.S.Choices[c]
		if !ok {
			ch = m.S.DefaultChoice
		}
		if err := ch.check("choice." + string(c)); err != nil {
			return err
		}
		if !ch.Known {
			m.note(Number{Name: "choice." + string(c), Value: ch.Relocate}, "relocations delivered", "payments", "coverage")
		}
		if m.Rules.Set == Council2015 && ch.Relocate < 1-1e-12 && ch.Refuse() < 1-ch.Relocate-1e-12 {
			// Decisions 2015/1523 and 2015/1601 know only relocation: a state that
			// pays, offsets or gives other support instead has not met its
			// commitment (C-715/17, C-718/17, C-719/17).
			m.otherForms2015 = append(m.otherForms2015, c)
			ch = Choice{Relocate: ch.Relocate, Known: ch.Known, Fact: ch.Fact}
		}
		for y := range m.Years {
			o := m.oblig[y][i]
			m.planReloc[y][i] = o * ch.Relocate
			m.planPay[y][i] = o * ch.Pay
			m.planOffset[y][i] = o * ch.Offset
			m.planAlt[y][i] = o * ch.Alternative
			m.planRefuse[y][i] = o * ch.Refuse()
		}
	}
	return nil
}

func (c Choice) check(field string) error {
	for _, v := range []float64{c.Relocate, c.Pay, c.Offset, c.Alternative} {
		if math.IsNaN(v) || v < 0 || v > 1 {
			return errorf(field, "a fraction of %v; want 0 to 100 %%", v)
		}
	}
	if c.Relocate+c.Pay+c.Offset+c.Alternative > 1+1e-9 {
		return errorf(field, "the fractions add up to more than 100 %%")
	}
	return nil
}
