package cases

import (
	"slices"
	"testing"
)

// Does is the column of the table of events that says what an event does; its flags
// are exported here for a test that adds an event as a newcomer would.
type Does = does

const (
	DoesByRelocation = byRelocation
	DoesFamily       = family
)

// AddEvent adds ev to the table of events and its rule (from every state of from to
// to, or to the same state when to is "") to the transition table, exactly as a row
// of eventInfos and a row of rows would, until the test ends.
func AddEvent(t testing.TB, ev Event, label, article string, d Does, from []State, to State, desc string) {
	t.Helper()
	infos, rs := eventInfos, rows
	eventInfos = append(slices.Clip(eventInfos), eventInfo{ev, label, article, d})
	rows = append(slices.Clip(rows), row{from, ev, to, article, desc})
	index()
	t.Cleanup(func() {
		eventInfos, rows = infos, rs
		index()
	})
}
