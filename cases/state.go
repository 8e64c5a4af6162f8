package cases

import "solidarity/cases/state"

// State is where a case stands (package cases/state, so that the root package can
// name it without importing the table; every name is here too).
type State = state.State

// Relocation is where a state stands in the relocation steps (state.Relocation).
type Relocation = state.Relocation

// The states of package state, in the order of the flow.
const (
	New                       = state.New
	ArrivedSAR                = state.ArrivedSAR
	ArrivedIrregular          = state.ArrivedIrregular
	AtBCP                     = state.AtBCP
	FoundInTerritory          = state.FoundInTerritory
	Screening                 = state.Screening
	ReferredReturn            = state.ReferredReturn
	ApplicationMade           = state.ApplicationMade
	Registered                = state.Registered
	SecurityResponsible       = state.SecurityResponsible
	Determination             = state.Determination
	TCRSent                   = state.TCRSent
	TCRRejected               = state.TCRRejected
	TBNSent                   = state.TBNSent
	HumanitarianSent          = state.HumanitarianSent
	TransferAgreed            = state.TransferAgreed
	TransferDecisionNotified  = state.TransferDecisionNotified
	TransferAppeal            = state.TransferAppeal
	TransferAppealSuspended   = state.TransferAppealSuspended
	TransferPending           = state.TransferPending
	TransferredOut            = state.TransferredOut
	RelocationIdentified      = state.RelocationIdentified
	RelocationSecurityCleared = state.RelocationSecurityCleared
	RelocationInfoSent        = state.RelocationInfoSent
	RelocationConfirmed       = state.RelocationConfirmed
	RelocationTransferDecided = state.RelocationTransferDecided
	RelocationAppeal          = state.RelocationAppeal
	RelocationAppealSuspended = state.RelocationAppealSuspended
	RelocatedOut              = state.RelocatedOut
	RelocationArrived         = state.RelocationArrived
	RelocationNoShow          = state.RelocationNoShow
	ResponsibleSelf           = state.ResponsibleSelf
	BorderProcedure           = state.BorderProcedure
	Admissibility             = state.Admissibility
	Accelerated               = state.Accelerated
	Normal                    = state.Normal
	Rejected                  = state.Rejected
	BorderRejected            = state.BorderRejected
	AsylumAppeal              = state.AsylumAppeal
	BorderAppeal              = state.BorderAppeal
	Withdrawn                 = state.Withdrawn
	BorderWithdrawn           = state.BorderWithdrawn
	ProtectionGranted         = state.ProtectionGranted
	ReturnProcedure           = state.ReturnProcedure
	ReturnBorderProcedure     = state.ReturnBorderProcedure
	NotReturned               = state.NotReturned
	Returned                  = state.Returned
	Closed372                 = state.Closed372
)

// The relocation phases of package state.
const (
	NotRelocating = state.NotRelocating
	Relocating    = state.Relocating
	Relocated     = state.Relocated
)

// States returns every state in the order of the flow.
func States() []State { return state.States() }

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
}

