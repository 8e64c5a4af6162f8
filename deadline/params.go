package deadline

import (
	"fmt"
	"slices"
	"time"

	"solidarity"
)

// Params holds every time limit the project is not sure of (tags P, R, S, U), the
// national choices, and the switches. The zero Params is the spec's values: a zero
// period takes its default (DefaultParams). Limits tagged V are in the catalogue
// (Limits) and are not parameters.
//
// Tags in the comments are those of the spec, with the project's letters: the
// responsibility spec's M (memory only) is R (recalled), as in package rules.
type Params struct {
	// Crisis applies the derogations of Regulation (EU) 2024/1359 (CR), which only a
	// Council implementing decision authorises for a Member State and a period: 4 weeks
	// to register (Art. 10), 4 months / 2 months / 1 month / 1 year for take charge,
	// reply, take back and transfer (Art. 12(2)), +6 weeks of border procedure
	// (Art. 11(1)). Set it when computing for a Member State and time it covers.
	Crisis bool `json:"crisis,omitempty"`
	// RollOver applies Regulation 1182/71 Art. 3(4)–(5): a period (other than in
	// hours) whose last day is a Saturday, Sunday or public holiday ends on the next
	// working day, and a period of two days or more holds two working days. Off by
	// default: the spec has 1182/71 from memory (M) and whether a court would apply
	// it to these acts was not checked; without it no due date is later than the
	// nominal one.
	RollOver bool `json:"roll_over,omitempty"`
	// DublinIIIUntil: an application registered before this date follows Dublin III
	// (AMMR Art. 84(2), V): its take charge, reply, take back and transfer time limits
	// are those of Regulation 604/2013 (spec §9; that Art. 84(2) carries the time
	// limits as well as the criteria is the project's reading, R). Default 1 July 2026,
	// as in package rules. An application registered on the day follows the AMMR.
	DublinIIIUntil time.Time `json:"dublin_iii_until,omitzero"`
	// Holidays are the public holidays of the Member State that must act, for working
	// days (Art. 35(1) APR) and RollOver. Only their dates count.
	Holidays []time.Time `json:"holidays,omitempty"`

	// InlandScreening: screening within the territory, 3 days (Art. 8(4) SR; P, the
	// paragraph was cut off). Row 5.
	InlandScreening Period `json:"inland_screening,omitzero"`
	// Registration of an application, 5 days (Art. 27 APR; R). Row 6.
	Registration Period `json:"registration,omitzero"`
	// TransferAppeal: the appeal window against a transfer decision, which each
	// Member State sets between 1 and 3 weeks (Art. 43(2) AMMR; V for the range).
	// Default 3 weeks, the longest: no transfer is treated as unappealable early.
	// Row 13 and 13a.
	TransferAppeal Period `json:"transfer_appeal,omitzero"`
	// DetainedTransfer: the outer limit of the transfer of a detained person (Art.
	// 45(3) AMMR; P: not read; Dublin III had 6 weeks). Zero, the default, leaves the
	// 6 months of Art. 46(1). Row 14b.
	DetainedTransfer Period `json:"detained_transfer,omitzero"`
	// TransferImprisonment: the transfer time limit when the person is imprisoned,
	// 1 year (Art. 46(2) AMMR; R, text not retrieved). Row 14a.
	TransferImprisonment Period `json:"transfer_imprisonment,omitzero"`
	// TransferAbsconding: when the person absconds, physically resists, makes
	// themselves unfit or refuses medical requirements, 3 years (Art. 46(2) AMMR; R).
	// Row 14a.
	TransferAbsconding Period `json:"transfer_absconding,omitzero"`
	// BorderProcedure: the asylum border procedure in total, 12 weeks from
	// registration (Art. 51(2) APR; P). In weeks. Row 20.
	BorderProcedure Period `json:"border_procedure,omitzero"`
	// BorderRelocation: the border procedure when the applicant is relocated,
	// 16 weeks (Arts. 51(2), 52(2) APR; P). In weeks. Row 20a.
	BorderRelocation Period `json:"border_relocation,omitzero"`
	// NormalExamination: the normal procedure, 6 months from lodging (Art. 35(4) APR;
	// P). Row 24.
	NormalExamination Period `json:"normal_examination,omitzero"`
	// NormalExtended: the normal procedure once extended on one of the three grounds,
	// 12 months (6 + 6; Art. 35(5) APR; P). Row 24.
	NormalExtended Period `json:"normal_extended,omitzero"`
	// NormalMaximum: the absolute maximum of the normal procedure, 21 months (Art. 35
	// APR; R). Row 24a.
	NormalMaximum Period `json:"normal_maximum,omitzero"`
	// AppealShort: time to appeal a decision of inadmissibility, implicit withdrawal,
	// or in the accelerated or border procedure: 5 to 10 days, set nationally (Art.
	// 67(7) APR; R). Default 10 days. Row 25.
	AppealShort Period `json:"appeal_short,omitzero"`
	// AppealLong: time to appeal in other cases: 2 weeks to 1 month (Art. 67(7) APR;
	// R). Default 1 month. Row 25.
	AppealLong Period `json:"appeal_long,omitzero"`
	// Appeal decision times at first level, from the Irish implementation of the APR
	// (IE International Protection Act 2026 s.197; P): inadmissibility 2 months,
	// accelerated 3 months, other cases 6 months (border: within row 20). Row 26.
	AppealDecisionInadmissible Period `json:"appeal_decision_inadmissible,omitzero"`
	AppealDecisionAccelerated  Period `json:"appeal_decision_accelerated,omitzero"`
	AppealDecisionOther        Period `json:"appeal_decision_other,omitzero"`
	// Relocation steps (Art. 67 AMMR; solidarity-mechanism.md §2.7 rules 43–44; all
	// R): confirmation by the Member State of relocation within 1 week, 2 in complex
	// cases; transfer decision within 1 week of confirmation; transfer within 4 weeks
	// of confirmation or of the final decision on an appeal with suspensive effect.
	RelocationConfirmation        Period `json:"relocation_confirmation,omitzero"`
	RelocationConfirmationComplex Period `json:"relocation_confirmation_complex,omitzero"`
	RelocationTransferDecision    Period `json:"relocation_transfer_decision,omitzero"`
	RelocationTransfer            Period `json:"relocation_transfer,omitzero"`

	ready       bool    // Prepare has run
	holidays    []int32 // Holidays as day numbers since 1970-01-01, sorted
	dublinUntil int     // DublinIIIUntil as a day number
}

