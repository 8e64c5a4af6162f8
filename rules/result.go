package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"solidarity"
)

// Regime is the set of rules that determines responsibility for an application.
type Regime string

const (
	AMMR      Regime = "ammr"       // Regulation (EU) 2024/1351, Part III
	DublinIII Regime = "dublin-iii" // Regulation (EU) No 604/2013, Chapters III–IV
)

// Act returns the title of the regulation behind r.
func (r Regime) Act() string {
	if r == DublinIII {
		return "Regulation (EU) No 604/2013 (Dublin III)"
	}
	return "Regulation (EU) 2024/1351 (AMMR)"
}

// Criterion names a rule that can designate the Member State responsible. The same
// criterion carries the AMMR article or the Dublin III article depending on the regime.
type Criterion string

const (
	Security           Criterion = "security"            // AMMR Art. 16(4); none in Dublin III
	UnaccompaniedMinor Criterion = "unaccompanied-minor" // AMMR Art. 25; Dublin III Art. 8
	FamilyBeneficiary  Criterion = "family-beneficiary"  // AMMR Art. 26; Dublin III Art. 9
	FamilyApplicant    Criterion = "family-applicant"    // AMMR Art. 27; Dublin III Art. 10
	FamilyProcedure    Criterion = "family-procedure"    // AMMR Art. 28; Dublin III Art. 11
	DependentPersons   Criterion = "dependent-persons"   // AMMR Art. 34; Dublin III Art. 16
	Documents          Criterion = "documents"           // AMMR Art. 29; Dublin III Art. 12
	Diplomas           Criterion = "diplomas"            // AMMR Art. 30; none in Dublin III
	VisaWaived         Criterion = "visa-waived"         // AMMR Art. 31; Dublin III Art. 14
	TransitArea        Criterion = "transit-area"        // AMMR Art. 32; Dublin III Art. 15
	Entry              Criterion = "entry"               // AMMR Art. 33; Dublin III Art. 13(1)
	ContinuousStay     Criterion = "continuous-stay"     // Dublin III Art. 13(2); removed by the AMMR
	FirstRegistration  Criterion = "first-registration"  // AMMR Art. 16(2); Dublin III Art. 3(2)
	RelocationDefault  Criterion = "relocation"          // AMMR Art. 68(2)
	TransferImpossible Criterion = "transfer-impossible" // AMMR Art. 16(3); Dublin III Art. 3(2)
	// InvalidInput is the criterion of a Result for an applicant that fails Validate.
	InvalidInput Criterion = "invalid-input"
)

var labels = map[Criterion]string{
	Security:           "Security gate",
	UnaccompaniedMinor: "Unaccompanied minor",
	FamilyBeneficiary:  "Family member who is a beneficiary of international protection",
	FamilyApplicant:    "Family member who is an applicant",
	FamilyProcedure:    "Family procedure",
	DependentPersons:   "Dependent persons",
	Documents:          "Residence documents and visas",
	Diplomas:           "Diplomas or qualifications",
	VisaWaived:         "Visa-waived entry",
	TransitArea:        "Application in an international transit area",
	Entry:              "Entry",
	ContinuousStay:     "Continuous stay",
	FirstRegistration:  "First registration (default)",
	RelocationDefault:  "Member State of relocation (default after relocation)",
	TransferImpossible: "No transfer possible: the determining Member State",
	InvalidInput:       "Invalid input",
}

// Label returns the name of c as an officer reads it.
func (c Criterion) Label() string {
	if l, ok := labels[c]; ok {
		return l
	}
	return string(c)
}

var (
	ammrOrder = []Criterion{Security, UnaccompaniedMinor, FamilyBeneficiary, FamilyApplicant, FamilyProcedure,
		DependentPersons, Documents, Diplomas, VisaWaived, TransitArea, Entry, FirstRegistration, RelocationDefault,
		TransferImpossible}
	dublinOrder = []Criterion{UnaccompaniedMinor, FamilyBeneficiary, FamilyApplicant, FamilyProcedure,
		DependentPersons, Documents, Entry, ContinuousStay, VisaWaived, TransitArea, FirstRegistration,
		TransferImpossible}
)

// Hierarchy returns the criteria of r in the order Determine examines them (AMMR
// Art. 24(1) and Art. 16; Dublin III Art. 7(1) and Art. 3(2)). The last one always
// applies, so a walk always ends. Dependent persons (Art. 34, outside the ordered list)
// sits after the family criteria, where the spec suggests pending legal review.
func Hierarchy(r Regime) []Criterion { return slices.Clone(order(r)) }

func order(r Regime) []Criterion {
	if r == DublinIII {
		return dublinOrder
	}
	return ammrOrder
}

// Evidence is one fact of the applicant that a finding relied on.
type Evidence struct {
	Field string `json:"field"` // JSON path in the Applicant: "irregular_entries[0]"
	Fact  string `json:"fact"`  // what it shows, for an officer
}

