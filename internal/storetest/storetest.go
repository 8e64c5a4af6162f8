// Package storetest is the conformance suite of solidarity.Store: every store
// (internal/sqlite, internal/postgres) runs the same cases through Run, as
// testing/fstest does for file systems.
package storetest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"solidarity"
	"solidarity/ledger"
)

// Harness is one store under test, on a database of its own, with the back doors the
// suite needs. The function that makes it closes whatever it opened at the test's
// cleanup.
type Harness struct {
	Store solidarity.Store
	// Reopen closes Store and opens the same database again.
	Reopen func() solidarity.Store
	// Tamper changes one byte of the stored payload of entry seq, in SQL, behind the
	// store's back.
	Tamper func(seq int64)
}

// Run runs the conformance suite. open is called once per case with that case's t and
// must return a store on an empty database.
func Run(t *testing.T, open func(t *testing.T) Harness) {
	cases := []struct {
		name string
		fn   func(t *testing.T, h Harness)
	}{
		{"Empty", testEmpty},
		{"Chain", testChain},
		{"Idempotent", testIdempotent},
		{"IdempotentConflict", testIdempotentConflict},
		{"IdempotentPerActor", testIdempotentPerActor},
		{"CheckFails", testCheckFails},
		{"CheckSeesCommitted", testCheckSeesCommitted},
		{"Invalid", testInvalid},
		{"TotalsEqualSum", testTotalsEqualSum},
		{"Concurrent", testConcurrent},
		{"RoundTrip", testRoundTrip},
		{"EntriesPagination", testEntriesPagination},
		{"EntryListing", testEntryListing},
		{"Find", testFind},
		{"FindOneSnapshot", testFindOneSnapshot},
		{"Users", testUsers},
		{"Credentials", testCredentials},
		{"Accounts", testAccounts},
		{"Tamper", testTamper},
		{"Closed", testClosed},
		{"BatchCheckFails", testBatchCheckFails},
		{"BatchIdempotency", testBatchIdempotency},
		{"CheckFillsEntry", testCheckFillsEntry},
		{"Concurrent64", testConcurrent64},
		{"CancelWhileQueued", testCancelWhileQueued},
		{"CloseDrains", testCloseDrains},
		{"TotalsOverflow", testTotalsOverflow},
		{"AllTotals", testAllTotals},
		{"HeadTotals", testHeadTotals},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.fn(t, open(t))
		})
	}
}

// Fixtures.

const cycle = 2026

var base = time.Date(2026, 7, 1, 9, 30, 0, 123456000, time.UTC)

var states = []solidarity.MemberState{"AT", "DE", "ES", "FR", "IT"}

