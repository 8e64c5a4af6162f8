package rules_test

import (
	"encoding/json"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/rules"
)

// A few states make collisions (same state in several facts) frequent.
var someStates = []solidarity.MemberState{"IT", "EL", "ES", "MT", "DE", "FR", "SE", "NL"}

var epoch = d("2014-01-01")

// genDate draws a civil date between 2014 and 2030, so that both regimes occur.
func genDate(t *rapid.T, label string) time.Time {
	return epoch.AddDate(0, 0, rapid.IntRange(0, 16*366).Draw(t, label))
}

func genDateUpTo(t *rapid.T, label string, max time.Time) time.Time {
	span := int(max.Sub(epoch).Hours()/24) + 400 // may also fall after max
	return epoch.AddDate(0, 0, rapid.IntRange(0, span).Draw(t, label))
}

func genState(t *rapid.T, label string) solidarity.MemberState {
	return rapid.SampledFrom(someStates).Draw(t, label)
}

func optState(t *rapid.T, label string) solidarity.MemberState {
	if rapid.Bool().Draw(t, label+"?") {
		return genState(t, label)
	}
	return ""
}

// genApplicant draws an applicant that passes Validate.
func genApplicant(t *rapid.T) rules.Applicant {
	app := genDate(t, "applied")
	a := rules.Applicant{Application: rules.Registration{State: genState(t, "app.state"), Date: app,
		TransitArea: rapid.IntRange(0, 9).Draw(t, "transit") == 0}}
	ref := app
	if rapid.Bool().Draw(t, "first?") {
		first := app.AddDate(0, 0, -rapid.IntRange(0, 400).Draw(t, "first.before"))
		a.FirstRegistration = &rules.Registration{State: genState(t, "first.state"), Date: first, TransitArea: rapid.IntRange(0, 9).Draw(t, "ftransit") == 0}
		ref = first
	}
	switch rapid.IntRange(0, 2).Draw(t, "age") {
	case 0:
		a.BirthDate = ref.AddDate(0, 0, -rapid.IntRange(0, 70*365).Draw(t, "age.days"))
	case 1:
		a.AssessedAge = rapid.IntRange(0, 40).Draw(t, "assessed")
		a.AgeAssessedOn = genDate(t, "assessed.on")
	}
	a.UnaccompaniedMinor = rapid.IntRange(0, 3).Draw(t, "uam") == 0
	a.SecurityThreat = rapid.IntRange(0, 9).Draw(t, "security") == 0
	a.SecurityCheckState = optState(t, "security.state")
	a.UnfitToTravel = rapid.IntRange(0, 5).Draw(t, "unfit") == 0
	a.BestInterestsState = optState(t, "bic")
	for range rapid.IntRange(0, 4).Draw(t, "family") {
		m := rules.FamilyMember{
			Relation:              rapid.SampledFrom([]rules.Relation{rules.Spouse, rules.Partner, rules.Child, rules.Parent, rules.ResponsibleAdult, rules.Sibling, rules.Relative}).Draw(t, "rel"),
			Status:                rapid.SampledFrom([]rules.Status{rules.StatusBeneficiary, rules.StatusApplicant, rules.StatusLegallyPresent, rules.StatusIrregular, rules.StatusUnknown}).Draw(t, "status"),
			State:                 genState(t, "fam.state"),
			FirstDecision:         rapid.Bool().Draw(t, "decision"),
			LinkInCountryOfOrigin: rapid.Bool().Draw(t, "origin"),
			LinkBeforeArrival:     rapid.Bool().Draw(t, "before"),
			ConsentInWriting:      rapid.Bool().Draw(t, "consent"),
			NotInBestInterests:    rapid.IntRange(0, 4).Draw(t, "nbic") == 0,
			CanTakeCare:           rapid.Bool().Draw(t, "care"),
			Dependency:            rapid.SampledFrom([]rules.Dependency{"", "", rules.OldAge, rules.SeriousIllness}).Draw(t, "dep"),
			JointApplication:      rapid.Bool().Draw(t, "joint"),
			ResponsibleState:      optState(t, "fam.resp"),
		}
		if rapid.Bool().Draw(t, "fam.birth?") {
			m.BirthDate = genDate(t, "fam.birth").AddDate(-20, 0, 0)
		}
		if m.Status == rules.StatusIrregular && rapid.Bool().Draw(t, "nowhere") {
			m.State = ""
		}
		a.Family = append(a.Family, m)
	}
	for range rapid.IntRange(0, 3).Draw(t, "docs") {
		from := genDateUpTo(t, "doc.from", ref)
		doc := rules.Document{
			Kind:      rapid.SampledFrom([]rules.DocumentKind{rules.ResidenceDocument, rules.LongStayVisa, rules.ShortStayVisa, rules.AirportTransitVisa}).Draw(t, "kind"),
			Issuer:    genState(t, "issuer"),
			ValidFrom: from,
			ValidTo:   from.AddDate(0, 0, rapid.IntRange(0, 3*365).Draw(t, "doc.len")),
		}
		if doc.Kind.IsVisa() {
			doc.IssuedFor = optState(t, "issued.for")
		}
		if rapid.IntRange(0, 4).Draw(t, "withdrawn?") == 0 {
			doc.Withdrawn = from.AddDate(0, 0, rapid.IntRange(0, 4*365).Draw(t, "withdrawn"))
		}
		doc.FraudAfterIssue = rapid.IntRange(0, 9).Draw(t, "fraud") == 0
		a.Documents = append(a.Documents, doc)
	}
	for range rapid.IntRange(0, 2).Draw(t, "diplomas") {
		a.Diplomas = append(a.Diplomas, rules.Diploma{Issuer: genState(t, "dipl.issuer"), Issued: genDateUpTo(t, "dipl.issued", ref),
			StudyMonths: rapid.IntRange(0, 60).Draw(t, "study")})
	}
	for range rapid.IntRange(0, 2).Draw(t, "stays") {
		from := genDateUpTo(t, "stay.from", ref)
		s := rules.Stay{State: genState(t, "stay.state"), From: from}
		if rapid.Bool().Draw(t, "stay.to?") {
			s.To = from.AddDate(0, 0, rapid.IntRange(0, 400).Draw(t, "stay.len"))
		}
		a.Stays = append(a.Stays, s)
	}
	for range rapid.IntRange(0, 3).Draw(t, "entries") {
		e := rules.IrregularEntry{State: genState(t, "entry.state"), Date: genDateUpTo(t, "entry.date", ref), SAR: rapid.Bool().Draw(t, "sar")}
		if !a.BirthDate.IsZero() && e.Date.Before(a.BirthDate) {
			e.Date = a.BirthDate
		}
		a.IrregularEntries = append(a.IrregularEntries, e)
	}
	if rapid.IntRange(0, 3).Draw(t, "visafree?") == 0 {
		a.VisaWaivedEntry = &rules.VisaWaivedEntry{State: genState(t, "vw.state"), Date: genDateUpTo(t, "vw.date", ref),
			WaivedWhereRegistered: rapid.Bool().Draw(t, "vw.here")}
	}
	if rapid.IntRange(0, 5).Draw(t, "relocated?") == 0 {
		a.Relocation = &rules.Relocation{State: genState(t, "reloc.state"), Date: genDateUpTo(t, "reloc.date", ref)}
	}
	for range rapid.IntRange(0, 2).Draw(t, "barred") {
		a.TransferBarred = append(a.TransferBarred, genState(t, "barred.state"))
	}
	return a
}

