package sqlite

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"strings"
	"sync/atomic"
	"time"

	"solidarity"
	"solidarity/cases/state"
	"solidarity/internal/groupcommit"
	"solidarity/ledger"
)

// queryer is what both *sql.DB and *sql.Tx offer: reads run on the read pool, or
// inside the batch transaction for a check.
type queryer interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
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
// running the check. The View's queries run on the writer connection with the batch's
// context whatever context check passes them; a context that has ended fails the query
// at once, before it starts.
//
// If ctx ends while the append waits, Append returns an error wrapping ctx.Err(). When
// the writer had not taken the append yet, nothing is written; when it had, the append
// may still commit: a retry under the same idempotency key then replays it.
func (s *Store) Append(ctx context.Context, idemKey string, e *solidarity.Entry, check func(solidarity.View) error) (*solidarity.Entry, bool, error) {
	return s.w.Append(ctx, idemKey, e, check)
}

// maxBatch caps the appends of one transaction, and so the wait of the last of them.
const maxBatch = 256

// batchTimeout bounds one batch transaction, so that a stuck database fails the batch
// rather than holding the writer for ever.
const batchTimeout = time.Minute

// batch is the transaction in which the writer appends one group of requests
// (groupcommit.Tx), with the chain's head so far. It is used on the writer goroutine
// only.
type batch struct {
	ctx     context.Context
	tx      *sql.Tx
	seq     int64
	hash    string
	written int // appends written
}

// begin opens the batch transaction (BEGIN IMMEDIATE: it takes the write lock now)
// and reads the chain's head.
func (s *Store) begin(ctx context.Context, _ []*groupcommit.Request) (groupcommit.Tx, error) {
	tx, err := s.write.BeginTx(ctx, nil)
	if err != nil {
		return nil, err
	}
	b := &batch{ctx: ctx, tx: tx}
	err = tx.QueryRowContext(ctx, `SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1`).Scan(&b.seq, &b.hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		tx.Rollback()
		return nil, err
	}
	return b, nil
}

// Append implements groupcommit.Tx: it runs r in a savepoint of the batch
// transaction; an error means the transaction is unusable and the batch fails.
func (b *batch) Append(r *groupcommit.Request) error {
	wrote, err := appendOne(b.ctx, b.tx, r, b.seq, b.hash)
	if err != nil {
		return err
	}
	if wrote {
		out, _, _ := r.Result()
		b.seq, b.hash = out.Seq, out.Hash
		b.written++
	}
	return nil
}

// Commit implements groupcommit.Tx.
func (b *batch) Commit() error {
	if b.written == 0 {
		// Replays and refusals only: nothing to commit. What they read was committed.
		return b.tx.Rollback()
	}
	return b.tx.Commit()
}

// Rollback implements groupcommit.Tx.
func (b *batch) Rollback() { b.tx.Rollback() }

// appendOne runs one request inside a savepoint of the batch transaction, given the
// chain's head so far, and records its answer in r. wrote says whether it inserted an
// entry (r's answer); an error means the transaction is unusable and the batch fails.
func appendOne(ctx context.Context, tx *sql.Tx, r *groupcommit.Request, seq int64, prevHash string) (wrote bool, err error) {
	if _, err := tx.ExecContext(ctx, `SAVEPOINT append`); err != nil {
		return false, err
	}
	out, replayed, wrote, err := try(ctx, tx, r, seq, prevHash)
	if err == nil && wrote {
		if _, err := tx.ExecContext(ctx, `RELEASE SAVEPOINT append`); err != nil {
			return false, err
		}
		r.Answer(out, false, nil)
		return true, nil
	}
	// Undo whatever this append did, whichever statement failed. An error that
	// rolled back the whole transaction (SQLITE_FULL, SQLITE_IOERR, ...) took the
	// savepoint with it, and fails the batch here.
	if _, rerr := tx.ExecContext(ctx, `ROLLBACK TO SAVEPOINT append; RELEASE SAVEPOINT append`); rerr != nil {
		return false, rerr
	}
	r.Answer(out, replayed, err)
	return false, nil
}

