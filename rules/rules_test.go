package rules_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/rules"
)

type criterionCase struct {
	name       string // names the article
	a          rules.Applicant
	p          rules.Params
	want       solidarity.MemberState
	criterion  rules.Criterion
	article    string
	notApplied map[rules.Criterion]string // reason (or detail) must contain the text
	review     string                     // a review point must contain it
	note       string                     // a note must contain it
}

func runCases(t *testing.T, cases []criterionCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if err := rules.Validate(c.a); err != nil {
				t.Fatalf("Validate: %v", err)
			}
			r := rules.Determine(c.a, c.p)
			if r.Responsible != c.want || r.Criterion != c.criterion {
				t.Fatalf("got %s by %s (%s: %s), want %s by %s\n%s", r.Responsible, r.Criterion, r.Article, r.Reason, c.want, c.criterion, r.Explain())
			}
			if c.article != "" && r.Article != c.article {
				t.Errorf("article %q, want %q", r.Article, c.article)
			}
			for crit, reason := range c.notApplied {
				mustNotApplied(t, r, crit, reason)
			}
			if c.review != "" && !strings.Contains(strings.Join(r.Review, "\n"), c.review) {
				t.Errorf("review %q, want one containing %q", r.Review, c.review)
			}
			if c.note != "" && !strings.Contains(strings.Join(r.Notes, "\n"), c.note) {
				t.Errorf("notes %q, want one containing %q", r.Notes, c.note)
			}
			// The walk records exactly the criteria before the one applied.
			h := rules.Hierarchy(r.Regime)
			for i, n := range r.NotApplied {
				if h[i] != n.Criterion {
					t.Errorf("not applied[%d] = %s, hierarchy has %s", i, n.Criterion, h[i])
				}
			}
			if h[len(r.NotApplied)] != r.Criterion {
				t.Errorf("criterion %s is not at position %d of the hierarchy", r.Criterion, len(r.NotApplied))
			}
		})
	}
}

var (
	spouseBeneficiaryDE = rules.FamilyMember{Ref: "S1", Relation: rules.Spouse, State: "DE", Status: rules.StatusBeneficiary,
		LinkBeforeArrival: true, LinkInCountryOfOrigin: true, ConsentInWriting: true, BirthDate: d("1990-01-01")}
	parentInDE = rules.FamilyMember{Relation: rules.Parent, State: "DE", Status: rules.StatusLegallyPresent}
)

func TestSecurityGate(t *testing.T) {
	runCases(t, []criterionCase{
		{name: "Art. 16(4) threat: first Member State of registration", want: "IT", criterion: rules.Security, article: "Art. 16(4) AMMR",
			a:    applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), with(func(a *rules.Applicant) { a.SecurityThreat = true })),
			note: "Art. 67(2)"},
		{name: "Art. 16(4) the Member State that ran the check", want: "EL", criterion: rules.Security,
			a: applicant("DE", "2026-09-01", firstReg("EL", "2026-08-01"), with(func(a *rules.Applicant) {
				a.SecurityThreat, a.SecurityCheckState = true, "EL"
			}))},
		{name: "Art. 16(4) comes before Art. 25 and Art. 26", want: "IT", criterion: rules.Security,
			a: applicant("IT", "2026-09-01", minor("2011-01-01"), family(parentInDE), family(spouseBeneficiaryDE),
				with(func(a *rules.Applicant) { a.SecurityThreat = true }))},
	})
}

func TestUnaccompaniedMinor(t *testing.T) {
	relative := func(state solidarity.MemberState) rules.FamilyMember {
		return rules.FamilyMember{Relation: rules.Relative, State: state, Status: rules.StatusLegallyPresent, CanTakeCare: true}
	}
	runCases(t, []criterionCase{
		{name: "Art. 25(2) parent legally present", want: "DE", criterion: rules.UnaccompaniedMinor, article: "Art. 25(2) AMMR",
			a:          applicant("IT", "2026-09-01", minor("2011-05-05"), sar("IT", "2026-08-24"), family(parentInDE)),
			notApplied: map[rules.Criterion]string{rules.Security: "no threat to internal security"}},
		{name: "Art. 25(2) sibling who is an applicant", want: "SE", criterion: rules.UnaccompaniedMinor, article: "Art. 25(2) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), sar("IT", "2026-08-24"),
				family(rules.FamilyMember{Relation: rules.Sibling, State: "SE", Status: rules.StatusApplicant}))},
		{name: "Art. 25(2) exception: not in the best interests of the child, so Art. 25(5)", want: "IT", criterion: rules.UnaccompaniedMinor, article: "Art. 25(5) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(rules.FamilyMember{Relation: rules.Parent, State: "DE",
				Status: rules.StatusLegallyPresent, NotInBestInterests: true}))},
		{name: "Art. 25(2) a parent staying irregularly does not count", want: "IT", criterion: rules.UnaccompaniedMinor, article: "Art. 25(5) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(rules.FamilyMember{Relation: rules.Parent, State: "DE", Status: rules.StatusIrregular}))},
		{name: "Art. 25(2) family members in several Member States: best-interests choice", want: "NL", criterion: rules.UnaccompaniedMinor,
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(parentInDE),
				family(rules.FamilyMember{Relation: rules.Sibling, State: "NL", Status: rules.StatusBeneficiary}),
				with(func(a *rules.Applicant) { a.BestInterestsState = "NL" }))},
		{name: "Art. 25(3) relative who can take care", want: "FR", criterion: rules.UnaccompaniedMinor, article: "Art. 25(3) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(relative("FR")))},
		{name: "Art. 25(3) relative not found able to take care, so Art. 25(5)", want: "IT", criterion: rules.UnaccompaniedMinor, article: "Art. 25(5) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(rules.FamilyMember{Relation: rules.Relative, State: "FR", Status: rules.StatusLegallyPresent}))},
		{name: "Art. 25(4) relatives in several Member States: best-interests choice", want: "AT", criterion: rules.UnaccompaniedMinor, article: "Art. 25(4) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), family(relative("FR")), family(relative("AT")),
				with(func(a *rules.Applicant) { a.BestInterestsState = "AT" }))},
		{name: "Art. 25(4) no choice recorded: first listed, for review", want: "FR", criterion: rules.UnaccompaniedMinor, article: "Art. 25(4) AMMR",
			a:      applicant("IT", "2026-09-01", minor("2011-05-05"), family(relative("FR")), family(relative("AT"))),
			review: "best interests of the child (Art. 25(4) AMMR)"},
		{name: "Art. 25(5) no family: first registration", want: "EL", criterion: rules.UnaccompaniedMinor, article: "Art. 25(5) AMMR",
			a: applicant("DE", "2026-09-01", minor("2011-05-05"), firstReg("EL", "2026-07-20"), crossing("EL", "2026-07-18"))},
		{name: "Art. 25(1) only Art. 25 applies: a visa does not count", want: "IT", criterion: rules.UnaccompaniedMinor, article: "Art. 25(5) AMMR",
			a: applicant("IT", "2026-09-01", minor("2011-05-05"), doc(rules.ShortStayVisa, "FR", "2026-06-01", "2026-12-01"))},
		{name: "Art. 25 assessed age: benefit of the doubt", want: "DE", criterion: rules.UnaccompaniedMinor,
			a: applicant("IT", "2026-09-01", family(parentInDE), with(func(a *rules.Applicant) {
				a.BirthDate = time.Time{} // unknown
				a.UnaccompaniedMinor, a.AssessedAge, a.AgeAssessedOn = true, 16, d("2026-09-10")
			}))},
		{name: "Art. 25 recorded unaccompanied but adult: not applied", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2026-09-01", minor("2000-01-01"), sar("IT", "2026-08-24"), family(parentInDE)),
			notApplied: map[rules.Criterion]string{rules.UnaccompaniedMinor: "aged 26", rules.FamilyBeneficiary: "no family member who is a beneficiary"}},
	})
}

