package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"solidarity"
)

// The family criteria: AMMR Arts. 25 (unaccompanied minors), 26 and 27 (family
// members who are beneficiaries or applicants), 28 (family procedure) and 34
// (dependent persons), Dublin III Arts. 8–11 and 16, with the definition of a family
// member they share (Art. 2(8) AMMR, Art. 2(g) Dublin III).

// person describes family[i] without its index: "spouse F-2, beneficiary in DE".
func (w *walker) person(i int) string {
	m := w.a.Family[i]
	s := string(m.Relation)
	if m.Ref != "" {
		s += " " + m.Ref
	}
	if m.Status != StatusUnknown {
		s += ", " + string(m.Status)
	}
	if m.State != "" {
		s += " in " + string(m.State)
	}
	return s
}

// describe names family[i] with its index, for the details of a finding.
func (w *walker) describe(i int) string { return fmt.Sprintf("family[%d] (%s)", i, w.person(i)) }

func (w *walker) evidenceFamily(i int, what string) Evidence {
	fact := w.person(i)
	if what != "" {
		fact += ": " + what
	}
	return Evidence{fmt.Sprintf("family[%d]", i), withSource(fact, w.a.Family[i].Source)}
}

// linkExisted checks when the family was formed: before the applicant arrived on the
// territory (AMMR Art. 2(8), spec P/M) or in the country of origin (Dublin III
// Art. 2(g), and the AMMR when FamilyLinkInCountryOfOrigin is set).
func (w *walker) linkExisted(m FamilyMember) (bool, string) {
	if w.reg == DublinIII {
		if m.LinkInCountryOfOrigin {
			return true, ""
		}
		return false, "the family is not shown to have existed in the country of origin (Art. 2(g) Dublin III)"
	}
	if w.p.FamilyLinkInCountryOfOrigin {
		if m.LinkInCountryOfOrigin {
			return true, ""
		}
		return false, "the family is not shown to have existed in the country of origin (Art. 2(8) AMMR, as configured)"
	}
	if m.LinkBeforeArrival || m.LinkInCountryOfOrigin {
		return true, ""
	}
	return false, "the family is not shown to have existed before the applicant arrived on the territory (Art. 2(8) AMMR)"
}

// familyMember reports whether m is a family member within AMMR Art. 2(8) (Dublin III
// Art. 2(g)): spouse or partner, minor child, and for a minor applicant the parent or
// responsible adult, the family having existed at the time the definition requires. A
// parent's link is not dated: it exists from birth.
func (w *walker) familyMember(m FamilyMember) (bool, string) {
	def := w.art("Art. 2(8)", "Art. 2(g)")
	switch m.Relation {
	case Spouse, Partner:
	case Child:
		if !m.BirthDate.IsZero() && ageAt(m.BirthDate, w.ref) >= w.p.AdultAge {
			return false, "an adult child is not a family member (" + def + ")"
		}
	case Parent, ResponsibleAdult:
		if !w.applicantMinor() {
			return false, "a parent or responsible adult is a family member only of a minor applicant (" + def + ")"
		}
		if m.Relation == Parent {
			return true, ""
		}
	case Sibling:
		if w.reg == DublinIII || !w.p.SiblingsAreFamilyMembers {
			return false, "a sibling is not a family member (" + def + ")"
		}
		return true, ""
	default:
		return false, "a relative is not a family member (" + def + ")"
	}
	return w.linkExisted(m)
}

func legallyPresent(m FamilyMember) bool {
	return m.State != "" && (m.Status == StatusBeneficiary || m.Status == StatusApplicant || m.Status == StatusLegallyPresent)
}

// Reasons a family member does not count, shared by several criteria.
const (
	notLegallyPresent = "not legally present in a Member State"
	notBestInterests  = "shown not to be in the best interests of the child"
	noWrittenConsent  = "the persons concerned have not expressed their wish in writing"
)

// familyWhere returns the indices of the family members that check keeps, in order. A
// member check does not keep is recorded in f.Details with the reason check gives, or
// passed over silently when it gives none (the criterion is not about such a person);
// the reason is read only for a member not kept.
func (w *walker) familyWhere(f *Finding, check func(m FamilyMember) (bool, string)) []int {
	var idx []int
	for i, m := range w.a.Family {
		switch ok, why := check(m); {
		case ok:
			idx = append(idx, i)
		case why != "":
			f.Details = append(f.Details, w.describe(i)+": "+why)
		}
	}
	return idx
}

