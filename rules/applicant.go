package rules

import (
	"time"

	"solidarity"
)

// Applicant is what the responsibility criteria need to know about one applicant, as
// established by the determining Member State. Facts dated after the application was
// first registered are not taken into account (AMMR Art. 24; Dublin III Art. 7(2)).
type Applicant struct {
	// BirthDate is the date of birth, or zero when unknown.
	BirthDate time.Time `json:"birth_date,omitzero"`
	// AssessedAge is the age in whole years found by an age assessment made on
	// AgeAssessedOn. It is used when BirthDate is zero and AgeAssessedOn is set, giving
	// the benefit of the doubt: the latest birth date consistent with it.
	AssessedAge   int       `json:"assessed_age,omitempty"`
	AgeAssessedOn time.Time `json:"age_assessed_on,omitzero"`
	// UnaccompaniedMinor records that the applicant arrived without the adult
	// responsible for them. It counts only while the applicant is a minor.
	UnaccompaniedMinor bool `json:"unaccompanied_minor,omitempty"`
	// Nationality is an ISO 3166-1 code (alpha-2 or alpha-3), or "" when unknown or
	// stateless. It is shown in explanations; no criterion depends on it.
	Nationality string `json:"nationality,omitempty"`

	Family           []FamilyMember   `json:"family,omitempty"`
	Documents        []Document       `json:"documents,omitempty"` // residence documents and visas
	Diplomas         []Diploma        `json:"diplomas,omitempty"`
	Stays            []Stay           `json:"stays,omitempty"` // prior stays in Member States
	IrregularEntries []IrregularEntry `json:"irregular_entries,omitempty"`
	VisaWaivedEntry  *VisaWaivedEntry `json:"visa_waived_entry,omitempty"`

	// Application is the application under determination. Its State is the determining
	// Member State: where it was registered or, after relocation, the Member State of
	// relocation (Art. 68(2)).
	Application Registration `json:"application"`
	// FirstRegistration is the first application registered in a Member State, when it
	// is not Application. The criteria apply to the situation at its date (Art. 24) and
	// the default criterion designates its State (Art. 16(2)).
	FirstRegistration *Registration `json:"first_registration,omitempty"`

	// SecurityThreat records that the security check under SR Art. 15 (or AMMR
	// Art. 16(4) when there was no screening) gave reasonable grounds to consider the
	// applicant a threat to internal security.
	SecurityThreat bool `json:"security_threat,omitempty"`
	// SecurityCheckState is the Member State that ran that check; "" means the Member
	// State of first registration.
	SecurityCheckState solidarity.MemberState `json:"security_check_state,omitempty"`

	// Relocation records a relocation under Art. 67. When Application.State is the
	// Member State of relocation, that state determines responsibility and leaves out
	// Arts. 16(2), 25(5), 29, 30 and 33(1)–(2), defaulting to itself (Art. 68(2));
	// a determination anywhere else takes it into account through Art. 33(3) only.
	Relocation *Relocation `json:"relocation,omitempty"`
	// TransferBarred lists the Member States to which a transfer would expose the
	// applicant to a real risk of inhuman or degrading treatment (Charter Art. 4;
	// AMMR Art. 16(3), Dublin III Art. 3(2)).
	TransferBarred []solidarity.MemberState `json:"transfer_barred,omitempty"`
	// BestInterestsState is the Member State chosen in the best interests of an
	// unaccompanied minor when family members or relatives are in several Member
	// States (Art. 25(4)); "" when no choice has been made.
	BestInterestsState solidarity.MemberState `json:"best_interests_state,omitempty"`
	// UnfitToTravel records that the applicant's state of health prevents travel for a
	// significant period (Art. 34(2)).
	UnfitToTravel bool `json:"unfit_to_travel,omitempty"`
}

// Registration is an application registered in a Member State.
type Registration struct {
	State solidarity.MemberState `json:"state"`
	Date  time.Time              `json:"date"`
	// TransitArea records that the application was made in the international transit
	// area of an airport of State (Art. 32).
	TransitArea bool `json:"transit_area,omitempty"`
}

