package solidarity_test

import (
	"errors"
	"testing"

	"solidarity"
)

// The words of each outcome are the ones both stores said before they shared them,
// which the API and the scripts see.
func TestStoreErrors(t *testing.T) {
	c := &solidarity.CaseRecord{ID: "c-7", Arrival: "a-1", Version: 3}
	for _, x := range []struct {
		err         error
		code, field string
		msg         string
	}{
		{solidarity.UserNotFound("ana"), solidarity.ENOTFOUND, "", `user "ana" not found`},
		{solidarity.UserIDNotFound(42), solidarity.ENOTFOUND, "", "user 42 not found"},
		{solidarity.UserNameTaken(), solidarity.ECONFLICT, "name", "user name is taken"},
		{solidarity.CredentialExists(), solidarity.ECONFLICT, "", "credential already exists"},
		{solidarity.CredentialNotFound(), solidarity.ENOTFOUND, "", "credential not found"},
		{solidarity.TokenNotFound("0123456789abcdef"), solidarity.ENOTFOUND, "", `token "0123456789abcdef" not found`},
		{solidarity.ArrivalNotFound("a-1"), solidarity.ENOTFOUND, "", "arrival a-1 not found"},
		{solidarity.ArrivalExists("a-1"), solidarity.ECONFLICT, "", "arrival a-1 already exists"},
		{solidarity.CaseNotFound("c-7"), solidarity.ENOTFOUND, "", "case c-7 not found"},
		{solidarity.CaseExists("c-7"), solidarity.ECONFLICT, "", "case c-7 already exists"},
		{solidarity.CaseArrivalNotFound(c), solidarity.ENOTFOUND, "", "arrival a-1 of case c-7 not found"},
		{solidarity.CaseChanged(c), solidarity.ECONFLICT, "", "case c-7 changed since it was read (version 3)"},
		{solidarity.IdempotencyKeyUsed(), solidarity.ECONFLICT, "", "idempotency key already used"},
		{solidarity.IdempotencyKeyReused(12), solidarity.ECONFLICT, "", "idempotency key already used for a different entry (seq 12)"},
	} {
		e, ok := x.err.(*solidarity.Error)
		if !ok || e.Code != x.code || e.Field != x.field || e.Message != x.msg {
			t.Errorf("%#v, want %s field %q %q", x.err, x.code, x.field, x.msg)
		}
	}
}

func TestDatabaseError(t *testing.T) {
	cause := errors.New("disk I/O error")
	err := solidarity.DatabaseError("sqlite", "append", cause)
	if !errors.Is(err, cause) || solidarity.ErrorCode(err) != solidarity.EINTERNAL || solidarity.ErrorMessage(err) != "database error" {
		t.Errorf("%v: code %s, message %q, cause kept %v", err, solidarity.ErrorCode(err), solidarity.ErrorMessage(err), errors.Is(err, cause))
	}
	if e, _ := errors.AsType[*solidarity.Error](err); e == nil || e.Message != "database error" {
		t.Errorf("%v: the *Error in the chain is %v", err, e)
	}
	if got := err.Error(); got != "sqlite: append: database error: disk I/O error" {
		t.Errorf("for the log: %q", got)
	}
}
