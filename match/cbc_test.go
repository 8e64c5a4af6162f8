package match_test

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"solidarity"
	"solidarity/match"
)

// The cross-check: match.Solve against Debian's coinor-cbc on exported models. cbc is
// an optional external process (STYLE.md): without it these tests skip, and .ci/run
// installs it.

// randomSpec shapes a random model.
type randomSpec struct {
	families, places, dims int
	density                float64 // chance of each arc
	must                   float64 // chance a family must be placed
	groups, mins           int
	tight                  float64 // capacity ≈ tight × the needs that could come
}

// randomModel draws a model: needs 0–3 per dimension (at least one person), scores
// with two decimals in −0.5…5, capacities around tight times the expected demand,
// groups over random places at 70 % of their capacity, minimums over random places.
func randomModel(rng *rand.Rand, s randomSpec) *match.Model {
	m := &match.Model{Dims: s.dims}
	for range s.places {
		m.Places = append(m.Places, match.Place{Cap: make([]int64, s.dims)})
	}
	demand := make([]float64, s.dims)
	for range s.families {
		f := match.Family{Need: make([]int64, s.dims), Must: rng.Float64() < s.must}
		for d := range s.dims {
			f.Need[d] = int64(rng.IntN(4))
			demand[d] += float64(f.Need[d])
		}
		if slicesZero(f.Need) {
			f.Need[rng.IntN(s.dims)] = 1
		}
		for p := range s.places {
			if rng.Float64() < s.density {
				f.Arcs = append(f.Arcs, match.Arc{Place: p, Score: float64(rng.IntN(551)-50) / 100})
			}
		}
		m.Families = append(m.Families, f)
	}
	for p := range m.Places {
		for d := range s.dims {
			mean := s.tight * demand[d] / float64(s.places)
			m.Places[p].Cap[d] = int64(math.Round(mean * (0.5 + rng.Float64())))
		}
	}
	for range s.groups {
		g := match.Group{Cap: make([]int64, s.dims)}
		for p := range s.places {
			if rng.Float64() < 0.4 {
				g.Places = append(g.Places, p)
				for d := range s.dims {
					g.Cap[d] += m.Places[p].Cap[d]
				}
			}
		}
		for d := range g.Cap {
			g.Cap[d] = g.Cap[d] * 7 / 10
		}
		m.Groups = append(m.Groups, g)
	}
	for range s.mins {
		r := match.MinRow{Dim: rng.IntN(s.dims+1) - 1}
		var c int64
		for p := range s.places {
			if rng.Float64() < 0.3 {
				r.Places = append(r.Places, p)
				for d := range s.dims {
					if r.Dim < 0 || r.Dim == d {
						c += m.Places[p].Cap[d]
					}
				}
			}
		}
		r.Min = c * int64(rng.IntN(60)) / 100
		m.Mins = append(m.Mins, r)
	}
	return m
}

func slicesZero(v []int64) bool {
	for _, x := range v {
		if x != 0 {
			return false
		}
	}
	return true
}

// bruteForce enumerates every assignment; ok is false when none is feasible.
func bruteForce(m *match.Model) (best float64, ok bool) {
	place := make([]int, len(m.Families))
	var rec func(i int)
	rec = func(i int) {
		if i == len(m.Families) {
			if v, err := m.Value(place); err == nil && (!ok || v > best) {
				best, ok = v, true
			}
			return
		}
		if !m.Families[i].Must {
			place[i] = -1
			rec(i + 1)
		}
		for _, a := range m.Families[i].Arcs {
			place[i] = a.Place
			rec(i + 1)
		}
	}
	rec(0)
	return best, ok
}

// cbcResult is what cbc reported.
type cbcResult struct {
	status string // first word(s) of the solution file: "Optimal", "Infeasible", "Stopped on time", …
	value  float64
	place  []int
}

func (r cbcResult) optimal() bool { return r.status == "Optimal" }
func (r cbcResult) infeasible() bool {
	return strings.Contains(strings.ToLower(r.status), "infeasible")
}

