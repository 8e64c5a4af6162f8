package lbfgs

import (
	"math"
	"math/rand/v2"
	"testing"
)

// quadratic is f(x) = ½ xᵀQx + cᵀx with Q = AᵀA + I (strictly convex).
type quadratic struct {
	q [][]float64
	c []float64
}

func randomQuadratic(r *rand.Rand, n int) quadratic {
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n)
		for j := range a[i] {
			a[i][j] = r.Float64()*2 - 1
		}
	}
	q := quadratic{q: make([][]float64, n), c: make([]float64, n)}
	for i := range n {
		q.q[i] = make([]float64, n)
		for j := range n {
			for k := range n {
				q.q[i][j] += a[k][i] * a[k][j]
			}
		}
		q.q[i][i]++
		q.c[i] = r.Float64()*6 - 3
	}
	return q
}

func (q quadratic) eval(x, grad []float64) float64 {
	f := 0.0
	for i := range x {
		g := q.c[i]
		for j := range x {
			g += q.q[i][j] * x[j]
		}
		grad[i] = g
		f += x[i] * (q.c[i] + g) / 2
	}
	return f
}

// bruteMin is the minimum over x ≥ 0 by enumeration of the active sets: for each
// set of free variables, the stationary point of f on them (the others at 0), kept
// when it is feasible; the least of those is the minimum (f is strictly convex, so
// the optimum is the stationary point of its own free set).
func (q quadratic) bruteMin() float64 {
	n := len(q.c)
	best := math.Inf(1)
	grad := make([]float64, n)
	for mask := range 1 << n {
		var free []int
		for i := range n {
			if mask&(1<<i) != 0 {
				free = append(free, i)
			}
		}
		x := make([]float64, n)
		if sol, ok := solve(q, free); ok {
			feasible := true
			for k, i := range free {
				x[i] = sol[k]
				feasible = feasible && sol[k] >= 0
			}
			if feasible {
				best = math.Min(best, q.eval(x, grad))
			}
		}
	}
	return best
}

// solve solves Q[free,free]·z = −c[free] by Gaussian elimination with pivoting.
func solve(q quadratic, free []int) ([]float64, bool) {
	k := len(free)
	a := make([][]float64, k)
	for r, i := range free {
		a[r] = make([]float64, k+1)
		for c, j := range free {
			a[r][c] = q.q[i][j]
		}
		a[r][k] = -q.c[i]
	}
	for col := range k {
		piv := col
		for r := col + 1; r < k; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[piv][col]) {
				piv = r
			}
		}
		if math.Abs(a[piv][col]) < 1e-12 {
			return nil, false
		}
		a[col], a[piv] = a[piv], a[col]
		for r := range k {
			if r != col {
				f := a[r][col] / a[col][col]
				for c := col; c <= k; c++ {
					a[r][c] -= f * a[col][c]
				}
			}
		}
	}
	z := make([]float64, k)
	for r := range k {
		z[r] = a[r][k] / a[r][r]
	}
	return z, true
}

// TestMinimizeBrute: on small random convex quadratics over x ≥ 0, Minimize (with
// the identity preconditioner, and with a random positive diagonal one) reaches the
// minimum that the enumeration of active sets finds, and never leaves x ≥ 0.
func TestMinimizeBrute(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	for trial := range 400 {
		n := 1 + r.IntN(5)
		q := randomQuadratic(r, n)
		want := q.bruteMin()
		diag := make([]float64, n)
		for i := range diag {
			diag[i] = 1
			if trial%2 == 1 {
				diag[i] = 0.2 + r.Float64()
			}
		}
		x, g, h := make([]float64, n), make([]float64, n), make([]float64, n)
		for i := range x {
			x[i] = r.Float64() * 2
		}
		b := New(n, 1+r.IntN(5))
		// Restarts, as the Lagrangian method calls Minimize level after level with
		// the memory kept.
		for range 20 {
			b.Minimize(q.eval, x, g, h, 100, nil, func(h []float64) { copy(h, diag) })
		}
		got := q.eval(x, g)
		for i, v := range x {
			if v < 0 {
				t.Fatalf("trial %d: x[%d] = %v < 0", trial, i, v)
			}
		}
		if math.Abs(got-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Fatalf("trial %d (n %d): Minimize reached %.10f, the minimum is %.10f (x %v)", trial, n, got, want, x)
		}
	}
}

// TestMinimizeStop: a stop that is already true leaves x where it was, after the
// one evaluation at x.
func TestMinimizeStop(t *testing.T) {
	q := randomQuadratic(rand.New(rand.NewPCG(1, 1)), 3)
	x := []float64{1, 2, 3}
	g, h := make([]float64, 3), make([]float64, 3)
	if evals := New(3, 4).Minimize(q.eval, x, g, h, 10, func() bool { return true }, func(h []float64) {}); evals != 1 {
		t.Fatalf("%d evaluations, want 1", evals)
	}
	if x[0] != 1 || x[1] != 2 || x[2] != 3 {
		t.Fatalf("x moved to %v", x)
	}
}

// TestPushSkipsNonPositiveCurvature: a pair with sᵀy ≤ 0 is not stored; beyond m
// pairs the oldest goes.
func TestPushSkipsNonPositiveCurvature(t *testing.T) {
	b := New(2, 2)
	b.push([]float64{1, 0}, []float64{-1, 0})
	if b.Len() != 0 {
		t.Fatalf("%d pairs after a pair of negative curvature", b.Len())
	}
	for i := range 3 {
		b.push([]float64{1, float64(i)}, []float64{1, 0})
	}
	if b.Len() != 2 || b.s[0][1] != 1 || b.s[1][1] != 2 {
		t.Fatalf("pairs %v, want the last two", b.s)
	}
}
