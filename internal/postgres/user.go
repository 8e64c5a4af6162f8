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
	if u == nil || u.Name == "" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "name", Message: "user name is required"}
	}
	if u.Role == "" {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "role", Message: "user role is required"}
	}
	var id int64
	err := s.pool.QueryRow(ctx, `INSERT INTO users (name, role, state, password_hash, created_at)
		VALUES ($1, $2, $3, $4, $5) RETURNING id`,
		u.Name, string(u.Role), string(u.State), passwordHash, s.Now().UTC()).Scan(&id)
	if pgCode(err) == uniqueViolation {
		return &solidarity.Error{Code: solidarity.ECONFLICT, Field: "name", Message: "user name is taken"}
	} else if err != nil {
		return internal("create user", err)
	}
	u.ID = id
	return nil
}

const userColumns = `id, name, role, state`

func scanUser(row pgx.Row, extra ...any) (*solidarity.User, error) {
	var u solidarity.User
	var role, state string
	if err := row.Scan(append([]any{&u.ID, &u.Name, &role, &state}, extra...)...); err != nil {
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
		return nil, "", solidarity.Errorf(solidarity.ENOTFOUND, "user %q not found", name)
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

// CreateCredential implements solidarity.Store. A credential already stored is
// ECONFLICT; an unknown user is ENOTFOUND.
func (s *Store) CreateCredential(ctx context.Context, c solidarity.Credential) error {
	if c.Kind == "" || c.Hash == "" {
		return solidarity.Errorf(solidarity.EINVALID, "credential kind and hash are required")
	}
	var expires *time.Time
	if !c.Expires.IsZero() {
		t := c.Expires.UTC()
		expires = &t
	}
	_, err := s.pool.Exec(ctx, `INSERT INTO credentials (kind, hash, user_id, label, expires)
		VALUES ($1, $2, $3, $4, $5)`, c.Kind, c.Hash, c.UserID, c.Label, expires)
	switch {
	case pgCode(err) == uniqueViolation:
		return solidarity.Errorf(solidarity.ECONFLICT, "credential already exists")
	case pgCode(err) == foreignKeyViolation:
		return solidarity.Errorf(solidarity.ENOTFOUND, "user %d not found", c.UserID)
	case err != nil:
		return internal("create credential", err)
	}
	return nil
}

// UserByCredential implements solidarity.Store: one primary-key lookup. A credential
// expires at its Expires instant (it is valid strictly before).
func (s *Store) UserByCredential(ctx context.Context, kind, hash string, now time.Time) (*solidarity.User, error) {
	var expires *time.Time
	u, err := scanUser(s.pool.QueryRow(ctx, `SELECT u.id, u.name, u.role, u.state, c.expires
		FROM credentials c JOIN users u ON u.id = c.user_id
		WHERE c.kind = $1 AND c.hash = $2`, kind, hash), &expires)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, solidarity.Errorf(solidarity.ENOTFOUND, "credential not found")
	} else if err != nil {
		return nil, internal("user by credential", err)
	}
	if expires != nil && !now.Before(*expires) {
		return nil, solidarity.Errorf(solidarity.ENOTFOUND, "credential not found")
	}
	return u, nil
}

// DeleteCredential implements solidarity.Store; an unknown credential is ENOTFOUND.
func (s *Store) DeleteCredential(ctx context.Context, kind, hash string) error {
	tag, err := s.pool.Exec(ctx, `DELETE FROM credentials WHERE kind = $1 AND hash = $2`, kind, hash)
	if err != nil {
		return internal("delete credential", err)
	}
	if tag.RowsAffected() == 0 {
		return solidarity.Errorf(solidarity.ENOTFOUND, "credential not found")
	}
	return nil
}
