package casesvc_test

import (
	"encoding/json"
	"maps"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/casesvc"
	"solidarity/rules"
)

// matchList is a landing whose families the matching engine can tell apart:
//
//	K1 (2): a relative who is a beneficiary in FR (links 1), wants DE first;
//	K2 (3): wants FR first, ES second, speaks French;
//	K3 (1): wants ES, speaks Spanish;
//	K4 (1): an unaccompanied minor (left out of the proposal);
//	P5 (1): stays registered (not a candidate).
func matchList(at time.Time) *arrival.List {
	born := func(y int) time.Time { return time.Date(y, 3, 1, 0, 0, 0, 0, time.UTC) }
	p := func(ref, fam, name string, y int, langs []string, prefs ...solidarity.MemberState) arrival.Person {
		return arrival.Person{Ref: ref, Family: solidarity.FamilyID(fam), Name: name, BirthDate: born(y), Sex: arrival.Female,
			Nationality: "ER", Languages: langs, Preferences: prefs}
	}
	k1 := p("P1", "K1", "Matcha Fictiva", 1990, []string{"ti"}, "DE")
	k1.Relatives = []rules.FamilyMember{{Relation: rules.Sibling, State: "FR", Status: rules.StatusBeneficiary}}
	uam := p("P7", "", "Minnie Fictiva", 2011, []string{"ti"}, "DE")
	uam.UnaccompaniedMinor = true
	return &arrival.List{
		Arrival: solidarity.Arrival{Vessel: "Match Star", Port: "Pozzallo", At: at, SAR: true, Benefitting: "IT"},
		Persons: []arrival.Person{
			k1, p("P2", "K1", "Matchb Fictiva", 1992, nil),
			p("P3", "K2", "Matchc Fictiva", 1985, []string{"fr"}, "FR", "ES"), p("P4", "K2", "Matchd Fictiva", 1987, nil), p("P5", "K2", "Matche Fictiva", 2015, nil),
			p("P6", "", "Matchf Fictiva", 1999, []string{"es"}, "ES"),
			uam,
			p("P8", "", "Matchg Fictiva", 1970, nil),
		},
	}
}

// matchNames are every name of matchList: no proposal, explanation or error may hold one.
var matchNames = []string{"Matcha", "Matchb", "Matchc", "Matchd", "Matche", "Matchf", "Minnie", "Matchg"}

// matchSetup registers matchList, takes all but P8 to relocation clearance and
// records 2026 relocation pledges: DE 3, FR 4, ES 2. It returns the family IDs by
// label (K1, K2, K3, K4) and the cases.
func (e *env) matchSetup() (map[string]solidarity.FamilyID, []*solidarity.CaseRecord) {
	e.t.Helper()
	at := e.now.Add(-72 * time.Hour)
	r, err := e.svc.Register(e.as(officerIT), matchList(at), "")
	if err != nil {
		e.t.Fatal(err)
	}
	ids := make([]solidarity.CaseID, len(r.Cases))
	for i, c := range r.Cases {
		ids[i] = c.ID
	}
	for i, ev := range []cases.Event{cases.ScreeningStarted, cases.Applied, cases.Registration} {
		if _, err := e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: ev,
			At: at.Add(time.Duration(i+1) * 12 * time.Hour)}, ""); err != nil {
			e.t.Fatal(err)
		}
	}
	fams := map[string]solidarity.FamilyID{"K1": r.Cases[0].Family, "K2": r.Cases[2].Family, "K3": r.Cases[5].Family, "K4": r.Cases[6].Family}
	for _, head := range []int{0, 2, 5, 6} {
		for j, ev := range []cases.Event{cases.RelocationCandidate, cases.RelocationCleared} {
			if _, err := e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: ids[head], Event: ev,
				At: at.Add(time.Duration(48+j) * time.Hour)}, ""); err != nil {
				e.t.Fatal(err)
			}
		}
	}
	sys := e.as(solidarity.System)
	for _, p := range []struct {
		m solidarity.MemberState
		n int64
	}{{"DE", 3}, {"FR", 4}, {"ES", 2}} {
		if _, _, err := e.ledger.Pledge(sys, 2026, p.m, solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: p.n}, ""); err != nil {
			e.t.Fatal(err)
		}
	}
	return fams, r.Cases
}