func TestFamilyCriteria(t *testing.T) {
	spouseApplicantFR := rules.FamilyMember{Relation: rules.Spouse, State: "FR", Status: rules.StatusApplicant, LinkBeforeArrival: true, ConsentInWriting: true}
	noConsent := spouseBeneficiaryDE
	noConsent.ConsentInWriting = false
	afterArrival := spouseBeneficiaryDE
	afterArrival.LinkBeforeArrival, afterArrival.LinkInCountryOfOrigin = false, false
	transitMarriage := spouseBeneficiaryDE
	transitMarriage.LinkInCountryOfOrigin = false // married in Libya, before arrival
	decided := spouseApplicantFR
	decided.FirstDecision = true
	adultChild := rules.FamilyMember{Relation: rules.Child, State: "DE", Status: rules.StatusBeneficiary, BirthDate: d("2000-01-01"), LinkBeforeArrival: true, ConsentInWriting: true}
	childSE := rules.FamilyMember{Relation: rules.Child, State: "SE", Status: rules.StatusBeneficiary, BirthDate: d("2015-01-01"), LinkBeforeArrival: true, ConsentInWriting: true}
	childSE2 := childSE
	childSE2.BirthDate = d("2017-01-01")

	runCases(t, []criterionCase{
		{name: "Art. 26 spouse who is a beneficiary", want: "DE", criterion: rules.FamilyBeneficiary, article: "Art. 26 AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(spouseBeneficiaryDE)),
			notApplied: map[rules.Criterion]string{rules.Security: "no threat",
				rules.UnaccompaniedMinor: "not an unaccompanied minor"}},
		{name: "Art. 26 no written consent: falls to Art. 33(2)", want: "IT", criterion: rules.Entry, article: "Art. 33(2) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(noConsent)),
			notApplied: map[rules.Criterion]string{rules.FamilyBeneficiary: "no family member who is a beneficiary of international protection",
				rules.Documents: "no residence document or visa"}},
		{name: "Art. 26 with Art. 2(8): family formed after arrival does not count", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(afterArrival)),
			notApplied: map[rules.Criterion]string{rules.FamilyBeneficiary: "before the applicant arrived on the territory"}},
		{name: "Art. 26 with Art. 2(8): family formed in transit counts (before arrival)", want: "DE", criterion: rules.FamilyBeneficiary,
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(transitMarriage))},
		{name: "Art. 26 parameter: country-of-origin reading excludes a family formed in transit", want: "IT", criterion: rules.Entry,
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(transitMarriage)),
			p: rules.Params{FamilyLinkInCountryOfOrigin: true}, notApplied: map[rules.Criterion]string{rules.FamilyBeneficiary: "country of origin"}},
		{name: "Art. 26 with Art. 2(8): an adult child is not a family member", want: "IT", criterion: rules.Entry,
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(adultChild)), notApplied: map[rules.Criterion]string{rules.FamilyBeneficiary: "adult child"}},
		{name: "Art. 26 several Member States: the one with most family members, for review", want: "SE", criterion: rules.FamilyBeneficiary,
			a:      applicant("IT", "2026-09-01", family(spouseBeneficiaryDE), family(childSE), family(childSE2)),
			review: "several Member States (DE, SE)"},
		{name: "Art. 27 spouse who is an applicant", want: "FR", criterion: rules.FamilyApplicant, article: "Art. 27 AMMR",
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(spouseApplicantFR)),
			notApplied: map[rules.Criterion]string{rules.FamilyBeneficiary: "no family member who is a beneficiary"}},
		{name: "Art. 27 first decision already taken: not applied", want: "IT", criterion: rules.Entry,
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(decided)), notApplied: map[rules.Criterion]string{rules.FamilyApplicant: "first decision on the substance has been taken"}},
		{name: "Art. 26 before Art. 27", want: "DE", criterion: rules.FamilyBeneficiary,
			a: applicant("IT", "2026-09-01", family(spouseApplicantFR), family(spouseBeneficiaryDE))},
	})
}

