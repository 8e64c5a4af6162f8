package deadline_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/cases"
	"solidarity/deadline"
)

// TestAddMonths: Regulation 1182/71 Art. 3(2)(c): the same-numbered day, or the last
// day of a shorter month; leap years.
func TestAddMonths(t *testing.T) {
	tests := []struct {
		from string
		n    int
		want string
	}{
		{"2026-01-31", 1, "2026-02-28"},
		{"2028-01-31", 1, "2028-02-29"}, // leap year
		{"2027-12-31", 2, "2028-02-29"},
		{"2026-12-31", 2, "2027-02-28"},
		{"2028-02-29", 12, "2029-02-28"},
		{"2028-02-29", 48, "2032-02-29"},
		{"2026-08-31", 6, "2027-02-28"},
		{"2026-03-31", 1, "2026-04-30"},
		{"2026-03-31", -1, "2026-02-28"},
		{"2026-01-15", -1, "2025-12-15"},
		{"2026-12-15", 1, "2027-01-15"},
		{"2026-10-01", 36, "2029-10-01"},
		{"2026-08-26", 0, "2026-08-26"},
	}
	for _, tt := range tests {
		if got := deadline.AddMonths(day(tt.from), tt.n); !got.Equal(day(tt.want)) {
			t.Errorf("AddMonths(%s, %d) = %s, want %s", tt.from, tt.n, got.Format("2006-01-02"), tt.want)
		}
	}
	// The civil date is read in the time's own zone: 00:30 in Rome on 1 September is
	// still 31 August in UTC.
	if got := deadline.AddMonths(at("2026-09-01 00:30"), 1); !got.Equal(day("2026-10-01")) {
		t.Errorf("zone: %s", got)
	}
	if !deadline.Civil(time.Time{}).IsZero() {
		t.Error("Civil(zero) not zero")
	}
}

// TestMonthEnds: take charge request 2 months after a registration on the 31st, and a
// 1-month limit after a hit on 31 January, in a common and in a leap year.
func TestMonthEnds(t *testing.T) {
	reg := func(date string, extra ...ev) cases.Case {
		return build(t, cases.Facts{}, seq([]ev{{cases.Disembarked, "2026-08-24"}, {cases.ScreeningStarted, "2026-08-24 11:00"},
			{cases.Applied, "2026-08-24 12:00"}, {cases.Registration, date}, {cases.RegularTrack, date}}, extra)...)
	}
	tests := []struct {
		c     cases.Case
		limit string
		want  string
	}{
		{reg("2026-12-31"), "take-charge-request", "2027-02-28"},
		{reg("2027-12-31"), "take-charge-request", "2028-02-29"},
		{reg("2026-12-30", ev{cases.EurodacHit, "2027-01-31"}), "take-charge-request-hit", "2027-02-28"},
		{reg("2027-12-30", ev{cases.EurodacHit, "2028-01-31"}), "take-charge-request-hit", "2028-02-29"},
		{reg("2027-12-30", ev{cases.EurodacHit, "2028-01-29"}), "take-charge-request-hit", "2028-02-29"},
		{reg("2026-12-30", ev{cases.EurodacHit, "2027-01-29"}), "take-charge-request-hit", "2027-02-28"},
	}
	for _, tt := range tests {
		d, ok := find(deadline.Compute(tt.c, deadline.Params{}), tt.limit)
		if !ok || !d.Due.Equal(day(tt.want)) {
			t.Errorf("%s from %s: %v %s, want %s", tt.limit, tt.c.History[len(tt.c.History)-1].At.Format("2006-01-02"),
				ok, d.Due.Format("2006-01-02"), tt.want)
		}
	}
}

