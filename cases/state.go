package cases

import "solidarity/cases/state"

// State is where a case stands. The type and what each state means live in package
// cases/state, which imports nothing of the module, so that the root package can hold
// a case's state as a State (this package builds its errors on the root package and
// so cannot be imported by it); every state is named here too, so that callers need
// only package cases.
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
	Excluded      = state.Excluded
)

// States returns every state in the order of the flow.
func States() []State { return state.States() }
