package storetest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/cases/state"
)

// filterFixture registers two arrivals of six cases between them, as testCaseFilters
// describes them, and returns the cases as stored.
func filterFixture(t *testing.T, s CaseStore) map[string]*solidarity.CaseRecord {
	a1, a2 := newArrival("A1", "IT", 1), newArrival("A2", "ES", 2)
	mk := func(id string, a *solidarity.Arrival, fam string, allocated solidarity.MemberState, st state.State, due, closed, erased time.Time) *solidarity.CaseRecord {
		c := newCase(id, a, fam, len(id))
		c.Allocated, c.State, c.NextDue, c.Closed, c.Erased = allocated, st, due, closed, erased
		return c
	}
	var zero time.Time
	c01 := mk("c01", a1, "f1", "", "registered", day(10), zero, zero)
	c02 := mk("c02", a1, "f1", "DE", "relocation_pending", day(2), zero, zero)
	c03 := mk("c03", a1, "f2", "FR", "closed_transferred", zero, day(5).Add(time.Microsecond), zero)
	c04 := mk("c04", a2, "f3", "DE", "closed_transferred", zero, day(20), day(21))
	c05 := mk("c05", a2, "f3", "", "registered", day(2), zero, zero) // due with c02: ID order
	c06 := mk("c06", a2, "f4", "IT", "relocation_pending", day(30), zero, zero)
	register(t, s, "", a1, c01, c02, c03)
	register(t, s, "", a2, c04, c05, c06)
	out := map[string]*solidarity.CaseRecord{}
	for _, c := range []*solidarity.CaseRecord{c01, c02, c03, c04, c05, c06} {
		out[string(c.ID)] = c
	}
	return out
}

// testCaseFilters checks every CaseFilter field alone and together, on six cases:
//
//	c01 A1 f1 IT→    open, due day 10
//	c02 A1 f1 IT→DE  open, due day 2
//	c03 A1 f2 IT→FR  closed day 5 (+1µs)
//	c04 A2 f3 ES→DE  closed day 20, erased day 21
//	c05 A2 f3 ES→    open, due day 2
//	c06 A2 f4 ES→IT  open, due day 30
func testCaseFilters(t *testing.T, s CaseStore) {
	cs := filterFixture(t, s)
	ms := func(m solidarity.MemberState) *solidarity.MemberState { return &m }
	at := func(t time.Time) *time.Time { return &t }
	arr := func(id solidarity.ArrivalID) *solidarity.ArrivalID { return &id }
	fam := func(id solidarity.FamilyID) *solidarity.FamilyID { return &id }
	for _, c := range []struct {
		f    solidarity.CaseFilter
		want string
	}{
		{solidarity.CaseFilter{}, "c01,c02,c03,c04,c05,c06"},
		{solidarity.CaseFilter{Arrival: arr("A1")}, "c01,c02,c03"},
		{solidarity.CaseFilter{Arrival: arr("A-none")}, ""},
		{solidarity.CaseFilter{Family: fam("f3")}, "c04,c05"},
		{solidarity.CaseFilter{Arrival: arr("A1"), Family: fam("f1")}, "c01,c02"},
		{solidarity.CaseFilter{Arrival: arr("A1"), Family: fam("f3")}, ""},
		// Involving: benefitting or allocated, either way.
		{solidarity.CaseFilter{Involving: ms("IT")}, "c01,c02,c03,c06"},
		{solidarity.CaseFilter{Involving: ms("DE")}, "c02,c04"},
		{solidarity.CaseFilter{Involving: ms("ES")}, "c04,c05,c06"},
		{solidarity.CaseFilter{Involving: ms("FR")}, "c03"},
		{solidarity.CaseFilter{Involving: ms("MT")}, ""},
		{solidarity.CaseFilter{Open: true}, "c01,c02,c05,c06"},
		{solidarity.CaseFilter{Involving: ms("IT"), Open: true}, "c01,c02,c06"},
		// ClosedBefore is strict, to the microsecond, whatever the bound's nanoseconds.
		{solidarity.CaseFilter{ClosedBefore: at(day(10))}, "c03"},
		{solidarity.CaseFilter{ClosedBefore: at(day(30))}, "c03,c04"},
		{solidarity.CaseFilter{ClosedBefore: at(day(5).Add(time.Microsecond))}, ""},
		{solidarity.CaseFilter{ClosedBefore: at(day(5).Add(time.Microsecond + time.Nanosecond))}, "c03"},
		{solidarity.CaseFilter{ClosedBefore: at(day(5))}, ""},
		{solidarity.CaseFilter{NotErased: true}, "c01,c02,c03,c05,c06"},
		{solidarity.CaseFilter{ClosedBefore: at(day(30)), NotErased: true}, "c03"},
		// DueBefore: earliest due first, then by ID; strict.
		{solidarity.CaseFilter{DueBefore: at(day(15))}, "c02,c05,c01"},
		{solidarity.CaseFilter{DueBefore: at(day(365))}, "c02,c05,c01,c06"},
		{solidarity.CaseFilter{DueBefore: at(day(2))}, ""},
		{solidarity.CaseFilter{DueBefore: at(day(2).Add(time.Nanosecond))}, "c02,c05"},
		{solidarity.CaseFilter{DueBefore: at(day(365)), Limit: 2}, "c02,c05"},
		{solidarity.CaseFilter{DueBefore: at(day(365)), Involving: ms("ES")}, "c05,c06"},
		{solidarity.CaseFilter{DueBefore: at(day(365)), Involving: ms("IT"), Open: true}, "c02,c01,c06"},
		// After pages in ID order, with the other filters.
		{solidarity.CaseFilter{After: "c03"}, "c04,c05,c06"},
		{solidarity.CaseFilter{After: "c03", Involving: ms("IT")}, "c06"},
		{solidarity.CaseFilter{After: "c0", Limit: 2}, "c01,c02"},
		{solidarity.CaseFilter{After: "c06"}, ""},
	} {
		got := mustCases(t, s, c.f)
		if ids(got) != c.want {
			t.Errorf("Cases(%s) = %s, want %s", describe(c.f), ids(got), c.want)
			continue
		}
		for _, g := range got {
			sameCase(t, "Cases", g, cs[string(g.ID)])
		}
	}
}