// TestOverdueBoundaries: the day before, of and after the last day; the instant
// before, at and after the end of a period in hours; DueSoon windows.
func TestOverdueBoundaries(t *testing.T) {
	c := build(t, cases.Facts{}, disembarked...)
	dues := deadline.Compute(c, deadline.Params{})
	scr, _ := find(dues, "screening") // last day 2026-08-31
	tests := []struct {
		now           string
		overdue, soon bool // soon within 24 hours
	}{
		{"2026-08-30 23:59", false, true},
		{"2026-08-31 00:00", false, true},
		{"2026-08-31 23:59", false, true},
		{"2026-09-01 00:00", true, false},
		{"2026-08-29 23:59", false, false},
	}
	for _, tt := range tests {
		now := at(tt.now)
		if scr.Overdue(now) != tt.overdue || scr.Within(now, 24*time.Hour) != tt.soon {
			t.Errorf("screening at %s: overdue %v soon %v", tt.now, scr.Overdue(now), scr.Within(now, 24*time.Hour))
		}
		if got := len(deadline.Overdue([]deadline.Due{scr}, now)) == 1; got != tt.overdue {
			t.Errorf("Overdue at %s = %v", tt.now, got)
		}
		if got := len(deadline.DueSoon([]deadline.Due{scr}, now, 24*time.Hour)) == 1; got != tt.soon {
			t.Errorf("DueSoon at %s = %v", tt.now, got)
		}
	}
	// The same instant seen from another zone: 23:30 UTC on 31 August is 1 September
	// in Rome. The civil date is read in now's zone.
	if !scr.Overdue(time.Date(2026, 8, 31, 23, 30, 0, 0, time.UTC).In(rome)) || scr.Overdue(time.Date(2026, 8, 31, 23, 30, 0, 0, time.UTC)) {
		t.Error("zone of now not respected")
	}

	eu, _ := find(dues, "eurodac-sar") // ends 2026-08-27 11:00 Rome
	for _, tt := range []struct {
		now     time.Time
		overdue bool
	}{
		{at("2026-08-27 10:59"), false},
		{at("2026-08-27 11:00"), false},
		{at("2026-08-27 11:00").Add(time.Second), true},
	} {
		if eu.Overdue(tt.now) != tt.overdue {
			t.Errorf("eurodac at %s: overdue %v", tt.now, !tt.overdue)
		}
	}
	if !eu.Within(at("2026-08-26 11:00"), 24*time.Hour) || eu.Within(at("2026-08-26 10:59"), 24*time.Hour) {
		t.Error("hour window")
	}
	if got := deadline.DueSoon(dues, at("2026-08-24 12:00"), 7*24*time.Hour); len(got) != 2 {
		t.Errorf("due within a week of arrival: %s", names(got))
	}
}

// TestRollOver: Regulation 1182/71 Art. 3(4)–(5), when switched on.
func TestRollOver(t *testing.T) {
	// Reply to a take charge request sent on 10 September 2026: 1 month, last day
	// Saturday 10 October.
	c := build(t, cases.Facts{}, tcrSent...)
	tests := []struct {
		p    deadline.Params
		want string
	}{
		{deadline.Params{}, "2026-10-10"},
		{deadline.Params{RollOver: true}, "2026-10-12"},
		{deadline.Params{RollOver: true, Holidays: []time.Time{at("2026-10-12 08:00")}}, "2026-10-13"},
	}
	for _, tt := range tests {
		d, _ := find(deadline.Compute(c, tt.p), "take-charge-reply")
		if !d.Due.Equal(day(tt.want)) {
			t.Errorf("%+v: due %s, want %s", tt.p, d.Due.Format("2006-01-02"), tt.want)
		}
	}
	// Art. 3(5): inland screening, 3 days from Thursday 25 March 2027 (before Easter):
	// Sunday, rolled over Easter Monday to Tuesday, which is one working day only
	// after Good Friday: Wednesday.
	easter := deadline.Params{RollOver: true, Holidays: []time.Time{day("2027-03-26"), day("2027-03-29")}}
	c = build(t, cases.Facts{}, ev{cases.ApprehendedInTerritory, "2027-03-25"})
	for _, tt := range []struct {
		p    deadline.Params
		want string
	}{{deadline.Params{}, "2027-03-28"}, {easter, "2027-03-31"}} {
		d, _ := find(deadline.Compute(c, tt.p), "screening-territory")
		if !d.Due.Equal(day(tt.want)) {
			t.Errorf("roll over %v: due %s, want %s", tt.p.RollOver, d.Due.Format("2006-01-02"), tt.want)
		}
	}
	// Periods in hours do not roll over.
	c = build(t, cases.Facts{}, ev{cases.Disembarked, "2026-10-07 10:20"})
	d, _ := find(deadline.Compute(c, deadline.Params{RollOver: true}), "eurodac-sar")
	if !d.Due.Equal(at("2026-10-10 11:00")) {
		t.Errorf("hours rolled over: %s", d.Due)
	}
}

