package arrival_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"solidarity/arrival"
)

// TestPersonNeverPrints checks that no verb of fmt and no slog handler shows a
// person's name, whether the value is a Person, a *Person, a []Person, a []*Person or
// a List.
func TestPersonNeverPrints(t *testing.T) {
	l := mustParse(t, "ship.csv")
	l.Persons[0].Case = "C-0001"
	p := l.Persons[0]
	ptrs := []*arrival.Person{&l.Persons[0], &l.Persons[1]}
	var nilPerson *arrival.Person
	values := map[string]any{
		"Person": p, "*Person": &p, "[]Person": l.Persons, "[]*Person": ptrs, "nil *Person": nilPerson,
		"List": *l, "*List": l, "map": map[string]arrival.Person{"x": p}, "struct": struct{ P arrival.Person }{p},
	}
	names := make([]string, 0, len(l.Persons))
	for _, q := range l.Persons {
		names = append(names, q.Name, strings.Fields(q.Name)[0])
	}
	check := func(t *testing.T, what, out string) {
		t.Helper()
		for _, n := range names {
			if strings.Contains(out, n) {
				t.Fatalf("%s shows %q: %s", what, n, out)
			}
		}
	}
	for kind, v := range values {
		t.Run(kind, func(t *testing.T) {
			for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d", "%T %[1]v"} {
				check(t, verb, fmt.Sprintf(verb, v))
			}
			check(t, "Sprint", fmt.Sprint(v))
			check(t, "Sprintln", fmt.Sprintln(v))

			var b bytes.Buffer
			slog.New(slog.NewTextHandler(&b, nil)).Info("msg", "v", v, slog.Any("any", v))
			check(t, "slog text", b.String())
			if kind == "[]Person" || kind == "[]*Person" || kind == "map" || kind == "struct" {
				// slog's JSON handler marshals these as JSON, names included: log a
				// List or case IDs instead (see List.LogValue).
				return
			}
			b.Reset()
			slog.New(slog.NewJSONHandler(&b, nil)).Info("msg", "v", v, slog.Any("any", v))
			check(t, "slog JSON", b.String())
		})
	}
	if got := fmt.Sprint(p); got != "person{case C-0001}" {
		t.Fatalf("a person prints %q", got)
	}
}
