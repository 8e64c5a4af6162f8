package cases

// Event is a legal event that moves a case, or records a fact about it.
type Event string

// Events. The same event can be legal in several states (an appeal is lodged against
// a transfer decision or against a rejection); the table says where it leads.
const (
	Disembarked            Event = "disembarked"
	ApprehendedAtBorder    Event = "apprehended-at-border"
	PresentedAtBCP         Event = "presented-at-border-crossing"
	ApprehendedInTerritory Event = "apprehended-in-territory"
	ScreeningStarted       Event = "screening-started"
	NoApplication          Event = "screening-ended-no-application"
	Applied                Event = "application-made"
	Registration           Event = "registered"

	BorderTrack         Event = "border-procedure-applied"
	RegularTrack        Event = "regular-procedure-applied"
	BorderStopped       Event = "border-procedure-stopped"
	BorderStoppedAccel  Event = "border-procedure-stopped-accelerated"
	BorderPeriodExpired Event = "border-period-expired"
	SecurityThreat      Event = "security-threat"

	CriteriaDesignateSelf    Event = "responsible-self"
	ResponsibilityAssumed    Event = "responsibility-assumed"
	EurodacHit               Event = "eurodac-hit"
	TakeBackHit              Event = "take-back-hit"
	TakeChargeRequestSent    Event = "take-charge-request-sent"
	TakeChargeDeadlinePassed Event = "take-charge-deadline-passed"
	TakeBackNotificationSent Event = "take-back-notification-sent"
	HumanitarianRequestSent  Event = "humanitarian-request-sent"
	RequestAccepted          Event = "request-accepted"
	RequestRefused           Event = "request-refused"
	TacitAcceptance          Event = "tacit-acceptance"
	ReceiptConfirmed         Event = "receipt-confirmed"
	TacitConfirmation        Event = "tacit-confirmation"
	TakeBackContested        Event = "take-back-contested"

	TransferDecision       Event = "transfer-decision-notified"
	AppealLodged           Event = "appeal-lodged"
	SuspensionGranted      Event = "suspension-granted"
	AppealDismissed        Event = "appeal-dismissed"
	AppealUpheld           Event = "appeal-upheld"
	AppealWindowClosed     Event = "appeal-window-closed"
	Transferred            Event = "transferred"
	TransferDeadlinePassed Event = "transfer-deadline-passed"
	Imprisoned             Event = "imprisoned"
	TransferObstructed     Event = "transfer-obstructed"

	RelocationCandidate    Event = "relocation-candidate"
	RelocationCleared      Event = "relocation-security-cleared"
	RelocationAllocated    Event = "relocation-allocated"
	RelocationInfo         Event = "relocation-info-sent"
	RelocationComplex      Event = "relocation-complex"
	RelocationConfirmation Event = "relocation-confirmed"
	RelocationRefused      Event = "relocation-refused"
	RelocationAbandoned    Event = "relocation-abandoned"
	ArrivalNotified        Event = "arrival-notified"
	NoShow                 Event = "no-show"

	Lodged               Event = "application-lodged"
	ExamineBorder        Event = "examination-border"
	ExamineAdmissibility Event = "examination-admissibility"
	ExamineAccelerated   Event = "examination-accelerated"
	ExamineNormal        Event = "examination-normal"
	ExaminationExtended  Event = "examination-extended"
	Granted              Event = "protection-granted"
	Rejection            Event = "rejected"
	Withdrawal           Event = "withdrawn"

	ReturnDecision            Event = "return-decision"
	ReturnBorderPeriodExpired Event = "return-border-period-expired"
	ReturnCarriedOut          Event = "returned"
	ResponsibilityCeased      Event = "responsibility-ceased"

	Detained                 Event = "detained"
	Released                 Event = "released"
	Absconded                Event = "absconded"
	EurodacRecorded          Event = "eurodac-recorded"
	EurodacApplicantRecorded Event = "eurodac-applicant-recorded"
)

type eventInfo struct {
	event   Event
	label   string
	article string // the provision that makes the event a legal event
	does    does   // what it does besides moving the state
}

