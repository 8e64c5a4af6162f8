// Package ledger defines the hash chain of the solidarity ledger: the canonical
// encoding of an entry, its SHA-256 hash, and the verification of a whole chain.
//
// Each entry's hash covers every field of the entry and the previous entry's hash, so
// changing, removing or reordering any entry breaks every later link. Verification
// names the first entry that does not match.
//
// The delivery totals the stores keep beside the chain are sums of Delta, one amount
// per delivery type of the measures (solidarity.Deliveries); Sum, Project and
// VerifyProjection are the reference the stores' totals must equal.
//
// public.go is the public download of the chain (Publish, one JSON line per entry,
// case-flow entries redacted) and its offline check, VerifyPublic.
package ledger

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"iter"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"solidarity"
)

// Version is the first line of every canonical encoding; a change to the encoding must
// change it.
const Version = "solidarity-ledger-v1"

// Canonical returns the bytes that are hashed: the version line, then each field as
// "name len:value\n". Lengths make the encoding unambiguous whatever the values hold.
// Times are UTC with microsecond precision, which both databases keep exactly.
func Canonical(e *solidarity.Entry) []byte {
	var b bytes.Buffer
	b.WriteString(Version)
	b.WriteByte('\n')
	field := func(name, v string) {
		b.WriteString(name)
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(len(v)))
		b.WriteByte(':')
		b.WriteString(v)
		b.WriteByte('\n')
	}
	field("seq", strconv.FormatInt(e.Seq, 10))
	field("cycle", strconv.Itoa(e.Cycle))
	field("type", string(e.Type))
	field("state", string(e.State))
	field("ref", e.Ref)
	field("actor", e.Actor)
	field("at", e.At.UTC().Format("2006-01-02T15:04:05.000000Z"))
	field("legal_basis", e.LegalBasis)
	field("payload", string(e.Payload))
	field("prev_hash", e.PrevHash)
	return b.Bytes()
}

// Hash returns the hex SHA-256 of e's canonical encoding.
func Hash(e *solidarity.Entry) string {
	sum := sha256.Sum256(Canonical(e))
	return hex.EncodeToString(sum[:])
}

