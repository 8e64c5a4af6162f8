package match_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"solidarity"
	"solidarity/match"
)

func TestParseErrors(t *testing.T) {
	for _, c := range []struct {
		name, in         string
		line             int
		path, field, msg string
	}{
		{"unknown top field", strings.Replace(base, `"dimensions"`, `"dimension": 1, "dimensions"`, 1), 2, "dimension", "dimension", "unknown field"},
		{"unknown family field", strings.Replace(base, `{"id": "b", "needs": [0, 2]}`, `{"id": "b", "needs": [0, 2], "size": 2}`, 1), 5, "families[1].size", "size", "unknown field"},
		{"unknown pair field", strings.Replace(base, `{"family": "b", "place": "p"}`, `{"family": "b", "place": "p", "score": 2}`, 1), 14, "pairs[2].score", "score", "unknown field"},
		{"string need", strings.Replace(base, `"needs": [0, 2]`, "\"needs\": [0,\n \"2\"]", 1), 6, "families[1].needs[1]", "", "want an integer, got JSON string"},
		{"fractional capacity", strings.Replace(base, `"capacity": [1, 3]`, `"capacity": [1, 3.5]`, 1), 9, "places[1].capacity[1]", "", "want an integer"},
		{"object as families", strings.Replace(base, `"families": [`, `"families": 3, "x": [`, 1), 3, "families", "", "want an array"},
		{"syntax", strings.Replace(base, `"links": 1}`, `"links": 1,}`, 1), 12, "", "", "malformed JSON"},
		{"trailing data", base + "\n{}", 17, "", "", "data after the problem"},
		{"empty", "", 0, "", "", "empty file"},
		{"truncated", base[:40], 0, "", "", "unexpected end"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := match.ParseProblem("p.json", strings.NewReader(c.in))
			e, ok := errors.AsType[*solidarity.Error](err)
			if !ok {
				t.Fatalf("error %v (%T)", err, err)
			}
			if e.Code != solidarity.EINVALID || e.File != "p.json" || e.Line != c.line || e.Path != c.path || e.Field != c.field || !strings.Contains(e.Message, c.msg) {
				t.Errorf("got %+v, want line %d path %q field %q message containing %q", *e, c.line, c.path, c.field, c.msg)
			}
		})
	}
}

func TestParseTooLarge(t *testing.T) {
	r := io.MultiReader(strings.NewReader(`{"dimensions": ["a"], "families": [], "places": [], "pairs": [], "x": "`),
		io.LimitReader(zeros{}, match.MaxProblemSize))
	_, err := match.ParseProblem("big.json", r)
	if e, ok := errors.AsType[*solidarity.Error](err); !ok || !strings.Contains(e.Message, "larger than 64 MiB") {
		t.Errorf("got %v", err)
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = '0'
	}
	return len(p), nil
}

// WriteJSON writes what ParseProblem reads back unchanged.
func TestWriteJSONRoundTrip(t *testing.T) {
	for _, in := range append(docExamples(t), base) {
		p := mustParse(t, in)
		var b bytes.Buffer
		if err := p.WriteJSON(&b); err != nil {
			t.Fatal(err)
		}
		q := mustParse(t, b.String())
		x, _ := json.Marshal(p)
		y, _ := json.Marshal(q)
		if !bytes.Equal(x, y) {
			t.Errorf("round trip changed the problem:\n%s\n%s", x, y)
		}
	}
}

func compileSchema(tb testing.TB) *jsonschema.Schema {
	tb.Helper()
	f, err := os.Open("schema.json")
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		tb.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("schema.json", doc); err != nil {
		tb.Fatal(err)
	}
	s, err := c.Compile("schema.json")
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

func validate(tb testing.TB, s *jsonschema.Schema, text []byte) error {
	tb.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(text))
	if err != nil {
		tb.Fatal(err)
	}
	return s.Validate(v)
}

