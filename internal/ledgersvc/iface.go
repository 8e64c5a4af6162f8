package ledgersvc

import (
	"solidarity"
	"solidarity/ledger"
)

// The service is the ledger of the root package's interfaces, as internal/client is
// over HTTP.
var (
	_ solidarity.LedgerService                                 = (*Service)(nil)
	_ solidarity.LedgerReader[*Balances, *ledger.Verification] = (*Service)(nil)
)