// try is one append inside "SAVEPOINT append": the idempotency lookup, the check, the
// sealing onto the chain and the writes (the entry, the totals, the case writes of
// AppendCase). Whatever it returns other than wrote=true is undone by the caller: a
// refused case write takes its entry with it.
func try(ctx context.Context, tx *sql.Tx, r *groupcommit.Request, seq int64, prevHash string) (out *solidarity.Entry, replayed, wrote bool, err error) {
	if r.Key != "" {
		var fp sql.NullString
		// A key is the actor's own (issue 12): another actor's use of it is not a replay.
		prev, err := scanEntry(tx.QueryRowContext(ctx, `SELECT `+entryColumns+`, idem_fp FROM entries WHERE actor = ? AND idem_key = ?`,
			r.Entry.Actor, r.Key), &fp)
		switch {
		case err == nil:
			if !r.Retries(fp.String, prev) {
				return nil, false, false, solidarity.IdempotencyKeyReused(prev.Seq)
			}
			return prev, true, false, nil
		case !errors.Is(err, sql.ErrNoRows):
			return nil, false, false, internal("append", err)
		}
	}

	if r.Check != nil {
		if err := r.RunCheck(txView{tx: tx, ctx: ctx}); err != nil {
			return nil, false, false, err
		}
	}
	cw, err := r.CaseWrite() // as check left it
	if err != nil {
		return nil, false, false, err
	}

	c := *r.Entry // as check left it
	c.Payload = bytes.Clone(c.Payload)
	c.Seq = seq + 1
	ledger.Seal(&c, prevHash)
	d, isDelivery, err := ledger.Delta(&c)
	if err != nil {
		return nil, false, false, solidarity.Errorf(solidarity.EINVALID, "%v", err)
	}
	var key, fp any
	if r.Key != "" {
		key, fp = r.Key, r.Fingerprint
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO entries (`+entryColumns+`, idem_key, idem_fp)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		c.Seq, c.Cycle, string(c.Type), string(c.State), c.Ref, c.Actor, formatTime(c.At),
		c.LegalBasis, []byte(c.Payload), c.PrevHash, c.Hash, key, fp); err != nil {
		if isUnique(err) {
			return nil, false, false, solidarity.IdempotencyKeyUsed()
		}
		return nil, false, false, internal("append", err)
	}
	if isDelivery {
		if err := addTotals(ctx, tx, d, c.At); err != nil {
			return nil, false, false, err
		}
	}
	if cw != nil {
		if err := applyCases(ctx, tx, cw); err != nil {
			return nil, false, false, err
		}
	}
	return &c, false, true, nil
}

// addTotals adds the delivery d, recorded at, to its row of the totals and of the
// daily totals, summed in Go with ledger.AddTotals: SQLite's own + turns an integer
// overflow into a REAL, which would break every later read of the row, where a sum
// that does not fit must refuse the append (ECONFLICT) and write nothing.
func addTotals(ctx context.Context, tx *sql.Tx, d solidarity.Totals, at time.Time) error {
	if err := addRow(ctx, tx, d, "totals", "cycle = ? AND state = ?", d.Cycle, string(d.State)); err != nil {
		return err
	}
	return addRow(ctx, tx, d, "totals_daily", "cycle = ? AND state = ? AND day = ?", d.Cycle, string(d.State), ledger.Day(at))
}

// addRow adds d to the row of table that key (on the values keyVals) names, creating
// it: the current row is read, the sum checked, and the new figures written.
func addRow(ctx context.Context, tx *sql.Tx, d solidarity.Totals, table, key string, keyVals ...any) error {
	var cur solidarity.Totals
	cols := solidarity.DeliveryColumns()
	err := tx.QueryRowContext(ctx, `SELECT `+solidarity.DeliveryColumnList()+` FROM `+table+` WHERE `+key, keyVals...).Scan(cur.Delivered.Targets(len(cols))...)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return internal("append", err)
	}
	sum, ok := ledger.AddTotals(cur, d)
	if !ok {
		return solidarity.Overflow(solidarity.ECONFLICT, fmt.Sprintf("the %d delivery totals of %s", d.Cycle, d.State))
	}
	vals := make([]any, 0, len(cols)+len(keyVals))
	for i := range cols {
		vals = append(vals, sum.Delivered[i])
	}
	vals = append(vals, keyVals...)
	if errors.Is(err, sql.ErrNoRows) {
		keyCols := strings.NewReplacer(" = ? AND ", ", ", " = ?", "").Replace(key) // "cycle, state[, day]"
		_, err = tx.ExecContext(ctx, `INSERT INTO `+table+` (`+solidarity.DeliveryColumnList()+`, `+keyCols+`)
			VALUES (?`+strings.Repeat(", ?", len(vals)-1)+`)`, vals...)
	} else {
		_, err = tx.ExecContext(ctx, `UPDATE `+table+` SET `+assignSQL()+` WHERE `+key, vals...)
	}
	if err != nil {
		return internal("append", err)
	}
	return nil
}