// DefaultParams returns the spec's values.
func DefaultParams() Params {
	return Params{
		DublinIIIUntil:                time.Date(2026, time.July, 1, 0, 0, 0, 0, time.UTC),
		InlandScreening:               D(3),
		Registration:                  D(5),
		TransferAppeal:                W(3),
		TransferImprisonment:          M(12),
		TransferAbsconding:            M(36),
		BorderProcedure:               W(12),
		BorderRelocation:              W(16),
		NormalExamination:             M(6),
		NormalExtended:                M(12),
		NormalMaximum:                 M(21),
		AppealShort:                   D(10),
		AppealLong:                    M(1),
		AppealDecisionInadmissible:    M(2),
		AppealDecisionAccelerated:     M(3),
		AppealDecisionOther:           M(6),
		RelocationConfirmation:        W(1),
		RelocationConfirmationComplex: W(2),
		RelocationTransferDecision:    W(1),
		RelocationTransfer:            W(4),
	}
}

// paramID names a period field of Params.
type paramID uint8

const (
	noParam paramID = iota
	pInlandScreening
	pRegistration
	pTransferAppeal
	pDetainedTransfer
	pTransferImprisonment
	pTransferAbsconding
	pBorderProcedure
	pBorderRelocation
	pNormalExamination
	pNormalExtended
	pNormalMaximum
	pAppealShort
	pAppealLong
	pAppealDecisionInadmissible
	pAppealDecisionAccelerated
	pAppealDecisionOther
	pRelocationConfirmation
	pRelocationConfirmationComplex
	pRelocationTransferDecision
	pRelocationTransfer
	pBorderCrisis // BorderProcedure + 6 weeks (Art. 11(1) CR): not a field of its own
)

// ptr returns the field id names.
func (p *Params) ptr(id paramID) *Period {
	switch id {
	case pInlandScreening:
		return &p.InlandScreening
	case pRegistration:
		return &p.Registration
	case pTransferAppeal:
		return &p.TransferAppeal
	case pDetainedTransfer:
		return &p.DetainedTransfer
	case pTransferImprisonment:
		return &p.TransferImprisonment
	case pTransferAbsconding:
		return &p.TransferAbsconding
	case pBorderProcedure:
		return &p.BorderProcedure
	case pBorderRelocation:
		return &p.BorderRelocation
	case pNormalExamination:
		return &p.NormalExamination
	case pNormalExtended:
		return &p.NormalExtended
	case pNormalMaximum:
		return &p.NormalMaximum
	case pAppealShort:
		return &p.AppealShort
	case pAppealLong:
		return &p.AppealLong
	case pAppealDecisionInadmissible:
		return &p.AppealDecisionInadmissible
	case pAppealDecisionAccelerated:
		return &p.AppealDecisionAccelerated
	case pAppealDecisionOther:
		return &p.AppealDecisionOther
	case pRelocationConfirmation:
		return &p.RelocationConfirmation
	case pRelocationConfirmationComplex:
		return &p.RelocationConfirmationComplex
	case pRelocationTransferDecision:
		return &p.RelocationTransferDecision
	case pRelocationTransfer:
		return &p.RelocationTransfer
	}
	return nil
}

