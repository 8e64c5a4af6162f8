package bnb

import "math"

// The LP's working basis (lp.go): building W⁻¹, repairing a singular one, and
// solving with it.

// refactor rebuilds W⁻¹ from the keys and nonkeys. It reports false if W is
// singular (then the basis is repaired with coupling slacks and rebuilt).
func (l *lp) refactor() {
	K := l.K
	l.nUpd = 0
	if K == 0 {
		return
	}
	for {
		w := l.w
		clear(w)
		// Column i of W goes to row-major w[r*K+i]; build as columns in a scratch.
		col := l.rC
		for i, jj := range l.nk {
			j := int(jj)
			clear(col)
			l.addC(col, j, 1)
			if g := l.fam(j); g >= 0 {
				kj := int(l.key[g])
				l.addC(col, kj, -l.aF(kj)*l.aF(j))
			}
			for r := range K {
				w[r*K+i] = col[r]
			}
		}
		bad, row := invert(w, l.winv, K, l.rowOf)
		if bad < 0 {
			return
		}
		// Column bad depends on the others: the slack of a row with no pivot
		// (among the rows not yet eliminated, in their original numbering) takes
		// its place.
		l.repair(bad, row)
	}
}

// repair swaps the nonkey at working position i for the slack of coupling row k,
// which the other nonkeys leave uncovered. It is a safeguard against numerical
// trouble; the leaving column goes to its nearer bound (the duals are recomputed by
// the caller's next refresh).
func (l *lp) repair(i, k int) {
	j := int(l.nk[i])
	l.pos[j] = -1
	if l.x[j]-l.lo[j] <= l.up[j]-l.x[j] {
		l.stat[j], l.x[j] = atLower, l.lo[j]
	} else {
		l.stat[j], l.x[j] = atUpper, l.up[j]
	}
	s := l.nA + l.nF + k
	if l.pos[s] >= 0 {
		return
	}
	l.nk[i] = int32(s)
	l.pos[s] = int32(i)
	l.stat[s] = basicNonkey
	l.nUpd = 64 // have the simplex refresh values and duals
}

// invert puts the inverse of the K×K row-major a (destroyed) into inv by Gauss-Jordan
// with partial pivoting. When a is singular it returns a dependent column and a row
// left without a pivot (whose slack can replace that column), else -1, -1.
func invert(a, inv []float64, K int, rowOf []int) (int, int) {
	clear(inv)
	for i := range K {
		inv[i*K+i] = 1
		rowOf[i] = i
	}
	for c := range K {
		piv, best := -1, 1e-9
		for r := c; r < K; r++ {
			if v := math.Abs(a[r*K+c]); v > best {
				piv, best = r, v
			}
		}
		if piv < 0 {
			return c, rowOf[c]
		}
		if piv != c {
			rowOf[piv], rowOf[c] = rowOf[c], rowOf[piv]
			for t := range K {
				a[piv*K+t], a[c*K+t] = a[c*K+t], a[piv*K+t]
				inv[piv*K+t], inv[c*K+t] = inv[c*K+t], inv[piv*K+t]
			}
		}
		s := 1 / a[c*K+c]
		ar, ir := a[c*K:(c+1)*K], inv[c*K:(c+1)*K]
		for t := range K {
			ar[t] *= s
			ir[t] *= s
		}
		for r := range K {
			if r == c {
				continue
			}
			f := a[r*K+c]
			if f == 0 {
				continue
			}
			ar2, ir2 := a[r*K:(r+1)*K], inv[r*K:(r+1)*K]
			for t := range K {
				ar2[t] -= f * ar[t]
				ir2[t] -= f * ir[t]
			}
		}
	}
	return -1, -1
}

// solveB solves B·y = (rF, rC) for the basic values: nonkeys into yC, keys into yK
// (dense; rF and rC are overwritten).
func (l *lp) solveB(rF, rC []float64) {
	K := l.K
	// v = rC − Σ_f σ_f rF[f] c_key(f)
	for f := range l.nF {
		if rF[f] != 0 {
			kj := int(l.key[f])
			l.addC(rC, kj, -l.aF(kj)*rF[f])
		}
	}
	for i := range K {
		s := 0.0
		row := l.winv[i*K : (i+1)*K]
		for k, v := range rC {
			s += row[k] * v
		}
		l.yC[i] = s
	}
	for i, jj := range l.nk {
		j := int(jj)
		if g := l.fam(j); g >= 0 {
			rF[g] -= l.aF(j) * l.yC[i]
		}
	}
	for f := range l.nF {
		l.yK[f] = l.aF(int(l.key[f])) * rF[f]
	}
}
