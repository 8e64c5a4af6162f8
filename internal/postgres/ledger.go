package postgres

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"iter"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/jackc/pgx/v5"

	"solidarity"
	"solidarity/cases/state"
	"solidarity/ledger"
)

// queryer is what the pool offers, for the reads outside the writer.
type queryer interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}

// allBatch is how many entries All reads per query.
const allBatch = 500

const entryColumns = `seq, cycle, type, state, ref, actor, at, legal_basis, payload, prev_hash, hash`

// Append implements solidarity.Store with group commit (internal/groupcommit): the
// append is checked (ledger.CheckEntry) and queued for the writer, which commits it
// with whatever other appends were waiting, and Append returns once that transaction
// has committed (or failed).
//
// check runs on the writer goroutine, inside the batch transaction, and sees the
// committed ledger plus the appends before this one in the batch. It must read only
// through the View it is given: a call to the Store would wait for the writer that is
// running the check. The View's queries run on the batch's connection whatever context
// check passes them; a context that has ended fails the query at once, before it starts.
//
// If ctx ends while the append waits, Append returns an error wrapping ctx.Err(). When
// the writer had not taken the append yet, nothing is written; when it had, the append
// may still commit: a retry under the same idempotency key then replays it.
func (s *Store) Append(ctx context.Context, idemKey string, e *solidarity.Entry, check func(solidarity.View) error) (*solidarity.Entry, bool, error) {
	if s.readOnly {
		return nil, false, errReadOnly
	}
	return s.w.Append(ctx, idemKey, e, check)
}

// Entries implements solidarity.Store.
func (s *Store) Entries(ctx context.Context, f solidarity.EntryFilter) ([]*solidarity.Entry, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, err
	}
	q := entryWhere(f)
	order := "seq"
	if f.Newest {
		order = "seq DESC"
	}
	return queryEntries(ctx, s.pool, `SELECT `+entryColumns+` FROM entries`+q.clause()+
		` ORDER BY `+order+` LIMIT `+q.arg(f.Limit), q.args...)
}

// CountEntries implements solidarity.Store.
func (s *Store) CountEntries(ctx context.Context, f solidarity.EntryFilter) (int64, error) {
	f, err := f.Normalize()
	if err != nil {
		return 0, err
	}
	q := entryWhere(f)
	var n int64
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*) FROM entries`+q.clause(), q.args...).Scan(&n); err != nil {
		return 0, internal("count entries", err)
	}
	return n, nil
}

// entryWhere is the condition of a normalised filter.
func entryWhere(f solidarity.EntryFilter) *query {
	q := &query{}
	q.where("seq > $", f.AfterSeq)
	if f.BeforeSeq > 0 {
		q.where("seq < $", f.BeforeSeq)
	}
	if f.Cycle != nil {
		q.where("cycle = $", *f.Cycle)
	}
	if f.State != nil {
		q.where("state = $", string(*f.State))
	}
	if f.Type != nil {
		q.where("type = $", string(*f.Type))
	}
	if !f.From.IsZero() {
		q.where("at >= $", f.From.UTC())
	}
	if !f.To.IsZero() {
		q.where("at < $", f.To.UTC())
	}
	if f.Ref != "" {
		q.where(`lower(ref COLLATE "C") LIKE $ ESCAPE '\'`, solidarity.LikePrefix(f.Ref))
	}
	return q
}

// All implements solidarity.Store. It reads allBatch entries per query, so it holds
// neither the whole ledger in memory nor a connection between batches.
func (s *Store) All(ctx context.Context) iter.Seq2[*solidarity.Entry, error] {
	return ledger.Paged(allBatch, func(after int64, size int) ([]*solidarity.Entry, error) {
		return queryEntries(ctx, s.pool, `SELECT `+entryColumns+` FROM entries WHERE seq > $1 ORDER BY seq LIMIT $2`, after, size)
	})
}