// Normalize rounds At to what the databases store (microseconds, UTC).
func Normalize(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// Seal fills in e.PrevHash and e.Hash given the previous entry's hash.
func Seal(e *solidarity.Entry, prevHash string) {
	e.At = Normalize(e.At)
	e.PrevHash = prevHash
	e.Hash = Hash(e)
}

// Payload encodes v as compact JSON for an entry. The encoding of a Go struct is
// deterministic (fields in declaration order), which is all the chain needs: the
// stored bytes are what is hashed.
func Payload(v any) (json.RawMessage, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// Verification is the result of checking a chain.
type Verification struct {
	OK       bool      `json:"ok"`
	Entries  int64     `json:"entries"`
	Head     string    `json:"head,omitempty"`    // hash of the last entry checked
	BadSeq   int64     `json:"bad_seq,omitempty"` // the first entry that does not match
	Problem  string    `json:"problem,omitempty"` // what is wrong with it
	Verified time.Time `json:"verified_at"`
	// BadTotals is the first row of the totals projection that differs from the sum
	// of the entries (VerifyProjection), when the chain itself is good.
	BadTotals *TotalsMismatch `json:"bad_totals,omitempty"`
}

// TotalsMismatch names a figure of the totals projection that is not the sum of the
// entries: the published balances read the projection, so a changed row changes them.
type TotalsMismatch struct {
	Cycle       int                    `json:"cycle"`
	State       solidarity.MemberState `json:"state"`
	Type        solidarity.EntryType   `json:"type"`          // the delivery type of the figure
	Day         string                 `json:"day,omitempty"` // of the daily totals; "" for the cycle's
	Stored      int64                  `json:"stored"`
	FromEntries int64                  `json:"from_entries"`
}

// Verify checks a chain given in sequence order: sequence numbers 1, 2, 3, ...,
// each prev_hash equal to the previous hash, each hash equal to the recomputed one.
// It stops at the first bad entry, or at the first error of the iterator.
func Verify(entries iter.Seq2[*solidarity.Entry, error], now time.Time) (*Verification, error) {
	v := &Verification{OK: true, Verified: now}
	prev := ""
	for e, err := range entries {
		if err != nil {
			return nil, err
		}
		want := v.Entries + 1
		bad := func(format string, args ...any) {
			v.OK, v.BadSeq, v.Problem = false, e.Seq, fmt.Sprintf(format, args...)
		}
		switch {
		case e.Seq != want:
			bad("sequence number %d where %d was expected (an entry is missing or was inserted)", e.Seq, want)
		case e.PrevHash != prev:
			bad("prev_hash %.12s… does not match the hash of entry %d (%.12s…)", e.PrevHash, want-1, prev)
		case Hash(e) != e.Hash:
			bad("content does not match its hash %.12s… (the entry was changed after it was written)", e.Hash)
		}
		if !v.OK {
			if v.BadSeq == 0 {
				v.BadSeq = want
			}
			return v, nil
		}
		v.Entries++
		prev = e.Hash
		v.Head = e.Hash
	}
	return v, nil
}

// VerifyProjection checks the chain as Verify does and then, when the chain is good,
// that every figure of p — the totals per cycle and state, and per cycle, state and
// day — is the sum of the deliveries among the entries up to p.Seq (Delta); it names
// the first figure that is not, in the order of cycle, state, day and delivery type. A
// row missing on either side counts as zeros.
func VerifyProjection(entries iter.Seq2[*solidarity.Entry, error], p *solidarity.Projection, now time.Time) (*Verification, error) {
	pr := projector{upTo: p.Seq, sums: map[projKey]solidarity.Totals{}}
	counted := func(yield func(*solidarity.Entry, error) bool) {
		for e, err := range entries {
			if err == nil {
				pr.add(e)
			}
			if !yield(e, err) {
				return
			}
		}
	}
	v, err := Verify(counted, now)
	if err != nil || !v.OK {
		return v, err
	}
	sums := pr.sums
	switch {
	case pr.err != nil:
		v.OK, v.BadSeq, v.Problem = false, pr.badSeq, fmt.Sprintf("delivery cannot be summed: %v", pr.err)
		return v, nil
	case p.Seq > v.Entries:
		v.OK, v.Problem = false, fmt.Sprintf("the totals projection includes entry %d, beyond the %d entries of the chain", p.Seq, v.Entries)
		return v, nil
	}
	stored := map[projKey]solidarity.Totals{}
	for _, t := range p.Totals {
		stored[projKey{t.Cycle, t.State, ""}] = t
	}
	for _, t := range p.Daily {
		if t.Day == "" {
			t.Day = "?" // a daily row must name its day
		}
		stored[projKey{t.Cycle, t.State, t.Day}] = t.Totals
	}
	keys := make([]projKey, 0, len(stored)+len(sums))
	for _, m := range []map[projKey]solidarity.Totals{stored, sums} {
		for k := range m {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b projKey) int {
		return cmp.Or(cmp.Compare(a.cycle, b.cycle), strings.Compare(string(a.state), string(b.state)), strings.Compare(a.day, b.day))
	})
	keys = slices.Compact(keys)
	for _, k := range keys {
		got, want := stored[k], sums[k]
		for i, d := range solidarity.Deliveries() {
			if got.Delivered[i] == want.Delivered[i] {
				continue
			}
			v.OK = false
			v.BadTotals = &TotalsMismatch{Cycle: k.cycle, State: k.state, Type: d.Type, Day: k.day, Stored: got.Delivered[i], FromEntries: want.Delivered[i]}
			what := fmt.Sprintf("the totals projection of cycle %d, %s", k.cycle, k.state)
			if k.day != "" {
				what = fmt.Sprintf("the daily totals projection of cycle %d, %s on %s", k.cycle, k.state, k.day)
			}
			v.Problem = fmt.Sprintf("%s, %s says %d where the entries up to %d sum to %d (the totals were changed outside the ledger)",
				what, d.Type, got.Delivered[i], p.Seq, want.Delivered[i])
			return v, nil
		}
	}
	return v, nil
}

// projector sums the deliveries among entries up to upTo into the rows of a
// projection, stopping at the first entry it cannot sum.
type projector struct {
	upTo   int64
	sums   map[projKey]solidarity.Totals
	err    error
	badSeq int64
}

func (pr *projector) add(e *solidarity.Entry) {
	if e.Seq > pr.upTo || pr.err != nil {
		return
	}
	d, ok, err := Delta(e)
	if err != nil {
		pr.err, pr.badSeq = err, e.Seq
		return
	}
	if !ok {
		return
	}
	for _, k := range []projKey{{e.Cycle, e.State, ""}, {e.Cycle, e.State, Day(e.At)}} {
		t, fits := AddTotals(pr.sums[k], d)
		if !fits {
			pr.err, pr.badSeq = solidarity.Overflow(solidarity.ECONFLICT, "a delivery total"), e.Seq
			return
		}
		pr.sums[k] = t
	}
}

// Project returns the projection of the entries up to upTo: the totals and daily
// totals the stores' projections must equal (VerifyProjection compares them).
func Project(entries iter.Seq2[*solidarity.Entry, error], upTo int64) (*solidarity.Projection, error) {
	pr := projector{upTo: upTo, sums: map[projKey]solidarity.Totals{}}
	for e, err := range entries {
		if err != nil {
			return nil, err
		}
		pr.add(e)
		if pr.err != nil {
			return nil, pr.err
		}
	}
	keys := slices.SortedFunc(maps.Keys(pr.sums), func(a, b projKey) int {
		return cmp.Or(cmp.Compare(a.cycle, b.cycle), strings.Compare(string(a.state), string(b.state)), strings.Compare(a.day, b.day))
	})
	p := &solidarity.Projection{Seq: upTo}
	for _, k := range keys {
		if k.day == "" {
			p.Totals = append(p.Totals, pr.sums[k])
		} else {
			p.Daily = append(p.Daily, solidarity.DayTotals{Day: k.day, Totals: pr.sums[k]})
		}
	}
	return p, nil
}

// projKey names a row of a projection: a cycle and state, and a day for the daily
// totals ("" for the cycle's).
type projKey struct {
	cycle int
	state solidarity.MemberState
	day   string
}

// Day is the UTC day of t as the daily totals name it: "2006-01-02".
func Day(t time.Time) string { return t.UTC().Format(time.DateOnly) }

// SplitAt splits the instant at for Store.TotalsAt: the daily totals count through the
// day through ("2006-01-02"), and the entries recorded from from to at (inclusive)
// are added to them; partial is false when at is the last microsecond of its UTC day,
// so that no entry need be read.
func SplitAt(at time.Time) (through string, from time.Time, partial bool) {
	at = Normalize(at)
	start := at.Truncate(24 * time.Hour)
	if next := at.Add(time.Microsecond); next.Truncate(24 * time.Hour).Equal(next) {
		return Day(at), time.Time{}, false
	}
	return Day(start.Add(-time.Microsecond)), start, true
}

// AddDeliveries adds to totals (rows in state order) the deliveries among es, and
// returns the rows in state order: what a store adds to the daily totals for the part
// of a day that TotalsAt reads from the entries.
func AddDeliveries(totals []solidarity.Totals, es []*solidarity.Entry) ([]solidarity.Totals, error) {
	byState := map[solidarity.MemberState]solidarity.Totals{}
	for _, t := range totals {
		byState[t.State] = t
	}
	for _, e := range es {
		d, ok, err := Delta(e)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		t, fits := AddTotals(byState[e.State], d)
		if !fits {
			return nil, solidarity.Overflow(solidarity.ECONFLICT, fmt.Sprintf("the %d delivery totals of %s", e.Cycle, e.State))
		}
		byState[e.State] = t
	}
	out := slices.Collect(maps.Values(byState))
	slices.SortFunc(out, func(a, b solidarity.Totals) int { return strings.Compare(string(a.State), string(b.State)) })
	return out, nil
}

// Delta returns what e adds to its state's delivery totals, and false for entries that
// are not deliveries (of any measure, measure.go). Both stores update their totals with
// it in the append transaction, so totals are always the sum over the entries.
func Delta(e *solidarity.Entry) (solidarity.Totals, bool, error) {
	t := solidarity.Totals{Cycle: e.Cycle, State: e.State}
	d, i, ok := solidarity.DeliveryOf(e.Type)
	if !ok {
		return t, false, nil
	}
	var p solidarity.DeliveryPayload
	if err := json.Unmarshal(e.Payload, &p); err != nil {
		return t, false, fmt.Errorf("ledger: entry %d: bad delivery payload: %w", e.Seq, err)
	}
	t.Delivered[i] = d.Unit().Amount(p.Relocations, p.EURCents)
	return t, true, nil
}

// AddTotals returns t with the delivery d added (its cycle and state from d), and
// false when a total would not fit an int64: an overflow is refused, never wrapped.
func AddTotals(t, d solidarity.Totals) (solidarity.Totals, bool) {
	t.Cycle, t.State = d.Cycle, d.State
	fits := true
	for i := range t.Delivered {
		var ok bool
		t.Delivered[i], ok = solidarity.AddChecked(t.Delivered[i], d.Delivered[i])
		fits = fits && ok
	}
	return t, fits
}

// Sum folds entries into delivery totals per (cycle, state): the reference the stores'
// projections must equal.
func Sum(entries iter.Seq2[*solidarity.Entry, error]) (map[[2]string]solidarity.Totals, error) {
	out := map[[2]string]solidarity.Totals{}
	for e, err := range entries {
		if err != nil {
			return nil, err
		}
		d, ok, err := Delta(e)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		k := [2]string{strconv.Itoa(e.Cycle), string(e.State)}
		t, ok := AddTotals(out[k], d)
		if !ok {
			return nil, fmt.Errorf("ledger: entry %d: %w", e.Seq, solidarity.Overflow(solidarity.ECONFLICT, fmt.Sprintf("the %d delivery totals of %s", e.Cycle, e.State)))
		}
		out[k] = t
	}
	return out, nil
}

// Fingerprint identifies a write request for idempotency: the hash of the entry as the
// caller passed it, before the store's rule check may fill in fields (the service
// numbers references and tells a changed pledge from a new one inside the check) and
// without the store's own fields (sequence number, time, hashes). A retry of the same
// request has the same fingerprint; stores keep it next to the idempotency key.
func Fingerprint(e *solidarity.Entry) string {
	c := *e
	c.Seq, c.At, c.PrevHash, c.Hash = 0, time.Time{}, "", ""
	return Hash(&c)
}

// CheckEntry refuses entries that could not be stored and read back as they were
// hashed: no entry, no type, a payload that is not JSON, or a time outside the years
// 1 to 9999. Both stores check every append with it before queueing it.
func CheckEntry(e *solidarity.Entry) error {
	switch {
	case e == nil:
		return solidarity.Errorf(solidarity.EINVALID, "no entry")
	case e.Type == "":
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "type", Message: "entry type is required"}
	case !json.Valid(e.Payload):
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "payload", Message: "payload is not valid JSON"}
	case e.At.UTC().Year() < 1 || e.At.UTC().Year() > 9999:
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "at", Message: "time out of range"}
	}
	return nil
}

// SameEntry reports whether e asks for what stored records: a retry of one request.
// Seq, hashes and At (the retry's clock) are the store's to set and not compared.
func SameEntry(stored, e *solidarity.Entry) bool {
	return stored.Cycle == e.Cycle && stored.Type == e.Type && stored.State == e.State &&
		stored.Ref == e.Ref && stored.Actor == e.Actor && stored.LegalBasis == e.LegalBasis &&
		bytes.Equal(stored.Payload, e.Payload)
}

// Paged streams entries in sequence order from a store that reads them a page at a
// time: fetch returns up to size entries after a sequence number. Both stores' All use
// it, so neither holds the whole ledger in memory nor a read open between pages.
func Paged(size int, fetch func(after int64, size int) ([]*solidarity.Entry, error)) iter.Seq2[*solidarity.Entry, error] {
	return func(yield func(*solidarity.Entry, error) bool) {
		var after int64
		for {
			page, err := fetch(after, size)
			if err != nil {
				yield(nil, err)
				return
			}
			for _, e := range page {
				if !yield(e, nil) {
					return
				}
			}
			if len(page) < size {
				return
			}
			after = page[len(page)-1].Seq
		}
	}
}
