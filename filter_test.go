package solidarity_test

import (
	"testing"
	"time"

	"solidarity"
)

// wantError checks err against a wanted field and message: none when msg is "".
func wantError(t *testing.T, name string, err error, field, msg string) {
	t.Helper()
	if msg == "" {
		if err != nil {
			t.Errorf("%s: %v, want no error", name, err)
		}
		return
	}
	e, ok := err.(*solidarity.Error)
	if !ok {
		t.Errorf("%s: %v, want an *Error", name, err)
		return
	}
	if e.Code != solidarity.EINVALID || e.Field != field || e.Message != msg {
		t.Errorf("%s: %s field %q %q, want invalid field %q %q", name, e.Code, e.Field, e.Message, field, msg)
	}
}

func TestCaseFilterNormalize(t *testing.T) {
	now := time.Date(2027, 3, 1, 0, 0, 0, 0, time.UTC)
	const badLimit = "limit must be between 1 and 10000"
	const badAfter = "after pages in ID order, not with due_before or consequence_before, which do not go together"
	for _, c := range []struct {
		name      string
		f         solidarity.CaseFilter
		wantLimit int
		field     string
		msg       string
	}{
		{"zero is the default", solidarity.CaseFilter{}, 1000, "", ""},
		{"one", solidarity.CaseFilter{Limit: 1}, 1, "", ""},
		{"the most", solidarity.CaseFilter{Limit: solidarity.MaxCaseLimit}, 10000, "", ""},
		{"one too many", solidarity.CaseFilter{Limit: 10001}, 0, "limit", badLimit},
		{"negative", solidarity.CaseFilter{Limit: -1}, 0, "limit", badLimit},
		{"after in ID order", solidarity.CaseFilter{After: "c1"}, 1000, "", ""},
		{"due before alone", solidarity.CaseFilter{DueBefore: &now}, 1000, "", ""},
		{"consequence before alone", solidarity.CaseFilter{ConsequenceBefore: &now}, 1000, "", ""},
		{"after with due before", solidarity.CaseFilter{After: "c1", DueBefore: &now}, 0, "after", badAfter},
		{"after with consequence before", solidarity.CaseFilter{After: "c1", ConsequenceBefore: &now}, 0, "after", badAfter},
		{"due and consequence before", solidarity.CaseFilter{DueBefore: &now, ConsequenceBefore: &now}, 0, "after", badAfter},
		{"a bad limit is said first", solidarity.CaseFilter{Limit: -1, After: "c1", DueBefore: &now}, 0, "limit", badLimit},
	} {
		got, err := c.f.Normalize()
		wantError(t, c.name, err, c.field, c.msg)
		if err == nil && got.Limit != c.wantLimit {
			t.Errorf("%s: limit %d, want %d", c.name, got.Limit, c.wantLimit)
		}
		if err == nil && (got.After != c.f.After || got.DueBefore != c.f.DueBefore || got.ConsequenceBefore != c.f.ConsequenceBefore) {
			t.Errorf("%s: Normalize changed more than the limit: %+v", c.name, got)
		}
	}
}

// The other lists share one bound: 0 is 100, 1 to 1000 stand, anything else is refused.
func TestPageFiltersNormalize(t *testing.T) {
	const bad = "limit must be between 1 and 1000"
	id, actor, cycle := solidarity.CaseID("c1"), "ana", 2027
	m := solidarity.MemberState("DE")
	normalize := map[string]func(limit int) (int, error){
		"arrivals": func(n int) (int, error) {
			f, err := solidarity.ArrivalFilter{Benefitting: &m, Limit: n}.Normalize()
			if err == nil && f.Benefitting != &m {
				t.Errorf("arrivals: the filter changed: %+v", f)
			}
			return f.Limit, err
		},
		"access": func(n int) (int, error) {
			f, err := solidarity.AccessFilter{Case: &id, Actor: &actor, Limit: n}.Normalize()
			if err == nil && (f.Case != &id || f.Actor != &actor) {
				t.Errorf("access: the filter changed: %+v", f)
			}
			return f.Limit, err
		},
		"entries": func(n int) (int, error) {
			f, err := solidarity.EntryFilter{AfterSeq: 7, Cycle: &cycle, Limit: n}.Normalize()
			if err == nil && (f.AfterSeq != 7 || f.Cycle != &cycle) {
				t.Errorf("entries: the filter changed: %+v", f)
			}
			return f.Limit, err
		},
	}
	for name, norm := range normalize {
		for _, c := range []struct {
			limit, want int
			msg         string
		}{
			{0, 100, ""}, {1, 1, ""}, {999, 999, ""}, {solidarity.MaxPageLimit, 1000, ""},
			{1001, 0, bad}, {-1, 0, bad}, {solidarity.MaxCaseLimit, 0, bad},
		} {
			got, err := norm(c.limit)
			wantError(t, name, err, "limit", c.msg)
			if err == nil && got != c.want {
				t.Errorf("%s: limit %d normalised to %d, want %d", name, c.limit, got, c.want)
			}
		}
	}
}