func payload(t testing.TB, v any) json.RawMessage {
	t.Helper()
	p, err := ledger.Payload(v)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func delivery(t testing.TB, cyc int, state solidarity.MemberState, typ solidarity.EntryType, amount int64, i int) *solidarity.Entry {
	p := solidarity.DeliveryPayload{Reference: "ref-" + strconv.Itoa(i)}
	switch typ {
	case solidarity.RelocationDelivered:
		p.Relocations = amount
	default:
		p.EURCents = solidarity.Cents(amount)
	}
	return &solidarity.Entry{
		Cycle: cyc, Type: typ, State: state, Actor: "officer-" + string(state),
		At: base.Add(time.Duration(i) * time.Second), LegalBasis: legalBasis(typ),
		Payload: payload(t, p),
	}
}

func pledge(t testing.TB, cyc int, state solidarity.MemberState, i int) *solidarity.Entry {
	return &solidarity.Entry{
		Cycle: cyc, Type: solidarity.PledgeMade, State: state, Actor: "officer-" + string(state),
		At: base.Add(time.Duration(i) * time.Second), LegalBasis: "Art. 57(1)",
		Payload: payload(t, solidarity.PledgePayload{Type: "relocation", Relocations: int64(10 + i)}),
	}
}

func legalBasis(typ solidarity.EntryType) string {
	switch typ {
	case solidarity.RelocationDelivered:
		return "Arts. 67-68"
	case solidarity.PaymentMade:
		return "Art. 64"
	}
	return "Art. 65"
}

var deliveryTypes = []solidarity.EntryType{solidarity.RelocationDelivered, solidarity.PaymentMade, solidarity.AlternativeDelivered}

// mustAppend appends e without a key or check and returns the stored entry.
func mustAppend(t testing.TB, s solidarity.Store, key string, e *solidarity.Entry) *solidarity.Entry {
	t.Helper()
	out, replayed, err := s.Append(context.Background(), key, e, nil)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	if replayed {
		t.Fatalf("Append(%q): replayed a new entry", key)
	}
	return out
}

func all(t testing.TB, s solidarity.Store) []*solidarity.Entry {
	t.Helper()
	var out []*solidarity.Entry
	for e, err := range s.All(context.Background()) {
		if err != nil {
			t.Fatalf("All: %v", err)
		}
		out = append(out, e)
	}
	return out
}

// verify checks the chain and the totals projection (AllTotals) against it.
func verify(t testing.TB, s solidarity.Store) *ledger.Verification {
	t.Helper()
	p, err := s.AllTotals(context.Background())
	if err != nil {
		t.Fatalf("AllTotals: %v", err)
	}
	v, err := ledger.VerifyProjection(s.All(context.Background()), p, time.Now())
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	return v
}

func mustVerify(t testing.TB, s solidarity.Store, n int64) {
	t.Helper()
	v := verify(t, s)
	if !v.OK || v.Entries != n {
		t.Fatalf("Verify: ok=%v entries=%d (want %d) bad=%d: %s", v.OK, v.Entries, n, v.BadSeq, v.Problem)
	}
}

// ledgerSum returns ledger.Sum over All: the totals the stored ones must equal.
func ledgerSum(t testing.TB, s solidarity.Store) map[[2]string]solidarity.Totals {
	t.Helper()
	sum, err := ledger.Sum(s.All(context.Background()))
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// totals returns the stored totals of cycle.
func totals(t testing.TB, s solidarity.Store, cycle int) []solidarity.Totals {
	t.Helper()
	ts, err := s.Totals(context.Background(), cycle)
	if err != nil {
		t.Fatal(err)
	}
	return ts
}

// checkCycleTotals checks that the stored totals of cycle, which holds every entry of
// s, are ledger.Sum over All: a row per state that delivered, each equal to the sum.
// when ends the failure's first clause (" after the crash").
func checkCycleTotals(t testing.TB, s solidarity.Store, when string) {
	t.Helper()
	sum := ledgerSum(t, s)
	ts := totals(t, s, cycle)
	if len(ts) != len(sum) {
		t.Fatalf("totals %v%s, want %v", ts, when, sum)
	}
	for _, x := range ts {
		if sum[[2]string{strconv.Itoa(cycle), string(x.State)}] != x {
			t.Fatalf("totals %v%s, want %v", ts, when, sum)
		}
	}
}

func head(t testing.TB, s solidarity.Store) (int64, string) {
	t.Helper()
	seq, hash, err := s.Head(context.Background())
	if err != nil {
		t.Fatalf("Head: %v", err)
	}
	return seq, hash
}

func wantCode(t testing.TB, err error, code string) {
	t.Helper()
	if got := solidarity.ErrorCode(err); got != code {
		t.Fatalf("error %v: code %q, want %q", err, got, code)
	}
	if _, ok := errors.AsType[*solidarity.Error](err); !ok {
		t.Fatalf("error %v (%T) is not a *solidarity.Error", err, err)
	}
}

// sameStored compares every stored field, times by instant and payloads by byte.
func sameStored(a, b *solidarity.Entry) bool {
	return a.Seq == b.Seq && a.Cycle == b.Cycle && a.Type == b.Type && a.State == b.State &&
		a.Ref == b.Ref && a.Actor == b.Actor && a.At.Equal(b.At) && a.LegalBasis == b.LegalBasis &&
		bytes.Equal(a.Payload, b.Payload) && a.PrevHash == b.PrevHash && a.Hash == b.Hash
}

func sameEntries(t testing.TB, what string, got, want []*solidarity.Entry) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%s: %d entries, want %d (%s vs %s)", what, len(got), len(want), seqs(got), seqs(want))
	}
	for i := range got {
		if !sameStored(got[i], want[i]) {
			t.Fatalf("%s: entry %d:\n got %+v\nwant %+v", what, i, got[i], want[i])
		}
	}
}

