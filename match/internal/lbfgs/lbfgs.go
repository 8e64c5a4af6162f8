// Package lbfgs is a projected limited-memory BFGS for min f(x) over x ≥ 0, with a
// diagonal preconditioner the caller may refresh after every step: the Lagrangian
// method (internal/solver) minimises its smoothed dual with it. Deterministic: the
// same calls give the same iterates, bit for bit.
package lbfgs

import "math"

// Memory holds the last m curvature pairs and the scratch vectors of a minimisation
// in n variables; it is kept between calls to Minimize when a warm start helps.
type Memory struct {
	m      int
	s, y   [][]float64
	rho    []float64
	alpha  []float64
	d      []float64
	xn, gn []float64
	sv, yv []float64
}

// New returns an empty memory of m pairs for n variables.
func New(n, m int) *Memory {
	return &Memory{m: m, alpha: make([]float64, m), d: make([]float64, n), xn: make([]float64, n), gn: make([]float64, n),
		sv: make([]float64, n), yv: make([]float64, n)}
}

// Reset forgets the stored pairs.
func (b *Memory) Reset() { b.s, b.y, b.rho = b.s[:0], b.y[:0], b.rho[:0] }

// Len is the number of stored pairs.
func (b *Memory) Len() int { return len(b.s) }

// Rescale multiplies the stored gradient differences by f, as when the objective
// itself is scaled by f (a smoothed function whose curvature goes as 1/τ).
func (b *Memory) Rescale(f float64) {
	for i := range b.y {
		for j := range b.y[i] {
			b.y[i][j] *= f
		}
		b.rho[i] /= f
	}
}

// Func evaluates f at x and writes its gradient into grad.
type Func func(x, grad []float64) float64

// Minimize runs up to iters iterations from x, which it updates, with g and h
// scratch of len(x): g the gradient at x, h the diagonal preconditioner that
// precond sets (after the first evaluation and after each step). Each step is a
// backtracking (Armijo) line search along the projected direction; the run ends
// early when stop returns true, when no descent direction is left, when the line
// search fails, or when a step gains less than 1e-10 relative. It returns the
// number of evaluations of f.
func (b *Memory) Minimize(f Func, x, g, h []float64, iters int, stop func() bool, precond func(h []float64)) int {
	evals := 1
	fx := f(x, g)
	precond(h)
	for range iters {
		if stop != nil && stop() {
			break
		}
		b.direction(x, g, h)
		d := b.d
		if dot(g, d) >= 0 {
			b.Reset()
			b.direction(x, g, h)
			if dot(g, d) >= 0 {
				break
			}
		}
		step := 1.0
		ok := false
		var fn float64
		for range 20 {
			for i := range x {
				b.xn[i] = math.Max(0, x[i]+step*d[i])
			}
			fn = f(b.xn, b.gn)
			evals++
			dec := 0.0
			for i := range x {
				dec += g[i] * (b.xn[i] - x[i])
			}
			if fn <= fx+1e-4*dec {
				ok = true
				break
			}
			step /= 2
		}
		if !ok {
			break
		}
		for i := range x {
			b.sv[i] = b.xn[i] - x[i]
			b.yv[i] = b.gn[i] - g[i]
		}
		b.push(b.sv, b.yv)
		copy(x, b.xn)
		copy(g, b.gn)
		precond(h)
		done := fx-fn <= 1e-10*math.Max(1, math.Abs(fx))
		fx = fn
		if done {
			break
		}
	}
	return evals
}

// direction sets b.d = −H·g on the free variables (x > 0 or g < 0), with the
// initial matrix γ·diag(h).
func (b *Memory) direction(x, g, h []float64) {
	d := b.d
	for i := range d {
		if x[i] <= 0 && g[i] > 0 {
			d[i] = 0
		} else {
			d[i] = -g[i]
		}
	}
	k := len(b.s)
	for i := k - 1; i >= 0; i-- {
		a := b.rho[i] * dot(b.s[i], d)
		b.alpha[i] = a
		axpy(-a, b.y[i], d)
	}
	gamma := 1.0
	if k > 0 {
		yhy := 0.0
		for i, v := range b.y[k-1] {
			yhy += v * v * h[i]
		}
		if yhy > 0 {
			gamma = dot(b.s[k-1], b.y[k-1]) / yhy
		}
	}
	for i := range d {
		d[i] *= gamma * h[i]
	}
	for i := range k {
		be := b.rho[i] * dot(b.y[i], d)
		axpy(b.alpha[i]-be, b.s[i], d)
	}
	for i := range d {
		if x[i] <= 0 && g[i] > 0 {
			d[i] = 0
		}
	}
}

// push stores the pair (s, y) when its curvature is positive.
func (b *Memory) push(s, y []float64) {
	sy := dot(s, y)
	if !(sy > 1e-12*math.Sqrt(dot(s, s)*dot(y, y))) {
		return
	}
	var ns, ny []float64
	if len(b.s) == b.m {
		ns, ny = b.s[0], b.y[0]
		copy(b.s, b.s[1:])
		copy(b.y, b.y[1:])
		copy(b.rho, b.rho[1:])
		b.s, b.y, b.rho = b.s[:b.m-1], b.y[:b.m-1], b.rho[:b.m-1]
	} else {
		ns, ny = make([]float64, len(s)), make([]float64, len(y))
	}
	copy(ns, s)
	copy(ny, y)
	b.s = append(b.s, ns)
	b.y = append(b.y, ny)
	b.rho = append(b.rho, 1/sy)
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

func axpy(a float64, x, y []float64) {
	for i := range x {
		y[i] += a * x[i]
	}
}
