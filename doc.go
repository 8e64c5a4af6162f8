// Package solidarity is the domain vocabulary of the EU solidarity mechanism under
// Regulation (EU) 2024/1351 (AMMR), Part IV: Member States, money, reference data with
// provenance, and the one error type the whole program uses.
//
// It imports no database, HTTP or file-format package. Computation lives in small pure
// packages (key, apportion, pool, cases, deadline, rules, match), adapters under
// internal/. Where a newcomer looks:
//
//	error.go, storeerror.go   the one error type (Error, codes) and the errors both stores give
//	memberstate.go, money.go  Member States (Eurostat codes), cents
//	legalbasis.go             legal bases in one convention ("Art. 57(1) AMMR")
//	bounds.go                 the domain's bounds and checked sums (an overflow is an error)
//	cycle.go, refdata.go      a cycle's terms and figures; datasets with provenance
//	measure.go                the table of solidarity measures (pledge type, unit, article,
//	                          delivery and its totals column, pace, valuation) that
//	                          validation, the ledger's sums, both stores, the pool and the
//	                          services iterate: a new measure is one row there
//	ledger.go, validate.go    ledger entry types and payloads, and their validation
//	caseflow.go               arrivals, case records, the case store (states are
//	                          cases/state.State: the legal events live in cases/)
//	filter.go, asof.go        list filters that validate and normalise themselves, with
//	                          named limits; the one reading of as_of
//	store.go, user.go         the ledger store and its read-only View; users and roles
//	service.go                the ledger and case-flow operations as interfaces, implemented
//	                          by internal/ledgersvc and internal/casesvc on a store and by
//	                          internal/client over HTTP: the command line runs one code path
package solidarity
