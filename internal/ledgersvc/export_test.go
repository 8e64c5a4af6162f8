package ledgersvc

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"solidarity"
)

// TypeSets are the entry types the checks and the balances load a state from.
var TypeSets = map[string][]solidarity.EntryType{"small": smallTypes, "delivery": deliveryTypes}

// CacheDiff loads the state of a cycle from each type set through s's cache and from
// scratch, in v, and says how they differ ("" when they do not).
func CacheDiff(ctx context.Context, s *Service, v solidarity.View, year int) (string, error) {
	for _, name := range slices.Sorted(maps.Keys(TypeSets)) {
		types := TypeSets[name]
		cached, err := s.load(ctx, v, year, types...)
		if err != nil {
			return "", err
		}
		scratch, err := load(ctx, v, year, types...)
		if err != nil {
			return "", err
		}
		if d := stateDiff(cached, scratch); d != "" {
			return name + " types: " + d, nil
		}
	}
	return "", nil
}

var errCompared = errors.New("compared")

// CacheDiffInWriter is CacheDiff in the view of a check in the writer (of an append
// it then refuses).
func CacheDiffInWriter(ctx context.Context, s *Service, year int) (string, error) {
	var diff string
	e := &solidarity.Entry{Cycle: year, Type: solidarity.PaymentMade, State: "DE", Actor: "test", Payload: []byte(`{"eur_cents":1}`)}
	_, _, err := s.Store.Append(ctx, "", e, func(v solidarity.View) error {
		d, err := CacheDiff(ctx, s, v, year)
		if err != nil {
			return err
		}
		diff = d
		return errCompared
	})
	if err != errCompared {
		return "", fmt.Errorf("append in the writer: %v", err)
	}
	return diff, nil
}

// CachedSeqs returns the last entry of each cached state of a type set, the last
// stored first.
func CachedSeqs(s *Service, year int, set string) []int64 {
	var out []int64
	for _, st := range s.states.get(keyOf(year, TypeSets[set])) {
		out = append(out, st.entries[len(st.entries)-1].Seq)
	}
	return out
}

func stateDiff(a, b *state) string {
	seqs := func(es []*solidarity.Entry) []string {
		var out []string
		for _, e := range es {
			out = append(out, fmt.Sprintf("%d:%s", e.Seq, e.Hash))
		}
		return out
	}
	if x, y := seqs(a.entries), seqs(b.entries); !slices.Equal(x, y) {
		return fmt.Sprintf("entries %v, want %v", x, y)
	}
	if !reflect.DeepEqual(a.cycle, b.cycle) {
		return "the cycles differ"
	}
	if !reflect.DeepEqual(a.pledges, b.pledges) {
		return fmt.Sprintf("pledges %v, want %v", a.pledges, b.pledges)
	}
	bySeq := func(m map[solidarity.MemberState]*solidarity.Entry) map[solidarity.MemberState]int64 {
		out := map[solidarity.MemberState]int64{}
		for k, e := range m {
			out[k] = e.Seq
		}
		return out
	}
	if x, y := bySeq(a.statuses), bySeq(b.statuses); !maps.Equal(x, y) {
		return fmt.Sprintf("statuses %v, want %v", x, y)
	}
	refs := func(m map[solidarity.EntryType]map[string]*solidarity.Entry) map[string]int64 {
		out := map[string]int64{}
		for t, rs := range m {
			for r, e := range rs {
				out[string(t)+" "+r] = e.Seq
			}
		}
		return out
	}
	if x, y := refs(a.byRef), refs(b.byRef); !maps.Equal(x, y) {
		return fmt.Sprintf("refs %v, want %v", x, y)
	}
	return ""
}