// designate makes f apply to state, chosen among the family members at idx, and records
// as evidence each of them in that Member State with what shows about them.
func (w *walker) designate(f *Finding, idx []int, state solidarity.MemberState, what func(m FamilyMember) string) {
	f.Applies = true
	f.State = state
	for _, i := range idx {
		if m := w.a.Family[i]; m.State == state {
			f.Evidence = append(f.Evidence, w.evidenceFamily(i, what(m)))
		}
	}
}

// says is the evidence of designate when it is the same for every family member.
func says(fact string) func(FamilyMember) string { return func(FamilyMember) string { return fact } }

func (w *walker) familyState(i int) solidarity.MemberState { return w.a.Family[i].State }

// statesOf returns the distinct Member States of the family members at idx, in order.
func (w *walker) statesOf(idx []int) []solidarity.MemberState {
	states, _ := tally(idx, w.familyState)
	return states
}

// chooseBIC picks among several Member States for an unaccompanied minor: the one
// recorded as chosen in the best interests of the child (Art. 25(4)), else the first
// listed with a point for review.
func (w *walker) chooseBIC(states []solidarity.MemberState, f *Finding, who string) solidarity.MemberState {
	if len(states) == 1 {
		return states[0]
	}
	if slices.Contains(states, w.a.BestInterestsState) {
		f.Evidence = append(f.Evidence, Evidence{"best_interests_state", fmt.Sprintf("%s chosen among %s in the best interests of the child", w.a.BestInterestsState, joinStates(states))})
		return w.a.BestInterestsState
	}
	f.Review = append(f.Review, fmt.Sprintf("%s are in several Member States (%s): the choice is made in the best interests of the child (%s). None was recorded, so the first listed, %s, was taken.",
		who, joinStates(states), w.art("Art. 25(4)", "Art. 8(3)"), states[0]))
	return states[0]
}

// mostMembers picks the Member State with the most qualifying family members. The spec
// gives no rule for family members in several Member States under Arts. 26–27: ties
// go to the first listed and are flagged for review.
func (w *walker) mostMembers(idx []int, f *Finding) solidarity.MemberState {
	states, count := tally(idx, w.familyState)
	if len(states) == 1 {
		return states[0]
	}
	_, tied := mostCommon(states, count)
	best := tied[0]
	f.Review = append(f.Review, fmt.Sprintf("Qualifying family members are in several Member States (%s); the spec gives no rule for this. The Member State with the most of them (ties: the first listed), %s, was taken.",
		joinStates(states), best))
	return best
}

