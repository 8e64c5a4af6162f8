package postgres

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"solidarity"
	"solidarity/cases/state"
	"solidarity/internal/groupcommit"
	"solidarity/ledger"
)

// maxBatch caps the appends of one transaction. Each append runs in a subtransaction
// (a savepoint) that gets a transaction id of its own; PostgreSQL keeps up to 64 of
// those per backend in shared memory, and past that every other session's snapshot
// must look them up in pg_subtrans while the batch is open. A batch stays within 64.
const maxBatch = 64

// batchTimeout bounds one batch transaction, so that a server that stops answering
// fails the batch rather than holding the writer for ever.
const batchTimeout = time.Minute

// A batch is the transaction in which the writer appends one group of requests.
//
// Round trips to the server are what an append costs, so a batch spends few. One opens
// it: the head row's lock, the lookup of every idempotency key of the batch, the first
// savepoint. An append's writes (its entry, the totals, then RELEASE of its savepoint
// and SAVEPOINT for the next append) are not sent on their own: they wait in pending
// and go in one pipeline with the next statement the batch needs, which is usually the
// first query of the next append's check, or else the head update before COMMIT. So an
// append costs the queries of its check and nothing more; a refused one costs a
// ROLLBACK TO its savepoint if its check had read anything (the savepoint stays open
// for the next append).
//
// Should a pending append's write fail, the statements after it in the pipeline are
// skipped; the batch rolls back to that append's savepoint, answers it with the error,
// seals the pending appends after it again onto the corrected head and sends them
// again with the statement that was waiting. Those appends' checks read nothing (else
// their writes would have gone out before), so they need not run again; idempotency
// keys are only decided against appends already sent.
//
// An append with case writes (AppendCase) is decided the same way: before it is
// sealed, one query (in the pipeline with the pending writes ahead of it, so it sees
// them) reads the stored versions of its cases and whether its arrivals exist, and
// refuses it as the UPDATE ... WHERE version = $n would have (checkCases). Its writes
// then wait in pending like any other. The reading and the writing cannot disagree:
// only the writer holding the head row's lock writes cases.
type batch struct {
	ctx  context.Context
	tx   pgx.Tx
	seq  int64 // the head: the last append sent or pending
	hash string
	// known holds the entries of the batch's idempotency keys (by actorKey: a key is
	// its actor's own), the committed ones and those this transaction has written.
	known   map[string]*solidarity.Entry
	knownFP map[string]string // the fingerprints of known's keys ("" for old entries)
	pending []*pendingAppend
	written int   // appends sent and written
	fatal   error // the transaction is unusable: the batch fails
}

// pendingAppend is an append sealed onto the head whose writes are not sent yet.
type pendingAppend struct {
	r     *groupcommit.Request
	c     *solidarity.Entry
	delta *solidarity.Totals    // nil for entries that are not deliveries
	cases *solidarity.CaseWrite // nil for a plain append
	// writes says, for each statement statements queued, what its results mean.
	writes []write
}

// write is what a statement of a pending append may come to.
type write struct {
	// fail is the answer of the append when the statement fails.
	fail func(error) error
	// rows is the number of rows the statement must affect, or -1 for any.
	rows int64
}

// failInternal is the answer of an append whose statement failed unexpectedly.
func failInternal(err error) error { return internal("append", err) }

