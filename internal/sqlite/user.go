package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"time"

	"solidarity"
)

// CreateUser implements solidarity.Store; it sets u.ID.
func (s *Store) CreateUser(ctx context.Context, u *solidarity.User, passwordHash string) error {
	return s.AddUser(ctx, u, passwordHash, solidarity.AdminEvent{})
}

// AddUser implements solidarity.Store: the user and its event (if ev.Action is set)
// in one transaction; it sets u.ID.
func (s *Store) AddUser(ctx context.Context, u *solidarity.User, passwordHash string, ev solidarity.AdminEvent) error {
	if err := u.Validate(); err != nil {
		return err
	}
	return s.inTx(ctx, "create user", func(tx *sql.Tx) error {
		var id int64
		err := tx.QueryRowContext(ctx, `INSERT INTO users (name, role, state, password_hash, created_at)
			VALUES (?, ?, ?, ?, ?) RETURNING id`,
			u.Name, string(u.Role), string(u.State), passwordHash, formatTime(s.Now())).Scan(&id)
		if isUnique(err) {
			return solidarity.UserNameTaken()
		} else if err != nil {
			return err
		}
		if err := s.logAdmin(ctx, tx, ev); err != nil {
			return err
		}
		u.ID = id
		return nil
	})
}

// inTx runs fn in a transaction on the writer connection; an error that is not a
// *solidarity.Error is internal.
func (s *Store) inTx(ctx context.Context, op string, fn func(tx *sql.Tx) error) error {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return internal(op, err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		if _, ok := errors.AsType[*solidarity.Error](err); ok {
			return err
		}
		return internal(op, err)
	}
	if err := tx.Commit(); err != nil {
		return internal(op, err)
	}
	return nil
}