// Relocation is a transfer of the applicant under Art. 67 to the Member State of
// relocation.
type Relocation struct {
	State solidarity.MemberState `json:"state"`
	Date  time.Time              `json:"date"`
}

// Relation is how a person is related to the applicant.
type Relation string

const (
	Spouse           Relation = "spouse"
	Partner          Relation = "partner" // unmarried partner in a stable relationship
	Child            Relation = "child"   // the applicant's child
	Parent           Relation = "parent"  // the applicant's father or mother
	ResponsibleAdult Relation = "responsible-adult"
	Sibling          Relation = "sibling"
	Relative         Relation = "relative" // adult aunt, uncle or grandparent (Art. 25(3))
)

var relations = []Relation{Spouse, Partner, Child, Parent, ResponsibleAdult, Sibling, Relative}

// Status is the legal situation of a family member in the Member State where they are.
type Status string

const (
	StatusBeneficiary    Status = "beneficiary"     // of international protection
	StatusApplicant      Status = "applicant"       // for international protection
	StatusLegallyPresent Status = "legally-present" // on another basis (residence permit)
	StatusIrregular      Status = "irregular"       // not legally present
	StatusUnknown        Status = ""
)

var statuses = []Status{StatusBeneficiary, StatusApplicant, StatusLegallyPresent, StatusIrregular, StatusUnknown}

// Dependency is the ground on which the applicant and a relative depend on each other
// (Art. 34(1)).
type Dependency string

const (
	Pregnancy        Dependency = "pregnancy"
	NewBorn          Dependency = "new-born"
	SeriousIllness   Dependency = "serious-illness"
	SevereDisability Dependency = "severe-disability"
	SevereTrauma     Dependency = "severe-trauma"
	OldAge           Dependency = "old-age"
)

var dependencies = []Dependency{"", Pregnancy, NewBorn, SeriousIllness, SevereDisability, SevereTrauma, OldAge}

// FamilyMember is a family member, sibling or relative of the applicant.
type FamilyMember struct {
	// Ref identifies the person in explanations (a case ID, "mother"); never a name.
	Ref       string                 `json:"ref,omitempty"`
	Relation  Relation               `json:"relation"`
	BirthDate time.Time              `json:"birth_date,omitzero"`
	State     solidarity.MemberState `json:"state,omitempty"` // where they are; "" outside the Member States or unknown
	Status    Status                 `json:"status,omitempty"`
	// FirstDecision records that the family member's application has had a first
	// decision on the substance (Art. 27).
	FirstDecision bool `json:"first_decision,omitempty"`
	// LinkInCountryOfOrigin: the family already existed in the country of origin
	// (Dublin III Art. 2(g)). It implies LinkBeforeArrival.
	LinkInCountryOfOrigin bool `json:"link_in_country_of_origin,omitempty"`
	// LinkBeforeArrival: the family already existed before the applicant arrived on
	// the territory of the Member States (AMMR Art. 2(8)).
	LinkBeforeArrival bool `json:"link_before_arrival,omitempty"`
	// ConsentInWriting: the persons concerned expressed their wish in writing
	// (Arts. 26, 27, 34).
	ConsentInWriting bool `json:"consent_in_writing,omitempty"`
	// NotInBestInterests: it was shown that bringing the unaccompanied minor to this
	// person is not in the best interests of the child (Art. 25(2)–(3)).
	NotInBestInterests bool `json:"not_in_best_interests,omitempty"`
	// CanTakeCare: an individual examination found the person able to take care of the
	// minor (Art. 25(3)) or of the dependent person (Art. 34(1)).
	CanTakeCare bool `json:"can_take_care,omitempty"`
	// Dependency is the ground of dependency between this person and the applicant
	// (Art. 34(1)), or "" when there is none.
	Dependency Dependency `json:"dependency,omitempty"`
	// JointApplication: the person applied in the Member State where the applicant's
	// application was first registered, at the same time or close enough for the
	// procedures to be conducted together (Art. 28); State is that Member State.
	JointApplication bool `json:"joint_application,omitempty"`
	// ResponsibleState is the Member State the criteria designate for this person's
	// own application, when known (Art. 28).
	ResponsibleState solidarity.MemberState `json:"responsible_state,omitempty"`
	Source           string                 `json:"source,omitempty"` // the evidence, e.g. "Eurodac hit", "marriage certificate"
}

// DocumentKind is the kind of a residence document or visa.
type DocumentKind string

const (
	ResidenceDocument  DocumentKind = "residence-document"
	LongStayVisa       DocumentKind = "long-stay-visa"       // national "D" visa
	ShortStayVisa      DocumentKind = "short-stay-visa"      // uniform "C" visa, including limited territorial validity
	AirportTransitVisa DocumentKind = "airport-transit-visa" // "A" visa
)

var documentKinds = []DocumentKind{ResidenceDocument, LongStayVisa, ShortStayVisa, AirportTransitVisa}

// IsVisa reports whether k is a kind of visa.
func (k DocumentKind) IsVisa() bool {
	return k == LongStayVisa || k == ShortStayVisa || k == AirportTransitVisa
}

// Document is a residence document or visa issued by a Member State (Art. 29).
type Document struct {
	Kind   DocumentKind           `json:"kind"`
	Issuer solidarity.MemberState `json:"issuer"`
	// IssuedFor is the represented Member State when Issuer issued the visa on its
	// behalf under a representation arrangement (Visa Code Art. 8; Art. 29(2)).
	IssuedFor solidarity.MemberState `json:"issued_for,omitempty"`
	ValidFrom time.Time              `json:"valid_from"`
	ValidTo   time.Time              `json:"valid_to"`
	// Withdrawn is the date the document was annulled, revoked or withdrawn, or zero.
	Withdrawn time.Time `json:"withdrawn,omitzero"`
	// FraudAfterIssue: the issuing Member State established a fraud committed after
	// the document was issued (Art. 29(5)).
	FraudAfterIssue bool   `json:"fraud_after_issue,omitempty"`
	Source          string `json:"source,omitempty"`
}

// Diploma is a diploma or other qualification issued by an education establishment in
// a Member State (Art. 30).
type Diploma struct {
	Issuer      solidarity.MemberState `json:"issuer"`
	Issued      time.Time              `json:"issued"`
	StudyMonths int                    `json:"study_months,omitempty"` // length of the studies, for Art. 30(2)
	Source      string                 `json:"source,omitempty"`
}

// Stay is a period the applicant lived in a Member State (Dublin III Art. 13(2)).
type Stay struct {
	State solidarity.MemberState `json:"state"`
	From  time.Time              `json:"from"`
	To    time.Time              `json:"to"` // zero: still there
}

// IrregularEntry is an irregular crossing of the external border into a Member State by
// land, sea or air from a third country (Art. 33(1)), or a disembarkation after a
// search-and-rescue operation when SAR is set (Art. 33(2)).
type IrregularEntry struct {
	State  solidarity.MemberState `json:"state"`
	Date   time.Time              `json:"date"`
	SAR    bool                   `json:"sar,omitempty"`
	Source string                 `json:"source,omitempty"` // e.g. "Eurodac Art. 24 record"
}

// VisaWaivedEntry is an entry into a Member State where the applicant did not need a
// visa (Art. 31).
type VisaWaivedEntry struct {
	State solidarity.MemberState `json:"state"`
	Date  time.Time              `json:"date"`
	// WaivedWhereRegistered: the applicant does not need a visa in the Member State of
	// first registration either (Art. 31, exception).
	WaivedWhereRegistered bool   `json:"waived_where_registered,omitempty"`
	Source                string `json:"source,omitempty"`
}

// first returns the first registration: FirstRegistration, or Application.
func (a *Applicant) first() Registration {
	if a.FirstRegistration != nil {
		return *a.FirstRegistration
	}
	return a.Application
}

// ReferenceDate is the date of the first registration of an application in a Member
// State. The criteria apply to the situation on that date (AMMR Art. 24; Dublin III
// Art. 7(2)) and it selects the regime (AMMR Art. 84).
func (a Applicant) ReferenceDate() time.Time { return civil(a.first().Date) }