func needCBC(tb testing.TB) string {
	tb.Helper()
	path, err := exec.LookPath("cbc")
	if err != nil {
		tb.Skip("cbc is not on PATH: install Debian's coinor-cbc (apt-get install coinor-cbc; .ci/run does) to cross-check the solver")
	}
	return path
}

// runCBC exports m (format "lp" or "mps"), solves it with cbc to proven optimality
// (gaps 0) within limit, and reads the solution back: the value is recomputed from
// the placement with Model.Value, which also checks that cbc's solution is feasible.
// extra are further cbc options, before -solve.
func runCBC(tb testing.TB, cbc string, m *match.Model, format string, limit time.Duration, extra ...string) cbcResult {
	tb.Helper()
	dir := tb.TempDir()
	model := filepath.Join(dir, "model."+format)
	f, err := os.Create(model)
	if err != nil {
		tb.Fatal(err)
	}
	if format == "lp" {
		err = match.WriteLP(f, m)
	} else {
		err = match.WriteMPS(f, m)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		tb.Fatal(err)
	}
	sol := filepath.Join(dir, "model.sol")
	// Debian's coinor-cbc 2.10: cbc FILE [-param value]... -solve -solu FILE
	args := append([]string{model, "-ratioGap", "0", "-allowableGap", "0",
		"-sec", strconv.Itoa(int(limit.Seconds()))}, extra...)
	cmd := exec.Command(cbc, append(args, "-solve", "-solu", sol)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		tb.Fatalf("cbc %s: %v\n%s", model, err, out)
	}
	r, err := readCBCSolution(sol, m)
	if err != nil {
		tb.Fatalf("%v\ncbc output:\n%s", err, out)
	}
	if r.optimal() || strings.HasPrefix(r.status, "Stopped") {
		v, err := m.Value(r.place)
		if err != nil && r.optimal() {
			tb.Fatalf("cbc's solution breaks the model: %v", err)
		}
		if err == nil {
			r.value = v
		}
	}
	return r
}

// readCBCSolution reads cbc's -solu file: a status line ("Optimal - objective value
// 7.75000000") and one line per non-zero column: index, name, value, objective.
func readCBCSolution(path string, m *match.Model) (cbcResult, error) {
	f, err := os.Open(path)
	if err != nil {
		return cbcResult{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	if !sc.Scan() {
		return cbcResult{}, fmt.Errorf("%s: empty", path)
	}
	head := sc.Text()
	status, _, _ := strings.Cut(head, " - ")
	r := cbcResult{status: strings.TrimSpace(status), place: make([]int, len(m.Families))}
	for i := range r.place {
		r.place[i] = -1
	}
	if _, v, ok := strings.Cut(head, "objective value "); ok {
		r.value, _ = strconv.ParseFloat(strings.TrimSpace(v), 64)
	}
	if r.infeasible() { // the columns are then the relaxation's, not a placement
		return r, nil
	}
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) < 3 || !strings.HasPrefix(fs[1], "x_") {
			continue
		}
		x, err := strconv.ParseFloat(fs[2], 64)
		if err != nil {
			return r, fmt.Errorf("%s: %q", path, sc.Text())
		}
		if x < 0.5 {
			continue
		}
		var fam, pl int
		if _, err := fmt.Sscanf(strings.ReplaceAll(fs[1], "_", " "), "x %d %d", &fam, &pl); err != nil || fam < 0 || fam >= len(r.place) {
			return r, fmt.Errorf("%s: bad column %q", path, fs[1])
		}
		if r.place[fam] >= 0 {
			return r, fmt.Errorf("%s: family %d placed twice", path, fam)
		}
		r.place[fam] = pl
	}
	return r, sc.Err()
}

