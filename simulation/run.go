package simulation

import (
	"math"
	"math/rand/v2"
)

// The per-state figures of a run, as offsets into a run's vector.
const (
	sArrivals = iota
	sRelocIn
	sRelocOut
	sOffsetIn
	sOffsetOut
	sCorrIn
	sCorrOut
	sResponsibility
	sPayEUR
	sAltEUR
	sRefusalEUR
	sReceivedEUR
	sNetCostEUR
	sBorder
	sReturns
	sDeviation
	sRefused
	sPerCapita // responsibility per 1 000 inhabitants
	sPressure  // share of the arrivals over the key share
	nState
)

// The Union's figures of a run.
const (
	uNeed        = iota // units the pool (or the scheme, or the corrective allocation) needs
	uPledged            // units pledged in any form
	uPlaces             // units pledged as relocations or offsets: places for people, not money
	uOwed               // units owed: the obligations, i.e. the need less what benefitting states keep and deductions relieve
	uDelivered          // units delivered by the end: relocations, offsets, payments, measures
	uShortfall          // need − delivered, at least 0
	uRelocations        // persons relocated
	uOffsets            // effective offsets
	uPayEUR             // payments and alternative measures, in euro
	uRefusalEUR         // what refusals cost
	uBorder             // border-procedure entries
	uReturns            // returns after a negative border decision
	uGiniBefore         // Gini of arrivals per capita
	uGiniAfter          // Gini of responsibility per capita
	uArrivals
	nUnion
)

// layout places the figures of one run in one vector: states, then the Union, then
// two monthly series (delivered coverage and cumulative relocations).
type layout struct{ states, months int }

func (l layout) state(i, f int) int { return i*nState + f }
func (l layout) union(f int) int    { return l.states*nState + f }
func (l layout) coverage(t int) int { return l.states*nState + nUnion + t }
func (l layout) relocs(t int) int   { return l.states*nState + nUnion + l.months + t }
func (l layout) size() int          { return l.states*nState + nUnion + 2*l.months }

func (m *Model) layout() layout { return layout{len(m.States), m.S.Months} }

// scratch is the working memory of one run, reused across runs of one worker.
type scratch struct {
	a, eligible, out, cumA      []float64
	delivY, excess, room, moved []float64
	// One random stream per state, keyed by the state's code and the run, so that a
	// state's draws do not depend on where it stands in the list.
	src []*rand.PCG
	rng []*rand.Rand
}

func (m *Model) newScratch() *scratch {
	n := len(m.States)
	mk := func() []float64 { return make([]float64, n) }
	sc := &scratch{a: mk(), eligible: mk(), out: mk(), cumA: mk(), delivY: mk(), excess: mk(), room: mk(), moved: mk()}
	for range n {
		src := rand.NewPCG(0, 0)
		sc.src, sc.rng = append(sc.src, src), append(sc.rng, rand.New(src))
	}
	return sc
}

// seed sets the streams of run i from seed.
func (m *Model) seed(sc *scratch, seed uint64, i int) {
	for k, c := range m.States {
		sc.src[k].Seed(seed^codeHash(c), uint64(i))
	}
}

// codeHash spreads a state code over 64 bits (FNV-1a).
func codeHash(c Code) uint64 {
	h := uint64(14695981039346656037)
	for i := range len(c) {
		h ^= uint64(c[i])
		h *= 1099511628211
	}
	return h
}

// yearOf places month t in its pool year: the year, the month within it and the
// year's months inside the period. A pool year is 12 months (AMMR Art. 57(1)); the
// 2015 scheme ran once, over the whole period (Decisions 2015/1523 and 2015/1601).
func (m *Model) yearOf(t int) (y, ty, my int) {
	L := 12
	if m.Rules.Set == Council2015 {
		L = m.S.Months
	}
	y, ty = t/L, t%L
	return y, ty, min(L, m.S.Months-L*y)
}

