package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity"
)

// The lists' newer filters (issue 14): newest first, keys to page from in both
// directions, a range of recorded time, a search by reference, counts; and the
// access log's role, time range, case-insensitive case and actor, and its pages.

// testEntryListing checks every filter against the same selection made in Go from
// All, and that a walk by BeforeSeq (newest first) and by AfterSeq (oldest first)
// each lists the selection exactly once.
func testEntryListing(t *testing.T, h Harness) {
	ctx, s := context.Background(), h.Store
	for i := range 60 {
		e := pledge(t, cycle, states[i%len(states)], i)
		e.Ref = fmt.Sprintf("Case-%02d", i) // Case-00 … Case-59: "case-1" is a prefix of 11
		if i%2 == 1 {
			e = delivery(t, cycle, states[i%len(states)], solidarity.PaymentMade, int64(i+1), i)
			e.Ref = fmt.Sprintf("ref_%d", i) // an underscore, which a LIKE must take literally
		}
		mustAppend(t, s, "", e)
	}
	everything := all(t, s)
	de := solidarity.MemberState("DE")
	from, to := base.Add(10*time.Second), base.Add(20*time.Second)
	cases := []struct {
		name string
		f    solidarity.EntryFilter
		keep func(*solidarity.Entry) bool
	}{
		{"all", solidarity.EntryFilter{}, func(*solidarity.Entry) bool { return true }},
		{"from", solidarity.EntryFilter{From: from}, func(e *solidarity.Entry) bool { return !e.At.Before(from) }},
		{"to", solidarity.EntryFilter{To: to}, func(e *solidarity.Entry) bool { return e.At.Before(to) }},
		{"range", solidarity.EntryFilter{From: from, To: to}, func(e *solidarity.Entry) bool { return !e.At.Before(from) && e.At.Before(to) }},
		{"ref exact, other case", solidarity.EntryFilter{Ref: "CASE-12"}, func(e *solidarity.Entry) bool { return e.Ref == "Case-12" }},
		{"ref prefix", solidarity.EntryFilter{Ref: "case-1"}, func(e *solidarity.Entry) bool { return strings.HasPrefix(e.Ref, "Case-1") }},
		{"ref underscore", solidarity.EntryFilter{Ref: "ref_1"}, func(e *solidarity.Entry) bool { return strings.HasPrefix(e.Ref, "ref_1") }},
		{"ref percent", solidarity.EntryFilter{Ref: "%"}, func(e *solidarity.Entry) bool { return false }},
		{"ref and state", solidarity.EntryFilter{Ref: "case-", State: &de}, func(e *solidarity.Entry) bool {
			return strings.HasPrefix(e.Ref, "Case-") && e.State == de
		}},
	}
	for _, c := range cases {
		var want []*solidarity.Entry
		for _, e := range everything {
			if c.keep(e) {
				want = append(want, e)
			}
		}
		if c.name != "ref percent" && len(want) == 0 {
			t.Fatalf("%s: the fixture matches nothing", c.name)
		}
		n, err := s.CountEntries(ctx, c.f)
		if err != nil || n != int64(len(want)) {
			t.Fatalf("%s: CountEntries = %d, %v; want %d", c.name, n, err, len(want))
		}
		for _, newest := range []bool{false, true} {
			var got []*solidarity.Entry
			f := c.f
			f.Newest, f.Limit = newest, 7
			for pages := 0; ; pages++ {
				if pages > 20 {
					t.Fatalf("%s: pages do not end", c.name)
				}
				page, err := s.Entries(ctx, f)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				got = append(got, page...)
				if len(page) < f.Limit {
					break
				}
				if newest {
					f.BeforeSeq = page[len(page)-1].Seq
				} else {
					f.AfterSeq = page[len(page)-1].Seq
				}
			}
			w := slices.Clone(want)
			if newest {
				slices.Reverse(w)
			}
			sameEntries(t, fmt.Sprintf("%s newest=%v", c.name, newest), got, w)
		}
	}
	// A count with a key counts the entries on that side: what a page's number needs.
	mid := everything[len(everything)/2].Seq
	if n, err := s.CountEntries(ctx, solidarity.EntryFilter{AfterSeq: mid}); err != nil || n != int64(len(everything))-mid {
		t.Fatalf("CountEntries after %d = %d, %v; want %d", mid, n, err, int64(len(everything))-mid)
	}
	if n, err := s.CountEntries(ctx, solidarity.EntryFilter{BeforeSeq: mid}); err != nil || n != mid-1 {
		t.Fatalf("CountEntries before %d = %d, %v; want %d", mid, n, err, mid-1)
	}

	for _, bad := range []struct {
		field string
		f     solidarity.EntryFilter
	}{
		{"limit", solidarity.EntryFilter{Limit: solidarity.MaxPageLimit + 1}},
		{"after", solidarity.EntryFilter{AfterSeq: -1}},
		{"before", solidarity.EntryFilter{BeforeSeq: -1}},
		{"ref", solidarity.EntryFilter{Ref: strings.Repeat("x", solidarity.MaxSearchLength+1)}},
		{"ref", solidarity.EntryFilter{Ref: "\xff"}},
		{"from", solidarity.EntryFilter{From: to, To: from}},
		{"from", solidarity.EntryFilter{From: to, To: to}},
	} {
		_, err := s.Entries(ctx, bad.f)
		_, cerr := s.CountEntries(ctx, bad.f)
		for _, err := range []error{err, cerr} {
			e, ok := errors.AsType[*solidarity.Error](err)
			if solidarity.ErrorCode(err) != solidarity.EINVALID || !ok || e.Field != bad.field {
				t.Fatalf("filter %+v: %v, want EINVALID naming %s", bad.f, err, bad.field)
			}
		}
	}
}

