package scenariofile_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"solidarity"
	"solidarity/internal/scenariofile"
)

// TestParseErrors: a bad file gets its file, line and field, and no scenario.
func TestParseErrors(t *testing.T) {
	const head = "base = \"cycle-2026\"\n"
	for _, tc := range []struct {
		name, src   string
		line        int
		field, want string
	}{
		{"typo", head + "[operations]\nretrun_rate = 0.2\n", 3, "operations.retrun_rate", "unknown key"},
		{"rate above 1", head + "[operations]\nreturn_rate = 1.5\n", 3, "operations.return_rate", "fraction"},
		{"certainty", head + "[operations]\nreturn_rate = { value = 0.2, source = \"x\", certainty = \"Q\" }\n", 3, "operations.return_rate", "certainty"},
		{"certainty without source", head + "[operations]\nreturn_rate = { value = 0.2, certainty = \"V\" }\n", 3, "operations.return_rate", "source"},
		{"number table without value", head + "[parameters]\nreference = { source = \"x\", certainty = \"S\" }\n", 3, "parameters.reference", "value"},
		{"unknown state", head + "[choice.XX]\nform = \"pay\"\n", 2, "choice.XX", "unknown state"},
		{"unknown form", head + "[choice.HU]\nform = \"leave\"\n", 3, "choice.HU.form", "form"},
		{"fractions over 1", head + "[choice.HU]\npay = 0.7\nrelocate = 0.5\n", 2, "choice.HU", "more than 1"},
		{"form and fractions", head + "[choice.HU]\nform = \"pay\"\npay = 1\n", 3, "choice.HU.form", "not both"},
		{"unknown base", "base = \"cycle-2099\"\n", 1, "base", "no shipped scenario"},
		{"unknown rules", head + "rules = \"dublin-v\"\n", 2, "rules", "unknown rule set"},
		{"months", head + "months = 500\n", 2, "months", "120"},
		{"start not first", head + "start = 2026-06-12\n", 2, "start", "first day"},
		{"runs", head + "runs = 200000\n", 2, "runs", "runs"},
		{"syntax", head + "title = \"open\n", 2, "", ""},
		{"reference zero", head + "[parameters]\nreference = 0\n", 3, "parameters.reference", "reference number"},
		{"scale", head + "[operations]\narrivals_scale = -3\n", 3, "operations.arrivals_scale", "scale"},
		{"border capacity state", head + "[operations.border_capacity]\nZZ = 10\n", 3, "operations.border_capacity.ZZ", "unknown state"},
		{"cycle file without dir", head + "cycle = \"../../etc/passwd\"\n", 2, "cycle", "no file is read"},
		{"dataset without dir", head + "population = \"/etc/passwd\"\n", 2, "population", "no file is read"},
		{"data file without dir", head + "[data]\ncommitments = \"/etc/passwd\"\n", 0, "", "not a path inside"},
		{"no start", "rules = \"dublin-only\"\nmonths = 3\n", 0, "start", "missing"},
		{"no rules", "start = 2026-01-01\nmonths = 3\n", 0, "rules", "missing"},
		{"arrivals twice", head + "[data]\narrivals = [\"data/arrivals-2025.csv\", \"data/arrivals-2025.csv\"]\n", 3, "data.arrivals", "twice"},
		{"arrivals files", head + "[data]\narrivals = [\"a\", \"b\", \"c\", \"d\", \"e\", \"f\", \"g\", \"h\", \"i\"]\n", 3, "data.arrivals", "at most"},
		{"no arrival in the period", head + "start = 2030-01-01\n", 2, "start", "none of the"},
		{"ammr without key", "start = 2026-01-01\nmonths = 3\nrules = \"ammr-2024\"\n", 0, "population", "key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := scenariofile.Parse("whatif.toml", []byte(tc.src), nil)
			if err == nil {
				t.Fatalf("parsed: %+v", s.Name)
			}
			if s != nil {
				t.Error("a scenario returned with the error")
			}
			var e *solidarity.Error
			if !errors.As(err, &e) {
				t.Fatalf("%T %v: not a *solidarity.Error", err, err)
			}
			if e.Code != solidarity.EINVALID {
				t.Errorf("code %s", e.Code)
			}
			if e.File == "" {
				t.Errorf("%v: no file", err)
			}
			if tc.line > 0 && e.Line != tc.line {
				t.Errorf("%v: line %d, want %d", err, e.Line, tc.line)
			}
			if tc.field != "" && e.Field != tc.field {
				t.Errorf("%v: field %q, want %q", err, e.Field, tc.field)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%v: want %q in it", err, tc.want)
			}
		})
	}
}