func TestFamilyProcedure(t *testing.T) {
	joint := func(rel rules.Relation, responsible solidarity.MemberState, birth string) rules.FamilyMember {
		return rules.FamilyMember{Relation: rel, State: "IT", Status: rules.StatusApplicant, LinkBeforeArrival: true,
			JointApplication: true, ResponsibleState: responsible, BirthDate: d(birth)}
	}
	runCases(t, []criterionCase{
		{name: "Art. 28(a) the Member State responsible for the largest number", want: "DE", criterion: rules.FamilyProcedure, article: "Art. 28(a) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"),
				family(joint(rules.Spouse, "DE", "1990-01-01")), family(joint(rules.Child, "DE", "2015-01-01"))),
			notApplied: map[rules.Criterion]string{rules.FamilyApplicant: "not expressed their wish in writing"}},
		{name: "Art. 28(a) minor sibling counts", want: "FR", criterion: rules.FamilyProcedure, article: "Art. 28(a) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"),
				family(joint(rules.Sibling, "FR", "2012-01-01")), family(joint(rules.Sibling, "FR", "2013-01-01")))},
		{name: "Art. 28(b) tie: the Member State responsible for the oldest", want: "DE", criterion: rules.FamilyProcedure, article: "Art. 28(b) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(joint(rules.Spouse, "DE", "1985-01-01")))},
		{name: "Art. 28(b) tie: the applicant is the oldest", want: "IT", criterion: rules.FamilyProcedure, article: "Art. 28(b) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(joint(rules.Spouse, "DE", "1999-01-01")))},
		{name: "Art. 28 not applied: separate criteria keep the family together", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(joint(rules.Spouse, "IT", "1985-01-01"))),
			notApplied: map[rules.Criterion]string{rules.FamilyProcedure: "keeps the family together in IT"}},
	})
}

func TestDependentPersons(t *testing.T) {
	mother := rules.FamilyMember{Relation: rules.Parent, State: "SE", Status: rules.StatusLegallyPresent, Dependency: rules.OldAge,
		CanTakeCare: true, ConsentInWriting: true}
	noCare := mother
	noCare.CanTakeCare = false
	runCases(t, []criterionCase{
		{name: "Art. 34(2) carer in another Member State", want: "SE", criterion: rules.DependentPersons, article: "Art. 34(2) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(mother)), note: "outside the order"},
		{name: "Art. 34(2) applicant unfit to travel: the Member State where the applicant is", want: "IT", criterion: rules.DependentPersons, article: "Art. 34(2) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(mother), with(func(a *rules.Applicant) { a.UnfitToTravel = true }))},
		{name: "Art. 34(1) carer not able to take care: not applied", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), family(noCare)),
			notApplied: map[rules.Criterion]string{rules.DependentPersons: "not found able to take care"}},
	})
}

func TestDocuments(t *testing.T) {
	runCases(t, []criterionCase{
		{name: "Art. 29(1) valid residence document", want: "FR", criterion: rules.Documents, article: "Art. 29(1) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), doc(rules.ResidenceDocument, "FR", "2025-01-01", "2027-01-01")),
			notApplied: map[rules.Criterion]string{rules.FamilyBeneficiary: "no family member", rules.FamilyApplicant: "no family member",
				rules.FamilyProcedure: "no family member", rules.DependentPersons: "no dependency"}},
		{name: "Art. 29(2) valid visa", want: "DE", criterion: rules.Documents, article: "Art. 29(2) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ShortStayVisa, "DE", "2026-08-01", "2026-10-01"))},
		{name: "Art. 29(2) visa issued under representation: the represented Member State", want: "AT", criterion: rules.Documents, article: "Art. 29(2) AMMR",
			a: applicant("IT", "2026-09-01", with(func(a *rules.Applicant) {
				a.Documents = []rules.Document{{Kind: rules.ShortStayVisa, Issuer: "ES", IssuedFor: "AT", ValidFrom: d("2026-08-01"), ValidTo: d("2026-10-01")}}
			}))},
		{name: "Art. 29(3)(a) residence documents: the longest period of residence", want: "DE", criterion: rules.Documents, article: "Art. 29(3)(a) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ResidenceDocument, "FR", "2026-01-01", "2027-06-01"),
				doc(rules.ResidenceDocument, "DE", "2025-01-01", "2027-01-01"))},
		{name: "Art. 29(3)(a) equal periods: the latest expiry", want: "NL", criterion: rules.Documents, article: "Art. 29(3)(a) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ResidenceDocument, "FR", "2026-01-01", "2027-01-01"),
				doc(rules.ResidenceDocument, "NL", "2026-02-01", "2027-02-01"))},
		{name: "Art. 29(3)(b) visas of the same type: the latest expiry", want: "BE", criterion: rules.Documents, article: "Art. 29(3)(b) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ShortStayVisa, "FR", "2026-01-01", "2026-12-01"),
				doc(rules.ShortStayVisa, "BE", "2026-08-20", "2026-12-02"))},
		{name: "Art. 29(3)(c) visas of different types: the longest validity", want: "FR", criterion: rules.Documents, article: "Art. 29(3)(c) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.LongStayVisa, "FR", "2026-01-01", "2026-12-01"),
				doc(rules.ShortStayVisa, "BE", "2026-08-20", "2026-12-02"))},
		{name: "Art. 29(3)(a) a residence document takes precedence over a visa of another Member State", want: "PT", criterion: rules.Documents, article: "Art. 29(3)(a) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.LongStayVisa, "FR", "2025-01-01", "2027-12-01"),
				doc(rules.ResidenceDocument, "PT", "2026-08-20", "2026-12-02"))},
		{name: "Art. 29(4) residence document expired less than 3 years before", want: "FR", criterion: rules.Documents, article: "Art. 29(1) with Art. 29(4) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), doc(rules.ResidenceDocument, "FR", "2022-01-01", "2024-01-01"))},
		{name: "Art. 29(4) visa expired more than 18 months before: not applied", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), doc(rules.ShortStayVisa, "FR", "2024-01-01", "2024-02-01")),
			notApplied: map[rules.Criterion]string{rules.Documents: "expired on 2024-02-01, 18 months or more before the application"}},
		{name: "Art. 29(4) a lapsed residence document counts beside a valid visa (no \"only\")", want: "FR", criterion: rules.Documents, article: "Art. 29(3)(a) with Art. 29(4) AMMR",
			a: applicant("IT", "2026-09-01", doc(rules.ResidenceDocument, "FR", "2022-01-01", "2025-12-01"),
				doc(rules.ShortStayVisa, "DE", "2026-08-20", "2026-12-02"))},
		{name: "Art. 29(4) residence document withdrawn less than 3 years before", want: "FR", criterion: rules.Documents, article: "Art. 29(1) with Art. 29(4) AMMR",
			a: applicant("IT", "2026-09-01", with(func(a *rules.Applicant) {
				a.Documents = []rules.Document{{Kind: rules.ResidenceDocument, Issuer: "FR", ValidFrom: d("2025-01-01"), ValidTo: d("2030-01-01"), Withdrawn: d("2026-03-01")}}
			}))},
		{name: "Art. 29(5) fraud established after issue: the document does not count", want: "IT", criterion: rules.Entry,
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), with(func(a *rules.Applicant) {
				a.Documents = []rules.Document{{Kind: rules.ResidenceDocument, Issuer: "FR", ValidFrom: d("2025-01-01"), ValidTo: d("2030-01-01"), FraudAfterIssue: true}}
			})),
			notApplied: map[rules.Criterion]string{rules.Documents: "fraud committed after issue"}},
		{name: "Art. 29 with Art. 24: a visa issued after registration does not count", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), doc(rules.ShortStayVisa, "FR", "2026-10-01", "2026-12-01")),
			notApplied: map[rules.Criterion]string{rules.Documents: "after the application was registered"}},
	})
}

