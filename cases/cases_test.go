package cases_test

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/cases"
)

// caseIn returns a case in state s whose last event was at t0.
func caseIn(s cases.State) cases.Case {
	return cases.Case{ID: "c1", State: s, History: []cases.Transition{{From: cases.New, Event: cases.Disembarked, To: s, At: t0}}}
}

// TestEveryTransition applies every rule of the table, one subtest each.
func TestEveryTransition(t *testing.T) {
	for _, r := range cases.Table() {
		t.Run(string(r.From)+"/"+string(r.Event), func(t *testing.T) {
			c := caseIn(r.From)
			at := t0.Add(time.Hour)
			got, tr, err := cases.Apply(c, r.Event, at)
			if err != nil {
				t.Fatalf("refused: %v", err)
			}
			want := cases.Transition{From: r.From, Event: r.Event, To: r.To, At: at, Article: r.Article, Description: r.Description}
			if tr != want {
				t.Errorf("transition = %+v, want %+v", tr, want)
			}
			if got.State != r.To || len(got.History) != 2 || got.History[1] != want {
				t.Errorf("case after: state %s, history %v", got.State, got.History)
			}
			if r.Article == "" || !strings.Contains(r.Article, "Art") && !strings.Contains(r.Article, "Directive") {
				t.Errorf("rule has no article: %+v", r)
			}
			if r.Description == "" {
				t.Errorf("rule has no description")
			}
		})
	}
}

// TestEveryRefusedTransition tries every (state, event) pair not in the table.
func TestEveryRefusedTransition(t *testing.T) {
	n := 0
	for _, s := range cases.States() {
		for _, ev := range cases.Events() {
			if cases.Can(s, ev) {
				continue
			}
			n++
			t.Run(string(s)+"/"+string(ev), func(t *testing.T) {
				c := caseIn(s)
				got, tr, err := cases.Apply(c, ev, t0.Add(time.Hour))
				e, ok := errors.AsType[*solidarity.Error](err)
				if !ok {
					t.Fatalf("accepted (%v) or wrong error type: %v", tr, err)
				}
				if e.Code != solidarity.ECONFLICT {
					t.Errorf("code = %s, want %s", e.Code, solidarity.ECONFLICT)
				}
				if e.Article == "" || e.Article != ev.Article() {
					t.Errorf("article = %q, want %q", e.Article, ev.Article())
				}
				if !strings.Contains(e.Message, string(s)) || !strings.Contains(e.Message, string(ev)) {
					t.Errorf("message %q does not name state and event", e.Message)
				}
				if !reflect.DeepEqual(got, c) {
					t.Errorf("case changed on refusal")
				}
			})
		}
	}
	if n == 0 {
		t.Fatal("no refused pair")
	}
}

