package rules

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"solidarity"
)

// This file holds one method per criterion. Each returns a Finding; the walk and the
// bar on transfers (Art. 16(3)) are in determine.go.

// security is the gate of AMMR Art. 16(4) (spec §2 G1, tag P: the AMMR text is cut
// off; the mechanism is confirmed by the Irish International Protection Act 2026,
// s.132). It has no Dublin III counterpart.
func (w *walker) security() Finding {
	f := Finding{Criterion: Security, Article: "Art. 16(4) AMMR", Certainty: "P"}
	if !w.a.SecurityThreat {
		f.Reason = "no threat to internal security was established by the security check (SR Art. 15 or Art. 16(4) AMMR)"
		return f
	}
	f.Applies = true
	f.State = w.a.SecurityCheckState
	who := "the Member State that ran the security check"
	if f.State == "" {
		f.State = w.first.State
		who = "the Member State of first registration, which ran the security check"
	}
	f.Reason = fmt.Sprintf("the security check gave reasonable grounds to consider the applicant a threat to internal security: %s is responsible and the criteria are not applied", who)
	f.Evidence = []Evidence{{"security_threat", "threat to internal security established at screening"}}
	if w.a.SecurityCheckState != "" {
		f.Evidence = append(f.Evidence, Evidence{"security_check_state", "check run by " + string(w.a.SecurityCheckState)})
	}
	f.Notes = []string{
		"No take charge request is made (Art. 16(4) AMMR; IE Act 2026 s.132: \"Article 39 shall not apply\").",
		"The applicant is excluded from relocation and from any future relocation or transfer (Art. 67(2) AMMR).",
	}
	return f
}

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

// closedToMinor reports whether the criterion of f is not examined because the
// applicant is an unaccompanied minor, for whom only Art. 25 applies; f.Reason says so.
func (w *walker) closedToMinor(f *Finding) bool {
	if !w.uam() {
		return false
	}
	f.Reason = w.onlyArt25()
	return true
}

// leftOut reports whether the rule what is left out by the Member State of relocation
// (Art. 68(2)); f.Reason says so.
func (w *walker) leftOut(f *Finding, what string) bool {
	if !w.relocated {
		return false
	}
	f.Reason = w.leftOutAfterRelocation(what)
	return true
}

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

// withSource appends the source of a fact, when there is one.
func withSource(fact, source string) string {
	if source != "" {
		fact += " [" + source + "]"
	}
	return fact
}

// decisive marks e as the evidence the choice among several rested on, when it is.
func decisive(e Evidence, is bool) Evidence {
	if is {
		e.Fact += " — decisive"
	}
	return e
}

// tally returns the distinct Member States that state gives for xs, in order, and how
// many of xs each has.
func tally[T any](xs []T, state func(T) solidarity.MemberState) ([]solidarity.MemberState, map[solidarity.MemberState]int) {
	var states []solidarity.MemberState
	count := map[solidarity.MemberState]int{}
	for _, x := range xs {
		s := state(x)
		if !slices.Contains(states, s) {
			states = append(states, s)
		}
		count[s]++
	}
	return states, count
}

// mostCommon returns the largest count among states and the states that have it, in
// order.
func mostCommon(states []solidarity.MemberState, count map[solidarity.MemberState]int) (int, []solidarity.MemberState) {
	max, tied := 0, []solidarity.MemberState(nil)
	for _, s := range states {
		switch {
		case count[s] > max:
			max, tied = count[s], []solidarity.MemberState{s}
		case count[s] == max:
			tied = append(tied, s)
		}
	}
	return max, tied
}

// pickBest returns the index among idx that cmp ranks highest (cmp(i, best) > 0 when i
// ranks above best), the first listed among equals, and whether an equal one from
// another Member State was passed over.
func pickBest(idx []int, cmp func(i, best int) int, state func(int) solidarity.MemberState) (int, bool) {
	best, ties := idx[0], 0
	for _, i := range idx[1:] {
		switch c := cmp(i, best); {
		case c > 0:
			best, ties = i, 0
		case c == 0 && state(i) != state(best):
			ties++
		}
	}
	return best, ties > 0
}

func (w *walker) familyState(i int) solidarity.MemberState { return w.a.Family[i].State }

// statesOf returns the distinct Member States of the family members at idx, in order.
func (w *walker) statesOf(idx []int) []solidarity.MemberState {
	states, _ := tally(idx, w.familyState)
	return states
}

