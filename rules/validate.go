package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"solidarity"
)

// Validate checks that a describes a possible applicant: known Member State codes,
// known relations, statuses and kinds, dates present where a rule needs them and in
// a possible order. It returns nil or an *solidarity.Error with code EINVALID whose
// Field names the offending field by its JSON path ("documents[1].valid_to").
func Validate(a Applicant) error {
	v := validator{}
	v.check(&a)
	if v.err == nil {
		return nil // not a typed nil
	}
	return v.err
}

type validator struct{ err *solidarity.Error }

func (v *validator) fail(field, format string, args ...any) {
	if v.err == nil {
		v.err = &solidarity.Error{Code: solidarity.EINVALID, Field: field, Message: fmt.Sprintf(format, args...)}
	}
}

// state checks a Member State code; "" is accepted only when optional.
func (v *validator) state(field string, m solidarity.MemberState, optional bool) {
	if m == "" {
		if !optional {
			v.fail(field, "a Member State is required")
		}
		return
	}
	if !m.Valid() {
		v.fail(field, "%q is not the Eurostat code of an EU Member State (Greece is EL)", string(m))
	}
}

func (v *validator) date(field string, t time.Time) {
	if t.IsZero() {
		v.fail(field, "a date is required")
	}
}

// euAlpha3 lists the ISO 3166-1 alpha-3 codes of the Member States.
var euAlpha3 = []string{"AUT", "BEL", "BGR", "HRV", "CYP", "CZE", "DNK", "EST", "FIN", "FRA", "DEU", "GRC", "HUN", "IRL",
	"ITA", "LVA", "LTU", "LUX", "MLT", "NLD", "POL", "PRT", "ROU", "SVK", "SVN", "ESP", "SWE"}

// check validates a section by section, in the order of its fields, so that the first
// error reported is that of the first field at fault.
func (v *validator) check(a *Applicant) {
	v.application(a)
	v.person(a)
	v.state("security_check_state", a.SecurityCheckState, true)
	v.state("best_interests_state", a.BestInterestsState, true)
	for i, m := range a.TransferBarred {
		v.state(fmt.Sprintf("transfer_barred[%d]", i), m, false)
	}
	if r := a.Relocation; r != nil {
		v.state("relocation.state", r.State, false)
		v.date("relocation.date", r.Date)
	}
	for i, f := range a.Family {
		v.familyMember(fmt.Sprintf("family[%d]", i), f)
	}
	for i, d := range a.Documents {
		v.document(fmt.Sprintf("documents[%d]", i), d)
	}
	for i, d := range a.Diplomas {
		p := fmt.Sprintf("diplomas[%d]", i)
		v.state(p+".issuer", d.Issuer, false)
		v.date(p+".issued", d.Issued)
		if d.StudyMonths < 0 {
			v.fail(p+".study_months", "%d is not a length of study", d.StudyMonths)
		}
	}
	for i, s := range a.Stays {
		p := fmt.Sprintf("stays[%d]", i)
		v.state(p+".state", s.State, false)
		v.date(p+".from", s.From)
		if !s.To.IsZero() && civil(s.To).Before(civil(s.From)) {
			v.fail(p+".to", "ends %s, before it began on %s", fmtDate(s.To), fmtDate(s.From))
		}
	}
	for i, e := range a.IrregularEntries {
		p := fmt.Sprintf("irregular_entries[%d]", i)
		v.state(p+".state", e.State, false)
		v.date(p+".date", e.Date)
		if !a.BirthDate.IsZero() && !e.Date.IsZero() && civil(e.Date).Before(civil(a.BirthDate)) {
			v.fail(p+".date", "entry on %s, before the applicant was born", fmtDate(e.Date))
		}
	}
	if e := a.VisaWaivedEntry; e != nil {
		v.state("visa_waived_entry.state", e.State, false)
		v.date("visa_waived_entry.date", e.Date)
	}
}

// application checks where and when the application was made, and the first
// registration, which cannot come after it.
func (v *validator) application(a *Applicant) {
	v.state("application.state", a.Application.State, false)
	v.date("application.date", a.Application.Date)
	if f := a.FirstRegistration; f != nil {
		v.state("first_registration.state", f.State, false)
		v.date("first_registration.date", f.Date)
		if !a.Application.Date.IsZero() && civil(f.Date).After(civil(a.Application.Date)) {
			v.fail("first_registration.date", "the first registration (%s) is after the application (%s)", fmtDate(f.Date), fmtDate(a.Application.Date))
		}
	}
}

