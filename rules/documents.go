package rules

import (
	"fmt"
	"slices"
	"strings"

	"solidarity"
)

// The criteria of documents held: AMMR Art. 29 (residence documents and visas,
// Dublin III Art. 12) and Art. 30 (diplomas, which Dublin III does not have).

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
