package deadline_test

import (
	"strings"
	"testing"
	"time"

	"solidarity/cases"
	"solidarity/deadline"
)

var (
	borderSelf     = seq(border, []ev{{cases.CriteriaDesignateSelf, "2026-08-28"}, {cases.ExamineBorder, "2026-08-29"}})
	borderRejected = seq(borderSelf, []ev{{cases.Rejection, "2026-10-01"}})
	returnBorder   = seq(borderRejected, []ev{{cases.ReturnDecision, "2026-10-12"}})
	lodgedSelf     = seq(self, []ev{{cases.Lodged, "2026-09-01"}})
	normalExam     = seq(self, []ev{{cases.Lodged, "2026-08-31"}, {cases.ExamineNormal, "2026-09-01"}})
)

// A disembarkation in June 2026: the application is registered before the AMMR
// applies, so Dublin III's time limits run (AMMR Art. 84(2); spec §9).
var (
	dRegular = []ev{{cases.Disembarked, "2026-06-15"}, {cases.ScreeningStarted, "2026-06-15 12:00"}, {cases.Applied, "2026-06-16"},
		{cases.Registration, "2026-06-20 09:00"}, {cases.RegularTrack, "2026-06-20 10:00"}}
	dAccepted = seq(dRegular, []ev{{cases.TakeChargeRequestSent, "2026-07-10"}, {cases.RequestAccepted, "2026-08-01"}})
	dPending  = seq(dAccepted, []ev{{cases.TransferDecision, "2026-08-03"}, {cases.AppealWindowClosed, "2026-08-25"}})
)

var (
	crisis     = deadline.Params{Crisis: true}
	uam        = cases.Facts{UnaccompaniedMinor: true}
	reducedScr = cases.Facts{ReducedScreening: true}
)

