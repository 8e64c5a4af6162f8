package ledgersvc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/argon2"

	"solidarity"
)

// Credential kinds.
const (
	KindToken   = "token"
	KindSession = "session"
)

// Credential lifetimes (issue 12: tokens never expired, sessions only after 12 hours
// of anything).
const (
	// SessionLifetime is how long a browser session lasts at most, used or not.
	SessionLifetime = 12 * time.Hour
	// SessionIdle ends a session nobody used for this long.
	SessionIdle = 30 * time.Minute
	// sessionTouch: a session's idle limit is moved forward when a request finds less
	// than SessionIdle-sessionTouch of it left, so that an active session costs one
	// write every few minutes, not one per request.
	sessionTouch = 5 * time.Minute
	// DefaultTokenLifetime is the lifetime of an API token created without one
	// (token create --ttl), and MaxTokenLifetime the longest allowed.
	DefaultTokenLifetime = 90 * 24 * time.Hour
	MaxTokenLifetime     = 366 * 24 * time.Hour
	// MinPasswordLength is the shortest password accepted.
	MinPasswordLength = 12
)

// argon2id parameters (RFC 9106, second recommended option, memory lowered to 64 MiB).
const (
	argonTime    = 3
	argonMemory  = 64 * 1024
	argonThreads = 2
	argonKeyLen  = 32
)

// HashPassword returns an encoded argon2id hash of password.
func HashPassword(password string) string {
	salt := make([]byte, 16)
	rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=19$m=%d,t=%d,p=%d$%s$%s", argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// checkPassword compares in constant time.
func checkPassword(encoded, password string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var m, t uint32
	var p uint8
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	want, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is a valid hash of no one's password, computed once.
var dummyHash = sync.OnceValue(func() string { return HashPassword(rand.Text()) })

// Users lists the accounts (coordinator only).
func (s *Service) Users(ctx context.Context) ([]*solidarity.User, error) {
	if err := authorize(ctx, solidarity.ManageUsers, ""); err != nil {
		return nil, err
	}
	return s.Store.Users(ctx)
}

func secretHash(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// AddUser creates an account. Only the coordinator may add users; the local CLI
// bootstraps a database as the System user.
func (s *Service) AddUser(ctx context.Context, u *solidarity.User, password string) error {
	if err := authorize(ctx, solidarity.ManageUsers, ""); err != nil {
		return err
	}
	if u.Name == "" || strings.ContainsAny(u.Name, " \t\n/") || len(u.Name) > 64 {
		return invalid("name", "", "a user name is 1 to 64 characters without spaces or slashes")
	}
	switch u.Role {
	case solidarity.Coordinator, solidarity.Auditor:
		if u.State != "" {
			return invalid("state", "", "only officers act for a state")
		}
	case solidarity.Officer:
		if !u.State.Valid() {
			return invalid("state", "", "an officer acts for one Member State; %q is not one", u.State)
		}
	default:
		return invalid("role", "", "role %q is not coordinator, officer or auditor", u.Role)
	}
	hash := ""
	if password != "" {
		if err := checkNewPassword("password", password); err != nil {
			return err
		}
		hash = HashPassword(password)
	}
	detail := string(u.Role)
	if u.State != "" {
		detail += " " + string(u.State)
	}
	return s.Store.AddUser(ctx, u, hash, s.event(ctx, solidarity.AdminUserAdd, u.Name, detail))
}

// checkNewPassword is the rule a new password must meet.
func checkNewPassword(field, password string) error {
	if len(password) < MinPasswordLength {
		return invalid(field, "", "passwords have at least %d characters", MinPasswordLength)
	}
	if len(password) > 1024 {
		return invalid(field, "", "passwords have at most 1024 bytes")
	}
	return nil
}

// event is an admin log entry of the acting user.
func (s *Service) event(ctx context.Context, action, user, detail string) solidarity.AdminEvent {
	return solidarity.AdminEvent{At: s.now(), Actor: actor(ctx), Action: action, User: user, Detail: detail}
}

// Login checks a password and opens a session, returning its secret. The error for an
// unknown user and a wrong password is the same.
func (s *Service) Login(ctx context.Context, name, password string) (*solidarity.User, string, error) {
	u, hash, err := s.Store.UserByName(ctx, name)
	if err != nil && solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		return nil, "", err
	}
	if err != nil || hash == "" || u.Disabled {
		// Hash anyway, so that the time taken does not tell which names exist.
		checkPassword(dummyHash(), password)
		return nil, "", &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "wrong user name or password"}
	}
	if !checkPassword(hash, password) {
		return nil, "", &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "wrong user name or password"}
	}
	secret, err := s.openSession(ctx, u)
	if err != nil {
		return nil, "", err
	}
	return u, secret, nil
}