// TestWorkingDays: 10 working days over weekends and a holiday (Art. 35(1) APR).
func TestWorkingDays(t *testing.T) {
	base := seq(self, []ev{{cases.ExamineAdmissibility, "2026-09-02"}})
	tests := []struct {
		lodged   string
		holidays []time.Time
		want     string
	}{
		{"2026-09-04", nil, "2026-09-18"}, // lodged on a Friday
		{"2026-09-05", nil, "2026-09-18"}, // on a Saturday: Monday is the first working day
		{"2026-09-04", []time.Time{day("2026-09-07"), day("2026-09-18")}, "2026-09-22"},
	}
	for _, tt := range tests {
		c := build(t, cases.Facts{InadmissibleGround38e: true}, seq(base, []ev{{cases.Lodged, tt.lodged}})...)
		d, _ := find(deadline.Compute(c, deadline.Params{Holidays: tt.holidays}), "admissibility-38-1-e")
		if !d.Due.Equal(day(tt.want)) || d.Period != deadline.WD(10) {
			t.Errorf("lodged %s: due %s %s, want %s", tt.lodged, d.Due.Format("2006-01-02"), d.Period, tt.want)
		}
	}
}

// TestNotRunning: limits that stop, do not apply, or are waived.
func TestNotRunning(t *testing.T) {
	tests := []struct {
		name   string
		facts  cases.Facts
		p      deadline.Params
		evs    []ev
		absent []string
	}{
		{"Eurodac record sent", cases.Facts{}, deadline.Params{}, seq(disembarked, []ev{{cases.EurodacRecorded, "2026-08-24 18:00"}}), []string{"eurodac-sar"}},
		{"applicant record sent", cases.Facts{}, deadline.Params{}, seq(registered, []ev{{cases.EurodacApplicantRecorded, "2026-08-26 18:00"}}), []string{"eurodac-applicant"}},
		{"under 6", cases.Facts{NoBiometrics: true}, deadline.Params{}, registered, []string{"eurodac-sar", "eurodac-applicant"}},
		{"request sent", cases.Facts{}, deadline.Params{}, tcrSent, []string{"take-charge-request", "registration", "screening"}},
		{"regular track", cases.Facts{}, deadline.Params{}, self, []string{"border-procedure", "border-procedure-crisis"}},
		{"border stopped", cases.Facts{}, deadline.Params{}, seq(border, []ev{{cases.BorderStopped, "2026-09-01"}}), []string{"border-procedure"}},
		{"transfer suspended", cases.Facts{}, deadline.Params{}, seq(appealed, []ev{{cases.SuspensionGranted, "2026-10-09"}}),
			[]string{"transfer", "transfer-absconding", "transfer-suspension-request"}},
		{"detained transfer without a value", cases.Facts{}, deadline.Params{}, seq(accepted, []ev{{cases.Detained, "2026-10-02"}}), []string{"transfer-detained"}},
		{"released", cases.Facts{}, deadline.Params{}, seq(regular, []ev{{cases.Detained, "2026-09-01"}, {cases.Released, "2026-09-03"}}),
			[]string{"take-charge-request-detained-after"}},
		{"transferred", cases.Facts{}, deadline.Params{}, seq(pending, []ev{{cases.Transferred, "2026-11-02"}}), []string{"transfer", "eurodac-applicant", "eurodac-sar"}},
		{"relocated", cases.Facts{}, deadline.Params{}, seq(relocConfirmed, []ev{{cases.TransferDecision, "2026-09-10"}, {cases.Transferred, "2026-09-20"}}),
			[]string{"relocation-transfer", "eurodac-sar"}},
		{"Dublin III: no transfer decision limit", cases.Facts{}, deadline.Params{}, dAccepted, []string{"transfer-decision", "transfer"}},
		{"Dublin III: no appeal window", cases.Facts{}, deadline.Params{}, seq(dAccepted, []ev{{cases.TransferDecision, "2026-08-03"}}),
			[]string{"transfer-appeal-window"}},
		{"return procedure, not border", cases.Facts{}, deadline.Params{},
			seq(normalExam, []ev{{cases.Rejection, "2026-10-01"}, {cases.ReturnDecision, "2026-11-02"}}), []string{"responsibility-end-37-2", "return-border-procedure"}},
	}
	for _, tt := range tests {
		dues := deadline.Compute(build(t, tt.facts, tt.evs...), tt.p)
		for _, n := range tt.absent {
			if _, ok := find(dues, n); ok {
				t.Errorf("%s: %s runs: %s", tt.name, n, names(dues))
			}
		}
	}
	if got := deadline.Compute(cases.Case{}, deadline.Params{}); len(got) != 0 {
		t.Errorf("new case: %s", names(got))
	}
}