func TestDiplomas(t *testing.T) {
	runCases(t, []criterionCase{
		{name: "Art. 30(1) diploma issued less than 6 years before", want: "FR", criterion: rules.Diplomas, article: "Art. 30(1) AMMR",
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), diploma("FR", "2022-06-30", 24)),
			notApplied: map[rules.Criterion]string{rules.Documents: "no residence document or visa"}},
		{name: "Art. 30(2) several: the longest period of study", want: "DE", criterion: rules.Diplomas, article: "Art. 30(2) AMMR",
			a: applicant("IT", "2026-09-01", diploma("FR", "2024-06-30", 12), diploma("DE", "2022-06-30", 36))},
		{name: "Art. 30(2) equal study: the most recent", want: "FR", criterion: rules.Diplomas, article: "Art. 30(2) AMMR",
			a: applicant("IT", "2026-09-01", diploma("FR", "2024-06-30", 36), diploma("DE", "2022-06-30", 36))},
		{name: "Art. 30(1) diploma older than 6 years: not applied", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), diploma("FR", "2019-06-30", 36)),
			notApplied: map[rules.Criterion]string{rules.Diplomas: "72 months or more before"}},
		{name: "Art. 29 before Art. 30", want: "ES", criterion: rules.Documents,
			a: applicant("IT", "2026-09-01", diploma("FR", "2024-06-30", 36), doc(rules.ShortStayVisa, "ES", "2026-08-01", "2026-10-01"))},
	})
}

