package ledgersvc

import (
	"testing"

	"solidarity"
)

// TestExtendLeavesSharedStates: a cached state is shared, so extending it twice (the
// writer with its batch's pending entries, a reader with the committed ones) gives two
// states and leaves the first as it was: entries, pledges and references.
func TestExtendLeavesSharedStates(t *testing.T) {
	pledge := func(seq int64, m solidarity.MemberState, n int) *solidarity.Entry {
		return &solidarity.Entry{Seq: seq, Hash: string(rune('a' + seq)), Cycle: 2027, Type: solidarity.PledgeMade, State: m,
			Ref: string(solidarity.RelocationApplicants), Payload: []byte(`{"type":"relocation-applicants","relocations":` + string(rune('0'+n)) + `}`)}
	}
	base := &state{year: 2027, pledges: map[pledgeKey]solidarity.PledgePayload{}, statuses: map[solidarity.MemberState]*solidarity.Entry{},
		byRef: map[solidarity.EntryType]map[string]*solidarity.Entry{}, tail: &tail{}}
	base, err := base.extend([]*solidarity.Entry{pledge(1, "DE", 1)})
	if err != nil {
		t.Fatal(err)
	}
	a, err := base.extend([]*solidarity.Entry{pledge(2, "FR", 2)})
	if err != nil {
		t.Fatal(err)
	}
	b, err := base.extend([]*solidarity.Entry{pledge(2, "ES", 3), pledge(3, "DE", 4)})
	if err != nil {
		t.Fatal(err)
	}
	if len(base.entries) != 1 || len(base.pledges) != 1 || base.byRef[solidarity.PledgeMade]["relocation-applicants"].Seq != 1 {
		t.Fatalf("base changed: %d entries, pledges %v", len(base.entries), base.pledges)
	}
	if len(a.entries) != 2 || a.entries[1].State != "FR" || len(a.pledges) != 2 || a.pledges[pledgeKey{"FR", solidarity.RelocationApplicants}].Relocations != 2 {
		t.Fatalf("a: entries %v, pledges %v", a.entries, a.pledges)
	}
	if len(b.entries) != 3 || b.entries[1].State != "ES" || b.pledges[pledgeKey{"DE", solidarity.RelocationApplicants}].Relocations != 4 ||
		b.byRef[solidarity.PledgeMade]["relocation-applicants"].Seq != 3 || a.byRef[solidarity.PledgeMade]["relocation-applicants"].Seq != 2 {
		t.Fatalf("b: entries %v, pledges %v", b.entries, b.pledges)
	}
	if _, ok := a.pledges[pledgeKey{"ES", solidarity.RelocationApplicants}]; ok {
		t.Fatal("b's pledge is in a")
	}
}

// TestThroughSeq: the balances' state without the entries appended after the
// snapshot's head is the state of the entries up to it (pledges replaced by a later
// one come back), and a state with none after the head is kept as it is.
func TestThroughSeq(t *testing.T) {
	pledge := func(seq int64, m solidarity.MemberState, n int) *solidarity.Entry {
		return &solidarity.Entry{Seq: seq, Cycle: 2027, Type: solidarity.PledgeMade, State: m,
			Ref: string(solidarity.RelocationApplicants), Payload: []byte(`{"type":"relocation-applicants","relocations":` + string(rune('0'+n)) + `}`)}
	}
	all, err := stateOf(2027, []*solidarity.Entry{pledge(2, "DE", 1), pledge(5, "FR", 2), pledge(9, "DE", 3)})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		head    int64
		entries int
		de      int64
	}{{1, 0, 0}, {2, 1, 1}, {8, 2, 1}, {9, 3, 3}, {20, 3, 3}} {
		st, err := throughSeq(all, c.head)
		if err != nil {
			t.Fatal(err)
		}
		if len(st.entries) != c.entries || st.pledges[pledgeKey{"DE", solidarity.RelocationApplicants}].Relocations != c.de {
			t.Errorf("through %d: %d entries, pledges %v; want %d entries, DE %d", c.head, len(st.entries), st.pledges, c.entries, c.de)
		}
		if c.head >= 9 && st != all {
			t.Errorf("through %d: a new state, want the state itself", c.head)
		}
	}
}
