package rules

import (
	"errors"
	"fmt"
	"slices"
	"time"

	"solidarity"
)

// Determine finds the Member State responsible for a's application. It walks the
// criteria of the regime that governs the application (Hierarchy), stops at the first
// that designates a Member State, and records every criterion before it as NotApplied
// with its reason. It never panics: for an applicant that fails Validate, or for
// invalid Params, it returns a Result whose Criterion is InvalidInput.
func Determine(a Applicant, p Params) Result {
	if err := firstError(p.Validate(), Validate(a)); err != nil {
		return invalid(err)
	}
	w := newWalker(&a, p.withDefaults())
	applied, skipped := w.walk(0)
	r := Result{
		Regime:       w.reg,
		Registered:   w.ref,
		RegisteredIn: w.first.State,
		Determining:  w.det,
		Responsible:  applied.State,
		Criterion:    applied.Criterion,
		Article:      applied.Article,
		Certainty:    applied.Certainty,
		Reason:       applied.Reason,
		Evidence:     applied.Evidence,
		NotApplied:   make([]NotApplied, 0, len(skipped)),
	}
	for _, f := range skipped {
		r.NotApplied = append(r.NotApplied, NotApplied{Criterion: f.Criterion, Article: f.Article, Reason: f.Reason, Details: f.Details})
	}
	r.Notes = append(w.regimeNotes(), applied.Notes...)
	r.Review = append(w.regimeReview(), applied.Review...)
	if len(applied.Details) > 0 {
		r.Notes = append(r.Notes, applied.Details...)
	}
	return r
}

// Check evaluates criterion c alone for a, as Determine would when it reaches c. A
// criterion that is not part of the regime governing a's application does not apply.
// The last criterion of a hierarchy applies to every applicant: Determine reaches it
// only when nothing before it applied.
func Check(a Applicant, p Params, c Criterion) Finding {
	if err := firstError(p.Validate(), Validate(a)); err != nil {
		return Finding{Criterion: c, Reason: "invalid input: " + err.Error()}
	}
	w := newWalker(&a, p.withDefaults())
	return w.check(c)
}

