package match

import "math"

var lagDiag func(string, ...any)

// SetLagDiag sets the diagnostic printer.
func SetLagDiag(f func(string, ...any)) { lagDiag = f }

// SetLagTrace lets the external tests watch the Lagrangian method's progress; it
// returns the function that puts the previous hook back.
func SetLagTrace(f func(format string, args ...any)) (restore func()) {
	old := lagTrace
	lagTrace = f
	return func() { lagTrace = old }
}

// SetLagGapParts makes the end of a Lagrangian solve report how its gap splits, at
// the prices of the last full pass: L − value = (families off their best reduced
// score) + (priced rows with room left).
func SetLagGapParts(report func(L, loss, slack float64, off int)) (restore func()) {
	old := lagDebug
	lagDebug = func(u *euDual, e *euPrimal) {
		p := u.p
		L, loss, slack, off := u.rowTerm(u.lam, true), 0.0, 0.0, 0
		for f := range p.n {
			b := 0.0
			if a := u.best[f]; a >= 0 {
				b = u.red[a]
			}
			L += b
			r := 0.0
			if a := e.arc[f]; a >= 0 {
				r = u.red[a]
			}
			if b-r > 1e-9 {
				off++
			}
			loss += b - r
		}
		for k, l := range u.lam {
			if u.sign[k] > 0 {
				slack += l * (p.rowHi[k] - e.used[k])
			} else {
				slack += l * (e.used[k] - p.rowLo[k])
			}
		}
		report(L, loss, slack, off)
		if lagDiag != nil {
			var lossBy [8]float64
			var cntBy, outBy [8]int
			for f := range p.n {
				b := 0.0
				if a := u.best[f]; a >= 0 {
					b = u.red[a]
				}
				r := 0.0
				if a := e.arc[f]; a >= 0 {
					r = u.red[a]
				} else {
					outBy[min(7, int(p.size[f]))]++
				}
				sz := min(7, int(p.size[f]))
				lossBy[sz] += b - r
				if b-r > 1e-9 {
					cntBy[sz]++
				}
			}
			lagDiag("loss by size %v off %v out %v", lossBy, cntBy, outBy)
			// Priced room by place capacity (persons).
			var roomBy [6]float64
			for k, l := range u.lam {
				if u.sign[k] > 0 && p.rowKind[k] == rowPlace {
					c := 0.0
					for _, x := range p.m.Places[p.rowRef[k]].Cap {
						c += float64(x)
					}
					i := min(5, int(math.Log2(c+1)/2))
					roomBy[i] += l * (p.rowHi[k] - e.used[k])
				}
			}
			lagDiag("room by place size (log4 persons) %v", roomBy)
		}
	}
	return func() { lagDebug = old }
}

// SetLagDiveTau sets the dives' smoothing (× the schedule's last).
func SetLagDiveTau(x float64) { lagDiveTau = x }
