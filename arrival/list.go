package arrival

import (
	"fmt"
	"log/slog"
)

// String describes the list without its persons: the vessel, the port, the date and
// how many persons. Like a Person, a List never prints personal data.
func (l List) String() string {
	return fmt.Sprintf("list{%s at %s on %s, %d persons}", l.Arrival.Vessel, l.Arrival.Port, l.Arrival.At.Format(dateLayout), len(l.Persons))
}

// GoString is String, so %#v does not print the persons either.
func (l List) GoString() string { return l.String() }

// Format prints String for every verb.
func (l List) Format(f fmt.State, _ rune) { fmt.Fprint(f, l.String()) }

// LogValue implements slog.LogValuer: logs get the arrival and the number of persons.
// Log a List, or case IDs, never a []Person: slog's JSON handler would marshal the
// slice's elements as JSON, names included (a Person's LogValue is not consulted for
// the elements of a slice).
func (l List) LogValue() slog.Value {
	return slog.GroupValue(
		slog.String("vessel", l.Arrival.Vessel),
		slog.String("port", l.Arrival.Port),
		slog.Time("at", l.Arrival.At),
		slog.String("benefitting_state", string(l.Arrival.Benefitting)),
		slog.Int("persons", len(l.Persons)),
	)
}