// logAdmin records ev in the admin log, unless it has no action.
func (s *Store) logAdmin(ctx context.Context, tx *sql.Tx, ev solidarity.AdminEvent) error {
	if ev.Action == "" {
		return nil
	}
	if ev.At.IsZero() {
		ev.At = s.Now()
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO admin_log (at, actor, action, user_name, detail) VALUES (?, ?, ?, ?, ?)`,
		formatTime(ev.At), ev.Actor, ev.Action, ev.User, ev.Detail)
	return err
}

const userColumns = `id, name, role, state, disabled_at IS NOT NULL`

func scanUser(row interface{ Scan(...any) error }, extra ...any) (*solidarity.User, error) {
	var u solidarity.User
	var role, state string
	if err := row.Scan(append([]any{&u.ID, &u.Name, &role, &state, &u.Disabled}, extra...)...); err != nil {
		return nil, err
	}
	u.Role, u.State = solidarity.Role(role), solidarity.MemberState(state)
	return &u, nil
}

// UserByName implements solidarity.Store.
func (s *Store) UserByName(ctx context.Context, name string) (*solidarity.User, string, error) {
	var hash string
	u, err := scanUser(s.read.QueryRowContext(ctx,
		`SELECT `+userColumns+`, password_hash FROM users WHERE name = ?`, name), &hash)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, "", solidarity.UserNotFound(name)
	} else if err != nil {
		return nil, "", internal("user by name", err)
	}
	return u, hash, nil
}

// Users implements solidarity.Store: every user, by id.
func (s *Store) Users(ctx context.Context) ([]*solidarity.User, error) {
	rows, err := s.read.QueryContext(ctx, `SELECT `+userColumns+` FROM users ORDER BY id`)
	if err != nil {
		return nil, internal("users", err)
	}
	defer rows.Close()
	var out []*solidarity.User
	for rows.Next() {
		u, err := scanUser(rows)
		if err != nil {
			return nil, internal("users", err)
		}
		out = append(out, u)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("users", err)
	}
	return out, nil
}

// UpdateUser implements solidarity.Store.
func (s *Store) UpdateUser(ctx context.Context, name string, upd solidarity.UserUpdate, ev solidarity.AdminEvent) (*solidarity.User, error) {
	var u *solidarity.User
	err := s.inTx(ctx, "update user", func(tx *sql.Tx) error {
		var err error
		u, err = scanUser(tx.QueryRowContext(ctx, `SELECT `+userColumns+` FROM users WHERE name = ?`, name))
		if errors.Is(err, sql.ErrNoRows) {
			return solidarity.UserNotFound(name)
		} else if err != nil {
			return err
		}
		if upd.PasswordHash != nil {
			if _, err := tx.ExecContext(ctx, `UPDATE users SET password_hash = ? WHERE id = ?`, *upd.PasswordHash, u.ID); err != nil {
				return err
			}
		}
		if upd.Disabled != nil {
			var at any
			if *upd.Disabled {
				at = formatTime(s.Now())
			}
			if _, err := tx.ExecContext(ctx, `UPDATE users SET disabled_at = ? WHERE id = ?`, at, u.ID); err != nil {
				return err
			}
			u.Disabled = *upd.Disabled
		}
		if upd.EndSessions {
			if _, err := tx.ExecContext(ctx, `DELETE FROM credentials WHERE kind = 'session' AND user_id = ? AND hash <> ?`,
				u.ID, upd.KeepSession); err != nil {
				return err
			}
		}
		return s.logAdmin(ctx, tx, ev)
	})
	if err != nil {
		return nil, err
	}
	return u, nil
}

// CreateCredential implements solidarity.Store. A credential already stored is
// ECONFLICT; an unknown user is ENOTFOUND.
func (s *Store) CreateCredential(ctx context.Context, c solidarity.Credential) error {
	_, err := s.createCredential(ctx, c, solidarity.AdminEvent{})
	return err
}

// CreateToken implements solidarity.Store.
func (s *Store) CreateToken(ctx context.Context, c solidarity.Credential, ev solidarity.AdminEvent) (*solidarity.Token, error) {
	if err := c.ValidateToken(); err != nil {
		return nil, err
	}
	return s.createCredential(ctx, c, ev)
}

func (s *Store) createCredential(ctx context.Context, c solidarity.Credential, ev solidarity.AdminEvent) (*solidarity.Token, error) {
	if err := c.Validate(); err != nil {
		return nil, err
	}
	nullTime := func(t time.Time) any {
		if t.IsZero() {
			return nil
		}
		return formatTime(t)
	}
	created := s.Now().UTC().Truncate(time.Microsecond)
	var user string
	err := s.inTx(ctx, "create credential", func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `INSERT INTO credentials (kind, hash, user_id, label, expires, created, idle_until)
			VALUES (?, ?, ?, ?, ?, ?, ?)`, c.Kind, c.Hash, c.UserID, c.Label, nullTime(c.Expires), formatTime(created), nullTime(c.IdleUntil))
		switch {
		case isUnique(err):
			return solidarity.CredentialExists()
		case isForeignKey(err):
			return solidarity.UserIDNotFound(c.UserID)
		case err != nil:
			return err
		}
		if err := tx.QueryRowContext(ctx, `SELECT name FROM users WHERE id = ?`, c.UserID).Scan(&user); err != nil {
			return err
		}
		return s.logAdmin(ctx, tx, ev)
	})
	if err != nil {
		return nil, err
	}
	t := &solidarity.Token{ID: solidarity.TokenID(c.Hash), User: user, Label: c.Label, Created: created}
	if !c.Expires.IsZero() {
		t.Expires = c.Expires.UTC().Truncate(time.Microsecond)
	}
	return t, nil
}

// UserByCredential implements solidarity.Store: one primary-key lookup. A credential
// expires at its Expires instant (it is valid strictly before).
func (s *Store) UserByCredential(ctx context.Context, kind, hash string, now time.Time) (*solidarity.User, error) {
	u, _, err := s.CredentialUser(ctx, kind, hash, now)
	return u, err
}

// CredentialUser implements solidarity.Store: one primary-key lookup.
func (s *Store) CredentialUser(ctx context.Context, kind, hash string, now time.Time) (*solidarity.User, *solidarity.Credential, error) {
	var expires, created, idle sql.NullString
	c := &solidarity.Credential{Kind: kind, Hash: hash}
	u, err := scanUser(s.read.QueryRowContext(ctx, `SELECT u.id, u.name, u.role, u.state, u.disabled_at IS NOT NULL,
			c.label, c.expires, c.created, c.idle_until
		FROM credentials c JOIN users u ON u.id = c.user_id
		WHERE c.kind = ? AND c.hash = ?`, kind, hash), &c.Label, &expires, &created, &idle)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil, solidarity.CredentialNotFound()
	} else if err != nil {
		return nil, nil, internal("user by credential", err)
	}
	for _, f := range []struct {
		s *sql.NullString
		t *time.Time
	}{{&expires, &c.Expires}, {&created, &c.Created}, {&idle, &c.IdleUntil}} {
		if f.s.Valid {
			if *f.t, err = parseTime(f.s.String); err != nil {
				return nil, nil, internal("user by credential", err)
			}
		}
	}
	c.UserID = u.ID
	if u.Disabled || (!c.Expires.IsZero() && !now.Before(c.Expires)) || (!c.IdleUntil.IsZero() && !now.Before(c.IdleUntil)) {
		return nil, nil, solidarity.CredentialNotFound()
	}
	return u, c, nil
}

// TouchSession implements solidarity.Store.
func (s *Store) TouchSession(ctx context.Context, hash string, idleUntil time.Time) error {
	_, err := s.write.ExecContext(ctx, `UPDATE credentials SET idle_until = min(?, coalesce(expires, ?))
		WHERE kind = 'session' AND hash = ?`, formatTime(idleUntil), formatTime(idleUntil), hash)
	if err != nil {
		return internal("touch session", err)
	}
	return nil
}

// DeleteCredential implements solidarity.Store; an unknown credential is ENOTFOUND.
func (s *Store) DeleteCredential(ctx context.Context, kind, hash string) error {
	res, err := s.write.ExecContext(ctx, `DELETE FROM credentials WHERE kind = ? AND hash = ?`, kind, hash)
	if err != nil {
		return internal("delete credential", err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return internal("delete credential", err)
	} else if n == 0 {
		return solidarity.CredentialNotFound()
	}
	return nil
}

const tokenSelect = `SELECT c.hash, u.name, c.label, c.created, c.expires
	FROM credentials c JOIN users u ON u.id = c.user_id WHERE c.kind = 'token'`

func scanToken(row interface{ Scan(...any) error }) (*solidarity.Token, error) {
	var hash string
	var created, expires sql.NullString
	t := &solidarity.Token{}
	if err := row.Scan(&hash, &t.User, &t.Label, &created, &expires); err != nil {
		return nil, err
	}
	t.ID = solidarity.TokenID(hash)
	var err error
	if created.Valid {
		if t.Created, err = parseTime(created.String); err != nil {
			return nil, err
		}
	}
	if expires.Valid {
		if t.Expires, err = parseTime(expires.String); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// Tokens implements solidarity.Store.
func (s *Store) Tokens(ctx context.Context, user string) ([]*solidarity.Token, error) {
	rows, err := s.read.QueryContext(ctx, tokenSelect+` AND (? = '' OR u.name = ?) ORDER BY c.created, c.hash`, user, user)
	if err != nil {
		return nil, internal("tokens", err)
	}
	defer rows.Close()
	var out []*solidarity.Token
	for rows.Next() {
		t, err := scanToken(rows)
		if err != nil {
			return nil, internal("tokens", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("tokens", err)
	}
	return out, nil
}

// RevokeToken implements solidarity.Store.
func (s *Store) RevokeToken(ctx context.Context, id string, ev solidarity.AdminEvent) (*solidarity.Token, error) {
	if len(id) != solidarity.TokenIDLength {
		return nil, solidarity.TokenNotFound(id)
	}
	var t *solidarity.Token
	err := s.inTx(ctx, "revoke token", func(tx *sql.Tx) error {
		var err error
		t, err = scanToken(tx.QueryRowContext(ctx, tokenSelect+` AND substr(c.hash, 1, ?) = ?`, solidarity.TokenIDLength, id))
		if errors.Is(err, sql.ErrNoRows) {
			return solidarity.TokenNotFound(id)
		} else if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM credentials WHERE kind = 'token' AND substr(hash, 1, ?) = ?`, solidarity.TokenIDLength, id); err != nil {
			return err
		}
		ev.User = t.User
		return s.logAdmin(ctx, tx, ev)
	})
	if err != nil {
		return nil, err
	}
	return t, nil
}