// Head implements solidarity.Store.
func (s *Store) Head(ctx context.Context) (int64, string, error) {
	var seq int64
	var hash string
	if err := s.pool.QueryRow(ctx, `SELECT seq, hash FROM head`).Scan(&seq, &hash); err != nil {
		return 0, "", internal("head", err)
	}
	return seq, hash, nil
}

// Find implements solidarity.View on the committed state, in one snapshot.
func (s *Store) Find(ctx context.Context, cycle int, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	return view{snapshot{s.pool}}.Find(ctx, cycle, types...)
}

// FindAfter implements solidarity.View on the committed state, in one snapshot.
func (s *Store) FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	return view{snapshot{s.pool}}.FindAfter(ctx, cycle, afterSeq, types...)
}

// snapshot sends a pipeline of several queries in one REPEATABLE READ, READ ONLY
// transaction, in the same round trip. Under READ COMMITTED each statement of a
// pipeline has a snapshot of its own, so Find's query of one type could miss an entry
// that a later query of another type, after the commit of both, sees: a state read
// from it would lack an entry below its last, which the ledger service's cached state
// (extended only after its last entry) would never read again. The writer's view
// needs none: it holds the head row's lock, so nothing commits under it.
type snapshot struct{ q batcher }

func (s snapshot) SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults {
	if len(b.QueuedQueries) < 2 {
		return s.q.SendBatch(ctx, b)
	}
	tb := &pgx.Batch{}
	tb.Queue(`BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY`)
	for _, q := range b.QueuedQueries {
		tb.Queue(q.SQL, q.Arguments...)
	}
	tb.Queue(`COMMIT`) // its result is read by the caller's Close
	br := s.q.SendBatch(ctx, tb)
	if _, err := br.Exec(); err != nil {
		br.Close()
		return failedResults{err}
	}
	return br
}

// EntryHash implements solidarity.View on the committed state.
func (s *Store) EntryHash(ctx context.Context, seq int64) (string, error) {
	return view{s.pool}.EntryHash(ctx, seq)
}

// Totals implements solidarity.View on the committed state.
func (s *Store) Totals(ctx context.Context, cycle int) ([]solidarity.Totals, error) {
	return view{s.pool}.Totals(ctx, cycle)
}

// AllTotals implements solidarity.Store: a REPEATABLE READ, READ ONLY transaction, so
// that the head and the totals come from one snapshot and nothing can be written.
func (s *Store) AllTotals(ctx context.Context) (*solidarity.Projection, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, internal("totals", err)
	}
	defer tx.Rollback(ctx)
	p := &solidarity.Projection{}
	if err := tx.QueryRow(ctx, `SELECT seq FROM head`).Scan(&p.Seq); err != nil {
		return nil, internal("totals", err)
	}
	cols := solidarity.DeliveryColumnList()
	rows, err := tx.Query(ctx, `SELECT cycle, state, `+cols+` FROM totals ORDER BY cycle, state`)
	if err != nil {
		return nil, internal("totals", err)
	}
	if p.Totals, err = scanTotals(rows); err != nil {
		return nil, err
	}
	rows, err = tx.Query(ctx, `SELECT cycle, state, `+cols+`, day FROM totals_daily ORDER BY cycle, state, day`)
	if err != nil {
		return nil, internal("totals", err)
	}
	defer rows.Close()
	for rows.Next() {
		var t solidarity.DayTotals
		var state string
		dest := append(append([]any{&t.Cycle, &state}, t.Totals.Delivered.Targets(len(solidarity.Deliveries()))...), &t.Day)
		if err := rows.Scan(dest...); err != nil {
			return nil, internal("totals", err)
		}
		t.State = solidarity.MemberState(state)
		p.Daily = append(p.Daily, t)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("totals", err)
	}
	rows.Close()
	return p, tx.Commit(ctx)
}