func seqs(es []*solidarity.Entry) string {
	var b strings.Builder
	for i, e := range es {
		if i > 0 {
			b.WriteByte(',')
		}
		if i == 20 {
			b.WriteString("...")
			break
		}
		b.WriteString(strconv.FormatInt(e.Seq, 10))
	}
	return b.String()
}

// The cases.

func testEmpty(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	if err := s.Ping(ctx); err != nil {
		t.Fatalf("Ping: %v", err)
	}
	if seq, hash := head(t, s); seq != 0 || hash != "" {
		t.Fatalf("Head of an empty ledger = %d %q", seq, hash)
	}
	if es := all(t, s); len(es) != 0 {
		t.Fatalf("All: %d entries", len(es))
	}
	mustVerify(t, s, 0)
	if es, err := s.Entries(ctx, solidarity.EntryFilter{}); err != nil || len(es) != 0 {
		t.Fatalf("Entries = %v, %v", es, err)
	}
	if es, err := s.Find(ctx, cycle); err != nil || len(es) != 0 {
		t.Fatalf("Find = %v, %v", es, err)
	}
	if ts, err := s.Totals(ctx, cycle); err != nil || len(ts) != 0 {
		t.Fatalf("Totals = %v, %v", ts, err)
	}
}

func testChain(t *testing.T, h Harness) {
	s := h.Store
	var outs []*solidarity.Entry
	prev := ""
	for i := range 30 {
		var e *solidarity.Entry
		if i%3 == 0 {
			e = pledge(t, cycle, states[i%len(states)], i)
		} else {
			e = delivery(t, cycle, states[i%len(states)], deliveryTypes[i%3], int64(i), i)
		}
		in := e
		out := mustAppend(t, s, "", e)
		if out.Seq != int64(i+1) {
			t.Fatalf("entry %d: seq %d, want %d", i, out.Seq, i+1)
		}
		if in.Seq != out.Seq || in.Hash != out.Hash {
			t.Fatalf("entry %d: Append did not set Seq and Hash on its argument", i)
		}
		if out.PrevHash != prev {
			t.Fatalf("entry %d: prev_hash %q, want %q", i, out.PrevHash, prev)
		}
		if out.Hash != ledger.Hash(out) {
			t.Fatalf("entry %d: hash does not match ledger.Hash", i)
		}
		if !out.At.Equal(ledger.Normalize(out.At)) {
			t.Fatalf("entry %d: At not normalised", i)
		}
		if seq, hash := head(t, s); seq != out.Seq || hash != out.Hash {
			t.Fatalf("Head = %d %q, want %d %q", seq, hash, out.Seq, out.Hash)
		}
		prev = out.Hash
		outs = append(outs, out)
	}
	sameEntries(t, "All", all(t, s), outs)
	mustVerify(t, s, 30)
}

func testIdempotent(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "", pledge(t, cycle, "DE", 0))
	first := mustAppend(t, s, "key-1", delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1))
	mustAppend(t, s, "key-2", delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 2))
	totals, err := s.Totals(ctx, cycle)
	if err != nil {
		t.Fatal(err)
	}

	// The retry of the request: same content, later clock.
	retry := delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1)
	retry.At = retry.At.Add(time.Hour)
	out, replayed, err := s.Append(ctx, "key-1", retry, func(solidarity.View) error {
		t.Error("check called on a replay")
		return nil
	})
	if err != nil {
		t.Fatalf("replay: %v", err)
	}
	if !replayed {
		t.Fatal("replay: replayed = false")
	}
	if !sameStored(out, first) {
		t.Fatalf("replay returned\n %+v\nwant the stored\n %+v", out, first)
	}
	if seq, _ := head(t, s); seq != 3 {
		t.Fatalf("replay wrote: head %d, want 3", seq)
	}
	if got, err := s.Totals(ctx, cycle); err != nil || fmt.Sprint(got) != fmt.Sprint(totals) {
		t.Fatalf("replay changed totals: %v (%v), want %v", got, err, totals)
	}
	mustVerify(t, s, 3)
}

