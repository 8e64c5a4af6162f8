// Package state names where a case stands in the flow of package cases: the State
// type, its values (the spec's names, §8) and what each means (its label, whether it
// is terminal, where it stands in the relocation steps).
//
// It is a package of its own, importing nothing of the module, so that the root
// package can hold a case's state as a State (solidarity.CaseRecord, the store's
// View) while package cases, which builds its errors on the root package, keeps the
// transition table. Use the states through package cases, which names them all.
package state

// State is where a case stands. The values are the spec's names (§8) so that a state
// reads the same in the database, the API, the logs and the spec.
type State string

// States, in the order of the flow.
const (
	New              State = "NEW"                // no event yet
	ArrivedSAR       State = "ARRIVED_SAR"        // disembarked after a SAR operation (Art. 5(1)(b) SR)
	ArrivedIrregular State = "ARRIVED_IRREGULAR"  // apprehended after crossing irregularly (Art. 5(1)(a) SR)
	AtBCP            State = "AT_BCP"             // presented at a border crossing point (Art. 5(2) SR)
	FoundInTerritory State = "FOUND_IN_TERRITORY" // found illegally staying, not controlled at the border (Art. 7 SR)
	Screening        State = "SCREENING"          // Arts. 8–17 SR
	ReferredReturn   State = "REFERRED_RETURN"    // no application: Return Directive (Art. 18(1) SR)
	ApplicationMade  State = "APPLICATION_MADE"   // made, not yet registered (Art. 18(2) SR; Art. 27 APR)
	Registered       State = "REGISTERED"         // registered: the date drives the regime (Art. 84 AMMR)

	SecurityResponsible State = "SECURITY_RESPONSIBLE" // Art. 16(4) AMMR: responsible, excluded from relocation (Art. 67(2))
	Determination       State = "DETERMINATION"        // Part III AMMR running
	TCRSent             State = "TCR_SENT"             // take charge request sent (Art. 39 AMMR)
	TCRRejected         State = "TCR_REJECTED"         // explicit refusal (Art. 40 AMMR)
	TBNSent             State = "TBN_SENT"             // take back notification sent (Art. 41 AMMR)
	HumanitarianSent    State = "HUMANITARIAN_REQUEST_SENT"

	TransferAgreed           State = "TRANSFER_AGREED"            // acceptance or confirmation, explicit or tacit
	TransferDecisionNotified State = "TRANSFER_DECISION_NOTIFIED" // Art. 42 AMMR
	TransferAppeal           State = "TRANSFER_APPEAL"            // Art. 43 AMMR, no suspensive effect (yet)
	TransferAppealSuspended  State = "TRANSFER_APPEAL_SUSPENDED"  // Art. 43(3) AMMR: transfer suspended
	TransferPending          State = "TRANSFER_PENDING"           // Art. 46 AMMR
	TransferredOut           State = "TRANSFERRED_OUT"            // terminal for the transferring state

	RelocationIdentified      State = "RELOCATION_IDENTIFIED"       // Art. 67(3) AMMR
	RelocationSecurityCleared State = "RELOCATION_SECURITY_CLEARED" // Art. 67(2) AMMR
	RelocationInfoSent        State = "RELOCATION_INFO_SENT"        // Art. 67(6)–(10) AMMR (R)
	RelocationConfirmed       State = "RELOCATION_CONFIRMED"        // by the Member State of relocation (R)
	RelocationTransferDecided State = "RELOCATION_TRANSFER_DECIDED" // transfer decision notified (R)
	RelocationAppeal          State = "RELOCATION_APPEAL"           // appeal against the transfer decision
	RelocationAppealSuspended State = "RELOCATION_APPEAL_SUSPENDED" // with suspensive effect
	RelocatedOut              State = "RELOCATED_OUT"               // transferred; awaiting the Art. 68(1) notice
	RelocationArrived         State = "RELOCATION_ARRIVED"          // terminal: safe arrival notified
	RelocationNoShow          State = "RELOCATION_NO_SHOW"          // terminal: non-appearance notified
	ResponsibleSelf           State = "RESPONSIBLE_SELF"            // this Member State is responsible
	BorderProcedure           State = "BORDER_PROCEDURE"            // Arts. 43–54 APR
	Admissibility             State = "ADMISSIBILITY"               // Arts. 35(1)–(2), 38 APR
	Accelerated               State = "ACCELERATED"                 // Arts. 35(3), 42 APR
	Normal                    State = "NORMAL"                      // Art. 35(4)–(5) APR
	Rejected                  State = "REJECTED"                    // first-instance rejection, outside the border procedure
	BorderRejected            State = "BORDER_REJECTED"             // first-instance rejection in the border procedure
	AsylumAppeal              State = "ASYLUM_APPEAL"               // Art. 67 APR
	BorderAppeal              State = "BORDER_APPEAL"               // Art. 67 APR, within Art. 51(2)
	Withdrawn                 State = "WITHDRAWN"                   // explicit or implicit withdrawal
	BorderWithdrawn           State = "BORDER_WITHDRAWN"            // withdrawal in the border procedure (Art. 37(2) AMMR)
	ProtectionGranted         State = "PROTECTION_GRANTED"          // terminal
	ReturnProcedure           State = "RETURN_PROCEDURE"            // Return Directive (outside the spec)
	ReturnBorderProcedure     State = "RETURN_BORDER_PROCEDURE"     // Art. 4 RBPR: at most 12 weeks
	NotReturned               State = "NOT_RETURNED"                // the RBPR period ended without return
	Returned                  State = "RETURNED"                    // terminal
	Closed372                 State = "CLOSED_37_2"                 // terminal: Art. 37(2) AMMR
)