// person checks the applicant's age (born before the application, at most 130, an
// assessed age with its date) and nationality (a third country's code).
func (v *validator) person(a *Applicant) {
	ref := a.ReferenceDate()
	if !a.BirthDate.IsZero() && !ref.IsZero() && civil(a.BirthDate).After(ref) {
		v.fail("birth_date", "born %s, after the application was registered on %s", fmtDate(a.BirthDate), fmtDate(ref))
	}
	if !a.BirthDate.IsZero() && !ref.IsZero() && ageAt(a.BirthDate, ref) > 130 {
		v.fail("birth_date", "born %s: older than 130 when the application was registered on %s", fmtDate(a.BirthDate), fmtDate(ref))
	}
	if a.AssessedAge < 0 || a.AssessedAge > 130 {
		v.fail("assessed_age", "%d is not a possible age", a.AssessedAge)
	}
	if a.AssessedAge != 0 && a.AgeAssessedOn.IsZero() {
		v.fail("age_assessed_on", "an assessed age needs the date of the assessment")
	}
	if n := strings.TrimSpace(a.Nationality); n != "" {
		if len(n) < 2 || len(n) > 3 || strings.IndexFunc(n, func(r rune) bool { return (r < 'A' || r > 'Z') && (r < 'a' || r > 'z') }) >= 0 {
			v.fail("nationality", "%q is not an ISO 3166-1 alpha-2 or alpha-3 code", n)
		} else if _, eu := solidarity.ParseMemberState(n); eu || slices.Contains(euAlpha3, strings.ToUpper(n)) {
			v.fail("nationality", "%q is a Member State: its nationals are not third-country nationals and cannot be applicants", n)
		}
	}
}

// familyMember checks one family member: known relation, status and ground of
// dependency, and a Member State for any status but unknown or irregular.
func (v *validator) familyMember(p string, f FamilyMember) {
	if !slices.Contains(relations, f.Relation) {
		v.fail(p+".relation", "%q is not one of %v", f.Relation, relations)
	}
	if !slices.Contains(statuses, f.Status) {
		v.fail(p+".status", "%q is not one of beneficiary, applicant, legally-present, irregular", f.Status)
	}
	if !slices.Contains(dependencies, f.Dependency) {
		v.fail(p+".dependency", "%q is not a ground of dependency of Art. 34(1)", f.Dependency)
	}
	v.state(p+".state", f.State, true)
	v.state(p+".responsible_state", f.ResponsibleState, true)
	if f.Status != StatusUnknown && f.Status != StatusIrregular && f.State == "" {
		v.fail(p+".state", "a %s family member must be in a Member State", f.Status)
	}
}

// document checks one residence document or visa: a known kind, its issuer, and a
// period of validity (and a withdrawal) in a possible order.
func (v *validator) document(p string, d Document) {
	if !slices.Contains(documentKinds, d.Kind) {
		v.fail(p+".kind", "%q is not one of %v", d.Kind, documentKinds)
	}
	v.state(p+".issuer", d.Issuer, false)
	v.state(p+".issued_for", d.IssuedFor, true)
	if d.IssuedFor != "" && !d.Kind.IsVisa() {
		v.fail(p+".issued_for", "only a visa is issued under a representation arrangement")
	}
	v.date(p+".valid_from", d.ValidFrom)
	v.date(p+".valid_to", d.ValidTo)
	if !d.ValidFrom.IsZero() && civil(d.ValidTo).Before(civil(d.ValidFrom)) {
		v.fail(p+".valid_to", "valid to %s, before valid from %s", fmtDate(d.ValidTo), fmtDate(d.ValidFrom))
	}
	if !d.Withdrawn.IsZero() && civil(d.Withdrawn).Before(civil(d.ValidFrom)) {
		v.fail(p+".withdrawn", "withdrawn %s, before it was valid from %s", fmtDate(d.Withdrawn), fmtDate(d.ValidFrom))
	}
}
