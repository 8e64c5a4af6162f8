package lagrange

// Test hooks: package match's tests watch the Lagrangian method through these (an
// internal package, so nothing outside match reaches them).

// SetLagTrace lets tests watch the Lagrangian method's progress; it
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
	lagDebug = func(u *euDual, e *primal) {
		p := u.p
		L, loss, slack, off := u.rowTerm(u.lam, true), 0.0, 0.0, 0
		for f := range p.N {
			b := 0.0
			if a := u.best[f]; a >= 0 {
				b = u.red[a]
			}
			L += b
			r := 0.0
			if a := e.Arc[f]; a >= 0 {
				r = u.red[a]
			}
			if b-r > 1e-9 {
				off++
			}
			loss += b - r
		}
		for k, l := range u.lam {
			if u.sign[k] > 0 {
				slack += l * (p.RowHi[k] - e.Used[k])
			} else {
				slack += l * (e.Used[k] - p.RowLo[k])
			}
		}
		report(L, loss, slack, off)
	}
	return func() { lagDebug = old }
}
