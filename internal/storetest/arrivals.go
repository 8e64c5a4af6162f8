package storetest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"solidarity"
)

// testArrivals lists arrivals latest first, of one state or all, within the limits.
func testArrivals(t *testing.T, s CaseStore) {
	ctx := context.Background()
	if as, err := s.Arrivals(ctx, solidarity.ArrivalFilter{}); err != nil || len(as) != 0 {
		t.Fatalf("Arrivals of none = %v, %v", as, err)
	}
	a1, a2, a3, a4 := newArrival("A1", "IT", 1), newArrival("A2", "ES", 5), newArrival("A3", "IT", 3), newArrival("A4", "IT", 3)
	for _, a := range []*solidarity.Arrival{a1, a2, a3, a4} {
		register(t, s, "", a, newCase("C-"+string(a.ID), a, "F1", 1))
	}
	// A3 has a person allocated to DE (two cases, to check each arrival comes once),
	// A2 one allocated to IT.
	for i, a := range []*solidarity.Arrival{a3, a3, a2} {
		c := newCase(fmt.Sprintf("C-alloc-%d", i), a, "F2", 2)
		c.Allocated = "DE"
		if a == a2 {
			c.Allocated = "IT"
		}
		mustAppendCase(t, s, "", eventEntry(t, "open", "registered", c), &solidarity.CaseWrite{Insert: []*solidarity.CaseRecord{c}})
	}
	byID := map[solidarity.ArrivalID]*solidarity.Arrival{"A1": a1, "A2": a2, "A3": a3, "A4": a4}
	it, de, fr := solidarity.MemberState("IT"), solidarity.MemberState("DE"), solidarity.MemberState("FR")
	for _, c := range []struct {
		f    solidarity.ArrivalFilter
		want string
	}{
		{solidarity.ArrivalFilter{}, "A2,A4,A3,A1"}, // A3 and A4 landed together
		{solidarity.ArrivalFilter{Benefitting: &it}, "A4,A3,A1"},
		{solidarity.ArrivalFilter{Limit: 2}, "A2,A4"},
		{solidarity.ArrivalFilter{Benefitting: &it, Limit: 1000}, "A4,A3,A1"},
		{solidarity.ArrivalFilter{Involving: &de}, "A3"},
		{solidarity.ArrivalFilter{Involving: &it}, "A2,A4,A3,A1"},
		{solidarity.ArrivalFilter{Involving: &it, Limit: 2}, "A2,A4"},
		{solidarity.ArrivalFilter{Involving: &it, Benefitting: &it}, "A4,A3,A1"},
		{solidarity.ArrivalFilter{Involving: &fr}, ""},
	} {
		as, err := s.Arrivals(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, a := range as {
			got = append(got, string(a.ID))
			sameArrival(t, a, byID[a.ID])
		}
		if strings.Join(got, ",") != c.want {
			t.Fatalf("Arrivals(%+v) = %v, want %s", c.f, got, c.want)
		}
		// Issue 14: the count, and pages of one from each page's last arrival, the
		// same list (A3 and A4 landed together: the ID orders them).
		all := c.f
		all.Limit = solidarity.MaxPageLimit
		every, err := s.Arrivals(ctx, all)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := s.CountArrivals(ctx, c.f); err != nil || n != int64(len(every)) {
			t.Fatalf("CountArrivals(%+v) = %d, %v; want %d", c.f, n, err, len(every))
		}
		var walked []string
		f := c.f
		f.Limit = 1
		for range 10 {
			page, err := s.Arrivals(ctx, f)
			if err != nil {
				t.Fatal(err)
			}
			if len(page) == 0 {
				break
			}
			walked = append(walked, string(page[0].ID))
			f.After = &solidarity.ArrivalKey{At: page[0].At, ID: page[0].ID}
		}
		// A limited list is only the walk's start.
		if c.f.Limit == 0 && strings.Join(walked, ",") != c.want {
			t.Fatalf("Arrivals(%+v) a page at a time = %v, want %s", c.f, walked, c.want)
		}
	}
	for _, bad := range []*solidarity.ArrivalKey{{ID: "A1"}, {At: time.Now()}, {At: time.Now(), ID: solidarity.ArrivalID(strings.Repeat("x", 65))}} {
		_, err := s.Arrivals(ctx, solidarity.ArrivalFilter{After: bad})
		e, ok := errors.AsType[*solidarity.Error](err)
		if !ok || e.Code != solidarity.EINVALID || e.Field != "after" {
			t.Fatalf("Arrivals after %+v: %v, want EINVALID naming after", bad, err)
		}
	}
	for _, n := range []int{-1, 1001} {
		if _, err := s.Arrivals(ctx, solidarity.ArrivalFilter{Limit: n}); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("Arrivals with limit %d: %v, want EINVALID", n, err)
		}
	}
}

// testAccessLog records reads of personal records and lists them latest first.