// TestRegimeSwitch: registered on 30 June 2026 late in the evening, Dublin III; on 1
// July, the AMMR (Art. 84 AMMR, read on civil dates as package rules does).
func TestRegimeSwitch(t *testing.T) {
	for _, tt := range []struct {
		registered, limit, want string
	}{
		{"2026-06-30 23:30", "take-charge-request-dublin", "2026-09-30"},
		{"2026-07-01 00:10", "take-charge-request", "2026-09-01"},
	} {
		c := build(t, cases.Facts{}, ev{cases.Disembarked, "2026-06-25"}, ev{cases.ScreeningStarted, "2026-06-25 12:00"},
			ev{cases.Applied, "2026-06-26"}, ev{cases.Registration, tt.registered})
		d, ok := find(deadline.Compute(c, deadline.Params{}), tt.limit)
		if !ok || !d.Due.Equal(day(tt.want)) {
			t.Errorf("registered %s: %s %v %s, want %s", tt.registered, tt.limit, ok, d.Due.Format("2006-01-02"), tt.want)
		}
	}
}

// TestOrder: earliest first.
func TestOrder(t *testing.T) {
	c := build(t, cases.Facts{}, seq(border, []ev{{cases.EurodacHit, "2026-08-27"}})...)
	dues := deadline.Compute(c, deadline.Params{})
	want := []string{"eurodac-sar", "eurodac-applicant", "take-charge-request-hit", "border-procedure"}
	var got []string
	for _, d := range dues {
		got = append(got, d.Limit)
	}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
}

