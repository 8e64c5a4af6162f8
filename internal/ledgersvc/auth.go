package ledgersvc

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"fmt"
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

// SessionLifetime is how long a browser session lasts.
const SessionLifetime = 12 * time.Hour

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
		if len(password) < 12 {
			return invalid("password", "", "passwords have at least 12 characters")
		}
		hash = HashPassword(password)
	}
	return s.Store.CreateUser(ctx, u, hash)
}

// Login checks a password and opens a session, returning its secret. The error for an
// unknown user and a wrong password is the same.
func (s *Service) Login(ctx context.Context, name, password string) (*solidarity.User, string, error) {
	u, hash, err := s.Store.UserByName(ctx, name)
	if err != nil && solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		return nil, "", err
	}
	if err != nil || hash == "" {
		// Hash anyway, so that the time taken does not tell which names exist.
		checkPassword(dummyHash(), password)
		return nil, "", &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "wrong user name or password"}
	}
	if !checkPassword(hash, password) {
		return nil, "", &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "wrong user name or password"}
	}
	secret := rand.Text()
	err = s.Store.CreateCredential(ctx, solidarity.Credential{Kind: KindSession, Hash: secretHash(secret), UserID: u.ID,
		Label: "browser session", Expires: s.now().Add(SessionLifetime)})
	if err != nil {
		return nil, "", err
	}
	return u, secret, nil
}

// Logout ends a session.
func (s *Service) Logout(ctx context.Context, secret string) error {
	return s.Store.DeleteCredential(ctx, KindSession, secretHash(secret))
}

// CreateToken issues an API token for user name; only its hash is stored. The
// coordinator (or the local CLI as System) issues tokens.
func (s *Service) CreateToken(ctx context.Context, name, label string) (string, error) {
	if err := authorize(ctx, solidarity.ManageUsers, ""); err != nil {
		return "", err
	}
	u, _, err := s.Store.UserByName(ctx, name)
	if err != nil {
		return "", err
	}
	secret := rand.Text()
	if err := s.Store.CreateCredential(ctx, solidarity.Credential{Kind: KindToken, Hash: secretHash(secret), UserID: u.ID, Label: label}); err != nil {
		return "", err
	}
	return secret, nil
}

// Authenticate returns the user of a token or session secret.
func (s *Service) Authenticate(ctx context.Context, kind, secret string) (*solidarity.User, error) {
	if secret == "" {
		return nil, &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "no credentials"}
	}
	u, err := s.Store.UserByCredential(ctx, kind, secretHash(secret), s.now())
	if solidarity.ErrorCode(err) == solidarity.ENOTFOUND {
		return nil, &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: "invalid or expired credentials"}
	}
	return u, err
}
