package rules_test

import (
	"fmt"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/rules"
)

// The texts these tests rest on, as read (EUR-Lex, CELEX 32024R1351; migrationpact.info
// for Art. 29):
//
// Art. 25(3) AMMR: "Where the applicant is an unaccompanied minor who has a relative who
// is legally present in another Member State and where it is established, on the basis
// of an individual examination, that the relative can take care of him or her, that
// Member State shall unite the minor with his or her relative and shall be the Member
// State responsible, unless it is demonstrated that it is not in the best interests of
// the child."
//
// "Another" is read against the Member State that determines responsibility: the one
// where the application was first registered (Art. 38(1)), whose situation counts
// (Art. 24). The Member State where the minor has since applied is another one.
func TestArt25_3RelativeInTheStateOfTheCurrentApplication(t *testing.T) {
	uncle := func(state solidarity.MemberState) rules.FamilyMember {
		return rules.FamilyMember{Ref: "U1", Relation: rules.Relative, State: state, Status: rules.StatusLegallyPresent, CanTakeCare: true}
	}
	runCases(t, []criterionCase{
		{name: "Art. 25(3) first registered in IT, now in DE with an uncle legally there: DE", want: "DE",
			criterion: rules.UnaccompaniedMinor, article: "Art. 25(3) AMMR",
			a:    applicant("DE", "2026-10-01", minor("2011-05-05"), firstReg("IT", "2026-09-01"), family(uncle("DE"))),
			note: "\"another Member State\" in Art. 25(3) is read against IT"},
		{name: "Art. 25(3) a relative in the state of first registration is not in another Member State: Art. 25(5)", want: "IT",
			criterion: rules.UnaccompaniedMinor, article: "Art. 25(5) AMMR",
			a:          applicant("DE", "2026-10-01", minor("2011-05-05"), firstReg("IT", "2026-09-01"), family(uncle("IT"))),
			notApplied: nil},
		{name: "Art. 25(4) relatives in the current state and a third one: best-interests choice", want: "DE",
			criterion: rules.UnaccompaniedMinor, article: "Art. 25(4) AMMR",
			a: applicant("DE", "2026-10-01", minor("2011-05-05"), firstReg("IT", "2026-09-01"), family(uncle("FR")), family(uncle("DE")),
				with(func(a *rules.Applicant) { a.BestInterestsState = "DE" }))},
		// Dublin III Art. 8(4) designates the Member State where the minor is present
		// (CJEU, MA, C-648/11): its Art. 8(2) keeps being read against that state.
		{name: "Dublin III Art. 8(2) unchanged: a relative where the minor is present, Art. 8(4)", want: "DE",
			criterion: rules.UnaccompaniedMinor, article: "Art. 8(4) Dublin III",
			a: applicant("DE", "2018-10-01", minor("2003-05-05"), firstReg("IT", "2018-09-01"), family(uncle("DE")))},
	})
	// The relative in the state of first registration is recorded with the reason.
	r := rules.Determine(applicant("DE", "2026-10-01", minor("2011-05-05"), firstReg("IT", "2026-09-01"), family(uncle("IT"))), rules.Params{})
	if !strings.Contains(strings.Join(r.Notes, " | "), "Member State of first registration") {
		t.Errorf("the relative in IT is not explained: %q", r.Notes)
	}
}