// TestMissed: the consequences the law states, as events that Apply accepts.
func TestMissed(t *testing.T) {
	tests := []struct {
		name  string
		evs   []ev
		now   string
		limit string
		event cases.Event // "" for a consequence needing an officer
		to    cases.State
	}{
		{"take charge request not sent (Art. 39(1))", regular, "2026-10-27", "take-charge-request", cases.TakeChargeDeadlinePassed, cases.ResponsibleSelf},
		{"no reply: tacit acceptance (Art. 40)", tcrSent, "2026-10-11", "take-charge-reply", cases.TacitAcceptance, cases.TransferAgreed},
		{"no confirmation (Art. 41(4))", seq(regular, []ev{{cases.TakeBackHit, "2026-09-01"}, {cases.TakeBackNotificationSent, "2026-09-05"}}),
			"2026-09-20", "take-back-confirmation", cases.TacitConfirmation, cases.TransferAgreed},
		{"appeal window closed (Art. 43(2))", decided, "2026-10-27", "transfer-appeal-window", cases.AppealWindowClosed, cases.TransferPending},
		{"transfer not carried out (Arts. 37(1), 46(1))", pending, "2027-04-02", "transfer", cases.TransferDeadlinePassed, cases.ResponsibleSelf},
		{"Dublin III transfer not carried out (Art. 29(2))", dPending, "2027-02-02", "transfer-dublin", cases.TransferDeadlinePassed, cases.ResponsibleSelf},
		{"Dublin III no reply (Art. 22(7))", seq(dRegular, []ev{{cases.TakeChargeRequestSent, "2026-07-10"}}), "2026-09-11", "take-charge-reply-dublin",
			cases.TacitAcceptance, cases.TransferAgreed},
		{"border procedure over (Art. 51(2) APR)", borderSelf, "2026-11-19", "border-procedure", cases.BorderPeriodExpired, cases.Normal},
		{"border procedure over beside the determination", border, "2026-11-19", "border-procedure", cases.BorderPeriodExpired, cases.Determination},
		{"border procedure over after the rejection", borderRejected, "2026-11-19", "border-procedure", "", ""},
		{"return border procedure over (Art. 4(2) RBPR)", returnBorder, "2027-01-05", "return-border-procedure", cases.ReturnBorderPeriodExpired, cases.NotReturned},
		{"15 months (Art. 37(2))", seq(returnBorder, []ev{{cases.ReturnBorderPeriodExpired, "2027-01-05"}}), "2028-01-13", "responsibility-end-37-2", cases.ResponsibilityCeased, cases.Closed372},
		{"screening over (Art. 18(1) SR)", screened, "2026-09-01", "screening", cases.NoApplication, cases.ReferredReturn},
		{"screening over, not started", disembarked, "2026-09-01", "screening", "", ""},
		{"no appeal (Art. 67 APR)", seq(normalExam, []ev{{cases.Rejection, "2026-10-01"}}), "2026-11-02", "appeal-lodging", cases.ReturnDecision, cases.ReturnProcedure},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := build(t, cases.Facts{}, tt.evs...)
			now := at(tt.now)
			var k *deadline.Consequence
			for _, m := range deadline.Missed(c, deadline.Params{}, now) {
				if m.Due.Limit == tt.limit {
					k = &m
				}
				if !m.Due.Overdue(now) || m.Due.Then == "" {
					t.Errorf("reported %s, not overdue or without consequence", m.Due.Limit)
				}
			}
			if k == nil {
				t.Fatalf("%s not reported", tt.limit)
			}
			if k.Event != tt.event || k.Due.Consequence == "" {
				t.Fatalf("event %q, want %q (%s)", k.Event, tt.event, k.Due.Consequence)
			}
			if tt.event == "" {
				return
			}
			next, tr, err := cases.Apply(c, k.Event, now)
			if err != nil || next.State != tt.to {
				t.Errorf("applying %s: %v, state %s", k.Event, err, next.State)
			}
			if tr.Article == "" {
				t.Error("no article")
			}
			// The day before, nothing is missed.
			for _, m := range deadline.Missed(c, deadline.Params{}, now.AddDate(0, 0, -1)) {
				if m.Due.Limit == tt.limit {
					t.Errorf("missed a day early")
				}
			}
		})
	}
	// A late take back notification has no consequence (Art. 41(1) AMMR).
	c := build(t, cases.Facts{}, seq(regular, []ev{{cases.TakeBackHit, "2026-09-01"}})...)
	if got := deadline.Missed(c, deadline.Params{}, at("2026-12-01")); len(got) != 1 || got[0].Due.Limit != "take-charge-request" {
		t.Errorf("take back: %v", got)
	}
	d, _ := find(deadline.Overdue(deadline.Compute(c, deadline.Params{}), at("2026-12-01")), "take-back-notification")
	if d.Then != "" || !strings.Contains(d.Consequence, "does not affect") {
		t.Errorf("take back notification: %+v", d)
	}
}

// thenExceptions: where a limit runs but its consequence cannot be recorded at once.
var thenExceptions = map[string][]string{
	// Screening has not started: referral to return is an officer's decision.
	"screening/ARRIVED_SAR":       {"screening"},
	"screening/ARRIVED_IRREGULAR": {"screening", "screening-reduced"},
	"screening/AT_BCP":            {"screening"},
	// After a rejection in the border procedure, what the end of the 12 weeks means
	// (Arts. 43(3), 51(2) APR) was not read.
	"border-procedure/BORDER_REJECTED": {"border-procedure", "border-procedure-crisis", "border-procedure-relocation"},
	"border-procedure/BORDER_APPEAL":   {"border-procedure", "border-procedure-crisis", "border-procedure-relocation"},
}

