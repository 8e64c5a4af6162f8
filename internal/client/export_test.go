package client

// SetPage sets the page size CaseRows asks for until the test ends (restore).
func SetPage(n int) (restore func()) {
	old := apiPage
	apiPage = n
	return func() { apiPage = old }
}