// The harness itself: cbc's optimum on tiny models equals brute force, through both
// formats, feasible and infeasible. This holds whatever state the solver is in.
func TestCBCMatchesBruteForce(t *testing.T) {
	cbc := needCBC(t)
	rng := rand.New(rand.NewPCG(1, 2))
	infeasible := 0
	for i := range 40 {
		s := randomSpec{families: 2 + rng.IntN(7), places: 1 + rng.IntN(3), dims: 1 + rng.IntN(3),
			density: 0.7, must: 0.3 * rng.Float64(), groups: rng.IntN(2), mins: rng.IntN(2), tight: 0.6}
		m := randomModel(rng, s)
		want, ok := bruteForce(m)
		format := []string{"lp", "mps"}[i%2]
		got := runCBC(t, cbc, m, format, 60*time.Second)
		switch {
		case !ok:
			infeasible++
			if !got.infeasible() {
				t.Errorf("model %d (%s): brute force finds no solution, cbc says %q %v", i, format, got.status, got.value)
			}
		case !got.optimal():
			t.Errorf("model %d (%s): brute force %v, cbc says %q", i, format, want, got.status)
		case math.Abs(got.value-want) > 1e-9*math.Max(1, math.Abs(want)):
			t.Errorf("model %d (%s): brute force %v, cbc %v", i, format, want, got.value)
		}
		if got.optimal() && format == "lp" && math.Abs(got.value-want) > 1e-6*math.Max(1, math.Abs(want)) {
			t.Errorf("model %d: cbc's reported objective %v, brute force %v", i, got.value, want)
		}
	}
	if infeasible == 0 || infeasible == 40 {
		t.Errorf("%d of 40 models infeasible: the sample should have both kinds", infeasible)
	}
}

// crossCheckCase is one model of the cross-check.
type crossCheckCase struct {
	name   string
	model  *match.Model
	format string
}

func crossCheckCases() []crossCheckCase {
	rng := rand.New(rand.NewPCG(2026, 5))
	var cs []crossCheckCase
	add := func(name string, m *match.Model) {
		format := "lp"
		if len(cs)%4 == 3 {
			format = "mps"
		}
		cs = append(cs, crossCheckCase{fmt.Sprintf("%02d-%s", len(cs), name), m, format})
	}
	// Tiny to medium random models, 1–3 dimensions, some with groups, minimums, Must.
	sizes := [][2]int{{3, 2}, {5, 2}, {8, 3}, {10, 4}, {15, 5}, {20, 5}, {30, 6}, {40, 8}, {60, 10}, {80, 10}, {100, 12}, {120, 15}, {150, 15}, {200, 20}}
	for i := range 40 {
		sz := sizes[i%len(sizes)]
		// Each family compatible with 2–6 places, as in relocation (and so that cbc
		// proves optimality in seconds: dense, tight 3-dimensional models take minutes).
		s := randomSpec{families: sz[0], places: sz[1], dims: 1 + i%3, density: min(0.8, (2+4*rng.Float64())/float64(sz[1])),
			tight: 0.4 + 0.6*rng.Float64()}
		if i%3 == 1 {
			s.groups = 1 + rng.IntN(3)
		}
		if i%4 == 2 {
			s.mins = 1 + rng.IntN(2)
		}
		if i%5 == 3 {
			s.must = 0.2
		}
		add(fmt.Sprintf("random-%dx%d-d%d", sz[0], sz[1], s.dims), randomModel(rng, s))
	}
	// A few infeasible ones: Must beyond capacity, a minimum above what can come.
	for i := range 4 {
		s := randomSpec{families: 10 + 10*i, places: 3 + i, dims: 1 + i%3, density: 0.5, must: 1, tight: 0.3}
		add(fmt.Sprintf("infeasible-must-%d", i), randomModel(rng, s))
	}
	m := randomModel(rng, randomSpec{families: 30, places: 5, dims: 2, density: 0.5, tight: 1})
	m.Mins = append(m.Mins, match.MinRow{Places: []int{0}, Dim: -1, Min: 1 << 20})
	add("infeasible-min", m)
	// Generated relocation problems, small.
	for i, cfg := range []match.GenConfig{
		{Families: 60, Localities: 2, States: states(5), Dims: 3},
		{Families: 100, Localities: 3, States: states(6), Dims: 2, Groups: true},
		{Families: 150, Localities: 4, States: states(5), Dims: 3, Balance: new(0.2), Must: 0.3},
		{Families: 200, Localities: 4, States: states(5), Dims: 1, Groups: true},
		{Families: 200, Localities: 5, States: states(4), Dims: 3, Must: 0.5, Balance: new(0.1)},
		{Families: 120, Localities: 3, States: states(6), Dims: 3, Slack: 0.6},
	} {
		p := match.Generate(uint64(100+i), cfg)
		m, _, err := p.Compile()
		if err != nil { // a generated problem that is visibly infeasible is still a case
			continue
		}
		add(fmt.Sprintf("generated-%d-%dfam", i, cfg.Families), m)
	}
	return cs
}

