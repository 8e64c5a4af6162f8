package rules

import (
	"fmt"
	"slices"
	"strings"

	"solidarity"
)

// The criteria of Part III are methods of walker, one per criterion, each returning a
// Finding; the walk and the bar on transfers (Art. 16(3)) are in determine.go. This
// file holds the gate of Art. 16(4), the defaults that close the hierarchy (Arts.
// 16(2), 68(2), 16(3)) and the helpers the criteria share; family.go holds Arts. 25–28
// and 34, documents.go Arts. 29–30, entry.go Arts. 31–33.

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

func joinStates(ss []solidarity.MemberState) string {
	parts := make([]string, len(ss))
	for i, s := range ss {
		parts[i] = string(s)
	}
	return strings.Join(parts, ", ")
}

func (w *walker) firstEvidence() Evidence {
	field := "application"
	if w.a.FirstRegistration != nil {
		field = "first_registration"
	}
	return Evidence{field, fmt.Sprintf("application first registered in %s on %s", w.first.State, fmtDate(w.first.Date))}
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
