package arrival_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"solidarity"
	"solidarity/arrival"
)

// mustRead returns the contents of a file of testdata.
func mustRead(tb testing.TB, name string) []byte {
	tb.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	return data
}

// mustParse parses a testdata file with ParseList.
func mustParse(tb testing.TB, name string) *arrival.List {
	tb.Helper()
	l, err := arrival.ParseList(name, bytes.NewReader(mustRead(tb, name)))
	if err != nil {
		tb.Fatal(err)
	}
	return l
}

// tb is what the helpers need of a *testing.T, a *testing.F and a *rapid.T.
type tb interface {
	Helper()
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

// asError checks that err is a *solidarity.Error of code EINVALID naming file.
func asError(tb tb, err error, file string) *solidarity.Error {
	tb.Helper()
	e, ok := errors.AsType[*solidarity.Error](err)
	if !ok {
		tb.Fatalf("error %T %v is not a *solidarity.Error", err, err)
	}
	if e.Code != solidarity.EINVALID {
		tb.Fatalf("code %q, want %q (%v)", e.Code, solidarity.EINVALID, e)
	}
	if e.File != file {
		tb.Fatalf("file %q, want %q (%v)", e.File, file, e)
	}
	return e
}

// encode is the comparison form of a list: its JSON, which holds every field and
// writes equal instants in equal zones alike (time.Time's locations are pointers).
func encode(tb tb, l *arrival.List) string {
	tb.Helper()
	b, err := json.Marshal(l)
	if err != nil {
		tb.Fatal(err)
	}
	return string(b)
}

func sameList(tb tb, got, want *arrival.List) {
	tb.Helper()
	if g, w := encode(tb, got), encode(tb, want); g != w {
		tb.Fatalf("lists differ:\n got %s\nwant %s", g, w)
	}
}

// writeCSV and writeJSON write a list, failing the test on error.
func writeCSV(tb tb, l *arrival.List) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := l.WriteCSV(&b); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

func writeJSON(tb tb, l *arrival.List) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := l.WriteJSON(&b); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// lines joins lines with newlines, for CSV and JSON texts in tests.
func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }
