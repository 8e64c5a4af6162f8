package arrival

import (
	"slices"
	"time"

	"solidarity"
	"solidarity/rules"
)

// Applicant returns the rules' view of the person who arrived with a and whose
// application was registered on registered: the facts of the person, the
// disembarkation as the irregular entry (Art. 33(1), or 33(2) after a search-and-rescue
// operation) and the application registered in the benefitting Member State. An
// assessed age counts as assessed on the arrival date. The slices are copies.
//
// For a person of a list that passes Validate, and registered on or after the arrival
// date, the result passes rules.Validate.
func (p *Person) Applicant(a solidarity.Arrival, registered time.Time) rules.Applicant {
	day := civil(a.At)
	ap := rules.Applicant{
		BirthDate:          p.BirthDate,
		AssessedAge:        p.AssessedAge,
		UnaccompaniedMinor: p.UnaccompaniedMinor,
		Nationality:        p.Nationality,
		Family:             slices.Clone(p.Relatives),
		Documents:          slices.Clone(p.Documents),
		Diplomas:           slices.Clone(p.Diplomas),
		Stays:              slices.Clone(p.PriorStays),
		IrregularEntries: []rules.IrregularEntry{{
			State:  a.Benefitting,
			Date:   day,
			SAR:    a.SAR,
			Source: "disembarkation " + a.Vessel + " at " + a.Port,
		}},
		Application:    rules.Registration{State: a.Benefitting, Date: registered},
		SecurityThreat: p.SecurityFlag,
	}
	if p.AssessedAge != 0 {
		// Only with an age: an assessment date alone would read as "assessed 0 years".
		ap.AgeAssessedOn = day
	}
	return ap
}
