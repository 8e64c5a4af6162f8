package postgres

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"solidarity"
	"solidarity/cases/state"
)

var _ solidarity.CaseStore = (*Store)(nil)

// AppendCase implements solidarity.CaseStore: Append, with w applied in the append's
// savepoint after the entry, so that the entry and the case rows land together or not
// at all. The batch decides w before it seals the entry (checkCases) and pipelines its
// writes like the entry's. The records of w get their new Version when AppendCase
// returns without error (groupcommit.Writer.AppendCase).
func (s *Store) AppendCase(ctx context.Context, idemKey string, e *solidarity.Entry, w *solidarity.CaseWrite, check func(solidarity.View) error) (*solidarity.Entry, bool, error) {
	out, replayed, err := s.w.AppendCase(ctx, idemKey, e, w, check)
	if err == nil && !replayed && w != nil && len(w.Insert) >= bulkInsert {
		s.refreshStats()
	}
	return out, replayed, err
}

// bulkInsert is the size of a registration after which the planner's statistics on
// cases are refreshed at once.
const bulkInsert = 1000

// refreshStats runs ANALYZE on cases in the background, at most one at a time. Until
// autovacuum's next round (a minute or more) the planner would otherwise estimate a
// table that grew by a whole ship's list from stale statistics, and answer the
// deadline view by a sequential scan and a sort (~100 ms at 100 000 cases) instead of
// the cases_next_due index (~1 ms).
func (s *Store) refreshStats() {
	if !s.analyzing.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer s.analyzing.Store(false)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		s.pool.Exec(ctx, `ANALYZE cases`) // best effort: autovacuum does it later anyway
	}()
}

const (
	arrivalColumns = `id, vessel, port, at, sar, benefitting, persons, families, minors, registered, actor, cycle`
	caseColumns    = `id, arrival, family, benefitting, allocated, responsible, state, flow, next_due, personal, opened, closed, erased, version, next_consequence`
	accessColumns  = `seq, at, actor, role, state, case_id, purpose`
)

// checkCases decides w against the cases and arrivals as they stand before this
// append, the batch's earlier appends included (batchQueryer sends their pending
// writes first), with the answers applyCases gives on SQLite: an arrival or a case
// inserted that exists is ECONFLICT, a case inserted into an arrival that does not
// exist is ENOTFOUND, and an update of a case that does not exist is ENOTFOUND, of
// one whose version is not the record's ECONFLICT. A failed query is rolled back to
// the append's savepoint and refuses it; b.fatal is set if that fails too.
func (b *batch) checkCases(w *solidarity.CaseWrite) error {
	var caseIDs, arrivalIDs []string
	if w.Arrival != nil {
		arrivalIDs = append(arrivalIDs, string(w.Arrival.ID))
	}
	for _, c := range w.Insert {
		caseIDs = append(caseIDs, string(c.ID))
		arrivalIDs = append(arrivalIDs, string(c.Arrival))
	}
	for _, c := range w.Update {
		caseIDs = append(caseIDs, string(c.ID))
	}
	if len(caseIDs) == 0 && len(arrivalIDs) == 0 {
		return nil
	}
	qb := &pgx.Batch{}
	qb.Queue(`SELECT id, version FROM cases WHERE id = ANY($1)`, caseIDs)
	qb.Queue(`SELECT id FROM arrivals WHERE id = ANY($1)`, arrivalIDs)
	landing := w.Arrival != nil && !w.NewLanding
	if landing {
		// The same landing stored under another ID (solidarity.Arrival.SameLanding):
		// read under the head lock, so two imports of one list cannot both pass.
		qb.Queue(`SELECT id, vessel, port FROM arrivals WHERE at = $1 AND id <> $2 ORDER BY id`,
			pgTime(w.Arrival.At), string(w.Arrival.ID))
	}
	versions := map[solidarity.CaseID]int64{}
	arrivals := map[solidarity.ArrivalID]bool{}
	var same solidarity.ArrivalID
	br := batchQueryer{b}.SendBatch(b.ctx, qb)
	err := func() error {
		rows, err := br.Query()
		if err != nil {
			return err
		}
		var id string
		var v int64
		if _, err := pgx.ForEachRow(rows, []any{&id, &v}, func() error {
			versions[solidarity.CaseID(id)] = v
			return nil
		}); err != nil {
			return err
		}
		if rows, err = br.Query(); err != nil {
			return err
		}
		if _, err = pgx.ForEachRow(rows, []any{&id}, func() error {
			arrivals[solidarity.ArrivalID(id)] = true
			return nil
		}); err != nil || !landing {
			return err
		}
		if rows, err = br.Query(); err != nil {
			return err
		}
		var other solidarity.Arrival
		_, err = pgx.ForEachRow(rows, []any{&id, &other.Vessel, &other.Port}, func() error {
			other.At = w.Arrival.At
			if same == "" && w.Arrival.SameLanding(&other) {
				same = solidarity.ArrivalID(id)
			}
			return nil
		})
		return err
	}()
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if b.fatal != nil {
		return internal("append case", b.fatal)
	}
	if err != nil {
		if _, rerr := b.tx.Exec(b.ctx, `ROLLBACK TO SAVEPOINT append`); rerr != nil {
			b.setFatal(rerr)
		}
		return internal("append case", err)
	}

	if a := w.Arrival; a != nil && arrivals[a.ID] {
		return solidarity.ArrivalExists(a.ID)
	}
	if same != "" {
		return solidarity.SameLandingError(same, w.Arrival)
	}
	for _, c := range w.Insert {
		if _, ok := versions[c.ID]; ok {
			return solidarity.CaseExists(c.ID)
		}
		if !arrivals[c.Arrival] && (w.Arrival == nil || w.Arrival.ID != c.Arrival) {
			return solidarity.CaseArrivalNotFound(c)
		}
	}
	for _, c := range w.Update {
		v, ok := versions[c.ID]
		if !ok {
			return solidarity.CaseNotFound(c.ID)
		}
		if v != c.Version {
			return solidarity.CaseChanged(c)
		}
	}
	return nil
}