// Finding is the outcome of one criterion for one applicant.
type Finding struct {
	Criterion Criterion              `json:"criterion"`
	Article   string                 `json:"article"`
	Certainty solidarity.Certainty   `json:"certainty"`
	Applies   bool                   `json:"applies"`
	State     solidarity.MemberState `json:"state,omitempty"` // the Member State designated, when it applies
	Reason    string                 `json:"reason"`
	Evidence  []Evidence             `json:"evidence,omitempty"`
	Details   []string               `json:"details,omitempty"` // why individual facts did not count
	Notes     []string               `json:"notes,omitempty"`
	Review    []string               `json:"review,omitempty"` // what an officer must decide or check
}

// NotApplied is a criterion examined before the one that applied, and why it did not.
type NotApplied struct {
	Criterion Criterion `json:"criterion"`
	Article   string    `json:"article"`
	Reason    string    `json:"reason"`
	Details   []string  `json:"details,omitempty"`
}

// Result is the determination of the Member State responsible for one application.
type Result struct {
	Regime Regime `json:"regime"`
	// Registered is the reference date: the first registration of an application.
	Registered   time.Time              `json:"registered,omitzero"`
	RegisteredIn solidarity.MemberState `json:"registered_in,omitempty"` // the Member State of first registration
	Determining  solidarity.MemberState `json:"determining,omitempty"`
	Responsible  solidarity.MemberState `json:"responsible,omitempty"`
	Criterion    Criterion              `json:"criterion"`
	Article      string                 `json:"article,omitempty"`
	Certainty    solidarity.Certainty   `json:"certainty,omitempty"`
	Reason       string                 `json:"reason"`
	Evidence     []Evidence             `json:"evidence,omitempty"`
	NotApplied   []NotApplied           `json:"not_applied"` // in hierarchy order
	Notes        []string               `json:"notes,omitempty"`
	Review       []string               `json:"review,omitempty"`
	// Error and ErrorField describe invalid input (Criterion InvalidInput).
	Error      string `json:"error,omitempty"`
	ErrorField string `json:"error_field,omitempty"`
}

// ReasonNotApplied returns the recorded reason for a criterion that did not apply,
// or "" when c is not among r.NotApplied.
func (r *Result) ReasonNotApplied(c Criterion) string {
	for _, n := range r.NotApplied {
		if n.Criterion == c {
			return n.Reason
		}
	}
	return ""
}

// Explain renders r as plain text for an officer.
func (r *Result) Explain() string {
	var b strings.Builder
	if r.Criterion == InvalidInput {
		fmt.Fprintf(&b, "No determination: the case data is invalid.\n")
		if r.ErrorField != "" {
			fmt.Fprintf(&b, "Field: %s\n", r.ErrorField)
		}
		fmt.Fprintf(&b, "Problem: %s\n", r.Error)
		return b.String()
	}
	fmt.Fprintf(&b, "Responsibility determination under %s\n", r.Regime.Act())
	fmt.Fprintf(&b, "Application first registered in %s on %s; determining Member State: %s.\n\n",
		stateName(r.RegisteredIn), fmtDate(r.Registered), stateName(r.Determining))
	fmt.Fprintf(&b, "Member State responsible: %s\n", stateName(r.Responsible))
	fmt.Fprintf(&b, "Criterion: %s, %s [%s]\n", r.Criterion.Label(), r.Article, certaintyWord(r.Certainty))
	fmt.Fprintf(&b, "Reason: %s\n", r.Reason)
	if len(r.Evidence) > 0 {
		b.WriteString("Evidence used:\n")
		for _, e := range r.Evidence {
			fmt.Fprintf(&b, "  - %s: %s\n", e.Field, e.Fact)
		}
	}
	if len(r.NotApplied) > 0 {
		b.WriteString("\nCriteria examined before it, which did not apply:\n")
		for i, n := range r.NotApplied {
			fmt.Fprintf(&b, "  %d. %s (%s): %s\n", i+1, n.Criterion.Label(), n.Article, n.Reason)
			for _, d := range n.Details {
				fmt.Fprintf(&b, "       - %s\n", d)
			}
		}
	}
	if len(r.Notes) > 0 {
		b.WriteString("\nNotes:\n")
		for _, n := range r.Notes {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	if len(r.Review) > 0 {
		b.WriteString("\nFor the officer to check:\n")
		for _, n := range r.Review {
			fmt.Fprintf(&b, "  - %s\n", n)
		}
	}
	return b.String()
}

func stateName(m solidarity.MemberState) string {
	if m == "" {
		return "(none)"
	}
	return fmt.Sprintf("%s (%s)", m.Name(), m)
}

func certaintyWord(c solidarity.Certainty) string {
	switch c {
	case "V":
		return "V: rule read in the legal text"
	case "P":
		return "P: rule partly read in the legal text"
	case "R":
		return "R: rule recalled, not checked against the text"
	case "S":
		return "S: rule from a secondary source"
	}
	return string(c)
}
