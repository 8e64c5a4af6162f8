package cases

import (
	"fmt"
	"slices"
)

// Rule is one entry of the transition table: in state From, event Event leads to
// state To under Article. To equals From for events that record a fact (a detention, a
// Eurodac transmission, a track change beside the determination).
type Rule struct {
	From        State  `json:"from"`
	Event       Event  `json:"event"`
	To          State  `json:"to"`
	Article     string `json:"article"`
	Description string `json:"description"`
}

// same marks a rule whose target is its source state.
const same State = ""

// row is a rule for several source states, as written in the table below.
type row struct {
	from    []State
	event   Event
	to      State // same: stay in the source state
	article string
	desc    string
}

func of(s ...State) []State { return s }

// Sets of states used by several rows.
var (
	arrivalStates  = of(ArrivedSAR, ArrivedIrregular, AtBCP, FoundInTerritory)
	determining    = of(Determination, TCRSent, TCRRejected, TBNSent, HumanitarianSent)
	transferStates = of(TransferAgreed, TransferDecisionNotified, TransferAppeal, TransferAppealSuspended, TransferPending)
	// transferClock: the states in which the transfer time limit runs (not while the
	// transfer is suspended, Art. 46(1) AMMR).
	transferClock   = of(TransferAgreed, TransferDecisionNotified, TransferAppeal, TransferPending)
	relocationSteps = of(RelocationIdentified, RelocationSecurityCleared, RelocationInfoSent, RelocationConfirmed,
		RelocationTransferDecided, RelocationAppeal, RelocationAppealSuspended)
	examination = of(BorderProcedure, Admissibility, Accelerated, Normal)
	// borderBeside: the states in which a border procedure can run beside the
	// determination or before the examination starts (Art. 52(1)–(2) APR).
	borderBeside = join(determining, of(ResponsibleSelf, SecurityResponsible), relocationSteps)
	// lodgeable: an application registered and not yet decided, in this Member State.
	lodgeable = join(of(Registered, SecurityResponsible), determining, of(ResponsibleSelf), examination)
	// applicantStates: an application is registered and the case is open here.
	applicantStates = join(of(Registered, SecurityResponsible), determining, transferStates, relocationSteps,
		of(ResponsibleSelf), examination, of(Rejected, BorderRejected, AsylumAppeal, BorderAppeal))
	withdrawable = join(of(ApplicationMade, Registered, SecurityResponsible), determining, transferStates,
		relocationSteps, of(ResponsibleSelf, Admissibility, Accelerated, Normal))
)

func join(sets ...[]State) []State {
	var out []State
	for _, s := range sets {
		out = append(out, s...)
	}
	return out
}

// present returns the open states in which the person is in this Member State's hands:
// every state but New, the terminal states and RelocatedOut.
func present() []State {
	var out []State
	for _, s := range States() {
		if !s.Terminal() && s != New && s != RelocatedOut {
			out = append(out, s)
		}
	}
	return out
}

