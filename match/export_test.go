package match_test

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"solidarity/match"
)

// parsed is a linear model read back from an export: objective and rows by column name.
type parsed struct {
	obj    map[string]float64
	rows   map[string]*parsedRow
	binary map[string]bool
	fixed0 map[string]bool // columns bounded to 0 (the LP's dummy)
}

type parsedRow struct {
	coef  map[string]float64
	sense string // "<=", "=", ">="
	rhs   float64
}

// holds reports whether the assignment x (columns at 1) satisfies every row, and its
// objective.
func (p *parsed) eval(x map[string]bool) (obj float64, ok bool) {
	for c, v := range p.obj {
		if x[c] {
			obj += v
		}
	}
	for _, r := range p.rows {
		var s float64
		for c, v := range r.coef {
			if x[c] {
				s += v
			}
		}
		switch r.sense {
		case "<=":
			if s > r.rhs {
				return obj, false
			}
		case ">=":
			if s < r.rhs {
				return obj, false
			}
		case "=":
			if s != r.rhs {
				return obj, false
			}
		}
	}
	return obj, true
}

// readLP reads the subset of CPLEX LP that WriteLP writes.
func readLP(t *testing.T, text string) *parsed {
	t.Helper()
	p := &parsed{obj: map[string]float64{}, rows: map[string]*parsedRow{}, binary: map[string]bool{}, fixed0: map[string]bool{}}
	section := ""
	var cur *parsedRow
	var curName string
	terms := func(fs []string, into map[string]float64) []string {
		for len(fs) >= 3 && (fs[0] == "+" || fs[0] == "-") {
			v, err := strconv.ParseFloat(fs[1], 64)
			if err != nil {
				t.Fatalf("LP: bad coefficient %q", fs[1])
			}
			if fs[0] == "-" {
				v = -v
			}
			into[fs[2]] += v
			fs = fs[3:]
		}
		return fs
	}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "\\") || strings.TrimSpace(line) == "" {
			continue
		}
		switch strings.TrimSpace(line) {
		case "Maximize", "Subject To", "Bounds", "Binaries", "End":
			section = strings.TrimSpace(line)
			continue
		}
		fs := strings.Fields(line)
		switch section {
		case "Maximize":
			if fs[0] == "obj:" {
				fs = fs[1:]
				if len(fs) == 2 && fs[0] == "0" { // "obj: 0 dummy"
					continue
				}
			}
			if rest := terms(fs, p.obj); len(rest) > 0 {
				t.Fatalf("LP objective: stray %q", rest)
			}
		case "Subject To":
			if strings.HasSuffix(fs[0], ":") {
				curName = strings.TrimSuffix(fs[0], ":")
				cur = &parsedRow{coef: map[string]float64{}}
				p.rows[curName] = cur
				fs = fs[1:]
				if len(fs) > 0 && fs[0] == "dummy" {
					cur.coef["dummy"] = 1
					fs = fs[1:]
				}
			}
			rest := terms(fs, cur.coef)
			if len(rest) == 2 {
				cur.sense = rest[0]
				cur.rhs, _ = strconv.ParseFloat(rest[1], 64)
			} else if len(rest) != 0 {
				t.Fatalf("LP row %s: stray %q", curName, rest)
			}
		case "Bounds":
			if len(fs) == 3 && fs[1] == "=" && fs[2] == "0" {
				p.fixed0[fs[0]] = true
			}
		case "Binaries":
			for _, c := range fs {
				p.binary[c] = true
			}
		}
	}
	return p
}

// readMPS reads the free MPS that WriteMPS writes, negating the objective back.
func readMPS(t *testing.T, text string) *parsed {
	t.Helper()
	p := &parsed{obj: map[string]float64{}, rows: map[string]*parsedRow{}, binary: map[string]bool{}, fixed0: map[string]bool{}}
	sense := map[string]string{"L": "<=", "G": ">=", "E": "="}
	section := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "*") || line == "" {
			continue
		}
		fs := strings.Fields(line)
		if !strings.HasPrefix(line, " ") {
			section = fs[0]
			continue
		}
		switch section {
		case "ROWS":
			if fs[0] != "N" {
				p.rows[fs[1]] = &parsedRow{coef: map[string]float64{}, sense: sense[fs[0]]}
			}
		case "COLUMNS":
			if fs[1] == "'MARKER'" {
				continue
			}
			v, _ := strconv.ParseFloat(fs[2], 64)
			if fs[1] == "obj" {
				p.obj[fs[0]] = -v
			} else {
				p.rows[fs[1]].coef[fs[0]] = v
			}
		case "RHS":
			p.rows[fs[1]].rhs, _ = strconv.ParseFloat(fs[2], 64)
		case "BOUNDS":
			if fs[0] == "BV" {
				p.binary[fs[2]] = true
			}
		}
	}
	return p
}