// TestPropertyFirstApplicable: on any valid applicant Determine does not panic, names a
// criterion of the regime's hierarchy and a Member State, and the criterion applied is
// the first applicable one: every criterion before it does not apply on its own, and
// the walk records exactly those, in order.
func TestPropertyFirstApplicable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genApplicant(t)
		if err := rules.Validate(a); err != nil {
			t.Fatalf("generated applicant is invalid: %v", err)
		}
		r := rules.Determine(a, rules.Params{})
		h := rules.Hierarchy(r.Regime)
		pos := slices.Index(h, r.Criterion)
		if pos < 0 {
			t.Fatalf("criterion %q is not in the %s hierarchy", r.Criterion, r.Regime)
		}
		if !r.Responsible.Valid() || r.Article == "" || r.Reason == "" || r.Certainty == "" {
			t.Fatalf("incomplete result: %+v", r)
		}
		if len(r.NotApplied) != pos {
			t.Fatalf("%d criteria not applied before %s at position %d", len(r.NotApplied), r.Criterion, pos)
		}
		for i, c := range h[:pos] {
			if r.NotApplied[i].Criterion != c || r.NotApplied[i].Reason == "" {
				t.Fatalf("not applied[%d] = %+v, want %s with a reason", i, r.NotApplied[i], c)
			}
			if f := rules.Check(a, rules.Params{}, c); f.Applies {
				t.Fatalf("%s applies on its own (%s, %s) but the walk went on to %s", c, f.State, f.Reason, r.Criterion)
			}
		}
		if f := rules.Check(a, rules.Params{}, r.Criterion); !f.Applies || f.State != r.Responsible || f.Article != r.Article {
			t.Fatalf("Check(%s) = %+v, Determine gave %s (%s)", r.Criterion, f, r.Responsible, r.Article)
		}
		if r.Regime == rules.DublinIII && !a.ReferenceDate().Before(rules.DefaultParams().DublinIIIUntil) {
			t.Fatalf("Dublin III for an application first registered %s", a.ReferenceDate())
		}
		// Evidence names fields of the applicant.
		for _, e := range r.Evidence {
			if e.Field == "" || e.Fact == "" {
				t.Fatalf("empty evidence %+v", e)
			}
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
		if r.Explain() == "" {
			t.Fatal("empty explanation")
		}
		// Determine is a function: the same input gives the same result.
		again := rules.Determine(a, rules.DefaultParams())
		j1, _ := json.Marshal(r)
		j2, _ := json.Marshal(again)
		if string(j1) != string(j2) {
			t.Fatalf("not deterministic:\n%s\n%s", j1, j2)
		}
	})
}