// TestSpecTransitions checks the table against the transitions of spec §8 (and the
// relocation steps of solidarity-mechanism.md §2.7), written out independently.
func TestSpecTransitions(t *testing.T) {
	tests := []struct {
		from    cases.State
		ev      cases.Event
		to      cases.State
		article string
	}{
		{cases.New, cases.Disembarked, cases.ArrivedSAR, "Art. 5(1)(b) SR"},
		{cases.ArrivedSAR, cases.ScreeningStarted, cases.Screening, "SR"},
		{cases.Screening, cases.NoApplication, cases.ReferredReturn, "Art. 18(1)"},
		{cases.Screening, cases.Applied, cases.ApplicationMade, "Art. 18(2) SR"},
		{cases.Screening, cases.RelocationCandidate, cases.RelocationIdentified, "Art. 18(3) SR"},
		{cases.Registered, cases.RelocationCandidate, cases.RelocationIdentified, "Art. 67(2)–(3) AMMR"},
		{cases.ApplicationMade, cases.Registration, cases.Registered, "Art. 27 APR"},
		{cases.Registered, cases.SecurityThreat, cases.SecurityResponsible, "Art. 16(4)"},
		{cases.Registered, cases.BorderTrack, cases.Determination, "Art. 43"},
		{cases.Registered, cases.RegularTrack, cases.Determination, "Art. 53 APR"},
		{cases.Determination, cases.CriteriaDesignateSelf, cases.ResponsibleSelf, "16(2)"},
		{cases.Determination, cases.TakeChargeRequestSent, cases.TCRSent, "Art. 39(1) AMMR"},
		{cases.Determination, cases.TakeChargeDeadlinePassed, cases.ResponsibleSelf, "Art. 39(1), 3rd subpara."},
		{cases.Determination, cases.TakeBackNotificationSent, cases.TBNSent, "41(1)"},
		{cases.TCRSent, cases.RequestAccepted, cases.TransferAgreed, "Art. 40"},
		{cases.TCRSent, cases.TacitAcceptance, cases.TransferAgreed, "45(2)"},
		{cases.TCRSent, cases.RequestRefused, cases.TCRRejected, "Art. 40"},
		{cases.TCRRejected, cases.TakeChargeRequestSent, cases.TCRSent, "Art. 39(1)"},
		{cases.TCRRejected, cases.CriteriaDesignateSelf, cases.ResponsibleSelf, "Art"},
		{cases.TBNSent, cases.ReceiptConfirmed, cases.TransferAgreed, "Art. 41(3)"},
		{cases.TBNSent, cases.TacitConfirmation, cases.TransferAgreed, "Art. 41(4)"},
		{cases.TBNSent, cases.TakeBackContested, cases.Determination, "Art. 41(3)"},
		{cases.TransferAgreed, cases.TransferDecision, cases.TransferDecisionNotified, "Art. 42"},
		{cases.TransferDecisionNotified, cases.AppealLodged, cases.TransferAppeal, "Art. 43"},
		{cases.TransferDecisionNotified, cases.AppealWindowClosed, cases.TransferPending, "Art. 46(1)"},
		{cases.TransferAppeal, cases.AppealUpheld, cases.Determination, "Art. 16(3)"},
		{cases.TransferAppeal, cases.AppealDismissed, cases.TransferPending, "Art. 46(1)"},
		{cases.TransferAppeal, cases.SuspensionGranted, cases.TransferAppealSuspended, "Art. 43(3)"},
		{cases.TransferAppealSuspended, cases.AppealDismissed, cases.TransferPending, "Art. 46(1)"},
		{cases.TransferPending, cases.Transferred, cases.TransferredOut, "Art. 46"},
		{cases.TransferPending, cases.Absconded, cases.TransferPending, "Art. 46(2)"},
		{cases.TransferPending, cases.Imprisoned, cases.TransferPending, "Art. 46(2)"},
		{cases.TransferPending, cases.TransferDeadlinePassed, cases.ResponsibleSelf, "Art. 37(1)"},
		{cases.TransferPending, cases.ResponsibilityAssumed, cases.ResponsibleSelf, "Art. 35(1)"},
		{cases.Determination, cases.ResponsibilityAssumed, cases.ResponsibleSelf, "37(1)"},
		{cases.RelocationIdentified, cases.RelocationCleared, cases.RelocationSecurityCleared, "Art. 67(2)"},
		{cases.RelocationIdentified, cases.SecurityThreat, cases.SecurityResponsible, "Art"},
		{cases.RelocationSecurityCleared, cases.RelocationInfo, cases.RelocationInfoSent, "Art. 67"},
		{cases.RelocationInfoSent, cases.RelocationConfirmation, cases.RelocationConfirmed, "Art. 67"},
		{cases.RelocationConfirmed, cases.TransferDecision, cases.RelocationTransferDecided, "Art. 67"},
		{cases.RelocationTransferDecided, cases.Transferred, cases.RelocatedOut, "Art. 67(11)"},
		{cases.RelocatedOut, cases.ArrivalNotified, cases.RelocationArrived, "Art. 68(1)"},
		{cases.RelocatedOut, cases.NoShow, cases.RelocationNoShow, "Art. 68(1)"},
		{cases.ResponsibleSelf, cases.ExamineBorder, cases.BorderProcedure, "APR"},
		{cases.ResponsibleSelf, cases.ExamineAccelerated, cases.Accelerated, "APR"},
		{cases.ResponsibleSelf, cases.ExamineNormal, cases.Normal, "APR"},
		{cases.ResponsibleSelf, cases.ExamineAdmissibility, cases.Admissibility, "APR"},
		{cases.BorderProcedure, cases.BorderPeriodExpired, cases.Normal, "Art. 51(2) APR"},
		{cases.BorderProcedure, cases.BorderStopped, cases.Normal, "Art. 53(2) APR"},
		{cases.BorderProcedure, cases.BorderStoppedAccel, cases.Accelerated, "Art. 53(2) APR"},
		{cases.Normal, cases.Rejection, cases.Rejected, "Art. 35 APR"},
		{cases.Normal, cases.Granted, cases.ProtectionGranted, "APR"},
		{cases.Rejected, cases.AppealLodged, cases.AsylumAppeal, "Art. 67 APR"},
		{cases.AsylumAppeal, cases.Granted, cases.ProtectionGranted, "APR"},
		{cases.BorderProcedure, cases.Rejection, cases.BorderRejected, "APR"},
		{cases.BorderRejected, cases.ReturnDecision, cases.ReturnBorderProcedure, "Art. 4 RBPR"},
		{cases.BorderAppeal, cases.ReturnDecision, cases.ReturnBorderProcedure, "Art. 37(2) AMMR"},
		{cases.Rejected, cases.ReturnDecision, cases.ReturnProcedure, "Return Directive"},
		{cases.ReturnBorderProcedure, cases.ReturnCarriedOut, cases.Returned, "RBPR"},
		{cases.ReturnBorderProcedure, cases.ReturnBorderPeriodExpired, cases.NotReturned, "Art. 4(2) RBPR"},
		{cases.ReturnBorderProcedure, cases.ResponsibilityCeased, cases.Closed372, "Art. 37(2) AMMR"},
		{cases.NotReturned, cases.ResponsibilityCeased, cases.Closed372, "Art. 37(2) AMMR"},
		{cases.Normal, cases.Withdrawal, cases.Withdrawn, "APR"},
		{cases.BorderProcedure, cases.Withdrawal, cases.BorderWithdrawn, "Art. 37(2) AMMR"},
		{cases.BorderWithdrawn, cases.ResponsibilityCeased, cases.Closed372, "Art. 37(2) AMMR"},
	}
	for _, tt := range tests {
		r, ok := cases.Lookup(tt.from, tt.ev)
		if !ok {
			t.Errorf("%s --%s--> missing from the table", tt.from, tt.ev)
			continue
		}
		if r.To != tt.to || !strings.Contains(r.Article, tt.article) {
			t.Errorf("%s --%s--> %s (%s), want %s (%s)", tt.from, tt.ev, r.To, r.Article, tt.to, tt.article)
		}
	}
}

