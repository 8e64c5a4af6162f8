package casesvc

import (
	"context"
	"fmt"
	"slices"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/deadline"
	"solidarity/procedure"
	"solidarity/rules"
)

// CaseView is a case without its person: what every role that may see the case sees.
type CaseView struct {
	Record *solidarity.CaseRecord `json:"case"`
	Flow   *Flow                  `json:"flow"`
	Dues   []deadline.Due         `json:"deadlines"`
	// Allowed are the events the case's state allows (cases.Allowed).
	Allowed []cases.Event `json:"allowed"`
	// Demonstration: the case belongs to a demonstration's arrival.
	Demonstration bool `json:"demonstration,omitempty"`
}

// Cases lists cases, pseudonymously. Officers see the cases of their state (benefitting
// or allocated); asking for another state's is EUNAUTHORIZED.
func (s *Service) Cases(ctx context.Context, f solidarity.CaseFilter) ([]*solidarity.CaseRecord, error) {
	if err := s.scopeFilter(ctx, &f); err != nil {
		return nil, err
	}
	rs, err := s.Store.Cases(ctx, f)
	if err != nil {
		return nil, err
	}
	for _, r := range rs {
		if err := s.refresh(r); err != nil {
			return nil, err
		}
	}
	return rs, nil
}

// CaseCounts counts cases by state under the same scope as Cases.
func (s *Service) CaseCounts(ctx context.Context, f solidarity.CaseFilter) (map[cases.State]int, error) {
	if err := s.scopeFilter(ctx, &f); err != nil {
		return nil, err
	}
	return s.Store.CaseCounts(ctx, f)
}

func (s *Service) scopeFilter(ctx context.Context, f *solidarity.CaseFilter) error {
	own, err := scope(ctx, solidarity.ReadCases)
	if err != nil {
		return err
	}
	if own != nil {
		if f.Involving != nil && *f.Involving != *own {
			return denied(solidarity.ReadCases, *f.Involving)
		}
		f.Involving = own
	}
	return nil
}

// CountArrivals counts the arrivals Arrivals would list, its After and Limit aside,
// under the same rule.
func (s *Service) CountArrivals(ctx context.Context, f solidarity.ArrivalFilter) (int64, error) {
	f, err := s.scopeArrivals(ctx, f)
	if err != nil {
		return 0, err
	}
	return s.Store.CountArrivals(ctx, f)
}

// scopeArrivals narrows f to the arrivals the user of ctx may see, or refuses.
func (s *Service) scopeArrivals(ctx context.Context, f solidarity.ArrivalFilter) (solidarity.ArrivalFilter, error) {
	own, err := scope(ctx, solidarity.ReadCases)
	if err != nil {
		return f, err
	}
	if own != nil {
		for _, m := range []*solidarity.MemberState{f.Benefitting, f.Involving} {
			if m != nil && *m != *own {
				return f, denied(solidarity.ReadCases, *m)
			}
		}
		f.Involving = own
	}
	return f, nil
}

// Arrivals lists disembarkations (no personal data). Officers see their state's and
// those with people allocated to their state (whose cases they see, as Arrival and
// Cases let them); asking for another state's is EUNAUTHORIZED.
func (s *Service) Arrivals(ctx context.Context, f solidarity.ArrivalFilter) ([]*solidarity.Arrival, error) {
	f, err := s.scopeArrivals(ctx, f)
	if err != nil {
		return nil, err
	}
	return s.Store.Arrivals(ctx, f)
}

// Arrival returns one arrival, under the same rule as Arrivals.
func (s *Service) Arrival(ctx context.Context, id solidarity.ArrivalID) (*solidarity.Arrival, error) {
	a, err := s.Store.Arrival(ctx, id)
	if err != nil {
		return nil, err
	}
	if u := user(ctx); !solidarity.Can(u, solidarity.ReadCases, a.Benefitting) {
		// An officer of a state of relocation sees an arrival its people came from;
		// to anyone else another state's arrival does not exist, as its cases do not.
		notFound := &solidarity.Error{Code: solidarity.ENOTFOUND, Message: fmt.Sprintf("no arrival %s", id)}
		if u == nil || u.State == "" || !solidarity.Can(u, solidarity.ReadCases, u.State) {
			return nil, notFound
		}
		m := u.State
		cs, err := s.Store.Cases(ctx, solidarity.CaseFilter{Arrival: &id, Involving: &m, Limit: 1})
		if err != nil {
			return nil, err
		}
		if len(cs) == 0 {
			return nil, notFound
		}
	}
	return a, nil
}

