package simulation

import (
	"context"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// Band is a figure over the runs: the median and the 5–95 % band. With no noise
// (or the expected run) all three are the same.
type Band struct {
	Median float64 `json:"median"`
	P5     float64 `json:"p5"`
	P95    float64 `json:"p95"`
}

// StateResult is one state's figures over the whole period.
type StateResult struct {
	State       Code   `json:"state"`
	Name        string `json:"name"`
	Benefitting bool   `json:"benefitting"`
	// KeyShare is the state's reference-key share (0 outside the key).
	KeyShare float64 `json:"key_share"`
	// FairShare and Obligation are summed over the pool years, in relocations
	// (relocation-equivalents); the obligation is after deductions.
	FairShare  int64   `json:"fair_share"`
	Obligation float64 `json:"obligation"`
	// Form is the choice's main form; ChoiceKnown is false where it is assumed.
	Form        string `json:"form"`
	ChoiceKnown bool   `json:"choice_known"`
	// The plan: what the choice puts in each form, in relocation-equivalents.
	PlannedRelocations float64 `json:"planned_relocations"`
	PlannedOffsets     float64 `json:"planned_offsets"`
	PlannedPayment     float64 `json:"planned_payment_units"`
	PlannedAlternative float64 `json:"planned_alternative_units"`
	PlannedRefusal     float64 `json:"planned_refusal_units"`

	Arrivals       Band `json:"arrivals"`
	Relocated      Band `json:"relocated_in"`
	RelocatedOut   Band `json:"relocated_out"`
	OffsetsIn      Band `json:"offsets_in"`
	OffsetsOut     Band `json:"offsets_out"`
	CorrectiveIn   Band `json:"corrective_in"`
	CorrectiveOut  Band `json:"corrective_out"`
	Responsibility Band `json:"responsibility"`
	// Deviation is the state's share of responsibility minus its key share, in
	// percentage points.
	Deviation Band `json:"deviation_pp"`
	PerCapita Band `json:"responsibility_per_1000"`
	Payment   Band `json:"payment_eur"`
	Measures  Band `json:"alternative_eur"`
	Refusal   Band `json:"refusal_cost_eur"`
	Refused   Band `json:"refused_units"`
	Received  Band `json:"received_eur"`
	NetCost   Band `json:"net_cost_eur"`
	Border    Band `json:"border_entries"`
	Returns   Band `json:"returns"`
	// Pressure is the state's share of the arrivals over its key share;
	// MayRequestDeduction says the expected run reaches the pressure threshold
	// (Art. 61(1), an assumption: see Operations.PressureThreshold).
	Pressure            Band `json:"pressure"`
	MayRequestDeduction bool `json:"may_request_deduction"`
}

// UnionResult is the Union's figures over the period.
type UnionResult struct {
	Need      Band `json:"need_units"`
	Pledged   Band `json:"pledged_units"`
	Delivered Band `json:"delivered_units"`
	Shortfall Band `json:"shortfall_units"`
	Coverage  Band `json:"coverage"` // pledged ÷ need
	// Places are the units pledged as relocations or offsets, PlaceCoverage their
	// share of the need: a payment covers the pool (Art. 64) but gives no one a place.
	Places Band `json:"places_units"`
	// Owed is the sum of the obligations: the need less the fair shares benefitting
	// states keep (Art. 58) and the deductions (Arts. 61–62). A shortfall below the
	// need that is not below what is owed is no one's failure.
	Owed          Band `json:"owed_units"`
	PlaceCoverage Band `json:"place_coverage"`
	Relocations   Band `json:"relocations"`
	Offsets       Band `json:"offsets"`
	Payments      Band `json:"payments_eur"`
	Refusals      Band `json:"refusal_cost_eur"`
	Arrivals      Band `json:"arrivals"`
	Border        Band `json:"border_entries"`
	Returns       Band `json:"returns"`
	GiniBefore    Band `json:"gini_before"`
	GiniAfter     Band `json:"gini_after"`
}

// Dependency says which results rest on an unknown number, and the value assumed.
type Dependency struct {
	Field   string   `json:"field"`
	Assumed float64  `json:"assumed"`
	Affects []string `json:"affects"`
}

// Result is a scenario's outcome over N runs (or the expected run when N is 0).
type Result struct {
	Scenario   string        `json:"scenario"`
	Title      string        `json:"title"`
	Rules      RuleSet       `json:"rules"`
	RulesTitle string        `json:"rules_title"`
	Runs       int           `json:"runs"`
	Seed       uint64        `json:"seed"`
	Months     []string      `json:"months"`
	States     []StateResult `json:"states"`
	Union      UnionResult   `json:"union"`
	// Coverage is the pool's delivered coverage at the end of each month;
	// Relocations the persons relocated by then.
	Coverage    []Band       `json:"coverage_by_month"`
	Relocations []Band       `json:"relocations_by_month"`
	Frontier    []Frontier   `json:"frontier"`
	Costs       []RuleCost   `json:"costs"`
	Replay      *Replay      `json:"replay,omitempty"`
	DependsOn   []Dependency `json:"depends_on"`
	Notes       []string     `json:"notes"`
}

// MaxRuns bounds one request's runs. The bands need every run's figures until the
// quantiles are taken: a 7-month year keeps about 4 KB a run (100 000 runs took
// 442 MB), a 36-month scenario several times that; 20 000 runs give the 5 % and
// 95 % quantiles to within a fraction of their band and stay under 300 MB.
const MaxRuns = 20_000

// Run computes s's result over runs seeded runs (0: the expected run alone).
func Run(ctx context.Context, s *Scenario, runs int, seed uint64) (*Result, error) {
	m, err := Prepare(s)
	if err != nil {
		return nil, err
	}
	return m.Result(ctx, runs, seed)
}

// Result runs the model runs times from seed and summarises. Run i draws, for each
// state, from PCG seeded (seed ^ hash(state), i), so the result is the same whatever
// the number of cores and the order of the states.
func (m *Model) Result(ctx context.Context, runs int, seed uint64) (*Result, error) {
	if runs < 0 || runs > MaxRuns {
		return nil, errorf("runs", "%d runs; want 0 to %d", runs, MaxRuns)
	}
	L := m.layout()
	size := L.size()
	expected := make([]float64, size)
	m.run(false, m.newScratch(), expected)
	cols := expected
	n := 1
	if runs > 0 {
		var err error
		if cols, err = m.draw(ctx, runs, seed); err != nil {
			return nil, err
		}
		n = runs
	}
	band := func(k int) Band { return quantiles(cols[k*n : (k+1)*n]) }
	r := &Result{Scenario: m.S.Name, Title: m.S.Title, Rules: m.Rules.Set, RulesTitle: m.Rules.Title, Runs: runs, Seed: seed}
	for t := range m.S.Months {
		r.Months = append(r.Months, m.S.Start.AddDate(0, t, 0).Format("2006-01"))
		r.Coverage = append(r.Coverage, band(L.coverage(t)))
		r.Relocations = append(r.Relocations, band(L.relocs(t)))
	}
	for i, c := range m.States {
		st := StateResult{State: c, Name: Name(c), Benefitting: m.benef[i], KeyShare: m.share[i]}
		ch, ok := m.S.Choices[c]
		if !ok {
			ch = m.S.DefaultChoice
		}
		st.Form, st.ChoiceKnown = ch.Form(), ch.Known
		if m.Rules.Set == DublinOnly {
			st.Form = ""
		}
		for y := range m.Years {
			st.FairShare += m.fair[y][i]
			st.Obligation += m.oblig[y][i]
			st.PlannedRelocations += m.planReloc[y][i]
			st.PlannedOffsets += m.planOffset[y][i]
			st.PlannedPayment += m.planPay[y][i]
			st.PlannedAlternative += m.planAlt[y][i]
			st.PlannedRefusal += m.planRefuse[y][i]
		}
		b := func(f int) Band { return band(L.state(i, f)) }
		st.Arrivals, st.Relocated, st.RelocatedOut = b(sArrivals), b(sRelocIn), b(sRelocOut)
		st.OffsetsIn, st.OffsetsOut, st.CorrectiveIn, st.CorrectiveOut = b(sOffsetIn), b(sOffsetOut), b(sCorrIn), b(sCorrOut)
		st.Responsibility, st.Deviation, st.PerCapita = b(sResponsibility), b(sDeviation), b(sPerCapita)
		st.Payment, st.Measures, st.Refusal, st.Refused = b(sPayEUR), b(sAltEUR), b(sRefusalEUR), b(sRefused)
		st.Received, st.NetCost, st.Border, st.Returns = b(sReceivedEUR), b(sNetCostEUR), b(sBorder), b(sReturns)
		st.Pressure = b(sPressure)
		// Art. 61(1): a deduction of the AMMR pool, for a contributing state.
		st.MayRequestDeduction = m.Rules.Set == AMMR2024 && m.inKey[i] && !m.benef[i] && expected[L.state(i, sPressure)] >= m.pressure
		r.States = append(r.States, st)
	}
	u := func(f int) Band { return band(L.union(f)) }
	U := &r.Union
	U.Need, U.Pledged, U.Delivered, U.Shortfall = u(uNeed), u(uPledged), u(uDelivered), u(uShortfall)
	U.Places, U.Owed = u(uPlaces), u(uOwed)
	U.Relocations, U.Offsets, U.Payments, U.Refusals = u(uRelocations), u(uOffsets), u(uPayEUR), u(uRefusalEUR)
	U.Arrivals, U.Border, U.Returns, U.GiniBefore, U.GiniAfter = u(uArrivals), u(uBorder), u(uReturns), u(uGiniBefore), u(uGiniAfter)
	if need := expected[L.union(uNeed)]; need > 0 {
		c := expected[L.union(uPledged)] / need
		U.Coverage = Band{c, c, c}
		p := expected[L.union(uPlaces)] / need
		U.PlaceCoverage = Band{p, p, p}
		if m.Rules.Set == DublinIV2016 {
			U.Coverage = ratioBand(U.Pledged, U.Need)
		}
	}
	r.Frontier = m.frontier()
	r.Costs = m.costs()
	if m.replay != nil {
		r.Replay = m.replayResult()
	}
	for _, d := range m.depends {
		r.DependsOn = append(r.DependsOn, Dependency{Field: d.Field, Assumed: d.Value, Affects: d.Affects})
	}
	// By field: the same scenario lists them in the same order, whatever the order of
	// the maps they came from.
	slices.SortFunc(r.DependsOn, func(a, b Dependency) int { return strings.Compare(a.Field, b.Field) })
	r.Notes = m.notes()
	return r, nil
}

func ratioBand(a, b Band) Band {
	f := func(x, y float64) float64 {
		if y == 0 {
			return 0
		}
		return x / y
	}
	return Band{f(a.Median, b.Median), f(a.P5, b.P5), f(a.P95, b.P95)}
}

// draw runs the model runs times on every core and returns the figures column by
// column: figure k of run i at [k*runs+i].
func (m *Model) draw(ctx context.Context, runs int, seed uint64) ([]float64, error) {
	size := m.layout().size()
	cols := make([]float64, size*runs)
	workers := min(runtime.GOMAXPROCS(0), max(runs/64, 1))
	var wg sync.WaitGroup
	errs := make([]error, workers)
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sc := m.newScratch()
			v := make([]float64, size)
			for i := w; i < runs; i += workers {
				if i%256 == w && ctx.Err() != nil {
					errs[w] = ctx.Err()
					return
				}
				clear(v)
				m.seed(sc, seed, i)
				m.run(true, sc, v)
				for k, x := range v {
					cols[k*runs+i] = x
				}
			}
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	// Quantiles sort each column in place: in parallel too.
	return cols, nil
}

// quantiles returns the median and the 5 % and 95 % quantiles of xs (sorted in
// place), interpolating linearly between order statistics (Hyndman and Fan type 7).
func quantiles(xs []float64) Band {
	if len(xs) == 1 {
		return Band{xs[0], xs[0], xs[0]}
	}
	slices.Sort(xs)
	q := func(p float64) float64 {
		h := p * float64(len(xs)-1)
		lo := math.Floor(h)
		i := int(lo)
		if i+1 >= len(xs) {
			return xs[len(xs)-1]
		}
		return xs[i] + (h-lo)*(xs[i+1]-xs[i])
	}
	return Band{q(0.5), q(0.05), q(0.95)}
}
