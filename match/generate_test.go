package match_test

import (
	"bytes"
	"testing"

	"solidarity"
	"solidarity/match"
)

// The default generated problem is EU-scale and shaped as documented, the same for a
// seed, and compiles.
func TestGenerateDefault(t *testing.T) {
	if testing.Short() {
		t.Skip("12 000 families")
	}
	p := match.Generate(1, match.GenConfig{})
	var a, b bytes.Buffer
	if err := p.WriteJSON(&a); err != nil {
		t.Fatal(err)
	}
	if err := match.Generate(1, match.GenConfig{}).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Fatal("the same seed generates different problems")
	}
	if a.Len() > match.MaxProblemSize {
		t.Fatalf("%d bytes: over the problem size limit", a.Len())
	}
	q, err := match.ParseProblem("gen.json", &a)
	if err != nil {
		t.Fatal(err)
	}
	m, idx, err := q.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Families) != 12000 || len(m.Places) != 26*40 || m.Dims != 3 {
		t.Fatalf("%d families, %d places, %d dims", len(m.Families), len(m.Places), m.Dims)
	}
	var persons, singles, seniors, uam int64
	for f, fam := range m.Families {
		persons += idx.Persons[f]
		if idx.Persons[f] == 1 {
			singles++
			if fam.Need[0] == 1 {
				uam++
			}
		}
		seniors += fam.Need[2]
		if len(fam.Arcs) == 0 || len(fam.Arcs) > 24 {
			t.Fatalf("family %d has %d arcs", f, len(fam.Arcs))
		}
	}
	if per := float64(persons) / 12000; per < 2.3 || per > 2.7 {
		t.Errorf("%.2f persons a family, want about 2.5", per)
	}
	if s := float64(singles) / 12000; s < 0.52 || s > 0.58 {
		t.Errorf("%.2f single persons, want 0.55", s)
	}
	if s := float64(seniors) / float64(persons); s > 0.05 {
		t.Errorf("%.3f seniors: they should be rare", s)
	}
	if uam == 0 {
		t.Error("no unaccompanied minors")
	}
	states := map[solidarity.MemberState]bool{}
	var capacity int64
	for p, pl := range m.Places {
		states[idx.States[p]] = true
		for _, c := range pl.Cap {
			capacity += c
		}
	}
	if len(states) != 26 || states["DK"] {
		t.Errorf("states %v: want the 26 of Part IV", states)
	}
	if capacity < persons {
		t.Errorf("capacity %d for %d persons", capacity, persons)
	}
}

// Options show in the problem; other seeds give other problems; the key shapes the
// capacities.
func TestGenerateOptions(t *testing.T) {
	cfg := match.GenConfig{Families: 300, Localities: 5, Dims: 2, States: []solidarity.MemberState{"DE", "FR", "MT"},
		Key: map[solidarity.MemberState]float64{"DE": 0.6, "FR": 0.35, "MT": 0.05}, Groups: true, Balance: new(0.25), Must: 0.2}
	p := match.Generate(9, cfg)
	if len(p.Dimensions) != 2 || len(p.Places) != 15 || len(p.Groups) != 3 || p.Balance == nil || p.Balance.Tolerance != 0.25 {
		t.Fatalf("problem %d dims, %d places, %d groups, balance %+v", len(p.Dimensions), len(p.Places), len(p.Groups), p.Balance)
	}
	if p.Balance.Pledges["DE"] < 10*p.Balance.Pledges["MT"] {
		t.Errorf("pledges %v do not follow the key", p.Balance.Pledges)
	}
	must := 0
	for _, f := range p.Families {
		if f.Must {
			must++
		}
	}
	if must < 30 || must > 90 {
		t.Errorf("%d of 300 families must be placed, want about 60", must)
	}
	m, _, err := p.Compile()
	if err != nil {
		t.Fatal(err)
	}
	if len(m.Mins) != 3 || len(m.Groups) != 3 {
		t.Errorf("model %d mins, %d groups", len(m.Mins), len(m.Groups))
	}
	var x, y bytes.Buffer
	p.WriteJSON(&x)
	match.Generate(10, cfg).WriteJSON(&y)
	if bytes.Equal(x.Bytes(), y.Bytes()) {
		t.Error("seeds 9 and 10 generate the same problem")
	}
}
