package simulation

import (
	"math"
	"math/rand/v2"
)

// The distributions of a run, on math/rand/v2's PCG so that a seed gives the same
// numbers on every machine and Go version that keeps PCG's definition.

// negBin draws a negative binomial count with mean mu and size r (variance
// mu + mu²/r) as a gamma–Poisson mixture; r = 0 returns the mean itself (no noise).
func negBin(rng *rand.Rand, mu, r float64) float64 {
	if mu <= 0 {
		return 0
	}
	if r <= 0 {
		return mu
	}
	return poisson(rng, gamma(rng, r)*mu/r)
}

// gamma draws Gamma(shape k, scale 1) by Marsaglia and Tsang (2000), "A simple method
// for generating gamma variables", ACM TOMS 26(3); k < 1 by the boost k+1, U^(1/k).
func gamma(rng *rand.Rand, k float64) float64 {
	if k < 1 {
		return gamma(rng, k+1) * math.Pow(rng.Float64(), 1/k)
	}
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := rng.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := rng.Float64()
		if u < 1-0.0331*x*x*x*x || math.Log(u) < 0.5*x*x+d*(1-v+math.Log(v)) {
			return d * v
		}
	}
}

// poisson draws a Poisson count: by multiplication for small means, by Hörmann's
// transformed rejection (PTRS, 1993, "The transformed rejection method for generating
// Poisson random variables", Insurance: Mathematics and Economics 12) above 10.
func poisson(rng *rand.Rand, lambda float64) float64 {
	if lambda <= 0 {
		return 0
	}
	if lambda < 10 {
		l, k, p := math.Exp(-lambda), 0.0, 1.0
		for {
			p *= rng.Float64()
			if p <= l {
				return k
			}
			k++
		}
	}
	slam := math.Sqrt(lambda)
	loglam := math.Log(lambda)
	b := 0.931 + 2.53*slam
	a := -0.059 + 0.02483*b
	invalpha := 1.1239 + 1.1328/(b-3.4)
	vr := 0.9277 - 3.6224/(b-2)
	for {
		u := rng.Float64() - 0.5
		v := rng.Float64()
		us := 0.5 - math.Abs(u)
		k := math.Floor((2*a/us+b)*u + lambda + 0.43)
		if us >= 0.07 && v <= vr {
			return k
		}
		if k < 0 || (us < 0.013 && v > us) {
			continue
		}
		lg, _ := math.Lgamma(k + 1)
		if math.Log(v)+math.Log(invalpha)-math.Log(a/(us*us)+b) <= -lambda+k*loglam-lg {
			return k
		}
	}
}