// unaccompaniedMinor is AMMR Art. 25 (spec §2 C1, tag V; 25(5) qualifier P), Dublin III
// Art. 8 (tag M in the spec: R).
func (w *walker) unaccompaniedMinor() Finding {
	f := Finding{Criterion: UnaccompaniedMinor, Article: w.art("Art. 25", "Art. 8"), Certainty: w.tag("V", "R")}
	if !w.a.UnaccompaniedMinor {
		f.Reason = "the applicant is not an unaccompanied minor"
		return f
	}
	if !w.uam() {
		f.Reason = fmt.Sprintf("recorded as unaccompanied, but aged %d when the application was registered on %s: not a minor", ageAt(w.birth, w.ref), fmtDate(w.ref))
		return f
	}
	// 25(2): family member or sibling legally present; Dublin III 8(1).
	fam := w.familyWhere(&f, func(m FamilyMember) (bool, string) {
		if m.Relation == Relative {
			return false, ""
		}
		if !legallyPresent(m) {
			return false, notLegallyPresent
		}
		if m.Relation != Sibling {
			if ok, why := w.familyMember(m); !ok {
				return false, why
			}
		}
		return !m.NotInBestInterests, notBestInterests
	})
	if states := w.statesOf(fam); len(states) > 0 {
		w.designate(&f, fam, w.chooseBIC(states, &f, "Family members or siblings"), says("legally present"))
		f.Article = w.art("Art. 25(2)", "Art. 8(1)")
		if len(states) > 1 {
			// Several Member States: the choice on the best interests of the child is
			// what decides (Art. 25(4) AMMR covers family members and siblings too;
			// Dublin III Art. 8(3)).
			f.Article = w.art("Art. 25(4)", "Art. 8(3)")
		}
		f.Reason = "a family member or sibling of the unaccompanied minor is legally present there, and it is not shown to be against the best interests of the child"
		f.Notes = append(f.Notes, w.minorNote())
		return f
	}
	// 25(3)–(4): a relative legally present in another Member State who can take care
	// of the minor; Dublin III 8(2)–(3). Under the AMMR "another" is read against the
	// Member State that determines responsibility, the one of first registration (Art.
	// 38(1)), whose situation counts (Art. 24): a relative in the Member State where
	// the minor has applied since is in another Member State. Under Dublin III the
	// Member State where the minor is present decides in the end (Art. 8(4), CJEU MA,
	// C-648/11), and Art. 8(2) is read against it.
	own, ownWhy := w.first.State, "in the Member State of first registration, which determines responsibility (Art. 38(1) AMMR), not in another one"
	if w.reg == DublinIII {
		own, ownWhy = w.det, "in the Member State where the minor is present, not in another one"
	}
	rel := w.familyWhere(&f, func(m FamilyMember) (bool, string) {
		switch {
		case m.Relation != Relative:
			return false, ""
		case !legallyPresent(m):
			return false, notLegallyPresent
		case m.State == own:
			return false, ownWhy
		case !m.CanTakeCare:
			return false, "not found able to take care of the minor"
		}
		return !m.NotInBestInterests, notBestInterests
	})
	if states := w.statesOf(rel); len(states) > 0 {
		w.designate(&f, rel, w.chooseBIC(states, &f, "Relatives who can take care of the minor"), says("legally present, able to take care of the minor"))
		f.Article = w.art("Art. 25(3)", "Art. 8(2)")
		if len(states) > 1 {
			f.Article = w.art("Art. 25(4)", "Art. 8(3)")
		}
		f.Reason = "a relative legally present in another Member State can take care of the unaccompanied minor, and it is not shown to be against the best interests of the child"
		if w.reg == AMMR && f.State == w.det && f.State != w.first.State {
			f.Notes = append(f.Notes, fmt.Sprintf("The relative is in %s, where the minor applied after the application was first registered in %s: \"another Member State\" in Art. 25(3) is read against %s, which determines responsibility (Art. 38(1)) on the situation when the application was first registered (Art. 24).",
				f.State, w.first.State, w.first.State))
		}
		f.Notes = append(f.Notes, w.minorNote())
		return f
	}
	none := "no family member, sibling or relative of the unaccompanied minor legally present in a Member State who qualifies"
	if w.reg == DublinIII {
		// Art. 8(4): where the minor lodged the application, read by the CJEU in MA
		// (C-648/11) as the Member State where the minor is present (spec §9, M).
		f.Applies = true
		f.State = w.det
		f.Article = "Art. 8(4) Dublin III"
		f.Reason = none + ": the Member State where the minor lodged the application and is present (CJEU, MA, C-648/11)"
		f.Evidence = []Evidence{{"application", fmt.Sprintf("application lodged in %s on %s", w.det, fmtDate(w.a.Application.Date))}}
		return f
	}
	if w.relocated {
		f.Reason = none + "; " + w.leftOutAfterRelocation("Art. 25(5)")
		return f
	}
	f.Applies = true
	f.State = w.first.State
	f.Article = "Art. 25(5) AMMR"
	f.Certainty = "P"
	f.Reason = none + ": the Member State where the minor's application was first registered"
	f.Evidence = []Evidence{w.firstEvidence()}
	f.Notes = append(f.Notes, w.minorNote())
	f.Review = append(f.Review, "The qualifier of Art. 25(5) (believed to be \"unless it is demonstrated that this is not in the best interests of the minor\") was cut off in the source (spec §2 C1, tag P).")
	return f
}

func (w *walker) minorNote() string {
	if w.reg == DublinIII {
		return "The best interests of the child are a primary consideration in every procedure for a minor (Art. 6 Dublin III)."
	}
	return "The take charge time limits of Art. 39(1) AMMR run for an unaccompanied minor too; where the determining Member State considers it in the best interests of the child, it may go on and request another Member State to take charge notwithstanding their expiry, at any time before a first decision on the substance (Art. 39(1), 4th subpara. AMMR)."
}

// familyBeneficiary is AMMR Art. 26 (spec §2 C2, tag M: R), Dublin III Art. 9.
func (w *walker) familyBeneficiary() Finding {
	return w.familyWithStatus(Finding{Criterion: FamilyBeneficiary, Article: w.art("Art. 26", "Art. 9"), Certainty: w.tag("R", "S")}, familyStatus{
		status:   StatusBeneficiary,
		other:    "not a beneficiary of international protection",
		none:     "no family member who is a beneficiary of international protection in a Member State qualifies",
		reason:   "a family member has been allowed to reside there as a beneficiary of international protection, and the persons concerned expressed their wish in writing",
		evidence: "beneficiary of international protection, written consent",
	})
}