// Case returns a case's flow and deadlines, without the person. A case the user may
// not see is ENOTFOUND, so that case IDs cannot be probed.
func (s *Service) Case(ctx context.Context, id solidarity.CaseID) (*CaseView, error) {
	r, err := s.Store.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	if !mayOnCase(ctx, solidarity.ReadCases, r) {
		return nil, solidarity.CaseNotFound(id)
	}
	f, err := decodeFlow(r)
	if err != nil {
		return nil, err
	}
	a, err := s.Store.Arrival(ctx, r.Arrival)
	if err != nil {
		return nil, err
	}
	v := &CaseView{Record: r, Flow: f, Dues: deadline.Compute(f.Case, s.Limits), Allowed: cases.Allowed(f.State), Demonstration: a.Demonstration}
	r.NextDue = time.Time{}
	if d, ok := nextDue(v.Dues); ok {
		r.NextDue = d.Due // as refresh: the case's next limit is its first due
	}
	return v, nil
}

// Person returns the personal record of a case to a user who may read it, after
// recording the read (purpose says why: "view", "determination", "export"). The read
// is refused, and nothing returned, if it cannot be recorded.
func (s *Service) Person(ctx context.Context, id solidarity.CaseID, purpose string) (*arrival.Person, error) {
	r, err := s.Store.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.person(ctx, r, purpose)
}

func (s *Service) person(ctx context.Context, r *solidarity.CaseRecord, purpose string) (*arrival.Person, error) {
	if !mayOnCase(ctx, solidarity.ReadPersonal, r) {
		if mayOnCase(ctx, solidarity.ReadCases, r) {
			return nil, denied(solidarity.ReadPersonal, r.Benefitting)
		}
		return nil, solidarity.CaseNotFound(r.ID)
	}
	if purpose == "" {
		purpose = "view"
	}
	u := user(ctx)
	if err := s.Store.RecordAccess(ctx, &solidarity.Access{At: s.now(), Actor: u.Name, Role: u.Role, State: u.State,
		Case: r.ID, Purpose: purpose}); err != nil {
		return nil, err
	}
	return s.open(r)
}

// Determination is the responsibility determination for a case, explained.
type Determination struct {
	Result      rules.Result       `json:"result"`
	Explanation string             `json:"explanation"`
	Procedure   procedure.Decision `json:"procedure"`
}

// Determine runs the AMMR Part III criteria (rules.Determine) and the procedure-track
// rules (procedure.Decide) on a case's person: a read of the personal record, logged
// with purpose "determination". It records nothing: the officer records the outcome
// as an event (responsible-self, take-charge-request-sent to the state found, ...).
func (s *Service) Determine(ctx context.Context, id solidarity.CaseID) (*Determination, error) {
	r, err := s.Store.Case(ctx, id)
	if err != nil {
		return nil, err
	}
	p, err := s.person(ctx, r, "determination")
	if err != nil {
		return nil, err
	}
	a, err := s.Store.Arrival(ctx, r.Arrival)
	if err != nil {
		return nil, err
	}
	f, err := decodeFlow(r)
	if err != nil {
		return nil, err
	}
	registered := f.Registered
	if registered.IsZero() {
		registered = a.At // not registered yet: as if registered on arrival
	}
	res := rules.Determine(p.Applicant(*a, registered), s.Rules)
	route := procedure.Apprehension
	if a.SAR {
		route = procedure.SAR
	}
	tr := procedure.Decide(procedure.Facts{ScreeningDone: true, Route: route, UnaccompaniedMinor: p.UnaccompaniedMinor,
		Nationality: p.Nationality, SecurityDanger: p.SecurityFlag, MedicalReasons: p.Medical}, s.Rates, s.Procedure)
	return &Determination{Result: res, Explanation: res.Explain(), Procedure: tr}, nil
}

