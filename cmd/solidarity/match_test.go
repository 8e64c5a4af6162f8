package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatchHelp(t *testing.T) {
	for _, args := range [][]string{{"match", "--help"}, {"match", "export", "--help"}, {"match", "generate", "--help"}} {
		if code, out, _ := run(t, args...); code != 0 || !strings.Contains(out, "Usage") {
			t.Errorf("%v: exit %d, output %.80q", args, code, out)
		}
	}
}

// Bad files and flags exit 2, naming the file, the line and the JSON path.
func TestMatchBadInput(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	const good = `{"dimensions": ["persons"],
 "families": [{"id": "a", "needs": [2]}, {"id": "b", "needs": [1]}],
 "places": [{"id": "p", "state": "DE", "capacity": [2]}],
 "pairs": [{"family": "a", "place": "p", "links": 1}, {"family": "b", "place": "p", "links": 0.5}]}`
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"needs.json", strings.Replace(good, `"needs": [1]`, `"needs": [1, 2]`, 1), []string{"needs.json: families[1].needs:", `family "b"`}},
		{"type.json", strings.Replace(good, `"needs": [1]`, `"needs": ["1"]`, 1), []string{"type.json:2: families[1].needs[0]: want an integer"}},
		{"field.json", strings.Replace(good, `"links": 0.5`, `"link": 0.5`, 1), []string{"field.json:4: pairs[1].link:", "unknown field"}},
		{"pair.json", strings.Replace(good, `"place": "p", "links": 0.5`, `"place": "q", "links": 0.5`, 1), []string{"pair.json: pairs[1].place:", `unknown place "q"`}},
		{"conflict.json", strings.NewReplacer(`"needs": [2]}`, `"needs": [2], "pinned": "p"}`, `"needs": [1]}`, `"needs": [1], "pinned": "p"}`).Replace(good),
			[]string{"conflict.json: places[0].capacity[0]:", `families pinned to "p" (a, b) need 3 persons, capacity 2`}},
		{"infeasible.json", strings.Replace(good, `"dimensions"`, `"exactly_once": true, "dimensions"`, 1), []string{"infeasible.json", "infeasible"}},
	} {
		code, _, errs := run(t, "match", write(c.name, c.text))
		if code != 2 {
			t.Errorf("%s: exit %d (%s), want 2", c.name, code, errs)
		}
		for _, w := range c.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%s: stderr %q lacks %q", c.name, errs, w)
			}
		}
	}
	// An infeasible problem's reason names the families and places by ID, not by
	// the solver's indices.
	must := strings.NewReplacer(`"needs": [2]}`, `"needs": [2], "must": true}`, `"needs": [1]}`, `"needs": [1], "must": true}`).Replace(good)
	code, out, errs := run(t, "match", write("must.json", must))
	if code != 2 || !strings.Contains(errs, "infeasible") {
		t.Errorf("must.json: exit %d, stderr %q", code, errs)
	}
	for _, s := range []string{out, errs} {
		if strings.Contains(s, "family 0") || strings.Contains(s, "place 0") || strings.Contains(s, "dimension 0") {
			t.Errorf("must.json: the reason speaks in solver indices: %q", s)
		}
	}
	if !strings.Contains(errs, "place p") && !strings.Contains(errs, "family a") && !strings.Contains(errs, "family b") {
		t.Errorf("must.json: the reason names no family or place: %q", errs)
	}
	ok := write("ok.json", good)
	for _, args := range [][]string{
		{"match"},
		{"match", filepath.Join(dir, "absent.json")},
		{"match", ok, "--format", "xml"},
		{"match", ok, "extra.json"},
		{"match", "--hias", dir, ok},
		{"match", "export", "--format", "cplex", ok},
		{"match", "export"},
		{"match", "generate", "--dims", "4"},
		{"match", "generate", "--families", "0"},
		{"match", "generate", "stray"},
	} {
		if code, _, errs := run(t, args...); code != 2 {
			t.Errorf("%v: exit %d (%s), want 2", args, code, errs)
		}
	}
	// The good file solves, flags before or after it.
	for _, args := range [][]string{{"match", ok}, {"match", "--format", "json", ok}, {"match", ok, "--time-limit", "1s"}} {
		if code, out, errs := run(t, args...); code != 0 || !strings.Contains(out, "a") {
			t.Errorf("%v: exit %d (%s)", args, code, errs)
		}
	}
}

