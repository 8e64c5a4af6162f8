package deadline

import (
	"slices"

	"solidarity"
	"solidarity/cases"
)

// Trigger matches a transition that starts a clock: its event, and where set, the
// state it left (From) or entered (To).
type Trigger struct {
	Event cases.Event `json:"event"`
	From  cases.State `json:"from,omitempty"`
	To    cases.State `json:"to,omitempty"`
	id    uint8
}

func (t Trigger) match(h *cases.Transition) bool {
	return h.Event == t.Event && (t.From == "" || h.From == t.From) && (t.To == "" || h.To == t.To)
}

func on(evs ...cases.Event) []Trigger {
	out := make([]Trigger, len(evs))
	for i, e := range evs {
		out[i] = Trigger{Event: e}
	}
	return out
}

// Limit is one time limit of the law: what must happen, within which period of which
// event, under which article, how sure the project is of it, and what follows when it
// is missed where the law says.
//
// A limit runs while the case is in one of its Running states, once one of its Start
// triggers has happened (the latest counts; when none has, the latest Fallback), and
// until one of its Stop events follows. Limits of one Group are variants of the same
// limit (detained person, crisis, Eurodac hit...): the first in catalogue order whose
// condition holds is the one that runs.
type Limit struct {
	Name  string `json:"name"`  // stable identifier
	Row   string `json:"row"`   // "7a": row of responsibility-and-procedures.md §3; "SM 43": rule of solidarity-mechanism.md §2.7
	Title string `json:"title"` // what must be done
	// Period is the spec's value. When Param names a Params field, that field sets it.
	Period Period `json:"period"`
	Param  string `json:"param,omitempty"`
	// Offset, when set, runs before Period from the same start (4 days from the end
	// of 72 hours).
	Offset  Period               `json:"offset,omitzero"`
	Article string               `json:"article"`
	Tag     solidarity.Certainty `json:"tag"`
	// Consequence is what the law says follows when the limit is missed ("" when the
	// spec states none); ConsequenceTag how sure that is; Then the event that records
	// it on the case, when the consequence is a transition.
	Consequence    string               `json:"consequence,omitempty"`
	ConsequenceTag solidarity.Certainty `json:"consequence_tag,omitempty"`
	Then           cases.Event          `json:"then,omitempty"`
	Start          []Trigger            `json:"start,omitempty"`
	Fallback       []Trigger            `json:"fallback,omitempty"`
	Running        []cases.State        `json:"running,omitempty"`
	Stop           []cases.Event        `json:"stop,omitempty"`
	Group          string               `json:"group,omitempty"`
	Condition      string               `json:"condition,omitempty"` // when this variant applies, in words
	// Discretion, when set, says why the consequence is left to an officer in the
	// cases discretionWhen selects: the limit still runs and is shown, but the law lets
	// the Member State go on after it has expired where it so decides (Art. 39(1), 4th
	// subpara. AMMR, for an unaccompanied minor). Such a Due has no Then, and its
	// Consequence says so.
	Discretion string `json:"discretion,omitempty"`
	// Note says how the limit is used when it is not computed from a case's events.
	Note string `json:"note,omitempty"`

	when           cond
	discretionWhen cond
	// discretionConsequence is Consequence followed by Discretion, built once.
	discretionConsequence string
	param                 paramID
	group                 int
	stopIDs               []uint8
}

// PeriodFor returns the period of l under p (its Params field, or its fixed value).
func (l *Limit) PeriodFor(p Params) Period {
	if l.param == noParam {
		return l.Period
	}
	p = p.Prepare()
	return p.period(l.param)
}

// Sets of states the catalogue uses.
var (
	determining     = []cases.State{cases.Determination, cases.TCRSent, cases.TCRRejected, cases.TBNSent, cases.HumanitarianSent}
	transferClock   = []cases.State{cases.TransferAgreed, cases.TransferDecisionNotified, cases.TransferAppeal, cases.TransferPending}
	relocationSteps = []cases.State{cases.RelocationIdentified, cases.RelocationSecurityCleared, cases.RelocationInfoSent,
		cases.RelocationConfirmed, cases.RelocationTransferDecided, cases.RelocationAppeal, cases.RelocationAppealSuspended}
	borderRunning = slices.Concat(determining, []cases.State{cases.ResponsibleSelf, cases.SecurityResponsible},
		relocationSteps, []cases.State{cases.BorderProcedure, cases.BorderRejected, cases.BorderAppeal})
	applicant = slices.Concat([]cases.State{cases.Registered, cases.SecurityResponsible}, determining,
		[]cases.State{cases.TransferAgreed, cases.TransferDecisionNotified, cases.TransferAppeal, cases.TransferAppealSuspended, cases.TransferPending},
		relocationSteps, []cases.State{cases.ResponsibleSelf, cases.BorderProcedure, cases.Admissibility, cases.Accelerated,
			cases.Normal, cases.Rejected, cases.BorderRejected, cases.AsylumAppeal, cases.BorderAppeal})
	tcrRunning = []cases.State{cases.Registered, cases.Determination, cases.TCRRejected}
	agreed     = on(cases.RequestAccepted, cases.TacitAcceptance, cases.ReceiptConfirmed, cases.TacitConfirmation)
	lodged     = on(cases.Lodged)
	registered = on(cases.Registration)
)

