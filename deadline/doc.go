// Package deadline computes the time limits of a case: every limit of
// ../shared/spec/responsibility-and-procedures.md §3 and the relocation limits of
// ../shared/spec/solidarity-mechanism.md §2.7, each a named Limit with its start
// event, its period, its article, how sure the project is of it (the spec's tag), and
// the consequence the law attaches to missing it.
//
// Compute is pure: a cases.Case (its state, history and facts) and Params in, the
// running limits out, each with its due date. Overdue and DueSoon filter them for a
// deadline view; Missed says which consequence to record, as a cases.Event, when a
// limit with a legal consequence has passed (responsibility shifting after a missed
// take charge or transfer limit, tacit acceptance...). Nothing here changes a case.
// Where the law leaves the consequence to the Member State (an unaccompanied minor's
// take charge request: Art. 39(1), 4th subpara. AMMR lets it go on after the limit
// where the child's best interests call for it), the limit is still computed and
// shown, without an event to apply, and Due.Discretion says why an officer decides.
//
// For a view over many cases, prepare the Params once (Params.Prepare) and reuse one
// buffer with AppendCompute: the computation then does not allocate.
//
// Values the project is not sure of (tags P and R, and national choices) are fields of
// Params with the spec's value as default; verified values (V) are in the catalogue.
// The responsibility spec tags M what it has from memory only; as in package rules,
// the project's Certainty writes it R (recalled), keeping M for "modelled".
//
// Periods are counted as Regulation (EEC, Euratom) No 1182/71 Art. 3 counts them: the
// hour or day of the event does not count; a period in days, weeks or months ends at
// the end of its last day, a period in months on the same-numbered day of the final
// month or that month's last day (Civil, AddMonths; package rules has the same month
// arithmetic unexported, so it lives here exported). The roll-over of a last day
// falling on a weekend or holiday (Art. 3(4)) is a Params switch, off by default.
// Dates are civil dates read in the location of the time recorded; periods in hours
// are instants.
package deadline
