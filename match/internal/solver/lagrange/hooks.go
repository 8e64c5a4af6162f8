package lagrange

// Test hooks: package match's tests watch the Lagrangian method through these (an
// internal package, so nothing outside match reaches them).

// SetTrace lets tests watch the Lagrangian method's progress; it
// returns the function that puts the previous hook back.
func SetTrace(f func(format string, args ...any)) (restore func()) {
	old := trace
	trace = f
	return func() { trace = old }
}

// SetGapParts makes the end of a Lagrangian solve report how its gap splits, at
// the prices of the last full pass: L − value = (families off their best reduced
// score) + (priced rows with room left).
func SetGapParts(report func(L, loss, slack float64, off int)) (restore func()) {
	old := debugFinal
	debugFinal = func(u *dual, e *primal) {
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
	return func() { debugFinal = old }
}
