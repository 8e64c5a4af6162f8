package solidarity

import (
	"errors"
	"fmt"
	"strings"
)

// Error codes. They are stable: the API returns them and scripts match on them.
const (
	EINVALID      = "invalid"      // bad input: a file, a flag, a request body
	ENOTFOUND     = "not_found"    // the named thing does not exist
	ECONFLICT     = "conflict"     // the request contradicts the current state
	EUNAUTHORIZED = "unauthorized" // the actor may not do this
	// EUNAUTHENTICATED says no valid credentials came with the request (HTTP 401),
	// where EUNAUTHORIZED says the known actor may not do it (HTTP 403).
	EUNAUTHENTICATED = "unauthenticated"
	EINTERNAL        = "internal" // a bug or an environment failure; details stay in logs
)

// Error is the single error type of solidarity. Where says where bad input was found
// (file, line, JSON path, field) so that a user can go straight to it.
type Error struct {
	Code    string
	Message string
	File    string // file name, or "" when not from a file
	Line    int    // 1-based line, or 0 when unknown
	Path    string // JSON path or TOML table path, when that is the better locator
	Field   string // field or column name
	Article string // the legal provision a rule comes from, when a rule was broken
}

func (e *Error) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			fmt.Fprintf(&b, ":%d", e.Line)
		}
		b.WriteString(": ")
	} else if e.Line > 0 {
		fmt.Fprintf(&b, "line %d: ", e.Line)
	}
	if e.Path != "" {
		b.WriteString(e.Path)
		b.WriteString(": ")
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Message)
	if e.Article != "" {
		fmt.Fprintf(&b, " (%s)", e.Article)
	}
	return b.String()
}

// Errorf returns an *Error with the given code and a formatted message.
func Errorf(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// ErrorCode returns the code of the first *Error in err's chain, EINTERNAL for any
// other non-nil error and "" for nil.
func ErrorCode(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Code
	}
	return EINTERNAL
}

// ErrorMessage returns the user-facing text of err. Internal errors are not described:
// their detail belongs in the server log, not in a response.
func ErrorMessage(err error) string {
	if err == nil {
		return ""
	}
	if e, ok := errors.AsType[*Error](err); ok {
		return e.Error()
	}
	return "internal error"
}

// At returns a copy of err located in file (unless it names a file already);
// non-*Error errors become EINVALID.
// Importers use it to add the file name once, at the boundary.
func At(err error, file string) error {
	if err == nil {
		return nil
	}
	e, ok := errors.AsType[*Error](err)
	if !ok {
		return &Error{Code: EINVALID, Message: err.Error(), File: file}
	}
	c := *e
	if c.File == "" {
		c.File = file
	}
	return &c
}