// Art. 29(4) AMMR: "Where the applicant holds one or more residence documents the
// validity of which has expired or which were annulled, revoked or withdrawn less than
// three years before the application was registered, or one or more visas the validity
// of which has expired or which were annulled, revoked or withdrawn less than 18 months
// before the application was registered, paragraphs 1, 2 and 3 shall apply."
//
// There is no "only": a lapsed document counts beside a valid one. Dublin III Art. 12(4)
// begins "Where the applicant is in possession only of one or more residence documents
// which have expired less than two years previously or one or more visas which have
// expired less than six months previously" (the Dublin III text as the spec records it,
// §9 table; the EUR-Lex page itself was not reached from here): under Dublin III a
// lapsed document counts only when the applicant holds no valid one.
//
// Art. 29(3) AMMR: "Where the applicant holds more than one valid residence document or
// visa issued by different Member States, the Member State responsible ... shall be
// determined in the following order: (a) the Member State that issued the residence
// document conferring the right to the longest period of residency or, where the
// periods of validity are identical, the Member State that issued the residence
// document having the latest expiry date; (b) ... visas of the same type ...; (c) ...
// visas of different types ...". A residence document and a visa from different
// Member States are therefore decided by point (a), not by paragraph 1.
func TestArt29_4LapsedBesideValid(t *testing.T) {
	runCases(t, []criterionCase{
		{name: "Art. 29(3)(a) with Art. 29(4): a residence document expired less than 3 years before beats a valid visa", want: "FR",
			criterion: rules.Documents, article: "Art. 29(3)(a) with Art. 29(4) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ResidenceDocument, "FR", "2022-01-01", "2025-12-01"),
				doc(rules.ShortStayVisa, "DE", "2026-08-20", "2026-12-02")),
			note: "no \"only\""},
		{name: "Art. 29(3)(b) with Art. 29(4): a visa lapsed 10 months before, expiring later than none, loses to the valid one", want: "DE",
			criterion: rules.Documents, article: "Art. 29(3)(b) with Art. 29(4) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ShortStayVisa, "FR", "2025-10-01", "2025-11-01"),
				doc(rules.ShortStayVisa, "DE", "2026-08-20", "2026-12-02"))},
		{name: "Art. 29(1) a lapsed visa of the same Member State changes nothing", want: "FR",
			criterion: rules.Documents, article: "Art. 29(1) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ResidenceDocument, "FR", "2026-01-01", "2027-01-01"),
				doc(rules.ShortStayVisa, "FR", "2025-10-01", "2025-11-01"))},
		{name: "Dublin III Art. 12(4) keeps its \"only\": the valid visa decides", want: "DE",
			criterion: rules.Documents, article: "Art. 12(2) Dublin III",
			a: applicant("IT", "2018-08-27", doc(rules.ResidenceDocument, "FR", "2016-10-01", "2018-01-01"),
				doc(rules.ShortStayVisa, "DE", "2018-08-20", "2018-12-02")),
			notApplied: nil, note: "\"only\""},
	})
}

// Cite the paragraph that decides (Art. 29(3)(a) for a residence document against a
// visa of another Member State; Art. 25(4) AMMR, "Where the applicant has family
// members, siblings or relatives as referred to in paragraphs 2 and 3, who stay in more
// than one Member State, the Member State responsible shall be decided on the basis of
// what is in the best interests of the unaccompanied minor" (spec §2 C1, read in the
// Spanish text; Dublin III Art. 8(3) the same)).
func TestCitesTheDecidingParagraph(t *testing.T) {
	sibling := func(state solidarity.MemberState) rules.FamilyMember {
		return rules.FamilyMember{Relation: rules.Sibling, State: state, Status: rules.StatusBeneficiary}
	}
	runCases(t, []criterionCase{
		{name: "Art. 29(3)(a) a residence document and a visa of different Member States", want: "PT",
			criterion: rules.Documents, article: "Art. 29(3)(a) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.LongStayVisa, "FR", "2025-01-01", "2027-12-01"),
				doc(rules.ResidenceDocument, "PT", "2026-08-20", "2026-12-02"))},
		{name: "Art. 29(1) a residence document and a visa of the same Member State", want: "PT",
			criterion: rules.Documents, article: "Art. 29(1) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.LongStayVisa, "PT", "2025-01-01", "2027-12-01"),
				doc(rules.ResidenceDocument, "PT", "2026-08-20", "2026-12-02"))},
		{name: "Art. 25(4) siblings in two Member States, chosen on the best interests", want: "NL",
			criterion: rules.UnaccompaniedMinor, article: "Art. 25(4) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(sibling("DE")), family(sibling("NL")),
				with(func(a *rules.Applicant) { a.BestInterestsState = "NL" }))},
		{name: "Art. 25(2) siblings in one Member State", want: "DE",
			criterion: rules.UnaccompaniedMinor, article: "Art. 25(2) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(sibling("DE")), family(sibling("DE")))},
		{name: "Dublin III Art. 8(3) family in two Member States", want: "NL",
			criterion: rules.UnaccompaniedMinor, article: "Art. 8(3) Dublin III",
			a: applicant("IT", "2018-08-27", minor("2003-05-05"), family(sibling("DE")), family(sibling("NL")),
				with(func(a *rules.Applicant) { a.BestInterestsState = "NL" }))},
	})
}