// TestRefusals names transitions the law rules out, with the reason.
func TestRefusals(t *testing.T) {
	tests := []struct {
		from cases.State
		ev   cases.Event
		why  string
	}{
		{cases.SecurityResponsible, cases.RelocationCandidate, "Art. 67(2) AMMR: barred from any relocation"},
		{cases.SecurityResponsible, cases.TakeChargeRequestSent, "Art. 16(4) AMMR: no take charge request"},
		{cases.Screening, cases.Registration, "an application must be made before it is registered"},
		{cases.New, cases.Registration, "nothing before arrival"},
		{cases.TransferAppealSuspended, cases.Transferred, "Art. 43(3) AMMR: transfer suspended"},
		{cases.TransferDecisionNotified, cases.Transferred, "appeal window open"},
		{cases.TransferAgreed, cases.Transferred, "no transfer decision yet (Art. 42)"},
		{cases.TransferAppealSuspended, cases.TransferDeadlinePassed, "the time limit does not run while suspended"},
		{cases.TBNSent, cases.TacitAcceptance, "take back: tacit confirmation, not acceptance"},
		{cases.TCRSent, cases.TacitConfirmation, "take charge: tacit acceptance, not confirmation"},
		{cases.HumanitarianSent, cases.TacitAcceptance, "no tacit acceptance of a humanitarian request in the spec"},
		{cases.Rejected, cases.ReturnBorderPeriodExpired, "the RBPR only follows a border-procedure rejection"},
		{cases.ReturnProcedure, cases.ResponsibilityCeased, "Art. 37(2) only after the border procedure"},
		{cases.Determination, cases.ExamineNormal, "examination only once responsible"},
		{cases.Registered, cases.CriteriaDesignateSelf, "track first (Art. 52(1) APR)"},
		{cases.RelocationTransferDecided, cases.ArrivalNotified, "arrival only after transfer"},
		{cases.ProtectionGranted, cases.Withdrawal, "terminal"},
		{cases.TransferredOut, cases.Absconded, "terminal"},
		{cases.RelocatedOut, cases.Detained, "the person is in the Member State of relocation"},
	}
	for _, tt := range tests {
		if cases.Can(tt.from, tt.ev) {
			t.Errorf("%s --%s--> allowed; want refused: %s", tt.from, tt.ev, tt.why)
		}
	}
}

