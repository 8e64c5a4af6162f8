package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/ledger"
)

func testRoundTrip(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	cet := time.FixedZone("CET", 3600)
	big := strings.Repeat(`[cycle]\nyear = 2026 # ünïcödé \t \"quoted\"\n`, 4000)
	odd := []struct {
		payload string
		at      time.Time
	}{
		// Spacing and key order that a JSON column type would not keep.
		{`{"z": 1,  "a" : [1, 2.50, 3e2], "é":"\u00e9 \"q\" ☃", "n":null}`, time.Date(2026, 3, 4, 5, 6, 7, 999999999, cet)},
		{`{"toml":"` + big + `"}`, time.Date(2026, 12, 31, 23, 59, 59, 1000, time.UTC)},
		{"\t[ ]\n", time.Date(1999, 1, 1, 0, 0, 0, 1, time.UTC)},
		{`"\u0000 an escaped NUL and a raw DEL: ` + "\x7f" + `"`, time.Date(2026, 6, 30, 12, 0, 0, 500, time.FixedZone("", -7*3600-1800))},
		{`{}`, time.Time{}.Add(time.Microsecond)},
	}
	var outs []*solidarity.Entry
	for i, o := range odd {
		e := &solidarity.Entry{
			Cycle: cycle, Type: solidarity.CycleAmended, Ref: "réf\x01" + strconv.Itoa(i),
			Actor: "coordinator ✓", At: o.at, LegalBasis: "Art. 57(1) — «amended»",
			Payload: json.RawMessage(o.payload),
		}
		out := mustAppend(t, s, "", e)
		if !bytes.Equal(out.Payload, []byte(o.payload)) {
			t.Fatalf("entry %d: payload changed on append", i)
		}
		if !out.At.Equal(ledger.Normalize(o.at)) {
			t.Fatalf("entry %d: At %v, want %v", i, out.At, ledger.Normalize(o.at))
		}
		outs = append(outs, out)
	}
	check := func(s solidarity.Store, when string) {
		t.Helper()
		es := all(t, s)
		sameEntries(t, "All "+when, es, outs)
		for i, e := range es {
			if e.At.Location() != time.UTC {
				t.Fatalf("%s: entry %d: At in %v, want UTC", when, i, e.At.Location())
			}
		}
		found, err := s.Find(ctx, cycle)
		if err != nil {
			t.Fatal(err)
		}
		sameEntries(t, "Find "+when, found, outs)
		listed, err := s.Entries(ctx, solidarity.EntryFilter{})
		if err != nil {
			t.Fatal(err)
		}
		sameEntries(t, "Entries "+when, listed, outs)
		mustVerify(t, s, int64(len(outs)))
	}
	check(s, "before reopening")
	s = h.Reopen()
	check(s, "after reopening")
	// The reopened store appends onto the chain it found.
	out := mustAppend(t, s, "", pledge(t, cycle, "SE", 9))
	if out.Seq != int64(len(outs)+1) || out.PrevHash != outs[len(outs)-1].Hash {
		t.Fatalf("append after reopening: seq %d prev %q", out.Seq, out.PrevHash)
	}
	mustVerify(t, s, int64(len(outs)+1))
}

func testEntriesPagination(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	cycles := []int{cycle, cycle + 1, cycle + 2}
	types := []solidarity.EntryType{solidarity.PledgeMade, solidarity.RelocationDelivered, solidarity.PaymentMade}
	for i := range 150 {
		c, st, typ := cycles[i%3], states[(i/3)%4], types[(i/12)%3]
		if typ == solidarity.PledgeMade {
			mustAppend(t, s, "", pledge(t, c, st, i))
		} else {
			mustAppend(t, s, "", delivery(t, c, st, typ, int64(i), i))
		}
	}
	everything := all(t, s)

	// Limits.
	if es, err := s.Entries(ctx, solidarity.EntryFilter{}); err != nil || len(es) != 100 {
		t.Fatalf("Entries with Limit 0: %d entries, %v; want 100", len(es), err)
	}
	if es, err := s.Entries(ctx, solidarity.EntryFilter{Limit: 1000}); err != nil || len(es) != 150 {
		t.Fatalf("Entries with Limit 1000: %d entries, %v; want 150", len(es), err)
	}
	if es, err := s.Entries(ctx, solidarity.EntryFilter{AfterSeq: 150}); err != nil || len(es) != 0 {
		t.Fatalf("Entries after the head: %d entries, %v", len(es), err)
	}

	c, st, typ := cycle+1, solidarity.MemberState("DE"), solidarity.RelocationDelivered
	filters := []solidarity.EntryFilter{
		{},
		{Cycle: &c},
		{State: &st},
		{Type: &typ},
		{Cycle: &c, State: &st},
		{Cycle: &c, Type: &typ},
		{Cycle: &c, State: &st, Type: &typ},
	}
	for _, f := range filters {
		name := fmt.Sprintf("cycle=%v state=%v type=%v", deref(f.Cycle), deref(f.State), deref(f.Type))
		var want []*solidarity.Entry
		for _, e := range everything {
			if (f.Cycle == nil || e.Cycle == *f.Cycle) && (f.State == nil || e.State == *f.State) &&
				(f.Type == nil || e.Type == *f.Type) {
				want = append(want, e)
			}
		}
		if len(want) == 0 {
			t.Fatalf("%s: the fixture matches nothing", name)
		}
		for _, limit := range []int{1, 7, 1000} {
			var got []*solidarity.Entry
			f.AfterSeq, f.Limit = 0, limit
			for pages := 0; ; pages++ {
				if pages > 200 {
					t.Fatalf("%s: pagination does not end", name)
				}
				page, err := s.Entries(ctx, f)
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if len(page) > limit {
					t.Fatalf("%s: page of %d > limit %d", name, len(page), limit)
				}
				if len(page) == 0 {
					break
				}
				got = append(got, page...)
				f.AfterSeq = page[len(page)-1].Seq
			}
			sameEntries(t, name+" limit "+strconv.Itoa(limit), got, want)
		}
	}
}