// TestCSVErrors: a bad data file is named with its line and column.
func TestCSVErrors(t *testing.T) {
	const scen = "base = \"replay-2015\"\n[data]\nobserved = \"obs.csv\"\n"
	for _, tc := range []struct {
		name, csv string
		line      int
		field     string
	}{
		{"column", "date,state,from,value,colour\n", 1, "colour"},
		{"missing column", "date,state,value\n", 1, "from"},
		{"date", "date,state,from,value\n2017-13-01,FR,,3\n", 2, "date"},
		{"state", "date,state,from,value\n2017-07-13,XX,,3\n", 2, "state"},
		{"value", "date,state,from,value\n# a comment\n2017-07-13,FR,,3.5\n", 3, "value"},
		{"negative", "date,state,from,value\n2017-07-13,FR,,-1\n", 2, "value"},
		{"digits", "date,state,from,value\n2017-07-13,FR,," + strings.Repeat("9", 40) + "\n", 2, "value"},
		{"quote", "date,state,from,value\n2017-07-13,\"FR,,3\n", 2, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := fstest.MapFS{"obs.csv": {Data: []byte(tc.csv)}}
			_, err := scenariofile.Parse("mine.toml", []byte(scen), dir)
			var e *solidarity.Error
			if !errors.As(err, &e) {
				t.Fatalf("%v", err)
			}
			if e.File != "obs.csv" || e.Line != tc.line || tc.field != "" && e.Field != tc.field {
				t.Errorf("%v: want obs.csv:%d field %q", err, tc.line, tc.field)
			}
		})
	}
}

// TestBase: a file on a base changes only what it names, and its relative files are
// read beside it.
func TestBase(t *testing.T) {
	dir := t.TempDir()
	src := `base = "cycle-2026"
title = "four pay"
[choice.AT]
form = "pay"
[choice.PL]
pay = 0.5
relocate = 0.5
source = "test"
certainty = "S"
[operations]
arrivals_scale = 1.5
[[arrival]]
month = "2025-07"
state = "EL"
mean = 1000
`
	path := filepath.Join(dir, "four.toml")
	if err := os.WriteFile(path, []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	s, text, err := scenariofile.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(text) != src {
		t.Error("Open does not return the file's text")
	}
	base, _, err := scenariofile.Open("cycle-2026")
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "four" || s.Title != "four pay" || s.Rules != base.Rules || s.Months != base.Months || s.Cycle == nil {
		t.Errorf("name %q title %q rules %s months %d", s.Name, s.Title, s.Rules, s.Months)
	}
	if c := s.Choices["AT"]; c.Pay != 1 || c.Known {
		t.Errorf("AT %+v: want pay 1, an assumption", c)
	}
	if c := s.Choices["PL"]; c.Pay != 0.5 || c.Relocate != 0.5 || !c.Known {
		t.Errorf("PL %+v", c)
	}
	if s.Choices["DE"] != base.Choices["DE"] {
		t.Error("the base's choice for DE is lost")
	}
	if s.Ops.ArrivalsScale.Value != 1.5 || s.Ops.ReturnRate != base.Ops.ReturnRate {
		t.Errorf("operations %+v", s.Ops)
	}
	if len(s.Arrivals) != len(base.Arrivals)+1 {
		t.Errorf("%d arrivals, base %d: the row for EL is not added", len(s.Arrivals), len(base.Arrivals))
	}
	// Nothing was written beside the file.
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("%d files in the directory", len(entries))
	}
}