// familyApplicant is AMMR Art. 27 (spec §2 C3, tag M: R), Dublin III Art. 10.
func (w *walker) familyApplicant() Finding {
	return w.familyWithStatus(Finding{Criterion: FamilyApplicant, Article: w.art("Art. 27", "Art. 10"), Certainty: w.tag("R", "S")}, familyStatus{
		status:   StatusApplicant,
		other:    "not an applicant for international protection",
		pending:  true,
		none:     "no family member whose application in a Member State awaits a first decision on the substance qualifies",
		reason:   "a family member's application there has not yet had a first decision on the substance, and the persons concerned expressed their wish in writing",
		evidence: "applicant awaiting a first decision, written consent",
	})
}

// familyStatus is what sets Art. 26 apart from Art. 27 (Dublin III Arts. 9 and 10).
type familyStatus struct {
	status   Status // the status the family member must have
	other    string // why a family member with another status does not count
	pending  bool   // a first decision on the substance excludes the family member
	none     string // the reason when no family member qualifies
	reason   string // the reason when one does
	evidence string // what the evidence says of each family member relied on
}

// familyWithStatus designates the Member State where a family member with status s.status
// is, the persons concerned having expressed their wish in writing; with family members
// in several Member States, the one with most of them.
func (w *walker) familyWithStatus(f Finding, s familyStatus) Finding {
	if w.closedToMinor(&f) {
		return f
	}
	cands := w.familyWhere(&f, func(m FamilyMember) (bool, string) {
		switch {
		case m.Status != s.status:
			if m.Relation == Relative {
				return false, ""
			}
			return false, s.other
		case s.pending && m.FirstDecision:
			return false, "a first decision on the substance has been taken"
		}
		if ok, why := w.familyMember(m); !ok {
			return false, why
		}
		return m.ConsentInWriting, noWrittenConsent
	})
	if len(cands) == 0 {
		f.Reason = s.none
		return f
	}
	w.designate(&f, cands, w.mostMembers(cands, &f), says(s.evidence))
	f.Reason = s.reason
	return f
}

// familyProcedure is AMMR Art. 28 (spec §2 C4, tag M: R), Dublin III Art. 11: family
// members and minor unmarried siblings applying in the same Member State together,
// whom the criteria applied separately would split, go to (a) the Member State
// responsible for the largest number of them, failing that (b) the one responsible for
// the oldest of them.
func (w *walker) familyProcedure() Finding {
	f := Finding{Criterion: FamilyProcedure, Article: w.art("Art. 28", "Art. 11"), Certainty: w.tag("R", "R")}
	if w.closedToMinor(&f) {
		return f
	}
	group := w.familyWhere(&f, func(m FamilyMember) (bool, string) {
		if !m.JointApplication {
			return false, ""
		}
		ok, why := w.familyMember(m)
		if m.Relation == Sibling && (m.BirthDate.IsZero() || ageAt(m.BirthDate, w.ref) < w.p.AdultAge) {
			ok = true // a minor sibling counts (Art. 28)
		} else if m.Relation == Sibling && !ok {
			why = "an adult sibling is neither a family member nor a minor sibling"
		}
		switch {
		case !ok:
			return false, why
		case m.State != w.first.State:
			return false, fmt.Sprintf("applied in %s, not in %s where the applicant's application was registered", m.State, w.first.State)
		}
		return m.ResponsibleState != "", "the Member State responsible for their own application is not recorded"
	})
	if len(group) == 0 {
		f.Reason = fmt.Sprintf("no family member or minor sibling applied jointly in %s with a recorded Member State responsible", w.first.State)
		return f
	}
	own, _ := w.walk(slices.Index(order(w.reg), FamilyProcedure) + 1)
	type person struct {
		field string
		state solidarity.MemberState
		birth time.Time
	}
	people := []person{{"applicant", own.State, w.birth}}
	for _, i := range group {
		m := w.a.Family[i]
		people = append(people, person{fmt.Sprintf("family[%d]", i), m.ResponsibleState, civil(m.BirthDate)})
	}
	states, count := tally(people, func(p person) solidarity.MemberState { return p.state })
	if len(states) == 1 {
		f.Reason = fmt.Sprintf("applying the criteria separately keeps the family together in %s", states[0])
		return f
	}
	f.Evidence = append(f.Evidence, Evidence{"applicant", fmt.Sprintf("alone, %s would be responsible (%s, %s)", own.State, own.Criterion.Label(), own.Article)})
	for _, i := range group {
		f.Evidence = append(f.Evidence, w.evidenceFamily(i, fmt.Sprintf("applied jointly; %s responsible for their application", w.a.Family[i].ResponsibleState)))
	}
	max, tied := mostCommon(states, count)
	if len(tied) == 1 {
		f.Applies = true
		f.State = tied[0]
		f.Article = w.art("Art. 28(a)", "Art. 11(a)")
		f.Reason = fmt.Sprintf("the criteria applied separately would split the family between %s: %s is responsible for the largest number of them (%d of %d)",
			joinStates(states), f.State, max, len(people))
		return f
	}
	oldest, unknown := -1, 0
	for i, p := range people {
		if p.birth.IsZero() {
			unknown++
			continue
		}
		if oldest < 0 || p.birth.Before(people[oldest].birth) {
			oldest = i
		}
	}
	if oldest < 0 {
		f.Reason = fmt.Sprintf("the criteria applied separately would split the family, the largest number is shared by %s, and no date of birth is known to find the oldest (%s)",
			joinStates(tied), w.art("Art. 28(b)", "Art. 11(b)"))
		f.Review = append(f.Review, "Record the dates of birth of the family applying together: Art. 28(b) needs the oldest of them.")
		return f
	}
	f.Applies = true
	f.State = people[oldest].state
	f.Article = w.art("Art. 28(b)", "Art. 11(b)")
	f.Reason = fmt.Sprintf("the criteria applied separately would split the family and no Member State is responsible for a larger number (%s share it): %s is responsible for the oldest of them (%s, born %s)",
		joinStates(tied), f.State, people[oldest].field, fmtDate(people[oldest].birth))
	if unknown > 0 {
		f.Review = append(f.Review, fmt.Sprintf("%d of the family applying together have no known date of birth: check that %s is the oldest (Art. 28(b)).", unknown, people[oldest].field))
	}
	return f
}