// assignSQL is "relocations = ?, payments = ?, alternative = ?" for the totals
// columns of the table of measures in use: made once per table, not on every append.
func assignSQL() string {
	list := solidarity.DeliveryColumnList()
	if c := cachedAssign.Load(); c != nil && c.of == list {
		return c.sql
	}
	c := &assign{of: list, sql: strings.Join(solidarity.DeliveryColumns(), " = ?, ") + " = ?"}
	cachedAssign.Store(c)
	return c.sql
}

type assign struct {
	of  string // the columns it assigns (DeliveryColumnList)
	sql string
}

var cachedAssign atomic.Pointer[assign]

// AllTotals implements solidarity.Store: one read transaction on the read pool, which
// in WAL mode sees one snapshot for all three queries.
func (s *Store) AllTotals(ctx context.Context) (*solidarity.Projection, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, internal("totals", err)
	}
	defer tx.Rollback()
	p := &solidarity.Projection{}
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM entries`).Scan(&p.Seq); err != nil {
		return nil, internal("totals", err)
	}
	cols := solidarity.DeliveryColumnList()
	rows, err := tx.QueryContext(ctx, `SELECT cycle, state, `+cols+` FROM totals ORDER BY cycle, state`)
	if err != nil {
		return nil, internal("totals", err)
	}
	if p.Totals, err = scanTotals(rows); err != nil {
		return nil, err
	}
	rows, err = tx.QueryContext(ctx, `SELECT cycle, state, `+cols+`, day FROM totals_daily ORDER BY cycle, state, day`)
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
	return p, nil
}

// TotalsAt implements solidarity.Store: the daily totals through the day before at's
// (sum() fails on an overflow rather than wrapping), and at's day's deliveries up to
// at, read through entries_cycle_type_at, in one read transaction.
func (s *Store) TotalsAt(ctx context.Context, cycle int, at time.Time) ([]solidarity.Totals, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, internal("totals", err)
	}
	defer tx.Rollback()
	return totalsAt(ctx, tx, cycle, at)
}

// HeadTotals implements solidarity.Store: one read transaction on the read pool,
// which in WAL mode sees one snapshot from its first read (the head) to its last.
func (s *Store) HeadTotals(ctx context.Context, cycle int, at time.Time) (int64, []solidarity.Totals, error) {
	tx, err := s.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return 0, nil, internal("totals", err)
	}
	defer tx.Rollback()
	var head int64
	if err := tx.QueryRowContext(ctx, `SELECT coalesce(max(seq), 0) FROM entries`).Scan(&head); err != nil {
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
	return head, ts, nil
}

// totalsAt is TotalsAt in the read transaction tx.
func totalsAt(ctx context.Context, tx *sql.Tx, cycle int, at time.Time) ([]solidarity.Totals, error) {
	at = ledger.Normalize(at) // microseconds, as entries are stored: no rounding up in SQL
	through, from, partial := ledger.SplitAt(at)
	rows, err := tx.QueryContext(ctx, `SELECT cycle, state, sum(`+strings.Join(solidarity.DeliveryColumns(), "), sum(")+`)
		FROM totals_daily WHERE cycle = ? AND day <= ? GROUP BY cycle, state ORDER BY state`, cycle, through)
	if err != nil {
		return nil, overflowOr(err, "totals")
	}
	out, err := scanTotals(rows)
	if err != nil || !partial {
		return out, overflowOr(err, "totals")
	}
	types := solidarity.DeliveryTypes()
	args := []any{cycle}
	for _, t := range types {
		args = append(args, string(t))
	}
	es, err := queryEntries(ctx, tx, `SELECT `+entryColumns+` FROM entries
		WHERE cycle = ? AND type IN (?`+strings.Repeat(", ?", len(types)-1)+`) AND at >= ? AND at <= ? ORDER BY seq`,
		append(args, formatTime(from), formatTime(at))...)
	if err != nil {
		return nil, err
	}
	return ledger.AddDeliveries(out, es)
}

// overflowOr maps SQLite's "integer overflow" of sum() to the overflow error; any
// other error is internal.
func overflowOr(err error, op string) error {
	if err == nil {
		return nil
	}
	if strings.Contains(err.Error(), "integer overflow") {
		return solidarity.Overflow(solidarity.ECONFLICT, "a delivery total")
	}
	if _, ok := errors.AsType[*solidarity.Error](err); ok {
		return err
	}
	return internal(op, err)
}

// txView is the View a check gets: queries in the batch transaction. They run with the
// batch's context, not the caller's: a cancelled query on the writer connection could
// disturb the transaction the whole batch shares. A caller's context that has ended
// stops them before they start.
type txView struct {
	tx  *sql.Tx
	ctx context.Context
}

func (v txView) Find(ctx context.Context, cycle int, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return view{v.tx}.Find(v.ctx, cycle, types...)
}

func (v txView) FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return view{v.tx}.FindAfter(v.ctx, cycle, afterSeq, types...)
}

func (v txView) EntryHash(ctx context.Context, seq int64) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	return view{v.tx}.EntryHash(v.ctx, seq)
}

func (v txView) Totals(ctx context.Context, cycle int) ([]solidarity.Totals, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return view{v.tx}.Totals(v.ctx, cycle)
}

func (v txView) Allocated(ctx context.Context, m solidarity.MemberState, arrivalCycle int, exceptFamily solidarity.FamilyID, exceptStates ...state.State) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	return view{v.tx}.Allocated(v.ctx, m, arrivalCycle, exceptFamily, exceptStates...)
}

// Entries implements solidarity.Store.
func (s *Store) Entries(ctx context.Context, f solidarity.EntryFilter) ([]*solidarity.Entry, error) {
	f, err := f.Normalize()
	if err != nil {
		return nil, err
	}
	where, args := entryWhere(f)
	order := "seq"
	if f.Newest {
		order = "seq DESC"
	}
	return queryEntries(ctx, s.read, `SELECT `+entryColumns+` FROM entries WHERE `+where+
		` ORDER BY `+order+` LIMIT ?`, append(args, f.Limit)...)
}

// CountEntries implements solidarity.Store.
func (s *Store) CountEntries(ctx context.Context, f solidarity.EntryFilter) (int64, error) {
	f, err := f.Normalize()
	if err != nil {
		return 0, err
	}
	where, args := entryWhere(f)
	var n int64
	if err := s.read.QueryRowContext(ctx, `SELECT COUNT(*) FROM entries WHERE `+where, args...).Scan(&n); err != nil {
		return 0, internal("count entries", err)
	}
	return n, nil
}

// entryWhere is the condition of a normalised filter, with its arguments.
func entryWhere(f solidarity.EntryFilter) (string, []any) {
	where := []string{"seq > ?"}
	args := []any{f.AfterSeq}
	add := func(cond string, v any) {
		where = append(where, cond)
		args = append(args, v)
	}
	if f.BeforeSeq > 0 {
		add("seq < ?", f.BeforeSeq)
	}
	if f.Cycle != nil {
		add("cycle = ?", *f.Cycle)
	}
	if f.State != nil {
		add("state = ?", string(*f.State))
	}
	if f.Type != nil {
		add("type = ?", string(*f.Type))
	}
	if !f.From.IsZero() {
		add("at >= ?", formatTime(f.From))
	}
	if !f.To.IsZero() {
		add("at < ?", formatTime(f.To))
	}
	if f.Ref != "" {
		add(`lower(ref) LIKE ? ESCAPE '\'`, solidarity.LikePrefix(f.Ref))
	}
	return strings.Join(where, " AND "), args
}

