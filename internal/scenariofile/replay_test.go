package scenariofile_test

import (
	"context"
	"encoding/csv"
	"os"
	"strconv"
	"strings"
	"testing"

	"solidarity/internal/scenariofile"
	"solidarity/simulation"
)

// TestReplay2015Golden is the first "done when": the replay reproduces every
// published per-state figure and "% of legal commitment" of the 13 July 2017 table and
// the published totals at the other dates. The figures are read from the spec's table
// itself, not from the shipped CSV, so a slip in either shows.
func TestReplay2015Golden(t *testing.T) {
	r := replay(t)
	type key struct{ date, state, from string }
	got := map[key]simulation.Checkpoint{}
	for _, c := range r.Replay.Checkpoints {
		got[key{c.Date, string(c.State), string(c.From)}] = c
	}
	check := func(k key, value int64, pct string) {
		t.Helper()
		c, ok := got[k]
		if !ok {
			t.Errorf("%v: no checkpoint", k)
			return
		}
		if c.Value != value {
			t.Errorf("%v: replay %d, published %d", k, c.Value, value)
		}
		if c.Estimated {
			t.Errorf("%v: a published figure shown as estimated", k)
		}
		if pct != "" && c.Percent != pct {
			t.Errorf("%v: %s %% of legal commitment, published %s", k, c.Percent, pct)
		}
	}
	// historical-data.md §2.2, the 13 July 2017 columns.
	rows := specTable(t, "member_state,it_2017_07_13")
	codes := map[string]string{}
	for _, c := range []struct{ name, code string }{{"Austria", "AT"}, {"Belgium", "BE"}, {"Bulgaria", "BG"}, {"Croatia", "HR"},
		{"Cyprus", "CY"}, {"Czech Republic", "CZ"}, {"Estonia", "EE"}, {"Finland", "FI"}, {"France", "FR"}, {"Germany", "DE"},
		{"Hungary", "HU"}, {"Ireland", "IE"}, {"Latvia", "LV"}, {"Lithuania", "LT"}, {"Luxembourg", "LU"}, {"Malta", "MT"},
		{"Netherlands", "NL"}, {"Poland", "PL"}, {"Portugal", "PT"}, {"Romania", "RO"}, {"Slovakia", "SK"}, {"Slovenia", "SI"},
		{"Spain", "ES"}, {"Sweden", "SE"}, {"Norway", "NO"}, {"Switzerland", "CH"}, {"Liechtenstein", "LI"}} {
		codes[c.name] = c.code
	}
	n := 0
	for _, row := range rows[1:] {
		name := row[0]
		if name == "TOTAL" {
			check(key{"2017-07-13", "", "IT"}, atoi(t, row[1]), "")
			check(key{"2017-07-13", "", "EL"}, atoi(t, row[2]), "")
			check(key{"2017-07-13", "", ""}, atoi(t, row[3]), "")
			check(key{"2018-02-05", "", "IT"}, atoi(t, row[6]), "")
			check(key{"2018-02-05", "", "EL"}, atoi(t, row[7]), "")
			continue
		}
		code, ok := codes[name]
		if !ok {
			t.Fatalf("unknown state %q in the spec's table", name)
		}
		check(key{"2017-07-13", code, "IT"}, atoi(t, row[1]), "")
		check(key{"2017-07-13", code, "EL"}, atoi(t, row[2]), "")
		check(key{"2017-07-13", code, ""}, atoi(t, row[3]), row[4])
		if row[5] != "" {
			check(key{"2017-09-01", code, ""}, atoi(t, row[5]), "")
		}
		if row[6] != "" {
			check(key{"2018-02-05", code, "IT"}, atoi(t, row[6]), "")
			check(key{"2018-02-05", code, "EL"}, atoi(t, row[7]), "")
		}
		n++
	}
	if n != 27 {
		t.Errorf("%d states in the 13 July 2017 table, want 27 (24 EU and NO, CH, LI)", n)
	}
	// §2.1: the totals at the other dates.
	check(key{"2016-09-27", "", "IT"}, 1196, "")
	check(key{"2016-09-27", "", "EL"}, 4455, "")
	check(key{"2016-09-27", "", ""}, 5651, "")
	check(key{"2017-02-07", "", "IT"}, 3200, "")
	check(key{"2017-02-07", "", "EL"}, 8766, "")
	check(key{"2017-02-07", "", ""}, 11966, "")
	check(key{"2018-02-05", "", ""}, 11853+21729, "")
	if r.Replay.Met != r.Replay.Published || r.Replay.Published < 100 {
		t.Errorf("met %d of %d published figures", r.Replay.Met, r.Replay.Published)
	}
	// What no source gives is estimated, and shown so: the per-state figures of
	// 27 September 2016.
	if c := got[key{"2016-09-27", "FR", ""}]; !c.Estimated || c.Published != nil {
		t.Errorf("FR on 2016-09-27: %+v, want an estimate", c)
	}
}

// TestReplay2015Compared: the figures of other series stand beside the replay with
// their deviation, which is what "deviations from estimated figures are shown" means.
func TestReplay2015Compared(t *testing.T) {
	r := replay(t)
	if len(r.Replay.Compared) == 0 {
		t.Fatal("no figure of another series compared")
	}
	var nine bool
	for _, c := range r.Replay.Compared {
		if c.Deviation != c.Replay-c.Published {
			t.Errorf("%+v: deviation is not replay − published", c)
		}
		if c.Date == "2017-02-08" && c.State == "" && c.From == "" {
			nine = true
			// The Commission's 9th report counts 8 162; the table of 7 February 11 966.
			if c.Published != 8162 || c.Replay < 11966 {
				t.Errorf("9th report: %+v", c)
			}
		}
	}
	if !nine {
		t.Error("the 9th report's total is not compared")
	}
}

func replay(t *testing.T) *simulation.Result {
	t.Helper()
	s, _, err := scenariofile.Open("replay-2015")
	if err != nil {
		t.Fatal(err)
	}
	r, err := simulation.Run(context.Background(), s, 0, 1)
	if err != nil {
		t.Fatal(err)
	}
	if r.Replay == nil {
		t.Fatal("no replay in the result")
	}
	return r
}

// specTable reads the CSV block of historical-data.md whose header starts with head.
func specTable(t *testing.T, head string) [][]string {
	t.Helper()
	b, err := os.ReadFile("../../../shared/spec/historical-data.md")
	if err != nil {
		t.Skipf("the spec is not at hand: %v", err)
	}
	_, rest, ok := strings.Cut(string(b), "\n"+head)
	if !ok {
		t.Fatalf("no table %q in the spec", head)
	}
	block, _, _ := strings.Cut(head+rest, "```")
	rows, err := csv.NewReader(strings.NewReader(block)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func atoi(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}