func TestDates(t *testing.T) {
	c := mustWalk(t, step{cases.Disembarked, 0})
	if _, _, err := cases.Apply(c, cases.ScreeningStarted, time.Time{}); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("zero date: %v", err)
	}
	_, _, err := cases.Apply(c, cases.ScreeningStarted, t0.Add(-time.Second))
	if e, ok := errors.AsType[*solidarity.Error](err); !ok || e.Code != solidarity.EINVALID || e.Field != "at" {
		t.Errorf("earlier date: %v", err)
	}
	// The same instant is not earlier.
	if _, _, err := cases.Apply(c, cases.ScreeningStarted, t0); err != nil {
		t.Errorf("same instant: %v", err)
	}
	// An instant written in another zone compares as an instant.
	if _, _, err := cases.Apply(c, cases.ScreeningStarted, t0.UTC()); err != nil {
		t.Errorf("same instant in UTC: %v", err)
	}
	// A refused date leaves an illegal event refused as a conflict first.
	if _, _, err := cases.Apply(c, cases.Transferred, t0.Add(-time.Hour)); solidarity.ErrorCode(err) != solidarity.ECONFLICT {
		t.Errorf("illegal event with bad date: %v", err)
	}
}

func TestUnknown(t *testing.T) {
	var c cases.Case
	if _, _, err := cases.Apply(c, "teleported", t0); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("unknown event: %v", err)
	}
	c.State = "LIMBO"
	if _, _, err := cases.Apply(c, cases.Disembarked, t0); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Errorf("unknown state: %v", err)
	}
	if cases.State("LIMBO").Valid() || cases.Event("x").Valid() || cases.Event("x").Article() != "" {
		t.Error("unknown values reported valid")
	}
}

func TestRefusalMessage(t *testing.T) {
	c := mustWalk(t, path(cases.Disembarked, cases.ScreeningStarted)...)
	_, _, err := cases.Apply(c, cases.TakeChargeRequestSent, t0.Add(5*time.Hour))
	want := "event take-charge-request-sent is not allowed in state SCREENING; allowed: screening-ended-no-application, application-made, relocation-candidate, detained, released, absconded, eurodac-recorded (Art. 39(1) AMMR)"
	if err == nil || err.Error() != "field \"event\": "+want {
		t.Errorf("error = %v\nwant  %s", err, want)
	}
	c = mustWalk(t, path(cases.Disembarked, cases.ScreeningStarted, cases.Applied, cases.Registration, cases.RegularTrack,
		cases.CriteriaDesignateSelf, cases.ExamineNormal, cases.Granted)...)
	_, _, err = cases.Apply(c, cases.Withdrawal, t0.Add(24*time.Hour))
	if err == nil || !strings.Contains(err.Error(), "the case is closed") {
		t.Errorf("terminal: %v", err)
	}
}

// TestNoAliasing: two events applied to the same case give independent histories.
func TestNoAliasing(t *testing.T) {
	base := mustWalk(t, path(cases.Disembarked, cases.ScreeningStarted)...)
	base.History = slices.Grow(base.History, 10) // spare capacity that append could share
	a, _, err1 := cases.Apply(base, cases.Applied, t0.Add(3*time.Hour))
	b, _, err2 := cases.Apply(base, cases.NoApplication, t0.Add(3*time.Hour))
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	if a.History[2].Event != cases.Applied || b.History[2].Event != cases.NoApplication || len(base.History) != 2 {
		t.Errorf("histories share storage: %v / %v", a.History[2].Event, b.History[2].Event)
	}
}