// dependentPersons is AMMR Art. 34 (spec §2 D1: 34(1) V, 34(2) M), Dublin III Art. 16.
// It is outside the order of Art. 24; the spec's safe default puts it after the family
// criteria and lets it override Arts. 29–33 (§2 D1 design note, §10 item 5).
func (w *walker) dependentPersons() Finding {
	f := Finding{Criterion: DependentPersons, Article: w.art("Art. 34", "Art. 16"), Certainty: w.tag("V", "R")}
	if w.closedToMinor(&f) {
		return f
	}
	cands := w.familyWhere(&f, func(m FamilyMember) (bool, string) {
		switch {
		case m.Dependency == "":
			return false, ""
		case m.Relation != Child && m.Relation != Sibling && m.Relation != Parent:
			return false, "the clause covers a child, sibling or parent only"
		case m.State == "" || (m.Status != StatusBeneficiary && m.Status != StatusLegallyPresent):
			return false, "not legally resident in a Member State"
		}
		if m.Relation == Child {
			if ok, why := w.linkExisted(m); !ok {
				return false, strings.Replace(why, "the family", "the family tie", 1)
			}
		}
		if !m.CanTakeCare {
			return false, "the carer is not found able to take care of the dependent person"
		}
		return m.ConsentInWriting, noWrittenConsent
	})
	if len(cands) == 0 {
		f.Reason = "no dependency on (or of) a child, sibling or parent legally resident in a Member State that meets every condition"
		return f
	}
	states := w.statesOf(cands)
	x := states[0]
	if len(states) > 1 {
		f.Review = append(f.Review, fmt.Sprintf("Dependency links in several Member States (%s); the first listed, %s, was taken.", joinStates(states), x))
	}
	w.designate(&f, cands, x, func(m FamilyMember) string {
		return fmt.Sprintf("dependency (%s), able to take care, written consent", m.Dependency)
	})
	f.Notes = append(f.Notes, "Art. 34 is outside the order of the criteria; it is examined after the family criteria and before Art. 29, as the spec suggests pending legal review (spec §2 D1, §10 item 5).")
	switch {
	case x == w.det:
		f.Article = w.art("Art. 34(1)", "Art. 16(1)")
		f.Reason = "the applicant and a child, sibling or parent legally resident in the determining Member State depend on each other: the persons are kept together there"
	case w.a.UnfitToTravel:
		f.State = w.det
		f.Article = w.art("Art. 34(2)", "Art. 16(2)")
		f.Certainty = "R"
		f.Reason = fmt.Sprintf("the carer lives in %s, but the applicant's state of health prevents travel there for a significant period: the Member State where the applicant is present is responsible", x)
		f.Evidence = append(f.Evidence, Evidence{"unfit_to_travel", "the applicant cannot travel for a significant period"})
	default:
		f.Article = w.art("Art. 34(2)", "Art. 16(2)")
		f.Certainty = "R"
		f.Reason = "the applicant and a child, sibling or parent legally resident in another Member State depend on each other: the Member State where the carer lives is responsible"
	}
	return f
}
