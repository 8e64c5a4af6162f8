package storetest

import (
	"context"
	"testing"

	"solidarity"
)

// testIdempotentPerActor: an idempotency key is its actor's own (issue 12: one
// global namespace let a user's retry answer 409 with another user's entry number).
// Two actors using the same key both write; each one's replay is still recognised,
// and the same key with another body is still a conflict for its actor. The same
// holds for the case flow's appends.
func testIdempotentPerActor(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	de := delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1)
	fr := delivery(t, cycle, "FR", solidarity.PaymentMade, 700, 2)
	if de.Actor == fr.Actor {
		t.Fatal("the fixture needs two actors")
	}
	first := mustAppend(t, s, "shared-key", de)
	second := mustAppend(t, s, "shared-key", fr)
	if second.Seq != first.Seq+1 {
		t.Fatalf("seqs %d, %d", first.Seq, second.Seq)
	}
	for _, tc := range []struct {
		e    *solidarity.Entry
		want *solidarity.Entry
	}{
		{delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1), first},
		{delivery(t, cycle, "FR", solidarity.PaymentMade, 700, 2), second},
	} {
		out, replayed, err := s.Append(ctx, "shared-key", tc.e, nil)
		if err != nil || !replayed || !sameStored(out, tc.want) {
			t.Fatalf("replay by %s: %+v replayed=%v %v, want seq %d", tc.e.Actor, out, replayed, err, tc.want.Seq)
		}
	}
	_, _, err := s.Append(ctx, "shared-key", delivery(t, cycle, "DE", solidarity.PaymentMade, 501, 1), nil)
	wantCode(t, err, solidarity.ECONFLICT)
	// A third actor's first use of the key, in one batch with the others' replays.
	it := delivery(t, cycle, "IT", solidarity.PaymentMade, 900, 3)
	results := make(chan error, 3)
	for _, e := range []*solidarity.Entry{delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1), it, delivery(t, cycle, "FR", solidarity.PaymentMade, 700, 2)} {
		go func() {
			out, replayed, err := s.Append(ctx, "shared-key", e, nil)
			if err == nil && replayed != (e.Actor != it.Actor) {
				err = solidarity.Errorf(solidarity.EINTERNAL, "%s: replayed=%v (seq %d)", e.Actor, replayed, out.Seq)
			}
			results <- err
		}()
	}
	for range 3 {
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	}
	mustVerify(t, s, 3)

	cs, ok := s.(CaseStore)
	if !ok {
		return
	}
	a1, a2 := newArrival("ARR-K1", "IT", 1), newArrival("ARR-K2", "EL", 2)
	c1, c2 := newCase("C-K1", a1, "", 1), newCase("C-K2", a2, "", 2)
	e1 := mustAppendCase(t, cs, "landing", arrivalEntry(t, a1, c1), &solidarity.CaseWrite{Arrival: a1, Insert: []*solidarity.CaseRecord{c1}})
	mustAppendCase(t, cs, "landing", arrivalEntry(t, a2, c2), &solidarity.CaseWrite{Arrival: a2, Insert: []*solidarity.CaseRecord{c2}})
	a1r, c1r := newArrival("ARR-K1", "IT", 1), newCase("C-K1", a1, "", 1)
	out, replayed, err := cs.AppendCase(ctx, "landing", arrivalEntry(t, a1r, c1r), &solidarity.CaseWrite{Arrival: a1r, Insert: []*solidarity.CaseRecord{c1r}}, nil)
	if err != nil || !replayed || out.Seq != e1.Seq {
		t.Fatalf("case replay: seq %v replayed=%v %v, want seq %d", out, replayed, err, e1.Seq)
	}
	mustVerify(t, s, 5)
}