func describe(f solidarity.CaseFilter) string {
	var d []string
	if f.Arrival != nil {
		d = append(d, "Arrival="+string(*f.Arrival))
	}
	if f.Family != nil {
		d = append(d, "Family="+string(*f.Family))
	}
	if f.Involving != nil {
		d = append(d, "Involving="+string(*f.Involving))
	}
	if f.Open {
		d = append(d, "Open")
	}
	if f.ClosedBefore != nil {
		d = append(d, "ClosedBefore="+f.ClosedBefore.Format(time.RFC3339Nano))
	}
	if f.NotErased {
		d = append(d, "NotErased")
	}
	if f.DueBefore != nil {
		d = append(d, "DueBefore="+f.DueBefore.Format(time.RFC3339Nano))
	}
	if f.After != "" {
		d = append(d, "After="+string(f.After))
	}
	if f.Limit != 0 {
		d = append(d, fmt.Sprint("Limit=", f.Limit))
	}
	return "{" + strings.Join(d, " ") + "}"
}

// testCasePaging pages through more cases than the default limit, and checks the
// limits' bounds.
func testCasePaging(t *testing.T, s CaseStore) {
	ctx := context.Background()
	const n = 1005
	a := newArrival("A1", "IT", 1)
	var cs []*solidarity.CaseRecord
	for i := range n {
		c := newCase(fmt.Sprintf("C-%05d", i), a, fmt.Sprintf("F%d", i/4), i)
		if i%3 == 0 {
			c.Allocated = "DE"
		}
		cs = append(cs, c)
	}
	register(t, s, "", a, cs...)

	if got := mustCases(t, s, solidarity.CaseFilter{}); len(got) != 1000 || got[999].ID != "C-00999" {
		t.Fatalf("Cases with the default limit: %d cases", len(got))
	}
	var paged []*solidarity.CaseRecord
	var after solidarity.CaseID
	for pages := 0; ; pages++ {
		page := mustCases(t, s, solidarity.CaseFilter{After: after, Limit: 300})
		if len(page) == 0 {
			if pages != 4 {
				t.Fatalf("%d pages of 300 for %d cases", pages, n)
			}
			break
		}
		paged = append(paged, page...)
		after = page[len(page)-1].ID
	}
	if len(paged) != n {
		t.Fatalf("paging read %d cases, want %d", len(paged), n)
	}
	for i, c := range paged {
		if c.ID != cs[i].ID {
			t.Fatalf("case %d of the pages is %s, want %s", i, c.ID, cs[i].ID)
		}
	}
	de := solidarity.MemberState("DE")
	var involving int
	after = ""
	for {
		page := mustCases(t, s, solidarity.CaseFilter{Involving: &de, After: after, Limit: 100})
		if len(page) == 0 {
			break
		}
		involving += len(page)
		after = page[len(page)-1].ID
	}
	if involving != (n+2)/3 {
		t.Fatalf("paged %d cases involving DE, want %d", involving, (n+2)/3)
	}

	if got := mustCases(t, s, solidarity.CaseFilter{Limit: 10000}); len(got) != n {
		t.Fatalf("Limit 10000: %d cases", len(got))
	}
	if got := mustCases(t, s, solidarity.CaseFilter{Limit: 1}); len(got) != 1 {
		t.Fatalf("Limit 1: %d cases", len(got))
	}
	now := day(0)
	for _, f := range []solidarity.CaseFilter{
		{Limit: -1}, {Limit: 10001}, {DueBefore: &now, After: "C-00001"},
	} {
		if _, err := s.Cases(ctx, f); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("Cases(%s): %v, want EINVALID", describe(f), err)
		}
	}
}