// caseStatements queues the writes of w, which checkCases has decided. Should one
// fail all the same (a unique or foreign key violation: another writer would have to
// be writing cases), its answer is the one SQLite gives; an update must update its
// row (rows 1), or the batch fails.
func caseStatements(w *solidarity.CaseWrite, queue func(fail func(error) error, rows int64, sql string, args ...any)) {
	if a := w.Arrival; a != nil {
		queue(func(err error) error {
			if pgCode(err) == uniqueViolation {
				return solidarity.ArrivalExists(a.ID)
			}
			return failInternal(err)
		}, -1, `INSERT INTO arrivals (`+arrivalColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			string(a.ID), a.Vessel, a.Port, pgTime(a.At), a.SAR, string(a.Benefitting),
			a.Persons, a.Families, a.Minors, pgTime(a.Registered), a.Actor, a.Cycle)
	}
	for _, c := range w.Insert {
		queue(func(err error) error {
			switch pgCode(err) {
			case uniqueViolation:
				return solidarity.CaseExists(c.ID)
			case foreignKeyViolation:
				return solidarity.CaseArrivalNotFound(c)
			}
			return failInternal(err)
		}, -1, `INSERT INTO cases (`+caseColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 1, $14)`,
			string(c.ID), string(c.Arrival), string(c.Family), string(c.Benefitting),
			string(c.Allocated), string(c.Responsible), c.State, flowBytes(c.Flow), nullTime(c.NextDue),
			c.Personal, pgTime(c.Opened), nullTime(c.Closed), nullTime(c.Erased), nullTime(c.NextConsequence))
	}
	for _, c := range w.Update {
		queue(failInternal, 1, `UPDATE cases SET allocated = $1, responsible = $2, state = $3,
			flow = $4, next_due = $5, personal = $6, closed = $7, erased = $8, next_consequence = $11, version = version + 1
			WHERE id = $9 AND version = $10`,
			string(c.Allocated), string(c.Responsible), c.State, flowBytes(c.Flow), nullTime(c.NextDue),
			c.Personal, nullTime(c.Closed), nullTime(c.Erased), string(c.ID), c.Version, nullTime(c.NextConsequence))
	}
}

// flowBytes is the flow as bytea: never NULL (pgx sends a nil slice as NULL), byte
// for byte.
func flowBytes(flow []byte) []byte {
	if flow == nil {
		return []byte{}
	}
	return flow
}

// pgTime is t as stored: whole microseconds, truncated as on SQLite (PostgreSQL
// would round), so that both stores read back the same time.
func pgTime(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// nullTime stores the zero time, "not set", as NULL.
func nullTime(t time.Time) any {
	if t.IsZero() {
		return nil
	}
	return pgTime(t)
}

// timeOrZero reads a nullable time column: NULL is the zero time.
func timeOrZero(t *time.Time) time.Time {
	if t == nil {
		return time.Time{}
	}
	return t.UTC()
}

// bound is t as the upper bound of "column < bound" on stored times. They have whole
// microseconds, so a stored time is before t exactly when it is before t rounded up to
// the next microsecond: pgx truncating t instead would leave out a time within t's
// last microsecond.
func bound(t time.Time) time.Time {
	if tr := t.Truncate(time.Microsecond); !tr.Equal(t) {
		t = tr.Add(time.Microsecond)
	}
	return t.UTC()
}

// Arrival implements solidarity.CaseStore.
func (s *Store) Arrival(ctx context.Context, id solidarity.ArrivalID) (*solidarity.Arrival, error) {
	a, err := scanArrival(s.pool.QueryRow(ctx, `SELECT `+arrivalColumns+` FROM arrivals WHERE id = $1`, string(id)))
	if errors.Is(err, pgx.ErrNoRows) {
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
	q := arrivalWhere(f)
	if f.After != nil {
		at, id := q.arg(f.After.At.UTC()), q.arg(string(f.After.ID))
		q.conds = append(q.conds, "(at < "+at+" OR (at = "+at+" AND id < "+id+"))")
	}
	rows, err := s.pool.Query(ctx, `SELECT `+arrivalColumns+` FROM arrivals`+q.clause()+
		` ORDER BY at DESC, id DESC LIMIT `+q.arg(f.Limit), q.args...)
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

func scanArrival(row pgx.Row) (*solidarity.Arrival, error) {
	var a solidarity.Arrival
	var id, benefitting string
	if err := row.Scan(&id, &a.Vessel, &a.Port, &a.At, &a.SAR, &benefitting, &a.Persons, &a.Families,
		&a.Minors, &a.Registered, &a.Actor, &a.Cycle); err != nil {
		return nil, err
	}
	a.ID, a.Benefitting = solidarity.ArrivalID(id), solidarity.MemberState(benefitting)
	a.At, a.Registered = a.At.UTC(), a.Registered.UTC()
	a.Demonstration = solidarity.IsDemoCycle(a.Cycle)
	return &a, nil
}

// Case implements solidarity.CaseStore.
func (s *Store) Case(ctx context.Context, id solidarity.CaseID) (*solidarity.CaseRecord, error) {
	c, err := scanCase(s.pool.QueryRow(ctx, `SELECT `+caseColumns+` FROM cases WHERE id = $1`, string(id)))
	if errors.Is(err, pgx.ErrNoRows) {
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
	q := caseQuery(f)
	order := ` ORDER BY id`
	if f.DueBefore != nil {
		q.where("next_due IS NOT NULL AND next_due < $", bound(*f.DueBefore))
		order = ` ORDER BY next_due, id`
	}
	if f.ConsequenceBefore != nil {
		q.where("next_consequence IS NOT NULL AND next_consequence < $", bound(*f.ConsequenceBefore))
		order = ` ORDER BY next_consequence, id`
	}
	if f.After != "" {
		q.where("id > $", string(f.After))
	}
	rows, err := s.pool.Query(ctx, `SELECT `+caseColumns+` FROM cases`+q.clause()+order+` LIMIT `+q.arg(f.Limit), q.args...)
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
	q := caseQuery(f)
	rows, err := s.pool.Query(ctx, `SELECT state, count(*) FROM cases`+q.clause()+` GROUP BY state`, q.args...)
	if err != nil {
		return nil, internal("case counts", err)
	}
	defer rows.Close()
	out := map[state.State]int{}
	for rows.Next() {
		var st string
		var n int64
		if err := rows.Scan(&st, &n); err != nil {
			return nil, internal("case counts", err)
		}
		out[state.State(st)] = int(n)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("case counts", err)
	}
	return out, nil
}

// query gathers the conditions of a WHERE clause and their arguments.
type query struct {
	conds []string
	args  []any
}

// arg adds an argument and returns its placeholder.
func (q *query) arg(v any) string {
	q.args = append(q.args, v)
	return "$" + strconv.Itoa(len(q.args))
}

// where adds a condition whose every "$" is v's placeholder.
func (q *query) where(cond string, v any) {
	q.conds = append(q.conds, strings.ReplaceAll(cond, "$", q.arg(v)))
}

func (q *query) clause() string {
	if len(q.conds) == 0 {
		return ""
	}
	return ` WHERE ` + strings.Join(q.conds, " AND ")
}

// caseQuery returns the conditions of f that select cases (not those that order or
// page them).
func caseQuery(f solidarity.CaseFilter) query {
	var q query
	if f.Arrival != nil {
		q.where("arrival = $", string(*f.Arrival))
	}
	if f.Family != nil {
		q.where("family = $", string(*f.Family))
	}
	if f.Involving != nil {
		q.where("(benefitting = $ OR allocated = $)", string(*f.Involving))
	}
	if f.Open {
		q.conds = append(q.conds, "closed IS NULL")
	}
	if f.ClosedBefore != nil {
		q.where("closed IS NOT NULL AND closed < $", bound(*f.ClosedBefore))
	}
	if f.NotErased {
		q.conds = append(q.conds, "erased IS NULL")
	}
	return q
}

func scanCase(row pgx.Row) (*solidarity.CaseRecord, error) {
	var c solidarity.CaseRecord
	var id, arrival, family, benefitting, allocated, responsible string
	var flow []byte
	var nextDue, closed, erased, nextConsequence *time.Time
	if err := row.Scan(&id, &arrival, &family, &benefitting, &allocated, &responsible, &c.State, &flow,
		&nextDue, &c.Personal, &c.Opened, &closed, &erased, &c.Version, &nextConsequence); err != nil {
		return nil, err
	}
	c.NextConsequence = timeOrZero(nextConsequence)
	c.ID, c.Arrival, c.Family = solidarity.CaseID(id), solidarity.ArrivalID(arrival), solidarity.FamilyID(family)
	c.Benefitting, c.Allocated, c.Responsible = solidarity.MemberState(benefitting),
		solidarity.MemberState(allocated), solidarity.MemberState(responsible)
	c.Flow = flow
	c.Opened = c.Opened.UTC()
	c.NextDue, c.Closed, c.Erased = timeOrZero(nextDue), timeOrZero(closed), timeOrZero(erased)
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
	seqs := make([]int64, len(as))
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		b := &pgx.Batch{}
		for i, a := range as {
			b.Queue(`INSERT INTO access_log (at, actor, role, state, case_id, purpose)
				VALUES ($1, $2, $3, $4, $5, $6) RETURNING seq`,
				pgTime(a.At), a.Actor, string(a.Role), string(a.State), string(a.Case), a.Purpose,
			).QueryRow(func(row pgx.Row) error { return row.Scan(&seqs[i]) })
		}
		return tx.SendBatch(ctx, b).Close()
	})
	if err != nil {
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
	q := accessWhere(f)
	order := "seq DESC"
	if f.Oldest {
		order = "seq"
	}
	rows, err := s.pool.Query(ctx, `SELECT `+accessColumns+` FROM access_log`+q.clause()+
		` ORDER BY `+order+` LIMIT `+q.arg(f.Limit), q.args...)
	if err != nil {
		return nil, internal("access log", err)
	}
	defer rows.Close()
	var out []*solidarity.Access
	for rows.Next() {
		var a solidarity.Access
		var role, state, caseID string
		if err := rows.Scan(&a.Seq, &a.At, &a.Actor, &role, &state, &caseID, &a.Purpose); err != nil {
			return nil, internal("access log", err)
		}
		a.At = a.At.UTC()
		a.Role, a.State, a.Case = solidarity.Role(role), solidarity.MemberState(state), solidarity.CaseID(caseID)
		out = append(out, &a)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("access log", err)
	}
	return out, nil
}

// CountAccess implements solidarity.CaseStore.
func (s *Store) CountAccess(ctx context.Context, f solidarity.AccessFilter) (int64, error) {
	f, err := f.Normalize()
	if err != nil {
		return 0, err
	}
	q := accessWhere(f)
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM access_log`+q.clause(), q.args...).Scan(&n); err != nil {
		return 0, internal("count access", err)
	}
	return n, nil
}