func (s *Service) openSession(ctx context.Context, u *solidarity.User) (string, error) {
	secret := rand.Text()
	now := s.now()
	err := s.Store.CreateCredential(ctx, solidarity.Credential{Kind: KindSession, Hash: secretHash(secret), UserID: u.ID,
		Label: "browser session", Expires: now.Add(SessionLifetime), IdleUntil: now.Add(SessionIdle)})
	if err != nil {
		return "", err
	}
	return secret, nil
}

// Logout ends a session.
func (s *Service) Logout(ctx context.Context, secret string) error {
	return s.Store.DeleteCredential(ctx, KindSession, secretHash(secret))
}

// CreateToken issues an API token for user name with the default lifetime.
func (s *Service) CreateToken(ctx context.Context, name, label string) (string, error) {
	secret, _, err := s.CreateTokenTTL(ctx, name, label, 0)
	return secret, err
}

// CreateTokenTTL issues an API token for user name, valid for ttl (0: the
// DefaultTokenLifetime; at most MaxTokenLifetime); only its hash is stored. The
// coordinator (or the local CLI as System) issues tokens.
func (s *Service) CreateTokenTTL(ctx context.Context, name, label string, ttl time.Duration) (string, *solidarity.Token, error) {
	if err := authorize(ctx, solidarity.ManageUsers, ""); err != nil {
		return "", nil, err
	}
	switch {
	case ttl == 0:
		ttl = DefaultTokenLifetime
	case ttl < time.Minute || ttl > MaxTokenLifetime:
		return "", nil, invalid("ttl", "", "a token lives from a minute to %d days", MaxTokenLifetime/(24*time.Hour))
	}
	if len(label) > 200 {
		return "", nil, invalid("label", "", "a label has at most 200 characters")
	}
	u, _, err := s.Store.UserByName(ctx, name)
	if err != nil {
		return "", nil, err
	}
	secret := rand.Text()
	hash := secretHash(secret)
	c := solidarity.Credential{Kind: KindToken, Hash: hash, UserID: u.ID, Label: label, Expires: s.now().Add(ttl)}
	t, err := s.Store.CreateToken(ctx, c, s.event(ctx, solidarity.AdminTokenCreate, u.Name, tokenDetail(solidarity.TokenID(hash), label)))
	if err != nil {
		return "", nil, err
	}
	return secret, t, nil
}

func tokenDetail(id, label string) string {
	if label == "" {
		return "token " + id
	}
	return fmt.Sprintf("token %s %q", id, label)
}

// Tokens lists API tokens (never their secrets): the coordinator's view of any user's
// (name "" for all), everyone else's of their own.
func (s *Service) Tokens(ctx context.Context, name string) ([]*solidarity.Token, error) {
	u := solidarity.UserFromContext(ctx)
	if !solidarity.Can(u, solidarity.ManageUsers, "") {
		if u == nil {
			return nil, denied(solidarity.ManageUsers, "")
		}
		if name != "" && name != u.Name {
			return nil, denied(solidarity.ManageUsers, "")
		}
		name = u.Name
	}
	return s.Store.Tokens(ctx, name)
}

// RevokeToken deletes the API token with this ID at once: the coordinator any, a user
// their own. An unknown ID (or another's, for a user) is ENOTFOUND.
func (s *Service) RevokeToken(ctx context.Context, id string) (*solidarity.Token, error) {
	u := solidarity.UserFromContext(ctx)
	if u == nil {
		return nil, denied(solidarity.ManageUsers, "")
	}
	if !solidarity.Can(u, solidarity.ManageUsers, "") {
		own, err := s.Store.Tokens(ctx, u.Name)
		if err != nil {
			return nil, err
		}
		if !slices.ContainsFunc(own, func(t *solidarity.Token) bool { return t.ID == id }) {
			return nil, solidarity.Errorf(solidarity.ENOTFOUND, "token %q not found", id)
		}
	}
	return s.Store.RevokeToken(ctx, id, s.event(ctx, solidarity.AdminTokenRevoke, "", "token "+id))
}

