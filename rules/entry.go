package rules

import (
	"fmt"
	"time"
)

// The criteria of entry: AMMR Arts. 31 (visa-waived entry), 32 (international transit
// area) and 33 (irregular entry and search and rescue), Dublin III Arts. 13–15, and
// Dublin III's continuous stay (Art. 13(2)), which the AMMR removed.

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
