package match

// SetLagTrace lets the external tests watch the Lagrangian method's progress; it
// returns the function that puts the previous hook back.
func SetLagTrace(f func(format string, args ...any)) (restore func()) {
	old := lagTrace
	lagTrace = f
	return func() { lagTrace = old }
}
