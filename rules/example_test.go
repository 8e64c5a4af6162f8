package rules_test

import (
	"fmt"

	"solidarity/rules"
)

// A person disembarked in Catania after a search-and-rescue operation, whose spouse
// lives in Germany without protection status, and who once held a French visa.
func ExampleDetermine() {
	a := rules.Applicant{
		BirthDate:   d("1996-02-11"),
		Nationality: "ERI",
		Application: rules.Registration{State: "IT", Date: d("2026-08-27")},
		IrregularEntries: []rules.IrregularEntry{
			{State: "IT", Date: d("2026-08-24"), SAR: true, Source: "Eurodac Art. 24 record"},
		},
		Family: []rules.FamilyMember{
			{Ref: "F-2", Relation: rules.Spouse, State: "DE", Status: rules.StatusLegallyPresent, LinkInCountryOfOrigin: true},
		},
		Documents: []rules.Document{
			{Kind: rules.ShortStayVisa, Issuer: "FR", ValidFrom: d("2023-04-01"), ValidTo: d("2023-05-01"), Source: "VIS"},
		},
	}
	r := rules.Determine(a, rules.DefaultParams())
	fmt.Print(r.Explain())
	// Output:
	// Responsibility determination under Regulation (EU) 2024/1351 (AMMR)
	// Application first registered in Italy (IT) on 2026-08-27; determining Member State: Italy (IT).
	//
	// Member State responsible: Italy (IT)
	// Criterion: Entry, Art. 33(2) AMMR [V: rule read in the legal text]
	// Reason: the applicant was disembarked in this Member State after a search-and-rescue operation and the application was registered within 12 months (by 2027-08-24)
	// Evidence used:
	//   - irregular_entries[0]: disembarked in IT on 2026-08-24 after a search-and-rescue operation [Eurodac Art. 24 record]
	//
	// Criteria examined before it, which did not apply:
	//   1. Security gate (Art. 16(4) AMMR): no threat to internal security was established by the security check (SR Art. 15 or Art. 16(4) AMMR)
	//   2. Unaccompanied minor (Art. 25 AMMR): the applicant is not an unaccompanied minor
	//   3. Family member who is a beneficiary of international protection (Art. 26 AMMR): no family member who is a beneficiary of international protection in a Member State qualifies
	//        - family[0] (spouse F-2, legally-present in DE): not a beneficiary of international protection
	//   4. Family member who is an applicant (Art. 27 AMMR): no family member whose application in a Member State awaits a first decision on the substance qualifies
	//        - family[0] (spouse F-2, legally-present in DE): not an applicant for international protection
	//   5. Family procedure (Art. 28 AMMR): no family member or minor sibling applied jointly in IT with a recorded Member State responsible
	//   6. Dependent persons (Art. 34 AMMR): no dependency on (or of) a child, sibling or parent legally resident in a Member State that meets every condition
	//   7. Residence documents and visas (Art. 29 AMMR): no residence document or visa was valid when the application was registered, and none lapsed less than 36 months (residence document) or 18 months (visa) before it
	//        - documents[0] (short stay visa issued by FR): expired on 2023-05-01, 18 months or more before the application was registered on 2026-08-27 (Art. 29(4) AMMR: less than 18 months)
	//   8. Diplomas or qualifications (Art. 30 AMMR): no diploma or qualification issued in a Member State less than 72 months before the application was registered
	//   9. Visa-waived entry (Art. 31 AMMR): no entry into a Member State without the need for a visa
	//   10. Application in an international transit area (Art. 32 AMMR): the application was not made in the international transit area of an airport
}
