package arrival_test

import (
	"testing"
	"time"

	"solidarity/rules"
)

// TestApplicant checks the rules' view of each person of the example list, and that it
// passes rules.Validate.
func TestApplicant(t *testing.T) {
	l := mustParse(t, "ship.csv")
	day := time.Date(2024, 9, 14, 0, 0, 0, 0, time.UTC)
	registered := time.Date(2024, 9, 16, 10, 0, 0, 0, time.UTC)
	for i := range l.Persons {
		p := &l.Persons[i]
		a := p.Applicant(l.Arrival, registered)
		if err := rules.Validate(a); err != nil {
			t.Fatalf("%s: %v", p.Ref, err)
		}
		if a.BirthDate != p.BirthDate || a.AssessedAge != p.AssessedAge || a.Nationality != p.Nationality ||
			a.UnaccompaniedMinor != p.UnaccompaniedMinor || a.SecurityThreat != p.SecurityFlag ||
			len(a.Family) != len(p.Relatives) || len(a.Documents) != len(p.Documents) ||
			len(a.Diplomas) != len(p.Diplomas) || len(a.Stays) != len(p.PriorStays) {
			t.Fatalf("%s: applicant %+v", p.Ref, a)
		}
		if p.AssessedAge != 0 && !a.AgeAssessedOn.Equal(day) || p.AssessedAge == 0 && !a.AgeAssessedOn.IsZero() {
			t.Fatalf("%s: age assessed on %v", p.Ref, a.AgeAssessedOn)
		}
		want := rules.IrregularEntry{State: "IT", Date: day, SAR: true, Source: "disembarkation Example Star (fictional) at Pozzallo"}
		if len(a.IrregularEntries) != 1 || a.IrregularEntries[0] != want {
			t.Fatalf("%s: entries %+v", p.Ref, a.IrregularEntries)
		}
		if a.Application != (rules.Registration{State: "IT", Date: registered}) || a.FirstRegistration != nil {
			t.Fatalf("%s: application %+v", p.Ref, a.Application)
		}
		if len(a.Family) > 0 {
			a.Family[0].Status = rules.StatusIrregular
			if p.Relatives[0].Status == rules.StatusIrregular {
				t.Fatalf("%s: the applicant shares the person's relatives", p.Ref)
			}
		}
	}
	// The unaccompanied minor of the list is one for the rules, on the arrival date.
	minor := l.Persons[5]
	if !minor.UnaccompaniedMinor || !minor.Minor(day) {
		t.Fatalf("P006 is not an unaccompanied minor")
	}
}