// TestPropertyDocumentsCiteTheDecidingParagraph: whenever Art. 29 (Dublin III Art. 12)
// applies, it cites paragraph 3 exactly when the documents weighed (its evidence) come
// from more than one Member State, and paragraph 4 exactly when it brought a lapsed
// document into the decision: the one chosen, or one weighed against it under
// paragraph 3.
func TestPropertyDocumentsCiteTheDecidingParagraph(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// Documents around the reference date, so that valid and lapsed ones meet.
		a := applicant(genState(t, "app"), "2026-09-01")
		if rapid.Bool().Draw(t, "dublin") {
			a.Application.Date = d("2018-09-01")
		}
		ref := a.ReferenceDate()
		for range rapid.IntRange(1, 4).Draw(t, "docs") {
			to := ref.AddDate(0, 0, rapid.IntRange(-4*365, 365).Draw(t, "to"))
			doc := rules.Document{
				Kind:      rapid.SampledFrom([]rules.DocumentKind{rules.ResidenceDocument, rules.LongStayVisa, rules.ShortStayVisa}).Draw(t, "kind"),
				Issuer:    rapid.SampledFrom(someStates[:3]).Draw(t, "issuer"),
				ValidFrom: to.AddDate(0, 0, -rapid.IntRange(0, 3*365).Draw(t, "len")),
				ValidTo:   to,
			}
			if rapid.IntRange(0, 4).Draw(t, "withdrawn?") == 0 {
				doc.Withdrawn = doc.ValidFrom.AddDate(0, 0, rapid.IntRange(0, 4*365).Draw(t, "withdrawn"))
			}
			a.Documents = append(a.Documents, doc)
		}
		if rules.Validate(a) != nil {
			t.Skip("invalid")
		}
		f := rules.Check(a, rules.Params{}, rules.Documents)
		if !f.Applies {
			return
		}
		states, lapsed, decisiveLapsed := map[solidarity.MemberState]bool{}, false, false
		for _, e := range f.Evidence {
			var i int
			if _, err := fmt.Sscanf(e.Field, "documents[%d]", &i); err != nil {
				t.Fatalf("evidence %q", e.Field)
			}
			d := a.Documents[i]
			s := d.Issuer
			if d.Kind != rules.ResidenceDocument && d.IssuedFor != "" {
				s = d.IssuedFor
			}
			states[s] = true
			if ref.After(d.ValidTo) || (!d.Withdrawn.IsZero() && !ref.Before(d.Withdrawn)) {
				lapsed = true
				decisiveLapsed = decisiveLapsed || strings.HasSuffix(e.Fact, "decisive")
			}
		}
		if para3 := strings.Contains(f.Article, "(3)("); para3 != (len(states) > 1) {
			t.Fatalf("%s with documents from %d Member States: %+v", f.Article, len(states), f.Evidence)
		}
		para3 := strings.Contains(f.Article, "(3)(")
		if para4 := strings.Contains(f.Article, "(4)"); para4 != (decisiveLapsed || para3 && lapsed) {
			t.Fatalf("%s, lapsed document among the evidence: %v: %+v", f.Article, lapsed, f.Evidence)
		}
	})
}