// TotalsAt implements solidarity.Store: the daily totals through the day before at's
// (sum(bigint) is numeric; the cast back fails with 22003 rather than wrapping), and
// at's day's deliveries up to at, read through entries_cycle_type_at, in one
// REPEATABLE READ, READ ONLY transaction.
func (s *Store) TotalsAt(ctx context.Context, cycle int, at time.Time) ([]solidarity.Totals, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return nil, internal("totals", err)
	}
	defer tx.Rollback(ctx)
	out, err := totalsAt(ctx, tx, cycle, at)
	if err != nil {
		return nil, err
	}
	return out, tx.Commit(ctx)
}

// HeadTotals implements solidarity.Store: a REPEATABLE READ, READ ONLY transaction, so
// that the head and the totals come from one snapshot.
func (s *Store) HeadTotals(ctx context.Context, cycle int, at time.Time) (int64, []solidarity.Totals, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return 0, nil, internal("totals", err)
	}
	defer tx.Rollback(ctx)
	var head int64
	if err := tx.QueryRow(ctx, `SELECT seq FROM head`).Scan(&head); err != nil {
		return 0, nil, internal("head", err)
	}
	var ts []solidarity.Totals
	if at.IsZero() {
		ts, err = view{tx}.Totals(ctx, cycle)
	} else {
		ts, err = totalsAt(ctx, tx, cycle, at)
	}
	if err != nil {
		return 0, nil, err
	}
	return head, ts, tx.Commit(ctx)
}

// totalsAt is TotalsAt in the read transaction tx.
func totalsAt(ctx context.Context, tx pgx.Tx, cycle int, at time.Time) ([]solidarity.Totals, error) {
	at = ledger.Normalize(at) // microseconds, as entries are stored: no rounding up in SQL
	through, from, partial := ledger.SplitAt(at)
	rows, err := tx.Query(ctx, `SELECT cycle, state, sum(`+strings.Join(solidarity.DeliveryColumns(), ")::bigint, sum(")+`)::bigint
		FROM totals_daily WHERE cycle = $1 AND day <= $2 GROUP BY cycle, state ORDER BY state`, cycle, through)
	if err != nil {
		return nil, failTotals(err)
	}
	out, err := scanTotals(rows)
	if err != nil {
		if pgCode(err) == numericOutOfRange {
			return nil, failTotals(err)
		}
		return nil, err
	}
	if !partial {
		return out, nil
	}
	es, err := queryEntries(ctx, tx, `SELECT `+entryColumns+` FROM entries
		WHERE cycle = $1 AND type = ANY($2) AND at >= $3 AND at <= $4 ORDER BY seq`,
		cycle, deliveryTypeNames(), from, at)
	if err != nil {
		return nil, err
	}
	return ledger.AddDeliveries(out, es)
}

// addTotals is the statement that adds a delivery to its row of table (the totals or
// the daily totals), keyed by the columns key, creating the row: queued in the append's
// writes, with the key's values and then the amounts (Amounts.Args).
func addTotals(table, key string) string {
	list, cols := solidarity.DeliveryColumnList(), solidarity.DeliveryColumns()
	c := cachedAdd.Load()
	if c == nil || c.of != list {
		c = &addSQL{of: list, add: map[string]string{"totals": addTotalsSQL(cols, "totals", "cycle, state"),
			"totals_daily": addTotalsSQL(cols, "totals_daily", "cycle, state, day")}}
		cachedAdd.Store(c)
	}
	if st, ok := c.add[table]; ok {
		return st
	}
	return addTotalsSQL(cols, table, key)
}

func addTotalsSQL(cols []string, table, key string) string {
	n := strings.Count(key, ",") + 1
	params := make([]string, n+len(cols))
	for i := range params {
		params[i] = "$" + strconv.Itoa(i+1)
	}
	set := make([]string, len(cols))
	for i, c := range cols {
		set[i] = c + " = t." + c + " + excluded." + c
	}
	return `INSERT INTO ` + table + ` AS t (` + key + `, ` + strings.Join(cols, ", ") + `)
	VALUES (` + strings.Join(params, ", ") + `)
	ON CONFLICT (` + key + `) DO UPDATE SET ` + strings.Join(set, ", ")
}

