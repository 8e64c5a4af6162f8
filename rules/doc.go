// Package rules determines the Member State responsible for examining an application
// for international protection: the ordered criteria of Regulation (EU) 2024/1351
// (AMMR) Part III, and those of Regulation (EU) No 604/2013 (Dublin III) for
// applications registered before the AMMR applies (AMMR Art. 84(2)).
//
// Determine is pure: an Applicant and Params in, a Result out. It walks the criteria in
// the order of the hierarchy (Hierarchy), stops at the first that designates a Member
// State, and reports, for every criterion before it, why it did not apply. Every rule
// names its article and how sure the project is of it.
//
// The source is ../shared/spec/responsibility-and-procedures.md (§0, §2, §3, §9, §10).
// Its tags are kept in each rule's Certainty with the project's letters: V verified
// against the article text, P partly verified, and R for what that spec tags M (memory
// only): the project's Certainty uses M for "modelled" and R for "recalled".
//
// Dates are civil dates: only the year, month and day of a time.Time count, read in
// its own location. Periods in months and years end on the same-numbered day of the
// final month, or on its last day when there is no such day (Regulation (EEC,
// Euratom) No 1182/71, spec §3).
package rules
