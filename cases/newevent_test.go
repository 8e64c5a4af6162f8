package cases_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/keyring"
)

// TestNewEvent adds a legal event as a newcomer would, one row of the table of events
// and one rule of the transition table, and drives it through the case service: the
// service applies the new event's columns (the state of relocation's act, moving the
// whole family) with no change outside package cases.
func TestNewEvent(t *testing.T) {
	const interview cases.Event = "relocation-interview-held" // test-only
	cases.AddEvent(t, interview, "Interview held by the Member State of relocation (test-only event)", "Art. 67 AMMR",
		cases.DoesByRelocation|cases.DoesFamily, []cases.State{cases.RelocationInfoSent}, "",
		"Interview held by the Member State of relocation before it confirms (test-only)")
	if !cases.Can(cases.RelocationInfoSent, interview) || interview.By() != cases.ByRelocation ||
		!interview.MovesFamily(cases.RelocationInfoSent) {
		t.Fatal("the added event is not in the table")
	}

	ctx := context.Background()
	now := time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	l, err := app.Service(ctx, filepath.Join(t.TempDir(), "c.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Store.Close() })
	l.Now = func() time.Time { return now }
	if _, err := app.Seed(ctx, l, false); err != nil {
		t.Fatal(err)
	}
	k, err := keyring.Parse("test", strings.NewReader(keyring.NewKey(1)))
	if err != nil {
		t.Fatal(err)
	}
	svc, err := app.Cases(l, k)
	if err != nil {
		t.Fatal(err)
	}
	as := func(u *solidarity.User) context.Context { return solidarity.NewContextWithUser(ctx, u) }
	coordinator := &solidarity.User{Name: "coord", Role: solidarity.Coordinator}
	officerIT := &solidarity.User{Name: "off-it", Role: solidarity.Officer, State: "IT"}
	officerDE := &solidarity.User{Name: "off-de", Role: solidarity.Officer, State: "DE"}

	landed := now.Add(-72 * time.Hour)
	born := func(y int) time.Time { return time.Date(y, 3, 1, 0, 0, 0, 0, time.UTC) }
	reg, err := svc.Register(as(officerIT), &arrival.List{
		Arrival: solidarity.Arrival{Vessel: "Test Vessel", Port: "Lampedusa", At: landed, SAR: true, Benefitting: "IT"},
		Persons: []arrival.Person{
			{Ref: "P1", Family: "K1", Name: "Zelotta Qwimbrane", BirthDate: born(1990), Sex: arrival.Female, Nationality: "ER"},
			{Ref: "P2", Family: "K1", Name: "Tamsel Qwimbrane", BirthDate: born(2018), Sex: arrival.Male, Nationality: "ER"},
		},
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	mother := reg.Cases[0].ID
	record := func(u *solidarity.User, ev cases.Event) (*casesvc.Applied, error) {
		return svc.Apply(as(u), casesvc.EventRequest{Case: mother, Event: ev}, "")
	}
	if _, err := svc.Apply(as(officerIT), casesvc.EventRequest{Case: mother, Also: []solidarity.CaseID{reg.Cases[1].ID},
		Event: cases.ScreeningStarted, At: landed.Add(12 * time.Hour)}, ""); err != nil {
		t.Fatal(err)
	}
	for _, ev := range []cases.Event{cases.RelocationCandidate, cases.RelocationCleared} {
		if _, err := record(officerIT, ev); err != nil {
			t.Fatal(err)
		}
	}
	if _, _, err := l.Pledge(as(solidarity.System), 2026, "DE",
		solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 5}, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Assign(as(coordinator), mother, "DE", ""); err != nil {
		t.Fatal(err)
	}
	if _, err := record(officerIT, cases.RelocationInfo); err != nil {
		t.Fatal(err)
	}

	// The new event is the state of relocation's act: Italy may not record it.
	if _, err := record(officerIT, interview); solidarity.ErrorCode(err) != solidarity.EUNAUTHORIZED {
		t.Errorf("Italy records the interview: %v", err)
	}
	a, err := record(officerDE, interview)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Cases) != 2 {
		t.Errorf("the interview moved %d cases, want the family's 2", len(a.Cases))
	}
	for _, c := range a.Cases {
		if c.State != cases.RelocationInfoSent || c.Allocated != "DE" {
			t.Errorf("case %s is %s, allocated %q", c.ID, c.State, c.Allocated)
		}
	}
	var p solidarity.CaseEventPayload
	if err := json.Unmarshal(a.Entry.Payload, &p); err != nil {
		t.Fatal(err)
	}
	if a.Entry.Type != solidarity.CaseEvent || a.Entry.State != "DE" || p.Event != string(interview) ||
		p.Article != "Art. 67 AMMR" || len(p.Steps) != 2 {
		t.Errorf("entry %s for %s: %+v", a.Entry.Type, a.Entry.State, p)
	}
	v, err := svc.Case(as(officerDE), mother)
	if err != nil {
		t.Fatal(err)
	}
	if h := v.Flow.History; h[len(h)-1].Event != interview {
		t.Errorf("last event %s", h[len(h)-1].Event)
	}
}
