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
	"math"
	"math/big"
	"math/rand/v2"
	"os"
	"slices"
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
			want := solidarity.Totals{Cycle: cycle, State: "IT", Relocations: int64(4 + 5*i)}
			if len(ts) != 1 || ts[0] != want {
				return fmt.Errorf("Totals in check = %+v, want %+v", ts, want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	want := solidarity.Totals{Cycle: cycle, State: "IT", Relocations: 19}
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

// seed returns the random seed of a property test: SOLIDARITY_TEST_SEED, or a new one.
func seed(t *testing.T) uint64 {
	if v := os.Getenv("SOLIDARITY_TEST_SEED"); v != "" {
		n, err := strconv.ParseUint(v, 10, 64)
		if err != nil {
			t.Fatalf("SOLIDARITY_TEST_SEED: %v", err)
		}
		return n
	}
	return rand.Uint64()
}

// testTotalsEqualSum appends a random mix of deliveries, other entries, replays and
// refused appends, and checks after each round that the stored totals are
// ledger.Sum over All.
func testTotalsEqualSum(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	sd := seed(t)
	t.Logf("seed %d (rerun with SOLIDARITY_TEST_SEED=%d)", sd, sd)
	r := rand.New(rand.NewPCG(sd, 0))
	cycles := []int{cycle, cycle + 1}
	refused := errors.New("refused")
	var keys []string
	byKey := map[string]*solidarity.Entry{}
	n := int64(0)
	// model is the exact sum of each (cycle, state, type): an append that would take
	// one beyond an int64 must be refused with ECONFLICT (never wrap), all others kept.
	model := map[string]*big.Int{}
	overflows := func(e *solidarity.Entry) (bool, func()) {
		d, ok, err := ledger.Delta(e)
		if err != nil || !ok {
			return false, func() {}
		}
		k := fmt.Sprint(e.Cycle, e.State, e.Type)
		if model[k] == nil {
			model[k] = new(big.Int)
		}
		next := new(big.Int).Add(model[k], big.NewInt(d.Relocations+int64(d.Payments)+int64(d.Alternative)))
		return !next.IsInt64(), func() { model[k] = next }
	}
	for round := range 4 {
		for i := range 40 {
			j := round*40 + i
			c := cycles[r.IntN(len(cycles))]
			st := states[r.IntN(len(states))]
			var e *solidarity.Entry
			switch k := r.IntN(10); {
			case k < 6:
				amount := r.Int64N(1_000_000)
				switch r.IntN(20) {
				case 0, 1:
					amount = -r.Int64N(1000) // a correction
				case 2:
					amount = math.MaxInt64/2 + r.Int64N(1000) // two of these do not fit
				}
				e = delivery(t, c, st, deliveryTypes[r.IntN(3)], amount, j)
			case k < 8:
				e = pledge(t, c, st, j)
			default:
				if len(keys) == 0 {
					continue
				}
				// A replay: find the keyed entry and send it again.
				key := keys[r.IntN(len(keys))]
				again := *byKey[key]
				_, replayed, err := s.Append(ctx, key, &again, nil)
				if err != nil || !replayed {
					t.Fatalf("replay of %q: replayed=%v, %v", key, replayed, err)
				}
				continue
			}
			key := ""
			if r.IntN(2) == 0 {
				key = fmt.Sprintf("key-%d", j)
			}
			var check func(solidarity.View) error
			fail := r.IntN(8) == 0
			if fail {
				check = func(solidarity.View) error { return refused }
			}
			over, commit := overflows(e)
			_, _, err := s.Append(ctx, key, e, check)
			if fail {
				if err != refused {
					t.Fatalf("refused append: %v", err)
				}
				continue
			}
			if over {
				wantCode(t, err, solidarity.ECONFLICT)
				continue
			}
			if err != nil {
				t.Fatal(err)
			}
			commit()
			n++
			if key != "" {
				keys = append(keys, key)
				byKey[key] = e
			}
		}
		sum := ledgerSum(t, s)
		got := map[[2]string]solidarity.Totals{}
		for _, c := range cycles {
			for _, x := range totals(t, s, c) {
				if x.Cycle != c {
					t.Fatalf("Totals(%d) returned a row of cycle %d", c, x.Cycle)
				}
				got[[2]string{strconv.Itoa(x.Cycle), string(x.State)}] = x
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(sum) {
			t.Fatalf("round %d: totals\n %v\nwant ledger.Sum\n %v", round, got, sum)
		}
	}
	mustVerify(t, s, n)
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

func testUsers(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	if us, err := s.Users(ctx); err != nil || len(us) != 0 {
		t.Fatalf("Users of an empty store = %v, %v", us, err)
	}
	es := &solidarity.User{Name: "officer-es", Role: solidarity.Officer, State: "ES"}
	if err := s.CreateUser(ctx, es, "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$aGFzaA"); err != nil {
		t.Fatal(err)
	}
	aud := &solidarity.User{Name: "auditor", Role: solidarity.Auditor}
	if err := s.CreateUser(ctx, aud, ""); err != nil {
		t.Fatal(err)
	}
	if es.ID == 0 || aud.ID == 0 || es.ID == aud.ID {
		t.Fatalf("user ids %d and %d", es.ID, aud.ID)
	}
	wantCode(t, s.CreateUser(ctx, &solidarity.User{Name: "officer-es", Role: solidarity.Coordinator}, ""), solidarity.ECONFLICT)
	wantCode(t, s.CreateUser(ctx, &solidarity.User{Role: solidarity.Coordinator}, ""), solidarity.EINVALID)

	u, hash, err := s.UserByName(ctx, "officer-es")
	if err != nil {
		t.Fatal(err)
	}
	if *u != *es || hash != "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$aGFzaA" {
		t.Fatalf("UserByName = %+v %q", u, hash)
	}
	if u, hash, err := s.UserByName(ctx, "auditor"); err != nil || *u != *aud || hash != "" {
		t.Fatalf("UserByName(auditor) = %+v %q %v", u, hash, err)
	}
	_, _, err = s.UserByName(ctx, "nobody")
	wantCode(t, err, solidarity.ENOTFOUND)
	_, _, err = s.UserByName(ctx, "OFFICER-ES")
	wantCode(t, err, solidarity.ENOTFOUND)

	us, err := s.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 2 || *us[0] != *es || *us[1] != *aud {
		t.Fatalf("Users = %+v", us)
	}
}

func testCredentials(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	u := &solidarity.User{Name: "coordinator", Role: solidarity.Coordinator}
	if err := s.CreateUser(ctx, u, ""); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	expires := now.Add(time.Hour)
	token := solidarity.Credential{Kind: "token", Hash: strings.Repeat("ab", 32), UserID: u.ID, Label: "ci"}
	session := solidarity.Credential{Kind: "session", Hash: strings.Repeat("cd", 32), UserID: u.ID, Expires: expires}
	for _, c := range []solidarity.Credential{token, session} {
		if err := s.CreateCredential(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, s.CreateCredential(ctx, token), solidarity.ECONFLICT)
	wantCode(t, s.CreateCredential(ctx, solidarity.Credential{Kind: "token", Hash: "ef", UserID: u.ID + 1000}), solidarity.ENOTFOUND)

	found := func(kind, hash string, at time.Time) error {
		got, err := s.UserByCredential(ctx, kind, hash, at)
		if err == nil && *got != *u {
			t.Fatalf("UserByCredential(%s) = %+v, want %+v", kind, got, u)
		}
		return err
	}
	for _, at := range []time.Time{now, now.AddDate(50, 0, 0)} {
		if err := found("token", token.Hash, at); err != nil {
			t.Fatalf("token without expiry at %v: %v", at, err)
		}
	}
	if err := found("session", session.Hash, expires.Add(-time.Microsecond)); err != nil {
		t.Fatalf("session before expiry: %v", err)
	}
	for _, at := range []time.Time{expires, expires.Add(time.Second), now.AddDate(1, 0, 0)} {
		wantCode(t, found("session", session.Hash, at), solidarity.ENOTFOUND)
	}
	// The kind is part of the credential.
	wantCode(t, found("session", token.Hash, now), solidarity.ENOTFOUND)
	wantCode(t, found("token", "00", now), solidarity.ENOTFOUND)

	if err := s.DeleteCredential(ctx, "session", session.Hash); err != nil {
		t.Fatal(err)
	}
	wantCode(t, found("session", session.Hash, now), solidarity.ENOTFOUND)
	wantCode(t, s.DeleteCredential(ctx, "session", session.Hash), solidarity.ENOTFOUND)
	if err := found("token", token.Hash, now); err != nil {
		t.Fatalf("token after deleting the session: %v", err)
	}
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

// testTotalsOverflow: a delivery whose total would not fit an int64 is refused with
// ECONFLICT and writes nothing, and the row stays readable (issue 12: on SQLite the sum
// became a REAL and every later read of the cycle failed; on PostgreSQL it answered 500).
func testTotalsOverflow(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	for i, typ := range deliveryTypes {
		mustAppend(t, s, "", delivery(t, cycle, "DE", typ, math.MaxInt64-10, i))
	}
	for i, typ := range deliveryTypes {
		_, _, err := s.Append(ctx, fmt.Sprintf("k-%d", i), delivery(t, cycle, "DE", typ, 11, 10+i), nil)
		wantCode(t, err, solidarity.ECONFLICT)
	}
	if n, _ := head(t, s); n != 3 {
		t.Fatalf("head %d after refused appends, want 3", n)
	}
	// The store goes on: the row reads, fits, and takes what still fits.
	mustAppend(t, s, "", delivery(t, cycle, "DE", solidarity.RelocationDelivered, 10, 20))
	mustAppend(t, s, "", delivery(t, cycle, "FR", solidarity.RelocationDelivered, 5, 21))
	checkCycleTotals(t, s, "")
	ts := totals(t, s, cycle)
	if len(ts) != 2 || ts[0].State != "DE" || ts[0].Relocations != math.MaxInt64 || ts[0].Payments != math.MaxInt64-10 {
		t.Fatalf("totals %+v", ts)
	}
	// The refused key was not recorded: the same key may be used for another entry.
	mustAppend(t, s, "k-0", delivery(t, cycle, "FR", solidarity.PaymentMade, 1, 22))
	mustVerify(t, s, 6)
}

// testAllTotals: AllTotals returns every cycle's rows with the head they include, and
// equals ledger.Sum over the entries up to it.
func testAllTotals(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	p, err := s.AllTotals(ctx)
	if err != nil || p.Seq != 0 || len(p.Totals) != 0 || len(p.Daily) != 0 {
		t.Fatalf("empty store: %+v, %v", p, err)
	}
	for i := range 30 {
		mustAppend(t, s, "", delivery(t, cycle+i%3, states[i%5], deliveryTypes[i%3], int64(1+i), i))
		if i%7 == 0 {
			mustAppend(t, s, "", pledge(t, cycle, states[i%5], i))
		}
	}
	p, err = s.AllTotals(ctx)
	if err != nil {
		t.Fatal(err)
	}
	seq, ts := p.Seq, p.Totals
	// The daily rows: one per cycle, state and day, summing to the cycle's totals; and
	// TotalsThrough the last day is the totals, through the day before the first
	// delivery nothing.
	byState := map[[2]string]solidarity.Totals{}
	for i, d := range p.Daily {
		if i > 0 && !dailyBefore(p.Daily[i-1], d) {
			t.Fatalf("daily rows out of order: %v", p.Daily)
		}
		k := [2]string{strconv.Itoa(d.Cycle), string(d.State)}
		sum, ok := ledger.AddTotals(byState[k], d.Totals)
		if !ok {
			t.Fatal("daily overflow")
		}
		byState[k] = sum
	}
	if fmt.Sprint(byState) != fmt.Sprint(ledgerSum(t, s)) {
		t.Fatalf("daily rows sum to %v, want %v", byState, ledgerSum(t, s))
	}
	endOfDay := base.Truncate(24 * time.Hour).Add(24*time.Hour - time.Microsecond)
	for _, c := range []int{cycle, cycle + 1, cycle + 2} {
		through, err := s.TotalsAt(ctx, c, endOfDay)
		if err != nil || fmt.Sprint(through) != fmt.Sprint(totals(t, s, c)) {
			t.Fatalf("TotalsAt(%d, the end of the day): %v, %v; want %v", c, through, err, totals(t, s, c))
		}
		if none, err := s.TotalsAt(ctx, c, endOfDay.AddDate(0, 0, -1)); err != nil || len(none) != 0 {
			t.Fatalf("TotalsAt(%d, the day before): %v, %v", c, none, err)
		}
		// Within the day: the entries up to then.
		for _, at := range []time.Time{base.Add(-time.Microsecond), base.Add(10 * time.Second), base.Add(10*time.Second + time.Microsecond)} {
			var upTo []*solidarity.Entry
			for _, e := range all(t, s) {
				if !e.At.After(at) {
					upTo = append(upTo, e)
				}
			}
			want, _ := ledger.Sum(func(yield func(*solidarity.Entry, error) bool) {
				for _, e := range upTo {
					if e.Cycle == c && !yield(e, nil) {
						return
					}
				}
			})
			got, err := s.TotalsAt(ctx, c, at)
			if err != nil || len(got) != len(want) {
				t.Fatalf("TotalsAt(%d, %s): %v, %v; want %v", c, at, got, err, want)
			}
			for _, x := range got {
				if want[[2]string{strconv.Itoa(c), string(x.State)}] != x {
					t.Fatalf("TotalsAt(%d, %s): %v; want %v", c, at, got, want)
				}
			}
		}
	}
	if n, _ := head(t, s); seq != n {
		t.Fatalf("AllTotals at %d, head %d", seq, n)
	}
	sum := ledgerSum(t, s)
	if len(ts) != len(sum) {
		t.Fatalf("%d rows, want %d", len(ts), len(sum))
	}
	for i, x := range ts {
		if i > 0 && (ts[i-1].Cycle > x.Cycle || ts[i-1].Cycle == x.Cycle && ts[i-1].State >= x.State) {
			t.Fatalf("rows out of order: %v", ts)
		}
		if sum[[2]string{strconv.Itoa(x.Cycle), string(x.State)}] != x {
			t.Fatalf("row %+v, want %+v", x, sum[[2]string{strconv.Itoa(x.Cycle), string(x.State)}])
		}
	}
	mustVerify(t, s, seq)
}

func dailyBefore(a, b solidarity.DayTotals) bool {
	if a.Cycle != b.Cycle {
		return a.Cycle < b.Cycle
	}
	if a.State != b.State {
		return a.State < b.State
	}
	return a.Day < b.Day
}