// period returns the value of parameter id.
func (p *Params) period(id paramID) Period {
	if id == pBorderCrisis {
		return Period{p.BorderProcedure.N + 6, p.BorderProcedure.Unit}
	}
	if v := p.ptr(id); v != nil {
		return *v
	}
	return Period{}
}

// field is one period parameter: its JSON name and the range the law allows (none
// when lo is zero) and the units it may be given in (any when nil).
type field struct {
	id     paramID
	name   string
	lo, hi Period
	units  []Unit
}

var fields = []field{
	{pInlandScreening, "inland_screening", Period{}, Period{}, nil},
	{pRegistration, "registration", Period{}, Period{}, nil},
	{pTransferAppeal, "transfer_appeal", W(1), W(3), nil},
	{pDetainedTransfer, "detained_transfer", Period{}, Period{}, nil},
	{pTransferImprisonment, "transfer_imprisonment", Period{}, Period{}, nil},
	{pTransferAbsconding, "transfer_absconding", Period{}, Period{}, nil},
	{pBorderProcedure, "border_procedure", Period{}, Period{}, []Unit{Weeks}},
	{pBorderRelocation, "border_relocation", Period{}, Period{}, []Unit{Weeks}},
	{pNormalExamination, "normal_examination", Period{}, Period{}, nil},
	{pNormalExtended, "normal_extended", Period{}, Period{}, nil},
	{pNormalMaximum, "normal_maximum", Period{}, Period{}, nil},
	{pAppealShort, "appeal_short", D(5), D(10), nil},
	{pAppealLong, "appeal_long", W(2), M(1), nil},
	{pAppealDecisionInadmissible, "appeal_decision_inadmissible", Period{}, Period{}, nil},
	{pAppealDecisionAccelerated, "appeal_decision_accelerated", Period{}, Period{}, nil},
	{pAppealDecisionOther, "appeal_decision_other", Period{}, Period{}, nil},
	{pRelocationConfirmation, "relocation_confirmation", Period{}, Period{}, nil},
	{pRelocationConfirmationComplex, "relocation_confirmation_complex", Period{}, Period{}, nil},
	{pRelocationTransferDecision, "relocation_transfer_decision", Period{}, Period{}, nil},
	{pRelocationTransfer, "relocation_transfer", Period{}, Period{}, nil},
}

// Prepare returns p with every zero period set to its default and the holidays
// indexed. Compute prepares its Params on every call; prepare them once when computing
// the deadlines of many cases. A prepared Params must not have its fields changed.
func (p Params) Prepare() Params {
	if p.ready {
		return p
	}
	d := DefaultParams()
	for _, f := range fields {
		if v := p.ptr(f.id); v.IsZero() {
			*v = *d.ptr(f.id)
		}
	}
	p.holidays = nil
	for _, h := range p.Holidays {
		p.holidays = append(p.holidays, dayNumber(Civil(h)))
	}
	slices.Sort(p.holidays)
	if p.DublinIIIUntil.IsZero() {
		p.DublinIIIUntil = d.DublinIIIUntil
	}
	p.dublinUntil = civilDays(p.DublinIIIUntil)
	p.ready = true
	return p
}

// Validate reports a period with an unknown unit, a negative or absurd length, or a
// value outside the range the law allows, as a *solidarity.Error with code EINVALID
// naming the field. Zero periods are valid: they take their defaults.
func (p Params) Validate() error {
	for _, f := range fields {
		v := *p.ptr(f.id)
		if v.IsZero() {
			continue
		}
		bad := func(format string, args ...any) error {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: f.name,
				Message: fmt.Sprintf("%q: ", v.String()) + fmt.Sprintf(format, args...)}
		}
		switch v.Unit {
		case Hours, Days, WorkingDays, Weeks, Months:
		default:
			return bad("unknown unit %q (want h, d, wd, w or m)", v.Unit)
		}
		if v.N <= 0 || v.days() > 100*366 {
			return bad("not a period between 1 day and 100 years")
		}
		if f.units != nil && !contains(f.units, v.Unit) {
			return bad("must be given in %s", unitWords(f.units))
		}
		if !f.lo.IsZero() && (v.days() < f.lo.days()-1e-9 || v.days() > f.hi.days()+1e-9) {
			return bad("outside the range the law allows, %s to %s", f.lo.Words(), f.hi.Words())
		}
	}
	return nil
}

func contains(us []Unit, u Unit) bool {
	for _, x := range us {
		if x == u {
			return true
		}
	}
	return false
}

func unitWords(us []Unit) string {
	s := ""
	for i, u := range us {
		if i > 0 {
			s += " or "
		}
		s += Period{2, u}.Words()[2:]
	}
	return s
}