func TestEntryAndLaterCriteria(t *testing.T) {
	visaFree := func(state solidarity.MemberState, date string, waivedHere bool) func(*rules.Applicant) {
		return func(a *rules.Applicant) {
			a.VisaWaivedEntry = &rules.VisaWaivedEntry{State: state, Date: d(date), WaivedWhereRegistered: waivedHere}
		}
	}
	runCases(t, []criterionCase{
		{name: "Art. 31(1) visa-waived entry", want: "DE", criterion: rules.VisaWaived, article: "Art. 31(1) AMMR",
			a:          applicant("IT", "2026-09-01", visaFree("DE", "2026-05-01", false)),
			notApplied: map[rules.Criterion]string{rules.Diplomas: "no diploma"}},
		{name: "Art. 31(2) exception: visa also waived where registered", want: "IT", criterion: rules.VisaWaived, article: "Art. 31(2) AMMR",
			a: applicant("IT", "2026-09-01", visaFree("DE", "2026-05-01", true))},
		{name: "Art. 31 before Art. 33 in the AMMR order", want: "DE", criterion: rules.VisaWaived,
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), visaFree("DE", "2026-05-01", false))},
		{name: "Art. 32 application in an airport transit area", want: "FR", criterion: rules.TransitArea, article: "Art. 32 AMMR",
			a:          applicant("FR", "2026-09-01", with(func(a *rules.Applicant) { a.Application.TransitArea = true })),
			notApplied: map[rules.Criterion]string{rules.VisaWaived: "no entry into a Member State without"}},
		{name: "Art. 33(2) SAR disembarkation", want: "IT", criterion: rules.Entry, article: "Art. 33(2) AMMR",
			a: applicant("DE", "2026-11-01", firstReg("IT", "2026-09-01"), sar("IT", "2026-08-24")),
			notApplied: map[rules.Criterion]string{rules.TransitArea: "not made in the international transit area",
				rules.VisaWaived: "no entry into a Member State without the need for a visa"}},
		{name: "Art. 33(1) irregular crossing: the first Member State entered", want: "EL", criterion: rules.Entry, article: "Art. 33(1) AMMR",
			a: applicant("DE", "2026-11-01", crossing("HU", "2026-03-01"), crossing("EL", "2025-09-01"))},
		{name: "Art. 33(2) applies notwithstanding Art. 33(1)", want: "MT", criterion: rules.Entry, article: "Art. 33(2) AMMR",
			a: applicant("DE", "2026-11-01", crossing("EL", "2025-09-01"), sar("MT", "2026-06-01"))},
		{name: "Art. 33(1) the earliest crossing lapsed: the next one counts", want: "HU", criterion: rules.Entry, article: "Art. 33(1) AMMR",
			a:          applicant("DE", "2026-11-01", crossing("EL", "2024-09-01"), crossing("HU", "2026-03-01")),
			notApplied: map[rules.Criterion]string{}},
		{name: "Art. 33(2) SAR lapsed after 12 months: no fallback to 20 months, default Art. 16(2)", want: "DE", criterion: rules.FirstRegistration, article: "Art. 16(2) AMMR",
			a:          applicant("DE", "2026-11-01", sar("IT", "2025-09-01")),
			notApplied: map[rules.Criterion]string{rules.Entry: "more than 12 months later; responsibility ceased on 2026-09-01"}},
		{name: "Art. 33(3) relocated after the crossing: the Member State of relocation", want: "DE", criterion: rules.Entry, article: "Art. 33(3) AMMR",
			a: applicant("FR", "2027-01-10", firstReg("IT", "2026-09-01"), sar("IT", "2026-08-24"), with(func(a *rules.Applicant) {
				a.Relocation = &rules.Relocation{State: "DE", Date: d("2026-10-15")}
			}))},
		{name: "Art. 33 with Art. 84(1): a disembarkation before the AMMR applies counts", want: "IT", criterion: rules.Entry, article: "Art. 33(2) AMMR",
			a: applicant("IT", "2026-07-15", sar("IT", "2026-05-20")), note: "Art. 84(1)"},
		{name: "Art. 16(2) default: the first Member State of registration", want: "EL", criterion: rules.FirstRegistration, article: "Art. 16(2) AMMR",
			a: applicant("DE", "2026-11-01", firstReg("EL", "2026-09-01")),
			notApplied: map[rules.Criterion]string{rules.Entry: "no entry establishes responsibility",
				rules.Security: "no threat", rules.UnaccompaniedMinor: "not an unaccompanied minor"}},
		{name: "Art. 68(2) after relocation: criteria left out, the Member State of relocation", want: "DE", criterion: rules.RelocationDefault, article: "Art. 68(2) AMMR",
			a: applicant("DE", "2026-10-20", firstReg("IT", "2026-09-01"), sar("IT", "2026-08-24"),
				doc(rules.ShortStayVisa, "FR", "2026-06-01", "2026-08-01"), diploma("ES", "2024-01-01", 12),
				with(func(a *rules.Applicant) { a.Relocation = &rules.Relocation{State: "DE", Date: d("2026-10-15")} })),
			notApplied: map[rules.Criterion]string{rules.Documents: "Art. 68(2)", rules.Diplomas: "Art. 68(2)",
				rules.Entry: "Art. 68(2)", rules.FirstRegistration: "Art. 68(2)"}},
		{name: "Art. 68(2) after relocation: Art. 25(5) left out for an unaccompanied minor", want: "DE", criterion: rules.RelocationDefault,
			a: applicant("DE", "2026-10-20", minor("2011-01-01"), firstReg("IT", "2026-09-01"), sar("IT", "2026-08-24"),
				with(func(a *rules.Applicant) { a.Relocation = &rules.Relocation{State: "DE", Date: d("2026-10-15")} })),
			notApplied: map[rules.Criterion]string{rules.UnaccompaniedMinor: "Art. 25(5) is left out", rules.Documents: "only Art. 25 applies"}},
		{name: "Art. 16(3) transfer barred: the next criterion designates", want: "IT", criterion: rules.Entry, article: "Art. 33(2) AMMR",
			a: applicant("IT", "2026-09-01", sar("IT", "2026-08-24"), doc(rules.ShortStayVisa, "HU", "2026-08-01", "2026-10-01"),
				with(func(a *rules.Applicant) { a.TransferBarred = []solidarity.MemberState{"HU"} })),
			notApplied: map[rules.Criterion]string{rules.Documents: "a transfer there is impossible"}},
		{name: "Art. 16(3) no transfer possible: the determining Member State", want: "DE", criterion: rules.TransferImpossible, article: "Art. 16(3) AMMR",
			a: applicant("DE", "2026-11-01", firstReg("EL", "2026-09-01"), crossing("EL", "2026-08-20"),
				with(func(a *rules.Applicant) { a.TransferBarred = []solidarity.MemberState{"EL"} })),
			notApplied: map[rules.Criterion]string{rules.Entry: "impossible", rules.FirstRegistration: "impossible",
				rules.RelocationDefault: "not made by a Member State of relocation"}},
		{name: "Art. 16(3) a barred state that is the determining state still applies", want: "EL", criterion: rules.Entry,
			a: applicant("EL", "2026-09-01", crossing("EL", "2026-08-20"),
				with(func(a *rules.Applicant) { a.TransferBarred = []solidarity.MemberState{"EL"} }))},
	})
}

