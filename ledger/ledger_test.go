package ledger_test

import (
	"encoding/json"
	"errors"
	"iter"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/ledger"
)

func chain(t *rapid.T, n int) []*solidarity.Entry {
	var out []*solidarity.Entry
	prev := ""
	at := time.Date(2026, 6, 12, 9, 0, 0, 0, time.UTC)
	for i := range n {
		p, _ := ledger.Payload(solidarity.DeliveryPayload{Relocations: rapid.Int64Range(1, 100).Draw(t, "n")})
		e := &solidarity.Entry{Seq: int64(i + 1), Cycle: 2026, Type: solidarity.RelocationDelivered,
			State: rapid.SampledFrom(solidarity.PartIV()).Draw(t, "state"), Actor: "a", At: at.Add(time.Duration(i) * time.Microsecond * 1500),
			LegalBasis: "Arts. 67–68", Payload: p}
		ledger.Seal(e, prev)
		prev = e.Hash
		out = append(out, e)
	}
	return out
}

func seq(es []*solidarity.Entry) iter.Seq2[*solidarity.Entry, error] {
	return func(yield func(*solidarity.Entry, error) bool) {
		for _, e := range es {
			if !yield(e, nil) {
				return
			}
		}
	}
}

func TestVerifyAcceptsSealedChains(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		es := chain(t, rapid.IntRange(0, 50).Draw(t, "n"))
		v, err := ledger.Verify(seq(es), time.Now())
		if err != nil || !v.OK || v.Entries != int64(len(es)) {
			t.Fatalf("%+v %v", v, err)
		}
	})
}

// Any change to any field of any entry, a removal, a swap or an insertion is caught,
// and the first bad entry is named.
func TestVerifyNamesTheFirstBadEntry(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		es := chain(t, rapid.IntRange(2, 30).Draw(t, "n"))
		i := rapid.IntRange(0, len(es)-1).Draw(t, "i")
		e := *es[i]
		want := e.Seq
		switch rapid.IntRange(0, 8).Draw(t, "how") {
		case 0:
			e.Payload = json.RawMessage(`{"relocations":100000}`)
		case 1:
			e.State = "XX"
		case 2:
			e.Actor = "someone else"
		case 3:
			e.At = e.At.Add(time.Second)
		case 4:
			e.Type = solidarity.PaymentMade
		case 5:
			e.LegalBasis = "none"
		case 6:
			e.Cycle++
		case 7: // remove entry i: entry i+1 (or nothing, if i was last) is now out of place
			if i == len(es)-1 {
				return
			}
			es = append(es[:i:i], es[i+1:]...)
			v, _ := ledger.Verify(seq(es), time.Now())
			if v.OK || v.BadSeq != want+1 {
				t.Fatalf("removal of %d: %+v", want, v)
			}
			return
		case 8: // re-seal a changed entry: its own hash matches, the next link does not
			if i == len(es)-1 {
				return
			}
			e.Actor = "forger"
			ledger.Seal(&e, e.PrevHash)
			want = e.Seq + 1
		}
		es[i] = &e
		v, _ := ledger.Verify(seq(es), time.Now())
		if v.OK || v.BadSeq != want {
			t.Fatalf("change to entry %d: %+v", e.Seq, v)
		}
	})
}

func TestCanonicalIsUnambiguous(t *testing.T) {
	a := &solidarity.Entry{Seq: 1, Actor: "ab", LegalBasis: "c"}
	b := &solidarity.Entry{Seq: 1, Actor: "a", LegalBasis: "bc"}
	if ledger.Hash(a) == ledger.Hash(b) {
		t.Fatal("moving bytes between fields kept the hash")
	}
}

func TestDeltaAndSum(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		es := chain(t, rapid.IntRange(0, 40).Draw(t, "n"))
		sum, err := ledger.Sum(seq(es))
		if err != nil {
			t.Fatal(err)
		}
		var total, got int64
		for _, e := range es {
			d, ok, _ := ledger.Delta(e)
			if !ok {
				t.Fatal("a delivery is not a delta")
			}
			total += d.Delivered.Of(solidarity.RelocationDelivered)
		}
		for _, v := range sum {
			got += v.Delivered.Of(solidarity.RelocationDelivered)
		}
		if got != total {
			t.Fatalf("sum %d, deltas %d", got, total)
		}
	})
	// Non-deliveries add nothing; a broken delivery payload is an error, not zero.
	if _, ok, _ := ledger.Delta(&solidarity.Entry{Type: solidarity.PledgeMade}); ok {
		t.Error("a pledge counted as a delivery")
	}
	if _, _, err := ledger.Delta(&solidarity.Entry{Type: solidarity.PaymentMade, Payload: json.RawMessage(`{`)}); err == nil {
		t.Error("a broken payload was accepted")
	}
}

func TestPaged(t *testing.T) {
	all := make([]*solidarity.Entry, 7)
	for i := range all {
		all[i] = &solidarity.Entry{Seq: int64(i + 1)}
	}
	calls := 0
	fetch := func(after int64, size int) ([]*solidarity.Entry, error) {
		calls++
		return all[min(int(after), len(all)):min(int(after)+size, len(all))], nil
	}
	var got []int64
	for e, err := range ledger.Paged(3, fetch) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.Seq)
	}
	if len(got) != 7 || got[6] != 7 || calls != 3 {
		t.Fatalf("got %v in %d calls", got, calls)
	}
	// Stopping early fetches no further page; an error ends the stream.
	calls = 0
	for range ledger.Paged(3, fetch) {
		break
	}
	if calls != 1 {
		t.Fatalf("%d fetches after an early stop", calls)
	}
	n := 0
	for _, err := range ledger.Paged(3, func(int64, int) ([]*solidarity.Entry, error) { return nil, errors.New("db down") }) {
		if err == nil {
			t.Fatal("no error")
		}
		n++
	}
	if n != 1 {
		t.Fatalf("%d items after an error", n)
	}
}