// TestSolveAgainstCBC: on ≥ 50 models, match.Solve's status agrees with cbc's and its
// value with cbc's optimum within 1e-6 (relative). Solve's placement must be feasible.
func TestSolveAgainstCBC(t *testing.T) {
	cbc := needCBC(t)
	cs := crossCheckCases()
	if len(cs) < 50 {
		t.Fatalf("%d cases, want at least 50", len(cs))
	}
	// Every answer must be right: a claimed optimum equal to cbc's, a status equal to
	// cbc's, a bound never below cbc's optimum, a placement that breaks no constraint.
	// An optimum the engine finds but does not prove within the time limit is sound
	// but counted; more than maxUnproven of them fails the test (the engine's proof is
	// still slow on the hardest 3-dimension models: see the issue-5 note).
	const maxUnproven = 8
	var proven, unproven atomic.Int32
	t.Run("models", func(t *testing.T) {
		for _, c := range cs {
			t.Run(c.name, func(t *testing.T) {
				if testing.Short() && len(c.model.Families) > 50 {
					t.Skip("-short: models of up to 50 families only")
				}
				t.Parallel()
				want := runCBC(t, cbc, c.model, c.format, 60*time.Second)
				got, err := match.Solve(context.Background(), c.model, match.Options{TimeLimit: 10 * time.Second})
				if err != nil {
					t.Fatalf("Solve: %v", err)
				}
				switch {
				case want.infeasible():
					if got.Status != match.Infeasible {
						t.Errorf("cbc: infeasible; Solve: %s, value %v", got.Status, got.Value)
					}
					proven.Add(1)
					return
				case !want.optimal():
					t.Skipf("cbc did not finish (%s): no reference", want.status)
				}
				if got.Status == match.Infeasible {
					t.Fatalf("cbc optimum %v; Solve: infeasible (%s)", want.value, got.Reason)
				}
				v, err := c.model.Value(got.Place)
				if err != nil {
					t.Fatalf("Solve's placement breaks the model: %v", err)
				}
				if math.Abs(v-got.Value) > 1e-9*math.Max(1, math.Abs(v)) {
					t.Errorf("Solve reports value %v, its placement is worth %v", got.Value, v)
				}
				tol := 1e-6 * math.Max(1, math.Abs(want.value))
				if got.Bound < want.value-tol {
					t.Errorf("Solve's bound %v is below cbc's optimum %v", got.Bound, want.value)
				}
				if v > want.value+tol {
					t.Errorf("Solve's placement is worth %v, above cbc's optimum %v", v, want.value)
				}
				if got.Status != match.Optimal {
					unproven.Add(1)
					t.Logf("not proven in 10 s: value %v, bound %v, cbc optimum %v (gap %.2g)", v, got.Bound, want.value, got.Gap())
					return
				}
				if math.Abs(v-want.value) > tol {
					t.Errorf("Solve claims %v optimal, cbc proves %v", v, want.value)
				}
				proven.Add(1)
			})
		}
	})
	t.Logf("%d models agree with cbc, proven; %d sound but not proven within the limit", proven.Load(), unproven.Load())
	if n := unproven.Load(); n > maxUnproven {
		t.Errorf("%d models not proven optimal within the limit, at most %d expected", n, maxUnproven)
	}
}

// states returns the first n Part IV states.
func states(n int) []solidarity.MemberState { return solidarity.PartIV()[:n] }