// TestCatalogue checks the catalogue against the spec's table and the case machine.
func TestCatalogue(t *testing.T) {
	rows := strings.Fields("1 2 3 4 4a 5 6 6a 7 7a 7b 7c 7d 8 8a 8b 8c 9 10 10a 11 12 13 13a 14 14a 14b 14c 14d 15 16 17 18 19 20 20a 20b 21 22 23 24 24a 25 26 27 SM43 SM44")
	seen := map[string]bool{}
	jsonFields := map[string]bool{}
	rt := reflect.TypeFor[deadline.Params]()
	for i := range rt.NumField() {
		jsonFields[strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]] = true
	}
	for _, l := range deadline.Limits() {
		for _, r := range strings.Split(l.Row, ", ") {
			seen[strings.ReplaceAll(r, " ", "")] = true
		}
		if l.Name == "" || l.Title == "" || !strings.Contains(l.Article, "Art") && !strings.Contains(l.Article, "s.197") {
			t.Errorf("%s: name, title or article missing", l.Name)
		}
		switch l.Tag {
		case "V", "P", "R", "S", "U":
		default:
			t.Errorf("%s: tag %q", l.Name, l.Tag)
		}
		if l.Tag != "V" && l.Param == "" {
			t.Errorf("%s: tagged %s but not a parameter", l.Name, l.Tag)
		}
		if l.Param != "" && !jsonFields[l.Param] {
			t.Errorf("%s: unknown parameter %q", l.Name, l.Param)
		}
		if l.Consequence != "" && l.ConsequenceTag == "" && !strings.HasPrefix(l.Consequence, "not stated") {
			t.Errorf("%s: consequence without a tag", l.Name)
		}
		if l.Period.IsZero() && l.Param == "" {
			t.Errorf("%s: no period", l.Name)
		}
		if len(l.Start) == 0 {
			if l.Note == "" {
				t.Errorf("%s: never computed and no note", l.Name)
			}
			continue
		}
		for _, tr := range append(slices.Clone(l.Start), l.Fallback...) {
			ok := false
			for _, r := range cases.Table() {
				ok = ok || r.Event == tr.Event && (tr.From == "" || r.From == tr.From) && (tr.To == "" || r.To == tr.To)
			}
			if !ok {
				t.Errorf("%s: start %+v matches no transition", l.Name, tr)
			}
		}
		for _, s := range l.Running {
			if !s.Valid() {
				t.Errorf("%s: state %q", l.Name, s)
			}
			for _, e := range l.Stop {
				if !cases.Can(s, e) {
					t.Errorf("%s: stop event %s not legal in running state %s", l.Name, e, s)
				}
			}
			// The consequence can be recorded wherever the limit runs, except where an
			// officer must decide (see Consequence.Event).
			if l.Then != "" && !cases.Can(s, l.Then) && !slices.Contains(thenExceptions[l.Group+"/"+string(s)], l.Name) {
				t.Errorf("%s: consequence %s not legal in running state %s", l.Name, l.Then, s)
			}
		}
	}
	for _, r := range rows {
		if !seen[r] {
			t.Errorf("spec row %s has no limit", r)
		}
	}
	if l, ok := deadline.Lookup("transfer"); !ok || l.Period != deadline.M(6) || l.Then != cases.TransferDeadlinePassed {
		t.Errorf("Lookup(transfer) = %+v", l)
	}
	if _, ok := deadline.Lookup("nope"); ok {
		t.Error("Lookup(nope)")
	}
}

