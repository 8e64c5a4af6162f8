package rules_test

import (
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/rules"
)

// d parses a civil date; tests only.
func d(s string) time.Time {
	t, err := time.Parse("2006-01-02", s)
	if err != nil {
		panic(err)
	}
	return t
}

// applicant returns an adult applicant whose application was registered in state on
// date, with no other facts, changed by fs.
func applicant(state solidarity.MemberState, date string, fs ...func(*rules.Applicant)) rules.Applicant {
	a := rules.Applicant{
		BirthDate:   d("1995-03-10"),
		Nationality: "ERI",
		Application: rules.Registration{State: state, Date: d(date)},
	}
	for _, f := range fs {
		f(&a)
	}
	return a
}

func firstReg(state solidarity.MemberState, date string) func(*rules.Applicant) {
	return func(a *rules.Applicant) { a.FirstRegistration = &rules.Registration{State: state, Date: d(date)} }
}

func sar(state solidarity.MemberState, date string) func(*rules.Applicant) {
	return func(a *rules.Applicant) {
		a.IrregularEntries = append(a.IrregularEntries, rules.IrregularEntry{State: state, Date: d(date), SAR: true, Source: "Eurodac Art. 24"})
	}
}

func crossing(state solidarity.MemberState, date string) func(*rules.Applicant) {
	return func(a *rules.Applicant) {
		a.IrregularEntries = append(a.IrregularEntries, rules.IrregularEntry{State: state, Date: d(date), Source: "Eurodac Art. 22"})
	}
}

func family(m rules.FamilyMember) func(*rules.Applicant) {
	return func(a *rules.Applicant) { a.Family = append(a.Family, m) }
}

func doc(kind rules.DocumentKind, issuer solidarity.MemberState, from, to string) func(*rules.Applicant) {
	return func(a *rules.Applicant) {
		a.Documents = append(a.Documents, rules.Document{Kind: kind, Issuer: issuer, ValidFrom: d(from), ValidTo: d(to)})
	}
}

func diploma(issuer solidarity.MemberState, issued string, months int) func(*rules.Applicant) {
	return func(a *rules.Applicant) {
		a.Diplomas = append(a.Diplomas, rules.Diploma{Issuer: issuer, Issued: d(issued), StudyMonths: months})
	}
}

func minor(birth string) func(*rules.Applicant) {
	return func(a *rules.Applicant) { a.BirthDate = d(birth); a.UnaccompaniedMinor = true }
}

func with(f func(*rules.Applicant)) func(*rules.Applicant) { return f }

// mustNotApplied fails unless r records c as not applied with a reason containing want.
func mustNotApplied(tb testing.TB, r rules.Result, c rules.Criterion, want string) {
	tb.Helper()
	for _, n := range r.NotApplied {
		if n.Criterion == c {
			all := n.Reason + " | " + strings.Join(n.Details, " | ")
			if !strings.Contains(all, want) {
				tb.Errorf("%s not applied for %q, want reason containing %q", c, all, want)
			}
			return
		}
	}
	tb.Errorf("%s is not among the criteria not applied: %+v", c, r.NotApplied)
}
