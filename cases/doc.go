// Package cases is the state machine of an application's path from arrival to
// protection, transfer, relocation or return, following
// ../shared/spec/responsibility-and-procedures.md §8 (with §1, §4–§7) and, for the
// relocation steps, ../shared/spec/solidarity-mechanism.md §2.7.
//
// A Case is in one State. An Event is a legal event (a disembarkation, a registration,
// a take charge request, a transfer decision, a final rejection...). The transition
// table (Table) is data: for each state and event it names the next state, the article
// that makes the event legal there, and a short description. Apply accepts exactly the
// pairs in the table and refuses every other pair with a *solidarity.Error of code
// ECONFLICT carrying the event's article; it also refuses an event dated before the
// previous one (EINVALID). Apply checks nothing else: the legal conditions behind an
// event (eligibility for relocation under Art. 56(2)(a) AMMR, the border procedure
// conditions of Art. 43 APR, the criteria of Part III AMMR...) are decided by the
// caller, with package rules where it applies, before the event is recorded.
//
// What an event does besides moving the state is a column of the table of events
// (event.go), which the case service applies and nothing else restates: whose act it
// is (Event.By: the benefitting Member State, the Member State of relocation, the
// coordinator), whether it moves the whole family (Event.MovesFamily), whether it is
// sent to another Member State (Event.SentToAnotherState), whether it needs the
// family allocated (Event.NeedsAllocation) and who is responsible after it
// (Event.Responsible). Where a state stands in the relocation steps is a column of
// the table of states (State.Relocation). The coordinator's allocation of a family
// to a Member State of relocation (Art. 60(2), Art. 67 AMMR) is an event of the
// table too, RelocationAllocated, which keeps the state.
//
// A new legal event is a row of eventInfos (event.go) and its rows of the transition
// table (table.go); package deadline changes only when the event starts a clock.
//
// Files: state.go names the states (package cases/state holds the State type and its
// facts, so that the root package can name a case's state without importing this
// package); event.go the events and what they do; table.go the transition table;
// case.go the Case, Apply and Replay.
//
// Choices where the spec leaves the model open:
//
//   - The procedure track is a property of the case (Case.Track), not a second state:
//     the border procedure runs beside the responsibility determination (Art. 52(1)
//     APR), so REGISTERED goes to DETERMINATION by either border-procedure-applied or
//     regular-procedure-applied, and the examination states say which track they are.
//   - Absconding, detention and imprisonment are recorded facts (self-transitions that
//     keep the state) rather than states, because the spec calls ABSCONDED a sub-state
//     of several states: Case.Absconded and Case.Detained carry them, and package
//     deadline reads them to extend or shorten time limits (Arts. 45, 46(2) AMMR).
//   - The appeal states are split by suspensive effect (TRANSFER_APPEAL and
//     TRANSFER_APPEAL_SUSPENDED) because the transfer time limit restarts only after
//     the final decision on an appeal with suspensive effect (Art. 46(1) AMMR).
//   - Rejections, appeals and withdrawals in the border procedure have their own states
//     (BORDER_REJECTED, BORDER_APPEAL, BORDER_WITHDRAWN) because only they lead to the
//     return border procedure (Art. 4 RBPR) and start the 15 months of Art. 37(2) AMMR.
//   - SECURITY_RESPONSIBLE does not lead to RESPONSIBLE_SELF, from which relocation is
//     possible (Art. 68(3) AMMR): the table itself keeps a person with a security
//     finding out of any relocation or transfer (Art. 67(2) AMMR).
//
// Articles are written "Art. 39(1) AMMR" with the spec's short names of the acts:
// AMMR (Regulation (EU) 2024/1351), APR (2024/1348), SR (screening, 2024/1356),
// ED (Eurodac, 2024/1358), RBPR (return border procedure, 2024/1349) and CR (crisis
// and force majeure, 2024/1359).
package cases
