package match

import "solidarity/match/internal/solver/lagrange"

// SetLagTrace and SetLagGapParts let the external tests watch the Lagrangian method
// (see internal/solver/lagrange/hooks.go).
func SetLagTrace(f func(format string, args ...any)) (restore func()) {
	return lagrange.SetTrace(f)
}

func SetLagGapParts(report func(L, loss, slack float64, off int)) (restore func()) {
	return lagrange.SetGapParts(report)
}
