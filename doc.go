// Package solidarity is the domain vocabulary of the EU solidarity mechanism under
// Regulation (EU) 2024/1351 (AMMR), Part IV: Member States, money, reference data with
// provenance, and the one error type the whole program uses.
//
// The solidarity measures are data: measure.go holds the one table of them (pledge
// type, unit, legal basis, delivery entry and its totals column, pace, valuation),
// which validation, the ledger's sums, both stores, the pool and the service iterate.
//
// It imports no database, HTTP or file-format package. Computation lives in small pure
// packages (key, apportion, pool), adapters under internal/.
package solidarity