// columns returns, for an assignment by family, the set of columns at 1.
func columns(place []int) map[string]bool {
	x := map[string]bool{}
	for f, p := range place {
		if p >= 0 {
			x[fmt.Sprintf("x_%d_%d", f, p)] = true
		}
	}
	return x
}

// Both exports describe the same model: the same columns (one per arc, binary), the
// rows the comment announces, and for random assignments the same feasibility and
// objective as Model.Value.
func TestExportRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 60 {
		s := randomSpec{families: 1 + rng.IntN(12), places: 1 + rng.IntN(4), dims: 1 + rng.IntN(3),
			density: rng.Float64(), must: 0.3 * rng.Float64(), groups: rng.IntN(3), mins: rng.IntN(3), tight: 1.5 * rng.Float64()}
		m := randomModel(rng, s)
		arcs := 0
		for _, f := range m.Families {
			arcs += len(f.Arcs)
		}
		var lpText, mpsText bytes.Buffer
		if err := match.WriteLP(&lpText, m); err != nil {
			t.Fatal(err)
		}
		if err := match.WriteMPS(&mpsText, m); err != nil {
			t.Fatal(err)
		}
		lp, mps := readLP(t, lpText.String()), readMPS(t, mpsText.String())
		for name, p := range map[string]*parsed{"LP": lp, "MPS": mps} {
			if len(p.binary) != arcs {
				t.Fatalf("model %d %s: %d binary columns, %d arcs", i, name, len(p.binary), arcs)
			}
			want := fmt.Sprintf("%d rows", len(p.rows))
			if !strings.Contains(lpText.String(), want) || !strings.Contains(mpsText.String(), want) {
				t.Errorf("model %d %s: %s, the header says otherwise", i, name, want)
			}
			for f := range m.Families {
				if r := p.rows[fmt.Sprintf("assign_%d", f)]; r != nil && r.coef["dummy"] == 0 && len(r.coef) != len(m.Families[f].Arcs) {
					t.Errorf("model %d %s: assign_%d has %d terms, family has %d arcs", i, name, f, len(r.coef), len(m.Families[f].Arcs))
				}
			}
		}
		if len(lp.rows) != len(mps.rows) {
			t.Errorf("model %d: LP %d rows, MPS %d", i, len(lp.rows), len(mps.rows))
		}
		for range 50 {
			place := make([]int, len(m.Families))
			for f, fam := range m.Families {
				place[f] = -1
				if k := rng.IntN(len(fam.Arcs) + 1); k < len(fam.Arcs) {
					place[f] = fam.Arcs[k].Place
				}
			}
			want, err := m.Value(place)
			x := columns(place)
			for name, p := range map[string]*parsed{"LP": lp, "MPS": mps} {
				got, ok := p.eval(x)
				if ok != (err == nil) {
					t.Fatalf("model %d %s: assignment %v feasible %v, Model.Value says %v", i, name, place, ok, err)
				}
				if ok && math.Abs(got-want) > 1e-9 {
					t.Fatalf("model %d %s: objective %v, Model.Value %v", i, name, got, want)
				}
			}
		}
	}
}

// A model with nothing to choose: a family that must be placed but has no arc is
// infeasible in the exports too, and an empty model exports.
func TestExportDegenerate(t *testing.T) {
	m := &match.Model{Dims: 1, Places: []match.Place{{Cap: []int64{1}}}, Families: []match.Family{{Need: []int64{1}, Must: true}}}
	var b bytes.Buffer
	if err := match.WriteLP(&b, m); err != nil {
		t.Fatal(err)
	}
	lp := readLP(t, b.String())
	if r := lp.rows["assign_0"]; r == nil || r.coef["dummy"] != 1 || !lp.fixed0["dummy"] || r.rhs != 1 {
		t.Errorf("LP of an unplaceable family:\n%s", b.String())
	}
	b.Reset()
	if err := match.WriteMPS(&b, m); err != nil {
		t.Fatal(err)
	}
	if r := readMPS(t, b.String()).rows["assign_0"]; r == nil || r.sense != "=" || r.rhs != 1 || len(r.coef) != 0 {
		t.Errorf("MPS of an unplaceable family:\n%s", b.String())
	}
	if err := match.WriteLP(&b, &match.Model{Dims: 0}); err == nil {
		t.Error("an invalid model exports")
	}
}

// With cbc on PATH, exported tiny models solve to the brute-force optimum
// (TestCBCMatchesBruteForce in cbc_test.go does it for 40 models); here, the
// documented example through both formats.
func TestExportDocExampleWithCBC(t *testing.T) {
	cbc := needCBC(t)
	m, _ := mustCompile(t, mustParse(t, docExamples(t)[0]))
	want, ok := bruteForce(m)
	if !ok {
		t.Fatal("the documented example has no solution")
	}
	for _, format := range []string{"lp", "mps"} {
		got := runCBC(t, cbc, m, format, 30e9)
		if !got.optimal() || math.Abs(got.value-want) > 1e-9 {
			t.Errorf("%s: cbc %s %v, brute force %v", format, got.status, got.value, want)
		}
	}
}