// landingOf is a new arrival id of the same landing as a: vessel, port (in another
// spelling of case and spaces) and time.
func landingOf(a *solidarity.Arrival, id string) *solidarity.Arrival {
	b := newArrival(id, a.Benefitting, 9)
	b.Vessel, b.Port, b.At = " "+strings.ToUpper(a.Vessel)+" ", strings.ReplaceAll(strings.ToLower(a.Port), "a", "A"), a.At
	b.Vessel = strings.ReplaceAll(b.Vessel, " ", "  ")
	return b
}

// testCaseSameLanding registers a ship's list again under a new arrival ID: refused
// with ECONFLICT naming the stored arrival, nothing written, unless confirmed as a
// new landing; another time or vessel is another landing.
func testCaseSameLanding(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a1 := newArrival("A1", "IT", 1)
	register(t, s, "", a1, newCase("C-1", a1, "F1", 1))
	seq, hash := head(t, s)

	again := landingOf(a1, "A2")
	c2 := newCase("C-2", again, "F2", 2)
	out, _, err := s.AppendCase(ctx, "again", arrivalEntry(t, again, c2),
		&solidarity.CaseWrite{Arrival: again, Insert: []*solidarity.CaseRecord{c2}}, nil)
	wantRefused(t, s, out, err, solidarity.ECONFLICT, seq, hash)
	if !strings.Contains(err.Error(), "A1") {
		t.Fatalf("the refusal does not name the stored arrival A1: %v", err)
	}
	wantArrivalMissing(t, s, "A2")
	wantCaseMissing(t, s, "C-2")

	// Another instant, another vessel, another port: other landings.
	for i, change := range []func(a *solidarity.Arrival){
		func(a *solidarity.Arrival) { a.At = a.At.Add(time.Microsecond) },
		func(a *solidarity.Arrival) { a.Vessel += " II" },
		func(a *solidarity.Arrival) { a.Port = "Pozzallo" },
	} {
		id := fmt.Sprintf("A-other-%d", i)
		b := landingOf(a1, id)
		change(b)
		register(t, s, "", b, newCase("C-"+id, b, "F1", 1))
	}

	// Confirmed as a new landing, under the key the refusal did not use up.
	seq, _ = head(t, s)
	out, replayed, err := s.AppendCase(ctx, "again", arrivalEntry(t, again, c2),
		&solidarity.CaseWrite{Arrival: again, Insert: []*solidarity.CaseRecord{c2}, NewLanding: true}, nil)
	if err != nil || replayed || out.Seq != seq+1 {
		t.Fatalf("AppendCase confirmed as a new landing = %+v, replayed %v, %v", out, replayed, err)
	}
	sameArrival(t, getArrival(t, s, "A2"), again)
	// A retry of that registration is a replay, not a refusal.
	if _, replayed, err := s.AppendCase(ctx, "again", arrivalEntry(t, again, c2),
		&solidarity.CaseWrite{Arrival: again, Insert: []*solidarity.CaseRecord{c2}}, nil); err != nil || !replayed {
		t.Fatalf("the retry: replayed %v, %v", replayed, err)
	}
	mustVerify(t, s, seq+1)
}

func getArrival(t testing.TB, s CaseStore, id solidarity.ArrivalID) *solidarity.Arrival {
	t.Helper()
	a, err := s.Arrival(context.Background(), id)
	if err != nil {
		t.Fatalf("Arrival(%s): %v", id, err)
	}
	return a
}

// testCaseSameLandingRace registers one landing under n arrival IDs at once, queued
// behind the gate where the store commits in groups: exactly one is written.
func testCaseSameLandingRace(t *testing.T, s CaseStore) {
	ctx := context.Background()
	first := newArrival("A0", "IT", 1)
	const n = 8
	errs := make([]error, n)
	var wg sync.WaitGroup
	release, wait := gate(t, s)
	for i := range n {
		a := landingOf(first, fmt.Sprintf("A%d", i))
		c := newCase(fmt.Sprintf("C-%d", i), a, "F1", i)
		wg.Go(func() {
			_, _, errs[i] = s.AppendCase(ctx, "", arrivalEntry(t, a, c),
				&solidarity.CaseWrite{Arrival: a, Insert: []*solidarity.CaseRecord{c}}, nil)
		})
		time.Sleep(queueDelay / n)
	}
	time.Sleep(queueDelay)
	release()
	wg.Wait()
	wait()
	won := 0
	for i, err := range errs {
		switch solidarity.ErrorCode(err) {
		case "":
			won++
		case solidarity.ECONFLICT:
		default:
			t.Fatalf("registration %d: %v, want ECONFLICT or success", i, err)
		}
	}
	as, err := s.Arrivals(ctx, solidarity.ArrivalFilter{})
	if err != nil {
		t.Fatal(err)
	}
	if won != 1 || len(as) != 1 {
		t.Fatalf("%d of %d registrations of one landing succeeded, %d arrivals stored; want 1", won, n, len(as))
	}
	checkDense(t, s, 2, cycle) // the gate and the one registration
}
