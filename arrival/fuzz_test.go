package arrival_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"solidarity/arrival"
)

// FuzzParseCSV checks that ParseCSV never panics and either refuses its input with a
// *solidarity.Error of code EINVALID naming the file, or returns a list that passes
// Validate and reads back unchanged from the JSON and the CSV it writes. Seeds: the
// example list, the test lists and the corpus in testdata/fuzz.
func FuzzParseCSV(f *testing.F) {
	f.Add(mustRead(f, "ship.csv"))
	f.Add([]byte(baseCSV))
	for _, s := range []string{
		"",
		"# vessel: V\n# port: P\n# at: 2024-09-14T05:40:00Z\n# benefitting_state: IT\nref,name,sex,assessed_age\nP1,A,F,16\n",
		"# vessel: V\r\n# port: P\r\n# at: 2024-09-14T05:40:00Z\r\n# benefitting_state: EL\r\n\r\n#\r\nname,sex,ref,birth_date,family\r\n\"A, B\",X,P1,2000-02-29,\r\n",
		strings.Replace(baseCSV, "spouse:DE:beneficiary", "\"spouse:DE:beneficiary;\nchild:SE:applicant:P002\"", 1),
		strings.Replace(baseCSV, "Lia Sample", `Lia "Sample"`, 1),
		strings.Replace(baseCSV, "P002,K1", "P002,F-P003", 1),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := arrival.ParseCSV("f.csv", bytes.NewReader(data))
		checkAccepted(t, "f.csv", l, err, true)
	})
}

// FuzzParseJSON is FuzzParseCSV for ParseJSON. A list read from JSON may hold facts
// CSV cannot carry: then WriteCSV must say so with EINVALID.
func FuzzParseJSON(f *testing.F) {
	f.Add(mustRead(f, "ship.json"))
	f.Add([]byte(baseJSON))
	for _, s := range []string{
		"", "{}", "null", "[]", `{"persons": null}`, `{"arrival": {}, "persons": [null]}`,
		`{"arrival": {"vessel": "V", "port": "P", "at": "2024-09-14T05:40:00+02:00", "benefitting_state": "IT"},
		  "persons": [{"ref": " P1 ", "name": " A ", "sex": "X", "assessed_age": 30, "languages": [], "nationality": "XK",
		               "relatives": [{"relation": "child", "status": "", "birth_date": "2020-01-01T23:00:00-05:00", "dependency": "new-born"}]}]}`,
		strings.Replace(baseJSON, `"sex": "M"`, `"sex": "M", "sex": "F"`, 1),
		strings.Replace(baseJSON, `"assessed_age": 16`, `"assessed_age": 1e3`, 1),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		l, err := arrival.ParseJSON("f.json", bytes.NewReader(data))
		checkAccepted(t, "f.json", l, err, false)
	})
}

// checkAccepted checks the outcome of a parse: an EINVALID error and no list, or a
// valid list that survives being written and read again in both formats.
func checkAccepted(t *testing.T, name string, l *arrival.List, err error, fromCSV bool) {
	t.Helper()
	if err != nil {
		if l != nil {
			t.Fatalf("a list with the error %v", err)
		}
		asError(t, err, name)
		return
	}
	if err := l.Validate(); err != nil {
		t.Fatalf("accepted a list that fails Validate: %v", err)
	}
	back, err := arrival.ParseJSON("w.json", bytes.NewReader(writeJSON(t, l)))
	if err != nil {
		t.Fatalf("WriteJSON wrote what ParseJSON refuses: %v", err)
	}
	sameList(t, back, l)
	marshalled, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	if back, err = arrival.ParseList("m.json", bytes.NewReader(marshalled)); err != nil {
		t.Fatalf("ParseList refuses the list marshalled: %v", err)
	}
	sameList(t, back, l)

	var b bytes.Buffer
	if err := l.WriteCSV(&b); err != nil {
		if fromCSV {
			t.Fatalf("WriteCSV refuses a list read from CSV: %v", err)
		}
		if e := asError(t, err, ""); !strings.HasPrefix(e.Field, "persons[") && e.Field != "arrival" {
			t.Fatalf("WriteCSV: %v", e)
		}
		return
	}
	text := b.String()
	if back, err = arrival.ParseCSV("w.csv", &b); err != nil {
		t.Fatalf("WriteCSV wrote what ParseCSV refuses: %v\n%s", err, text)
	}
	sameList(t, back, l)
}
