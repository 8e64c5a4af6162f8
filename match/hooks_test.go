package match

import "solidarity/match/internal/solver"

// SetLagTrace and SetLagGapParts let the external tests watch the Lagrangian method
// (see internal/solver/hooks.go).
func SetLagTrace(f func(format string, args ...any)) (restore func()) {
	return solver.SetLagTrace(f)
}

func SetLagGapParts(report func(L, loss, slack float64, off int)) (restore func()) {
	return solver.SetLagGapParts(report)
}