// run fills v (length layout().size(), zeroed) with one run drawn from the streams of
// sc when noisy, or the expected run (every mean taken as it is) when not.
func (m *Model) run(noisy bool, sc *scratch, v []float64) {
	L := m.layout()
	n := len(m.States)
	clear(sc.eligible)
	clear(sc.out)
	var need, deliveredUnits, relocTotal float64
	price := m.Params.Price.Value
	for t := range m.S.Months {
		y, ty, my := m.yearOf(t)
		if ty == 0 {
			clear(sc.cumA)
			clear(sc.delivY)
			need += m.yearNeed(y)
			if m.Rules.Set == AMMR2024 || m.Rules.Set == Council2015 {
				// Payments and alternative measures count from the year's start
				// (Art. 60(3): implemented by the pool's end; paid at once here).
				for i := range n {
					pay := m.planPay[y][i] * price
					alt := m.planAlt[y][i] * price
					v[L.state(i, sPayEUR)] += pay
					v[L.state(i, sAltEUR)] += alt
					deliveredUnits += m.planPay[y][i] + m.planAlt[y][i]
					if m.Rules.Set == AMMR2024 {
						v[L.state(i, sRefusalEUR)] += m.planRefuse[y][i] * price
						v[L.state(i, sRefused)] += m.planRefuse[y][i]
					}
				}
			}
		}
		// Arrivals and the border procedure.
		for i := range n {
			mu := m.mean[t][i]
			a := mu
			if noisy {
				a = negBin(sc.rng[i], mu, m.rArr)
			}
			sc.a[i] = a
			v[L.state(i, sArrivals)] += a
			if m.benef[i] {
				sc.eligible[i] += a * m.eligible
			}
			if m.borderCap[i] > 0 {
				e := min(a*m.borderShare[i], m.borderCap[i])
				v[L.state(i, sBorder)] += e
				v[L.state(i, sReturns)] += e * m.borderNeg[i] * m.returns
			}
		}
		switch {
		case m.obsCum != nil:
			relocTotal += m.observedMonth(t, v)
		case m.Rules.Set == AMMR2024 || m.Rules.Set == Council2015:
			r, off := m.deliver(noisy, sc, t, y, ty, my, v)
			relocTotal += r
			deliveredUnits += r + off
		case m.Rules.Set == DublinIV2016:
			need += m.corrective(sc, v)
		}
		if m.Rules.Set == DublinIV2016 {
			var moved float64
			for i := range n {
				moved += v[L.state(i, sCorrIn)]
			}
			relocTotal, deliveredUnits = moved, moved
		}
		if m.obsCum != nil {
			deliveredUnits = relocTotal
		}
		if need > 0 {
			v[L.coverage(t)] = deliveredUnits / need
		}
		v[L.relocs(t)] = relocTotal
	}
	m.finish(v, need, deliveredUnits, relocTotal)
}

// yearNeed is what the pool of year y asks for, in units.
func (m *Model) yearNeed(y int) float64 {
	switch m.Rules.Set {
	case AMMR2024:
		return m.Params.Reference.Value
	case Council2015:
		if y > 0 {
			return 0
		}
		var s float64
		for i := range m.States {
			s += m.oblig[0][i]
		}
		return s
	}
	return 0
}

// deliver carries out month t's relocations and offsets of the pool year y.
// Each contributing state delivers its pledge evenly over the months after the lead
// time; a draw makes a month faster or slower; no state delivers more than its plan,
// and no more people are relocated than the benefitting states have candidates.
func (m *Model) deliver(noisy bool, sc *scratch, t, y, ty, my int, v []float64) (relocated, offsets float64) {
	L := m.layout()
	if ty < m.lead && ty < my-1 {
		return 0, 0
	}
	left := float64(my - max(m.lead, 0) - (ty - max(m.lead, 0)))
	if ty < m.lead || left < 1 {
		left = 1
	}
	var want float64
	for j := range m.States {
		// Offsets: evenly, no draw (an offset is a decision on a file, not a flight).
		o := m.planOffset[y][j] / float64(max(my-m.lead, 1)) * m.offsetVal
		v[L.state(j, sOffsetIn)] += o
		offsets += o
		plan := m.planReloc[y][j] * m.delivery
		rem := plan - sc.delivY[j]
		if rem <= 0 {
			sc.out[j] = 0
			continue
		}
		d := rem / left
		if noisy {
			d = negBin(sc.rng[j], d, m.rDel)
		}
		d = min(d, rem)
		sc.out[j] = d
		want += d
	}
	var avail float64
	for b := range m.States {
		if m.benef[b] {
			avail += max(sc.eligible[b]-v[L.state(b, sRelocOut)], 0)
		}
	}
	scale := 1.0
	if want > avail {
		scale = avail / want
	}
	for j := range m.States {
		d := sc.out[j] * scale
		sc.delivY[j] += d
		v[L.state(j, sRelocIn)] += d
		if r := m.Params.Receipt.Value; r > 0 {
			v[L.state(j, sReceivedEUR)] += d * r
		}
		relocated += d
	}
	// Take the people from the benefitting states in proportion to their candidates,
	// and the offsets from them in proportion to this month's arrivals.
	var arr float64
	for b := range m.States {
		if m.benef[b] {
			arr += sc.a[b]
		}
	}
	for b := range m.States {
		if !m.benef[b] {
			continue
		}
		if avail > 0 {
			v[L.state(b, sRelocOut)] += relocated * max(sc.eligible[b]-v[L.state(b, sRelocOut)], 0) / avail
		}
		if arr > 0 {
			v[L.state(b, sOffsetOut)] += offsets * sc.a[b] / arr
		}
	}
	return relocated, offsets
}

