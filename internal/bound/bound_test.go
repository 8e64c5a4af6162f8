package bound_test

import (
	"math/big"
	"strings"
	"testing"

	"solidarity"
	"solidarity/internal/bound"
)

func TestTOMLDepth(t *testing.T) {
	tests := []struct {
		name string
		src  string
		ok   bool
	}{
		{"inline tables 8000 deep (issue 12)", "x = " + strings.Repeat("{a=", 8000) + "1" + strings.Repeat("}", 8000), false},
		{"arrays 300000 deep (issue 12)", "x = " + strings.Repeat("[", 300000) + strings.Repeat("]", 300000), false},
		{"dotted key 8000 parts", "x" + strings.Repeat(".a", 8000) + " = 1", false},
		{"dotted header 8000 parts", "[x" + strings.Repeat(".a", 8000) + "]\n", false},
		{"dotted key inside inline tables", "x = " + strings.Repeat("{a.a.a.a=", 8) + "1" + strings.Repeat("}", 8), false},
		{"inline tables 31 deep", "x = " + strings.Repeat("{a=", 31) + "1" + strings.Repeat("}", 31), true},
		{"arrays 32 deep", "x = " + strings.Repeat("[", 32) + strings.Repeat("]", 32), true},
		{"brackets in strings and comments", "x = \"" + strings.Repeat("[{", 100) + "\" # " + strings.Repeat("[", 100) + "\ny = '''" + strings.Repeat("{", 100) + "'''\nz = \"\"\"\n" + strings.Repeat("[.", 100) + "\"\"\"", true},
		{"dots in numbers and quoted keys", "x = 1.5\n\"a.b.c.d.e.f.g.h.i.j.k.l.m.n.o.p.q.r.s.t.u.v.w.x.y.z.a.b.c.d.e.f.g\" = 2.5e3\nd = 2026-01-01T00:00:00Z\n", true},
		{"a cycle file's shape", "year = 2026\n[reference]\nrelocations = 30000\n[status.EL]\nunder_pressure = true\n[[pledge]]\nstate = \"DE\"\neur = \"1.50\"\n[sar]\nshare = \"1/2\"\n", true},
		{"long string", "x = \"" + strings.Repeat("a", 70<<10) + "\"", false},
		{"long number", "x = " + strings.Repeat("1", 200), false},
		{"too many values", "x = [" + strings.Repeat("1,", 300000) + "]", false},
		{"too large", strings.Repeat("# comment\n", 200000), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := bound.TOML("f.toml", []byte(tt.src), bound.Limits{})
			if tt.ok != (err == nil) {
				t.Fatalf("TOML = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && (solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "f.toml:") || !strings.Contains(err.Error(), "limit")) {
				t.Errorf("error %q: want EINVALID naming the file, line and limit", err)
			}
		})
	}
}

func TestJSON(t *testing.T) {
	tests := []struct {
		name string
		src  string
		ok   bool
	}{
		{"objects 8000 deep", strings.Repeat(`{"a":`, 8000) + "1" + strings.Repeat("}", 8000), false},
		{"arrays 33 deep", strings.Repeat("[", 33) + strings.Repeat("]", 33), false},
		{"arrays 32 deep", strings.Repeat("[", 32) + strings.Repeat("]", 32), true},
		{"brackets in strings", `{"a": "` + strings.Repeat(`[{\"`, 100) + `"}`, true},
		{"number of a million digits", `{"a": 1` + strings.Repeat("0", 1<<19) + `}`, false},
		{"long string", `{"a": "` + strings.Repeat("x", 70<<10) + `"}`, false},
		{"too many values", "[" + strings.Repeat("1,", 300000) + "1]", false},
		{"ordinary", `{"cycle": 2026, "fraction": "1/2", "ok": true, "n": null, "xs": [1.5e3, -2]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := bound.JSON("f.json", []byte(tt.src), bound.Limits{})
			if tt.ok != (err == nil) {
				t.Fatalf("JSON = %v, want ok=%v", err, tt.ok)
			}
			if err != nil && solidarity.ErrorCode(err) != solidarity.EINVALID {
				t.Errorf("code %s, want invalid", solidarity.ErrorCode(err))
			}
		})
	}
}

func TestCSV(t *testing.T) {
	tests := []struct {
		name string
		src  string
		sep  byte
		ok   bool
	}{
		{"ordinary", "a,b,c\n1,\"x,\ny\",3\r\n", ',', true},
		{"quoted quote", "a,\"he said \"\"hi,\"\"\"\n", ',', true},
		{"a million separators", strings.Repeat(",", 1<<19), ',', false},
		{"too many rows", strings.Repeat("a\n", 300000), ',', false},
		{"long field", strings.Repeat("a", 70<<10) + "\n", ',', false},
		{"tabs", "geo\\time\t2024\nDE\t1\n", '\t', true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := bound.CSV("f.csv", []byte(tt.src), tt.sep, bound.Limits{})
			if tt.ok != (err == nil) {
				t.Fatalf("CSV = %v, want ok=%v", err, tt.ok)
			}
		})
	}
}

func TestRat(t *testing.T) {
	tests := []struct {
		s         string
		fractions bool
		want      string // "" for an error
	}{
		{"0.42", false, "21/50"},
		{"21/50", true, "21/50"},
		{"21/50", false, ""},
		{"-12", false, "-12"},
		{"+3", false, "3"},
		{".5", false, "1/2"},
		{"4.2e-1", false, "21/50"},
		{"1E3", false, "1000"},
		{"1e-1000000", false, ""}, // issue 12: 32 ms and 0.7 MB each
		{"1e40", false, "10000000000000000000000000000000000000000"},
		{"1e41", false, ""},
		{"1e99999999999999999999999", false, ""},
		{"1/" + strings.Repeat("9", 10), true, ""},
		{"1/" + strings.Repeat("9", 9), true, "1/999999999"},
		{strings.Repeat("1", 41), false, ""},
		{"0x10", false, ""},
		{"1_000", false, ""},
		{"1/0", true, ""},
		{"1.5/2", true, ""},
		{"", false, ""},
		{"-", false, ""},
		{"1e", false, ""},
		{"1/", true, ""},
		{"1 ", false, ""},
	}
	for _, tt := range tests {
		r, err := bound.Rat("fraction", tt.s, tt.fractions, bound.Numbers{})
		switch {
		case tt.want == "" && err == nil:
			t.Errorf("Rat(%q) = %s, want an error", tt.s, r)
		case tt.want == "" && (solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), `"fraction"`)):
			t.Errorf("Rat(%q) error %v: want EINVALID naming the field", tt.s, err)
		case tt.want != "" && err != nil:
			t.Errorf("Rat(%q): %v", tt.s, err)
		case tt.want != "":
			w, _ := new(big.Rat).SetString(tt.want)
			if r.Cmp(w) != 0 {
				t.Errorf("Rat(%q) = %s, want %s", tt.s, r.RatString(), tt.want)
			}
		}
	}
}