func placedIn(p *casesvc.Proposal) map[solidarity.FamilyID]solidarity.MemberState {
	out := map[solidarity.FamilyID]solidarity.MemberState{}
	for _, pl := range p.Placements {
		out[pl.Family] = pl.State
	}
	return out
}

func noNames(t *testing.T, what string, v any) {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range matchNames {
		if strings.Contains(string(b), n) {
			t.Errorf("%s holds %q: %s", what, n, b)
		}
	}
}

// TestProposal: the proposal places the candidate families where the total score is
// highest within the pledges' room, leaves out the unaccompanied minor's family and
// the family not yet a candidate, explains a family with its next-best state and the
// exact cost, logs every read of a personal record, and is the coordinator's alone.
func TestProposal(t *testing.T) {
	stores(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn)
		fams, recs := e.matchSetup()
		for _, u := range []*solidarity.User{officerIT, officerDE, auditor, nil} {
			_, err := e.svc.Proposal(e.as(u), casesvc.ProposalRequest{})
			mustCode(t, "proposal by "+func() string {
				if u == nil {
					return "the public"
				}
				return u.Name
			}(), err, solidarity.EUNAUTHORIZED)
		}
		ctx := e.as(coordinator)
		p, err := e.svc.Proposal(ctx, casesvc.ProposalRequest{Explain: []solidarity.FamilyID{fams["K1"]}})
		if err != nil {
			t.Fatal(err)
		}
		// K2 FR (1 + 0.5) + K1 DE (1) + K3 ES (1 + 0.5) = 4; K1 in FR (2) would leave
		// no room there for K2, who only fits DE (0): 3.5.
		want := map[solidarity.FamilyID]solidarity.MemberState{fams["K1"]: "DE", fams["K2"]: "FR", fams["K3"]: "ES"}
		if got := placedIn(p); !maps.Equal(got, want) || p.Status != "optimal" || math.Abs(p.Value-4) > 1e-9 {
			t.Fatalf("proposal %v (%s, value %v), want %v", got, p.Status, p.Value, want)
		}
		if p.Year != 2026 || !p.Current || p.Families != 3 || p.Persons != 6 || len(p.Unplaced) != 0 {
			t.Errorf("proposal header %+v", p)
		}
		if len(p.Excluded) != 1 || p.Excluded[0].Family != fams["K4"] {
			t.Errorf("excluded %+v, want the unaccompanied minor's family", p.Excluded)
		}
		for _, r := range p.States {
			if r.State == "FR" && (r.Room != 4 || r.Proposed != 3) {
				t.Errorf("FR %+v", r)
			}
		}
		e1 := p.Explanations[fams["K1"]]
		if e1 == nil || e1.NextBest == nil || e1.NextBest.Place != "FR" || math.Abs(e1.NextBest.Cost-0.5) > 1e-9 {
			t.Fatalf("explanation of K1: %+v", e1)
		}
		if e1.Components.Preference != 1 || e1.NextBest.Components.Links != 1 || e1.Weights != casesvc.DefaultMatchWeights {
			t.Errorf("components %+v, next-best %+v", e1.Components, e1.NextBest.Components)
		}
		for _, w := range []string{"preference 1 × weight 1", "next-best place is FR", "links 1", "lower the total score by 0.5"} {
			if !strings.Contains(e1.Text, w) {
				t.Errorf("explanation lacks %q: %s", w, e1.Text)
			}
		}
		noNames(t, "the proposal", p)

		// Every candidate's record was read for matching, and logged; P8's was not.
		log, err := e.svc.AccessLog(ctx, solidarity.AccessFilter{Limit: 1000})
		if err != nil {
			t.Fatal(err)
		}
		read := map[solidarity.CaseID]bool{}
		for _, a := range log {
			if a.Purpose == "matching" {
				read[a.Case] = true
			}
		}
		for i, r := range recs {
			if read[r.ID] != (i != 7) {
				t.Errorf("case %d read for matching: %v", i, read[r.ID])
			}
		}

		// Deterministic.
		again, err := e.svc.Proposal(ctx, casesvc.ProposalRequest{})
		if err != nil || !maps.Equal(placedIn(again), want) {
			t.Fatalf("again: %v %v", err, again)
		}

		// A forbid: K2 may not go to FR; K1 takes FR, K2 DE (no score, but placed); K3 stays.
		f, err := e.svc.Proposal(ctx, casesvc.ProposalRequest{Forbids: map[solidarity.FamilyID][]solidarity.MemberState{fams["K2"]: {"FR"}}})
		if err != nil {
			t.Fatal(err)
		}
		if got := placedIn(f); got[fams["K2"]] != "DE" || got[fams["K1"]] != "FR" || got[fams["K3"]] != "ES" {
			t.Errorf("with K2 forbidden from FR: %v", got)
		}
		if !slices.Equal(f.Moved, []solidarity.FamilyID{fams["K1"]}) {
			t.Errorf("moved %v, want K1 only", f.Moved)
		}
		// A pin: K3 to DE.
		pin, err := e.svc.Proposal(ctx, casesvc.ProposalRequest{Pins: map[solidarity.FamilyID]solidarity.MemberState{fams["K3"]: "DE"}})
		if err != nil {
			t.Fatal(err)
		}
		if got := placedIn(pin); got[fams["K3"]] != "DE" || !slices.ContainsFunc(pin.Placements, func(p casesvc.Placement) bool { return p.Pinned }) {
			t.Errorf("with K3 pinned to DE: %v", got)
		}
		// Bad overrides.
		_, err = e.svc.Proposal(ctx, casesvc.ProposalRequest{Pins: map[solidarity.FamilyID]solidarity.MemberState{fams["K3"]: "PL"}})
		mustCode(t, "pin to a state without a pledge", err, solidarity.EINVALID)
		_, err = e.svc.Proposal(ctx, casesvc.ProposalRequest{Pins: map[solidarity.FamilyID]solidarity.MemberState{fams["K4"]: "DE"}})
		mustCode(t, "pin of an excluded family", err, solidarity.EINVALID)
		_, err = e.svc.Proposal(ctx, casesvc.ProposalRequest{Pins: map[solidarity.FamilyID]solidarity.MemberState{fams["K2"]: "ES"}})
		mustCode(t, "pin beyond the room", err, solidarity.ECONFLICT)
		noNames(t, "the error", err)
		_, err = e.svc.Proposal(ctx, casesvc.ProposalRequest{Explain: []solidarity.FamilyID{"F-NOSUCH"}})
		mustCode(t, "explanation of an unknown family", err, solidarity.ENOTFOUND)

		// Accept: each family allocated in its own transaction; a bad one reported.
		_, err = e.svc.Accept(e.as(officerIT), p.Placements, "")
		mustCode(t, "accept by an officer", err, solidarity.EUNAUTHORIZED)
		acc, err := e.svc.Accept(ctx, append(slices.Clone(p.Placements), casesvc.Placement{Family: "F-NOSUCH", State: "DE"}), "acc-1")
		if err != nil {
			t.Fatal(err)
		}
		if len(acc) != 4 || acc[3].Allocated || acc[3].Error == nil || acc[3].Error.Code != solidarity.ENOTFOUND {
			t.Fatalf("accepted %+v", acc)
		}
		for _, a := range acc[:3] {
			if !a.Allocated || a.Error != nil || len(a.Cases) == 0 {
				t.Errorf("family %s: %+v", a.Family, a)
			}
			for _, id := range a.Cases {
				r, err := e.svc.Case(ctx, id)
				if err != nil || r.Record.Allocated != a.State {
					t.Errorf("case %s allocated %q, want %s (%v)", id, r.Record.Allocated, a.State, err)
				}
			}
		}
		// A retry under the same key is a replay.
		acc, err = e.svc.Accept(ctx, p.Placements, "acc-1")
		if err != nil || !acc[0].Allocated || !acc[0].Replayed {
			t.Errorf("retry: %v %+v", err, acc)
		}
		// Nothing is left to propose but the excluded family; FR's room is down by 3.
		after, err := e.svc.Proposal(ctx, casesvc.ProposalRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if len(after.Placements) != 0 || after.Families != 0 || len(after.Excluded) != 1 {
			t.Errorf("after accepting: %+v", after)
		}
		for _, r := range after.States {
			if r.State == "FR" && (r.Allocated != 3 || r.Room != 1) {
				t.Errorf("FR after accepting %+v", r)
			}
		}
	})
}
