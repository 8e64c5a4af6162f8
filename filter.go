package solidarity

import (
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"
)

// What a store may be asked, checked once here for every store alike. Each filter
// normalises itself (a Limit of 0 becomes the list's default) and says what is wrong
// with it as an EINVALID *Error naming the field; the records a store writes without
// any legal rule (an access record, a new account, a credential) validate themselves
// the same way. internal/sqlite and internal/postgres call these first and then only
// translate to SQL, so that no rule is written twice.

// How many rows one read of a list returns: the default when a filter's Limit is 0,
// and the most a filter may ask for.
const (
	// DefaultCaseLimit and MaxCaseLimit bound CaseFilter.Limit. MaxCaseLimit is also
	// what a caller asks that needs every case of an arrival or a family in one read.
	DefaultCaseLimit = 1000
	MaxCaseLimit     = 10000
	// DefaultPageLimit and MaxPageLimit bound the other lists: arrivals, the access
	// log, ledger entries and the admin log.
	DefaultPageLimit = 100
	MaxPageLimit     = 1000
)

// checkLimit returns a filter's Limit n, def when n is 0; outside 1 to max it is
// EINVALID.
func checkLimit(n, def, max int) (int, error) {
	switch {
	case n == 0:
		return def, nil
	case n < 0 || n > max:
		return 0, &Error{Code: EINVALID, Field: "limit", Message: fmt.Sprintf("limit must be between 1 and %d", max)}
	}
	return n, nil
}

// ClampPageLimit returns n within 1 to MaxPageLimit, DefaultPageLimit when n is 0 or
// less: the admin log reads at most a page and never refuses a limit.
func ClampPageLimit(n int) int {
	if n <= 0 {
		return DefaultPageLimit
	}
	return min(n, MaxPageLimit)
}

// Normalize returns f with its Limit set (DefaultCaseLimit when 0), or EINVALID: a
// Limit outside 1 to MaxCaseLimit, or After with DueBefore or ConsequenceBefore
// (After pages in ID order, they order by date), or DueBefore with ConsequenceBefore
// (two orders at once).
func (f CaseFilter) Normalize() (CaseFilter, error) {
	n, err := checkLimit(f.Limit, DefaultCaseLimit, MaxCaseLimit)
	if err != nil {
		return f, err
	}
	byDate := f.DueBefore != nil || f.ConsequenceBefore != nil
	if byDate && f.After != "" || f.DueBefore != nil && f.ConsequenceBefore != nil {
		return f, &Error{Code: EINVALID, Field: "after",
			Message: "after pages in ID order, not with due_before or consequence_before, which do not go together"}
	}
	f.Limit = n
	return f, nil
}

// Normalize returns f with its Limit set (DefaultPageLimit when 0), or EINVALID
// naming the field: a Limit outside 1 to MaxPageLimit, an After without its time or
// with an ID longer than MaxSearchLength.
func (f ArrivalFilter) Normalize() (ArrivalFilter, error) {
	n, err := checkLimit(f.Limit, DefaultPageLimit, MaxPageLimit)
	if err != nil {
		return f, err
	}
	if f.After != nil {
		if f.After.At.IsZero() || f.After.ID == "" {
			return f, &Error{Code: EINVALID, Field: "after", Message: "after needs an arrival's time and ID"}
		}
		if err := checkText("after", string(f.After.ID)); err != nil {
			return f, err
		}
	}
	f.Limit = n
	return f, nil
}

// MaxSearchLength bounds a text a list is searched for (a reference, a case ID, an
// actor): longer than any the service makes.
const MaxSearchLength = 64

// checkText is EINVALID naming field when s is longer than MaxSearchLength bytes or
// not valid UTF-8.
func checkText(field, s string) error {
	if len(s) > MaxSearchLength || !utf8.ValidString(s) {
		return &Error{Code: EINVALID, Field: field, Message: fmt.Sprintf("%s must be UTF-8 text of at most %d bytes", field, MaxSearchLength)}
	}
	return nil
}

// checkRange is EINVALID naming "from" when a time range ends before it begins.
func checkRange(from, to time.Time) error {
	if !from.IsZero() && !to.IsZero() && !from.Before(to) {
		return &Error{Code: EINVALID, Field: "from", Message: "from must be before to"}
	}
	return nil
}

// checkSeq is EINVALID naming field for a negative sequence number.
func checkSeq(field string, n int64) error {
	if n < 0 {
		return &Error{Code: EINVALID, Field: field, Message: field + " must be a sequence number ≥ 0"}
	}
	return nil
}