// TestLimits computes every limit that runs from a case's events, each in a case built
// for it, and checks its due date and article. want is "2006-01-02" (the last day) or
// "2006-01-02 15:04" (an instant in Rome, for periods in hours).
func TestLimits(t *testing.T) {
	tests := []struct {
		limit   string
		facts   cases.Facts
		p       deadline.Params
		evs     []ev
		want    string
		article string
	}{
		{"eurodac-sar", cases.Facts{}, deadline.Params{}, disembarked, "2026-08-27 11:00", "Art. 24(2) ED"},
		{"eurodac-irregular", cases.Facts{}, deadline.Params{}, []ev{{cases.ApprehendedAtBorder, "2026-03-10 23:30"}}, "2026-03-14 00:00", "Art. 22(2) ED"},
		// Across the switch to summer time (29 March 2026): 72 hours elapsed.
		{"eurodac-irregular", cases.Facts{}, deadline.Params{}, []ev{{cases.ApprehendedAtBorder, "2026-03-28 01:15"}}, "2026-03-31 03:00", "Art. 22(2) ED"},
		{"eurodac-applicant", cases.Facts{}, deadline.Params{}, registered, "2026-08-29 10:00", "Art. 15(1)"},
		{"screening-reduced", reducedScr, deadline.Params{}, []ev{{cases.ApprehendedAtBorder, "2026-08-24 10:20"}}, "2026-08-31", "Art. 8(3), 2nd sentence SR"},
		{"screening", cases.Facts{}, deadline.Params{}, disembarked, "2026-08-31", "Art. 8(3) SR"},
		{"screening", cases.Facts{}, deadline.Params{}, screened, "2026-08-31", "Art. 8(3) SR"},
		{"screening", cases.Facts{}, deadline.Params{}, []ev{{cases.PresentedAtBCP, "2026-08-24"}}, "2026-08-31", "Art. 8(3) SR"},
		{"screening-territory", cases.Facts{}, deadline.Params{}, []ev{{cases.ApprehendedInTerritory, "2026-08-24"}}, "2026-08-27", "Art. 8(4) SR"},
		{"registration-crisis", cases.Facts{}, crisis, applied, "2026-09-22", "Art. 10(1)–(2) CR"},
		{"registration", cases.Facts{}, deadline.Params{}, applied, "2026-08-30", "Art. 27 APR"},
		{"registration", cases.Facts{}, deadline.Params{Registration: deadline.D(3)}, applied, "2026-08-28", "Art. 27 APR"},
		{"take-charge-request-detained-after", cases.Facts{}, deadline.Params{}, seq(regular, []ev{{cases.Detained, "2026-09-01"}}), "2026-09-08", "Art. 45(1) AMMR"},
		{"take-charge-request-detained", cases.Facts{}, deadline.Params{},
			seq(applied, []ev{{cases.Detained, "2026-08-25 12:00"}, {cases.Registration, "2026-08-26 09:00"}, {cases.RegularTrack, "2026-08-26 10:00"}}),
			"2026-09-09", "Art. 45(1) AMMR"},
		{"take-charge-request-crisis", cases.Facts{}, crisis, regular, "2026-12-26", "Art. 12(2)(a) CR"},
		{"take-charge-request-hit", cases.Facts{}, deadline.Params{}, seq(regular, []ev{{cases.EurodacHit, "2026-09-02"}}), "2026-10-02", "Art. 39(1), 2nd subpara. AMMR"},
		{"take-charge-request", cases.Facts{}, deadline.Params{}, regular, "2026-10-26", "Art. 39(1) AMMR"},
		{"take-charge-request", cases.Facts{}, deadline.Params{}, registered, "2026-10-26", "Art. 39(1) AMMR"},
		{"take-charge-request", cases.Facts{}, deadline.Params{}, seq(tcrSent, []ev{{cases.RequestRefused, "2026-09-20"}}), "2026-10-26", "Art. 39(1) AMMR"},
		{"take-charge-reply-detained", cases.Facts{}, deadline.Params{},
			seq(regular, []ev{{cases.Detained, "2026-09-05"}, {cases.TakeChargeRequestSent, "2026-09-10"}}), "2026-09-17", "Art. 45(2) AMMR"},
		{"take-charge-reply-crisis", cases.Facts{}, crisis, tcrSent, "2026-11-10", "Art. 12(2)(b) CR"},
		{"take-charge-reply-hit", cases.Facts{}, deadline.Params{},
			seq(regular, []ev{{cases.EurodacHit, "2026-09-02"}, {cases.TakeChargeRequestSent, "2026-09-10"}}), "2026-09-24", "Art. 40(2) AMMR"},
		{"take-charge-reply", cases.Facts{}, deadline.Params{}, tcrSent, "2026-10-10", "Art. 40(1) AMMR"},
		{"take-back-notification-detained-after", cases.Facts{}, deadline.Params{},
			seq(regular, []ev{{cases.TakeBackHit, "2026-09-01"}, {cases.Detained, "2026-09-02"}}), "2026-09-09", "Art. 45(1) AMMR"},
		{"take-back-notification-crisis", cases.Facts{}, crisis, seq(regular, []ev{{cases.TakeBackHit, "2026-09-01"}}), "2026-10-01", "Art. 12(2)(c) CR"},
		{"take-back-notification", cases.Facts{}, deadline.Params{}, seq(regular, []ev{{cases.TakeBackHit, "2026-09-01"}}), "2026-09-15", "Art. 41(1) AMMR"},
		{"take-back-confirmation-crisis", cases.Facts{}, crisis,
			seq(regular, []ev{{cases.TakeBackHit, "2026-09-01"}, {cases.TakeBackNotificationSent, "2026-09-05"}}), "2026-10-05", "Art. 12(2)(c) CR"},
		{"take-back-confirmation", cases.Facts{}, deadline.Params{},
			seq(regular, []ev{{cases.TakeBackHit, "2026-09-01"}, {cases.TakeBackNotificationSent, "2026-09-05"}}), "2026-09-19", "Art. 41(3)–(4) AMMR"},
		{"humanitarian-reply", cases.Facts{}, deadline.Params{}, seq(regular, []ev{{cases.HumanitarianRequestSent, "2026-09-05"}}), "2026-11-05", "Art. 35(2) AMMR"},
		{"transfer-decision", cases.Facts{}, deadline.Params{}, accepted, "2026-10-15", "Art. 42(1)–(2) AMMR"},
		{"transfer-appeal-window", cases.Facts{}, deadline.Params{}, decided, "2026-10-26", "Art. 43(2) AMMR"},
		{"transfer-appeal-window", cases.Facts{}, deadline.Params{TransferAppeal: deadline.W(1)}, decided, "2026-10-12", "Art. 43(2) AMMR"},
		{"transfer-suspension-request", cases.Facts{}, deadline.Params{}, appealed, "2026-10-26", "Art. 43(3) AMMR"},
		{"transfer-absconding", cases.Facts{}, deadline.Params{}, seq(pending, []ev{{cases.Absconded, "2026-11-01"}}), "2029-10-01", "Art. 46(2) AMMR"},
		{"transfer-absconding", cases.Facts{}, deadline.Params{}, seq(pending, []ev{{cases.TransferObstructed, "2026-11-01"}}), "2029-10-01", "Art. 46(2) AMMR"},
		{"transfer-imprisonment", cases.Facts{}, deadline.Params{}, seq(pending, []ev{{cases.Imprisoned, "2026-11-01"}}), "2027-10-01", "Art. 46(2) AMMR"},
		{"transfer-crisis", cases.Facts{}, crisis, pending, "2027-10-01", "Art. 12(2)(d) CR"},
		{"transfer-detained", cases.Facts{}, deadline.Params{DetainedTransfer: deadline.W(6)},
			seq(accepted, []ev{{cases.Detained, "2026-10-02"}}), "2026-11-12", "Art. 45(3) AMMR"},
		{"transfer", cases.Facts{}, deadline.Params{}, accepted, "2027-04-01", "Art. 46(1) AMMR"},
		{"transfer", cases.Facts{}, deadline.Params{}, pending, "2027-04-01", "Art. 46(1) AMMR"},
		{"transfer", cases.Facts{}, deadline.Params{}, seq(accepted, []ev{{cases.Detained, "2026-10-02"}}), "2027-04-01", "Art. 46(1) AMMR"},
		// An appeal without suspensive effect does not restart the clock; one with does.
		{"transfer", cases.Facts{}, deadline.Params{}, seq(appealed, []ev{{cases.AppealDismissed, "2027-01-15"}}), "2027-04-01", "Art. 46(1) AMMR"},
		{"transfer", cases.Facts{}, deadline.Params{},
			seq(appealed, []ev{{cases.SuspensionGranted, "2026-10-09"}, {cases.AppealDismissed, "2027-01-15"}}), "2027-07-15", "Art. 46(1) AMMR"},
		// Absconding before the transfer clock started does not extend it.
		{"transfer", cases.Facts{}, deadline.Params{},
			seq(regular, []ev{{cases.Absconded, "2026-08-27"}, {cases.TakeChargeRequestSent, "2026-09-10"}, {cases.RequestAccepted, "2026-10-01"}}),
			"2027-04-01", "Art. 46(1) AMMR"},
		{"relocation-confirmation-complex", cases.Facts{}, deadline.Params{}, seq(relocInfo, []ev{{cases.RelocationComplex, "2026-09-02"}}), "2026-09-15", "Art. 67 AMMR"},
		{"relocation-confirmation", cases.Facts{}, deadline.Params{}, relocInfo, "2026-09-08", "Art. 67 AMMR"},
		{"relocation-confirmation", cases.Facts{}, deadline.Params{RelocationConfirmation: deadline.D(10)}, relocInfo, "2026-09-11", "Art. 67 AMMR"},
		{"relocation-transfer-decision", cases.Facts{}, deadline.Params{}, relocConfirmed, "2026-09-14", "Art. 67 AMMR"},
		{"relocation-transfer", cases.Facts{}, deadline.Params{}, relocConfirmed, "2026-10-05", "Art. 67(11) AMMR"},
		{"relocation-transfer", cases.Facts{}, deadline.Params{}, seq(relocConfirmed, []ev{{cases.TransferDecision, "2026-09-10"}}), "2026-10-05", "Art. 67(11) AMMR"},
		{"relocation-transfer", cases.Facts{}, deadline.Params{}, seq(relocConfirmed, []ev{{cases.TransferDecision, "2026-09-10"},
			{cases.AppealLodged, "2026-09-12"}, {cases.SuspensionGranted, "2026-09-13"}, {cases.AppealDismissed, "2026-10-20"}}), "2026-11-17", "Art. 67(11) AMMR"},
		{"sar-entry-window", cases.Facts{}, deadline.Params{}, applied, "2027-08-24", "Art. 33(2) AMMR"},
		{"sar-entry-window", cases.Facts{}, deadline.Params{}, []ev{{cases.Disembarked, "2028-02-29"}}, "2029-02-28", "Art. 33(2) AMMR"},
		{"irregular-entry-window", cases.Facts{}, deadline.Params{}, []ev{{cases.ApprehendedAtBorder, "2026-03-10"}}, "2027-11-10", "Art. 33(1) AMMR"},
		{"responsibility-end-37-2", cases.Facts{}, deadline.Params{}, returnBorder, "2028-01-12", "Art. 37(2) AMMR"},
		{"responsibility-end-37-2", cases.Facts{}, deadline.Params{},
			seq(returnBorder, []ev{{cases.ReturnBorderPeriodExpired, "2027-01-05"}}), "2028-01-12", "Art. 37(2) AMMR"},
		{"responsibility-end-37-2", cases.Facts{}, deadline.Params{}, seq(borderSelf, []ev{{cases.Withdrawal, "2026-10-31"}}), "2028-01-31", "Art. 37(2) AMMR"},
		{"border-procedure-crisis", cases.Facts{}, crisis, border, "2026-12-30", "Art. 11(1) CR"},
		{"border-procedure-relocation", cases.Facts{}, deadline.Params{}, seq(border, []ev{{cases.RelocationCandidate, "2026-08-27"}}), "2026-12-16", "Art. 52(2) APR"},
		{"border-procedure-crisis", cases.Facts{}, crisis, seq(border, []ev{{cases.RelocationCandidate, "2026-08-27"}}), "2026-12-30", "Art. 11(1) CR"},
		{"border-procedure", cases.Facts{}, deadline.Params{}, border, "2026-11-18", "Art. 51(2) APR"},
		{"border-procedure", cases.Facts{}, deadline.Params{}, borderSelf, "2026-11-18", "Art. 51(2) APR"},
		{"border-procedure", cases.Facts{}, deadline.Params{}, borderRejected, "2026-11-18", "Art. 51(2) APR"},
		{"border-procedure", cases.Facts{}, deadline.Params{BorderProcedure: deadline.W(8)}, border, "2026-10-21", "Art. 51(2) APR"},
		{"return-border-procedure", cases.Facts{}, deadline.Params{}, returnBorder, "2027-01-04", "Art. 4(2) RBPR"},
		{"admissibility-38-1-e", cases.Facts{InadmissibleGround38e: true}, deadline.Params{},
			seq(lodgedSelf, []ev{{cases.ExamineAdmissibility, "2026-09-02"}}), "2026-09-15", "Art. 35(1) APR"},
		{"admissibility-38-1-e", cases.Facts{InadmissibleGround38e: true}, deadline.Params{Holidays: []time.Time{day("2026-09-08")}},
			seq(lodgedSelf, []ev{{cases.ExamineAdmissibility, "2026-09-02"}}), "2026-09-16", "Art. 35(1) APR"},
		{"admissibility-extended", cases.Facts{}, deadline.Params{},
			seq(lodgedSelf, []ev{{cases.ExamineAdmissibility, "2026-09-02"}, {cases.ExaminationExtended, "2026-10-01"}}), "2027-01-01", "Art. 35(1)–(2) APR"},
		{"admissibility", cases.Facts{}, deadline.Params{}, seq(lodgedSelf, []ev{{cases.ExamineAdmissibility, "2026-09-02"}}), "2026-11-01", "Art. 35(1) APR"},
		// Not lodged yet: counted from registration.
		{"admissibility", cases.Facts{}, deadline.Params{}, seq(self, []ev{{cases.ExamineAdmissibility, "2026-09-02"}}), "2026-10-26", "Art. 35(1) APR"},
		{"accelerated", cases.Facts{}, deadline.Params{}, seq(lodgedSelf, []ev{{cases.ExamineAccelerated, "2026-09-02"}}), "2026-12-01", "Art. 35(3) APR"},
		{"normal-examination-extended", cases.Facts{}, deadline.Params{}, seq(normalExam, []ev{{cases.ExaminationExtended, "2027-02-01"}}), "2027-08-31", "Art. 35(5) APR"},
		{"normal-examination", cases.Facts{}, deadline.Params{}, normalExam, "2027-02-28", "Art. 35(4) APR"},
		{"normal-examination-maximum", cases.Facts{}, deadline.Params{}, seq(normalExam, []ev{{cases.ExaminationExtended, "2027-02-01"}}), "2028-05-31", "Art. 35 APR"},
		{"appeal-lodging-short", cases.Facts{}, deadline.Params{},
			seq(lodgedSelf, []ev{{cases.ExamineAccelerated, "2026-09-02"}, {cases.Rejection, "2026-10-01"}}), "2026-10-11", "Art. 67(7) APR"},
		{"appeal-lodging-short", cases.Facts{}, deadline.Params{AppealShort: deadline.D(5)},
			seq(lodgedSelf, []ev{{cases.ExamineAccelerated, "2026-09-02"}, {cases.Rejection, "2026-10-01"}}), "2026-10-06", "Art. 67(7) APR"},
		{"appeal-lodging-short", cases.Facts{}, deadline.Params{}, borderRejected, "2026-10-11", "Art. 67(7) APR"},
		{"appeal-lodging", cases.Facts{}, deadline.Params{}, seq(normalExam, []ev{{cases.Rejection, "2026-10-01"}}), "2026-11-01", "Art. 67(7) APR"},
		{"appeal-decision-inadmissible", cases.Facts{}, deadline.Params{},
			seq(lodgedSelf, []ev{{cases.ExamineAdmissibility, "2026-09-02"}, {cases.Rejection, "2026-10-01"}, {cases.AppealLodged, "2026-10-05"}}), "2026-12-05", "s.197"},
		{"appeal-decision-accelerated", cases.Facts{}, deadline.Params{},
			seq(lodgedSelf, []ev{{cases.ExamineAccelerated, "2026-09-02"}, {cases.Rejection, "2026-10-01"}, {cases.AppealLodged, "2026-10-05"}}), "2027-01-05", "s.197"},
		{"appeal-decision", cases.Facts{}, deadline.Params{},
			seq(normalExam, []ev{{cases.Rejection, "2026-10-01"}, {cases.AppealLodged, "2026-10-05"}}), "2027-04-05", "s.197"},
		{"take-charge-request-dublin", cases.Facts{}, deadline.Params{}, dRegular, "2026-09-20", "Art. 21(1) Dublin III"},
		{"take-charge-request-dublin", uam, crisis, dRegular, "2026-09-20", "Art. 21(1) Dublin III"},
		{"take-charge-request-dublin-hit", cases.Facts{}, deadline.Params{}, seq(dRegular, []ev{{cases.EurodacHit, "2026-06-25"}}), "2026-08-25", "Art. 21(1), 2nd subpara. Dublin III"},
		{"take-charge-reply-dublin", cases.Facts{}, deadline.Params{}, seq(dRegular, []ev{{cases.TakeChargeRequestSent, "2026-07-10"}}), "2026-09-10", "Art. 22(1) Dublin III; Art. 22(7) Dublin III"},
		{"take-back-request-dublin", cases.Facts{}, deadline.Params{}, seq(dRegular, []ev{{cases.TakeBackHit, "2026-06-25"}}), "2026-08-25", "Art. 23(2) Dublin III"},
		{"take-back-reply-dublin", cases.Facts{}, deadline.Params{},
			seq(dRegular, []ev{{cases.TakeBackHit, "2026-06-25"}, {cases.TakeBackNotificationSent, "2026-07-01"}}), "2026-07-15", "Art. 25(1) Dublin III"},
		{"transfer-dublin", cases.Facts{}, deadline.Params{}, dPending, "2027-02-01", "Art. 29(1) Dublin III"},
		{"transfer-dublin-absconding", cases.Facts{}, deadline.Params{}, seq(dPending, []ev{{cases.Absconded, "2026-09-01"}}), "2028-02-01", "Art. 29(2) Dublin III"},
		{"transfer-dublin-imprisonment", cases.Facts{}, deadline.Params{}, seq(dPending, []ev{{cases.Imprisoned, "2026-09-01"}}), "2027-08-01", "Art. 29(2) Dublin III"},
		// Dublin III moved to a later date: the same case follows the AMMR.
		{"take-charge-request", cases.Facts{}, deadline.Params{DublinIIIUntil: day("2026-06-01")}, dRegular, "2026-08-20", "Art. 39(1) AMMR"},
		{"eurodac-retention-applicant", cases.Facts{}, deadline.Params{},
			seq(registered, []ev{{cases.EurodacApplicantRecorded, "2026-08-26 12:00"}}), "2036-08-26", "Art. 29(1) ED"},
		{"eurodac-retention-sar", cases.Facts{}, deadline.Params{}, seq(disembarked, []ev{{cases.EurodacRecorded, "2026-08-24 15:00"}}), "2031-08-24", "Art. 29(6)–(8) ED"},
		// Retention outlives the case.
		{"eurodac-retention-sar", cases.Facts{}, deadline.Params{},
			seq(screened, []ev{{cases.EurodacRecorded, "2026-08-24 15:00"}, {cases.NoApplication, "2026-08-30"}, {cases.ReturnCarriedOut, "2026-10-01"}}),
			"2031-08-24", "Art. 29(6)–(8) ED"},
	}
	covered := map[string]bool{}
	for _, tt := range tests {
		t.Run(tt.limit, func(t *testing.T) {
			c := build(t, tt.facts, tt.evs...)
			dues := deadline.Compute(c, tt.p)
			d, ok := find(dues, tt.limit)
			if !ok {
				t.Fatalf("%s not running in %s; running: %s", tt.limit, c.State, names(dues))
			}
			var want time.Time
			if len(tt.want) > len("2006-01-02") {
				want = at(tt.want)
				if !d.Hours {
					t.Errorf("want a period in hours")
				}
			} else {
				want = day(tt.want)
			}
			if !d.Due.Equal(want) {
				t.Errorf("due %s, want %s", d.Due.Format(time.RFC3339), want.Format(time.RFC3339))
			}
			if !strings.Contains(d.Article, tt.article) {
				t.Errorf("article %q, want %q", d.Article, tt.article)
			}
			l, _ := deadline.Lookup(tt.limit)
			if d.Tag != l.Tag || d.Row != l.Row || d.Then != l.Then || d.Period != l.PeriodFor(tt.p) {
				t.Errorf("due %+v does not carry its limit %+v", d, l)
			}
			// No two variants of one limit run together.
			for _, o := range dues {
				ol, _ := deadline.Lookup(o.Limit)
				if o.Limit != tt.limit && l.Group != "" && ol.Group == l.Group {
					t.Errorf("%s runs beside %s", o.Limit, tt.limit)
				}
			}
		})
		covered[tt.limit] = true
	}
	for _, l := range deadline.Limits() {
		if len(l.Start) > 0 && !covered[l.Name] {
			t.Errorf("limit %s (row %s) has no test", l.Name, l.Row)
		}
	}
}