func TestCaseDatesAndTrack(t *testing.T) {
	c := mustWalk(t,
		step{cases.Disembarked, 0}, step{cases.ScreeningStarted, 2}, step{cases.Applied, 30},
		step{cases.Registration, 50}, step{cases.Detained, 51}, step{cases.BorderTrack, 52},
		step{cases.Lodged, 60}, step{cases.Released, 70}, step{cases.CriteriaDesignateSelf, 80},
		step{cases.ExamineBorder, 90}, step{cases.Rejection, 200}, step{cases.ReturnDecision, 400})
	h := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Hour) }
	if !c.Arrived.Equal(h(0)) || !c.ApplicationMade.Equal(h(30)) || !c.Registered.Equal(h(50)) || !c.Lodged.Equal(h(60)) ||
		!c.Detained.IsZero() || !c.Decided.Equal(h(200)) || !c.Final.Equal(h(400)) {
		t.Errorf("dates: %+v", c)
	}
	if c.Track != cases.Border || c.State != cases.ReturnBorderProcedure || !c.Last().Equal(h(400)) {
		t.Errorf("track %q state %s", c.Track, c.State)
	}
	c2 := mustWalk(t, step{cases.Disembarked, 0}, step{cases.ScreeningStarted, 1}, step{cases.Applied, 2},
		step{cases.Registration, 3}, step{cases.BorderTrack, 4}, step{cases.BorderStopped, 5}, step{cases.Detained, 6})
	if c2.Track != cases.Regular || !c2.Detained.Equal(h(6)) || c2.State != cases.Determination {
		t.Errorf("border stopped beside the determination: %+v", c2)
	}
}

func TestReplay(t *testing.T) {
	c := mustWalk(t, path(cases.Disembarked, cases.ScreeningStarted, cases.Applied, cases.Registration, cases.RegularTrack,
		cases.TakeChargeRequestSent, cases.TacitAcceptance, cases.TransferDecision, cases.AppealWindowClosed, cases.Transferred)...)
	c.ID, c.Facts = "IT-2026-000177", cases.Facts{NoBiometrics: true}
	got, err := cases.Replay(c.ID, c.Facts, c.History)
	if err != nil || !reflect.DeepEqual(got, c) {
		t.Fatalf("replay: %v\n got %+v\nwant %+v", err, got, c)
	}
	bad := slices.Clone(c.History)
	bad[3].To = cases.Screening
	if _, err := cases.Replay(c.ID, c.Facts, bad); err == nil || !strings.Contains(err.Error(), "history[3]") {
		t.Errorf("tampered To: %v", err)
	}
	bad = slices.Clone(c.History)
	bad[5].At = bad[4].At.Add(-time.Minute)
	if _, err := cases.Replay(c.ID, c.Facts, bad); solidarity.ErrorCode(err) != solidarity.EINVALID || !strings.Contains(err.Error(), "history[5]") {
		t.Errorf("dates out of order: %v", err)
	}
	bad = slices.Clone(c.History)
	bad[2].Event = cases.Transferred
	if _, err := cases.Replay(c.ID, c.Facts, bad); solidarity.ErrorCode(err) != solidarity.ECONFLICT {
		t.Errorf("illegal event: %v", err)
	}
}

func TestAllowed(t *testing.T) {
	want := []cases.Event{cases.NoApplication, cases.Applied, cases.RelocationCandidate, cases.Detained, cases.Released,
		cases.Absconded, cases.EurodacRecorded}
	if got := cases.Allowed(cases.Screening); !slices.Equal(got, want) {
		t.Errorf("Allowed(SCREENING) = %v", got)
	}
	if got := cases.Allowed(""); !slices.Equal(got, cases.Allowed(cases.New)) || len(got) != 4 {
		t.Errorf("Allowed(zero) = %v", got)
	}
	for _, s := range cases.States() {
		got := cases.Allowed(s)
		if s.Terminal() != (len(got) == 0) {
			t.Errorf("%s: terminal %v, allowed %v", s, s.Terminal(), got)
		}
		for _, e := range cases.Events() {
			if cases.Can(s, e) != slices.Contains(got, e) {
				t.Errorf("%s: Allowed and Can disagree on %s", s, e)
			}
		}
		if s.Label() == string(s) {
			t.Errorf("%s has no label", s)
		}
	}
	for _, e := range cases.Events() {
		if e.Label() == string(e) || e.Article() == "" {
			t.Errorf("%s has no label or article", e)
		}
		used := false
		for _, r := range cases.Table() {
			used = used || r.Event == e
		}
		if !used {
			t.Errorf("event %s is legal nowhere", e)
		}
	}
}

