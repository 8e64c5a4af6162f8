package rules_test

import (
	"testing"

	"solidarity/rules"
)

// benchApplicant is a busy case: a family applying together, lapsed documents, a
// diploma, several entries, so that most criteria do real work before Art. 33(2).
func benchApplicant() rules.Applicant {
	return applicant("DE", "2027-01-10", firstReg("IT", "2026-09-01"), sar("IT", "2026-08-24"), crossing("EL", "2024-01-01"),
		doc(rules.ShortStayVisa, "FR", "2023-01-01", "2023-02-01"), doc(rules.ResidenceDocument, "NL", "2019-01-01", "2022-01-01"),
		diploma("ES", "2018-06-30", 36),
		family(rules.FamilyMember{Relation: rules.Spouse, State: "IT", Status: rules.StatusApplicant, LinkBeforeArrival: true,
			JointApplication: true, ResponsibleState: "IT", BirthDate: d("1994-01-01")}),
		family(rules.FamilyMember{Relation: rules.Child, State: "IT", Status: rules.StatusApplicant, LinkBeforeArrival: true,
			JointApplication: true, ResponsibleState: "IT", BirthDate: d("2019-01-01")}),
		family(rules.FamilyMember{Relation: rules.Sibling, State: "SE", Status: rules.StatusBeneficiary}),
		family(parentInDE),
	)
}

// BenchmarkDetermine: the target is under 1 ms per case.
func BenchmarkDetermine(b *testing.B) {
	a := benchApplicant()
	if r := rules.Determine(a, rules.Params{}); r.Criterion != rules.Entry {
		b.Fatalf("unexpected %s: %s", r.Criterion, r.Explain())
	}
	for b.Loop() {
		rules.Determine(a, rules.Params{})
	}
}

func BenchmarkExplain(b *testing.B) {
	r := rules.Determine(benchApplicant(), rules.Params{})
	for b.Loop() {
		_ = r.Explain()
	}
}