func testIdempotentConflict(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "key", delivery(t, cycle, "ES", solidarity.RelocationDelivered, 7, 0))
	other := delivery(t, cycle, "ES", solidarity.RelocationDelivered, 8, 0)
	_, _, err := s.Append(ctx, "key", other, nil)
	wantCode(t, err, solidarity.ECONFLICT)
	if other.Seq != 0 || other.Hash != "" {
		t.Fatalf("a refused entry was sealed: %+v", other)
	}
	if seq, _ := head(t, s); seq != 1 {
		t.Fatalf("head %d after a conflict, want 1", seq)
	}
	// Another state under the key is as different. (Another actor's key is its own:
	// testIdempotentPerActor.)
	other = delivery(t, cycle, "PT", solidarity.RelocationDelivered, 7, 0)
	other.Actor = "officer-ES"
	_, _, err = s.Append(ctx, "key", other, nil)
	wantCode(t, err, solidarity.ECONFLICT)
	mustVerify(t, s, 1)
}

func testCheckFails(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "", pledge(t, cycle, "FR", 0))
	seq0, hash0 := head(t, s)

	for _, want := range []error{
		errors.New("plain error"),
		&solidarity.Error{Code: solidarity.ECONFLICT, Message: "over the pledge", Article: "Art. 57(1)"},
	} {
		e := delivery(t, cycle, "FR", solidarity.RelocationDelivered, 3, 1)
		called := false
		out, replayed, err := s.Append(ctx, "k", e, func(solidarity.View) error {
			called = true
			return want
		})
		if !called {
			t.Fatal("check not called")
		}
		if err != want {
			t.Fatalf("check error came back as %v (%T), want it unchanged", err, err)
		}
		if out != nil || replayed {
			t.Fatalf("failed append returned %v, %v", out, replayed)
		}
		if e.Seq != 0 || e.Hash != "" {
			t.Fatalf("a refused entry was sealed: %+v", e)
		}
		if seq, hash := head(t, s); seq != seq0 || hash != hash0 {
			t.Fatalf("head moved to %d after a failed check", seq)
		}
		if ts, err := s.Totals(ctx, cycle); err != nil || len(ts) != 0 {
			t.Fatalf("totals after a failed check: %v %v", ts, err)
		}
	}
	// The key was not used up.
	out, replayed, err := s.Append(ctx, "k", delivery(t, cycle, "FR", solidarity.RelocationDelivered, 3, 1),
		func(solidarity.View) error { return nil })
	if err != nil || replayed || out.Seq != seq0+1 {
		t.Fatalf("append after failed checks: %+v, replayed=%v, %v", out, replayed, err)
	}
	mustVerify(t, s, 2)
}