// statements queues the writes of p and records in p.writes what each may come to.
func (p *pendingAppend) statements(b *pgx.Batch) {
	p.writes = p.writes[:0]
	queue := func(fail func(error) error, rows int64, sql string, args ...any) {
		b.Queue(sql, args...)
		p.writes = append(p.writes, write{fail: fail, rows: rows})
	}
	c := p.c
	var key, fp *string
	if p.r.Key != "" {
		key, fp = &p.r.Key, &p.r.Fingerprint
	}
	queue(func(err error) error {
		if pgCode(err) == uniqueViolation {
			return solidarity.IdempotencyKeyUsed()
		}
		return failInternal(err)
	}, -1, `INSERT INTO entries (`+entryColumns+`, idem_key, idem_fp)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
		c.Seq, c.Cycle, string(c.Type), string(c.State), c.Ref, c.Actor, c.At,
		c.LegalBasis, []byte(c.Payload), c.PrevHash, c.Hash, key, fp)
	if d := p.delta; d != nil {
		args := append([]any{d.Cycle, string(d.State)}, d.Delivered.Args(len(solidarity.Deliveries()))...)
		queue(failTotals, -1, addTotals("totals", "cycle, state"), args...)
		args = append([]any{d.Cycle, string(d.State), ledger.Day(c.At)}, d.Delivered.Args(len(solidarity.Deliveries()))...)
		queue(failTotals, -1, addTotals("totals_daily", "cycle, state, day"), args...)
	}
	if w := p.cases; w != nil {
		caseStatements(w, queue)
	}
	queue(failInternal, -1, `RELEASE SAVEPOINT append`)
	queue(failInternal, -1, `SAVEPOINT append`)
}

// begin opens the batch transaction: it locks the head row, which serialises the
// writers of every process on this database, reads the head, looks up the batch's
// idempotency keys and opens the first savepoint, in one round trip. Under READ
// COMMITTED each statement sees what the previous holder of the lock committed, and no
// other writer can add a key before this transaction ends.
func (s *Store) begin(ctx context.Context, reqs []*groupcommit.Request) (groupcommit.Tx, error) {
	tx, err := s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.ReadCommitted})
	if err != nil {
		return nil, err
	}
	b := &batch{ctx: ctx, tx: tx, known: map[string]*solidarity.Entry{}, knownFP: map[string]string{}}
	var actors, keys []string
	for _, r := range reqs {
		if r.Key != "" {
			actors, keys = append(actors, r.Entry.Actor), append(keys, r.Key)
		}
	}
	pb := &pgx.Batch{}
	pb.Queue(`SELECT seq, hash FROM head FOR UPDATE`).QueryRow(func(row pgx.Row) error {
		return row.Scan(&b.seq, &b.hash)
	})
	if len(keys) > 0 {
		pb.Queue(`SELECT `+entryColumns+`, idem_key, idem_fp FROM entries
			WHERE (actor, idem_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`, actors, keys).Query(func(rows pgx.Rows) error {
			for rows.Next() {
				var key string
				var fp *string
				e, err := scanEntry(rows, &key, &fp)
				if err != nil {
					return err
				}
				k := actorKey(e.Actor, key)
				b.known[k] = e
				if fp != nil {
					b.knownFP[k] = *fp
				}
			}
			return rows.Err()
		})
	}
	pb.Queue(`SAVEPOINT append`)
	if err := tx.SendBatch(ctx, pb).Close(); err != nil {
		tx.Rollback(ctx)
		return nil, err
	}
	return b, nil
}

// Append implements groupcommit.Tx: it runs one request in the open savepoint and
// records its answer in r (for an append still pending, the answer it will have if its
// writes succeed). It returns b.fatal, set if the transaction became unusable.
func (b *batch) Append(r *groupcommit.Request) error {
	b.append(r)
	return b.fatal
}

func (b *batch) append(r *groupcommit.Request) {
	if r.Key != "" {
		// A key is decided against appends already written.
		for b.pendingKey(r) && b.fatal == nil {
			b.flush(nil)
		}
		if b.fatal != nil {
			return
		}
		if prev, ok := b.known[actorKey(r.Entry.Actor, r.Key)]; ok {
			if !r.Retries(b.knownFP[actorKey(r.Entry.Actor, r.Key)], prev) {
				r.Answer(nil, false, solidarity.IdempotencyKeyReused(prev.Seq))
				return
			}
			replay := *prev
			replay.Payload = bytes.Clone(prev.Payload)
			r.Answer(&replay, true, nil)
			return
		}
	}

	if r.Check != nil {
		v := &txView{b: b}
		err := r.RunCheck(v)
		if b.fatal != nil {
			return
		}
		if v.failed || (err != nil && v.used && r.Panicked() != nil) {
			// A query failed (which aborts the transaction until the savepoint is
			// rolled back to) or was cut short: undo, and refuse the append.
			if _, rerr := b.tx.Exec(b.ctx, `ROLLBACK TO SAVEPOINT append`); rerr != nil {
				b.setFatal(rerr)
				return
			}
			if err == nil {
				err = internal("append", errors.New("a query of the check failed"))
			}
		}
		if err != nil {
			r.Answer(nil, false, err)
			return
		}
	}
	cw, err := r.CaseWrite() // as check left it
	if err == nil && cw != nil {
		err = b.checkCases(cw)
	}
	if b.fatal != nil {
		return
	}
	if err != nil {
		r.Answer(nil, false, err)
		return
	}

	c := *r.Entry // as check left it
	c.Payload = bytes.Clone(c.Payload)
	c.Seq = b.seq + 1
	ledger.Seal(&c, b.hash)
	d, isDelivery, err := ledger.Delta(&c)
	if err != nil {
		r.Answer(nil, false, solidarity.Errorf(solidarity.EINVALID, "%v", err))
		return
	}
	p := &pendingAppend{r: r, c: &c, cases: cw}
	if isDelivery {
		p.delta = &d
	}
	b.pending = append(b.pending, p)
	b.seq, b.hash = c.Seq, c.Hash
	r.Answer(&c, false, nil)
}

// actorKey is the map key of an idempotency key of actor.
func actorKey(actor, key string) string { return actor + "\x00" + key }

func (b *batch) pendingKey(r *groupcommit.Request) bool {
	for _, p := range b.pending {
		if p.r.Key == r.Key && p.r.Entry.Actor == r.Entry.Actor {
			return true
		}
	}
	return false
}

func (b *batch) setFatal(err error) {
	if err != nil && b.fatal == nil {
		b.fatal = err
	}
}

// flush sends the pending writes followed by the statement extra queues (if any), in
// one pipeline. It returns the results positioned at extra's, which the caller reads
// and closes; or nil if a pending write failed (the batch then rolled back to that
// append's savepoint, answered it, and put the appends after it back in pending,
// sealed anew: extra must be queued again) or if the transaction became unusable
// (b.fatal).
func (b *batch) flush(extra func(*pgx.Batch)) pgx.BatchResults {
	pb := &pgx.Batch{}
	for _, p := range b.pending {
		p.statements(pb)
	}
	if extra != nil {
		extra(pb)
	}
	if len(pb.QueuedQueries) == 0 {
		return nil
	}
	br := b.tx.SendBatch(b.ctx, pb)
	pending := b.pending
	b.pending = nil
	for i, p := range pending {
		for _, w := range p.writes {
			tag, err := br.Exec()
			if err != nil {
				br.Close()
				b.undo(pending[i:], w.fail(err))
				return nil
			}
			if w.rows >= 0 && tag.RowsAffected() != w.rows {
				// checkCases read otherwise, so something wrote cases without the
				// head row's lock. The statements after this one have run (RELEASE
				// included): the append cannot be undone alone. Fail the batch.
				br.Close()
				b.setFatal(fmt.Errorf("a case write of entry %d affected %d rows, not %d: cases were written outside the writer",
					p.c.Seq, tag.RowsAffected(), w.rows))
				return nil
			}
		}
		b.written++
		if p.r.Key != "" {
			b.known[actorKey(p.c.Actor, p.r.Key)] = p.c
			b.knownFP[actorKey(p.c.Actor, p.r.Key)] = p.r.Fingerprint
		}
	}
	if extra == nil {
		b.setFatal(br.Close())
		return nil
	}
	return br
}

// undo handles the failure of the first of pending's writes: it rolls back to that
// append's savepoint, answers it with answer (what the failed statement means), and
// seals the appends after it onto the head before it, back in pending.
func (b *batch) undo(pending []*pendingAppend, answer error) {
	if _, rerr := b.tx.Exec(b.ctx, `ROLLBACK TO SAVEPOINT append`); rerr != nil {
		b.setFatal(rerr)
		return
	}
	failed := pending[0]
	failed.r.Answer(nil, false, answer)
	b.seq, b.hash = failed.c.Seq-1, failed.c.PrevHash
	for _, p := range pending[1:] {
		p.c.Seq = b.seq + 1
		ledger.Seal(p.c, b.hash)
		b.seq, b.hash = p.c.Seq, p.c.Hash
		b.pending = append(b.pending, p)
	}
}

// Commit implements groupcommit.Tx: it sends the pending writes with the head's update
// and commits; with nothing written it rolls back instead (what replays and refusals
// read was committed).
func (b *batch) Commit() error {
	for {
		if b.fatal != nil {
			return b.fatal
		}
		if b.written == 0 && len(b.pending) == 0 {
			return b.tx.Rollback(b.ctx)
		}
		seq, hash := b.seq, b.hash
		br := b.flush(func(pb *pgx.Batch) {
			pb.Queue(`UPDATE head SET seq = $1, hash = $2`, seq, hash)
		})
		if br == nil {
			continue
		}
		_, err := br.Exec()
		if cerr := br.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
		return b.tx.Commit(b.ctx)
	}
}

// Rollback implements groupcommit.Tx.
func (b *batch) Rollback() { b.tx.Rollback(b.ctx) }

// txView is the View a check gets: queries in the batch transaction, the first of
// them in one pipeline with the pending writes. They run with the batch's context, not
// the caller's, since cancelling a statement would break the transaction the whole
// batch shares; a caller's context that has ended stops them before they start.
type txView struct {
	b      *batch
	used   bool // a query was sent
	failed bool // a query failed
}

func (v *txView) Find(ctx context.Context, cycle int, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	if err := v.start(ctx); err != nil {
		return nil, err
	}
	es, err := view{batchQueryer{v.b}}.Find(v.b.ctx, cycle, types...)
	v.failed = v.failed || err != nil
	return es, err
}

func (v *txView) FindAfter(ctx context.Context, cycle int, afterSeq int64, types ...solidarity.EntryType) ([]*solidarity.Entry, error) {
	if err := v.start(ctx); err != nil {
		return nil, err
	}
	es, err := view{batchQueryer{v.b}}.FindAfter(v.b.ctx, cycle, afterSeq, types...)
	v.failed = v.failed || err != nil
	return es, err
}

func (v *txView) EntryHash(ctx context.Context, seq int64) (string, error) {
	if err := v.start(ctx); err != nil {
		return "", err
	}
	h, err := view{batchQueryer{v.b}}.EntryHash(v.b.ctx, seq)
	v.failed = v.failed || err != nil
	return h, err
}

func (v *txView) Totals(ctx context.Context, cycle int) ([]solidarity.Totals, error) {
	if err := v.start(ctx); err != nil {
		return nil, err
	}
	ts, err := view{batchQueryer{v.b}}.Totals(v.b.ctx, cycle)
	v.failed = v.failed || err != nil
	return ts, err
}

func (v *txView) Allocated(ctx context.Context, m solidarity.MemberState, arrivalCycle int, exceptFamily solidarity.FamilyID, exceptStates ...state.State) (int64, error) {
	if err := v.start(ctx); err != nil {
		return 0, err
	}
	n, err := view{batchQueryer{v.b}}.Allocated(v.b.ctx, m, arrivalCycle, exceptFamily, exceptStates...)
	v.failed = v.failed || err != nil
	return n, err
}

func (v *txView) start(ctx context.Context) error {
	if v.b.fatal != nil {
		return internal("append", v.b.fatal)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	v.used = true
	return nil
}

// batchQueryer sends a View's queries in the batch transaction, with the pending
// writes ahead of them in the same pipeline.
type batchQueryer struct{ b *batch }

func (q batchQueryer) SendBatch(ctx context.Context, qb *pgx.Batch) pgx.BatchResults {
	b := q.b
	for len(b.pending) > 0 && b.fatal == nil {
		// Queued afresh at each attempt: pgx keeps in a queued query the prepared
		// statement it used, which a failed pipeline deallocates.
		br := b.flush(func(pb *pgx.Batch) {
			for _, q := range qb.QueuedQueries {
				pb.Queue(q.SQL, q.Arguments...)
			}
		})
		if br != nil {
			return br
		}
	}
	if b.fatal != nil {
		return failedResults{b.fatal}
	}
	return b.tx.SendBatch(ctx, qb)
}

// failedResults are the results of a pipeline that was not sent.
type failedResults struct{ err error }

func (r failedResults) Exec() (pgconn.CommandTag, error) { return pgconn.CommandTag{}, r.err }
func (r failedResults) Query() (pgx.Rows, error)         { return nil, r.err }
func (r failedResults) QueryRow() pgx.Row                { return failedRow(r) }
func (r failedResults) Close() error                     { return r.err }
func (r failedResults) Tx() pgx.Tx                       { return nil }

type failedRow struct{ err error }

func (r failedRow) Scan(...any) error { return r.err }
