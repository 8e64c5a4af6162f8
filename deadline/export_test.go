package deadline

import "solidarity/cases"

// LookupEvent exposes the event table to the tests.
func LookupEvent(e cases.Event) (int, bool) {
	id, ok := lookupEvent(e)
	return int(id), ok
}
