package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"solidarity"
	"solidarity/cases/state"
)

var _ solidarity.CaseStore = (*Store)(nil)

// AppendCase implements solidarity.CaseStore: Append, with w applied in the append's
// savepoint after the entry (applyCases), so that the entry and the case rows land
// together or not at all. The records of w get their new Version when AppendCase
// returns without error (groupcommit.Writer.AppendCase).
func (s *Store) AppendCase(ctx context.Context, idemKey string, e *solidarity.Entry, w *solidarity.CaseWrite, check func(solidarity.View) error) (*solidarity.Entry, bool, error) {
	return s.w.AppendCase(ctx, idemKey, e, w, check)
}

const (
	arrivalColumns = `id, vessel, port, at, sar, benefitting, persons, families, minors, registered, actor, cycle`
	caseColumns    = `id, arrival, family, benefitting, allocated, responsible, state, flow, next_due, personal, opened, closed, erased, version, next_consequence`
	accessColumns  = `seq, at, actor, role, state, case_id, purpose`
)

// applyCases writes w in the batch transaction, inside the append's savepoint: any
// error it returns undoes the entry too.
func applyCases(ctx context.Context, tx *sql.Tx, w *solidarity.CaseWrite) error {
	if a := w.Arrival; a != nil {
		if !w.NewLanding {
			if err := sameLanding(ctx, tx, a); err != nil {
				return err
			}
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO arrivals (`+arrivalColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			string(a.ID), a.Vessel, a.Port, formatTime(a.At), a.SAR, string(a.Benefitting),
			a.Persons, a.Families, a.Minors, formatTime(a.Registered), a.Actor, a.Cycle)
		if isUnique(err) {
			return solidarity.ArrivalExists(a.ID)
		} else if err != nil {
			return internal("append case", err)
		}
	}
	for _, c := range w.Insert {
		_, err := tx.ExecContext(ctx, `INSERT INTO cases (`+caseColumns+`)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)`,
			string(c.ID), string(c.Arrival), string(c.Family), string(c.Benefitting),
			string(c.Allocated), string(c.Responsible), c.State, flowBytes(c.Flow), nullTime(c.NextDue),
			c.Personal, formatTime(c.Opened), nullTime(c.Closed), nullTime(c.Erased), nullTime(c.NextConsequence))
		switch {
		case isUnique(err):
			return solidarity.CaseExists(c.ID)
		case isForeignKey(err):
			return solidarity.CaseArrivalNotFound(c)
		case err != nil:
			return internal("append case", err)
		}
	}
	for _, c := range w.Update {
		res, err := tx.ExecContext(ctx, `UPDATE cases SET allocated = ?, responsible = ?, state = ?,
			flow = ?, next_due = ?, personal = ?, closed = ?, erased = ?, next_consequence = ?, version = version + 1
			WHERE id = ? AND version = ?`,
			string(c.Allocated), string(c.Responsible), c.State, flowBytes(c.Flow), nullTime(c.NextDue),
			c.Personal, nullTime(c.Closed), nullTime(c.Erased), nullTime(c.NextConsequence), string(c.ID), c.Version)
		if err != nil {
			return internal("append case", err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return internal("append case", err)
		}
		if n == 1 {
			continue
		}
		// Nothing updated: tell a case that is not there from one changed meanwhile.
		var v int64
		err = tx.QueryRowContext(ctx, `SELECT version FROM cases WHERE id = ?`, string(c.ID)).Scan(&v)
		if errors.Is(err, sql.ErrNoRows) {
			return solidarity.CaseNotFound(c.ID)
		} else if err != nil {
			return internal("append case", err)
		}
		return solidarity.CaseChanged(c)
	}
	return nil
}

// sameLanding refuses a, unless its ID is taken (the insert says so), when a stored
// arrival is the same landing (solidarity.Arrival.SameLanding). It reads in the
// write transaction, so two imports of one list cannot both pass.
func sameLanding(ctx context.Context, tx *sql.Tx, a *solidarity.Arrival) error {
	rows, err := tx.QueryContext(ctx, `SELECT id, vessel, port FROM arrivals WHERE at = ? AND id <> ? ORDER BY id`,
		formatTime(a.At), string(a.ID))
	if err != nil {
		return internal("append case", err)
	}
	defer rows.Close()
	for rows.Next() {
		var b solidarity.Arrival
		var id string
		if err := rows.Scan(&id, &b.Vessel, &b.Port); err != nil {
			return internal("append case", err)
		}
		b.At = a.At
		if a.SameLanding(&b) {
			return solidarity.SameLandingError(solidarity.ArrivalID(id), a)
		}
	}
	if err := rows.Err(); err != nil {
		return internal("append case", err)
	}
	return nil
}

// flowBytes is the flow as a BLOB: never NULL (nil would bind as NULL), byte for byte.
func flowBytes(flow []byte) []byte {
	if flow == nil {
		return []byte{}
	}
	return flow
}

// nullTime stores the zero time, "not set", as NULL.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return formatTime(t)
}

// parseNullTime reads a nullable time column: NULL is the zero time.
func parseNullTime(s sql.NullString) (time.Time, error) {
	if !s.Valid {
		return time.Time{}, nil
	}
	return parseTime(s.String)
}

// bound is t as the upper bound of "column < bound" on stored times. They have whole
// microseconds (formatTime truncates), so a stored time is before t exactly when it is
// before t rounded up to the next microsecond: truncating t instead would leave out a
// time within t's last microsecond.
func bound(t time.Time) string {
	if tr := t.Truncate(time.Microsecond); !tr.Equal(t) {
		t = tr.Add(time.Microsecond)
	}
	return formatTime(t)
}

// Arrival implements solidarity.CaseStore.
func (s *Store) Arrival(ctx context.Context, id solidarity.ArrivalID) (*solidarity.Arrival, error) {
	a, err := scanArrival(s.read.QueryRowContext(ctx, `SELECT `+arrivalColumns+` FROM arrivals WHERE id = ?`, string(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, solidarity.ArrivalNotFound(id)
	} else if err != nil {
		return nil, internal("arrival", err)
	}
	return a, nil
}

// Arrivals implements solidarity.CaseStore: latest first (by At, then ID).
func (s *Store) Arrivals(ctx context.Context, f solidarity.ArrivalFilter) ([]*solidarity.Arrival, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, err
	}
	query := `SELECT ` + arrivalColumns + ` FROM arrivals`
	where, args := arrivalWhere(f)
	if f.After != nil {
		at := formatTime(f.After.At)
		where = append(where, `(at < ? OR (at = ? AND id < ?))`)
		args = append(args, at, at, string(f.After.ID))
	}
	query += whereClause(where)
	rows, err := s.read.QueryContext(ctx, query+` ORDER BY at DESC, id DESC LIMIT ?`, append(args, f.Limit)...)
	if err != nil {
		return nil, internal("arrivals", err)
	}
	defer rows.Close()
	var out []*solidarity.Arrival
	for rows.Next() {
		a, err := scanArrival(rows)
		if err != nil {
			return nil, internal("arrivals", err)
		}
		out = append(out, a)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("arrivals", err)
	}
	return out, nil
}

func scanArrival(row interface{ Scan(...any) error }) (*solidarity.Arrival, error) {
	var a solidarity.Arrival
	var id, benefitting, at, registered string
	if err := row.Scan(&id, &a.Vessel, &a.Port, &at, &a.SAR, &benefitting, &a.Persons, &a.Families,
		&a.Minors, &registered, &a.Actor, &a.Cycle); err != nil {
		return nil, err
	}
	var err error
	if a.At, err = parseTime(at); err != nil {
		return nil, err
	}
	if a.Registered, err = parseTime(registered); err != nil {
		return nil, err
	}
	a.ID, a.Benefitting = solidarity.ArrivalID(id), solidarity.MemberState(benefitting)
	a.Demonstration = solidarity.IsDemoCycle(a.Cycle)
	return &a, nil
}

// Case implements solidarity.CaseStore.
func (s *Store) Case(ctx context.Context, id solidarity.CaseID) (*solidarity.CaseRecord, error) {
	c, err := scanCase(s.read.QueryRowContext(ctx, `SELECT `+caseColumns+` FROM cases WHERE id = ?`, string(id)))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, solidarity.CaseNotFound(id)
	} else if err != nil {
		return nil, internal("case", err)
	}
	return c, nil
}

// Cases implements solidarity.CaseStore. With DueBefore the cases come earliest due
// first, from the partial index cases_next_due; otherwise in ID order. After pages in
// ID order only, so it is EINVALID with DueBefore.
func (s *Store) Cases(ctx context.Context, f solidarity.CaseFilter) ([]*solidarity.CaseRecord, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, err
	}
	where, args := caseWhere(f)
	order := ` ORDER BY id`
	if f.DueBefore != nil {
		where = append(where, "next_due IS NOT NULL", "next_due < ?")
		args = append(args, bound(*f.DueBefore))
		order = ` ORDER BY next_due, id`
	}
	if f.ConsequenceBefore != nil {
		where = append(where, "next_consequence IS NOT NULL", "next_consequence < ?")
		args = append(args, bound(*f.ConsequenceBefore))
		order = ` ORDER BY next_consequence, id`
	}
	if f.After != "" {
		where = append(where, "id > ?")
		args = append(args, string(f.After))
	}
	rows, err := s.read.QueryContext(ctx, `SELECT `+caseColumns+` FROM cases`+whereClause(where)+order+` LIMIT ?`,
		append(args, f.Limit)...)
	if err != nil {
		return nil, internal("cases", err)
	}
	defer rows.Close()
	var out []*solidarity.CaseRecord
	for rows.Next() {
		c, err := scanCase(rows)
		if err != nil {
			return nil, internal("cases", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("cases", err)
	}
	return out, nil
}

// CaseCounts implements solidarity.CaseStore.
func (s *Store) CaseCounts(ctx context.Context, f solidarity.CaseFilter) (map[state.State]int, error) {
	where, args := caseWhere(f)
	rows, err := s.read.QueryContext(ctx, `SELECT state, count(*) FROM cases`+whereClause(where)+` GROUP BY state`, args...)
	if err != nil {
		return nil, internal("case counts", err)
	}
	defer rows.Close()
	out := map[state.State]int{}
	for rows.Next() {
		var st string
		var n int
		if err := rows.Scan(&st, &n); err != nil {
			return nil, internal("case counts", err)
		}
		out[state.State(st)] = n
	}
	if err := rows.Err(); err != nil {
		return nil, internal("case counts", err)
	}
	return out, nil
}

// caseWhere returns the conditions of f that select cases (not those that order or
// page them), and their arguments.
func caseWhere(f solidarity.CaseFilter) ([]string, []any) {
	var where []string
	var args []any
	if f.Arrival != nil {
		where = append(where, "arrival = ?")
		args = append(args, string(*f.Arrival))
	}
	if f.Family != nil {
		where = append(where, "family = ?")
		args = append(args, string(*f.Family))
	}
	if f.Involving != nil {
		where = append(where, "(benefitting = ? OR allocated = ?)")
		args = append(args, string(*f.Involving), string(*f.Involving))
	}
	if f.Open {
		where = append(where, "closed IS NULL")
	}
	if f.ClosedBefore != nil {
		where = append(where, "closed IS NOT NULL", "closed < ?")
		args = append(args, bound(*f.ClosedBefore))
	}
	if f.NotErased {
		where = append(where, "erased IS NULL")
	}
	return where, args
}

func whereClause(where []string) string {
	if len(where) == 0 {
		return ""
	}
	return ` WHERE ` + strings.Join(where, " AND ")
}

func scanCase(row interface{ Scan(...any) error }) (*solidarity.CaseRecord, error) {
	var c solidarity.CaseRecord
	var id, arrival, family, benefitting, allocated, responsible, opened string
	var flow []byte
	var nextDue, closed, erased, nextConsequence sql.NullString
	if err := row.Scan(&id, &arrival, &family, &benefitting, &allocated, &responsible, &c.State, &flow,
		&nextDue, &c.Personal, &opened, &closed, &erased, &c.Version, &nextConsequence); err != nil {
		return nil, err
	}
	var err error
	if c.NextConsequence, err = parseNullTime(nextConsequence); err != nil {
		return nil, err
	}
	if c.Opened, err = parseTime(opened); err != nil {
		return nil, err
	}
	if c.NextDue, err = parseNullTime(nextDue); err != nil {
		return nil, err
	}
	if c.Closed, err = parseNullTime(closed); err != nil {
		return nil, err
	}
	if c.Erased, err = parseNullTime(erased); err != nil {
		return nil, err
	}
	c.ID, c.Arrival, c.Family = solidarity.CaseID(id), solidarity.ArrivalID(arrival), solidarity.FamilyID(family)
	c.Benefitting, c.Allocated, c.Responsible = solidarity.MemberState(benefitting),
		solidarity.MemberState(allocated), solidarity.MemberState(responsible)
	c.Flow = flow
	return &c, nil
}

// RecordAccess implements solidarity.CaseStore: the records in one transaction, so
// that they are all logged or none is; it sets each one's Seq. A record without an
// actor, a case or a time is EINVALID, since the log must say who read what and when.
func (s *Store) RecordAccess(ctx context.Context, as ...*solidarity.Access) error {
	if err := solidarity.ValidateAccess(as...); err != nil {
		return err
	}
	if len(as) == 0 {
		return nil
	}
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return internal("record access", err)
	}
	defer tx.Rollback()
	seqs := make([]int64, len(as))
	for i, a := range as {
		if err := tx.QueryRowContext(ctx, `INSERT INTO access_log (at, actor, role, state, case_id, purpose)
			VALUES (?, ?, ?, ?, ?, ?) RETURNING seq`,
			formatTime(a.At), a.Actor, string(a.Role), string(a.State), string(a.Case), a.Purpose).Scan(&seqs[i]); err != nil {
			return internal("record access", err)
		}
	}
	if err := tx.Commit(); err != nil {
		return internal("record access", err)
	}
	for i, a := range as {
		a.Seq = seqs[i]
	}
	return nil
}

// AccessLog implements solidarity.CaseStore: latest first.
func (s *Store) AccessLog(ctx context.Context, f solidarity.AccessFilter) ([]*solidarity.Access, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, err
	}
	where, args := accessWhere(f)
	rows, err := s.read.QueryContext(ctx, `SELECT `+accessColumns+` FROM access_log`+whereClause(where)+
		` ORDER BY `+accessOrder(f)+` LIMIT ?`, append(args, f.Limit)...)
	if err != nil {
		return nil, internal("access log", err)
	}
	defer rows.Close()
	var out []*solidarity.Access
	for rows.Next() {
		var a solidarity.Access
		var at, role, state, caseID string
		if err := rows.Scan(&a.Seq, &at, &a.Actor, &role, &state, &caseID, &a.Purpose); err != nil {
			return nil, internal("access log", err)
		}
		if a.At, err = parseTime(at); err != nil {
			return nil, internal("access log", err)
		}
		a.Role, a.State, a.Case = solidarity.Role(role), solidarity.MemberState(state), solidarity.CaseID(caseID)
		out = append(out, &a)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("access log", err)
	}
	return out, nil
}

// CountArrivals implements solidarity.CaseStore.
func (s *Store) CountArrivals(ctx context.Context, f solidarity.ArrivalFilter) (int64, error) {
	f, err := f.Normalize()
	if err != nil {
		return 0, err
	}
	where, args := arrivalWhere(f)
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM arrivals`+whereClause(where), args...).Scan(&n); err != nil {
		return 0, internal("count arrivals", err)
	}
	return n, nil
}

// arrivalWhere is the condition of a normalised filter but its After, with its
// arguments.
func arrivalWhere(f solidarity.ArrivalFilter) ([]string, []any) {
	var where []string
	var args []any
	if f.Benefitting != nil {
		where = append(where, `benefitting = ?`)
		args = append(args, string(*f.Benefitting))
	}
	if f.Involving != nil {
		where = append(where, `(benefitting = ? OR id IN (SELECT arrival FROM cases WHERE allocated = ?))`)
		args = append(args, string(*f.Involving), string(*f.Involving))
	}
	return where, args
}

// CountAccess implements solidarity.CaseStore.
func (s *Store) CountAccess(ctx context.Context, f solidarity.AccessFilter) (int64, error) {
	f, err := f.Normalize()
	if err != nil {
		return 0, err
	}
	where, args := accessWhere(f)
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM access_log`+whereClause(where), args...).Scan(&n); err != nil {
		return 0, internal("count access", err)
	}
	return n, nil
}

// accessOrder is the order of a filter's records: latest first unless Oldest.
func accessOrder(f solidarity.AccessFilter) string {
	if f.Oldest {
		return "seq"
	}
	return "seq DESC"
}

// accessWhere is the condition of a normalised filter, with its arguments. Case and
// actor compare lower-cased (the filter ignores case).
func accessWhere(f solidarity.AccessFilter) ([]string, []any) {
	var where []string
	var args []any
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if f.Case != nil {
		add("lower(case_id) = ?", solidarity.FoldASCII(string(*f.Case)))
	}
	if f.Actor != nil {
		add("lower(actor) = ?", solidarity.FoldASCII(*f.Actor))
	}
	if f.Role != nil {
		add("role = ?", string(*f.Role))
	}
	if !f.From.IsZero() {
		add("at >= ?", formatTime(f.From))
	}
	if !f.To.IsZero() {
		add("at < ?", formatTime(f.To))
	}
	if f.BeforeSeq > 0 {
		add("seq < ?", f.BeforeSeq)
	}
	if f.AfterSeq > 0 {
		add("seq > ?", f.AfterSeq)
	}
	return where, args
}

// checkpointTries bounds how often Checkpoint retries a checkpoint that a reader's
// open snapshot held back.
const checkpointTries = 20

// Checkpoint copies the write-ahead log into the database file and truncates the log
// to zero bytes (PRAGMA wal_checkpoint(TRUNCATE)): the page images it held, such as
// personal records before their erasure, are gone from the disk (the database file
// overwrites deleted content: secure_delete). A reader holding an old snapshot makes
// SQLite report the checkpoint busy: it is retried, and after checkpointTries is
// EINTERNAL. The case service runs it after an erasure (retention) and a reseal.
func (s *Store) Checkpoint(ctx context.Context) error {
	for try := 0; ; try++ {
		var busy, log, done int
		if err := s.write.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &log, &done); err != nil {
			return internal("checkpoint", err)
		}
		if busy == 0 {
			return nil
		}
		if try+1 == checkpointTries {
			return internal("checkpoint", fmt.Errorf("the write-ahead log is still in use by a reader after %d tries", checkpointTries))
		}
		select {
		case <-ctx.Done():
			return internal("checkpoint", ctx.Err())
		case <-time.After(25 * time.Millisecond):
		}
	}
}
