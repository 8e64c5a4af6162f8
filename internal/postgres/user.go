package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

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
	return s.inTx(ctx, "create user", func(tx pgx.Tx) error {
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO users (name, role, state, password_hash, created_at)
			VALUES ($1, $2, $3, $4, $5) RETURNING id`,
			u.Name, string(u.Role), string(u.State), passwordHash, s.Now().UTC()).Scan(&id)
		if pgCode(err) == uniqueViolation {
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

// inTx runs fn in a transaction; an error that is not a *solidarity.Error is
// internal.
func (s *Store) inTx(ctx context.Context, op string, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return internal(op, err)
	}
	defer tx.Rollback(ctx)
	if err := fn(tx); err != nil {
		if _, ok := errors.AsType[*solidarity.Error](err); ok {
			return err
		}
		return internal(op, err)
	}
	if err := tx.Commit(ctx); err != nil {
		return internal(op, err)
	}
	return nil
}

// logAdmin records ev in the admin log, unless it has no action.
func (s *Store) logAdmin(ctx context.Context, tx pgx.Tx, ev solidarity.AdminEvent) error {
	if ev.Action == "" {
		return nil
	}
	if ev.At.IsZero() {
		ev.At = s.Now()
	}
	_, err := tx.Exec(ctx, `INSERT INTO admin_log (at, actor, action, user_name, detail) VALUES ($1, $2, $3, $4, $5)`,
		ev.At.UTC(), ev.Actor, ev.Action, ev.User, ev.Detail)
	return err
}

const userColumns = `id, name, role, state, disabled_at IS NOT NULL`

func scanUser(row pgx.Row, extra ...any) (*solidarity.User, error) {
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
	u, err := scanUser(s.pool.QueryRow(ctx,
		`SELECT `+userColumns+`, password_hash FROM users WHERE name = $1`, name), &hash)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, "", solidarity.UserNotFound(name)
	} else if err != nil {
		return nil, "", internal("user by name", err)
	}
	return u, hash, nil
}

// Users implements solidarity.Store: every user, by id.
func (s *Store) Users(ctx context.Context) ([]*solidarity.User, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+userColumns+` FROM users ORDER BY id`)
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
	err := s.inTx(ctx, "update user", func(tx pgx.Tx) error {
		var err error
		u, err = scanUser(tx.QueryRow(ctx, `SELECT `+userColumns+` FROM users WHERE name = $1 FOR UPDATE`, name))
		if errors.Is(err, pgx.ErrNoRows) {
			return solidarity.UserNotFound(name)
		} else if err != nil {
			return err
		}
		if upd.PasswordHash != nil {
			if _, err := tx.Exec(ctx, `UPDATE users SET password_hash = $1 WHERE id = $2`, *upd.PasswordHash, u.ID); err != nil {
				return err
			}
		}
		if upd.Disabled != nil {
			var at *time.Time
			if *upd.Disabled {
				t := s.Now().UTC()
				at = &t
			}
			if _, err := tx.Exec(ctx, `UPDATE users SET disabled_at = $1 WHERE id = $2`, at, u.ID); err != nil {
				return err
			}
			u.Disabled = *upd.Disabled
		}
		if upd.EndSessions {
			if _, err := tx.Exec(ctx, `DELETE FROM credentials WHERE kind = 'session' AND user_id = $1 AND hash <> $2`,
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
	created := s.Now().UTC().Truncate(time.Microsecond)
	var user string
	err := s.inTx(ctx, "create credential", func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO credentials (kind, hash, user_id, label, expires, created, idle_until)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, c.Kind, c.Hash, c.UserID, c.Label, nullTime(c.Expires), created, nullTime(c.IdleUntil))
		switch {
		case pgCode(err) == uniqueViolation:
			return solidarity.CredentialExists()
		case pgCode(err) == foreignKeyViolation:
			return solidarity.UserIDNotFound(c.UserID)
		case err != nil:
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT name FROM users WHERE id = $1`, c.UserID).Scan(&user); err != nil {
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
	var expires, created, idle *time.Time
	c := &solidarity.Credential{Kind: kind, Hash: hash}
	u, err := scanUser(s.pool.QueryRow(ctx, `SELECT u.id, u.name, u.role, u.state, u.disabled_at IS NOT NULL,
			c.label, c.expires, c.created, c.idle_until
		FROM credentials c JOIN users u ON u.id = c.user_id
		WHERE c.kind = $1 AND c.hash = $2`, kind, hash), &c.Label, &expires, &created, &idle)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil, solidarity.CredentialNotFound()
	} else if err != nil {
		return nil, nil, internal("user by credential", err)
	}
	for _, f := range []struct {
		from *time.Time
		to   *time.Time
	}{{expires, &c.Expires}, {created, &c.Created}, {idle, &c.IdleUntil}} {
		if f.from != nil {
			*f.to = f.from.UTC()
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
	_, err := s.pool.Exec(ctx, `UPDATE credentials SET idle_until = least($1::timestamptz, coalesce(expires, $1::timestamptz))
		WHERE kind = 'session' AND hash = $2`, idleUntil.UTC(), hash)
	if err != nil {
		return internal("touch session", err)
	}
	return nil
}

// DeleteCredential implements solidarity.Store; an unknown credential is ENOTFOUND.
func (s *Store) DeleteCredential(ctx context.Context, kind, hash string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM credentials WHERE kind = $1 AND hash = $2`, kind, hash)
	if err != nil {
		return internal("delete credential", err)
	}
	if tag.RowsAffected() == 0 {
		return solidarity.CredentialNotFound()
	}
	return nil
}

const tokenSelect = `SELECT c.hash, u.name, c.label, c.created, c.expires
	FROM credentials c JOIN users u ON u.id = c.user_id WHERE c.kind = 'token'`

func scanToken(row pgx.Row) (*solidarity.Token, error) {
	var hash string
	var created, expires *time.Time
	t := &solidarity.Token{}
	if err := row.Scan(&hash, &t.User, &t.Label, &created, &expires); err != nil {
		return nil, err
	}
	t.ID = solidarity.TokenID(hash)
	if created != nil {
		t.Created = created.UTC()
	}
	if expires != nil {
		t.Expires = expires.UTC()
	}
	return t, nil
}

// Tokens implements solidarity.Store.
func (s *Store) Tokens(ctx context.Context, user string) ([]*solidarity.Token, error) {
	rows, err := s.pool.Query(ctx, tokenSelect+` AND ($1 = '' OR u.name = $1) ORDER BY c.created, c.hash`, user)
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
	err := s.inTx(ctx, "revoke token", func(tx pgx.Tx) error {
		var err error
		t, err = scanToken(tx.QueryRow(ctx, tokenSelect+` AND left(c.hash, $1) = $2 FOR UPDATE OF c`, solidarity.TokenIDLength, id))
		if errors.Is(err, pgx.ErrNoRows) {
			return solidarity.TokenNotFound(id)
		} else if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `DELETE FROM credentials WHERE kind = 'token' AND left(hash, $1) = $2`, solidarity.TokenIDLength, id); err != nil {
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
	rows, err := s.pool.Query(ctx, `SELECT seq, at, actor, action, user_name, detail FROM admin_log WHERE $1 <= 0 OR seq < $1 ORDER BY seq DESC LIMIT $2`, before, limit)
	if err != nil {
		return nil, internal("admin log", err)
	}
	defer rows.Close()
	var out []*solidarity.AdminEvent
	for rows.Next() {
		var ev solidarity.AdminEvent
		if err := rows.Scan(&ev.Seq, &ev.At, &ev.Actor, &ev.Action, &ev.User, &ev.Detail); err != nil {
			return nil, internal("admin log", err)
		}
		ev.At = ev.At.UTC()
		out = append(out, &ev)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("admin log", err)
	}
	return out, nil
}

// ProbeWrite implements solidarity.Store: one row overwritten and committed, which
// fails as an append would when the server cannot write (a full disk, a read-only
// standby).
func (s *Store) ProbeWrite(ctx context.Context) error {
	if _, err := s.pool.Exec(ctx, `INSERT INTO ready_probe (one, at) VALUES (true, $1)
		ON CONFLICT (one) DO UPDATE SET at = excluded.at`, s.Now().UTC()); err != nil {
		return internal("probe write", err)
	}
	return nil
}