type stateInfo struct {
	state      State
	label      string
	terminal   bool
	relocation Relocation
}

// stateInfos lists every state in flow order with its meaning (spec §8 "States"),
// whether it is terminal, and where it stands in the relocation steps.
var stateInfos = []stateInfo{
	{New, "New case, no event recorded", false, NotRelocating},
	{ArrivedSAR, "Disembarked after a search-and-rescue operation", false, NotRelocating},
	{ArrivedIrregular, "Apprehended after an irregular crossing of the external border", false, NotRelocating},
	{AtBCP, "Presented at a border crossing point without meeting the entry conditions", false, NotRelocating},
	{FoundInTerritory, "Found staying illegally within the territory", false, NotRelocating},
	{Screening, "Screening running (health, vulnerability, identity, security checks)", false, NotRelocating},
	{ReferredReturn, "No application made: referred to the return authorities", false, NotRelocating},
	{ApplicationMade, "Application for international protection made, not yet registered", false, NotRelocating},
	{Registered, "Application registered", false, NotRelocating},
	{SecurityResponsible, "Security threat found: this Member State is responsible, no relocation or transfer", false, Excluded},
	{Determination, "Responsibility determination (AMMR Part III) running", false, NotRelocating},
	{TCRSent, "Take charge request sent, awaiting the reply", false, NotRelocating},
	{TCRRejected, "Take charge request refused", false, NotRelocating},
	{TBNSent, "Take back notification sent, awaiting confirmation", false, NotRelocating},
	{HumanitarianSent, "Humanitarian-clause request sent, awaiting the reply", false, NotRelocating},
	{TransferAgreed, "Take charge accepted or take back confirmed (explicitly or tacitly)", false, NotRelocating},
	{TransferDecisionNotified, "Transfer decision notified, appeal window open", false, NotRelocating},
	{TransferAppeal, "Appeal against the transfer decision pending, transfer not suspended", false, NotRelocating},
	{TransferAppealSuspended, "Appeal against the transfer decision pending, transfer suspended", false, NotRelocating},
	{TransferPending, "Transfer to the responsible Member State to be carried out", false, NotRelocating},
	{TransferredOut, "Transferred to the responsible Member State", true, NotRelocating},
	{RelocationIdentified, "Identified as a candidate for relocation", false, Relocating},
	{RelocationSecurityCleared, "Relocation security check passed", false, Relocating},
	{RelocationInfoSent, "Information (including meaningful links) sent to the Member State of relocation", false, Relocating},
	{RelocationConfirmed, "Relocation confirmed by the Member State of relocation", false, Relocating},
	{RelocationTransferDecided, "Relocation transfer decision notified", false, Relocating},
	{RelocationAppeal, "Appeal against the relocation transfer decision pending, not suspended", false, Relocating},
	{RelocationAppealSuspended, "Appeal against the relocation transfer decision pending, transfer suspended", false, Relocating},
	{RelocatedOut, "Transferred to the Member State of relocation, arrival notice awaited", false, Relocated},
	{RelocationArrived, "Safe arrival in the Member State of relocation notified", true, Relocated},
	{RelocationNoShow, "Non-appearance in the Member State of relocation notified", true, Relocated},
	{ResponsibleSelf, "This Member State is responsible; examination to start", false, NotRelocating},
	{BorderProcedure, "Examination in the asylum border procedure", false, NotRelocating},
	{Admissibility, "Admissibility examination", false, NotRelocating},
	{Accelerated, "Accelerated examination", false, NotRelocating},
	{Normal, "Normal examination", false, NotRelocating},
	{Rejected, "Rejected at first instance; appeal window open", false, NotRelocating},
	{BorderRejected, "Rejected at first instance in the border procedure; appeal window open", false, NotRelocating},
	{AsylumAppeal, "Appeal against the asylum decision pending", false, NotRelocating},
	{BorderAppeal, "Appeal against a border-procedure decision pending", false, NotRelocating},
	{Withdrawn, "Application withdrawn", false, NotRelocating},
	{BorderWithdrawn, "Application withdrawn in the border procedure", false, NotRelocating},
	{ProtectionGranted, "International protection granted", true, NotRelocating},
	{ReturnProcedure, "Return procedure under the Return Directive", false, NotRelocating},
	{ReturnBorderProcedure, "Return border procedure", false, NotRelocating},
	{NotReturned, "Return border procedure over without return", false, NotRelocating},
	{Returned, "Returned", true, NotRelocating},
	{Closed372, "Responsibility ended 15 months after the final decision (Art. 37(2) AMMR)", true, NotRelocating},
}