// present: the open states in which the person is in this Member State's hands.
func present() []cases.State {
	var out []cases.State
	for _, s := range cases.States() {
		if !s.Terminal() && s != cases.New && s != cases.RelocatedOut {
			out = append(out, s)
		}
	}
	return out
}

// Consequences written once.
const (
	tcrMissed = "the Member State where the application was registered is responsible (Art. 39(1), 3rd subpara. AMMR)"
	// Row 7b: the take charge limits stand for an unaccompanied minor; their expiry
	// does not shift responsibility by itself.
	uamDiscretion  = "unaccompanied minor: where the determining Member State considers it in the best interests of the child, it may go on and request another Member State to take charge notwithstanding the expiry of this limit, at any time before a first decision on the substance (Art. 39(1), 4th subpara. AMMR); the consequence is therefore not applied automatically: an officer decides"
	transferMissed = "the responsible Member State is relieved of its obligations and the transferring Member State becomes responsible (Art. 37(1) AMMR)"
	tacit          = "silence is tantamount to accepting the request, with the obligation to take charge and arrange the arrival"
	appealMissed   = "the decision becomes final: the return decision follows"

	dublin               = "application registered before the AMMR applies (Art. 84(2) AMMR): Dublin III time limits"
	dublinTCRMissed      = "responsibility lies with the Member State where the application was lodged (Art. 21(1), 3rd subpara. Dublin III)"
	dublinTransferMissed = "the Member State responsible is relieved and responsibility passes to the requesting Member State (Art. 29(2) Dublin III)"
)