func joinStates(ss []solidarity.MemberState) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
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

func (w *walker) firstEvidence() Evidence {
	field := "application"
	if w.a.FirstRegistration != nil {
		field = "first_registration"
	}
	return Evidence{field, fmt.Sprintf("application first registered in %s on %s", w.first.State, fmtDate(w.first.Date))}
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

// documents is AMMR Art. 29 (spec §2 C5: paras 1–4 V, para 5 P/M), Dublin III Art. 12.
// It sorts the documents into valid and lapsed within the limits of paragraph 4,
// chooses among them by paragraphs 1–3, and cites paragraph 4 where a lapsed document
// was weighed.
func (w *walker) documents() Finding {
	f := Finding{Criterion: Documents, Article: w.art("Art. 29", "Art. 12"), Certainty: w.tag("V", "S")}
	if w.closedToMinor(&f) || w.leftOut(&f, "Art. 29") {
		return f
	}
	lim := w.documentLimits()
	var valid, lapsed []int
	for i, d := range w.a.Documents {
		switch w.documentStanding(&f, i, d, lim) {
		case docValid:
			valid = append(valid, i)
		case docLapsed:
			lapsed = append(lapsed, i)
		}
	}
	cands := w.documentCandidates(&f, valid, lapsed)
	if len(cands) == 0 {
		f.Reason = fmt.Sprintf("no residence document or visa was valid when the application was registered, and none lapsed less than %d months (residence document) or %d months (visa) before it",
			lim.residence, lim.visa)
		return f
	}
	pick, sub := w.chooseDocument(&f, cands)
	isLapsed := func(i int) bool { return slices.Contains(lapsed, i) }
	d := w.a.Documents[pick]
	f.Applies = true
	f.State = docState(d)
	f.Article = w.docPara(sub)
	// Paragraph 4 is cited where it brought a lapsed document into the decision: the
	// one chosen, or one weighed against it under paragraph 3.
	weighed := strings.HasPrefix(sub, "(3)") && slices.ContainsFunc(cands, isLapsed)
	expired := isLapsed(pick)
	if expired || weighed {
		f.Article = w.art("Art. 29"+sub+" with Art. 29(4)", "Art. 12"+sub+" with Art. 12(4)")
	}
	if w.reg == AMMR && len(valid) > 0 && len(lapsed) > 0 {
		f.Notes = append(f.Notes, "Art. 29(4) AMMR makes paragraphs 1–3 apply to a document lapsed within its limits beside the valid ones: the AMMR has no \"only\" (Dublin III Art. 12(4) had it, and it is kept for applications under Dublin III).")
	}
	what := "a valid residence document"
	if d.Kind.IsVisa() {
		what = "a valid visa"
	}
	if expired {
		what = strings.Replace(what, "a valid", "a recently lapsed", 1)
	}
	f.Reason = fmt.Sprintf("the applicant holds %s issued by %s", what, f.State)
	if d.IssuedFor != "" {
		f.Reason += fmt.Sprintf(" (issued by %s on its behalf under a representation arrangement, Visa Code Art. 8)", d.Issuer)
	}
	for _, i := range cands {
		f.Evidence = append(f.Evidence, decisive(w.docEvidence(i), i == pick))
	}
	return f
}

// docPara cites paragraph n of Art. 29 AMMR (Art. 12 Dublin III).
func (w *walker) docPara(n string) string { return w.art("Art. 29"+n, "Art. 12"+n) }

// docLimits are the months after which a lapsed document no longer counts (Art. 29(4)
// AMMR, Art. 12(4) Dublin III).
type docLimits struct{ residence, visa int }

func (w *walker) documentLimits() docLimits {
	if w.reg == DublinIII {
		return docLimits{w.p.DublinExpiredResidenceMonths, w.p.DublinExpiredVisaMonths}
	}
	return docLimits{w.p.ExpiredResidenceMonths, w.p.ExpiredVisaMonths}
}

// docStanding is where a document stood when the application was registered.
type docStanding int

const (
	docOut    docStanding = iota // does not count; f.Details says why
	docValid                     // valid (Art. 29(1)–(3))
	docLapsed                    // expired or withdrawn within the limits (Art. 29(4))
)

// documentStanding tells whether documents[i] was valid when the application was
// registered, lapsed within the limits of paragraph 4, or does not count, and then
// records why in f.Details: a fraud after issue (paragraph 5), valid only later, lapsed
// too long before, or (Dublin III) withdrawn.
func (w *walker) documentStanding(f *Finding, i int, d Document, lim docLimits) docStanding {
	name := fmt.Sprintf("documents[%d] (%s)", i, w.docName(d))
	from, to := civil(d.ValidFrom), civil(d.ValidTo)
	withdrawn := civil(d.Withdrawn)
	switch {
	case d.FraudAfterIssue:
		f.Details = append(f.Details, name+": the issuing Member State established a fraud committed after issue ("+w.docPara("(5)")+")")
		return docOut
	case from.After(w.ref):
		f.Details = append(f.Details, fmt.Sprintf("%s: valid only from %s, after the application was registered on %s", name, fmtDate(from), fmtDate(w.ref)))
		return docOut
	}
	if !w.ref.After(to) && (withdrawn.IsZero() || w.ref.Before(withdrawn)) {
		return docValid
	}
	lapse, how := to, "expired on"
	if !withdrawn.IsZero() && !withdrawn.After(w.ref) && !withdrawn.After(to) {
		lapse, how = withdrawn, "was annulled, revoked or withdrawn on"
		if w.reg == DublinIII {
			f.Details = append(f.Details, fmt.Sprintf("%s: %s %s; Art. 12(4) Dublin III counts only expired documents", name, how, fmtDate(lapse)))
			return docOut
		}
	}
	limit := lim.visa
	if d.Kind == ResidenceDocument {
		limit = lim.residence
	}
	if lessThanMonthsBefore(lapse, w.ref, limit) {
		return docLapsed
	}
	f.Details = append(f.Details, fmt.Sprintf("%s: %s %s, %d months or more before the application was registered on %s (%s: less than %d months)",
		name, how, fmtDate(lapse), limit, fmtDate(w.ref), w.docPara("(4)"), limit))
	return docOut
}

// documentCandidates returns the documents paragraphs 1–3 choose among, in order.
// Art. 29(4) AMMR: a document lapsed within the limits makes paragraphs 1–3 apply to
// it, beside any valid one (the AMMR has no "only"). Dublin III Art. 12(4) applies
// paragraphs 1–3 to lapsed documents only when the applicant holds no valid one ("in
// possession only of").
func (w *walker) documentCandidates(f *Finding, valid, lapsed []int) []int {
	cands := slices.Concat(valid, lapsed)
	slices.Sort(cands)
	if w.reg == DublinIII && len(valid) > 0 {
		cands = valid
		for _, i := range lapsed {
			f.Details = append(f.Details, fmt.Sprintf("documents[%d] (%s): lapsed; Art. 12(4) Dublin III counts lapsed documents \"only\" when the applicant holds no valid one (the AMMR, Art. 29(4), has no such \"only\")", i, w.docName(w.a.Documents[i])))
		}
	}
	return cands
}

// chooseDocument picks the document that designates, and the paragraph that chose it:
// a residence document before any visa (paragraphs 1 and 3(a)), else among visas of one
// kind by expiry (2, 3(b)), of several kinds by length then expiry (3(c)).
func (w *walker) chooseDocument(f *Finding, cands []int) (int, string) {
	var res, visas []int
	for _, i := range cands {
		if w.a.Documents[i].Kind == ResidenceDocument {
			res = append(res, i)
		} else {
			visas = append(visas, i)
		}
	}
	if len(res) > 0 {
		pick, sub := w.pickDocument(res, f, "(1)", "(3)(a)", true)
		if len(visas) > 0 {
			if states, _ := tally(cands, func(i int) solidarity.MemberState { return docState(w.a.Documents[i]) }); len(states) > 1 {
				// A residence document and a visa of different Member States: the
				// order of paragraph 3 decides, and its point (a) puts the residence
				// document first.
				sub = "(3)(a)"
			}
			f.Details = append(f.Details, "the residence document takes precedence over the visas held ("+w.docPara(sub)+")")
		}
		return pick, sub
	}
	sameKind := true
	for _, i := range visas[1:] {
		sameKind = sameKind && w.a.Documents[i].Kind == w.a.Documents[visas[0]].Kind
	}
	if sameKind {
		return w.pickDocument(visas, f, "(2)", "(3)(b)", false)
	}
	return w.pickDocument(visas, f, "(2)", "(3)(c)", true)
}

// pickDocument chooses among candidate documents: a single Member State needs no
// choice (paragraph one); otherwise paragraph tie applies: the longest validity then
// the latest expiry when byLength, or the latest expiry alone (Art. 29(3)).
func (w *walker) pickDocument(idx []int, f *Finding, one, tie string, byLength bool) (int, string) {
	docs := w.a.Documents
	state := func(i int) solidarity.MemberState { return docState(docs[i]) }
	if states, _ := tally(idx, state); len(states) == 1 {
		return idx[0], one
	}
	length := func(d Document) int { return int(civil(d.ValidTo).Sub(civil(d.ValidFrom)).Hours() / 24) }
	best, tied := pickBest(idx, func(i, best int) int {
		b, d := docs[best], docs[i]
		if c := length(d) - length(b); byLength && c != 0 {
			return c
		}
		return civil(d.ValidTo).Compare(civil(b.ValidTo))
	}, state)
	if tied {
		f.Review = append(f.Review, fmt.Sprintf("Documents from different Member States have the same validity and expiry date; the first listed, documents[%d], was taken.", best))
	}
	return best, tie
}

func docState(d Document) solidarity.MemberState {
	if d.Kind.IsVisa() && d.IssuedFor != "" {
		return d.IssuedFor
	}
	return d.Issuer
}

func (w *walker) docName(d Document) string {
	s := strings.ReplaceAll(string(d.Kind), "-", " ") + " issued by " + string(d.Issuer)
	if d.IssuedFor != "" {
		s += " for " + string(d.IssuedFor)
	}
	return s
}

func (w *walker) docEvidence(i int) Evidence {
	d := w.a.Documents[i]
	fact := fmt.Sprintf("%s, valid %s to %s", w.docName(d), fmtDate(d.ValidFrom), fmtDate(d.ValidTo))
	if !d.Withdrawn.IsZero() {
		fact += ", withdrawn " + fmtDate(d.Withdrawn)
	}
	return Evidence{fmt.Sprintf("documents[%d]", i), withSource(fact, d.Source)}
}

// diplomas is AMMR Art. 30 (spec §2 C6, tag V). Dublin III has no such criterion.
func (w *walker) diplomas() Finding {
	f := Finding{Criterion: Diplomas, Article: "Art. 30 AMMR", Certainty: "V"}
	if w.closedToMinor(&f) || w.leftOut(&f, "Art. 30") {
		return f
	}
	var cands []int
	for i, d := range w.a.Diplomas {
		switch {
		case civil(d.Issued).After(w.ref):
			f.Details = append(f.Details, fmt.Sprintf("diplomas[%d] (issued by %s on %s): issued after the application was registered on %s", i, d.Issuer, fmtDate(d.Issued), fmtDate(w.ref)))
		case !lessThanMonthsBefore(d.Issued, w.ref, w.p.DiplomaMonths):
			f.Details = append(f.Details, fmt.Sprintf("diplomas[%d] (issued by %s on %s): issued %d months or more before the application was registered on %s (Art. 30(1): less than %d months)",
				i, d.Issuer, fmtDate(d.Issued), w.p.DiplomaMonths, fmtDate(w.ref), w.p.DiplomaMonths))
		default:
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		f.Reason = fmt.Sprintf("no diploma or qualification issued in a Member State less than %d months before the application was registered", w.p.DiplomaMonths)
		return f
	}
	ds := w.a.Diplomas
	issuer := func(i int) solidarity.MemberState { return ds[i].Issuer }
	states, _ := tally(cands, issuer)
	best, tied := pickBest(cands, func(i, best int) int {
		if c := ds[i].StudyMonths - ds[best].StudyMonths; c != 0 {
			return c
		}
		return civil(ds[i].Issued).Compare(civil(ds[best].Issued))
	}, issuer)
	f.Applies = true
	f.State = ds[best].Issuer
	f.Article = "Art. 30(1) AMMR"
	f.Reason = fmt.Sprintf("the applicant holds a diploma or qualification issued in %s less than %d months before the application was registered", f.State, w.p.DiplomaMonths)
	if len(states) > 1 {
		f.Article = "Art. 30(2) AMMR"
		f.Reason = fmt.Sprintf("diplomas from several Member States (%s): the one obtained after the longest period of study, or if equal the most recent, was issued in %s", joinStates(states), f.State)
		if tied {
			f.Review = append(f.Review, fmt.Sprintf("Diplomas from different Member States have the same length of study and date; the first listed, diplomas[%d], was taken.", best))
		}
	}
	for _, i := range cands {
		d := ds[i]
		fact := fmt.Sprintf("diploma issued by %s on %s after %d months of study", d.Issuer, fmtDate(d.Issued), d.StudyMonths)
		f.Evidence = append(f.Evidence, decisive(Evidence{fmt.Sprintf("diplomas[%d]", i), withSource(fact, d.Source)}, i == best))
	}
	return f
}

// visaWaived is AMMR Art. 31 (spec §2 C7, tag M: R), Dublin III Art. 14.
func (w *walker) visaWaived() Finding {
	f := Finding{Criterion: VisaWaived, Article: w.art("Art. 31", "Art. 14"), Certainty: w.tag("R", "S")}
	if w.closedToMinor(&f) {
		return f
	}
	e := w.a.VisaWaivedEntry
	if e == nil {
		f.Reason = "no entry into a Member State without the need for a visa"
		return f
	}
	if civil(e.Date).After(w.ref) {
		f.Reason = fmt.Sprintf("the visa-free entry into %s on %s is after the application was registered on %s", e.State, fmtDate(e.Date), fmtDate(w.ref))
		return f
	}
	f.Applies = true
	fact := fmt.Sprintf("entered %s on %s without the need for a visa", e.State, fmtDate(e.Date))
	f.Evidence = []Evidence{{"visa_waived_entry", withSource(fact, e.Source)}}
	if e.WaivedWhereRegistered && w.first.State != e.State {
		f.State = w.first.State
		f.Article = w.art("Art. 31(2)", "Art. 14(2)")
		f.Reason = fmt.Sprintf("the applicant entered %s without a visa, but the application was registered in %s, where the visa requirement is also waived: that Member State is responsible", e.State, w.first.State)
		f.Evidence = append(f.Evidence, w.firstEvidence())
		return f
	}
	f.State = e.State
	f.Article = w.art("Art. 31(1)", "Art. 14(1)")
	f.Reason = "the applicant entered this Member State, where the need for a visa is waived"
	return f
}

// transitArea is AMMR Art. 32 (spec §2 C8, tag M: R), Dublin III Art. 15.
func (w *walker) transitArea() Finding {
	f := Finding{Criterion: TransitArea, Article: w.art("Art. 32", "Art. 15"), Certainty: w.tag("R", "S")}
	if w.closedToMinor(&f) {
		return f
	}
	if !w.first.TransitArea {
		f.Reason = "the application was not made in the international transit area of an airport"
		return f
	}
	f.Applies = true
	f.State = w.first.State
	f.Reason = "the application was made in the international transit area of an airport of this Member State"
	f.Evidence = []Evidence{{w.firstEvidence().Field, fmt.Sprintf("application made in an airport transit area in %s on %s", w.first.State, fmtDate(w.first.Date))}}
	return f
}

// entry is AMMR Art. 33 (spec §2 C9, tag V): a SAR disembarkation designates the
// Member State of disembarkation for 12 months (33(2), "notwithstanding" 33(1)); an
// irregular crossing the first Member State entered for 20 months (33(1)); neither
// holds when the applicant was relocated after the crossing (33(3)). Under Dublin III,
// Art. 13(1): 12 months, a SAR disembarkation counting as an irregular crossing.
// Among several entries whose limit has not passed, the earliest counts.
func (w *walker) entry() Finding {
	f := Finding{Criterion: Entry, Article: w.art("Art. 33", "Art. 13(1)"), Certainty: "V"}
	if w.closedToMinor(&f) || w.leftOut(&f, "Art. 33(1)–(2)") {
		return f
	}
	sar, irr := -1, -1
	for i, e := range w.a.IrregularEntries {
		kind := "irregular crossing into"
		if e.SAR {
			kind = "disembarkation after a search-and-rescue operation in"
		}
		name := fmt.Sprintf("irregular_entries[%d] (%s %s on %s)", i, kind, e.State, fmtDate(e.Date))
		if civil(e.Date).After(w.ref) {
			f.Details = append(f.Details, fmt.Sprintf("%s: after the application was registered on %s", name, fmtDate(w.ref)))
			continue
		}
		limit, rule := w.p.EntryMonths, "Art. 33(1) AMMR"
		switch {
		case w.reg == DublinIII:
			limit, rule = w.p.DublinEntryMonths, "Art. 13(1) Dublin III"
		case e.SAR:
			limit, rule = w.p.SARMonths, "Art. 33(2) AMMR"
		}
		if moreThanMonthsAfter(w.ref, e.Date, limit) {
			f.Details = append(f.Details, fmt.Sprintf("%s: the application was registered on %s, more than %d months later; responsibility ceased on %s (%s)",
				name, fmtDate(w.ref), limit, fmtDate(addMonths(e.Date, limit)), rule))
			continue
		}
		best := &irr
		if e.SAR && w.reg == AMMR {
			best = &sar
		}
		if *best < 0 || civil(e.Date).Before(civil(w.a.IrregularEntries[*best].Date)) {
			*best = i
		}
	}
	pick := sar
	if pick < 0 {
		pick = irr
	}
	if pick < 0 {
		limits := fmt.Sprintf("%d months of a search-and-rescue disembarkation or %d months of an irregular crossing", w.p.SARMonths, w.p.EntryMonths)
		if w.reg == DublinIII {
			limits = fmt.Sprintf("%d months of an irregular crossing (a search-and-rescue disembarkation included)", w.p.DublinEntryMonths)
		}
		f.Reason = "no entry establishes responsibility: the application was not registered within " + limits
		return f
	}
	e := w.a.IrregularEntries[pick]
	fact := fmt.Sprintf("irregular crossing into %s on %s", e.State, fmtDate(e.Date))
	if e.SAR {
		fact = fmt.Sprintf("disembarked in %s on %s after a search-and-rescue operation", e.State, fmtDate(e.Date))
	}
	f.Evidence = []Evidence{{fmt.Sprintf("irregular_entries[%d]", pick), withSource(fact, e.Source)}}
	f.Applies = true
	f.State = e.State
	switch {
	case w.reg == DublinIII:
		f.Reason = fmt.Sprintf("the applicant crossed the border of this Member State irregularly from a third country and the application was registered within %d months (by %s)", w.p.DublinEntryMonths, fmtDate(addMonths(e.Date, w.p.DublinEntryMonths)))
		if e.SAR {
			f.Notes = append(f.Notes, "Dublin III has no search-and-rescue criterion: the disembarkation is treated as an irregular crossing under Art. 13(1) (spec §9, §10 item 14, M).")
			f.Certainty = "R"
		}
		return f
	case e.SAR:
		f.Article = "Art. 33(2) AMMR"
		f.Reason = fmt.Sprintf("the applicant was disembarked in this Member State after a search-and-rescue operation and the application was registered within %d months (by %s)", w.p.SARMonths, fmtDate(addMonths(e.Date, w.p.SARMonths)))
		if irr >= 0 {
			f.Details = append(f.Details, fmt.Sprintf("irregular_entries[%d] (irregular crossing into %s) is not used: Art. 33(2) applies notwithstanding Art. 33(1)", irr, w.a.IrregularEntries[irr].State))
		}
	default:
		f.Article = "Art. 33(1) AMMR"
		f.Reason = fmt.Sprintf("the applicant crossed the border of this Member State irregularly from a third country, the first Member State entered, and the application was registered within %d months (by %s)", w.p.EntryMonths, fmtDate(addMonths(e.Date, w.p.EntryMonths)))
	}
	if civil(e.Date).Before(w.p.AMMRApplies) {
		f.Notes = append(f.Notes, fmt.Sprintf("The entry on %s predates the AMMR; it counts because the application was registered after the AMMR applies (Art. 84(1) AMMR).", fmtDate(e.Date)))
	}
	if r := w.a.Relocation; r != nil && !civil(r.Date).Before(civil(e.Date)) {
		f.Article = "Art. 33(3) AMMR"
		f.Reason = fmt.Sprintf("the applicant entered through %s but was relocated to %s under Art. 67 on %s, after the entry: Art. 33(1)–(2) do not apply and the Member State of relocation is responsible",
			e.State, r.State, fmtDate(r.Date))
		f.State = r.State
		f.Evidence = append(f.Evidence, Evidence{"relocation", fmt.Sprintf("relocated to %s on %s", r.State, fmtDate(r.Date))})
	}
	return f
}

// continuousStay is Dublin III Art. 13(2) (spec §9, tag V): when Art. 13(1) does not
// apply, a continuous stay of at least 5 months in a Member State before the
// application; the most recent when there are several. The AMMR removed it.
func (w *walker) continuousStay() Finding {
	f := Finding{Criterion: ContinuousStay, Article: "Art. 13(2) Dublin III", Certainty: "V"}
	if w.closedToMinor(&f) {
		return f
	}
	if len(w.a.IrregularEntries) == 0 && w.a.VisaWaivedEntry != nil {
		f.Reason = "the applicant's entry is established as a visa-free entry; Art. 13(2) covers applicants who entered irregularly or whose entry cannot be established"
		return f
	}
	best := -1
	var bestEnd time.Time
	for i, s := range w.a.Stays {
		from, to := civil(s.From), civil(s.To)
		if from.After(w.ref) {
			f.Details = append(f.Details, fmt.Sprintf("stays[%d] (%s from %s): after the application was lodged on %s", i, s.State, fmtDate(from), fmtDate(w.ref)))
			continue
		}
		if to.IsZero() || to.After(w.ref) {
			to = w.ref
		}
		if to.Before(addMonths(from, w.p.DublinStayMonths)) {
			f.Details = append(f.Details, fmt.Sprintf("stays[%d] (%s, %s to %s): shorter than %d months", i, s.State, fmtDate(from), fmtDate(to), w.p.DublinStayMonths))
			continue
		}
		if best < 0 || to.After(bestEnd) {
			best, bestEnd = i, to
		}
	}
	if best < 0 {
		f.Reason = fmt.Sprintf("no continuous stay of at least %d months in a Member State before the application", w.p.DublinStayMonths)
		return f
	}
	s := w.a.Stays[best]
	f.Applies = true
	f.State = s.State
	f.Reason = fmt.Sprintf("the applicant lived in this Member State for a continuous period of at least %d months before lodging the application (the most recent such stay)", w.p.DublinStayMonths)
	f.Evidence = []Evidence{{fmt.Sprintf("stays[%d]", best), fmt.Sprintf("lived in %s from %s to %s", s.State, fmtDate(s.From), fmtDate(bestEnd))}}
	return f
}

// firstRegistration is the default of AMMR Art. 16(2) (tag V) and Dublin III Art. 3(2)
// (first lodged). The Member State of relocation leaves it out (Art. 68(2)).
func (w *walker) firstRegistration() Finding {
	f := Finding{Criterion: FirstRegistration, Article: w.art("Art. 16(2)", "Art. 3(2)"), Certainty: "V"}
	if w.leftOut(&f, "Art. 16(2)") {
		return f
	}
	f.Applies = true
	f.State = w.first.State
	f.Reason = "no Member State is designated by the criteria: the first Member State in which the application was registered is responsible"
	if w.reg == DublinIII {
		f.Reason = "no Member State is designated by the criteria: the first Member State in which the application was lodged is responsible"
	}
	f.Evidence = []Evidence{w.firstEvidence()}
	if w.reg == AMMR {
		f.Notes = append(f.Notes, "Art. 16(2) applies without prejudice to the solidarity mechanism of Part IV (relocation may follow).")
	}
	return f
}

// relocationDefault is AMMR Art. 68(2) (tag V): after relocation, when no Member State
// is designated, the Member State of relocation is responsible.
func (w *walker) relocationDefault() Finding {
	f := Finding{Criterion: RelocationDefault, Article: "Art. 68(2) AMMR", Certainty: "V"}
	if !w.relocated {
		f.Reason = "the determination is not made by a Member State of relocation after a relocation under Art. 67"
		return f
	}
	r := w.a.Relocation
	f.Applies = true
	f.State = r.State
	f.Reason = "the applicant was relocated under Art. 67 and the criteria the Member State of relocation applies designate no Member State: the Member State of relocation is responsible and records this in Eurodac"
	f.Evidence = []Evidence{{"relocation", fmt.Sprintf("relocated to %s on %s under Art. 67", r.State, fmtDate(r.Date))}}
	return f
}

// transferImpossible is AMMR Art. 16(3) (tag V) and Dublin III Art. 3(2), 3rd
// subparagraph: no transfer is possible to any Member State designated, nor to the
// Member State of first registration, so the determining Member State is responsible.
func (w *walker) transferImpossible() Finding {
	return Finding{Criterion: TransferImpossible, Article: w.art("Art. 16(3)", "Art. 3(2), 3rd subpara."), Certainty: w.tag("V", "R"),
		Applies: true, State: w.det,
		Reason:   "no transfer is possible to a Member State designated by the criteria or to the Member State of first registration: the determining Member State is responsible",
		Evidence: []Evidence{{"transfer_barred", "transfers barred to " + joinStates(w.a.TransferBarred)}}}
}
