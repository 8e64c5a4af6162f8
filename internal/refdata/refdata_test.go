package refdata_test

import (
	"math/big"
	"slices"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/refdata"
)

func TestBuiltin(t *testing.T) {
	list := refdata.Builtin()
	var ids []string
	for _, d := range list {
		ids = append(ids, d.ID)
	}
	want := []string{"population-2025-01-01", "population-2025-07", "gdp-2024", "gdp-2024-official-partial"}
	if !slices.Equal(ids, want) || !slices.Equal(refdata.IDs(), want) {
		t.Fatalf("Builtin IDs %v, IDs() %v, want %v", ids, refdata.IDs(), want)
	}
	for _, d := range list {
		if d.Title == "" || d.Vintage == "" || d.Source == "" || d.Caveat == "" {
			t.Errorf("%s lacks title, vintage, source or caveat: %+v", d.ID, d)
		}
		if len(d.Rows) != 27 {
			t.Errorf("%s has %d rows, want one per Member State", d.ID, len(d.Rows))
		}
		for _, o := range d.Rows {
			if o.Vintage == "" {
				t.Errorf("%s %s has no vintage", d.ID, o.State)
			}
			if o.Value != nil && o.Source == "" {
				t.Errorf("%s %s has a figure without a source", d.ID, o.State)
			}
			if o.Period != d.Rows[0].Period {
				t.Errorf("%s %s period %q", d.ID, o.State, o.Period)
			}
		}
	}
}

func TestDefaults(t *testing.T) {
	pop, gdp := refdata.DefaultPopulation(), refdata.DefaultGDP()
	if pop.ID != "population-2025-01-01" || pop.Indicator != solidarity.Population || gdp.ID != "gdp-2024" || gdp.Indicator != solidarity.GDP {
		t.Fatalf("defaults %s (%s), %s (%s)", pop.ID, pop.Indicator, gdp.ID, gdp.Indicator)
	}
	for _, d := range []*solidarity.Dataset{pop, gdp} {
		if m := d.Missing(solidarity.MemberStates()); len(m) != 0 {
			t.Errorf("%s misses %v", d.ID, m)
		}
	}
	checkValue(t, pop, "DE", "83577140", "2025-01-01")
	checkValue(t, pop, "EL", "10372335", "2025-01-01")
	checkValue(t, gdp, "DE", "4328970", "2024")
	checkValue(t, gdp, "SE", "558044.4", "2024")
}

func TestCaveats(t *testing.T) {
	gdp := refdata.DefaultGDP()
	for _, s := range []string{"IMF World Economic Outlook October 2025", "not a Eurostat nama_10_gdp extract", "7 non-euro states", "mean 2024 ECB"} {
		if !strings.Contains(gdp.Caveat, s) {
			t.Errorf("gdp-2024 caveat lacks %q: %s", s, gdp.Caveat)
		}
	}
	// The caveat's list of converted states must be the file's.
	var converted []string
	for _, o := range gdp.Rows {
		if strings.HasPrefix(o.Note, "converted from ") {
			converted = append(converted, string(o.State))
		}
	}
	if got := strings.Join(converted, ", "); len(converted) != 7 || !strings.Contains(gdp.Caveat, "("+got+")") {
		t.Errorf("converted states %s do not match the caveat %q", got, gdp.Caveat)
	}
	if o, _ := gdp.Get("HU"); o.Note != "converted from 81514214 million HUF at 395.30 HUF per EUR" {
		t.Errorf("HU note %q", o.Note)
	}

	partial, _ := refdata.Lookup("gdp-2024-official-partial")
	if !strings.Contains(partial.Caveat, "Cross-check only") || !strings.Contains(partial.Caveat, "missing") {
		t.Errorf("partial caveat %q", partial.Caveat)
	}
	missing := partial.Missing(solidarity.MemberStates())
	if got := joinStates(missing); got != "BE, DK, EE, IE, LV, LU, FI" || !strings.Contains(partial.Caveat, "("+got+")") {
		t.Errorf("partial misses %s; caveat %q", got, partial.Caveat)
	}
	for _, m := range missing {
		if o, _ := partial.Get(m); !strings.HasPrefix(o.Note, "NOT FOUND") || o.Note != o.Vintage {
			t.Errorf("%s: a missing figure keeps its vintage text as the note, got %q", m, o.Note)
		}
	}
	if o, _ := partial.Get("EL"); !strings.Contains(o.Note, "constant prices") {
		t.Errorf("EL note %q", o.Note)
	}
	if _, ok := partial.Get("EL"); !ok || len(partial.Rows) != 27 {
		t.Errorf("the EU27_2020 row must be skipped, not kept: %d rows", len(partial.Rows))
	}

	july, _ := refdata.Lookup("population-2025-07")
	if !strings.Contains(july.Caveat, "rounded to the nearest 100") {
		t.Errorf("July caveat %q", july.Caveat)
	}
	for _, o := range july.Rows {
		if q := new(big.Rat).Quo(o.Value, big.NewRat(100, 1)); !q.IsInt() {
			t.Errorf("%s %s is not rounded to 100", o.State, o.Value.RatString())
		}
	}
}

func TestLookup(t *testing.T) {
	if _, ok := refdata.Lookup("gdp-2023"); ok {
		t.Error("Lookup found a dataset that does not exist")
	}
	// Copies: a caller changing one must not change the next.
	d, _ := refdata.Lookup("gdp-2024")
	d.Rows[0].Value.SetInt64(1)
	d.Rows[1].Note = "changed"
	d.Caveat = ""
	e, _ := refdata.Lookup("gdp-2024")
	if e.Rows[0].Value.Cmp(big.NewRat(1, 1)) == 0 || e.Rows[1].Note == "changed" || e.Caveat == "" {
		t.Error("Lookup returned shared data")
	}
}

func TestREADME(t *testing.T) {
	if !strings.Contains(refdata.README(), "Reference data for the reference key") {
		t.Error("README not embedded")
	}
}

func checkValue(t *testing.T, d *solidarity.Dataset, m solidarity.MemberState, value, period string) {
	t.Helper()
	o, ok := d.Get(m)
	want, _ := new(big.Rat).SetString(value)
	if !ok || o.Value == nil || o.Value.Cmp(want) != 0 || o.Period != period {
		t.Errorf("%s %s = %+v, want %s for %s", d.ID, m, o, value, period)
	}
}

func joinStates(ms []solidarity.MemberState) string {
	s := make([]string, len(ms))
	for i, m := range ms {
		s[i] = string(m)
	}
	return strings.Join(s, ", ")
}