// TestPropertyNoPanicOnArbitraryInput: Determine returns InvalidInput exactly when
// Validate fails, and never panics, on applicants with arbitrary codes and dates.
func TestPropertyNoPanicOnArbitraryInput(t *testing.T) {
	codes := []solidarity.MemberState{"", "IT", "EL", "GR", "XX", "de", "UK", "CH", "EU27_2020"}
	anyDate := func(t *rapid.T, label string) time.Time {
		if rapid.IntRange(0, 5).Draw(t, label+"?") == 0 {
			return time.Time{}
		}
		return time.Unix(rapid.Int64Range(-1e11, 1e11).Draw(t, label), 0)
	}
	rapid.Check(t, func(t *rapid.T) {
		a := rules.Applicant{
			BirthDate:          anyDate(t, "birth"),
			AssessedAge:        rapid.IntRange(-5, 200).Draw(t, "age"),
			AgeAssessedOn:      anyDate(t, "assessed"),
			UnaccompaniedMinor: rapid.Bool().Draw(t, "uam"),
			Nationality:        rapid.SampledFrom([]string{"", "ERI", "SY", "DEU", "??", "x"}).Draw(t, "nat"),
			Application:        rules.Registration{State: rapid.SampledFrom(codes).Draw(t, "app"), Date: anyDate(t, "app.date")},
			SecurityThreat:     rapid.Bool().Draw(t, "sec"),
			SecurityCheckState: rapid.SampledFrom(codes).Draw(t, "sec.state"),
			TransferBarred:     rapid.SliceOfN(rapid.SampledFrom(codes), 0, 2).Draw(t, "barred"),
		}
		if rapid.Bool().Draw(t, "first?") {
			a.FirstRegistration = &rules.Registration{State: rapid.SampledFrom(codes).Draw(t, "first"), Date: anyDate(t, "first.date")}
		}
		for range rapid.IntRange(0, 3).Draw(t, "n") {
			a.Family = append(a.Family, rules.FamilyMember{
				Relation:         rules.Relation(rapid.SampledFrom([]string{"spouse", "child", "relative", "cousin", ""}).Draw(t, "rel")),
				Status:           rules.Status(rapid.SampledFrom([]string{"beneficiary", "applicant", "", "refugee"}).Draw(t, "st")),
				State:            rapid.SampledFrom(codes).Draw(t, "fs"),
				BirthDate:        anyDate(t, "fb"),
				JointApplication: rapid.Bool().Draw(t, "joint"),
				ResponsibleState: rapid.SampledFrom(codes).Draw(t, "fr"),
				ConsentInWriting: rapid.Bool().Draw(t, "consent"),
			})
			a.Documents = append(a.Documents, rules.Document{
				Kind:      rules.DocumentKind(rapid.SampledFrom([]string{"residence-document", "short-stay-visa", "passport"}).Draw(t, "kind")),
				Issuer:    rapid.SampledFrom(codes).Draw(t, "issuer"),
				IssuedFor: rapid.SampledFrom(codes).Draw(t, "for"),
				ValidFrom: anyDate(t, "from"), ValidTo: anyDate(t, "to"), Withdrawn: anyDate(t, "wd"),
			})
			a.IrregularEntries = append(a.IrregularEntries, rules.IrregularEntry{State: rapid.SampledFrom(codes).Draw(t, "es"), Date: anyDate(t, "ed"), SAR: rapid.Bool().Draw(t, "sar")})
			a.Diplomas = append(a.Diplomas, rules.Diploma{Issuer: rapid.SampledFrom(codes).Draw(t, "di"), Issued: anyDate(t, "dd"), StudyMonths: rapid.IntRange(-2, 100).Draw(t, "sm")})
			a.Stays = append(a.Stays, rules.Stay{State: rapid.SampledFrom(codes).Draw(t, "ss"), From: anyDate(t, "sf"), To: anyDate(t, "st2")})
		}
		p := rules.Params{SARMonths: rapid.IntRange(-2, 30).Draw(t, "sarm"), AMMRApplies: anyDate(t, "ammr"), DublinIIIUntil: anyDate(t, "diii")}
		r := rules.Determine(a, p)
		invalid := rules.Validate(a) != nil || p.Validate() != nil
		if invalid != (r.Criterion == rules.InvalidInput) {
			t.Fatalf("invalid=%v but criterion %s (%s)", invalid, r.Criterion, r.Error)
		}
		if invalid && (r.Error == "" || r.Responsible != "") {
			t.Fatalf("invalid input result: %+v", r)
		}
		if !invalid && !r.Responsible.Valid() {
			t.Fatalf("no Member State responsible: %+v", r)
		}
		_ = r.Explain()
	})
}