// rows is the transition table (spec §8 "Transitions", with the relocation steps of
// solidarity-mechanism.md §2.7). Article paragraphs the spec did not read are cited
// without them.
var rows = []row{
	// Arrival and screening (SR 2024/1356; ED 2024/1358).
	{of(New), Disembarked, ArrivedSAR, "Art. 5(1)(b) SR; Art. 24 ED", "Disembarked after a search-and-rescue operation: screening within 7 days, Eurodac SAR record within 72 hours"},
	{of(New), ApprehendedAtBorder, ArrivedIrregular, "Art. 5(1)(a) SR; Art. 22 ED", "Apprehended after an irregular crossing: screening within 7 days, Eurodac record within 72 hours"},
	{of(New), PresentedAtBCP, AtBCP, "Art. 5(2) SR", "Presented at a border crossing point or transit zone without meeting the entry conditions"},
	{of(New), ApprehendedInTerritory, FoundInTerritory, "Art. 7 SR", "Found illegally staying, not controlled at the external border: screening within 3 days"},
	{arrivalStates, ScreeningStarted, Screening, "Art. 8 SR", "Screening starts: health, vulnerability, identity and security checks (Arts. 12–15 SR)"},
	{of(Screening), NoApplication, ReferredReturn, "Art. 18(1) SR; Art. 18(5) SR", "No application made: referred to the return authorities; screening ends on referral"},
	{of(Screening), Applied, ApplicationMade, "Art. 18(2) SR", "Application made: referred to the authority that registers applications"},
	{of(Screening), RelocationCandidate, RelocationIdentified, "Art. 18(3) SR; Art. 67(2)–(3) AMMR", "Referred for relocation from screening"},
	{of(ApplicationMade), Registration, Registered, "Art. 27 APR; Art. 84 AMMR", "Application registered: its date chooses the AMMR or Dublin III"},

	// Security gate and track (AMMR Art. 16(4); APR Arts. 43–53).
	{of(Registered, Determination), SecurityThreat, SecurityResponsible, "Art. 16(4) AMMR; Art. 67(2) AMMR", "Security threat: this Member State is responsible, no take charge request, no relocation or transfer"},
	{of(Registered), BorderTrack, Determination, "Art. 43 APR; Art. 45 APR; Art. 52(1) APR", "Border procedure applies; responsibility is determined at the border locations within its time limit"},
	{of(Registered), RegularTrack, Determination, "Art. 43 APR; Art. 45 APR; Art. 48 APR; Art. 50 APR; Art. 53 APR", "No border procedure (conditions not met, Art. 53(2) exclusion or capacity switch): responsibility determination"},
	{borderBeside, BorderStopped, same, "Art. 53(2) APR", "Border procedure stopped: entry authorised, the appropriate procedure follows"},
	{borderBeside, BorderPeriodExpired, same, "Art. 43(3) APR; Art. 51(2) APR", "Border procedure maximum period passed: entry authorised"},

	// Responsibility determination (AMMR Part III, Chapters V–VI).
	{of(Determination), CriteriaDesignateSelf, ResponsibleSelf, "Art. 16(2) AMMR; Art. 24 AMMR; Art. 25 AMMR; Art. 26 AMMR; Art. 27 AMMR; Art. 28 AMMR; Art. 29 AMMR; Art. 30 AMMR; Art. 31 AMMR; Art. 32 AMMR; Art. 33 AMMR", "The criteria (e.g. Art. 33(2) within 12 months of disembarkation), or the first-registration default, designate this Member State"},
	{of(Determination), TakeChargeRequestSent, TCRSent, "Art. 39(1) AMMR", "The criteria designate another Member State: take charge request sent"},
	{of(Registered, Determination, TCRRejected), TakeChargeDeadlinePassed, ResponsibleSelf, "Art. 39(1), 3rd subpara. AMMR", "No take charge request within the time limit: the Member State of registration is responsible"},
	{of(Registered, Determination), EurodacHit, same, "Art. 39(1), 2nd subpara. AMMR", "Eurodac hit on Art. 22 or 24 data, or VIS hit: the take charge request is due within 1 month of it"},
	{of(Registered, Determination), TakeBackHit, same, "Art. 41(1) AMMR; Art. 16(1) ED", "Eurodac shows another Member State responsible: take back notification due within 2 weeks"},
	{of(Determination), TakeBackNotificationSent, TBNSent, "Art. 36(1)(b)–(c) AMMR; Art. 41(1) AMMR", "Take back notification sent (lateness does not affect the obligation)"},
	{of(Determination), HumanitarianRequestSent, HumanitarianSent, "Art. 35(2) AMMR", "Request to another Member State to take charge on humanitarian grounds"},
	{of(TCRSent), RequestAccepted, TransferAgreed, "Art. 40(1) AMMR", "Take charge request accepted"},
	{of(TCRSent), TacitAcceptance, TransferAgreed, "Art. 40 AMMR; Art. 45(2) AMMR", "No reply within the time limit: tantamount to accepting the request"},
	{of(TCRSent), RequestRefused, TCRRejected, "Art. 40 AMMR", "Take charge request refused"},
	{of(TCRRejected), TakeChargeRequestSent, TCRSent, "Art. 39(1) AMMR", "New request, to another Member State or for re-examination, within the Art. 39(1) time limit (re-examination rules not read)"},
	{of(TCRRejected), CriteriaDesignateSelf, ResponsibleSelf, "Art. 16(2) AMMR; Art. 39(1) AMMR", "No other Member State can be requested: this Member State is responsible"},
	{of(TBNSent), ReceiptConfirmed, TransferAgreed, "Art. 41(3) AMMR", "Receipt of the take back notification confirmed"},
	{of(TBNSent), TacitConfirmation, TransferAgreed, "Art. 41(4) AMMR", "No reply within two weeks: the notification is confirmed"},
	{of(TBNSent), TakeBackContested, Determination, "Art. 37 AMMR; Art. 41(3) AMMR", "The notified Member State shows cessation of responsibility or a wrong Eurodac indication"},
	{of(HumanitarianSent), RequestAccepted, TransferAgreed, "Art. 35(2) AMMR", "Humanitarian request accepted"},
	{of(HumanitarianSent), RequestRefused, Determination, "Art. 35(2) AMMR", "Humanitarian request refused: the determination goes on"},
	{join(of(Registered), determining, transferStates), ResponsibilityAssumed, ResponsibleSelf, "Art. 35(1) AMMR; Art. 37(1) AMMR", "This Member State applies the discretionary clause, issues a residence document, or finds a transfer of an unaccompanied minor not in the child's best interests"},

	// Transfer (AMMR Arts. 42–46).
	{of(TransferAgreed), TransferDecision, TransferDecisionNotified, "Art. 42(1)–(2) AMMR", "Transfer decision taken and notified in writing with the transfer time limit"},
	{of(TransferDecisionNotified), AppealLodged, TransferAppeal, "Art. 43(1)–(2) AMMR", "Appeal against the transfer decision lodged within the appeal window"},
	{of(TransferDecisionNotified), AppealWindowClosed, TransferPending, "Art. 43(2) AMMR; Art. 46(1) AMMR", "Appeal window closed with no appeal: the transfer is to be carried out"},
	{of(TransferAppeal), SuspensionGranted, TransferAppealSuspended, "Art. 43(3) AMMR", "Transfer suspended until the appeal is decided"},
	{of(TransferAppeal), AppealDismissed, TransferPending, "Art. 46(1) AMMR", "Appeal dismissed; the transfer time limit kept running (no suspensive effect)"},
	{of(TransferAppealSuspended), AppealDismissed, TransferPending, "Art. 46(1) AMMR", "Appeal with suspensive effect dismissed: the transfer time limit runs from this final decision"},
	{of(TransferAppeal, TransferAppealSuspended), AppealUpheld, Determination, "Art. 16(3) AMMR; Art. 43(1) AMMR", "Appeal upheld (e.g. risk of Art. 4 Charter treatment): the determination goes on with the other criteria"},
	{of(TransferPending), Transferred, TransferredOut, "Art. 46(1) AMMR", "Transferred to the responsible Member State"},
	{transferClock, TransferDeadlinePassed, ResponsibleSelf, "Art. 37(1) AMMR; Art. 46 AMMR", "Transfer time limit passed: the responsible Member State is relieved, this Member State becomes responsible"},
	{transferStates, Imprisoned, same, "Art. 46(2) AMMR", "Imprisonment: the transfer time limit is extended (to 1 year, tag R)"},
	{transferStates, TransferObstructed, same, "Art. 46(2) AMMR", "Resistance, self-induced unfitness or refusal of medical requirements: time limit extended (to 3 years, tag R)"},

	// Relocation (AMMR Arts. 67–68; solidarity-mechanism.md §2.7).
	{of(Registered, Determination), RelocationCandidate, RelocationIdentified, "Art. 67(2)–(3) AMMR", "Identified by the benefitting Member State as a candidate for relocation"},
	{of(ResponsibleSelf), RelocationCandidate, RelocationIdentified, "Art. 67(3) AMMR; Art. 68(3) AMMR", "Identified for relocation after this Member State was found responsible: responsibility will move to the Member State of relocation"},
	{of(RelocationIdentified), RelocationCleared, RelocationSecurityCleared, "Art. 67(2) AMMR", "No reasonable grounds to consider the person a threat to internal security"},
	{of(RelocationIdentified, RelocationSecurityCleared), RelocationAllocated, same, "Art. 60(2) AMMR; Art. 67 AMMR", "Allocated by the coordinator to a Member State of relocation with room in its pledge; re-allocated as long as the information is not sent"},
	{relocationSteps, SecurityThreat, SecurityResponsible, "Art. 16(4) AMMR; Art. 67(2) AMMR", "Security threat found before or during relocation: procedure terminated, barred from any relocation or transfer"},
	{relocationSteps, RelocationAbandoned, Determination, "Art. 67 AMMR", "Relocation ended without transfer: responsibility determination resumes here"},
	{of(RelocationSecurityCleared), RelocationInfo, RelocationInfoSent, "Art. 67 AMMR", "Information, including meaningful links, sent to the Member State of relocation (paragraphs not read, R)"},
	{of(RelocationInfoSent), RelocationComplex, same, "Art. 67 AMMR", "Complex case: confirmation may take 2 weeks instead of 1 (R)"},
	{of(RelocationInfoSent), RelocationConfirmation, RelocationConfirmed, "Art. 67 AMMR", "Member State of relocation confirms (R: within 1 week, 2 in complex cases)"},
	{of(RelocationInfoSent), RelocationRefused, RelocationSecurityCleared, "Art. 67 AMMR", "Member State of relocation does not confirm: another may be sought"},
	{of(RelocationConfirmed), TransferDecision, RelocationTransferDecided, "Art. 67 AMMR", "Relocation transfer decision taken and notified (R: within 1 week of confirmation)"},
	{of(RelocationTransferDecided), AppealLodged, RelocationAppeal, "Art. 43 AMMR; Art. 67(11) AMMR", "Appeal against the relocation transfer decision"},
	{of(RelocationAppeal), SuspensionGranted, RelocationAppealSuspended, "Art. 43(3) AMMR; Art. 67(11) AMMR", "Relocation transfer suspended until the appeal is decided"},
	{of(RelocationAppeal), AppealDismissed, RelocationTransferDecided, "Art. 46(1) AMMR; Art. 67(11) AMMR", "Appeal dismissed; the relocation transfer time limit kept running"},
	{of(RelocationAppealSuspended), AppealDismissed, RelocationTransferDecided, "Art. 46(1) AMMR; Art. 67(11) AMMR", "Appeal with suspensive effect dismissed: the relocation transfer time limit runs from this final decision"},
	{of(RelocationAppeal, RelocationAppealSuspended), AppealUpheld, Determination, "Art. 16(3) AMMR; Art. 43(1) AMMR", "Appeal upheld: no relocation transfer, responsibility determination here"},
	{of(RelocationTransferDecided), Transferred, RelocatedOut, "Art. 46(1) AMMR; Art. 67(11) AMMR", "Transferred to the Member State of relocation (R: within 4 weeks of confirmation)"},
	{of(RelocatedOut), ArrivalNotified, RelocationArrived, "Art. 68(1)–(3) AMMR", "Safe arrival notified; the Member State of relocation applies Art. 68(2)–(3)"},
	{of(RelocatedOut), NoShow, RelocationNoShow, "Art. 68(1) AMMR", "Non-appearance notified to the benefitting Member State, the Agency and the Coordinator"},

	// Examination (APR).
	{of(ResponsibleSelf, SecurityResponsible), ExamineBorder, BorderProcedure, "Art. 43 APR; Art. 44 APR; Art. 45 APR", "Examination in the asylum border procedure"},
	{of(ResponsibleSelf, SecurityResponsible), ExamineAdmissibility, Admissibility, "Art. 35(1) APR; Art. 38 APR", "Admissibility examination"},
	{of(ResponsibleSelf, SecurityResponsible, Admissibility), ExamineAccelerated, Accelerated, "Art. 35(3) APR; Art. 42 APR", "Accelerated examination"},
	{of(ResponsibleSelf, SecurityResponsible, Admissibility), ExamineNormal, Normal, "Art. 35(4) APR", "Examination in the normal procedure"},
	{lodgeable, Lodged, same, "Art. 28 APR", "Application lodged: the examination time limits run from here"},
	{of(Admissibility, Normal), ExaminationExtended, same, "Art. 35(2) APR; Art. 35(5) APR", "Examination time limit extended: disproportionate numbers, complex issues or the applicant's fault"},
	{of(BorderProcedure), BorderStopped, Normal, "Art. 53(2) APR", "Border procedure stopped: entry authorised, normal procedure"},
	{of(BorderProcedure), BorderStoppedAccel, Accelerated, "Art. 53(2) APR", "Border procedure stopped: entry authorised, accelerated procedure"},
	{of(BorderProcedure), BorderPeriodExpired, Normal, "Art. 43(3) APR; Art. 51(2) APR", "Border procedure maximum period passed without the decisions: entry authorised, normal procedure"},
	{of(BorderProcedure), Granted, ProtectionGranted, "Art. 44 APR", "Protection granted in the border procedure"},
	{of(BorderProcedure), Rejection, BorderRejected, "Art. 44(1) APR", "Rejected in the border procedure (inadmissible, unfounded or manifestly unfounded)"},
	{of(BorderProcedure), Withdrawal, BorderWithdrawn, "Art. 40 APR; Art. 41 APR; Art. 37(2) AMMR", "Application withdrawn in the border procedure"},
	{of(Admissibility), Rejection, Rejected, "Art. 38 APR", "Rejected as inadmissible"},
	{of(Accelerated, Normal), Granted, ProtectionGranted, "Art. 35 APR", "Refugee status or subsidiary protection granted"},
	{of(Accelerated, Normal), Rejection, Rejected, "Art. 35 APR", "Rejected as unfounded or manifestly unfounded"},
	{withdrawable, Withdrawal, Withdrawn, "Art. 40 APR; Art. 41 APR", "Application withdrawn, explicitly or implicitly"},

	// Decision, appeal, protection or return.
	{of(Rejected), AppealLodged, AsylumAppeal, "Art. 67 APR", "Appeal lodged within the time limit"},
	{of(BorderRejected), AppealLodged, BorderAppeal, "Art. 51(2) APR; Art. 67 APR", "Appeal lodged; it is decided within the border procedure's maximum period"},
	{of(AsylumAppeal, BorderAppeal), Granted, ProtectionGranted, "Art. 67 APR", "Protection granted on appeal"},
	{of(Rejected, AsylumAppeal, Withdrawn), ReturnDecision, ReturnProcedure, "Art. 6 Return Directive", "Rejection or withdrawal final: return procedure"},
	{of(BorderRejected, BorderAppeal), ReturnDecision, ReturnBorderProcedure, "Art. 4 RBPR; Art. 37(2) AMMR", "Rejection in the border procedure final: return border procedure (at most 12 weeks); Art. 37(2) 15 months start"},
	{of(ReferredReturn, ReturnProcedure, ReturnBorderProcedure, NotReturned, BorderWithdrawn), ReturnCarriedOut, Returned, "Art. 7 Return Directive; Art. 8 Return Directive; Art. 4 RBPR", "Returned"},
	{of(ReturnBorderProcedure), ReturnBorderPeriodExpired, NotReturned, "Art. 4(2) RBPR", "The return border procedure's maximum period passed without return"},
	{of(ReturnBorderProcedure, NotReturned, BorderWithdrawn), ResponsibilityCeased, Closed372, "Art. 37(2) AMMR", "15 months since the final decision: the Art. 36(1) obligations end; a later application is a new one"},

	// Facts recorded without a change of state.
	{present(), Detained, same, "Art. 45 AMMR", "Detained: shorter take charge, reply and transfer time limits"},
	{present(), Released, same, "Art. 45 AMMR", "Released from detention"},
	{present(), Absconded, same, "Art. 46(2) AMMR", "Absconded: the transfer time limit is extended (to 3 years, tag R)"},
	{present(), EurodacRecorded, same, "Art. 22(2) ED; Art. 24(2) ED", "Biometrics transmitted to Eurodac as an irregular-crossing or SAR record"},
	{applicantStates, EurodacApplicantRecorded, same, "Art. 15(1) ED", "Biometrics transmitted to Eurodac as an applicant record"},
}