// All implements solidarity.Store. It reads allBatch entries per query, so it holds
// neither the whole ledger in memory nor a read transaction open between batches.
func (s *Store) All(ctx context.Context) iter.Seq2[*solidarity.Entry, error] {
	return ledger.Paged(allBatch, func(after int64, size int) ([]*solidarity.Entry, error) {
		return queryEntries(ctx, s.read, `SELECT `+entryColumns+` FROM entries WHERE seq > ? ORDER BY seq LIMIT ?`, after, size)
	})
}

// Head implements solidarity.Store.
func (s *Store) Head(ctx context.Context) (int64, string, error) {
	var seq int64
	var hash string
	err := s.read.QueryRowContext(ctx, `SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1`).Scan(&seq, &hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return 0, "", internal("head", err)
	}
	return seq, hash, nil
}

// Find implements solidarity.View on the committed state.
func (s *Store) Find(ctx context.Context, cycle int, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	return view{s.read}.Find(ctx, cycle, types...)
}

// FindAfter implements solidarity.View on the committed state.
func (s *Store) FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	return view{s.read}.FindAfter(ctx, cycle, afterSeq, types...)
}

// EntryHash implements solidarity.View on the committed state.
func (s *Store) EntryHash(ctx context.Context, seq int64) (string, error) {
	return view{s.read}.EntryHash(ctx, seq)
}

