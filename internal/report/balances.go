package report

import (
	"time"

	"solidarity"
	"solidarity/internal/ledgersvc"
	"solidarity/pool"
)

// Delivered is what a state has delivered, from the ledger.
type Delivered struct {
	Relocations     int64 `json:"relocations"`
	PaymentsEUR     Num   `json:"payments_eur"`
	AlternativeEUR  Num   `json:"alternative_eur"`
	OffsetsAccepted int64 `json:"offsets_accepted"`
	Units           Num   `json:"units"` // relocation-equivalents
}

// Pace compares non-financial delivery with the Art. 60(3) expectation (pool.Pace).
type Pace struct {
	// Known is false when the state's pledge is not known: then nothing is expected
	// that anyone could check, and the pace is unknown rather than "on pace".
	Known                 bool `json:"known"`
	NonFinancialPledged   Num  `json:"non_financial_pledged"`
	ExpectedByNow         Num  `json:"expected_by_now"`
	NonFinancialDelivered Num  `json:"non_financial_delivered"`
	Behind                bool `json:"behind"`
	Elapsed               Num  `json:"elapsed_fraction"`
}

// StateBalance is a state's line of the balances.
type StateBalance struct {
	PoolState
	Delivered   Delivered `json:"delivered"`
	Outstanding *Num      `json:"outstanding"` // obligation − delivered units, ≥ 0; null if the obligation is unknown
	Pace        Pace      `json:"pace"`
}

// Balances are the pool with what the ledger says was delivered.
type Balances struct {
	Pool       *Pool          `json:"pool"`
	States     []StateBalance `json:"states"`
	Delivered  Delivered      `json:"delivered_total"`
	AsOf       string         `json:"as_of"`
	LedgerHead int64          `json:"ledger_head"`
}

// FromBalances renders the balances b (ledgersvc.Service.Balances).
func FromBalances(b *ledgersvc.Balances) *Balances {
	p := FromPool(b.Pool.Result, b.Pool.Population, b.Pool.GDP, b.Pool.Warnings)
	out := &Balances{Pool: p, Delivered: delivered(b.Delivered), AsOf: b.AsOf.Format(time.RFC3339), LedgerHead: b.LedgerHead}
	for i, s := range b.States {
		out.States = append(out.States, StateBalance{PoolState: p.States[i], Delivered: delivered(s.Delivered),
			Outstanding: num(s.Outstanding, unitDecimals), Pace: pace(s.Pace)})
	}
	return out
}

func delivered(d ledgersvc.Delivered) Delivered {
	return Delivered{Relocations: d.Totals.Of(solidarity.RelocationDelivered),
		PaymentsEUR:     eur(solidarity.Cents(d.Totals.Of(solidarity.PaymentMade))),
		AlternativeEUR:  eur(solidarity.Cents(d.Totals.Of(solidarity.AlternativeDelivered))),
		OffsetsAccepted: d.OffsetsAccepted, Units: *num(d.Units, unitDecimals)}
}

func pace(p pool.Pace) Pace {
	return Pace{Known: p.Known, NonFinancialPledged: *num(p.Pledged, unitDecimals), ExpectedByNow: *num(p.Expected, unitDecimals),
		NonFinancialDelivered: *num(p.Delivered, unitDecimals), Behind: p.Behind, Elapsed: *num(p.Elapsed, 4)}
}