var stateIndex = func() map[State]int {
	m := make(map[State]int, len(stateInfos))
	for i, s := range stateInfos {
		m[s.state] = i
	}
	return m
}()

// States returns every state in the order of the flow.
func States() []State {
	out := make([]State, len(stateInfos))
	for i, s := range stateInfos {
		out[i] = s.state
	}
	return out
}

// Valid reports whether s is a known state.
func (s State) Valid() bool { _, ok := stateIndex[s]; return ok }

// Terminal reports whether no event can follow s.
func (s State) Terminal() bool {
	i, ok := stateIndex[s]
	return ok && stateInfos[i].terminal
}

// Label returns what s means, for an officer.
func (s State) Label() string {
	if i, ok := stateIndex[s]; ok {
		return stateInfos[i].label
	}
	return string(s)
}

// Relocation is where a state stands in the relocation steps (Arts. 67–68 AMMR).
type Relocation int

const (
	// NotRelocating: no relocation under way; no Member State of relocation is
	// allocated the person (or it no longer is: leaving the steps other than by the
	// transfer ends the allocation, Art. 67(2) AMMR).
	NotRelocating Relocation = iota
	// Relocating: a step before the transfer (identified, cleared, confirmed, the
	// transfer decided or appealed): an allocation holds a place of the Member State
	// of relocation's pledge until the transfer.
	Relocating
	// Relocated: transferred to the Member State of relocation (Art. 68(1) AMMR); the
	// place is a delivery counted against its pledge, and the allocation stays.
	Relocated
	// Excluded: the security gate bars the person from any relocation or transfer
	// (Art. 67(2) AMMR): a family is relocated without them, and no allocation holds.
	Excluded
)

// InRelocation reports whether r is a relocation step (Relocating or Relocated):
// where the allocation to a Member State of relocation holds.
func (r Relocation) InRelocation() bool { return r == Relocating || r == Relocated }

// Relocation returns where s stands in the relocation steps (NotRelocating for an
// unknown state).
func (s State) Relocation() Relocation {
	if i, ok := stateIndex[s]; ok {
		return stateInfos[i].relocation
	}
	return NotRelocating
}

// States returns the states in phase r, in the order of the flow.
func (r Relocation) States() []State {
	var out []State
	for _, s := range stateInfos {
		if s.relocation == r {
			out = append(out, s.state)
		}
	}
	return out
}