// catalogue is every time limit of responsibility-and-procedures.md §3 and the
// relocation limits of solidarity-mechanism.md §2.7, variants of one limit together
// in order of precedence. Tags: V verified, P partly verified, R recalled (the
// responsibility spec's M).
var catalogue = []Limit{
	// Eurodac (ED 2024/1358).
	{Name: "eurodac-sar", Row: "1", Title: "Transmit the biometrics of a person disembarked after SAR to Eurodac",
		Period: H(72), Article: "Art. 24(2) ED", Tag: "V",
		Consequence:    "the duty to take the biometrics remains; on health grounds they are taken as soon as possible afterwards",
		ConsequenceTag: "P", Start: on(cases.Disembarked), Running: present(), Stop: []cases.Event{cases.EurodacRecorded},
		when: is(fBiometrics), Condition: "persons aged 6 or more"},
	{Name: "eurodac-irregular", Row: "2", Title: "Transmit the biometrics of a person apprehended after an irregular crossing to Eurodac",
		Period: H(72), Article: "Art. 22(2) ED", Tag: "V",
		Consequence: "the duty to take the biometrics remains", ConsequenceTag: "P",
		Start: on(cases.ApprehendedAtBorder), Running: present(), Stop: []cases.Event{cases.EurodacRecorded},
		when: is(fBiometrics), Condition: "persons aged 6 or more"},
	{Name: "eurodac-applicant", Row: "3", Title: "Transmit the applicant's biometrics to Eurodac",
		Period: H(72), Article: "Art. 15(1)(a)–(b) ED", Tag: "V",
		Consequence: "the 72 hours passing does not remove the duty", ConsequenceTag: "V",
		Start: registered, Running: applicant, Stop: []cases.Event{cases.EurodacApplicantRecorded},
		when: is(fBiometrics), Condition: "persons aged 6 or more"},

	// Screening (SR 2024/1356).
	{Name: "screening-reduced", Row: "4a", Group: "screening", Title: "Finish the screening (person kept at the border beyond 72 hours)",
		Offset: H(72), Period: D(4), Article: "Art. 8(3), 2nd sentence SR", Tag: "V",
		Consequence:    "a person who has not applied is referred to the return authorities; screening ends on referral (Art. 18(1) SR; Art. 18(5) SR)",
		ConsequenceTag: "V", Then: cases.NoApplication,
		Start: on(cases.ApprehendedAtBorder), Running: []cases.State{cases.ArrivedIrregular, cases.Screening},
		when: is(fReduced), Condition: "Art. 5(1)(a) SR person covered by Art. 23(1), (4) ED, staying at the external border beyond 72 hours"},
	{Name: "screening", Row: "4", Group: "screening", Title: "Finish the screening at the external border",
		Period: D(7), Article: "Art. 8(3) SR", Tag: "V",
		Consequence:    "a person who has not applied is referred to the return authorities; screening ends on referral (Art. 18(1) SR; Art. 18(5) SR)",
		ConsequenceTag: "V", Then: cases.NoApplication,
		Start:   on(cases.Disembarked, cases.ApprehendedAtBorder, cases.PresentedAtBCP),
		Running: []cases.State{cases.ArrivedSAR, cases.ArrivedIrregular, cases.AtBCP, cases.Screening}},
	{Name: "screening-territory", Row: "5", Group: "screening", Title: "Finish the screening within the territory",
		Period: D(3), Param: "inland_screening", param: pInlandScreening,
		Article: "Art. 8(4) SR", Tag: "P",
		Start: on(cases.ApprehendedInTerritory), Running: []cases.State{cases.FoundInTerritory, cases.Screening}},

	// Registration (APR Art. 27; CR Art. 10).
	{Name: "registration-crisis", Row: "6a", Group: "registration", Title: "Register the application (crisis or force majeure)",
		Period: W(4), Article: "Art. 10(1)–(2) CR", Tag: "V", when: is(fCrisis), Condition: "crisis or force majeure derogation applied",
		Start: on(cases.Applied), Running: []cases.State{cases.ApplicationMade}},
	{Name: "registration", Row: "6", Group: "registration", Title: "Register the application",
		Period: D(5), Param: "registration", param: pRegistration,
		Article: "Art. 27 APR", Tag: "R", Start: on(cases.Applied), Running: []cases.State{cases.ApplicationMade}},

	// Take charge request (AMMR Arts. 39, 45; CR Art. 12).
	// Applications registered before the AMMR applies follow Dublin III (AMMR Art.
	// 84(2); spec §9). Their variants come first in each group.
	{Name: "take-charge-request-dublin-hit", Row: "§9", Group: "take-charge-request", Title: "Send the take charge request after a Eurodac hit (Dublin III)",
		Period: M(2), Article: "Art. 21(1), 2nd subpara. Dublin III", Tag: "V", when: is(fDublin), Condition: dublin,
		Consequence: dublinTCRMissed, ConsequenceTag: "R", Then: cases.TakeChargeDeadlinePassed,
		Start: on(cases.EurodacHit), Running: tcrRunning},
	{Name: "take-charge-request-dublin", Row: "§9", Group: "take-charge-request", Title: "Send the take charge request (Dublin III)",
		Period: M(3), Article: "Art. 21(1) Dublin III", Tag: "V", when: is(fDublin), Condition: dublin,
		Consequence: dublinTCRMissed, ConsequenceTag: "R", Then: cases.TakeChargeDeadlinePassed,
		Start: registered, Running: tcrRunning},
	{Name: "take-charge-request-detained-after", Row: "7c", Group: "take-charge-request", Title: "Send the take charge request (person detained after registration)",
		Period: W(1), Article: "Art. 45(1) AMMR", Tag: "V", when: is(fDetainedAfterRegistration), Condition: "detained after registration: from the start of detention",
		Consequence: "not stated in the spec for detained persons (whether Art. 39(1), 3rd subpara. applies was not read)",
		Start:       on(cases.Detained), Running: tcrRunning,
		Discretion: uamDiscretion, discretionWhen: is(fUAM)},
	{Name: "take-charge-request-detained", Row: "7c", Group: "take-charge-request", Title: "Send the take charge request (detained person)",
		Period: W(2), Article: "Art. 45(1) AMMR", Tag: "V", when: is(fDetained), Condition: "detained: from registration, or from the Eurodac/VIS hit",
		Consequence: "not stated in the spec for detained persons (whether Art. 39(1), 3rd subpara. applies was not read)",
		Start:       on(cases.EurodacHit), Fallback: registered, Running: tcrRunning,
		Discretion: uamDiscretion, discretionWhen: is(fUAM)},
	{Name: "take-charge-request-crisis", Row: "7d, 7b", Group: "take-charge-request", Title: "Send the take charge request (crisis or force majeure)",
		Period: M(4), Article: "Art. 12(2)(a) CR", Tag: "V", when: is(fCrisis), Condition: "crisis or force majeure derogation applied",
		Consequence: tcrMissed, ConsequenceTag: "R", Then: cases.TakeChargeDeadlinePassed,
		Start: registered, Running: tcrRunning,
		Discretion: uamDiscretion, discretionWhen: is(fUAM)},
	{Name: "take-charge-request-hit", Row: "7a, 7b", Group: "take-charge-request", Title: "Send the take charge request after a Eurodac (Art. 22/24) or VIS hit",
		Period: M(1), Article: "Art. 39(1), 2nd subpara. AMMR", Tag: "V", Condition: "from the receipt of the hit",
		Consequence: tcrMissed, ConsequenceTag: "V", Then: cases.TakeChargeDeadlinePassed,
		Start: on(cases.EurodacHit), Running: tcrRunning,
		Discretion: uamDiscretion, discretionWhen: is(fUAM)},
	{Name: "take-charge-request", Row: "7, 7b", Group: "take-charge-request", Title: "Send the take charge request",
		Period: M(2), Article: "Art. 39(1) AMMR", Tag: "V",
		Consequence: tcrMissed, ConsequenceTag: "V", Then: cases.TakeChargeDeadlinePassed,
		Start: registered, Running: tcrRunning,
		Discretion: uamDiscretion, discretionWhen: is(fUAM)},

	// Reply to a take charge request (AMMR Arts. 40, 45(2); CR Art. 12(2)(b)).
	{Name: "take-charge-reply-dublin", Row: "§9", Group: "take-charge-reply", Title: "Reply to the take charge request (Dublin III)",
		Period: M(2), Article: "Art. 22(1) Dublin III; Art. 22(7) Dublin III", Tag: "V", when: is(fDublin), Condition: dublin,
		Consequence: tacit + " (Art. 22(7) Dublin III)", ConsequenceTag: "V", Then: cases.TacitAcceptance,
		Start: on(cases.TakeChargeRequestSent), Running: []cases.State{cases.TCRSent}},
	{Name: "take-charge-reply-detained", Row: "8b", Group: "take-charge-reply", Title: "Reply to the take charge request (detained person)",
		Period: W(1), Article: "Art. 45(2) AMMR", Tag: "V", when: is(fDetained), Condition: "detained",
		Consequence: tacit, ConsequenceTag: "V", Then: cases.TacitAcceptance,
		Start: on(cases.TakeChargeRequestSent), Running: []cases.State{cases.TCRSent}},
	{Name: "take-charge-reply-crisis", Row: "8c", Group: "take-charge-reply", Title: "Reply to the take charge request (crisis or force majeure)",
		Period: M(2), Article: "Art. 12(2)(b) CR", Tag: "V", when: is(fCrisis), Condition: "crisis or force majeure derogation applied",
		Consequence: tacit, ConsequenceTag: "R", Then: cases.TacitAcceptance,
		Start: on(cases.TakeChargeRequestSent), Running: []cases.State{cases.TCRSent}},
	{Name: "take-charge-reply-hit", Row: "8a", Group: "take-charge-reply", Title: "Reply to a take charge request based on a Eurodac (Art. 22/24) or VIS hit",
		Period: W(2), Article: "Art. 40(2) AMMR", Tag: "V", when: is(fHitBefore), Condition: "the request follows a Eurodac or VIS hit",
		Consequence: tacit, ConsequenceTag: "R", Then: cases.TacitAcceptance,
		Start: on(cases.TakeChargeRequestSent), Running: []cases.State{cases.TCRSent}},
	{Name: "take-charge-reply", Row: "8", Group: "take-charge-reply", Title: "Reply to the take charge request",
		Period: M(1), Article: "Art. 40(1) AMMR", Tag: "V",
		Consequence: tacit, ConsequenceTag: "R", Then: cases.TacitAcceptance,
		Start: on(cases.TakeChargeRequestSent), Running: []cases.State{cases.TCRSent}},

	// Take back notification (AMMR Arts. 41, 45(1); CR Art. 12(2)(c)).
	{Name: "take-back-request-dublin", Row: "§9", Group: "take-back-notification", Title: "Send the take back request after a Eurodac hit (Dublin III)",
		Period: M(2), Article: "Art. 23(2) Dublin III", Tag: "V", when: is(fDublin), Condition: dublin,
		Consequence: "responsibility lies with the Member State where the new application was lodged (Art. 23(3) Dublin III)", ConsequenceTag: "R",
		Start: on(cases.TakeBackHit), Running: []cases.State{cases.Registered, cases.Determination}},
	{Name: "take-back-notification-detained-after", Row: "7c", Group: "take-back-notification", Title: "Send the take back notification (person detained after registration)",
		Period: W(1), Article: "Art. 45(1) AMMR", Tag: "V", when: is(fDetainedAfterRegistration), Condition: "detained after registration: from the start of detention",
		Consequence: "none: a late notification does not affect the take back obligation (Art. 41(1) AMMR)", ConsequenceTag: "V",
		Start: on(cases.Detained), Running: []cases.State{cases.Registered, cases.Determination}},
	{Name: "take-back-notification-crisis", Row: "10a", Group: "take-back-notification", Title: "Send the take back notification (crisis or force majeure)",
		Period: M(1), Article: "Art. 12(2)(c) CR", Tag: "V", when: is(fCrisis), Condition: "crisis or force majeure derogation applied",
		Consequence: "none: a late notification does not affect the take back obligation (Art. 41(1) AMMR)", ConsequenceTag: "V",
		Start: on(cases.TakeBackHit), Running: []cases.State{cases.Registered, cases.Determination}},
	{Name: "take-back-notification", Row: "9", Group: "take-back-notification", Title: "Send the take back notification",
		Period: W(2), Article: "Art. 41(1) AMMR", Tag: "V",
		Consequence: "none: a late notification does not affect the take back obligation", ConsequenceTag: "V",
		Start: on(cases.TakeBackHit), Running: []cases.State{cases.Registered, cases.Determination}},

	// Confirmation of a take back notification (AMMR Art. 41(3)–(4); CR Art. 12(2)(c)).
	{Name: "take-back-reply-dublin", Row: "§9", Group: "take-back-confirmation", Title: "Reply to the take back request based on Eurodac data (Dublin III)",
		Period: W(2), Article: "Art. 25(1) Dublin III", Tag: "V", when: is(fDublin), Condition: dublin,
		Consequence: "silence is acceptance of the request, with the obligation to take the person back (Art. 25(2) Dublin III)", ConsequenceTag: "V",
		Then:  cases.TacitConfirmation,
		Start: on(cases.TakeBackNotificationSent), Running: []cases.State{cases.TBNSent}},
	{Name: "take-back-confirmation-crisis", Row: "10a", Group: "take-back-confirmation", Title: "Confirm receipt of the take back notification (crisis or force majeure)",
		Period: M(1), Article: "Art. 12(2)(c) CR", Tag: "V", when: is(fCrisis), Condition: "crisis or force majeure derogation applied",
		Consequence: "silence is confirmation of the notification", ConsequenceTag: "R", Then: cases.TacitConfirmation,
		Start: on(cases.TakeBackNotificationSent), Running: []cases.State{cases.TBNSent}},
	{Name: "take-back-confirmation", Row: "10", Group: "take-back-confirmation", Title: "Confirm receipt of the take back notification",
		Period: W(2), Article: "Art. 41(3)–(4) AMMR", Tag: "V",
		Consequence:    "silence is confirmation; only within this time may the notified Member State show it is not responsible (Art. 37) or that Eurodac named the wrong Member State",
		ConsequenceTag: "V", Then: cases.TacitConfirmation,
		Start: on(cases.TakeBackNotificationSent), Running: []cases.State{cases.TBNSent}},

	{Name: "humanitarian-reply", Row: "11", Title: "Reply to the request on humanitarian grounds",
		Period: M(2), Article: "Art. 35(2) AMMR", Tag: "V",
		Start: on(cases.HumanitarianRequestSent), Running: []cases.State{cases.HumanitarianSent}},

	// Transfer (AMMR Arts. 42–46; CR Art. 12(2)(d)).
	{Name: "transfer-decision", Row: "12", Title: "Take and notify the transfer decision",
		Period: W(2), Article: "Art. 42(1)–(2) AMMR", Tag: "V", when: is(fAMMR),
		Start: agreed, Running: []cases.State{cases.TransferAgreed}},
	{Name: "transfer-appeal-window", Row: "13", Title: "Appeal against the transfer decision (window set by the Member State, 1–3 weeks)",
		Period: W(3), Param: "transfer_appeal", param: pTransferAppeal,
		Article: "Art. 43(2) AMMR", Tag: "V", when: is(fAMMR),
		Consequence: "no appeal any more: the transfer is to be carried out", ConsequenceTag: "P", Then: cases.AppealWindowClosed,
		Start: on(cases.TransferDecision), Running: []cases.State{cases.TransferDecisionNotified}},
	{Name: "transfer-suspension-request", Row: "13a", Title: "Request suspension of the transfer (within a reasonable time, at most the appeal window)",
		Period: W(3), Param: "transfer_appeal", param: pTransferAppeal,
		Article: "Art. 43(3) AMMR", Tag: "P", when: is(fAMMR),
		Start: on(cases.TransferDecision), Running: []cases.State{cases.TransferAppeal}},
	{Name: "transfer-dublin-absconding", Row: "§9", Group: "transfer", Title: "Carry out the transfer (Dublin III, extended: absconding)",
		Period: M(18), Article: "Art. 29(2) Dublin III", Tag: "V", when: cond{all: fDublin, after: []cases.Event{cases.Absconded}},
		Condition: dublin + "; the person absconded", Consequence: dublinTransferMissed, ConsequenceTag: "V", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},
	{Name: "transfer-dublin-imprisonment", Row: "§9", Group: "transfer", Title: "Carry out the transfer (Dublin III, extended: imprisonment)",
		Period: M(12), Article: "Art. 29(2) Dublin III", Tag: "V", when: cond{all: fDublin, after: []cases.Event{cases.Imprisoned}},
		Condition: dublin + "; the person is imprisoned", Consequence: dublinTransferMissed, ConsequenceTag: "V", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},
	{Name: "transfer-dublin", Row: "§9", Group: "transfer", Title: "Carry out the transfer (Dublin III)",
		Period: M(6), Article: "Art. 29(1) Dublin III", Tag: "V", when: is(fDublin), Condition: dublin,
		Consequence: dublinTransferMissed, ConsequenceTag: "V", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},
	{Name: "transfer-absconding", Row: "14a", Group: "transfer", Title: "Carry out the transfer (extended: absconding, resistance, self-induced unfitness)",
		Period: M(36), Param: "transfer_absconding", param: pTransferAbsconding,
		Article: "Art. 46(2) AMMR", Tag: "R", when: after(cases.Absconded, cases.TransferObstructed),
		Condition:   "the person absconded, resisted physically, made themselves unfit or refused medical requirements",
		Consequence: transferMissed, ConsequenceTag: "V", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},
	{Name: "transfer-imprisonment", Row: "14a", Group: "transfer", Title: "Carry out the transfer (extended: imprisonment)",
		Period: M(12), Param: "transfer_imprisonment", param: pTransferImprisonment,
		Article: "Art. 46(2) AMMR", Tag: "R", when: after(cases.Imprisoned), Condition: "the person is imprisoned",
		Consequence: transferMissed, ConsequenceTag: "V", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},
	{Name: "transfer-crisis", Row: "14c", Group: "transfer", Title: "Carry out the transfer (crisis or force majeure)",
		Period: M(12), Article: "Art. 12(2)(d) CR", Tag: "V", when: is(fCrisis), Condition: "crisis or force majeure derogation applied",
		Consequence: transferMissed, ConsequenceTag: "R", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},
	{Name: "transfer-detained", Row: "14b", Group: "transfer", Title: "Carry out the transfer of a detained person",
		Param: "detained_transfer", param: pDetainedTransfer,
		Article: "Art. 45(3) AMMR", Tag: "P", when: is(fDetainedTransfer),
		Condition:   "detained, and Params.DetainedTransfer set (the outer limit was not read: none by default)",
		Consequence: transferMissed, ConsequenceTag: "R", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},
	{Name: "transfer", Row: "14", Group: "transfer", Title: "Carry out the transfer",
		Period: M(6), Article: "Art. 46(1) AMMR", Tag: "V",
		Consequence: transferMissed, ConsequenceTag: "V", Then: cases.TransferDeadlinePassed,
		Start: append(slices.Clone(agreed), Trigger{Event: cases.AppealDismissed, From: cases.TransferAppealSuspended}), Running: transferClock},

	// Relocation (AMMR Arts. 67–68; solidarity-mechanism.md §2.7, tagged R).
	{Name: "relocation-confirmation-complex", Row: "SM 43", Group: "relocation-confirmation", Title: "Member State of relocation confirms (complex case)",
		Period: W(2), Param: "relocation_confirmation_complex", param: pRelocationConfirmationComplex,
		Article: "Art. 67 AMMR", Tag: "R", when: after(cases.RelocationComplex), Condition: "complex case",
		Start: on(cases.RelocationInfo), Running: []cases.State{cases.RelocationInfoSent}},
	{Name: "relocation-confirmation", Row: "SM 43", Group: "relocation-confirmation", Title: "Member State of relocation confirms",
		Period: W(1), Param: "relocation_confirmation", param: pRelocationConfirmation,
		Article: "Art. 67 AMMR", Tag: "R",
		Start: on(cases.RelocationInfo), Running: []cases.State{cases.RelocationInfoSent}},
	{Name: "relocation-transfer-decision", Row: "SM 43", Title: "Benefitting Member State takes and notifies the relocation transfer decision",
		Period: W(1), Param: "relocation_transfer_decision", param: pRelocationTransferDecision,
		Article: "Art. 67 AMMR", Tag: "R",
		Start: on(cases.RelocationConfirmation), Running: []cases.State{cases.RelocationConfirmed}},
	{Name: "relocation-transfer", Row: "14d, SM 44", Title: "Carry out the relocation transfer",
		Period: W(4), Param: "relocation_transfer", param: pRelocationTransfer,
		Article: "Art. 46(1) AMMR; Art. 67(11) AMMR", Tag: "R",
		Start:   []Trigger{{Event: cases.RelocationConfirmation}, {Event: cases.AppealDismissed, From: cases.RelocationAppealSuspended}},
		Running: []cases.State{cases.RelocationConfirmed, cases.RelocationTransferDecided, cases.RelocationAppeal}},

	// Windows of the criteria (AMMR Arts. 29, 30, 33).
	{Name: "sar-entry-window", Row: "15", Title: "Register the application for Art. 33(2) (SAR entry) to apply",
		Period: M(12), Article: "Art. 33(2) AMMR", Tag: "V",
		Consequence: "Art. 33(2) no longer applies to an application registered later", ConsequenceTag: "V",
		Start: on(cases.Disembarked), Running: []cases.State{cases.ArrivedSAR, cases.Screening, cases.ApplicationMade}},
	{Name: "irregular-entry-window", Row: "16", Title: "Register the application for Art. 33(1) (irregular entry) to apply",
		Period: M(20), Article: "Art. 33(1) AMMR", Tag: "V",
		Consequence: "Art. 33(1) no longer applies to an application registered later", ConsequenceTag: "V",
		Condition: "counted from the apprehension; package rules counts from the crossing itself",
		Start:     on(cases.ApprehendedAtBorder), Running: []cases.State{cases.ArrivedIrregular, cases.Screening, cases.ApplicationMade}},
	{Name: "expired-residence-document", Row: "17", Title: "A residence document expired less than this before registration still counts",
		Period: M(36), Article: "Art. 29(4) AMMR", Tag: "V", Consequence: "the criterion no longer applies", ConsequenceTag: "V",
		Note: "a window on the applicant's documents, applied by package rules (rules.Params.ExpiredResidenceMonths); not a case clock"},
	{Name: "expired-visa", Row: "17", Title: "A visa expired less than this before registration still counts",
		Period: M(18), Article: "Art. 29(4) AMMR", Tag: "V", Consequence: "the criterion no longer applies", ConsequenceTag: "V",
		Note: "a window on the applicant's documents, applied by package rules (rules.Params.ExpiredVisaMonths); not a case clock"},
	{Name: "diploma", Row: "18", Title: "A diploma issued less than this before registration counts",
		Period: M(72), Article: "Art. 30(1) AMMR", Tag: "V", Consequence: "the criterion no longer applies", ConsequenceTag: "V",
		Note: "a window on the applicant's diplomas, applied by package rules (rules.Params.DiplomaMonths); not a case clock"},

	{Name: "responsibility-end-37-2", Row: "19", Title: "Obligations of the Member State responsible end after a final negative decision in the border procedure",
		Period: M(15), Article: "Art. 37(2) AMMR", Tag: "V",
		Consequence:    "the Art. 36(1) obligations end; a later application is a new one and starts a new determination",
		ConsequenceTag: "V", Then: cases.ResponsibilityCeased,
		Start:   []Trigger{{Event: cases.ReturnDecision, To: cases.ReturnBorderProcedure}, {Event: cases.Withdrawal, To: cases.BorderWithdrawn}},
		Running: []cases.State{cases.ReturnBorderProcedure, cases.NotReturned, cases.BorderWithdrawn}},

	// Border procedure (APR Art. 51(2); CR Art. 11(1)).
	{Name: "border-procedure-crisis", Row: "20b", Group: "border-procedure", Title: "End of the asylum border procedure (crisis or force majeure, +6 weeks)",
		Period: W(18), Param: "border_procedure", param: pBorderCrisis,
		Article: "Art. 51(2) APR; Art. 11(1) CR", Tag: "P", when: is(fBorder | fCrisis),
		Condition:      "border procedure, crisis or force majeure derogation applied (not added to the relocation extension)",
		Consequence:    "the applicant is authorised to enter; the application goes on in the normal procedure, except in the Art. 43(3) APR cases",
		ConsequenceTag: "P", Then: cases.BorderPeriodExpired, Start: registered, Running: borderRunning},
	{Name: "border-procedure-relocation", Row: "20a", Group: "border-procedure", Title: "End of the asylum border procedure (relocation)",
		Period: W(16), Param: "border_relocation", param: pBorderRelocation,
		Article: "Art. 51(2), 3rd subpara. APR; Art. 52(2) APR", Tag: "P", when: is(fBorder | fRelocation),
		Condition:      "border procedure, applicant in relocation (the Member State of relocation may continue it)",
		Consequence:    "the applicant is authorised to enter; the application goes on in the normal procedure, except in the Art. 43(3) APR cases",
		ConsequenceTag: "P", Then: cases.BorderPeriodExpired, Start: registered, Running: borderRunning},
	{Name: "border-procedure", Row: "20", Group: "border-procedure", Title: "End of the asylum border procedure (decision, request to remain and appeal included)",
		Period: W(12), Param: "border_procedure", param: pBorderProcedure,
		Article: "Art. 51(2) APR", Tag: "P", when: is(fBorder), Condition: "border procedure",
		Consequence:    "the applicant is authorised to enter; the application goes on in the normal procedure, except in the Art. 43(3) APR cases",
		ConsequenceTag: "P", Then: cases.BorderPeriodExpired, Start: registered, Running: borderRunning},

	{Name: "return-border-procedure", Row: "21", Title: "End of the return border procedure",
		Period: W(12), Article: "Art. 4(2) RBPR", Tag: "V",
		Consequence: "the maximum stay at or near the border under the RBPR is over (what follows was not read)", ConsequenceTag: "R",
		Then:  cases.ReturnBorderPeriodExpired,
		Start: []Trigger{{Event: cases.ReturnDecision, To: cases.ReturnBorderProcedure}}, Running: []cases.State{cases.ReturnBorderProcedure}},

	// Examination (APR Art. 35).
	{Name: "admissibility-38-1-e", Row: "22", Group: "admissibility", Title: "Decide admissibility (Art. 38(1)(e) ground)",
		Period: WD(10), Article: "Art. 35(1) APR", Tag: "V", when: is(fGround38e), Condition: "inadmissibility ground of Art. 38(1)(e) APR",
		Consequence: "none: the application is not deemed admissible", ConsequenceTag: "V",
		Start: lodged, Fallback: registered, Running: []cases.State{cases.Admissibility}},
	{Name: "admissibility-extended", Row: "22", Group: "admissibility", Title: "Decide admissibility (extended by 2 months)",
		Period: M(4), Article: "Art. 35(1)–(2) APR", Tag: "V", when: after(cases.ExaminationExtended),
		Condition:   "extended: disproportionate numbers, complex issues or the applicant's fault",
		Consequence: "none: the application is not deemed admissible", ConsequenceTag: "V",
		Start: lodged, Fallback: registered, Running: []cases.State{cases.Admissibility}},
	{Name: "admissibility", Row: "22", Group: "admissibility", Title: "Decide admissibility",
		Period: M(2), Article: "Art. 35(1) APR", Tag: "V",
		Consequence: "none: the application is not deemed admissible", ConsequenceTag: "V",
		Start: lodged, Fallback: registered, Running: []cases.State{cases.Admissibility}},
	{Name: "accelerated", Row: "23", Title: "Decide in the accelerated procedure",
		Period: M(3), Article: "Art. 35(3) APR", Tag: "V",
		Start: lodged, Fallback: registered, Running: []cases.State{cases.Accelerated}},
	{Name: "normal-examination-extended", Row: "24", Group: "normal-examination", Title: "Decide in the normal procedure (extended)",
		Period: M(12), Param: "normal_extended", param: pNormalExtended,
		Article: "Art. 35(5) APR", Tag: "P", when: after(cases.ExaminationExtended),
		Condition: "extended: disproportionate numbers, complex issues or the applicant's fault",
		Start:     lodged, Fallback: registered, Running: []cases.State{cases.Normal}},
	{Name: "normal-examination", Row: "24", Group: "normal-examination", Title: "Decide in the normal procedure",
		Period: M(6), Param: "normal_examination", param: pNormalExamination,
		Article: "Art. 35(4) APR", Tag: "P",
		Start: lodged, Fallback: registered, Running: []cases.State{cases.Normal}},
	{Name: "normal-examination-maximum", Row: "24a", Title: "Absolute maximum of the normal procedure",
		Period: M(21), Param: "normal_maximum", param: pNormalMaximum,
		Article: "Art. 35 APR", Tag: "R", when: after(cases.ExaminationExtended), Condition: "after an extension",
		Start: lodged, Fallback: registered, Running: []cases.State{cases.Normal}},

	// Appeal (APR Art. 67; Irish implementation for the time to decide).
	{Name: "appeal-lodging-short", Row: "25", Group: "appeal-lodging", Title: "Lodge the appeal (inadmissibility, accelerated or border procedure)",
		Period: D(10), Param: "appeal_short", param: pAppealShort,
		Article: "Art. 67(7) APR", Tag: "R", Consequence: appealMissed, ConsequenceTag: "R", Then: cases.ReturnDecision,
		Start: []Trigger{{Event: cases.Rejection, From: cases.BorderProcedure}, {Event: cases.Rejection, From: cases.Accelerated},
			{Event: cases.Rejection, From: cases.Admissibility}},
		Running: []cases.State{cases.Rejected, cases.BorderRejected}},
	{Name: "appeal-lodging", Row: "25", Group: "appeal-lodging", Title: "Lodge the appeal",
		Period: M(1), Param: "appeal_long", param: pAppealLong,
		Article: "Art. 67(7) APR", Tag: "R", Consequence: appealMissed, ConsequenceTag: "R", Then: cases.ReturnDecision,
		Start: []Trigger{{Event: cases.Rejection, From: cases.Normal}}, Running: []cases.State{cases.Rejected}},
	{Name: "appeal-decision-inadmissible", Row: "26", Group: "appeal-decision", Title: "Decide the appeal (inadmissibility)",
		Period: M(2), Param: "appeal_decision_inadmissible", param: pAppealDecisionInadmissible,
		Article: "IE International Protection Act 2026 s.197 (implements the APR)", Tag: "P", when: rejectedIn(cases.Admissibility),
		Condition: "appeal against an inadmissibility decision",
		Start:     []Trigger{{Event: cases.AppealLodged, To: cases.AsylumAppeal}}, Running: []cases.State{cases.AsylumAppeal}},
	{Name: "appeal-decision-accelerated", Row: "26", Group: "appeal-decision", Title: "Decide the appeal (accelerated procedure)",
		Period: M(3), Param: "appeal_decision_accelerated", param: pAppealDecisionAccelerated,
		Article: "IE International Protection Act 2026 s.197 (implements the APR)", Tag: "P", when: rejectedIn(cases.Accelerated),
		Condition: "appeal against a decision in the accelerated procedure",
		Start:     []Trigger{{Event: cases.AppealLodged, To: cases.AsylumAppeal}}, Running: []cases.State{cases.AsylumAppeal}},
	{Name: "appeal-decision", Row: "26", Group: "appeal-decision", Title: "Decide the appeal",
		Period: M(6), Param: "appeal_decision_other", param: pAppealDecisionOther,
		Article: "IE International Protection Act 2026 s.197 (implements the APR)", Tag: "P",
		Start: []Trigger{{Event: cases.AppealLodged, To: cases.AsylumAppeal}}, Running: []cases.State{cases.AsylumAppeal}},

	// Eurodac retention (ED Art. 29).
	{Name: "eurodac-retention-applicant", Row: "27", Title: "Eurodac keeps the applicant record until",
		Period: M(120), Article: "Art. 29(1) ED", Tag: "V",
		Start: on(cases.EurodacApplicantRecorded), Running: cases.States()},
	{Name: "eurodac-retention-sar", Row: "27", Title: "Eurodac keeps the SAR or irregular-crossing record until",
		Period: M(60), Article: "Art. 29(6)–(8) ED", Tag: "V",
		Start: on(cases.EurodacRecorded), Running: cases.States()},
}

// Limits returns the catalogue: every time limit, with the spec's values.
func Limits() []Limit {
	out := slices.Clone(catalogue)
	for i := range out {
		l := &out[i]
		l.Start, l.Fallback, l.Running, l.Stop = slices.Clone(l.Start), slices.Clone(l.Fallback), slices.Clone(l.Running), slices.Clone(l.Stop)
	}
	return out
}

// Lookup returns the limit named name.
func Lookup(name string) (Limit, bool) {
	for _, l := range catalogue {
		if l.Name == name {
			return l, true
		}
	}
	return Limit{}, false
}
