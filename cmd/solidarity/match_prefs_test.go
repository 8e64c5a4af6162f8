package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"solidarity"
	"solidarity/match/prefs"
)

// A problem with two places of two persons and three families: every mechanism
// places at most two persons at each.
const prefsProblem = `{"dimensions": ["persons"],
 "families": [{"id": "a", "needs": [2]}, {"id": "b", "needs": [1]}, {"id": "c", "needs": [1]}],
 "places": [{"id": "p", "state": "DE", "capacity": [2]}, {"id": "q", "state": "FR", "capacity": [2]}],
 "pairs": [{"family": "a", "place": "p", "links": 1}, {"family": "b", "place": "p", "links": 0.5},
           {"family": "c", "place": "p", "links": 0.2}, {"family": "c", "place": "q", "links": 0.1},
           {"family": "b", "place": "q", "links": 0.3}]}`

func writePrefsProblem(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "problem.json")
	if err := os.WriteFile(p, []byte(prefsProblem), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestMatchPrefsFileJSON(t *testing.T) {
	var out, errs bytes.Buffer
	err := runMatchPrefs(context.Background(), []string{writePrefsProblem(t), "--draws", "20", "--format", "json"}, &out, &errs)
	if err != nil {
		t.Fatalf("%v (%s)", err, errs.String())
	}
	var s prefs.Summary
	if err := json.Unmarshal(out.Bytes(), &s); err != nil {
		t.Fatal(err)
	}
	if s.Draws != 20 || len(s.Results) != 3 || s.Results[0].Mechanism != "mttc" || s.Results[1].Mechanism != "tmda" || s.Results[2].Mechanism != "optimal" {
		t.Fatalf("%+v", s)
	}
	for _, r := range s.Results {
		m := r.Mean
		if m.Placed+m.Unplaced != 3 || len(m.Unfilled) != 1 || m.Unfilled[0] < 0 || r.Property == "" {
			t.Errorf("%s: %+v", r.Mechanism, m)
		}
	}
	// The optimum places a at p (score 1) and b, c at q (0.4): 1.4, whatever the draw.
	if opt := s.Results[2].Mean; opt.Score < 1.4-1e-9 || opt.Score > 1.4+1e-9 {
		t.Errorf("optimal score %v, want 1.4", opt.Score)
	}
	if s.Results[1].Mean.StrongEnvy != 0 {
		t.Errorf("TMDA leaves strong envy: %+v", s.Results[1].Mean)
	}
}

func TestMatchPrefsTable(t *testing.T) {
	var out, errs bytes.Buffer
	err := runMatchPrefs(context.Background(), []string{"--mechanism", "tmda", "--draws", "3", "--seed", "9", writePrefsProblem(t)}, &out, &errs)
	if err != nil {
		t.Fatalf("%v (%s)", err, errs.String())
	}
	for _, w := range []string{"means over 3 draws (seeds 9…11", "tmda", "optimal", "left persons", "weakly envy-free", "placed at rank 1, 2"} {
		if !strings.Contains(out.String(), w) {
			t.Errorf("output lacks %q:\n%s", w, out.String())
		}
	}
	if strings.Contains(out.String(), "mttc") {
		t.Errorf("mttc reported though not asked for:\n%s", out.String())
	}
}

func TestMatchPrefsHIAS(t *testing.T) {
	dir := filepath.Join("..", "..", "match", "hias", "testdata", "fy2017")
	if _, err := os.Stat(dir); err != nil {
		t.Skip(err)
	}
	var out, errs bytes.Buffer
	if err := runMatchPrefs(context.Background(), []string{"--hias", dir, "--model", "B", "--draws", "2"}, &out, &errs); err != nil {
		t.Fatalf("%v (%s)", err, errs.String())
	}
	if !strings.Contains(out.String(), "mttc") || !strings.Contains(out.String(), "Pareto-efficient") {
		t.Errorf("%s", out.String())
	}
}

func TestMatchPrefsBadFlags(t *testing.T) {
	file := writePrefsProblem(t)
	for _, c := range []struct {
		args  []string
		field string
	}{
		{[]string{file, "--mechanism", "mttc,boston"}, "--mechanism"},
		{[]string{file, "--draws", "0"}, "--draws"},
		{[]string{file, "--format", "xml"}, "--format"},
		{[]string{file, "--kind", "random"}, "--kind"},
		{[]string{"--hias", "x", "--model", "C"}, ""},
		{[]string{}, ""},
	} {
		var out, errs bytes.Buffer
		err := runMatchPrefs(context.Background(), c.args, &out, &errs)
		var e *solidarity.Error
		if !errors.As(err, &e) || e.Code != solidarity.EINVALID || (c.field != "" && e.Field != c.field) {
			t.Errorf("%v: error %v, want EINVALID on %q", c.args, err, c.field)
		}
	}
}
