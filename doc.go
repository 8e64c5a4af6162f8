// Package solidarity is the domain vocabulary of the EU solidarity mechanism under
// Regulation (EU) 2024/1351 (AMMR), Part IV: Member States, money, reference data with
// provenance, and the one error type the whole program uses.
//
// It imports no database, HTTP or file-format package. Computation lives in small pure
// packages (key, apportion, pool), adapters under internal/.
package solidarity