// eventInfos lists every event with what it records, its main article and what it
// does besides moving the state (does: whose act it is, whether it moves the family,
// whether it is sent to another Member State, who is responsible after it). The
// article of a particular transition (Table) may be more precise.
var eventInfos = []eventInfo{
	{Disembarked, "Disembarked after a search-and-rescue operation", "Art. 5(1)(b) SR", plain},
	{ApprehendedAtBorder, "Apprehended in connection with an irregular crossing of the external border", "Art. 5(1)(a) SR", plain},
	{PresentedAtBCP, "Presented at a border crossing point or transit zone without meeting the entry conditions", "Art. 5(2) SR", plain},
	{ApprehendedInTerritory, "Apprehended within the territory, not controlled at the external border", "Art. 7 SR", plain},
	{ScreeningStarted, "Screening started", "Art. 8 SR", plain},
	{NoApplication, "Screening ended (or its time limit passed) without an application: referral to return", "Art. 18(1) SR", plain},
	{Applied, "Application for international protection made", "Art. 18(2) SR", plain},
	{Registration, "Application registered", "Art. 27 APR", plain},
	{BorderTrack, "Border procedure applied (beside the responsibility determination)", "Art. 43 APR; Art. 45 APR; Art. 52(1) APR", plain},
	{RegularTrack, "Regular procedure: no border procedure", "Art. 43 APR; Art. 45 APR; Art. 53 APR", plain},
	{BorderStopped, "Border procedure stopped (special needs, medical reasons, detention guarantees...): entry authorised", "Art. 53(2) APR", plain},
	{BorderStoppedAccel, "Border procedure stopped, accelerated examination on the territory", "Art. 53(2) APR", plain},
	{BorderPeriodExpired, "Border procedure maximum period passed: entry authorised", "Art. 51(2) APR", plain},
	{SecurityThreat, "Reasonable grounds to consider the person a threat to internal security", "Art. 16(4) AMMR; Art. 67(2) AMMR", toSelf},
	{CriteriaDesignateSelf, "The criteria, or the default rule, designate this Member State", "Art. 16(2) AMMR; Art. 24 AMMR; Art. 25 AMMR; Art. 26 AMMR; Art. 27 AMMR; Art. 28 AMMR; Art. 29 AMMR; Art. 30 AMMR; Art. 31 AMMR; Art. 32 AMMR; Art. 33 AMMR", toSelf},
	{ResponsibilityAssumed, "Discretionary clause, residence document issued, or transfer of an unaccompanied minor not in the best interests of the child", "Art. 35(1) AMMR; Art. 37(1) AMMR", toSelf},
	{EurodacHit, "Eurodac hit on Art. 22 or Art. 24 data (irregular crossing, SAR) or a VIS hit received", "Art. 39(1) AMMR", plain},
	{TakeBackHit, "Eurodac hit showing another Member State responsible (Art. 16(1) ED) received", "Art. 41(1) AMMR", plain},
	{TakeChargeRequestSent, "Take charge request sent", "Art. 39(1) AMMR", sent},
	{TakeChargeDeadlinePassed, "Take charge request time limit passed without a request", "Art. 39(1) AMMR", toSelf},
	{TakeBackNotificationSent, "Take back notification sent", "Art. 41(1) AMMR", sent},
	{HumanitarianRequestSent, "Request to take charge on humanitarian grounds sent", "Art. 35(2) AMMR", sent},
	{RequestAccepted, "Request accepted", "Art. 40(1) AMMR", toRequested},
	{RequestRefused, "Request refused", "Art. 40 AMMR", plain},
	{TacitAcceptance, "No reply within the time limit: request accepted", "Art. 40 AMMR; Art. 45(2) AMMR", toRequested},
	{ReceiptConfirmed, "Receipt of the take back notification confirmed", "Art. 41(3) AMMR", toRequested},
	{TacitConfirmation, "No reply within two weeks: take back notification confirmed", "Art. 41(4) AMMR", toRequested},
	{TakeBackContested, "Notified Member State shows cessation of responsibility or a wrong Eurodac indication", "Art. 41(3) AMMR", plain},
	{TransferDecision, "Transfer decision taken and notified", "Art. 42 AMMR", familyRelocating},
	{AppealLodged, "Appeal lodged", "Art. 43 AMMR; Art. 67 APR", plain},
	{SuspensionGranted, "Transfer suspended pending the appeal", "Art. 43(3) AMMR", plain},
	{AppealDismissed, "Appeal against the transfer decision dismissed (final)", "Art. 46(1) AMMR", plain},
	{AppealUpheld, "Appeal against the transfer decision upheld", "Art. 16(3) AMMR; Art. 43(1) AMMR", plain},
	{AppealWindowClosed, "Appeal window closed with no appeal", "Art. 43(2) AMMR", plain},
	{Transferred, "Transfer carried out", "Art. 46 AMMR", familyRelocating},
	{TransferDeadlinePassed, "Transfer time limit passed: the transferring Member State becomes responsible", "Art. 37(1) AMMR", toSelf},
	{Imprisoned, "Person imprisoned: transfer time limit extended", "Art. 46(2) AMMR", plain},
	{TransferObstructed, "Physical resistance, self-induced unfitness or refusal of medical requirements: transfer time limit extended", "Art. 46(2) AMMR", plain},
	{RelocationCandidate, "Identified as a candidate for relocation", "Art. 67(3) AMMR", family},
	{RelocationCleared, "No reasonable grounds to consider the person a threat to internal security", "Art. 67(2) AMMR", family},
	{RelocationAllocated, "Allocated by the coordinator to a Member State of relocation", "Art. 60(2) AMMR; Art. 67 AMMR", family | byCoordinator},
	{RelocationInfo, "Information, including meaningful links, sent to the Member State of relocation", "Art. 67 AMMR", family | onceAllocated},
	{RelocationComplex, "Complex case: the Member State of relocation takes longer to confirm", "Art. 67 AMMR", family | byRelocation},
	{RelocationConfirmation, "Relocation confirmed by the Member State of relocation", "Art. 67 AMMR", family | byRelocation},
	{RelocationRefused, "The Member State of relocation does not confirm", "Art. 67 AMMR", family | byRelocation},
	{RelocationAbandoned, "Relocation procedure ended without transfer", "Art. 67 AMMR", family},
	{ArrivalNotified, "Safe arrival notified by the Member State of relocation", "Art. 68(1) AMMR", family | byRelocation | toRelocation},
	{NoShow, "Non-appearance notified by the Member State of relocation", "Art. 68(1) AMMR", family | byRelocation},
	{Lodged, "Application lodged", "Art. 28 APR", plain},
	{ExamineBorder, "Examination in the border procedure", "Art. 43 APR; Art. 44 APR; Art. 45 APR", plain},
	{ExamineAdmissibility, "Admissibility examination", "Art. 38 APR", plain},
	{ExamineAccelerated, "Accelerated examination", "Art. 42 APR", plain},
	{ExamineNormal, "Examination in the normal procedure", "Art. 35(4) APR", plain},
	{ExaminationExtended, "Examination time limit extended (disproportionate numbers, complex issues, applicant's fault)", "Art. 35 APR", plain},
	{Granted, "Refugee status or subsidiary protection granted", "Art. 35 APR", plain},
	{Rejection, "Application rejected (inadmissible, unfounded or manifestly unfounded)", "Art. 35 APR", plain},
	{Withdrawal, "Application withdrawn, explicitly or implicitly", "Art. 40 APR; Art. 41 APR", plain},
	{ReturnDecision, "Rejection final (no appeal in time, or appeal dismissed): return decision", "Art. 4 RBPR; Art. 6 Return Directive", plain},
	{ReturnBorderPeriodExpired, "Return border procedure maximum period passed without return", "Art. 4(2) RBPR", plain},
	{ReturnCarriedOut, "Returned", "Art. 7 Return Directive; Art. 8 Return Directive", plain},
	{ResponsibilityCeased, "Fifteen months since the final decision in the border procedure: obligations end", "Art. 37(2) AMMR", plain},
	{Detained, "Detained", "Art. 45 AMMR", plain},
	{Released, "Released from detention", "Art. 45 AMMR", plain},
	{Absconded, "Absconded", "Art. 46(2) AMMR", plain},
	{EurodacRecorded, "Biometrics transmitted to Eurodac (SAR or irregular crossing record)", "Art. 22(2) ED; Art. 24(2) ED", plain},
	{EurodacApplicantRecorded, "Biometrics transmitted to Eurodac (applicant record)", "Art. 15(1) ED", plain},
}