// Totals implements solidarity.View on the committed state.
func (s *Store) Totals(ctx context.Context, cycle int) ([]solidarity.Totals, error) {
	return view{s.read}.Totals(ctx, cycle)
}

// Allocated implements solidarity.View on the committed state.
func (s *Store) Allocated(ctx context.Context, m solidarity.MemberState, arrivalCycle int, exceptFamily solidarity.FamilyID, exceptStates ...state.State) (int64, error) {
	return view{s.read}.Allocated(ctx, m, arrivalCycle, exceptFamily, exceptStates...)
}

// view is a solidarity.View on the read pool or inside the batch transaction.
type view struct{ q queryer }

// Allocated reads cases_allocated (allocated, ...): a count over one state's cases.
func (v view) Allocated(ctx context.Context, m solidarity.MemberState, arrivalCycle int, exceptFamily solidarity.FamilyID, exceptStates ...state.State) (int64, error) {
	query := `SELECT count(*) FROM cases WHERE allocated = ? AND closed IS NULL AND family <> ?
		AND arrival IN (SELECT id FROM arrivals WHERE cycle = ?)`
	args := []any{string(m), string(exceptFamily), arrivalCycle}
	if len(exceptStates) > 0 {
		query += ` AND state NOT IN (?` + strings.Repeat(", ?", len(exceptStates)-1) + `)`
		for _, st := range exceptStates {
			args = append(args, string(st))
		}
	}
	var n int64
	if err := v.q.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
		return 0, internal("allocated", err)
	}
	return n, nil
}

func (v view) Find(ctx context.Context, cycle int, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	return v.FindAfter(ctx, cycle, 0, types...)
}

// FindAfter reads from entries_cycle_type (cycle, type, and seq, the rowid), from
// afterSeq on.
func (v view) FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	query := `SELECT ` + entryColumns + ` FROM entries WHERE cycle = ? AND seq > ?`
	args := []any{cycle, afterSeq}
	if len(types) > 0 {
		query += ` AND type IN (?` + strings.Repeat(", ?", len(types)-1) + `)`
		for _, t := range types {
			args = append(args, string(t))
		}
	}
	return queryEntries(ctx, v.q, query+` ORDER BY seq`, args...)
}

func (v view) EntryHash(ctx context.Context, seq int64) (string, error) {
	var hash string
	err := v.q.QueryRowContext(ctx, `SELECT hash FROM entries WHERE seq = ?`, seq).Scan(&hash)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return "", internal("entries", err)
	}
	return hash, nil
}

func (v view) Totals(ctx context.Context, cycle int) ([]solidarity.Totals, error) {
	rows, err := v.q.QueryContext(ctx, `SELECT cycle, state, `+solidarity.DeliveryColumnList()+`
		FROM totals WHERE cycle = ? ORDER BY state`, cycle)
	if err != nil {
		return nil, internal("totals", err)
	}
	return scanTotals(rows)
}

// scanTotals reads rows of (cycle, state, and the solidarity.DeliveryColumns), and closes rows.
func scanTotals(rows *sql.Rows) ([]solidarity.Totals, error) {
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
	rows, err := q.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, internal("entries", err)
	}
	defer rows.Close()
	var out []*solidarity.Entry
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

func scanEntry(row interface{ Scan(...any) error }, extra ...any) (*solidarity.Entry, error) {
	var e solidarity.Entry
	var typ, state, at string
	var payload []byte
	if err := row.Scan(append([]any{&e.Seq, &e.Cycle, &typ, &state, &e.Ref, &e.Actor, &at, &e.LegalBasis,
		&payload, &e.PrevHash, &e.Hash}, extra...)...); err != nil {
		return nil, err
	}
	t, err := parseTime(at)
	if err != nil {
		return nil, err
	}
	e.Type, e.State, e.At = solidarity.EntryType(typ), solidarity.MemberState(state), t
	e.Payload = json.RawMessage(payload)
	return &e, nil
}