// DueRow is one running time limit in the deadline view.
type DueRow struct {
	Case        solidarity.CaseID      `json:"case"`
	Family      solidarity.FamilyID    `json:"family"`
	Arrival     solidarity.ArrivalID   `json:"arrival"`
	State       cases.State            `json:"state"`
	Benefitting solidarity.MemberState `json:"benefitting_state"`
	Allocated   solidarity.MemberState `json:"allocated_state,omitempty"`
	Due         deadline.Due           `json:"due"`
	Overdue     bool                   `json:"overdue"`
}

// Deadlines is the deadline view: the time limits overdue or ending within the given
// horizon (Params.DueSoon when 0), earliest first, at most limit rows (default 500),
// of the cases the user may see. It reads the cases through the NextDue index and
// computes their limits (deadline.Compute).
func (s *Service) Deadlines(ctx context.Context, within time.Duration, state *solidarity.MemberState, limit int) ([]DueRow, error) {
	rows, _, err := s.DeadlineView(ctx, within, state, limit)
	return rows, err
}

// DeadlineView is Deadlines, and whether the view is complete: false when it reached
// its most (limit cases read, or more than limit rows), so that a reader paging
// through it knows that rows may be missing.
func (s *Service) DeadlineView(ctx context.Context, within time.Duration, state *solidarity.MemberState, limit int) ([]DueRow, bool, error) {
	if within <= 0 {
		within = s.Params.DueSoon
	}
	if limit <= 0 || limit > solidarity.MaxCaseLimit {
		limit = 500
	}
	now := s.Now()
	// The cases whose NextDue is before the end of the horizon's day: NextDue is the
	// Due of the case's first-ending limit, never after the end of any limit that is
	// overdue or within the horizon (a limit in days is within while its last day is
	// not after the horizon's day, Due.Within), so this reads every case with a row.
	bound := deadline.Civil(now.Add(within)).Add(24*time.Hour + time.Microsecond)
	f := solidarity.CaseFilter{Open: true, DueBefore: &bound, Limit: limit, Involving: state}
	if err := s.scopeFilter(ctx, &f); err != nil {
		return nil, false, err
	}
	recs, err := s.Store.Cases(ctx, f)
	if err != nil {
		return nil, false, err
	}
	rows := make([]DueRow, 0, len(recs))
	var buf []deadline.Due
	for _, r := range recs {
		fl, err := decodeFlow(r)
		if err != nil {
			return nil, false, err
		}
		buf = deadline.AppendCompute(buf[:0], fl.Case, s.Limits)
		for _, d := range buf {
			over := d.Overdue(now)
			if !over && !d.Within(now, within) {
				continue
			}
			rows = append(rows, DueRow{Case: r.ID, Family: r.Family, Arrival: r.Arrival, State: fl.State,
				Benefitting: r.Benefitting, Allocated: r.Allocated, Due: d, Overdue: over})
		}
	}
	slices.SortStableFunc(rows, func(a, b DueRow) int { return dueEnd(a.Due).Compare(dueEnd(b.Due)) })
	complete := len(recs) < f.Limit && len(rows) <= limit
	if len(rows) > limit {
		rows = rows[:limit]
	}
	return rows, complete, nil
}

// AccessLog lists who read which personal record. Coordinator and auditors.
func (s *Service) AccessLog(ctx context.Context, f solidarity.AccessFilter) ([]*solidarity.Access, error) {
	if !solidarity.Can(user(ctx), solidarity.ReadAccessLog, "") {
		return nil, denied(solidarity.ReadAccessLog, "")
	}
	return s.Store.AccessLog(ctx, f)
}

// CountAccess counts the records AccessLog would list, its limit aside. Coordinator
// and auditors.
func (s *Service) CountAccess(ctx context.Context, f solidarity.AccessFilter) (int64, error) {
	if !solidarity.Can(user(ctx), solidarity.ReadAccessLog, "") {
		return 0, denied(solidarity.ReadAccessLog, "")
	}
	return s.Store.CountAccess(ctx, f)
}
