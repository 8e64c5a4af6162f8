package client

import (
	"net/url"
	"strings"
)

// The routes of the JSON API that the client calls, as patterns of net/http's
// ServeMux without the method: internal/web registers its handlers on these, so that
// a route is spelt once for the server and its client. A {name} is a path value;
// Path fills it in.
const (
	LedgerCycles      = "/api/v1/ledger/cycles"
	LedgerCycle       = LedgerCycles + "/{year}"
	LedgerBalances    = LedgerCycle + "/balances"
	LedgerStatus      = LedgerCycle + "/statuses/{state}"
	LedgerPledge      = LedgerCycle + "/pledges/{state}"
	LedgerDeduction   = LedgerCycle + "/deductions/{state}"
	LedgerAssessment  = LedgerCycle + "/deductions/{ref}/assessment"
	LedgerDecision    = LedgerCycle + "/deductions/{ref}/decision"
	LedgerOffsetAsk   = LedgerCycle + "/offsets/{state}/requests"
	LedgerOffsetOffer = LedgerCycle + "/offsets/{state}/offers"
	LedgerOffsetReply = LedgerCycle + "/offsets/{ref}/reply"
	LedgerDelivery    = LedgerCycle + "/deliveries/{state}"
	LedgerEntries     = "/api/v1/ledger/entries"
	LedgerVerify      = "/api/v1/ledger/verify"
	LedgerPublic      = "/api/v1/ledger/public.jsonl"

	Arrivals          = "/api/v1/arrivals"
	Arrival           = Arrivals + "/{id}"
	Cases             = "/api/v1/cases"
	Case              = Cases + "/{id}"
	CasePerson        = Case + "/person"
	CaseDetermination = Case + "/determination"
	CaseEvents        = Case + "/events"
	CaseAllocation    = Case + "/allocation"

	Deadlines      = "/api/v1/deadlines"
	DeadlinesApply = Deadlines + "/apply"
)

// Path fills the {name} segments of route with values, in order, each escaped as one
// path segment: Path(LedgerPledge, "2026", "DE") is /api/v1/ledger/cycles/2026/pledges/DE.
// Missing values leave their segments as they are; extra values are ignored.
func Path(route string, values ...string) string {
	segs := strings.Split(route, "/")
	for i, s := range segs {
		if len(values) == 0 {
			break
		}
		if strings.HasPrefix(s, "{") && strings.HasSuffix(s, "}") {
			segs[i], values = url.PathEscape(values[0]), values[1:]
		}
	}
	return strings.Join(segs, "/")
}