func firstError(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func invalid(err error) Result {
	r := Result{Criterion: InvalidInput, Reason: "the case data is invalid", Error: err.Error(), NotApplied: []NotApplied{}}
	if e, ok := errors.AsType[*solidarity.Error](err); ok {
		r.Error, r.ErrorField = e.Message, e.Field
	}
	return r
}

// walker holds what every criterion needs about one applicant.
type walker struct {
	a     *Applicant
	p     Params
	reg   Regime
	ref   time.Time // reference date (Art. 24)
	first Registration
	det   solidarity.MemberState // determining Member State
	// relocated: the determination is run by the Member State of relocation after a
	// relocation under Art. 67 (Art. 68(2)).
	relocated bool
	birth     time.Time // known or estimated date of birth; zero when unknown
}

func newWalker(a *Applicant, p Params) *walker {
	w := &walker{a: a, p: p, first: a.first(), det: a.Application.State, ref: a.ReferenceDate()}
	w.reg = AMMR
	if w.ref.Before(p.DublinIIIUntil) {
		w.reg = DublinIII
	}
	if r := a.Relocation; r != nil && w.reg == AMMR && r.State == a.Application.State {
		w.relocated = true
	}
	switch {
	case !a.BirthDate.IsZero():
		w.birth = civil(a.BirthDate)
	case !a.AgeAssessedOn.IsZero():
		// Benefit of the doubt: the latest birth date at which the person was
		// AssessedAge on the day of the assessment.
		w.birth = addMonths(a.AgeAssessedOn, -12*a.AssessedAge)
	}
	return w
}

// walk examines the hierarchy from position from and returns the first finding that
// applies and those before it.
func (w *walker) walk(from int) (Finding, []Finding) {
	var skipped []Finding
	for _, c := range order(w.reg)[from:] {
		f := w.check(c)
		if f.Applies {
			return f, skipped
		}
		skipped = append(skipped, f)
	}
	// Unreachable: the last criterion always applies. Keep Determine total anyway.
	return Finding{Criterion: TransferImpossible, Article: w.art("Art. 16(3)", "Art. 3(2)"), Applies: true,
		State: w.det, Reason: "no criterion applied"}, skipped
}

// check evaluates one criterion, including the bar on transfers of Art. 16(3).
func (w *walker) check(c Criterion) Finding {
	if !slices.Contains(order(w.reg), c) {
		return Finding{Criterion: c, Reason: fmt.Sprintf("not a criterion under %s", w.reg.Act())}
	}
	var f Finding
	switch c {
	case Security:
		return w.security()
	case UnaccompaniedMinor:
		f = w.unaccompaniedMinor()
	case FamilyBeneficiary:
		f = w.familyBeneficiary()
	case FamilyApplicant:
		f = w.familyApplicant()
	case FamilyProcedure:
		f = w.familyProcedure()
	case DependentPersons:
		f = w.dependentPersons()
	case Documents:
		f = w.documents()
	case Diplomas:
		f = w.diplomas()
	case VisaWaived:
		f = w.visaWaived()
	case TransitArea:
		f = w.transitArea()
	case Entry:
		f = w.entry()
	case ContinuousStay:
		f = w.continuousStay()
	case FirstRegistration:
		f = w.firstRegistration()
	case RelocationDefault:
		return w.relocationDefault()
	case TransferImpossible:
		return w.transferImpossible()
	}
	return w.bar(f)
}

// bar turns a finding that designates a Member State to which no transfer is possible
// into one that does not apply: the determining Member State goes on with the next
// criteria (AMMR Art. 16(3); Dublin III Art. 3(2), 2nd subparagraph).
func (w *walker) bar(f Finding) Finding {
	if !f.Applies || f.State == w.det || !slices.Contains(w.a.TransferBarred, f.State) {
		return f
	}
	f.Applies = false
	f.Reason = fmt.Sprintf("%s would designate %s, but a transfer there is impossible: real risk of inhuman or degrading treatment (Charter Art. 4; %s); the next criteria are examined",
		f.Article, f.State, w.art("Art. 16(3)", "Art. 3(2), 2nd subpara."))
	f.State = ""
	f.Review = nil
	return f
}

// art returns the citation of a rule in the governing regime.
func (w *walker) art(ammr, dublin string) string {
	if w.reg == DublinIII {
		return dublin + " Dublin III"
	}
	return ammr + " AMMR"
}

// tag returns the certainty of a rule in the governing regime.
func (w *walker) tag(ammr, dublin solidarity.Certainty) solidarity.Certainty {
	if w.reg == DublinIII {
		return dublin
	}
	return ammr
}

// minor reports whether the applicant was a minor on the reference date, and whether
// that is known from a date of birth or an age assessment.
func (w *walker) minor() (minor, known bool) {
	if w.birth.IsZero() {
		return false, false
	}
	return ageAt(w.birth, w.ref) < w.p.AdultAge, true
}

// uam reports whether the applicant is an unaccompanied minor on the reference date:
// flagged as such and not known to be an adult.
func (w *walker) uam() bool {
	if !w.a.UnaccompaniedMinor {
		return false
	}
	m, known := w.minor()
	return m || !known
}

// applicantMinor reports whether the applicant counts as a minor for the family
// definitions: known to be a minor, or of unknown age and flagged unaccompanied.
func (w *walker) applicantMinor() bool {
	m, known := w.minor()
	return m || (!known && w.a.UnaccompaniedMinor)
}

func (w *walker) onlyArt25() string {
	if w.reg == DublinIII {
		return "the applicant is an unaccompanied minor: Art. 8 Dublin III decides (its para. 4 designates a Member State in every case)"
	}
	return "the applicant is an unaccompanied minor: only Art. 25 applies (Art. 25(1) AMMR)"
}

func (w *walker) leftOutAfterRelocation(what string) string {
	return fmt.Sprintf("%s is left out by the Member State of relocation (Art. 68(2) AMMR): the applicant was relocated to %s on %s",
		what, w.a.Relocation.State, fmtDate(w.a.Relocation.Date))
}

func (w *walker) regimeNotes() []string {
	var n []string
	if w.reg == DublinIII {
		n = append(n, fmt.Sprintf("Dublin III governs: the application was first registered on %s, before %s (AMMR Art. 84(2)).",
			fmtDate(w.ref), fmtDate(w.p.DublinIIIUntil)))
		if w.a.SecurityThreat {
			n = append(n, "The security flag does not decide responsibility under Dublin III: the security gate of AMMR Art. 16(4) is new.")
		}
		if w.a.Relocation != nil {
			n = append(n, "The relocation recorded is ignored: relocation under AMMR Art. 67 has no place in Dublin III.")
		}
		return n
	}
	if w.a.Relocation != nil && !w.relocated {
		n = append(n, fmt.Sprintf("The applicant was relocated to %s on %s; the determination is not made by the Member State of relocation, so only Art. 33(3) AMMR takes the relocation into account.",
			w.a.Relocation.State, fmtDate(w.a.Relocation.Date)))
	}
	return n
}

func (w *walker) regimeReview() []string {
	var r []string
	if w.reg == AMMR && w.ref.Equal(w.p.DublinIIIUntil) {
		r = append(r, fmt.Sprintf("The application was first registered on %s, the switch date itself: AMMR Art. 84(1) covers applications registered \"after\" and Art. 84(2) those registered \"before\" it (spec §0, §10 item 12). The AMMR criteria were applied.", fmtDate(w.ref)))
	}
	if w.reg == AMMR && w.ref.Before(w.p.AMMRApplies) {
		r = append(r, fmt.Sprintf("The application was first registered on %s, on or after the Dublin III switch date (%s) but before the AMMR applies (%s): no rule set is given for this gap (spec §10 item 12). The AMMR criteria were applied.",
			fmtDate(w.ref), fmtDate(w.p.DublinIIIUntil), fmtDate(w.p.AMMRApplies)))
	}
	return r
}
