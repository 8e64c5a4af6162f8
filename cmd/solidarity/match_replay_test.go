package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A dated year: three families over three weeks, Germany's place raised in the
// third; the JSON report carries methods[] with name and mean_ratio and the
// hindsight with status, value and bound.
const datedYear = `{"dimensions": ["persons"],
 "families": [{"id": "a", "needs": [2], "arrival": "2026-06-12"}, {"id": "b", "needs": [1], "arrival": "2026-06-20"},
   {"id": "c", "needs": [3], "arrival": "2026-07-01"}],
 "places": [{"id": "DE-1", "state": "DE", "capacity": [3]}, {"id": "FR-1", "state": "FR", "capacity": [2]}],
 "revisions": [{"place": "DE-1", "from": "2026-06-30", "capacity": [5]}],
 "pairs": [{"family": "a", "place": "DE-1", "links": 1}, {"family": "b", "place": "FR-1", "links": 1},
   {"family": "c", "place": "DE-1", "links": 2}]}`

func TestMatchReplay(t *testing.T) {
	p := filepath.Join(t.TempDir(), "year.json")
	if err := os.WriteFile(p, []byte(datedYear), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "match", "replay", p, "--format", "json", "--samples", "4")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var rep struct {
		Batches int `json:"batches"`
		Methods []struct {
			Name      string  `json:"name"`
			MeanRatio float64 `json:"mean_ratio"`
		} `json:"methods"`
		Hindsight struct {
			Status       string
			Value, Bound float64
		} `json:"hindsight"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Batches != 3 || rep.Hindsight.Status != "optimal" || rep.Hindsight.Value != 4 || rep.Hindsight.Bound < 4 {
		t.Fatalf("report %+v", rep)
	}
	names := []string{}
	for _, m := range rep.Methods {
		names = append(names, m.Name)
		// Each family arrives alone and has one place: every method takes all three.
		if m.MeanRatio != 1 {
			t.Errorf("%s: mean ratio %v", m.Name, m.MeanRatio)
		}
	}
	if strings.Join(names, ",") != "greedy,potentials,discord,exact" {
		t.Errorf("methods %v", names)
	}
	code, out, _ = run(t, "match", "replay", p, "--method", "greedy", "--balance")
	if code != 0 || !strings.Contains(out, "hindsight optimum: optimal, value 4.0000") || !strings.Contains(out, "balance costs greedy") {
		t.Errorf("table: exit %d\n%s", code, out)
	}
}

func TestMatchReplayHIAS(t *testing.T) {
	code, out, errs := run(t, "match", "replay", "--hias", "../../match/hias/testdata/fy2017", "--model", "B", "--seeds", "1", "--method", "greedy,potentials", "--samples", "5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, w := range []string{"329 families in 52 batches, 1 run(s)", "hindsight optimum: optimal, value 208.9981", "greedy", "potentials"} {
		if !strings.Contains(out, w) {
			t.Errorf("output lacks %q:\n%s", w, out)
		}
	}
}

func TestMatchReplayBadInput(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "year.json")
	if err := os.WriteFile(p, []byte(datedYear), 0o644); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(bad, []byte(strings.Replace(datedYear, `"arrival": "2026-06-20"`, `"arrival": "20 June"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{p, "--method", "oracle"}, `no method "oracle"`},
		{[]string{p, "--batch", "7h"}, "--batch"},
		{[]string{p, "--batch", "0d"}, "--batch"},
		{[]string{p, "--seeds", "0"}, "--seeds"},
		{[]string{p, "--samples", "5000"}, "--samples"},
		{[]string{p, "--format", "xml"}, "--format"},
		{[]string{bad}, "families[1].arrival"},
		{[]string{}, "no problem file"},
		{[]string{p, "--history", filepath.Join(dir, "none.json")}, "none.json"},
	} {
		code, _, errs := run(t, append([]string{"match", "replay"}, c.args...)...)
		if code != 2 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q, want 2 and %q", c.args, code, errs, c.want)
		}
	}
}

// A problem with balance floors prints their price: here France's floor moves
// family a from Germany (links 3) to France (links 1).
func TestMatchFloorPrice(t *testing.T) {
	const text = `{"dimensions": ["persons"], "exactly_once": true,
 "families": [{"id": "a", "needs": [2]}, {"id": "b", "needs": [2]}],
 "places": [{"id": "DE-1", "state": "DE", "capacity": [4]}, {"id": "FR-1", "state": "FR", "capacity": [4]}],
 "balance": {"tolerance": 0, "pledges": {"DE": 1, "FR": 1}},
 "pairs": [{"family": "a", "place": "DE-1", "links": 3}, {"family": "a", "place": "FR-1", "links": 1},
   {"family": "b", "place": "DE-1", "links": 3}, {"family": "b", "place": "FR-1", "links": 2}]}`
	p := filepath.Join(t.TempDir(), "floors.json")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := run(t, "match", p)
	if code != 0 || !strings.Contains(out, "floors   cost 1.0000 in score, 16.67 % of 6.0000 without them (optimal)") {
		t.Errorf("exit %d (%s)\n%s", code, errs, out)
	}
	code, out, _ = run(t, "match", p, "--format", "json")
	var r struct {
		FloorPrice struct{ Cost, Percent float64 } `json:"floor_price"`
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil || r.FloorPrice.Cost != 1 {
		t.Errorf("json: exit %d, %v, %+v", code, err, r)
	}
}