type key struct {
	from  State
	event Event
}

var (
	table   []Rule            // in the order of rows
	byKey   map[key]int       // index into table
	allowed map[State][]Event // in table order
)

func init() { index() }

// index builds the lookups from eventInfos and rows, and panics on tables that
// contradict themselves: an event listed twice or with two flags of one group of
// does, a rule with an unknown event or state, two rules for one state and event.
func index() {
	eventIndex = make(map[Event]int, len(eventInfos))
	for i, e := range eventInfos {
		if _, dup := eventIndex[e.event]; dup {
			panic(fmt.Sprintf("cases: event %q listed twice", e.event))
		}
		if !e.does.one(actorFlags) || !e.does.one(familyFlags) || !e.does.one(responsibilityFlags) {
			panic(fmt.Sprintf("cases: event %q has two flags of one group", e.event))
		}
		eventIndex[e.event] = i
	}
	table = nil
	byKey = map[key]int{}
	allowed = map[State][]Event{}
	for _, r := range rows {
		if !r.event.Valid() {
			panic(fmt.Sprintf("cases: table uses unknown event %q", r.event))
		}
		for _, from := range r.from {
			to := r.to
			if to == same {
				to = from
			}
			if !from.Valid() || !to.Valid() || from.Terminal() {
				panic(fmt.Sprintf("cases: bad rule %s --%s--> %s", from, r.event, to))
			}
			k := key{from, r.event}
			if _, dup := byKey[k]; dup {
				panic(fmt.Sprintf("cases: two rules for %s in %s", r.event, from))
			}
			byKey[k] = len(table)
			table = append(table, Rule{From: from, Event: r.event, To: to, Article: r.article, Description: r.desc})
			allowed[from] = append(allowed[from], r.event)
		}
	}
}

// Table returns every rule of the transition table, one per (state, event) pair.
func Table() []Rule { return slices.Clone(table) }

// Lookup returns the rule for ev in state from, or ok=false when the table has none.
func Lookup(from State, ev Event) (Rule, bool) {
	if from == "" {
		from = New
	}
	i, ok := byKey[key{from, ev}]
	if !ok {
		return Rule{}, false
	}
	return table[i], true
}

// Can reports whether ev is legal in state s.
func Can(s State, ev Event) bool {
	_, ok := Lookup(s, ev)
	return ok
}

// Allowed returns the events legal in state s, in table order: what a UI offers.
// It returns nil for a terminal or unknown state.
func Allowed(s State) []Event {
	if s == "" {
		s = New
	}
	return slices.Clone(allowed[s])
}
