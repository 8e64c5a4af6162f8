package casesvc_test

import (
	"maps"
	"math"
	"reflect"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/casesvc"
)

// TestProposalPotentials: with nothing allocated this year the potentials are zero
// and the proposal is the static one; once families are allocated they are
// non-negative, the same on every request, and the year's hindsight report never
// puts the placements made above their hindsight optimum. Only the coordinator may
// ask, with either method.
func TestProposalPotentials(t *testing.T) {
	stores(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn)
		// Week 9 of 2026: 43 weeks left, so two families allocated make a future.
		e.now = time.Date(2026, 3, 2, 10, 0, 0, 0, time.UTC)
		fams, _ := e.matchSetup()
		ctx := e.as(coordinator)

		for _, u := range []*solidarity.User{officerIT, officerDE, auditor, nil} {
			for _, m := range []string{casesvc.MethodStatic, casesvc.MethodPotentials} {
				_, err := e.svc.Proposal(e.as(u), casesvc.ProposalRequest{Method: m})
				mustCode(t, "proposal "+m+" by a role that may not propose", err, solidarity.EUNAUTHORIZED)
			}
		}
		_, err := e.svc.Proposal(ctx, casesvc.ProposalRequest{Method: "oracle"})
		mustCode(t, "an unknown method", err, solidarity.EINVALID)

		static, err := e.svc.Proposal(ctx, casesvc.ProposalRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if static.Method != casesvc.MethodStatic || static.Potentials != nil || static.Hindsight == nil || static.Hindsight.Families != 0 {
			t.Fatalf("static proposal before any allocation: method %q, potentials %+v, hindsight %+v", static.Method, static.Potentials, static.Hindsight)
		}

		type check func(t *testing.T, p *casesvc.Proposal)
		steps := []struct {
			name   string
			accept []solidarity.FamilyID // allocated before the step
			check  check
		}{
			{"nothing allocated: zero potentials, the static proposal", nil, func(t *testing.T, p *casesvc.Proposal) {
				if p.Potentials == nil || p.Potentials.Future != 0 || p.Potentials.Pool != 0 {
					t.Fatalf("potentials %+v", p.Potentials)
				}
				for _, sp := range p.Potentials.States {
					if sp.PerPerson != 0 {
						t.Errorf("%s: potential %v with nothing allocated", sp.State, sp.PerPerson)
					}
				}
				if !maps.Equal(placedIn(p), placedIn(static)) || p.Value != static.Value {
					t.Errorf("with zero potentials %v (%v), static %v (%v)", placedIn(p), p.Value, placedIn(static), p.Value)
				}
				if p.Hindsight.Families != 0 || p.Hindsight.Online != 0 {
					t.Errorf("hindsight with nothing allocated: %+v", p.Hindsight)
				}
			}},
			{"K3 allocated: a future of 5 families that want Spain", []solidarity.FamilyID{fams["K3"]}, func(t *testing.T, p *casesvc.Proposal) {
				// 1 family in 9 weeks, 43 weeks left: round(43 / 9) = 5, each K3 again
				// (ES scores 1.5) for ES's last place.
				if p.Potentials.Pool != 1 || p.Potentials.Future != 5 || p.Potentials.Samples != 20 || p.Potentials.Seed != 2026 {
					t.Errorf("potentials %+v", p.Potentials)
				}
				// Spain's last place is worth something for the rest of the year.
				if potentialIn(p, "ES") <= 0 {
					t.Errorf("Spain's potential %v, want > 0 (its last place is wanted by the future)", potentialIn(p, "ES"))
				}
				if got := placedIn(p); len(got) != 2 || got[fams["K1"]] == "" || got[fams["K2"]] == "" {
					t.Errorf("placements %v, want K1 and K2 placed", got)
				}
				if h := p.Hindsight; h.Families != 1 || math.Abs(h.Online-1.5) > 1e-9 || math.Abs(h.RatioPercent-100) > 1e-9 {
					t.Errorf("hindsight %+v", h)
				}
				fp, ok := p.ExplainedPotentials[fams["K2"]]
				if !ok || fp.State == "" || fp.Potential != potentialIn(p, fp.State) || fp.NextBest == "" || fp.NextPotential != potentialIn(p, fp.NextBest) {
					t.Errorf("explained potentials %+v", p.ExplainedPotentials)
				}
			}},
			{"K1 allocated too: a future of 10 families", []solidarity.FamilyID{fams["K1"]}, func(t *testing.T, p *casesvc.Proposal) {
				// 2 families in 9 weeks, 43 weeks left: round(2 · 43 / 9) = 10.
				if p.Potentials.Pool != 2 || p.Potentials.Future != 10 {
					t.Errorf("potentials %+v", p.Potentials)
				}
				// K2 (3 persons) is the only candidate left and still placed.
				if got := placedIn(p); len(got) != 1 || got[fams["K2"]] == "" {
					t.Errorf("placements %v", got)
				}
				// K1 in DE (preference 1), K3 in ES (preference 1, Spanish 0.5): 2.5,
				// which is also the best of these two families in DE 2 and ES 1.
				h := p.Hindsight
				if h.Families != 2 || h.Persons != 3 || math.Abs(h.Online-2.5) > 1e-9 || math.Abs(h.Value-2.5) > 1e-9 ||
					h.Status != "optimal" || math.Abs(h.RatioPercent-100) > 1e-9 {
					t.Errorf("hindsight %+v", h)
				}
			}},
		}
		for _, st := range steps {
			t.Run(st.name, func(t *testing.T) {
				if len(st.accept) > 0 {
					var pls []casesvc.Placement
					for _, f := range st.accept {
						pls = append(pls, casesvc.Placement{Family: f, State: placedIn(static)[f]})
					}
					if _, err := e.svc.Accept(ctx, pls, ""); err != nil {
						t.Fatal(err)
					}
				}
				req := casesvc.ProposalRequest{Method: casesvc.MethodPotentials}
				if len(st.accept) > 0 {
					req.Explain = []solidarity.FamilyID{fams["K2"]}
				}
				p, err := e.svc.Proposal(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				st.check(t, p)
				again, err := e.svc.Proposal(ctx, req)
				if err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(again.Potentials, p.Potentials) || !maps.Equal(placedIn(again), placedIn(p)) {
					t.Errorf("not reproducible: %+v then %+v", p.Potentials, again.Potentials)
				}
				for _, sp := range p.Potentials.States {
					if sp.PerPerson < 0 || math.IsNaN(sp.PerPerson) {
						t.Errorf("%s: potential %v", sp.State, sp.PerPerson)
					}
				}
				if h := p.Hindsight; h.Online > h.Value+1e-9 || h.RatioPercent > 100 || (h.Bound != nil && *h.Bound < h.Value-1e-9) {
					t.Errorf("hindsight above its optimum: %+v", h)
				}
				noNames(t, "the proposal with potentials", p)
			})
		}
	})
}

func potentialIn(p *casesvc.Proposal, m solidarity.MemberState) float64 {
	for _, sp := range p.Potentials.States {
		if sp.State == m {
			return sp.PerPerson
		}
	}
	return -1
}