// corrective is the Dublin IV allocation of one month (COM(2016) 270): the month's
// applications that take a state above Trigger × its reference share go to the
// states below their share, in proportion to the key and up to it; a state that
// refuses pays Price per applicant, who goes to the others. It returns the
// applications that needed allocation.
func (m *Model) corrective(sc *scratch, v []float64) float64 {
	L := m.layout()
	trig := m.Params.Trigger.Value
	var total float64
	for i := range m.States {
		if m.inKey[i] {
			total += sc.cumA[i] + sc.a[i]
		}
	}
	var excess float64
	for i := range m.States {
		sc.excess[i], sc.room[i] = 0, 0
		if !m.inKey[i] {
			continue
		}
		have := sc.cumA[i] + sc.a[i]
		ref := m.share[i] * total
		if over := have - trig*ref; over > 0 {
			sc.excess[i] = min(sc.a[i], over)
			excess += sc.excess[i]
		} else if have < ref {
			sc.room[i] = ref - have
		}
	}
	placed := 0.0
	clear(sc.moved)
	if excess > 0 {
		// Water-filling: in proportion to the key, capped by room, three passes.
		left := excess
		for range 3 {
			var w float64
			for j := range m.States {
				if sc.room[j]-sc.moved[j] > 1e-9 {
					w += m.share[j]
				}
			}
			if w == 0 || left < 1e-9 {
				break
			}
			give := left
			for j := range m.States {
				if r := sc.room[j] - sc.moved[j]; r > 1e-9 {
					g := min(give*m.share[j]/w, r)
					sc.moved[j] += g
					left -= g
				}
			}
		}
		placed = excess - left
		// Refusals: the refused part goes to the states that do not refuse.
		var refused, wTake float64
		for j := range m.States {
			f := m.refuseFraction(j)
			r := sc.moved[j] * f
			if r > 0 {
				sc.moved[j] -= r
				refused += r
				v[L.state(j, sRefusalEUR)] += r * m.Params.Price.Value
				v[L.state(j, sRefused)] += r
			}
			// Refused applicants go to the states that take and are not themselves
			// above the trigger (they are the ones sending applicants out).
			if f < 1 && m.inKey[j] && sc.excess[j] == 0 {
				wTake += m.share[j] * (1 - f)
			}
		}
		if refused > 0 && wTake > 0 {
			for j := range m.States {
				if f := m.refuseFraction(j); f < 1 && m.inKey[j] && sc.excess[j] == 0 {
					g := refused * m.share[j] * (1 - f) / wTake
					sc.moved[j] += g
					v[L.state(j, sReceivedEUR)] += g * m.Params.Price.Value
				}
			}
		} else if refused > 0 {
			placed -= refused // nobody takes them: they stay where they arrived
		}
		for j := range m.States {
			v[L.state(j, sCorrIn)] += sc.moved[j]
		}
		for i := range m.States {
			if sc.excess[i] > 0 {
				v[L.state(i, sCorrOut)] += placed * sc.excess[i] / excess
			}
		}
	}
	for i := range m.States {
		sc.cumA[i] += sc.a[i] + sc.moved[i]
		if sc.excess[i] > 0 {
			sc.cumA[i] -= placed * sc.excess[i] / excess
		}
	}
	return excess
}

// refuseFraction is the share of its obligation state j refuses.
//
// Under the Dublin IV proposal the contribution of EUR 250 000 per applicant is the
// price of not taking them (COM(2016) 270): whatever a state does not take, it pays
// for, so its refused share is all but what it relocates.
func (m *Model) refuseFraction(j int) float64 {
	ch, ok := m.S.Choices[m.States[j]]
	if !ok {
		ch = m.S.DefaultChoice
	}
	if m.Rules.Set == DublinIV2016 {
		return 1 - ch.Relocate
	}
	return ch.Refuse()
}