// The schema accepts the documented example, the test problem and a generated one, and
// rejects what ParseProblem rejects for its shape.
func TestSchema(t *testing.T) {
	s := compileSchema(t)
	var gen bytes.Buffer
	if err := match.Generate(7, match.GenConfig{Families: 50, Localities: 3, Groups: true, Balance: new(0.1)}).WriteJSON(&gen); err != nil {
		t.Fatal(err)
	}
	for _, good := range append(docExamples(t), base, gen.String()) {
		if err := validate(t, s, []byte(good)); err != nil {
			t.Errorf("schema rejects a valid problem: %v\n%.200s", err, good)
		}
	}
	for _, bad := range []string{
		strings.Replace(base, `"dimensions"`, `"dimension": 1, "dimensions"`, 1),
		strings.Replace(base, `"needs": [0, 2]`, `"needs": [0, -2]`, 1),
		strings.Replace(base, `"needs": [0, 2]`, `"needs": [0, 2.5]`, 1),
		strings.Replace(base, `"state": "FR"`, `"state": "NO"`, 1),
		strings.Replace(base, `"pairs"`, `"groups": [{"id": "g", "state": "DE", "places": ["p"], "capacity": [1, 1]}], "pairs"`, 1),
		strings.Replace(base, `"pairs"`, `"balance": {"tolerance": 2, "pledges": {}}, "pairs"`, 1),
		strings.Replace(base, `"dimensions": ["children", "adults"],`, ``, 1),
	} {
		if err := validate(t, s, []byte(bad)); err == nil {
			t.Errorf("schema accepts an invalid problem:\n%s", bad)
		}
	}
}

// FuzzParseProblem: never panics; a problem that parses compiles or fails with an
// *solidarity.Error carrying a JSON path; one that compiles gives a valid model that
// exports.
func FuzzParseProblem(f *testing.F) {
	for _, s := range docExamples(f) {
		f.Add([]byte(s))
	}
	f.Add([]byte(base))
	f.Add([]byte(`{"dimensions":["a"],"families":[{"id":"x","needs":[1],"pinned":"p"}],"places":[{"id":"p","state":"de","capacity":[0]}],"pairs":[{"family":"x","place":"p"}]}`))
	f.Add([]byte(`{"dimensions":["a"],"exactly_once":true,"families":[{"id":"x","needs":[1]}],"places":[{"id":"p","state":"IT","capacity":[5]}],"balance":{"tolerance":0.5,"pledges":{"IT":3,"EL":1}},"pairs":[{"family":"x","place":"p","links":1e9}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := match.ParseProblem("fuzz.json", bytes.NewReader(data))
		if err != nil {
			if _, ok := errors.AsType[*solidarity.Error](err); !ok {
				t.Fatalf("parse error %v is not a *solidarity.Error", err)
			}
			return
		}
		m, idx, err := p.Compile()
		if err != nil {
			e, ok := errors.AsType[*solidarity.Error](err)
			if !ok || (e.Code != solidarity.EINVALID && e.Code != solidarity.ECONFLICT) || e.Path == "" || e.Message == "" {
				t.Fatalf("compile error %#v", err)
			}
			return
		}
		if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(idx.Families) != len(m.Families) || len(idx.Places) != len(m.Places) {
			t.Fatal("index does not match the model")
		}
		if err := match.WriteLP(io.Discard, m); err != nil {
			t.Fatal(err)
		}
		none := make([]int, len(m.Families))
		for i := range none {
			none[i] = -1
		}
		if v, err := m.Value(none); err == nil {
			_ = p.Result(&match.Solution{Status: match.Feasible, Place: none, Value: v}, idx)
		}
	})
}

// TestParseProblemBounds: a problem built to exhaust the decoder is refused before
// decoding, naming the file, the line and the bound (issue 12).
func TestParseProblemBounds(t *testing.T) {
	for name, src := range map[string]string{
		"nested 9000 deep": `{"families": ` + strings.Repeat("[", 9000) + strings.Repeat("]", 9000) + `}`,
		"number of 1 MiB":  `{"families": [{"size": 1` + strings.Repeat("0", 1<<20) + `}]}`,
	} {
		_, err := match.ParseProblem("p.json", strings.NewReader(src))
		if solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "limit") || !strings.Contains(err.Error(), "p.json:1") {
			t.Errorf("%s: ParseProblem = %.200v, want EINVALID naming the file, line and limit", name, err)
		}
	}
}