// Normalize returns f with its Limit set (DefaultPageLimit when 0), or EINVALID
// naming the field: a Limit outside 1 to MaxPageLimit, a negative key, a Case
// or Actor longer than MaxSearchLength, an unknown Role, From not before To.
func (f AccessFilter) Normalize() (AccessFilter, error) {
	n, err := checkLimit(f.Limit, DefaultPageLimit, MaxPageLimit)
	if err != nil {
		return f, err
	}
	if err := checkSeq("before", f.BeforeSeq); err != nil {
		return f, err
	}
	if err := checkSeq("after", f.AfterSeq); err != nil {
		return f, err
	}
	if f.Case != nil {
		if err := checkText("case", string(*f.Case)); err != nil {
			return f, err
		}
	}
	if f.Actor != nil {
		if err := checkText("actor", *f.Actor); err != nil {
			return f, err
		}
	}
	if f.Role != nil && !slices.Contains(Roles(), *f.Role) {
		return f, &Error{Code: EINVALID, Field: "role", Message: fmt.Sprintf("%q is not a role", *f.Role)}
	}
	if err := checkRange(f.From, f.To); err != nil {
		return f, err
	}
	f.Limit = n
	return f, nil
}

// Normalize returns f with its Limit set (DefaultPageLimit when 0), or EINVALID
// naming the field: a Limit outside 1 to MaxPageLimit, a negative AfterSeq or
// BeforeSeq, a Ref longer than MaxSearchLength, From not before To.
func (f EntryFilter) Normalize() (EntryFilter, error) {
	n, err := checkLimit(f.Limit, DefaultPageLimit, MaxPageLimit)
	if err != nil {
		return f, err
	}
	for _, c := range []struct {
		field string
		seq   int64
	}{{"after", f.AfterSeq}, {"before", f.BeforeSeq}} {
		if err := checkSeq(c.field, c.seq); err != nil {
			return f, err
		}
	}
	if err := checkText("ref", f.Ref); err != nil {
		return f, err
	}
	if err := checkRange(f.From, f.To); err != nil {
		return f, err
	}
	f.Limit = n
	return f, nil
}

// LikePrefix returns s as the pattern of a LIKE … ESCAPE '\' that matches the texts
// starting with s, its ASCII letters lower-cased (FoldASCII): its %, _ and \ taken
// literally. Both stores use it, so that a search means the same in each.
func LikePrefix(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return r.Replace(FoldASCII(s)) + "%"
}

// FoldASCII lower-cases the ASCII letters of s and leaves every other rune as it is:
// what SQLite's lower() does, and PostgreSQL's under COLLATE "C", so that a filter
// "ignoring case" matches the same rows in both stores (a full Unicode fold in one and
// not the other would find "Éva" in one store only).
func FoldASCII(s string) string {
	return strings.Map(func(r rune) rune {
		if 'A' <= r && r <= 'Z' {
			return r + 'a' - 'A'
		}
		return r
	}, s)
}

// Validate checks that an access record says who read which case and when: the log
// must answer those three questions for every read (a nil record is EINVALID too).
// Role, State and Purpose are the service's to fill; they are not checked here.
func (a *Access) Validate() error {
	switch {
	case a == nil:
		return Errorf(EINVALID, "access record is nil")
	case a.Actor == "":
		return &Error{Code: EINVALID, Field: "actor", Message: "access actor is required"}
	case a.Case == "":
		return &Error{Code: EINVALID, Field: "case", Message: "access case is required"}
	case a.At.IsZero():
		return &Error{Code: EINVALID, Field: "at", Message: "access time is required"}
	}
	return nil
}

// ValidateAccess checks each record (Access.Validate) and returns the first error:
// a store records all of them or none.
func ValidateAccess(as ...*Access) error {
	for _, a := range as {
		if err := a.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Validate checks what every store needs of a new account: a name and a role (a nil
// user has no name). Which roles and states make sense is the account service's
// decision.
func (u *User) Validate() error {
	switch {
	case u == nil || u.Name == "":
		return &Error{Code: EINVALID, Field: "name", Message: "user name is required"}
	case u.Role == "":
		return &Error{Code: EINVALID, Field: "role", Message: "user role is required"}
	}
	return nil
}

// Validate checks that a credential names its kind and carries its hash.
func (c Credential) Validate() error {
	if c.Kind == "" || c.Hash == "" {
		return Errorf(EINVALID, "credential kind and hash are required")
	}
	return nil
}

// ValidateToken checks a credential given to Store.CreateToken: an API token
// (Kind "token"), and valid (Validate).
func (c Credential) ValidateToken() error {
	if c.Kind != "token" {
		return Errorf(EINVALID, "CreateToken stores tokens, not %q", c.Kind)
	}
	return c.Validate()
}
