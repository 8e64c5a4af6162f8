package rules

import (
	"fmt"
	"time"

	"solidarity"
)

// Params holds every date and time limit the criteria use. The zero Params is the
// spec's values: a zero field takes its default (DefaultParams), and the boolean
// readings default to false. Periods are in months; a period in years is 12 months
// per year (Regulation 1182/71 ends both on the same-numbered day).
//
// Tags in the comments are those of responsibility-and-procedures.md: V verified,
// P partly verified, M memory only.
type Params struct {
	// AMMRApplies is the date from which the AMMR applies: 1 July 2026. Art. 84(3)
	// (implementation plans completed by then) read; Art. 85 not read: tag P.
	AMMRApplies time.Time `json:"ammr_applies"`
	// DublinIIIUntil is the switch date: an application first registered before it is
	// determined under Dublin III (AMMR Art. 84(2), tag V): 1 July 2026. An application
	// registered on the day itself is covered neither by Art. 84(1) ("after") nor by
	// Art. 84(2) ("before") (spec §0, §10 item 12, legal reading open): it is
	// determined under the AMMR and the Result says so for review. If DublinIIIUntil is
	// set before AMMRApplies, the days between follow the AMMR, also flagged.
	DublinIIIUntil time.Time `json:"dublin_iii_until"`

	// SARMonths: Art. 33(2) ceases if the application is registered more than 12
	// months after the disembarkation following a search-and-rescue operation (V).
	SARMonths int `json:"sar_months"`
	// EntryMonths: Art. 33(1) ceases if the application is registered more than 20
	// months after the irregular crossing (V).
	EntryMonths int `json:"entry_months"`
	// ExpiredResidenceMonths: a residence document that expired or was annulled,
	// revoked or withdrawn less than 3 years (36 months) before registration still
	// counts, beside any valid document: Art. 29(4) makes paragraphs 1–3 apply to it and
	// has no "only" (V).
	ExpiredResidenceMonths int `json:"expired_residence_months"`
	// ExpiredVisaMonths: the same for a visa, less than 18 months (Art. 29(4), V).
	ExpiredVisaMonths int `json:"expired_visa_months"`
	// DiplomaMonths: the diploma criterion needs the application registered less than
	// 6 years (72 months) after the diploma was issued (Art. 30(1), V).
	DiplomaMonths int `json:"diploma_months"`
	// AdultAge is the age of majority, 18: a minor is below it. The AMMR Art. 2
	// definition was not read (M).
	AdultAge int `json:"adult_age"`

	// DublinEntryMonths: Dublin III Art. 13(1) ceases 12 months after the irregular
	// crossing (V). A SAR disembarkation counts as an irregular crossing under Dublin
	// III: assumed by the spec (§9, §10 item 14, M).
	DublinEntryMonths int `json:"dublin_entry_months"`
	// DublinStayMonths: Dublin III Art. 13(2), a continuous stay of at least 5 months
	// (V).
	DublinStayMonths int `json:"dublin_stay_months"`
	// DublinExpiredResidenceMonths: Dublin III Art. 12(4), residence documents expired
	// less than 2 years (24 months) before, counted only when the applicant holds no
	// valid document ("in possession only of") (V via a secondary source).
	DublinExpiredResidenceMonths int `json:"dublin_expired_residence_months"`
	// DublinExpiredVisaMonths: Dublin III Art. 12(4), visas expired less than 6 months
	// before (V via a secondary source).
	DublinExpiredVisaMonths int `json:"dublin_expired_visa_months"`

	// FamilyLinkInCountryOfOrigin makes the AMMR family criteria require the family to
	// have existed in the country of origin, as Dublin III did. The default (false)
	// reads AMMR Art. 2(8) as "before the applicant arrived on the territory"; the
	// spec has this from memory and a cut-off text (P/M, §9, §10 item 4).
	FamilyLinkInCountryOfOrigin bool `json:"family_link_in_country_of_origin,omitempty"`
	// SiblingsAreFamilyMembers counts siblings as family members for Arts. 26–28 under
	// the AMMR. The default (false) follows Dublin III Art. 2(g) and the spec, which
	// names siblings beside family members in Art. 25(2); AMMR Art. 2(8) was not read
	// in full (P) and is recalled by some to add siblings (unverified).
	SiblingsAreFamilyMembers bool `json:"siblings_are_family_members,omitempty"`
}

// DefaultParams returns the spec's values.
func DefaultParams() Params {
	switchDate := time.Date(2026, time.July, 1, 0, 0, 0, 0, time.UTC)
	return Params{
		AMMRApplies:                  switchDate,
		DublinIIIUntil:               switchDate,
		SARMonths:                    12,
		EntryMonths:                  20,
		ExpiredResidenceMonths:       36,
		ExpiredVisaMonths:            18,
		DiplomaMonths:                72,
		AdultAge:                     18,
		DublinEntryMonths:            12,
		DublinStayMonths:             5,
		DublinExpiredResidenceMonths: 24,
		DublinExpiredVisaMonths:      6,
	}
}

// withDefaults returns p with every zero field set to its default.
func (p Params) withDefaults() Params {
	d := DefaultParams()
	if p.AMMRApplies.IsZero() {
		p.AMMRApplies = d.AMMRApplies
	}
	if p.DublinIIIUntil.IsZero() {
		p.DublinIIIUntil = d.DublinIIIUntil
	}
	for _, f := range []struct{ v, d *int }{
		{&p.SARMonths, &d.SARMonths}, {&p.EntryMonths, &d.EntryMonths},
		{&p.ExpiredResidenceMonths, &d.ExpiredResidenceMonths}, {&p.ExpiredVisaMonths, &d.ExpiredVisaMonths},
		{&p.DiplomaMonths, &d.DiplomaMonths}, {&p.AdultAge, &d.AdultAge},
		{&p.DublinEntryMonths, &d.DublinEntryMonths}, {&p.DublinStayMonths, &d.DublinStayMonths},
		{&p.DublinExpiredResidenceMonths, &d.DublinExpiredResidenceMonths},
		{&p.DublinExpiredVisaMonths, &d.DublinExpiredVisaMonths},
	} {
		if *f.v == 0 {
			*f.v = *f.d
		}
	}
	p.AMMRApplies = civil(p.AMMRApplies)
	p.DublinIIIUntil = civil(p.DublinIIIUntil)
	return p
}

// Validate reports a negative or absurd parameter as an *solidarity.Error with code
// EINVALID naming the field. Zero fields are valid: they take their defaults.
func (p Params) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{
		{"sar_months", p.SARMonths}, {"entry_months", p.EntryMonths},
		{"expired_residence_months", p.ExpiredResidenceMonths}, {"expired_visa_months", p.ExpiredVisaMonths},
		{"diploma_months", p.DiplomaMonths}, {"adult_age", p.AdultAge},
		{"dublin_entry_months", p.DublinEntryMonths}, {"dublin_stay_months", p.DublinStayMonths},
		{"dublin_expired_residence_months", p.DublinExpiredResidenceMonths},
		{"dublin_expired_visa_months", p.DublinExpiredVisaMonths},
	} {
		if f.v < 0 || f.v > 1200 {
			return &solidarity.Error{Code: solidarity.EINVALID, Field: f.name,
				Message: fmt.Sprintf("%d is not a period between 0 and 1200", f.v)}
		}
	}
	return nil
}