// SetDisabled disables or enables the account name (coordinator only). A disabled
// user's sessions end and its tokens stop working at once (they work again if the
// account is enabled, unless revoked or expired). No one disables themselves.
func (s *Service) SetDisabled(ctx context.Context, name string, disabled bool) (*solidarity.User, error) {
	if err := authorize(ctx, solidarity.ManageUsers, ""); err != nil {
		return nil, err
	}
	if u := solidarity.UserFromContext(ctx); disabled && u != nil && u.Name == name {
		return nil, invalid("name", "", "you cannot disable your own account")
	}
	action := solidarity.AdminUserEnable
	if disabled {
		action = solidarity.AdminUserDisable
	}
	return s.Store.UpdateUser(ctx, name, solidarity.UserUpdate{Disabled: &disabled, EndSessions: disabled},
		s.event(ctx, action, name, ""))
}

// ChangePassword changes the acting user's password, given the current one. The
// user's other sessions end; the session keepSecret (the browser that asked, or "")
// goes on.
func (s *Service) ChangePassword(ctx context.Context, current, next, keepSecret string) error {
	u := solidarity.UserFromContext(ctx)
	if u == nil || u == solidarity.System || u.ID == 0 {
		return &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "log in to change your password"}
	}
	_, hash, err := s.Store.UserByName(ctx, u.Name)
	if err != nil {
		return err
	}
	if hash == "" || !checkPassword(hash, current) {
		return &solidarity.Error{Code: solidarity.EUNAUTHORIZED, Field: "current", Message: "the current password is wrong"}
	}
	if err := checkNewPassword("new", next); err != nil {
		return err
	}
	if next == current {
		return invalid("new", "", "the new password is the current one")
	}
	h := HashPassword(next)
	keep := ""
	if keepSecret != "" {
		keep = secretHash(keepSecret)
	}
	_, err = s.Store.UpdateUser(ctx, u.Name, solidarity.UserUpdate{PasswordHash: &h, EndSessions: true, KeepSession: keep},
		s.event(ctx, solidarity.AdminPasswordChange, u.Name, ""))
	return err
}

// ResetPassword sets the password of name (coordinator, or the operator's CLI as
// System): password, or a generated one when "", which it returns to be handed over.
// All of the user's sessions end.
func (s *Service) ResetPassword(ctx context.Context, name, password string) (string, error) {
	if err := authorize(ctx, solidarity.ManageUsers, ""); err != nil {
		return "", err
	}
	if password == "" {
		password = rand.Text()
	} else if err := checkNewPassword("password", password); err != nil {
		return "", err
	}
	h := HashPassword(password)
	if _, err := s.Store.UpdateUser(ctx, name, solidarity.UserUpdate{PasswordHash: &h, EndSessions: true},
		s.event(ctx, solidarity.AdminPasswordReset, name, "")); err != nil {
		return "", err
	}
	return password, nil
}

// AdminLog lists who changed which account, latest first (coordinators and auditors).
func (s *Service) AdminLog(ctx context.Context, before int64, limit int) ([]*solidarity.AdminEvent, error) {
	if err := authorize(ctx, solidarity.ReadAdminLog, ""); err != nil {
		return nil, err
	}
	return s.Store.AdminLog(ctx, before, limit)
}

// Authenticate returns the user of a token or session secret: not expired, not idle
// past its limit (sessions), its user not disabled. An active session's idle limit
// moves forward.
func (s *Service) Authenticate(ctx context.Context, kind, secret string) (*solidarity.User, error) {
	if secret == "" {
		return nil, &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "no credentials"}
	}
	now := s.now()
	u, c, err := s.Store.CredentialUser(ctx, kind, secretHash(secret), now)
	if solidarity.ErrorCode(err) == solidarity.ENOTFOUND {
		return nil, &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "invalid or expired credentials"}
	}
	if err != nil {
		return nil, err
	}
	if kind == KindSession && (c.IdleUntil.IsZero() || c.IdleUntil.Sub(now) < SessionIdle-sessionTouch) {
		// Best effort: a store that cannot write (a full disk) still serves reads;
		// the session then ends at its idle limit a little early.
		_ = s.Store.TouchSession(ctx, c.Hash, now.Add(SessionIdle))
	}
	return u, nil
}