// eventInfos lists every event with what it records and its main article. The article
// of a particular transition (Table) may be more precise.
var eventInfos = []eventInfo{
	{Disembarked, "Disembarked after a search-and-rescue operation", "Art. 5(1)(b) SR"},
	{ApprehendedAtBorder, "Apprehended in connection with an irregular crossing of the external border", "Art. 5(1)(a) SR"},
	{PresentedAtBCP, "Presented at a border crossing point or transit zone without meeting the entry conditions", "Art. 5(2) SR"},
	{ApprehendedInTerritory, "Apprehended within the territory, not controlled at the external border", "Art. 7 SR"},
	{ScreeningStarted, "Screening started", "Art. 8 SR"},
	{NoApplication, "Screening ended (or its time limit passed) without an application: referral to return", "Art. 18(1) SR"},
	{Applied, "Application for international protection made", "Art. 18(2) SR"},
	{Registration, "Application registered", "Art. 27 APR"},
	{BorderTrack, "Border procedure applied (beside the responsibility determination)", "Art. 43 APR; Art. 45 APR; Art. 52(1) APR"},
	{RegularTrack, "Regular procedure: no border procedure", "Art. 43 APR; Art. 45 APR; Art. 53 APR"},
	{BorderStopped, "Border procedure stopped (special needs, medical reasons, detention guarantees...): entry authorised", "Art. 53(2) APR"},
	{BorderStoppedAccel, "Border procedure stopped, accelerated examination on the territory", "Art. 53(2) APR"},
	{BorderPeriodExpired, "Border procedure maximum period passed: entry authorised", "Art. 51(2) APR"},
	{SecurityThreat, "Reasonable grounds to consider the person a threat to internal security", "Art. 16(4) AMMR; Art. 67(2) AMMR"},
	{CriteriaDesignateSelf, "The criteria, or the default rule, designate this Member State", "Art. 16(2) AMMR; Art. 24 AMMR; Art. 25 AMMR; Art. 26 AMMR; Art. 27 AMMR; Art. 28 AMMR; Art. 29 AMMR; Art. 30 AMMR; Art. 31 AMMR; Art. 32 AMMR; Art. 33 AMMR"},
	{ResponsibilityAssumed, "Discretionary clause, residence document issued, or transfer of an unaccompanied minor not in the best interests of the child", "Art. 35(1) AMMR; Art. 37(1) AMMR"},
	{EurodacHit, "Eurodac hit on Art. 22 or Art. 24 data (irregular crossing, SAR) or a VIS hit received", "Art. 39(1) AMMR"},
	{TakeBackHit, "Eurodac hit showing another Member State responsible (Art. 16(1) ED) received", "Art. 41(1) AMMR"},
	{TakeChargeRequestSent, "Take charge request sent", "Art. 39(1) AMMR"},
	{TakeChargeDeadlinePassed, "Take charge request time limit passed without a request", "Art. 39(1) AMMR"},
	{TakeBackNotificationSent, "Take back notification sent", "Art. 41(1) AMMR"},
	{HumanitarianRequestSent, "Request to take charge on humanitarian grounds sent", "Art. 35(2) AMMR"},
	{RequestAccepted, "Request accepted", "Art. 40(1) AMMR"},
	{RequestRefused, "Request refused", "Art. 40 AMMR"},
	{TacitAcceptance, "No reply within the time limit: request accepted", "Art. 40 AMMR; Art. 45(2) AMMR"},
	{ReceiptConfirmed, "Receipt of the take back notification confirmed", "Art. 41(3) AMMR"},
	{TacitConfirmation, "No reply within two weeks: take back notification confirmed", "Art. 41(4) AMMR"},
	{TakeBackContested, "Notified Member State shows cessation of responsibility or a wrong Eurodac indication", "Art. 41(3) AMMR"},
	{TransferDecision, "Transfer decision taken and notified", "Art. 42 AMMR"},
	{AppealLodged, "Appeal lodged", "Art. 43 AMMR; Art. 67 APR"},
	{SuspensionGranted, "Transfer suspended pending the appeal", "Art. 43(3) AMMR"},
	{AppealDismissed, "Appeal against the transfer decision dismissed (final)", "Art. 46(1) AMMR"},
	{AppealUpheld, "Appeal against the transfer decision upheld", "Art. 16(3) AMMR; Art. 43(1) AMMR"},
	{AppealWindowClosed, "Appeal window closed with no appeal", "Art. 43(2) AMMR"},
	{Transferred, "Transfer carried out", "Art. 46 AMMR"},
	{TransferDeadlinePassed, "Transfer time limit passed: the transferring Member State becomes responsible", "Art. 37(1) AMMR"},
	{Imprisoned, "Person imprisoned: transfer time limit extended", "Art. 46(2) AMMR"},
	{TransferObstructed, "Physical resistance, self-induced unfitness or refusal of medical requirements: transfer time limit extended", "Art. 46(2) AMMR"},
	{RelocationCandidate, "Identified as a candidate for relocation", "Art. 67(3) AMMR"},
	{RelocationCleared, "No reasonable grounds to consider the person a threat to internal security", "Art. 67(2) AMMR"},
	{RelocationInfo, "Information, including meaningful links, sent to the Member State of relocation", "Art. 67 AMMR"},
	{RelocationComplex, "Complex case: the Member State of relocation takes longer to confirm", "Art. 67 AMMR"},
	{RelocationConfirmation, "Relocation confirmed by the Member State of relocation", "Art. 67 AMMR"},
	{RelocationRefused, "The Member State of relocation does not confirm", "Art. 67 AMMR"},
	{RelocationAbandoned, "Relocation procedure ended without transfer", "Art. 67 AMMR"},
	{ArrivalNotified, "Safe arrival notified by the Member State of relocation", "Art. 68(1) AMMR"},
	{NoShow, "Non-appearance notified by the Member State of relocation", "Art. 68(1) AMMR"},
	{Lodged, "Application lodged", "Art. 28 APR"},
	{ExamineBorder, "Examination in the border procedure", "Art. 43 APR; Art. 44 APR; Art. 45 APR"},
	{ExamineAdmissibility, "Admissibility examination", "Art. 38 APR"},
	{ExamineAccelerated, "Accelerated examination", "Art. 42 APR"},
	{ExamineNormal, "Examination in the normal procedure", "Art. 35(4) APR"},
	{ExaminationExtended, "Examination time limit extended (disproportionate numbers, complex issues, applicant's fault)", "Art. 35 APR"},
	{Granted, "Refugee status or subsidiary protection granted", "Art. 35 APR"},
	{Rejection, "Application rejected (inadmissible, unfounded or manifestly unfounded)", "Art. 35 APR"},
	{Withdrawal, "Application withdrawn, explicitly or implicitly", "Art. 40 APR; Art. 41 APR"},
	{ReturnDecision, "Rejection final (no appeal in time, or appeal dismissed): return decision", "Art. 4 RBPR; Art. 6 Return Directive"},
	{ReturnBorderPeriodExpired, "Return border procedure maximum period passed without return", "Art. 4(2) RBPR"},
	{ReturnCarriedOut, "Returned", "Art. 7 Return Directive; Art. 8 Return Directive"},
	{ResponsibilityCeased, "Fifteen months since the final decision in the border procedure: obligations end", "Art. 37(2) AMMR"},
	{Detained, "Detained", "Art. 45 AMMR"},
	{Released, "Released from detention", "Art. 45 AMMR"},
	{Absconded, "Absconded", "Art. 46(2) AMMR"},
	{EurodacRecorded, "Biometrics transmitted to Eurodac (SAR or irregular crossing record)", "Art. 22(2) ED; Art. 24(2) ED"},
	{EurodacApplicantRecorded, "Biometrics transmitted to Eurodac (applicant record)", "Art. 15(1) ED"},
}

var eventIndex = func() map[Event]int {
	m := make(map[Event]int, len(eventInfos))
	for i, e := range eventInfos {
		m[e.event] = i
	}
	return m
}()

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
