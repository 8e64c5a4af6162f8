package ledger_test

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/ledger"
)

// A projection equal to ledger.Sum of the entries up to its sequence number verifies;
// changing, adding or removing one figure fails naming that figure's cycle, state and
// delivery type, whatever else is in the ledger.
func TestVerifyProjection(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		es := chain(t, rapid.IntRange(0, 40).Draw(t, "n"))
		upTo := rapid.IntRange(0, len(es)).Draw(t, "upTo")
		p, err := ledger.Project(seq(es), int64(upTo))
		if err != nil {
			t.Fatal(err)
		}
		sum, _ := ledger.Sum(seq(es[:upTo]))
		if fmt.Sprint(p.Totals) != fmt.Sprint(sortedTotals(sum)) {
			t.Fatalf("Project %v, Sum %v", p.Totals, sum)
		}
		v, err := ledger.VerifyProjection(seq(es), p, time.Now())
		if err != nil || !v.OK {
			t.Fatalf("good projection: %+v, %v", v, err)
		}
		// One figure changed (of the cycle's totals or of a day's), or a row added for
		// a state without deliveries.
		bad := &solidarity.Projection{Seq: p.Seq, Daily: p.Daily}
		var want solidarity.Totals
		daily := rapid.Bool().Draw(t, "daily")
		switch {
		case len(p.Totals) > 0 && rapid.Bool().Draw(t, "change"):
			i := rapid.IntRange(0, len(p.Totals)-1).Draw(t, "row")
			bad.Totals = slices.Clone(p.Totals)
			if daily {
				bad.Totals, bad.Daily = p.Totals, slices.Clone(p.Daily)
				for j := range bad.Daily {
					if bad.Daily[j].Cycle == p.Totals[i].Cycle && bad.Daily[j].State == p.Totals[i].State {
						bad.Daily[j].Delivered.Set(solidarity.RelocationDelivered, bad.Daily[j].Delivered.Of(solidarity.RelocationDelivered)+1)
						break
					}
				}
			} else {
				r := &bad.Totals[i].Delivered
				r.Set(solidarity.RelocationDelivered, r.Of(solidarity.RelocationDelivered)+rapid.SampledFrom([]int64{-1, 1, 1000}).Draw(t, "delta"))
			}
			want = p.Totals[i]
		default:
			want = solidarity.Totals{Cycle: 1999, State: "XX", Delivered: solidarity.Amounts{}.With(solidarity.AlternativeDelivered, 5)}
			bad.Totals = append(slices.Clone(p.Totals), want)
			daily = false
		}
		v, err = ledger.VerifyProjection(seq(es), bad, time.Now())
		if err != nil || v.OK || v.BadTotals == nil || v.BadTotals.Cycle != want.Cycle || v.BadTotals.State != want.State || (v.BadTotals.Day != "") != daily {
			t.Fatalf("tampered projection (row %+v): %+v, %v", want, v, err)
		}
		if want.Cycle == 1999 && (v.BadTotals.Type != solidarity.AlternativeDelivered || v.BadTotals.Stored != 5 || v.BadTotals.FromEntries != 0) {
			t.Fatalf("added row: %+v", v.BadTotals)
		}
		if want.Cycle != 1999 && v.BadTotals.Type != solidarity.RelocationDelivered {
			t.Fatalf("changed relocations: %+v", v.BadTotals)
		}
	})
}

// A projection that claims more entries than the chain has fails.
func TestVerifyProjectionBeyondHead(t *testing.T) {
	v, err := ledger.VerifyProjection(seq(nil), &solidarity.Projection{Seq: 3}, time.Now())
	if err != nil || v.OK {
		t.Fatalf("%+v, %v", v, err)
	}
}

// Sums of delivery totals never wrap: AddTotals and Sum report the overflow.
func TestTotalsOverflow(t *testing.T) {
	a := solidarity.Totals{Cycle: 2026, State: "DE", Delivered: solidarity.Amounts{}.With(solidarity.PaymentMade, math.MaxInt64-1)}
	if _, ok := ledger.AddTotals(a, solidarity.Totals{Cycle: 2026, State: "DE", Delivered: solidarity.Amounts{}.With(solidarity.PaymentMade, 1)}); !ok {
		t.Fatal("MaxInt64 does not fit")
	}
	if _, ok := ledger.AddTotals(a, solidarity.Totals{Cycle: 2026, State: "DE", Delivered: solidarity.Amounts{}.With(solidarity.PaymentMade, 2)}); ok {
		t.Fatal("MaxInt64 + 1 fits")
	}
	var es []*solidarity.Entry
	for i, n := range []int64{math.MaxInt64, 1} {
		p, _ := ledger.Payload(solidarity.DeliveryPayload{EURCents: solidarity.Cents(n)})
		es = append(es, &solidarity.Entry{Seq: int64(i + 1), Cycle: 2026, Type: solidarity.PaymentMade, State: "DE", Payload: p, Ref: strconv.Itoa(i)})
	}
	if _, err := ledger.Sum(seq(es)); solidarity.ErrorCode(err) != solidarity.ECONFLICT {
		t.Fatalf("Sum of MaxInt64 + 1: %v", err)
	}
}

func sortedTotals(m map[[2]string]solidarity.Totals) []solidarity.Totals {
	var out []solidarity.Totals
	for _, t := range m {
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b solidarity.Totals) int {
		if a.Cycle != b.Cycle {
			return a.Cycle - b.Cycle
		}
		return strings.Compare(string(a.State), string(b.State))
	})
	return out
}