var eventIndex map[Event]int // into eventInfos, built with the table (index)

// Events returns every event in the order of the flow.
func Events() []Event {
	out := make([]Event, len(eventInfos))
	for i, e := range eventInfos {
		out[i] = e.event
	}
	return out
}

// Valid reports whether e is a known event.
func (e Event) Valid() bool { _, ok := eventIndex[e]; return ok }

// Label returns what e records, for an officer.
func (e Event) Label() string {
	if i, ok := eventIndex[e]; ok {
		return eventInfos[i].label
	}
	return string(e)
}

// Article returns the main provision of e; a transition may cite a more precise one.
func (e Event) Article() string {
	if i, ok := eventIndex[e]; ok {
		return eventInfos[i].article
	}
	return ""
}

// does is what an event does besides moving the state: at most one flag of each
// group (whose act, which cases, who is responsible after it), checked at start-up.
type does uint16

const plain does = 0 // the benefitting state's act, on its case, changing no responsibility

// Whose act an event is (all others are acts of the benefitting Member State, where
// the case runs).
const (
	// byRelocation: an act of the Member State of relocation, which its officers
	// record: it confirms or not, or takes longer in a complex case (Art. 67 AMMR), and
	// notifies arrival or non-appearance (Art. 68(1) AMMR).
	byRelocation does = 1 << iota
	// byCoordinator: the coordinator's act, the balanced distribution of relocation
	// candidates among the pledging states (Art. 60(2) AMMR).
	byCoordinator
)