func TestClampPageLimit(t *testing.T) {
	for _, c := range []struct{ n, want int }{{-5, 100}, {0, 100}, {1, 1}, {250, 250}, {1000, 1000}, {1001, 1000}, {1 << 40, 1000}} {
		if got := solidarity.ClampPageLimit(c.n); got != c.want {
			t.Errorf("ClampPageLimit(%d) = %d, want %d", c.n, got, c.want)
		}
	}
}

func TestValidateAccess(t *testing.T) {
	at := time.Date(2027, 3, 1, 10, 0, 0, 0, time.UTC)
	ok := &solidarity.Access{At: at, Actor: "ana", Role: solidarity.Officer, State: "IT", Case: "c1", Purpose: "view"}
	with := func(change func(a *solidarity.Access)) *solidarity.Access {
		a := *ok
		change(&a)
		return &a
	}
	for _, c := range []struct {
		name  string
		as    []*solidarity.Access
		field string
		msg   string
	}{
		{"none", nil, "", ""},
		{"one", []*solidarity.Access{ok}, "", ""},
		{"only who, what and when are required", []*solidarity.Access{with(func(a *solidarity.Access) { a.Role, a.State, a.Purpose = "", "", "" })}, "", ""},
		{"nil", []*solidarity.Access{ok, nil}, "", "access record is nil"},
		{"no actor", []*solidarity.Access{with(func(a *solidarity.Access) { a.Actor = "" })}, "actor", "access actor is required"},
		{"no case", []*solidarity.Access{with(func(a *solidarity.Access) { a.Case = "" })}, "case", "access case is required"},
		{"no time", []*solidarity.Access{with(func(a *solidarity.Access) { a.At = time.Time{} })}, "at", "access time is required"},
		{"the first bad one", []*solidarity.Access{ok, with(func(a *solidarity.Access) { a.Case = "" }), nil}, "case", "access case is required"},
		{"the actor before the case", []*solidarity.Access{{}}, "actor", "access actor is required"},
	} {
		wantError(t, c.name, solidarity.ValidateAccess(c.as...), c.field, c.msg)
	}
}

func TestUserValidate(t *testing.T) {
	for _, c := range []struct {
		name  string
		u     *solidarity.User
		field string
		msg   string
	}{
		{"nil", nil, "name", "user name is required"},
		{"no name", &solidarity.User{Role: solidarity.Auditor}, "name", "user name is required"},
		{"no role", &solidarity.User{Name: "ana"}, "role", "user role is required"},
		{"name and role", &solidarity.User{Name: "ana", Role: solidarity.Auditor}, "", ""},
		{"an officer", &solidarity.User{Name: "ana", Role: solidarity.Officer, State: "IT"}, "", ""},
	} {
		wantError(t, c.name, c.u.Validate(), c.field, c.msg)
	}
}

func TestCredentialValidate(t *testing.T) {
	const missing = "credential kind and hash are required"
	for _, c := range []struct {
		name          string
		c             solidarity.Credential
		msg, tokenMsg string
	}{
		{"token", solidarity.Credential{Kind: "token", Hash: "ab"}, "", ""},
		{"session", solidarity.Credential{Kind: "session", Hash: "ab"}, "", `CreateToken stores tokens, not "session"`},
		{"no hash", solidarity.Credential{Kind: "token"}, missing, missing},
		{"no kind", solidarity.Credential{Hash: "ab"}, missing, `CreateToken stores tokens, not ""`},
		{"nothing", solidarity.Credential{}, missing, `CreateToken stores tokens, not ""`},
	} {
		wantError(t, c.name, c.c.Validate(), "", c.msg)
		wantError(t, c.name+" as a token", c.c.ValidateToken(), "", c.tokenMsg)
	}
}