// AdminLog implements solidarity.Store.
func (s *Store) AdminLog(ctx context.Context, before int64, limit int) ([]*solidarity.AdminEvent, error) {
	limit = solidarity.ClampPageLimit(limit)
	rows, err := s.read.QueryContext(ctx, `SELECT seq, at, actor, action, user_name, detail FROM admin_log WHERE ? <= 0 OR seq < ? ORDER BY seq DESC LIMIT ?`, before, before, limit)
	if err != nil {
		return nil, internal("admin log", err)
	}
	defer rows.Close()
	var out []*solidarity.AdminEvent
	for rows.Next() {
		var ev solidarity.AdminEvent
		var at string
		if err := rows.Scan(&ev.Seq, &at, &ev.Actor, &ev.Action, &ev.User, &ev.Detail); err != nil {
			return nil, internal("admin log", err)
		}
		if ev.At, err = parseTime(at); err != nil {
			return nil, internal("admin log", err)
		}
		out = append(out, &ev)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("admin log", err)
	}
	return out, nil
}

// ProbeWrite implements solidarity.Store: one row overwritten and committed on the
// writer connection, which fails as an append would on a full disk (SQLITE_FULL) or
// a read-only file.
func (s *Store) ProbeWrite(ctx context.Context) error {
	if _, err := s.write.ExecContext(ctx, `INSERT INTO ready_probe (one, at) VALUES (1, ?)
		ON CONFLICT (one) DO UPDATE SET at = excluded.at`, formatTime(s.Now())); err != nil {
		return internal("probe write", err)
	}
	return nil
}