func TestParams(t *testing.T) {
	if err := (deadline.Params{}).Validate(); err != nil {
		t.Errorf("zero: %v", err)
	}
	if err := deadline.DefaultParams().Validate(); err != nil {
		t.Errorf("defaults: %v", err)
	}
	bad := []struct {
		p     deadline.Params
		field string
	}{
		{deadline.Params{TransferAppeal: deadline.W(4)}, "transfer_appeal"},
		{deadline.Params{TransferAppeal: deadline.D(5)}, "transfer_appeal"},
		{deadline.Params{AppealShort: deadline.D(4)}, "appeal_short"},
		{deadline.Params{AppealShort: deadline.W(2)}, "appeal_short"},
		{deadline.Params{AppealLong: deadline.D(10)}, "appeal_long"},
		{deadline.Params{AppealLong: deadline.M(2)}, "appeal_long"},
		{deadline.Params{BorderProcedure: deadline.M(3)}, "border_procedure"},
		{deadline.Params{Registration: deadline.D(-1)}, "registration"},
		{deadline.Params{Registration: deadline.Period{N: 2, Unit: "fortnight"}}, "registration"},
		{deadline.Params{NormalMaximum: deadline.M(5000)}, "normal_maximum"},
	}
	for _, tt := range bad {
		err := tt.p.Validate()
		e, ok := errors.AsType[*solidarity.Error](err)
		if !ok || e.Code != solidarity.EINVALID || e.Field != tt.field {
			t.Errorf("%+v: %v", tt.p, err)
		}
	}
	for _, ok := range []deadline.Params{{TransferAppeal: deadline.W(1)}, {TransferAppeal: deadline.D(10)}, {AppealLong: deadline.W(2)},
		{AppealLong: deadline.M(1)}, {AppealShort: deadline.D(5)}, {DetainedTransfer: deadline.W(6)}} {
		if err := ok.Validate(); err != nil {
			t.Errorf("%+v: %v", ok, err)
		}
	}
	var p deadline.Params
	if err := json.Unmarshal([]byte(`{"transfer_appeal":"2w","registration":"15d","crisis":true,"admissibility":"x"}`), &p); err != nil {
		t.Fatal(err)
	}
	if p.TransferAppeal != deadline.W(2) || p.Registration != deadline.D(15) || !p.Crisis {
		t.Errorf("decoded %+v", p)
	}
	b, _ := json.Marshal(deadline.Params{AppealShort: deadline.D(7)})
	if string(b) != `{"appeal_short":"7d"}` {
		t.Errorf("encoded %s", b)
	}
	if err := json.Unmarshal([]byte(`{"registration":"5 days"}`), &p); err == nil {
		t.Error("bad period accepted")
	}
	if l, _ := deadline.Lookup("transfer-appeal-window"); l.PeriodFor(deadline.Params{}) != deadline.W(3) ||
		l.PeriodFor(deadline.Params{TransferAppeal: deadline.W(2)}) != deadline.W(2) {
		t.Error("PeriodFor")
	}
}

func TestPeriod(t *testing.T) {
	for _, s := range []string{"72h", "7d", "10wd", "2w", "6m", "0d"} {
		p, err := deadline.ParsePeriod(s)
		if err != nil || p.String() != s {
			t.Errorf("%s: %v %v", s, p, err)
		}
	}
	for _, s := range []string{"", "d", "7", "7y", "-1d", "1.5m"} {
		if _, err := deadline.ParsePeriod(s); err == nil {
			t.Errorf("%q accepted", s)
		}
	}
	if deadline.M(1).Words() != "1 month" || deadline.WD(10).Words() != "10 working days" || deadline.H(72).Words() != "72 hours" {
		t.Error("Words")
	}
}

// TestDayNumbers: AddMonths and Civil against the time package, day by day over three
// centuries.
func TestDayNumbers(t *testing.T) {
	for d := time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() < 2200; d = d.AddDate(0, 0, 1) {
		if got := deadline.AddMonths(d, 0); !got.Equal(d) {
			t.Fatalf("AddMonths(%s, 0) = %s", d, got)
		}
		want := d.AddDate(0, 1, 0)
		if want.Day() != d.Day() { // rolled over: the last day of the next month
			want = want.AddDate(0, 0, -want.Day())
		}
		if got := deadline.AddMonths(d, 1); !got.Equal(want) {
			t.Fatalf("AddMonths(%s, 1) = %s, want %s", d, got, want)
		}
	}
}

// TestEventLookup: the event table finds every event, by value.
func TestEventLookup(t *testing.T) {
	for i, e := range cases.Events() {
		if id, ok := deadline.LookupEvent(e); !ok || id != i {
			t.Errorf("%s: %d %v", e, id, ok)
		}
		// A copy of the name, not the constant's own bytes, is found too.
		if _, ok := deadline.LookupEvent(cases.Event(strings.Clone(string(e)))); !ok {
			t.Errorf("%s: copy not found", e)
		}
	}
	for _, e := range []cases.Event{"", "x", "disembarkeD", "registered "} {
		if _, ok := deadline.LookupEvent(e); ok {
			t.Errorf("%q found", e)
		}
	}
}