func deref[T any](p *T) any {
	if p == nil {
		return "*"
	}
	return *p
}

func testFind(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	for i := range 24 {
		switch i % 4 {
		case 0:
			mustAppend(t, s, "", pledge(t, cycle+i%2, states[i%5], i))
		case 1:
			e := pledge(t, cycle+i%2, states[i%5], i)
			e.Type = solidarity.PledgeChanged
			mustAppend(t, s, "", e)
		default:
			mustAppend(t, s, "", delivery(t, cycle+i%2, states[i%5], deliveryTypes[i%3], 1, i))
		}
	}
	everything := all(t, s)
	for _, tc := range []struct {
		cycle int
		types []solidarity.EntryType
	}{
		{cycle, nil},
		{cycle + 1, nil},
		{cycle, []solidarity.EntryType{solidarity.PledgeMade}},
		{cycle, []solidarity.EntryType{solidarity.PledgeMade, solidarity.PledgeChanged}},
		{cycle + 1, []solidarity.EntryType{solidarity.PledgeChanged, solidarity.PaymentMade, solidarity.RelocationDelivered}},
		{cycle, []solidarity.EntryType{solidarity.OffsetReplied}},
		{cycle + 5, nil},
	} {
		var want []*solidarity.Entry
		for _, e := range everything {
			if e.Cycle == tc.cycle && (len(tc.types) == 0 || slices.Contains(tc.types, e.Type)) {
				want = append(want, e)
			}
		}
		got, err := s.Find(ctx, tc.cycle, tc.types...)
		if err != nil {
			t.Fatal(err)
		}
		sameEntries(t, fmt.Sprintf("Find(%d, %v)", tc.cycle, tc.types), got, want)
		for _, after := range []int64{0, 1, 7, 12, 23, 24, 30} {
			var wantAfter []*solidarity.Entry
			for _, e := range want {
				if e.Seq > after {
					wantAfter = append(wantAfter, e)
				}
			}
			got, err := s.FindAfter(ctx, tc.cycle, after, tc.types...)
			if err != nil {
				t.Fatal(err)
			}
			sameEntries(t, fmt.Sprintf("FindAfter(%d, %d, %v)", tc.cycle, after, tc.types), got, wantAfter)
		}
	}
	for _, e := range everything {
		if h, err := s.EntryHash(ctx, e.Seq); err != nil || h != e.Hash {
			t.Fatalf("EntryHash(%d) = %q, %v; want %q", e.Seq, h, err, e.Hash)
		}
	}
	for _, seq := range []int64{0, -1, int64(len(everything)) + 1} {
		if h, err := s.EntryHash(ctx, seq); err != nil || h != "" {
			t.Fatalf("EntryHash(%d) of no entry = %q, %v", seq, h, err)
		}
	}
}

// testFindOneSnapshot reads a cycle's entries of two types while a writer appends
// them in turn: every read is a prefix of the chain (an entry of one type below the
// last entry read is never missing), as a state extended only after its last entry
// needs. On PostgreSQL a read outside the writer is one query per type: they must
// share one snapshot.
func testFindOneSnapshot(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	const n = 400
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range n {
			e := pledge(t, cycle, states[i%len(states)], i)
			if i%2 == 1 {
				e.Type = solidarity.PledgeChanged
			}
			if _, _, err := s.Append(ctx, "", e, nil); err != nil {
				t.Error(err)
				return
			}
		}
	}()
	check := func(es []*solidarity.Entry, after int64) {
		t.Helper()
		for i, e := range es {
			if e.Seq != after+int64(i)+1 {
				t.Fatalf("a read after %d holds entries %s: not a prefix of the chain", after, seqs(es))
			}
		}
	}
	for reading := true; reading; {
		select {
		case <-done:
			reading = false
		default:
		}
		es, err := s.Find(ctx, cycle, solidarity.PledgeMade, solidarity.PledgeChanged)
		if err != nil {
			t.Fatal(err)
		}
		check(es, 0)
		if len(es) > 2 {
			after := es[len(es)/2].Seq
			more, err := s.FindAfter(ctx, cycle, after, solidarity.PledgeChanged, solidarity.PledgeMade)
			if err != nil {
				t.Fatal(err)
			}
			check(more, after)
		}
	}
}