func testCheckSeesCommitted(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	p := mustAppend(t, s, "", pledge(t, cycle, "IT", 0))
	mustAppend(t, s, "", pledge(t, cycle+1, "IT", 1))
	d := mustAppend(t, s, "", delivery(t, cycle, "IT", solidarity.RelocationDelivered, 4, 2))

	for i := range 3 {
		_, _, err := s.Append(ctx, "", delivery(t, cycle, "IT", solidarity.RelocationDelivered, 5, 3+i), func(v solidarity.View) error {
			pledges, err := v.Find(ctx, cycle, solidarity.PledgeMade, solidarity.PledgeChanged)
			if err != nil {
				return err
			}
			if len(pledges) != 1 || !sameStored(pledges[0], p) {
				return fmt.Errorf("Find(pledges) in check = %s", seqs(pledges))
			}
			everything, err := v.Find(ctx, cycle)
			if err != nil {
				return err
			}
			if len(everything) != 2+i || !sameStored(everything[1], d) {
				return fmt.Errorf("Find(all types) in check = %s, want %d entries", seqs(everything), 2+i)
			}
			ts, err := v.Totals(ctx, cycle)
			if err != nil {
				return err
			}
			want := solidarity.Totals{Cycle: cycle, State: "IT", Delivered: solidarity.Amounts{}.With(solidarity.RelocationDelivered, int64(4+5*i))}
			if len(ts) != 1 || ts[0] != want {
				return fmt.Errorf("Totals in check = %+v, want %+v", ts, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	want := solidarity.Totals{Cycle: cycle, State: "IT", Delivered: solidarity.Amounts{}.With(solidarity.RelocationDelivered, 19)}
	if ts, err := s.Totals(ctx, cycle); err != nil || len(ts) != 1 || ts[0] != want {
		t.Fatalf("Totals = %+v, %v; want %+v", ts, err, want)
	}
	if ts, err := s.Totals(ctx, cycle+1); err != nil || len(ts) != 0 {
		t.Fatalf("Totals of a cycle without deliveries = %+v, %v", ts, err)
	}
}

func testInvalid(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	mustAppend(t, s, "", pledge(t, cycle, "AT", 0))
	bad := []*solidarity.Entry{
		nil,
		{Cycle: cycle, Type: solidarity.PledgeMade, Actor: "x", Payload: json.RawMessage(`{"broken`)},
		{Cycle: cycle, Type: solidarity.PledgeMade, Actor: "x"},
		{Cycle: cycle, Type: solidarity.PaymentMade, State: "AT", Actor: "x", Payload: json.RawMessage(`{"eur_cents":"ten"}`)},
	}
	for i, e := range bad {
		_, _, err := s.Append(ctx, "k"+strconv.Itoa(i), e, nil)
		wantCode(t, err, solidarity.EINVALID)
	}
	if seq, _ := head(t, s); seq != 1 {
		t.Fatalf("invalid entries written: head %d", seq)
	}
	for _, limit := range []int{-1, 1001} {
		_, err := s.Entries(ctx, solidarity.EntryFilter{Limit: limit})
		wantCode(t, err, solidarity.EINVALID)
	}
	mustVerify(t, s, 1)
}

func testConcurrent(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	const writers, each = 20, 10
	var wg sync.WaitGroup
	errs := make(chan error, writers*(each+1))
	fresh := make(chan int64, writers)
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				e := delivery(t, cycle, states[g%len(states)], deliveryTypes[i%3], 1, g*each+i)
				e.Ref = fmt.Sprintf("g%02d-%02d", g, i)
				if _, _, err := s.Append(ctx, e.Ref, e, func(v solidarity.View) error {
					_, err := v.Totals(ctx, cycle)
					return err
				}); err != nil {
					errs <- err
				}
			}
			// Every writer sends the same request under the same key: one wins.
			e := delivery(t, cycle, "DE", solidarity.PaymentMade, 100, 0)
			e.Ref = "shared"
			out, replayed, err := s.Append(ctx, "shared", e, nil)
			if err != nil {
				errs <- err
				return
			}
			if !replayed {
				fresh <- out.Seq
			}
		})
	}
	wg.Wait()
	close(errs)
	close(fresh)
	for err := range errs {
		t.Fatalf("concurrent append: %v", err)
	}
	if n := len(fresh); n != 1 {
		t.Fatalf("%d appends under one key were not replays, want 1", n)
	}
	es := all(t, s)
	if len(es) != writers*each+1 {
		t.Fatalf("%d entries, want %d", len(es), writers*each+1)
	}
	refs := map[string]bool{}
	for i, e := range es {
		if e.Seq != int64(i+1) {
			t.Fatalf("entry %d has seq %d: not dense", i, e.Seq)
		}
		if refs[e.Ref] {
			t.Fatalf("ref %q written twice", e.Ref)
		}
		refs[e.Ref] = true
	}
	mustVerify(t, s, int64(len(es)))
	checkCycleTotals(t, s, "")
}

func testTamper(t *testing.T, h Harness) {
	s := h.Store
	for i := range 12 {
		mustAppend(t, s, "", delivery(t, cycle, states[i%5], deliveryTypes[i%3], int64(100+i), i))
	}
	mustVerify(t, s, 12)
	h.Tamper(7)
	v := verify(t, s)
	if v.OK || v.BadSeq != 7 || v.Entries != 6 {
		t.Fatalf("Verify after tampering with entry 7: ok=%v bad=%d entries=%d (%s)", v.OK, v.BadSeq, v.Entries, v.Problem)
	}
}

func testClosed(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	err := s.Ping(ctx)
	wantCode(t, err, solidarity.EINTERNAL)
	if msg := solidarity.ErrorMessage(err); msg != "database error" {
		t.Fatalf("the message of an internal error tells %q", msg)
	}
	_, _, err = s.Append(ctx, "", pledge(t, cycle, "DE", 0), nil)
	wantCode(t, err, solidarity.EINTERNAL)
}
