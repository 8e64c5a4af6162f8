package deadline_test

import (
	"strings"
	"testing"

	"solidarity/cases"
	"solidarity/deadline"
)

// Art. 39(1) AMMR, 4th subparagraph (EUR-Lex, CELEX 32024R1351): "Where the applicant
// is an unaccompanied minor, the determining Member State shall, at any time before a
// first decision regarding the substance is taken, where it considers that it is in
// the best interests of the child, continue the procedure for determining the Member
// State responsible and request another Member State to take charge of the applicant,
// in particular if the request is based on Article 26, 27 or 34, notwithstanding the
// expiry of the time limits laid down in the first and second subparagraphs of this
// paragraph."
//
// The time limits of the first and second subparagraphs stand for an unaccompanied
// minor; what the fourth displaces is their consequence (the third subparagraph's shift
// of responsibility), and only where the Member State finds going on to be in the
// child's best interests. So the limit is computed and shown, and its consequence is
// left to an officer: Missed returns it without an event.
func TestUnaccompaniedMinorTakeChargeLimitsShown(t *testing.T) {
	tests := []struct {
		name  string
		evs   []ev
		p     deadline.Params
		limit string
		due   string
	}{
		{"two months from registration (1st subpara.)", regular, deadline.Params{}, "take-charge-request", "2026-10-26"},
		{"one month from a Eurodac hit (2nd subpara.)", seq(regular, []ev{{cases.EurodacHit, "2026-09-02"}}), deadline.Params{}, "take-charge-request-hit", "2026-10-02"},
		{"crisis (CR Art. 12(2)(a))", regular, crisis, "take-charge-request-crisis", "2026-12-26"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c := build(t, uam, tt.evs...)
			dues := deadline.Compute(c, tt.p)
			d, ok := find(dues, tt.limit)
			if !ok {
				t.Fatalf("%s not shown for an unaccompanied minor: %s", tt.limit, names(dues))
			}
			if got := d.Due.Format("2006-01-02"); got != tt.due {
				t.Errorf("due %s, want %s", got, tt.due)
			}
			if d.Then != "" {
				t.Errorf("consequence %s would be applied automatically", d.Then)
			}
			for _, s := range []string{d.Discretion, d.Consequence} {
				if !strings.Contains(s, "Art. 39(1), 4th subpara. AMMR") || !strings.Contains(s, "best interests of the child") || !strings.Contains(s, "officer") {
					t.Errorf("the explanation does not say why: %q", s)
				}
			}
			// The same limit for an adult carries the consequence.
			if a, ok := find(deadline.Compute(build(t, cases.Facts{}, tt.evs...), tt.p), tt.limit); !ok || a.Due != d.Due || a.Discretion != "" {
				t.Errorf("adult: %+v, minor: %+v", a, d)
			}
			// Past the limit: an officer decides; nothing is applied.
			ms := deadline.Missed(c, tt.p, d.Due.AddDate(0, 0, 2))
			found := false
			for _, m := range ms {
				if m.Due.Limit == tt.limit {
					found = true
					if m.Event != "" {
						t.Errorf("missed limit applies %s", m.Event)
					}
				}
			}
			if !found {
				t.Errorf("the missed limit is not reported for an officer: %+v", ms)
			}
		})
	}
	// Dublin III has no such rule: its limits and consequences stay as they are.
	c := build(t, uam, dRegular...)
	if d, ok := find(deadline.Compute(c, deadline.Params{}), "take-charge-request-dublin"); !ok || d.Then == "" || d.Discretion != "" {
		t.Errorf("Dublin III minor: %+v", d)
	}
}

// TestTakeChargeLimitsLeaveTheMinorToAnOfficer: every AMMR variant of the take charge
// request carries the discretion of Art. 39(1), 4th subpara.; no Dublin III one does
// (Art. 21 Dublin III has no such subparagraph).
func TestTakeChargeLimitsLeaveTheMinorToAnOfficer(t *testing.T) {
	n := 0
	for _, l := range deadline.Limits() {
		if l.Group != "take-charge-request" {
			continue
		}
		dublin := strings.Contains(l.Article, "Dublin III")
		if dublin == (l.Discretion != "") {
			t.Errorf("%s (%s): discretion %q", l.Name, l.Article, l.Discretion)
		}
		n++
	}
	if n < 6 {
		t.Errorf("%d take charge variants", n)
	}
}