// testAccessListing checks the access log's filters and a walk of its pages.
func testAccessListing(t *testing.T, s CaseStore) {
	ctx := context.Background()
	roles := []solidarity.Role{solidarity.Officer, solidarity.Coordinator, solidarity.Auditor}
	var logged []*solidarity.Access
	// A name with a letter outside ASCII: "ignoring case" folds A–Z only, in both
	// stores alike (solidarity.FoldASCII), so ÉVA finds Éva and éva finds nothing.
	actors := []string{"Officer-A", "Officer-B", "Éva"}
	for i := range 45 {
		a := &solidarity.Access{At: base.Add(time.Duration(i) * time.Minute), Actor: actors[i%3],
			Role: roles[i%3], Case: solidarity.CaseID(fmt.Sprintf("C-%d", i%5)), Purpose: "view"}
		logged = append(logged, a)
	}
	if err := s.RecordAccess(ctx, logged...); err != nil {
		t.Fatal(err)
	}
	newestFirst := slices.Clone(logged)
	slices.Reverse(newestFirst)
	actor, caseID, auditor := "officer-b", solidarity.CaseID("c-3"), solidarity.Auditor
	eva, evaLower := "ÉVA", "éva"
	from, to := base.Add(10*time.Minute), base.Add(30*time.Minute)
	for _, c := range []struct {
		name string
		f    solidarity.AccessFilter
		keep func(*solidarity.Access) bool
	}{
		{"all", solidarity.AccessFilter{}, func(*solidarity.Access) bool { return true }},
		{"actor, other case", solidarity.AccessFilter{Actor: &actor}, func(a *solidarity.Access) bool { return a.Actor == "Officer-B" }},
		{"non-ASCII actor", solidarity.AccessFilter{Actor: &eva}, func(a *solidarity.Access) bool { return a.Actor == "Éva" }},
		{"non-ASCII letter in another case", solidarity.AccessFilter{Actor: &evaLower}, func(*solidarity.Access) bool { return false }},
		{"case, other case", solidarity.AccessFilter{Case: &caseID}, func(a *solidarity.Access) bool { return a.Case == "C-3" }},
		{"role", solidarity.AccessFilter{Role: &auditor}, func(a *solidarity.Access) bool { return a.Role == auditor }},
		{"range", solidarity.AccessFilter{From: from, To: to}, func(a *solidarity.Access) bool { return !a.At.Before(from) && a.At.Before(to) }},
		{"all of them", solidarity.AccessFilter{Actor: &actor, Role: &auditor, From: from}, func(a *solidarity.Access) bool {
			return a.Actor == "Officer-B" && a.Role == auditor && !a.At.Before(from)
		}},
	} {
		var want []int64
		for _, a := range newestFirst {
			if c.keep(a) {
				want = append(want, a.Seq)
			}
		}
		if len(want) == 0 && c.name != "all of them" && c.name != "non-ASCII letter in another case" {
			t.Fatalf("%s: the fixture matches nothing", c.name)
		}
		if n, err := s.CountAccess(ctx, c.f); err != nil || n != int64(len(want)) {
			t.Fatalf("%s: CountAccess = %d, %v; want %d", c.name, n, err, len(want))
		}
		for _, oldest := range []bool{false, true} {
			var got []int64
			f := c.f
			f.Limit, f.Oldest = 4, oldest
			for pages := 0; ; pages++ {
				if pages > 20 {
					t.Fatalf("%s: pages do not end", c.name)
				}
				page, err := s.AccessLog(ctx, f)
				if err != nil {
					t.Fatalf("%s: %v", c.name, err)
				}
				for _, a := range page {
					got = append(got, a.Seq)
				}
				if len(page) < f.Limit {
					break
				}
				if oldest {
					f.AfterSeq = page[len(page)-1].Seq
				} else {
					f.BeforeSeq = page[len(page)-1].Seq
				}
			}
			w := slices.Clone(want)
			if oldest {
				slices.Reverse(w)
			}
			if !slices.Equal(got, w) {
				t.Fatalf("%s oldest=%v: listed %v, want %v", c.name, oldest, got, w)
			}
		}
	}
	// A count with a key counts the records on that side.
	mid := logged[20].Seq
	if n, err := s.CountAccess(ctx, solidarity.AccessFilter{AfterSeq: mid}); err != nil || n != 24 {
		t.Fatalf("CountAccess after the 21st = %d, %v; want 24", n, err)
	}
	long, unknown := strings.Repeat("x", solidarity.MaxSearchLength+1), solidarity.Role("root")
	longCase := solidarity.CaseID(long)
	for _, bad := range []struct {
		field string
		f     solidarity.AccessFilter
	}{
		{"limit", solidarity.AccessFilter{Limit: -1}},
		{"before", solidarity.AccessFilter{BeforeSeq: -1}},
		{"after", solidarity.AccessFilter{AfterSeq: -1}},
		{"actor", solidarity.AccessFilter{Actor: &long}},
		{"case", solidarity.AccessFilter{Case: &longCase}},
		{"role", solidarity.AccessFilter{Role: &unknown}},
		{"from", solidarity.AccessFilter{From: to, To: from}},
	} {
		_, err := s.AccessLog(ctx, bad.f)
		_, cerr := s.CountAccess(ctx, bad.f)
		for _, err := range []error{err, cerr} {
			e, ok := errors.AsType[*solidarity.Error](err)
			if solidarity.ErrorCode(err) != solidarity.EINVALID || !ok || e.Field != bad.field {
				t.Fatalf("filter %+v: %v, want EINVALID naming %s", bad.f, err, bad.field)
			}
		}
	}
}