// addSQL are the addTotals statements of the totals tables for the columns of the
// table of measures in use (of: DeliveryColumnList): made once per table, not on
// every append.
type addSQL struct {
	of  string
	add map[string]string
}

var cachedAdd atomic.Pointer[addSQL]

// deliveryTypeNames returns the delivery entry types, for "type = ANY($n)".
func deliveryTypeNames() []string {
	var out []string
	for _, t := range solidarity.DeliveryTypes() {
		out = append(out, string(t))
	}
	return out
}

// failTotals is the answer of a delivery whose totals update failed: PostgreSQL's
// bigint arithmetic is checked, so a sum that does not fit fails the statement
// (22003), which refuses the append (ECONFLICT) rather than answering 500.
func failTotals(err error) error {
	if pgCode(err) == numericOutOfRange {
		return solidarity.Overflow(solidarity.ECONFLICT, "a delivery total")
	}
	return failInternal(err)
}

// numericOutOfRange is SQLSTATE 22003 (numeric_value_out_of_range).
const numericOutOfRange = "22003"

// batcher is what the pool and a transaction offer, and the batch transaction of the
// writer (batchQueryer): a View's queries go in one pipeline, one round trip.
type batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// Allocated implements solidarity.View on the committed state.
func (s *Store) Allocated(ctx context.Context, m solidarity.MemberState, arrivalCycle int, exceptFamily solidarity.FamilyID, exceptStates ...state.State) (int64, error) {
	return view{s.pool}.Allocated(ctx, m, arrivalCycle, exceptFamily, exceptStates...)
}

// view is a solidarity.View on the pool or inside the batch transaction.
type view struct{ q batcher }

// Allocated counts over cases_allocated (allocated): one state's cases.
func (v view) Allocated(ctx context.Context, m solidarity.MemberState, arrivalCycle int, exceptFamily solidarity.FamilyID, exceptStates ...state.State) (int64, error) {
	except := make([]string, len(exceptStates))
	for i, st := range exceptStates {
		except[i] = string(st)
	}
	b := &pgx.Batch{}
	b.Queue(`SELECT count(*) FROM cases WHERE allocated = $1 AND closed IS NULL AND family <> $2 AND NOT (state = ANY($3))
		AND arrival IN (SELECT id FROM arrivals WHERE cycle = $4)`,
		string(m), string(exceptFamily), except, arrivalCycle)
	br := v.q.SendBatch(ctx, b)
	defer br.Close()
	var n int64
	if err := br.QueryRow().Scan(&n); err != nil {
		return 0, internal("allocated", err)
	}
	if err := br.Close(); err != nil {
		return 0, internal("allocated", err)
	}
	return n, nil
}

// Find reads each type with a query of its own, all in one pipeline (one round trip),
// and merges them in sequence order. "cycle = $1 AND type = $2 ORDER BY seq" reads in
// order from entries_cycle_type (cycle, type, seq) whatever the values, so its plan is
// right however it was made; one statement with "type = ANY($2)" cannot use the
// index's order, and a generic plan of it walks the primary key through every entry.
func (v view) Find(ctx context.Context, cycle int, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	return v.FindAfter(ctx, cycle, 0, types...)
}