// TestPropertyEntryOracle compares Determine with an independent reading of Art. 33 on
// applicants whose only facts are entries: the earliest SAR disembarkation within 12
// months, else the earliest irregular crossing within 20 months, else the first
// registration.
func TestPropertyEntryOracle(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		app := d("2027-01-01").AddDate(0, 0, rapid.IntRange(0, 1500).Draw(t, "app"))
		a := rules.Applicant{Application: rules.Registration{State: genState(t, "app.state"), Date: app}}
		for range rapid.IntRange(0, 4).Draw(t, "n") {
			a.IrregularEntries = append(a.IrregularEntries, rules.IrregularEntry{State: genState(t, "s"),
				Date: app.AddDate(0, 0, -rapid.IntRange(-30, 1000).Draw(t, "back")), SAR: rapid.Bool().Draw(t, "sar")})
		}
		within := func(e rules.IrregularEntry, months int) bool {
			if e.Date.After(app) {
				return false
			}
			// The same-numbered day months later, or the month's last day.
			y, m, dd := e.Date.Date()
			end := time.Date(y, m+time.Month(months), 1, 0, 0, 0, 0, time.UTC)
			if last := end.AddDate(0, 1, -1).Day(); dd > last {
				dd = last
			}
			end = time.Date(end.Year(), end.Month(), dd, 0, 0, 0, 0, time.UTC)
			return !app.After(end)
		}
		want := a.Application.State
		var best *rules.IrregularEntry
		for _, sarPass := range []bool{true, false} {
			for i, e := range a.IrregularEntries {
				months := 20
				if e.SAR {
					months = 12
				}
				if e.SAR == sarPass && within(e, months) && (best == nil || e.Date.Before(best.Date)) {
					best = &a.IrregularEntries[i]
				}
			}
			if best != nil {
				want = best.State
				break
			}
		}
		if r := rules.Determine(a, rules.Params{}); r.Responsible != want {
			t.Fatalf("got %s (%s), want %s\n%s", r.Responsible, r.Article, want, r.Explain())
		}
	})
}

// TestPropertyEarlierCriterionWins: adding a qualifying family member who is a
// beneficiary (Art. 26) to any adult applicant without a security flag decides the case
// for that family member's Member State, whatever the later criteria say.
func TestPropertyEarlierCriterionWins(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		a := genApplicant(t)
		if ref := a.ReferenceDate(); ref.Before(rules.DefaultParams().DublinIIIUntil) {
			// Move the registrations into the AMMR; earlier facts stay earlier.
			shift := rules.DefaultParams().DublinIIIUntil.Sub(ref) + time.Duration(rapid.IntRange(0, 900).Draw(t, "shift"))*24*time.Hour
			a.Application.Date = a.Application.Date.Add(shift)
			if a.FirstRegistration != nil {
				a.FirstRegistration.Date = a.FirstRegistration.Date.Add(shift)
			}
		}
		a.SecurityThreat, a.UnaccompaniedMinor, a.Relocation, a.TransferBarred = false, false, nil, nil
		s := genState(t, "spouse.state")
		a.Family = append([]rules.FamilyMember{{Relation: rules.Spouse, State: s, Status: rules.StatusBeneficiary,
			LinkBeforeArrival: true, ConsentInWriting: true}}, a.Family...)
		r := rules.Determine(a, rules.Params{})
		if r.Criterion != rules.FamilyBeneficiary {
			t.Fatalf("criterion %s, want %s\n%s", r.Criterion, rules.FamilyBeneficiary, r.Explain())
		}
		if !slices.ContainsFunc(a.Family, func(m rules.FamilyMember) bool {
			return m.State == r.Responsible && m.Status == rules.StatusBeneficiary
		}) {
			t.Fatalf("responsible %s has no beneficiary family member", r.Responsible)
		}
	})
}