// testCaseCounts counts cases per state under filters; Limit, After and DueBefore do
// not narrow the count.
func testCaseCounts(t *testing.T, s CaseStore) {
	ctx := context.Background()
	if got, err := s.CaseCounts(ctx, solidarity.CaseFilter{}); err != nil || len(got) != 0 {
		t.Fatalf("CaseCounts of no cases = %v, %v", got, err)
	}
	filterFixture(t, s)
	it := solidarity.MemberState("IT")
	a1 := solidarity.ArrivalID("A1")
	soon := day(3)
	for _, c := range []struct {
		f    solidarity.CaseFilter
		want map[string]int
	}{
		{solidarity.CaseFilter{}, map[string]int{"registered": 2, "relocation_pending": 2, "closed_transferred": 2}},
		{solidarity.CaseFilter{Involving: &it}, map[string]int{"registered": 1, "relocation_pending": 2, "closed_transferred": 1}},
		{solidarity.CaseFilter{Open: true}, map[string]int{"registered": 2, "relocation_pending": 2}},
		{solidarity.CaseFilter{NotErased: true, Arrival: &a1}, map[string]int{"registered": 1, "relocation_pending": 1, "closed_transferred": 1}},
		{solidarity.CaseFilter{Involving: &it, Limit: 1, After: "c05", DueBefore: &soon},
			map[string]int{"registered": 1, "relocation_pending": 2, "closed_transferred": 1}},
	} {
		got, err := s.CaseCounts(ctx, c.f)
		if err != nil {
			t.Fatalf("CaseCounts(%s): %v", describe(c.f), err)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("CaseCounts(%s) = %v, want %v", describe(c.f), got, c.want)
		}
	}
}

// testCaseAllocated checks View.Allocated on the fixture of testCaseFilters: the open
// cases allocated to a state whose arrival counts in the cycle, less a family and a
// list of states (the places a state's relocation pledge has given to the case flow).
func testCaseAllocated(t *testing.T, s CaseStore) {
	ctx := context.Background()
	filterFixture(t, s)
	for _, c := range []struct {
		m      solidarity.MemberState
		cycle  int
		family solidarity.FamilyID
		except []state.State
		want   int64
	}{
		{"DE", 0, "", nil, 1},                                 // c02; c04 is closed
		{"DE", 0, "f1", nil, 0},                               // c02's family left out
		{"DE", 0, "", []state.State{"relocation_pending"}, 0}, // c02's state left out
		{"DE", 0, "", []state.State{"registered", "closed_transferred"}, 1},
		{"DE", 2027, "", nil, 0}, // no arrival counts in that cycle
		{"IT", 0, "", nil, 1},    // c06
		{"FR", 0, "", nil, 0},    // c03 is closed
	} {
		got, err := s.Allocated(ctx, c.m, c.cycle, c.family, c.except...)
		if err != nil || got != c.want {
			t.Errorf("Allocated(%s, %d, %q, %v) = %d, %v; want %d", c.m, c.cycle, c.family, c.except, got, err, c.want)
		}
	}
}
