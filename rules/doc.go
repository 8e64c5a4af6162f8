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
//
// Files:
//
//	applicant.go  the Applicant: registrations, family, documents, entries, stays
//	validate.go   Validate: what a possible applicant is
//	params.go     Params: every date and time limit the criteria use
//	determine.go  Determine and Check: the walk through the hierarchy, the bar on transfers
//	criteria.go   the security gate (Art. 16(4)), the defaults (Arts. 16(2), 68(2),
//	              16(3)) and the helpers the criteria share
//	family.go     the family criteria: Arts. 25–28 and 34 (Dublin III Arts. 8–11, 16)
//	documents.go  documents held: Arts. 29–30 (Dublin III Art. 12)
//	entry.go      entry: Arts. 31–33 (Dublin III Arts. 13–15)
//	result.go     Regime, Criterion and their order (Hierarchy), Finding, Result, Explain
//	date.go       civil dates and periods in months
//	parse.go      ParseApplicant: an Applicant read from JSON
package rules
