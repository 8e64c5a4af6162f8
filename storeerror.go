package solidarity

import "fmt"

// The outcomes every store reports alike, whichever database it runs on: written once,
// so that internal/sqlite and internal/postgres say the same words with the same code
// (the Store and CaseStore methods document which code each returns).

// UserNotFound is ENOTFOUND for the user named name.
func UserNotFound(name string) error { return Errorf(ENOTFOUND, "user %q not found", name) }

// UserIDNotFound is ENOTFOUND for the user with this ID (a credential's UserID).
func UserIDNotFound(id int64) error { return Errorf(ENOTFOUND, "user %d not found", id) }

// UserNameTaken is ECONFLICT for a new account whose name another has.
func UserNameTaken() error {
	return &Error{Code: ECONFLICT, Field: "name", Message: "user name is taken"}
}

// CredentialExists is ECONFLICT for a credential whose hash is stored already.
func CredentialExists() error { return Errorf(ECONFLICT, "credential already exists") }

// CredentialNotFound is ENOTFOUND for a credential that is not stored, has expired,
// is idle past its limit or belongs to a disabled user: which of these it is, the
// caller does not learn.
func CredentialNotFound() error { return Errorf(ENOTFOUND, "credential not found") }

// TokenNotFound is ENOTFOUND for the API token with this TokenID.
func TokenNotFound(id string) error { return Errorf(ENOTFOUND, "token %q not found", id) }

// ArrivalNotFound is ENOTFOUND for the arrival id.
func ArrivalNotFound(id ArrivalID) error { return Errorf(ENOTFOUND, "arrival %s not found", id) }

// ArrivalExists is ECONFLICT for a new arrival whose ID is stored already.
func ArrivalExists(id ArrivalID) error { return Errorf(ECONFLICT, "arrival %s already exists", id) }

// CaseNotFound is ENOTFOUND for the case id.
func CaseNotFound(id CaseID) error { return Errorf(ENOTFOUND, "case %s not found", id) }

// CaseExists is ECONFLICT for a new case whose ID is stored already.
func CaseExists(id CaseID) error { return Errorf(ECONFLICT, "case %s already exists", id) }

// CaseArrivalNotFound is ENOTFOUND for a new case of an arrival that is not stored.
func CaseArrivalNotFound(c *CaseRecord) error {
	return Errorf(ENOTFOUND, "arrival %s of case %s not found", c.Arrival, c.ID)
}

// CaseChanged is ECONFLICT for an update of a case that another change came before:
// the stored version is no longer the one c was read at (c.Version).
func CaseChanged(c *CaseRecord) error {
	return Errorf(ECONFLICT, "case %s changed since it was read (version %d)", c.ID, c.Version)
}

// IdempotencyKeyUsed is ECONFLICT for an append whose key the entries hold when it
// is inserted, although the lookup before found none: the unique index decides.
func IdempotencyKeyUsed() error { return Errorf(ECONFLICT, "idempotency key already used") }

// IdempotencyKeyReused is ECONFLICT for an append under a key that wrote a different
// entry, the one with sequence number seq.
func IdempotencyKeyReused(seq int64) error {
	return Errorf(ECONFLICT, "idempotency key already used for a different entry (seq %d)", seq)
}

// DatabaseError wraps a database failure of the store named store during op: the
// *Error in the chain is EINTERNAL and says only "database error" (what a user may
// see); the cause stays in the chain for the log.
func DatabaseError(store, op string, err error) error {
	return fmt.Errorf("%s: %s: %w: %w", store, op, &Error{Code: EINTERNAL, Message: "database error"}, err)
}