func TestDublinIII(t *testing.T) {
	runCases(t, []criterionCase{
		{name: "Dublin III Art. 13(1): Catania, August 2018, SAR as irregular entry", want: "IT", criterion: rules.Entry, article: "Art. 13(1) Dublin III",
			a: applicant("IT", "2018-08-27", sar("IT", "2018-08-26")), note: "Dublin III governs"},
		{name: "Dublin III Art. 13(1) 12 months, not 20", want: "DE", criterion: rules.FirstRegistration, article: "Art. 3(2) Dublin III",
			a:          applicant("DE", "2018-08-27", crossing("EL", "2017-06-01")),
			notApplied: map[rules.Criterion]string{rules.Entry: "more than 12 months later"}},
		{name: "Dublin III Art. 13(2) continuous stay of 5 months", want: "AT", criterion: rules.ContinuousStay, article: "Art. 13(2) Dublin III",
			a: applicant("DE", "2018-08-27", crossing("EL", "2017-06-01"), with(func(a *rules.Applicant) {
				a.Stays = []rules.Stay{{State: "HU", From: d("2017-06-05"), To: d("2017-12-01")}, {State: "AT", From: d("2018-01-01"), To: d("2018-08-20")}}
			}))},
		{name: "Dublin III Art. 8(4): unaccompanied minor without family, where lodged", want: "DE", criterion: rules.UnaccompaniedMinor, article: "Art. 8(4) Dublin III",
			a: applicant("DE", "2018-08-27", minor("2002-01-01"), firstReg("IT", "2018-08-10"), sar("IT", "2018-08-05"))},
		{name: "Dublin III Art. 8(1): family member legally present", want: "DE", criterion: rules.UnaccompaniedMinor, article: "Art. 8(1) Dublin III",
			a: applicant("IT", "2018-08-27", minor("2002-01-01"), sar("IT", "2018-08-20"), family(parentInDE))},
		{name: "Dublin III Art. 9 needs the family formed in the country of origin", want: "IT", criterion: rules.Entry,
			a: applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), family(rules.FamilyMember{Relation: rules.Spouse, State: "DE",
				Status: rules.StatusBeneficiary, LinkBeforeArrival: true, ConsentInWriting: true})),
			notApplied: map[rules.Criterion]string{rules.FamilyBeneficiary: "country of origin (Art. 2(g) Dublin III)"}},
		{name: "Dublin III Art. 9 family member who is a beneficiary", want: "DE", criterion: rules.FamilyBeneficiary, article: "Art. 9 Dublin III",
			a: applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), family(spouseBeneficiaryDE))},
		{name: "Dublin III Art. 12(4) visa expired 7 months before: not counted (AMMR would)", want: "IT", criterion: rules.Entry,
			a:          applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), doc(rules.ShortStayVisa, "FR", "2017-12-01", "2018-01-20")),
			notApplied: map[rules.Criterion]string{rules.Documents: "6 months or more"}},
		{name: "Dublin III Art. 12(2) valid visa", want: "FR", criterion: rules.Documents, article: "Art. 12(2) Dublin III",
			a: applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), doc(rules.ShortStayVisa, "FR", "2018-08-01", "2018-09-20"))},
		{name: "Dublin III has no diploma criterion", want: "IT", criterion: rules.Entry,
			a: applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), diploma("FR", "2016-06-30", 36))},
		{name: "Dublin III Art. 13 before Art. 14", want: "IT", criterion: rules.Entry,
			a: applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), with(func(a *rules.Applicant) {
				a.VisaWaivedEntry = &rules.VisaWaivedEntry{State: "DE", Date: d("2018-05-01")}
			}))},
		{name: "Dublin III Art. 14(1) visa-waived entry", want: "DE", criterion: rules.VisaWaived, article: "Art. 14(1) Dublin III",
			a: applicant("IT", "2018-08-27", with(func(a *rules.Applicant) {
				a.VisaWaivedEntry = &rules.VisaWaivedEntry{State: "DE", Date: d("2018-05-01")}
			})),
			notApplied: map[rules.Criterion]string{rules.ContinuousStay: "visa-free entry"}},
		{name: "Dublin III Art. 10 family member who is an applicant", want: "FR", criterion: rules.FamilyApplicant, article: "Art. 10 Dublin III",
			a: applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), family(rules.FamilyMember{Relation: rules.Spouse, State: "FR",
				Status: rules.StatusApplicant, LinkInCountryOfOrigin: true, ConsentInWriting: true}))},
		{name: "Dublin III Art. 15 application in an airport transit area", want: "NL", criterion: rules.TransitArea, article: "Art. 15 Dublin III",
			a: applicant("NL", "2018-08-27", with(func(a *rules.Applicant) { a.Application.TransitArea = true }))},
		{name: "Dublin III Art. 3(2) default: first Member State where lodged", want: "AT", criterion: rules.FirstRegistration, article: "Art. 3(2) Dublin III",
			a: applicant("DE", "2018-08-27", firstReg("AT", "2018-05-02"))},
		{name: "Dublin III has no security gate", want: "IT", criterion: rules.Entry,
			a:    applicant("IT", "2018-08-27", sar("IT", "2018-08-20"), with(func(a *rules.Applicant) { a.SecurityThreat = true })),
			note: "security gate of AMMR Art. 16(4) is new"},
	})
}

// TestRegimeSwitch: applications first registered before the switch date follow
// Dublin III (AMMR Art. 84(2)); the dates are parameters.
func TestRegimeSwitch(t *testing.T) {
	for _, c := range []struct {
		name, date string
		p          rules.Params
		want       rules.Regime
		review     string
	}{
		{"Art. 84(2) day before the switch: Dublin III", "2026-06-30", rules.Params{}, rules.DublinIII, ""},
		{"Art. 84 on the switch day: AMMR, flagged", "2026-07-01", rules.Params{}, rules.AMMR, "switch date itself"},
		{"Art. 84(1) day after the switch: AMMR", "2026-07-02", rules.Params{}, rules.AMMR, ""},
		{"switch date as a parameter", "2026-09-01", rules.Params{DublinIIIUntil: d("2027-01-01"), AMMRApplies: d("2027-01-01")}, rules.DublinIII, ""},
		{"gap between the two dates: AMMR, flagged", "2026-06-20", rules.Params{DublinIIIUntil: d("2026-06-12")}, rules.AMMR, "no rule set is given"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rules.Determine(applicant("IT", c.date, sar("IT", "2026-06-01")), c.p)
			if r.Regime != c.want {
				t.Fatalf("regime %s, want %s", r.Regime, c.want)
			}
			if got := strings.Join(r.Review, "\n"); (c.review == "") != (got == "") || !strings.Contains(got, c.review) {
				t.Errorf("review %q, want %q", got, c.review)
			}
			wantArt := "Art. 33(2) AMMR"
			if c.want == rules.DublinIII {
				wantArt = "Art. 13(1) Dublin III"
			}
			if r.Article != wantArt {
				t.Errorf("article %s, want %s", r.Article, wantArt)
			}
		})
	}
	// The regime follows the first registration, not the later application.
	r := rules.Determine(applicant("DE", "2026-08-01", firstReg("IT", "2026-06-15"), sar("IT", "2026-06-10")), rules.Params{})
	if r.Regime != rules.DublinIII || r.Responsible != "IT" {
		t.Errorf("first registered 2026-06-15: %s, %s; want Dublin III, IT", r.Regime, r.Responsible)
	}
}