// generate → match → export: a generated file solves, and exports in both formats.
func TestMatchGenerateSolveExport(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "gen.json")
	code, _, errs := run(t, "match", "generate", "--seed", "5", "--families", "80", "--localities", "3", "--groups", "--balance", "0.5", "--out", file)
	if code != 0 {
		t.Fatalf("generate: exit %d: %s", code, errs)
	}
	_, again, _ := run(t, "match", "generate", "--seed", "5", "--families", "80", "--localities", "3", "--groups", "--balance", "0.5")
	if b, _ := os.ReadFile(file); string(b) != again {
		t.Error("the same seed generated two different files")
	}
	code, out, errs := run(t, "match", file, "--format", "json", "--time-limit", "2s")
	if code != 0 {
		t.Fatalf("match: exit %d: %s", code, errs)
	}
	var r struct {
		Status     string
		Value      float64
		Bound      *float64
		Families   int
		Placed     int
		Placements []struct {
			Family, Place, State string
			Score                float64
		}
		Unplaced []string
		States   []struct{ State string }
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%.300s", err, out)
	}
	if r.Status != "optimal" && r.Status != "feasible" || r.Bound == nil || *r.Bound < r.Value-1e-9 {
		t.Errorf("status %s value %v bound %v", r.Status, r.Value, r.Bound)
	}
	if r.Families != 80 || r.Placed != len(r.Placements) || r.Placed+len(r.Unplaced) != 80 || r.Placed == 0 {
		t.Errorf("%d families, %d placed, %d placements, %d unplaced", r.Families, r.Placed, len(r.Placements), len(r.Unplaced))
	}
	var sum float64
	for _, p := range r.Placements {
		sum += p.Score
		if !strings.HasPrefix(p.Place, p.State+"-") {
			t.Errorf("placement %+v: place not in its state", p)
		}
	}
	if d := sum - r.Value; d > 1e-6 || d < -1e-6 {
		t.Errorf("scores sum to %v, value %v", sum, r.Value)
	}
	if len(r.States) != 26 {
		t.Errorf("%d states in the intake table, want the 26 of Part IV (balance minimums)", len(r.States))
	}
	code, out, errs = run(t, "match", file, "--time-limit", "1s")
	if code != 0 || !strings.Contains(out, "status") || !strings.Contains(out, "integration") {
		t.Errorf("table: exit %d: %s\n%.300s", code, errs, out)
	}
	code, out, errs = run(t, "match", "export", file)
	if code != 0 || !strings.HasPrefix(out, "\\ solidarity match model: 80 families, 78 places") || !strings.Contains(out, "Maximize") {
		t.Errorf("export lp: exit %d: %s\n%.200s", code, errs, out)
	}
	mps := filepath.Join(dir, "gen.mps")
	if code, _, errs = run(t, "match", "export", "--format", "mps", "--out", mps, file); code != 0 {
		t.Errorf("export mps: exit %d: %s", code, errs)
	}
	if b, err := os.ReadFile(mps); err != nil || !strings.Contains(string(b), "ENDATA") {
		t.Errorf("MPS file: %v", err)
	}
}

// The HIAS benchmark, where the data are (the shared benchmark directory).
func TestMatchHIAS(t *testing.T) {
	const dir = "../../match/hias/testdata/fy2017" // the copy match/hias's tests use
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("HIAS data not found at %s", dir)
	}
	code, out, errs := run(t, "match", "--hias", dir, "--model", "B", "--time-limit", "2s", "--format", "json")
	if code != 0 || !strings.Contains(out, `"placements"`) {
		t.Errorf("exit %d: %s", code, errs)
	}
	if code, _, _ := run(t, "match", "--hias", dir, "--model", "C"); code != 2 {
		t.Errorf("model C: exit %d, want 2", code)
	}
	code, out, _ = run(t, "match", "export", "--hias", dir, "--model", "A")
	if code != 0 || !strings.Contains(out, "329 families, 21 places, 3 dimensions") {
		t.Errorf("export: exit %d: %.100s", code, out)
	}
}