// TestGraph: every state can be reached from New, and every open state can reach a
// terminal state.
func TestGraph(t *testing.T) {
	next := map[cases.State][]cases.State{}
	prev := map[cases.State][]cases.State{}
	for _, r := range cases.Table() {
		next[r.From] = append(next[r.From], r.To)
		prev[r.To] = append(prev[r.To], r.From)
	}
	reach := func(from []cases.State, edges map[cases.State][]cases.State) map[cases.State]bool {
		seen := map[cases.State]bool{}
		q := slices.Clone(from)
		for len(q) > 0 {
			s := q[0]
			q = q[1:]
			if seen[s] {
				continue
			}
			seen[s] = true
			q = append(q, edges[s]...)
		}
		return seen
	}
	fwd := reach([]cases.State{cases.New}, next)
	var terminals []cases.State
	for _, s := range cases.States() {
		if s.Terminal() {
			terminals = append(terminals, s)
		}
	}
	back := reach(terminals, prev)
	for _, s := range cases.States() {
		if !fwd[s] {
			t.Errorf("%s cannot be reached", s)
		}
		if !back[s] {
			t.Errorf("%s cannot reach a terminal state", s)
		}
	}
}

// TestPaths walks the main routes of a SAR disembarkation end to end.
func TestPaths(t *testing.T) {
	arrive := []cases.Event{cases.Disembarked, cases.EurodacRecorded, cases.ScreeningStarted, cases.Applied, cases.Registration,
		cases.EurodacApplicantRecorded}
	tests := []struct {
		name string
		evs  []cases.Event
		want cases.State
	}{
		{"relocation", slices.Concat(arrive, []cases.Event{cases.RegularTrack, cases.RelocationCandidate, cases.RelocationCleared,
			cases.RelocationInfo, cases.RelocationConfirmation, cases.TransferDecision, cases.Transferred, cases.ArrivalNotified}), cases.RelocationArrived},
		{"relocation no-show", slices.Concat(arrive, []cases.Event{cases.RegularTrack, cases.RelocationCandidate, cases.RelocationCleared,
			cases.RelocationInfo, cases.RelocationComplex, cases.RelocationConfirmation, cases.TransferDecision, cases.AppealLodged,
			cases.SuspensionGranted, cases.AppealDismissed, cases.Transferred, cases.NoShow}), cases.RelocationNoShow},
		{"relocation from screening", []cases.Event{cases.Disembarked, cases.ScreeningStarted, cases.RelocationCandidate,
			cases.SecurityThreat, cases.ExamineNormal, cases.Granted}, cases.ProtectionGranted},
		{"Dublin transfer", slices.Concat(arrive, []cases.Event{cases.RegularTrack, cases.TakeChargeRequestSent, cases.RequestAccepted,
			cases.TransferDecision, cases.AppealLodged, cases.AppealDismissed, cases.Absconded, cases.Transferred}), cases.TransferredOut},
		{"missed transfer", slices.Concat(arrive, []cases.Event{cases.RegularTrack, cases.EurodacHit, cases.TakeChargeRequestSent,
			cases.TacitAcceptance, cases.TransferDecision, cases.AppealWindowClosed, cases.TransferDeadlinePassed, cases.ExamineNormal,
			cases.Rejection, cases.AppealLodged, cases.Granted}), cases.ProtectionGranted},
		{"border rejection", slices.Concat(arrive, []cases.Event{cases.BorderTrack, cases.CriteriaDesignateSelf, cases.ExamineBorder,
			cases.Rejection, cases.AppealLodged, cases.ReturnDecision, cases.ReturnBorderPeriodExpired, cases.ResponsibilityCeased}), cases.Closed372},
		{"take back", slices.Concat(arrive, []cases.Event{cases.RegularTrack, cases.TakeBackHit, cases.TakeBackNotificationSent,
			cases.TacitConfirmation, cases.TransferDecision, cases.AppealWindowClosed, cases.Transferred}), cases.TransferredOut},
		{"no application", []cases.Event{cases.Disembarked, cases.ScreeningStarted, cases.NoApplication, cases.ReturnCarriedOut}, cases.Returned},
		{"withdrawal", slices.Concat(arrive, []cases.Event{cases.RegularTrack, cases.Withdrawal, cases.ReturnDecision, cases.ReturnCarriedOut}), cases.Returned},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := mustWalk(t, path(tt.evs...)...)
			if c.State != tt.want {
				t.Errorf("ended in %s, want %s", c.State, tt.want)
			}
		})
	}
}