// accessWhere is the condition of a normalised filter. Case and actor compare
// lower-cased (the filter ignores case).
func accessWhere(f solidarity.AccessFilter) *query {
	q := &query{}
	if f.Case != nil {
		q.where(`lower(case_id COLLATE "C") = $`, solidarity.FoldASCII(string(*f.Case)))
	}
	if f.Actor != nil {
		q.where(`lower(actor COLLATE "C") = $`, solidarity.FoldASCII(*f.Actor))
	}
	if f.Role != nil {
		q.where("role = $", string(*f.Role))
	}
	if !f.From.IsZero() {
		q.where("at >= $", f.From.UTC())
	}
	if !f.To.IsZero() {
		q.where("at < $", f.To.UTC())
	}
	if f.BeforeSeq > 0 {
		q.where("seq < $", f.BeforeSeq)
	}
	if f.AfterSeq > 0 {
		q.where("seq > $", f.AfterSeq)
	}
	return q
}

// CountArrivals implements solidarity.CaseStore.
func (s *Store) CountArrivals(ctx context.Context, f solidarity.ArrivalFilter) (int64, error) {
	f, err := f.Normalize()
	if err != nil {
		return 0, err
	}
	q := arrivalWhere(f)
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM arrivals`+q.clause(), q.args...).Scan(&n); err != nil {
		return 0, internal("count arrivals", err)
	}
	return n, nil
}

// arrivalWhere is the condition of a normalised filter but its After.
func arrivalWhere(f solidarity.ArrivalFilter) *query {
	q := &query{}
	if f.Benefitting != nil {
		q.where("benefitting = $", string(*f.Benefitting))
	}
	if f.Involving != nil {
		q.where("(benefitting = $ OR id IN (SELECT arrival FROM cases WHERE allocated = $))", string(*f.Involving))
	}
	return q
}