// TestTimeLimitBoundaries checks each limit on the day before, the day of and the day
// after the end of the period.
func TestTimeLimitBoundaries(t *testing.T) {
	type day struct {
		date string
		want solidarity.MemberState
	}
	for _, c := range []struct {
		name string
		fs   []func(*rules.Applicant)
		days [3]day // before, on, after
	}{
		{"Art. 33(2) 12 months after SAR disembarkation 2026-08-24", []func(*rules.Applicant){sar("IT", "2026-08-24")},
			[3]day{{"2027-08-23", "IT"}, {"2027-08-24", "IT"}, {"2027-08-25", "DE"}}},
		{"Art. 33(1) 20 months after crossing 2026-07-10", []func(*rules.Applicant){crossing("EL", "2026-07-10")},
			[3]day{{"2028-03-09", "EL"}, {"2028-03-10", "EL"}, {"2028-03-11", "DE"}}},
		{"Art. 33(1) 20 months from 2026-06-30 end on 2028-02-29 (Reg. 1182/71)", []func(*rules.Applicant){crossing("EL", "2026-06-30")},
			[3]day{{"2028-02-28", "EL"}, {"2028-02-29", "EL"}, {"2028-03-01", "DE"}}},
		{"Art. 29(4) residence document expired 2023-09-01: less than 3 years", []func(*rules.Applicant){doc(rules.ResidenceDocument, "FR", "2021-09-01", "2023-09-01")},
			[3]day{{"2026-08-31", "FR"}, {"2026-09-01", "DE"}, {"2026-09-02", "DE"}}},
		{"Art. 29(4) visa expired 2025-03-01: less than 18 months", []func(*rules.Applicant){doc(rules.ShortStayVisa, "FR", "2025-02-01", "2025-03-01")},
			[3]day{{"2026-08-31", "FR"}, {"2026-09-01", "DE"}, {"2026-09-02", "DE"}}},
		{"Art. 30(1) diploma issued 2020-09-01: less than 6 years", []func(*rules.Applicant){diploma("FR", "2020-09-01", 24)},
			[3]day{{"2026-08-31", "FR"}, {"2026-09-01", "DE"}, {"2026-09-02", "DE"}}},
		{"Art. 25 minor until the 18th birthday 2026-09-01", []func(*rules.Applicant){minor("2008-09-01"), family(parentInDE), sar("IT", "2026-08-24")},
			[3]day{{"2026-08-31", "DE"}, {"2026-09-01", "IT"}, {"2026-09-02", "IT"}}},
		{"Art. 29(2) visa valid to 2026-09-01 inclusive", []func(*rules.Applicant){doc(rules.ShortStayVisa, "FR", "2026-08-01", "2026-09-01")},
			[3]day{{"2026-08-31", "FR"}, {"2026-09-01", "FR"}, {"2026-09-02", "FR"}}}, // still within 29(4) after
		{"Dublin III Art. 13(1) 12 months after crossing 2017-08-25", []func(*rules.Applicant){crossing("EL", "2017-08-25")},
			[3]day{{"2018-08-24", "EL"}, {"2018-08-25", "EL"}, {"2018-08-26", "DE"}}},
	} {
		for i, dd := range c.days {
			t.Run(c.name+"/"+[]string{"day before", "day of", "day after"}[i], func(t *testing.T) {
				r := rules.Determine(applicant("DE", dd.date, c.fs...), rules.Params{})
				if r.Criterion == rules.InvalidInput {
					t.Fatal(r.Error)
				}
				if r.Responsible != dd.want {
					t.Errorf("registered %s: %s by %s, want %s\n%s", dd.date, r.Responsible, r.Article, dd.want, r.Explain())
				}
			})
		}
	}
	// The visa valid to 2026-09-01 is valid on that day (Art. 29(2)) and lapsed the day
	// after (Art. 29(4)).
	for date, want := range map[string]string{"2026-09-01": "Art. 29(2) AMMR", "2026-09-02": "Art. 29(2) with Art. 29(4) AMMR"} {
		r := rules.Determine(applicant("DE", date, doc(rules.ShortStayVisa, "FR", "2026-08-01", "2026-09-01")), rules.Params{})
		if r.Article != want {
			t.Errorf("registered %s: %s, want %s", date, r.Article, want)
		}
	}
	// A period set by parameter moves the boundary.
	r := rules.Determine(applicant("DE", "2027-03-01", sar("IT", "2026-08-24")), rules.Params{SARMonths: 6})
	if r.Responsible != "DE" || !strings.Contains(r.ReasonNotApplied(rules.Entry), "within 6 months") {
		t.Errorf("SARMonths 6: %s, %q", r.Responsible, r.ReasonNotApplied(rules.Entry))
	}
	mustNotApplied(t, r, rules.Entry, "more than 6 months later; responsibility ceased on 2027-02-24")
}

func TestValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		a     rules.Applicant
		field string
	}{
		{"birth after the application", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) { a.BirthDate = d("2026-09-02") })), "birth_date"},
		{"unknown Member State", applicant("XX", "2026-09-01"), "application.state"},
		{"ISO code GR instead of Eurostat EL", applicant("IT", "2026-09-01", crossing("GR", "2026-08-01")), "irregular_entries[0].state"},
		{"document valid to before valid from", applicant("IT", "2026-09-01", doc(rules.ShortStayVisa, "FR", "2026-08-01", "2026-07-01")), "documents[0].valid_to"},
		{"document without dates", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) {
			a.Documents = []rules.Document{{Kind: rules.ResidenceDocument, Issuer: "FR"}}
		})), "documents[0].valid_from"},
		{"missing application date", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) { a.Application.Date = time.Time{} })), "application.date"},
		{"first registration after the application", applicant("IT", "2026-09-01", firstReg("EL", "2026-10-01")), "first_registration.date"},
		{"unknown relation", applicant("IT", "2026-09-01", family(rules.FamilyMember{Relation: "cousin"})), "family[0].relation"},
		{"unknown family member state", applicant("IT", "2026-09-01", family(rules.FamilyMember{Relation: rules.Spouse, State: "UK"})), "family[0].state"},
		{"beneficiary nowhere", applicant("IT", "2026-09-01", family(rules.FamilyMember{Relation: rules.Spouse, Status: rules.StatusBeneficiary})), "family[0].state"},
		{"nationality of a Member State", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) { a.Nationality = "DEU" })), "nationality"},
		{"negative assessed age", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) { a.AssessedAge, a.AgeAssessedOn = -1, d("2026-09-01") })), "assessed_age"},
		{"representation on a residence document", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) {
			a.Documents = []rules.Document{{Kind: rules.ResidenceDocument, Issuer: "FR", IssuedFor: "DE", ValidFrom: d("2026-01-01"), ValidTo: d("2027-01-01")}}
		})), "documents[0].issued_for"},
		{"stay ending before it began", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) {
			a.Stays = []rules.Stay{{State: "AT", From: d("2026-01-01"), To: d("2025-01-01")}}
		})), "stays[0].to"},
		{"barred transfer to an unknown state", applicant("IT", "2026-09-01", with(func(a *rules.Applicant) { a.TransferBarred = []solidarity.MemberState{"CH"} })), "transfer_barred[0]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := rules.Validate(c.a)
			e, ok := err.(*solidarity.Error)
			if !ok || e.Code != solidarity.EINVALID || e.Field != c.field {
				t.Fatalf("Validate = %#v, want EINVALID on %s", err, c.field)
			}
			r := rules.Determine(c.a, rules.Params{})
			if r.Criterion != rules.InvalidInput || r.ErrorField != c.field || r.Responsible != "" {
				t.Errorf("Determine = %s %q %q", r.Criterion, r.ErrorField, r.Responsible)
			}
			if !strings.Contains(r.Explain(), c.field) {
				t.Errorf("Explain does not name the field:\n%s", r.Explain())
			}
		})
	}
	if err := rules.Validate(applicant("IT", "2026-09-01", sar("IT", "2026-08-24"))); err != nil {
		t.Errorf("a valid applicant: %v", err)
	}
	if err := (rules.Params{SARMonths: -1}).Validate(); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("negative SARMonths: %v", err)
	}
	if r := rules.Determine(applicant("IT", "2026-09-01"), rules.Params{EntryMonths: -3}); r.Criterion != rules.InvalidInput || r.ErrorField != "entry_months" {
		t.Errorf("negative EntryMonths: %+v", r)
	}
}

func TestDefaultParams(t *testing.T) {
	a := applicant("DE", "2027-05-01", sar("IT", "2026-08-24"), family(spouseBeneficiaryDE), doc(rules.ShortStayVisa, "FR", "2025-01-01", "2025-06-01"))
	zero, def := rules.Determine(a, rules.Params{}), rules.Determine(a, rules.DefaultParams())
	zj, _ := json.Marshal(zero)
	dj, _ := json.Marshal(def)
	if string(zj) != string(dj) {
		t.Errorf("zero Params and DefaultParams differ:\n%s\n%s", zj, dj)
	}
}

func TestExplainAndJSON(t *testing.T) {
	a := applicant("DE", "2026-11-01", firstReg("IT", "2026-09-01"), sar("IT", "2026-08-24"),
		doc(rules.ShortStayVisa, "FR", "2024-01-01", "2024-02-01"))
	r := rules.Determine(a, rules.Params{})
	text := r.Explain()
	for _, want := range []string{
		"Regulation (EU) 2024/1351 (AMMR)",
		"Member State responsible: Italy (IT)",
		"Entry, Art. 33(2) AMMR [V",
		"irregular_entries[0]: disembarked in IT on 2026-08-24 after a search-and-rescue operation",
		"1. Security gate (Art. 16(4) AMMR): no threat",
		"Residence documents and visas (Art. 29 AMMR)",
		"expired on 2024-02-01, 18 months or more before",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("Explain lacks %q:\n%s", want, text)
		}
	}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"regime", "registered", "responsible", "criterion", "article", "certainty", "evidence", "not_applied"} {
		if _, ok := m[k]; !ok {
			t.Errorf("JSON lacks %q: %s", k, b)
		}
	}
	if m["responsible"] != "IT" || m["criterion"] != "entry" || m["regime"] != "ammr" {
		t.Errorf("JSON: %s", b)
	}
	var back rules.Result
	if err := json.Unmarshal(b, &back); err != nil || back.Responsible != "IT" || len(back.NotApplied) != len(r.NotApplied) {
		t.Errorf("round trip: %v %+v", err, back)
	}
	// The applicant itself round-trips through JSON, for importers.
	aj, _ := json.Marshal(a)
	var a2 rules.Applicant
	if err := json.Unmarshal(aj, &a2); err != nil {
		t.Fatal(err)
	}
	if r2 := rules.Determine(a2, rules.Params{}); r2.Responsible != r.Responsible || r2.Article != r.Article {
		t.Errorf("after a JSON round trip: %s %s", r2.Responsible, r2.Article)
	}
}