// FindAfter is Find from afterSeq on: each query reads entries_cycle_type (cycle,
// type, seq) from (cycle, type, afterSeq).
func (v view) FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	b := &pgx.Batch{}
	if len(types) == 0 {
		b.Queue(`SELECT `+entryColumns+` FROM entries WHERE cycle = $1 AND seq > $2 ORDER BY seq`, cycle, afterSeq)
	} else {
		seen := make(map[solidarity.EntryType]bool, len(types))
		for _, t := range types {
			if !seen[t] {
				seen[t] = true
				b.Queue(`SELECT `+entryColumns+` FROM entries WHERE cycle = $1 AND type = $2 AND seq > $3 ORDER BY seq`, cycle, string(t), afterSeq)
			}
		}
	}
	br := v.q.SendBatch(ctx, b)
	defer br.Close()
	var out []*solidarity.Entry
	for range b.QueuedQueries {
		rows, err := br.Query()
		if err != nil {
			return nil, internal("entries", err)
		}
		if out, err = collectEntries(rows, out); err != nil {
			return nil, err
		}
	}
	if err := br.Close(); err != nil {
		return nil, internal("entries", err)
	}
	if len(b.QueuedQueries) > 1 {
		slices.SortFunc(out, func(a, b *solidarity.Entry) int { return cmp.Compare(a.Seq, b.Seq) })
	}
	return out, nil
}

// EntryHash reads the primary key.
func (v view) EntryHash(ctx context.Context, seq int64) (string, error) {
	b := &pgx.Batch{}
	b.Queue(`SELECT hash FROM entries WHERE seq = $1`, seq)
	br := v.q.SendBatch(ctx, b)
	defer br.Close()
	var hash string
	if err := br.QueryRow().Scan(&hash); err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return "", internal("entries", err)
	}
	if err := br.Close(); err != nil {
		return "", internal("entries", err)
	}
	return hash, nil
}

func (v view) Totals(ctx context.Context, cycle int) ([]solidarity.Totals, error) {
	b := &pgx.Batch{}
	b.Queue(`SELECT cycle, state, `+solidarity.DeliveryColumnList()+`
		FROM totals WHERE cycle = $1 ORDER BY state`, cycle)
	br := v.q.SendBatch(ctx, b)
	defer br.Close()
	rows, err := br.Query()
	if err != nil {
		return nil, internal("totals", err)
	}
	out, err := scanTotals(rows)
	if err != nil {
		return nil, err
	}
	if err := br.Close(); err != nil {
		return nil, internal("totals", err)
	}
	return out, nil
}

// scanTotals reads rows of (cycle, state, and the solidarity.DeliveryColumns), and closes rows.
func scanTotals(rows pgx.Rows) ([]solidarity.Totals, error) {
	defer rows.Close()
	var out []solidarity.Totals
	for rows.Next() {
		var t solidarity.Totals
		var state string
		if err := rows.Scan(append([]any{&t.Cycle, &state}, t.Delivered.Targets(len(solidarity.Deliveries()))...)...); err != nil {
			return nil, internal("totals", err)
		}
		t.State = solidarity.MemberState(state)
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("totals", err)
	}
	return out, nil
}

func queryEntries(ctx context.Context, q queryer, query string, args ...any) ([]*solidarity.Entry, error) {
	rows, err := q.Query(ctx, query, args...)
	if err != nil {
		return nil, internal("entries", err)
	}
	return collectEntries(rows, nil)
}

// collectEntries appends the entries of rows to out, and closes rows.
func collectEntries(rows pgx.Rows, out []*solidarity.Entry) ([]*solidarity.Entry, error) {
	defer rows.Close()
	for rows.Next() {
		e, err := scanEntry(rows)
		if err != nil {
			return nil, internal("entries", err)
		}
		out = append(out, e)
	}
	if err := rows.Err(); err != nil {
		return nil, internal("entries", err)
	}
	return out, nil
}

// scanEntry scans the entryColumns, then into extra.
func scanEntry(row pgx.Row, extra ...any) (*solidarity.Entry, error) {
	var e solidarity.Entry
	var typ, state string
	var at time.Time
	var payload []byte
	if err := row.Scan(append([]any{&e.Seq, &e.Cycle, &typ, &state, &e.Ref, &e.Actor, &at, &e.LegalBasis,
		&payload, &e.PrevHash, &e.Hash}, extra...)...); err != nil {
		return nil, err
	}
	e.Type, e.State, e.At = solidarity.EntryType(typ), solidarity.MemberState(state), at.UTC()
	e.Payload = json.RawMessage(payload)
	return &e, nil
}