// finish derives the per-state and Union figures of a run.
func (m *Model) finish(v []float64, need, delivered, relocated float64) {
	L := m.layout()
	var resp, arr, pledged float64
	for i := range m.States {
		r := v[L.state(i, sArrivals)] - v[L.state(i, sRelocOut)] + v[L.state(i, sRelocIn)] +
			v[L.state(i, sOffsetIn)] - v[L.state(i, sOffsetOut)] + v[L.state(i, sCorrIn)] - v[L.state(i, sCorrOut)]
		v[L.state(i, sResponsibility)] = r
		if m.inKey[i] {
			resp += r
		}
		arr += v[L.state(i, sArrivals)]
		v[L.state(i, sNetCostEUR)] = v[L.state(i, sPayEUR)] + v[L.state(i, sAltEUR)] + v[L.state(i, sRefusalEUR)] - v[L.state(i, sReceivedEUR)]
		if m.pop[i] > 0 {
			v[L.state(i, sPerCapita)] = r / m.pop[i] * 1000
		}
		v[L.union(uRelocations)] += v[L.state(i, sRelocIn)] + v[L.state(i, sCorrIn)] // a corrective allocation is a relocation too
		v[L.union(uOffsets)] += v[L.state(i, sOffsetIn)]
		v[L.union(uPayEUR)] += v[L.state(i, sPayEUR)] + v[L.state(i, sAltEUR)]
		v[L.union(uRefusalEUR)] += v[L.state(i, sRefusalEUR)]
		v[L.union(uBorder)] += v[L.state(i, sBorder)]
		v[L.union(uReturns)] += v[L.state(i, sReturns)]
	}
	for y := range m.Years {
		for i := range m.States {
			places := m.planReloc[y][i] + m.planOffset[y][i]*m.offsetVal
			pledged += places + m.planPay[y][i] + m.planAlt[y][i]
			v[L.union(uPlaces)] += places
			v[L.union(uOwed)] += m.oblig[y][i]
		}
	}
	if m.Rules.Set == DublinIV2016 {
		pledged = delivered
		v[L.union(uPlaces)] = delivered // the applicants moved are places taken
	}
	var keyArr float64
	for i := range m.States {
		if m.inKey[i] {
			keyArr += v[L.state(i, sArrivals)]
		}
	}
	for i := range m.States {
		if !m.inKey[i] || m.share[i] == 0 {
			continue
		}
		if resp > 0 {
			v[L.state(i, sDeviation)] = 100 * (v[L.state(i, sResponsibility)]/resp - m.share[i])
		}
		if keyArr > 0 {
			v[L.state(i, sPressure)] = v[L.state(i, sArrivals)] / keyArr / m.share[i]
		}
	}
	v[L.union(uNeed)] = need
	v[L.union(uPledged)] = pledged
	v[L.union(uDelivered)] = delivered
	v[L.union(uShortfall)] = max(need-delivered, 0)
	v[L.union(uArrivals)] = arr
	v[L.union(uGiniBefore)] = m.gini(v, sArrivals)
	v[L.union(uGiniAfter)] = m.gini(v, sResponsibility)
	_ = relocated
}

// gini is the population-weighted Gini coefficient of figure f per capita over the
// states with a known population: G = Σᵢ Σⱼ pᵢ pⱼ |xᵢ − xⱼ| / (2 P² μ), with xᵢ the
// figure per inhabitant, P the total population and μ the mean per inhabitant.
func (m *Model) gini(v []float64, f int) float64 {
	L := m.layout()
	var P, S float64
	for i := range m.States {
		if m.pop[i] > 0 {
			P += m.pop[i]
			S += max(v[L.state(i, f)], 0)
		}
	}
	if P == 0 || S == 0 {
		return 0
	}
	var sum float64
	for i := range m.States {
		if m.pop[i] == 0 {
			continue
		}
		xi := max(v[L.state(i, f)], 0) / m.pop[i]
		for j := range i {
			if m.pop[j] == 0 {
				continue
			}
			xj := max(v[L.state(j, f)], 0) / m.pop[j]
			sum += m.pop[i] * m.pop[j] * math.Abs(xi-xj)
		}
	}
	return 2 * sum / (2 * P * S) // the double sum counts each pair once; μ = S/P
}
