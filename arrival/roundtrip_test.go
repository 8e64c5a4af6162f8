package arrival_test

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"testing"

	"solidarity"
	"solidarity/arrival"
)

var update = flag.Bool("update", false, "rewrite testdata/ship.json from testdata/ship.csv")

// TestShipTestdata reads the shipped example: ten fictional persons, two families, one
// unaccompanied minor; and its JSON twin, which WriteJSON produces byte for byte.
func TestShipTestdata(t *testing.T) {
	l := mustParse(t, "ship.csv")
	if len(l.Persons) != 10 {
		t.Fatalf("%d persons, want 10", len(l.Persons))
	}
	families := map[solidarity.FamilyID]int{}
	minors := 0
	for _, p := range l.Persons {
		families[p.Family]++
		if p.UnaccompaniedMinor {
			minors++
		}
	}
	if len(families) != 7 || families["K1"] != 3 || families["K2"] != 2 || minors != 1 {
		t.Fatalf("families %v, %d unaccompanied minors", families, minors)
	}

	out := writeJSON(t, l)
	if *update {
		if err := os.WriteFile("testdata/ship.json", out, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if twin := mustRead(t, "ship.json"); !bytes.Equal(out, twin) {
		t.Fatalf("WriteJSON differs from testdata/ship.json (go test -run TestShipTestdata -update):\n%s", out)
	}
	sameList(t, mustParse(t, "ship.json"), l)
}

// TestRoundTrip reads CSV, writes JSON (WriteJSON and plain json.Marshal), reads it
// back, writes CSV and reads that: the list stays the same.
func TestRoundTrip(t *testing.T) {
	for _, name := range []string{"ship.csv", "ship.json"} {
		t.Run(name, func(t *testing.T) {
			l := mustParse(t, name)

			fromJSON, err := arrival.ParseJSON("w.json", bytes.NewReader(writeJSON(t, l)))
			if err != nil {
				t.Fatal(err)
			}
			sameList(t, fromJSON, l)

			marshalled, err := json.Marshal(l) // the registration fields, zero, are accepted
			if err != nil {
				t.Fatal(err)
			}
			fromMarshal, err := arrival.ParseList("m.json", bytes.NewReader(marshalled))
			if err != nil {
				t.Fatal(err)
			}
			sameList(t, fromMarshal, l)

			csvText := writeCSV(t, fromJSON)
			fromCSV, err := arrival.ParseList("w.csv", bytes.NewReader(csvText))
			if err != nil {
				t.Fatalf("%v\n%s", err, csvText)
			}
			sameList(t, fromCSV, l)
			if again := writeCSV(t, fromCSV); !bytes.Equal(again, csvText) {
				t.Fatalf("WriteCSV is not stable:\n%s\n%s", csvText, again)
			}
		})
	}
}

// TestWriteLeavesOutRegistration: the written forms are import forms.
func TestWriteLeavesOutRegistration(t *testing.T) {
	l := mustParse(t, "ship.csv")
	l.Arrival.ID, l.Arrival.Persons, l.Arrival.Actor = "A-1", 10, "officer"
	l.Persons[0].Case = "C-1"
	for _, out := range [][]byte{writeJSON(t, l), writeCSV(t, l)} {
		back, err := arrival.ParseList("w", bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if back.Arrival.ID != "" || back.Persons[0].Case != "" {
			t.Fatal("registration data written")
		}
	}
}

// TestFormatExamples reads the examples of FORMAT.md, so that the documentation stays
// true.
func TestFormatExamples(t *testing.T) {
	doc, err := os.ReadFile("FORMAT.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := bytes.Split(doc, []byte("```"))
	n := 0
	for i := 1; i < len(blocks); i += 2 {
		b := blocks[i]
		if !bytes.HasPrefix(b, []byte("\n")) && !bytes.HasPrefix(b, []byte("json\n")) {
			continue
		}
		_, body, _ := bytes.Cut(b, []byte("\n"))
		if _, err := arrival.ParseList("FORMAT.md", bytes.NewReader(body)); err != nil {
			t.Errorf("example %d: %v\n%s", n+1, err, body)
		}
		n++
	}
	if n != 2 {
		t.Fatalf("%d examples, want 2", n)
	}
}