// Which cases an event moves.
const (
	// family: every open case of the family in the same state: a family is relocated
	// together.
	family does = 1 << (iota + 4)
	// familyRelocating: the whole family when the case is in the relocation steps
	// (the relocation transfer decision and transfer), the case alone otherwise (a
	// transfer to the responsible Member State).
	familyRelocating
)

// What else an event changes.
const (
	// sent: sent to another Member State, which the request names (its target); that
	// state is then the requested one (Arts. 35(2), 39, 41 AMMR).
	sent does = 1 << (iota + 8)
	// onceAllocated: only once the family is allocated to a Member State of
	// relocation, to which the information goes (Art. 67 AMMR).
	onceAllocated
)

// Who is responsible after an event (AMMR Part III).
const (
	// toRequested: the requested Member State, which accepted or confirmed,
	// explicitly or tacitly (Arts. 40, 41(4), 45(2) AMMR).
	toRequested does = 1 << (iota + 12)
	// toSelf: the benefitting Member State, which the criteria designate (Art. 16(2)),
	// which assumes responsibility (Art. 35(1), 37(1)), which the security gate makes
	// responsible (Art. 16(4)), whose request was not made in time (Art. 39(1)) or
	// whose transfer was not carried out in time (Art. 37(1) AMMR).
	toSelf
	// toRelocation: the Member State of relocation, on arrival, where the benefitting
	// state had been found responsible (Art. 68(3) AMMR); where none was determined
	// (Art. 68(2)) the state of relocation determines it, so it stays open.
	toRelocation
)

const (
	actorFlags          = byRelocation | byCoordinator
	familyFlags         = family | familyRelocating
	responsibilityFlags = toRequested | toSelf | toRelocation
)

// one reports whether d has at most one flag of group g.
func (d does) one(g does) bool { x := d & g; return x&(x-1) == 0 }

func (e Event) does() does {
	if i, ok := eventIndex[e]; ok {
		return eventInfos[i].does
	}
	return plain
}

// Actor is whose act an event is: whose officers record it.
type Actor int

const (
	ByBenefitting Actor = iota // the Member State where the case runs
	ByRelocation               // the Member State of relocation the family is allocated to
	ByCoordinator              // the coordinator
)

// By returns whose act e is.
func (e Event) By() Actor {
	switch d := e.does(); {
	case d&byRelocation != 0:
		return ByRelocation
	case d&byCoordinator != 0:
		return ByCoordinator
	}
	return ByBenefitting
}

// MovesFamily reports whether e, recorded on a case in state from, moves every open
// case of its family with it (a family is relocated together) rather than the case
// alone.
func (e Event) MovesFamily(from State) bool {
	d := e.does()
	return d&family != 0 || d&familyRelocating != 0 && from.Relocation().InRelocation()
}

// SentToAnotherState reports whether e sends the case to another Member State, named
// by the request, which becomes the requested state.
func (e Event) SentToAnotherState() bool { return e.does()&sent != 0 }

// NeedsAllocation reports whether e can be recorded only once the case is allocated
// to a Member State of relocation.
func (e Event) NeedsAllocation() bool { return e.does()&onceAllocated != 0 }

// Responsibility is who is responsible after an event.
type Responsibility int

const (
	Unchanged              Responsibility = iota // as before the event
	RequestedResponsible                         // the requested Member State
	BenefittingResponsible                       // the Member State where the case runs
	RelocationResponsible                        // the Member State of relocation, if the benefitting state was responsible
)

// Responsible returns who is responsible after e (the articles are in the table of
// events: toRequested, toSelf, toRelocation).
func (e Event) Responsible() Responsibility {
	switch d := e.does(); {
	case d&toRequested != 0:
		return RequestedResponsible
	case d&toSelf != 0:
		return BenefittingResponsible
	case d&toRelocation != 0:
		return RelocationResponsible
	}
	return Unchanged
}
