package keyinput_test

import (
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/keyinput"
)

const good = "state,population,gdp_meur,asylum_per_million,unemployment_rate\nDE,81197537,2915650,1000.5,5.0\nFR,66415161,2181064,700,10.3\n"

func TestParse(t *testing.T) {
	in, err := keyinput.Parse("k.csv", strings.NewReader(good))
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 2 || in[1].State != "FR" || in[0].AsylumPerMillion.FloatString(1) != "1000.5" {
		t.Fatalf("got %+v", in)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		field     string
	}{
		{"empty", "", 1, ""},
		{"bad header", "state,pop\n", 1, ""},
		{"unknown state", strings.Replace(good, "FR,", "NO,", 1), 3, "state"},
		{"negative", strings.Replace(good, "10.3", "-1", 1), 3, "unemployment_rate"},
		{"not a number", strings.Replace(good, "1000.5", "many", 1), 2, "asylum_per_million"},
		{"duplicate", good + "DE,1,1,1,1\n", 4, "state"},
		{"short row", good + "IT,1,1\n", 4, ""},
	} {
		_, err := keyinput.Parse("k.csv", strings.NewReader(tc.src))
		e, ok := err.(*solidarity.Error)
		if !ok || e.Code != solidarity.EINVALID || e.Line != tc.line || e.Field != tc.field || e.File != "k.csv" {
			t.Errorf("%s: got %#v, want line %d field %q", tc.name, err, tc.line, tc.field)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(good)
	f.Add("state,population,gdp_meur,asylum_per_million,unemployment_rate\n\"DE\",1,2,3,4\n")
	f.Add("\ufeffstate,population,gdp_meur,asylum_per_million,unemployment_rate\nEL,1e3,2,3,4\n")
	f.Fuzz(func(t *testing.T, src string) {
		in, err := keyinput.Parse("f.csv", strings.NewReader(src))
		if err != nil {
			if solidarity.ErrorCode(err) != solidarity.EINVALID {
				t.Fatalf("error without the invalid code: %v", err)
			}
			return
		}
		for _, x := range in {
			if !x.State.Valid() || x.Population.Sign() <= 0 || x.Unemployment.Sign() <= 0 {
				t.Fatalf("accepted a bad row: %+v", x)
			}
		}
	})
}
