package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"solidarity"
	"solidarity/cases/state"
)

// CaseStore is a store that keeps the case flow beside the ledger, in one database:
// what Cases tests. Both internal/sqlite and internal/postgres are one.
type CaseStore interface {
	solidarity.Store
	solidarity.CaseStore
}

// Cases runs the conformance suite of solidarity.CaseStore. open is called once per
// case with that case's t and must return a store on an empty database.
func Cases(t *testing.T, open func(t *testing.T) CaseStore) {
	cases := []struct {
		name string
		fn   func(t *testing.T, s CaseStore)
	}{
		{"Register", testCaseRegister},
		{"Replay", testCaseReplay},
		{"Duplicates", testCaseDuplicates},
		{"UnknownArrival", testCaseUnknownArrival},
		{"Update", testCaseUpdate},
		{"Stale", testCaseStale},
		{"UnknownCase", testCaseUnknown},
		{"CheckFails", testCaseCheckFails},
		{"InvalidWrite", testCaseInvalidWrite},
		{"Filters", testCaseFilters},
		{"Paging", testCasePaging},
		{"Counts", testCaseCounts},
		{"Allocated", testCaseAllocated},
		{"Arrivals", testArrivals},
		{"AccessLog", testAccessLog},
		{"AccessListing", testAccessListing},
		{"ConcurrentUpdate", testCaseConcurrentUpdate},
		{"BatchUpdate", testCaseBatchUpdate},
		{"SameLanding", testCaseSameLanding},
		{"SameLandingRace", testCaseSameLandingRace},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			c.fn(t, open(t))
		})
	}
}

// Fixtures of the case flow. Times have whole microseconds, which both stores keep.

func day(n int) time.Time { return base.Add(time.Duration(n) * 24 * time.Hour) }

func newArrival(id string, state solidarity.MemberState, i int) *solidarity.Arrival {
	return &solidarity.Arrival{
		ID: solidarity.ArrivalID(id), Vessel: "Ocean Viking " + id, Port: "Lampedusa",
		At: day(i).Add(-3 * time.Hour), SAR: i%2 == 0, Benefitting: state,
		Persons: 40 + i, Families: 3 + i, Minors: i, Registered: day(i), Actor: "officer-" + string(state),
	}
}

// newCase is an open case of arrival a, family fam, with every field set but
// Closed and Erased. Its flow is JSON as a service might write it, spacing and key
// order included, which the store must keep byte for byte.
func newCase(id string, a *solidarity.Arrival, fam string, i int) *solidarity.CaseRecord {
	return &solidarity.CaseRecord{
		ID: solidarity.CaseID(id), Arrival: a.ID, Family: solidarity.FamilyID(fam),
		Benefitting: a.Benefitting, State: "registered",
		Flow:     []byte(fmt.Sprintf("{\"state\":\"registered\",  \"facts\":{\"z\":1,\"a\":\"\u00e9\\u00e9\"},\n\"n\":%d}", i)),
		NextDue:  day(i + 7).Add(time.Microsecond),
		Personal: "sealed:v1:" + strings.Repeat("x", i%5) + id,
		Opened:   a.Registered,
	}
}

// arrivalEntry is the ledger entry registering a with its cases.
func arrivalEntry(t testing.TB, a *solidarity.Arrival, cases ...*solidarity.CaseRecord) *solidarity.Entry {
	fams := map[solidarity.FamilyID][]solidarity.CaseID{}
	var order []solidarity.FamilyID
	for _, c := range cases {
		if fams[c.Family] == nil {
			order = append(order, c.Family)
		}
		fams[c.Family] = append(fams[c.Family], c.ID)
	}
	p := solidarity.ArrivalPayload{Arrival: *a}
	for _, f := range order {
		p.Families = append(p.Families, solidarity.FamilyCases{Family: f, Cases: fams[f]})
	}
	return &solidarity.Entry{
		Cycle: cycle, Type: solidarity.ArrivalRegistered, State: a.Benefitting, Actor: a.Actor,
		At: a.Registered, LegalBasis: "Art. 5(1)(b) SR", Payload: payload(t, p),
	}
}

// eventEntry is a case event moving cases to the state "to".
func eventEntry(t testing.TB, event string, to state.State, cases ...*solidarity.CaseRecord) *solidarity.Entry {
	p := solidarity.CaseEventPayload{Event: event, Article: "Art. 39 AMMR", At: day(1)}
	var state solidarity.MemberState
	for _, c := range cases {
		p.Steps = append(p.Steps, solidarity.CaseStep{Case: c.ID, From: c.State, To: to})
		state = c.Benefitting
	}
	return &solidarity.Entry{
		Cycle: cycle, Type: solidarity.CaseEvent, State: state, Actor: "officer-" + string(state),
		At: day(1), LegalBasis: "Art. 39 AMMR", Payload: payload(t, p),
	}
}

// register registers a with cases in one AppendCase and returns the entry.
func register(t testing.TB, s CaseStore, key string, a *solidarity.Arrival, cases ...*solidarity.CaseRecord) *solidarity.Entry {
	t.Helper()
	return mustAppendCase(t, s, key, arrivalEntry(t, a, cases...), &solidarity.CaseWrite{Arrival: a, Insert: cases})
}

func mustAppendCase(t testing.TB, s CaseStore, key string, e *solidarity.Entry, w *solidarity.CaseWrite) *solidarity.Entry {
	t.Helper()
	out, replayed, err := s.AppendCase(context.Background(), key, e, w, nil)
	if err != nil {
		t.Fatalf("AppendCase: %v", err)
	}
	if replayed {
		t.Fatalf("AppendCase(%q): replayed a new entry", key)
	}
	return out
}

func getCase(t testing.TB, s CaseStore, id solidarity.CaseID) *solidarity.CaseRecord {
	t.Helper()
	c, err := s.Case(context.Background(), id)
	if err != nil {
		t.Fatalf("Case(%s): %v", id, err)
	}
	return c
}

// clone copies a record, so that a test keeps what it sent apart from what the store
// sets on success (Version).
func clone(c *solidarity.CaseRecord) *solidarity.CaseRecord {
	x := *c
	x.Flow = bytes.Clone(c.Flow)
	return &x
}

// caseDiff describes how got differs from want, field by field ("" when it does not):
// times by instant, the flow by byte.
func caseDiff(got, want *solidarity.CaseRecord) string {
	var d []string
	cmp := func(name string, g, w any) {
		if g != w {
			d = append(d, fmt.Sprintf("%s %v, want %v", name, g, w))
		}
	}
	cmpTime := func(name string, g, w time.Time) {
		if !g.Equal(w) || g.IsZero() != w.IsZero() {
			d = append(d, fmt.Sprintf("%s %v, want %v", name, g, w))
		}
	}
	cmp("ID", got.ID, want.ID)
	cmp("Arrival", got.Arrival, want.Arrival)
	cmp("Family", got.Family, want.Family)
	cmp("Benefitting", got.Benefitting, want.Benefitting)
	cmp("Allocated", got.Allocated, want.Allocated)
	cmp("Responsible", got.Responsible, want.Responsible)
	cmp("State", got.State, want.State)
	if !bytes.Equal(got.Flow, want.Flow) {
		d = append(d, fmt.Sprintf("Flow %q, want %q", got.Flow, want.Flow))
	}
	cmpTime("NextDue", got.NextDue, want.NextDue)
	cmp("Personal", got.Personal, want.Personal)
	cmpTime("Opened", got.Opened, want.Opened)
	cmpTime("Closed", got.Closed, want.Closed)
	cmpTime("Erased", got.Erased, want.Erased)
	cmp("Version", got.Version, want.Version)
	return strings.Join(d, "; ")
}

func sameCase(t testing.TB, what string, got, want *solidarity.CaseRecord) {
	t.Helper()
	if d := caseDiff(got, want); d != "" {
		t.Fatalf("%s: case %s: %s", what, want.ID, d)
	}
}

func sameArrival(t testing.TB, got, want *solidarity.Arrival) {
	t.Helper()
	g, w := *got, *want
	if !g.At.Equal(w.At) || !g.Registered.Equal(w.Registered) {
		t.Fatalf("arrival %s times %v %v, want %v %v", w.ID, g.At, g.Registered, w.At, w.Registered)
	}
	g.At, g.Registered, w.At, w.Registered = time.Time{}, time.Time{}, time.Time{}, time.Time{}
	if g != w {
		t.Fatalf("arrival\n %+v\nwant\n %+v", got, want)
	}
}

func wantCaseMissing(t testing.TB, s CaseStore, ids ...solidarity.CaseID) {
	t.Helper()
	for _, id := range ids {
		if c, err := s.Case(context.Background(), id); solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
			t.Fatalf("Case(%s) = %+v, %v; want ENOTFOUND", id, c, err)
		}
	}
}

func wantArrivalMissing(t testing.TB, s CaseStore, id solidarity.ArrivalID) {
	t.Helper()
	if a, err := s.Arrival(context.Background(), id); solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		t.Fatalf("Arrival(%s) = %+v, %v; want ENOTFOUND", id, a, err)
	}
}

// wantRefused checks an AppendCase that failed with code: no entry, and the head as
// it was.
func wantRefused(t testing.TB, s CaseStore, out *solidarity.Entry, err error, code string, seq int64, hash string) {
	t.Helper()
	wantCode(t, err, code)
	if out != nil {
		t.Fatalf("a refused AppendCase returned %+v", out)
	}
	if gs, gh := head(t, s); gs != seq || gh != hash {
		t.Fatalf("Head after a refused AppendCase = %d %q, want %d %q: its entry was written", gs, gh, seq, hash)
	}
}

func ids(cs []*solidarity.CaseRecord) string {
	var out []string
	for _, c := range cs {
		out = append(out, string(c.ID))
	}
	return strings.Join(out, ",")
}

func mustCases(t testing.TB, s CaseStore, f solidarity.CaseFilter) []*solidarity.CaseRecord {
	t.Helper()
	cs, err := s.Cases(context.Background(), f)
	if err != nil {
		t.Fatalf("Cases(%+v): %v", f, err)
	}
	return cs
}

// The cases.

// testCaseRegister registers an arrival and its cases in one AppendCase: the entry is
// written and every field of the arrival and the cases reads back as sent.
func testCaseRegister(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a := newArrival("A1", "IT", 1)
	c1 := newCase("C-1", a, "F1", 1)
	c1.Allocated, c1.Responsible = "DE", "IT"
	c1.Version = 7 // the store numbers versions: an inserted case is version 1
	c2 := newCase("C-2", a, "F1", 2)
	c2.NextDue, c2.Personal = time.Time{}, "" // not set: NULL, and back to zero
	c2.Flow = []byte(`[]`)
	c3 := newCase("C-3", a, "F2", 3)
	c3.State, c3.Closed, c3.Erased = "closed_withdrawn", day(4), day(5)
	sent := []*solidarity.CaseRecord{clone(c1), clone(c2), clone(c3)}

	e := arrivalEntry(t, a, c1, c2, c3)
	var checked bool
	out, replayed, err := s.AppendCase(ctx, "register-A1", e, &solidarity.CaseWrite{Arrival: a, Insert: []*solidarity.CaseRecord{c1, c2, c3}},
		func(v solidarity.View) error {
			checked = true
			_, err := v.Find(ctx, cycle, solidarity.ArrivalRegistered)
			return err
		})
	if err != nil || replayed || !checked {
		t.Fatalf("AppendCase = replayed %v, %v (checked %v)", replayed, err, checked)
	}
	if out != e || out.Seq != 1 || out.Hash == "" {
		t.Fatalf("AppendCase did not return its entry sealed: %+v", out)
	}
	if seq, hash := head(t, s); seq != 1 || hash != out.Hash {
		t.Fatalf("Head = %d %q, want the registration", seq, hash)
	}
	sameEntries(t, "All", all(t, s), []*solidarity.Entry{out})
	mustVerify(t, s, 1)

	got, err := s.Arrival(ctx, "A1")
	if err != nil {
		t.Fatal(err)
	}
	sameArrival(t, got, a)
	for i, c := range []*solidarity.CaseRecord{c1, c2, c3} {
		if c.Version != 1 {
			t.Fatalf("case %s: AppendCase set Version %d on the record, want 1", c.ID, c.Version)
		}
		want := sent[i]
		want.Version = 1
		sameCase(t, "Case", getCase(t, s, c.ID), want)
	}
	if c := getCase(t, s, "C-2"); c.Flow == nil || !c.NextDue.IsZero() || !c.Closed.IsZero() || !c.Erased.IsZero() {
		t.Fatalf("case C-2 read back as %+v", c)
	}
	wantCaseMissing(t, s, "C-4")
	wantArrivalMissing(t, s, "A2")
}

// testCaseReplay repeats a registration under its key: the stored entry comes back
// as replayed, and nothing of the write is applied, not even a write that would fail
// or one that would succeed.
func testCaseReplay(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a := newArrival("A1", "IT", 1)
	c1 := newCase("C-1", a, "F1", 1)
	first := register(t, s, "reg", a, c1)

	// The same request again: applied, it would conflict.
	again := newCase("C-1", a, "F1", 1)
	out, replayed, err := s.AppendCase(ctx, "reg", arrivalEntry(t, a, again),
		&solidarity.CaseWrite{Arrival: newArrival("A1", "IT", 1), Insert: []*solidarity.CaseRecord{again}}, nil)
	if err != nil || !replayed || !sameStored(out, first) {
		t.Fatalf("replay = %+v, replayed %v, %v; want the stored entry replayed", out, replayed, err)
	}
	if again.Version != 0 {
		t.Fatalf("a replay set the record's Version to %d", again.Version)
	}

	// The same entry with a write that would succeed: still nothing applied.
	upd := getCase(t, s, "C-1")
	upd.State = "relocation_pending"
	extra := newCase("C-2", a, "F1", 2)
	out, replayed, err = s.AppendCase(ctx, "reg", arrivalEntry(t, a, c1),
		&solidarity.CaseWrite{Insert: []*solidarity.CaseRecord{extra}, Update: []*solidarity.CaseRecord{upd}}, nil)
	if err != nil || !replayed || out.Seq != 1 {
		t.Fatalf("replay = %+v, replayed %v, %v", out, replayed, err)
	}
	if upd.Version != 1 || extra.Version != 0 {
		t.Fatalf("a replay set versions: update %d, insert %d", upd.Version, extra.Version)
	}
	if c := getCase(t, s, "C-1"); c.State != "registered" || c.Version != 1 {
		t.Fatalf("a replay updated the case: %+v", c)
	}
	wantCaseMissing(t, s, "C-2")
	if seq, _ := head(t, s); seq != 1 {
		t.Fatalf("Head = %d after replays, want 1", seq)
	}
}

// testCaseDuplicates inserts an arrival or a case that exists: ECONFLICT, and nothing
// of the append is written, neither its entry nor its other rows; its key is not used
// up.
func testCaseDuplicates(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a1 := newArrival("A1", "IT", 1)
	register(t, s, "", a1, newCase("C-1", a1, "F1", 1))
	seq, hash := head(t, s)

	// The arrival again, with a new case.
	c9 := newCase("C-9", a1, "F9", 9)
	out, _, err := s.AppendCase(ctx, "dup", arrivalEntry(t, a1, c9),
		&solidarity.CaseWrite{Arrival: newArrival("A1", "IT", 1), Insert: []*solidarity.CaseRecord{c9}}, nil)
	wantRefused(t, s, out, err, solidarity.ECONFLICT, seq, hash)
	wantCaseMissing(t, s, "C-9")

	// A new arrival, a new case, and a case that exists (last, after the others).
	a2 := newArrival("A2", "ES", 2)
	c8 := newCase("C-8", a2, "F8", 8)
	dup := newCase("C-1", a2, "F8", 8)
	out, _, err = s.AppendCase(ctx, "dup", arrivalEntry(t, a2, c8, dup),
		&solidarity.CaseWrite{Arrival: a2, Insert: []*solidarity.CaseRecord{c8, dup}}, nil)
	wantRefused(t, s, out, err, solidarity.ECONFLICT, seq, hash)
	wantArrivalMissing(t, s, "A2")
	wantCaseMissing(t, s, "C-8")
	if c8.Version != 0 || dup.Version != 0 {
		t.Fatalf("a refused AppendCase set versions %d %d", c8.Version, dup.Version)
	}
	if c := getCase(t, s, "C-1"); c.Arrival != "A1" || c.Version != 1 {
		t.Fatalf("the existing case changed: %+v", c)
	}

	// The key of the refused appends was not used up.
	out, replayed, err := s.AppendCase(ctx, "dup", arrivalEntry(t, a2, c8),
		&solidarity.CaseWrite{Arrival: a2, Insert: []*solidarity.CaseRecord{c8}}, nil)
	if err != nil || replayed || out.Seq != seq+1 {
		t.Fatalf("AppendCase after the refusals = %+v, replayed %v, %v", out, replayed, err)
	}
	if c8.Version != 1 || getCase(t, s, "C-8").Version != 1 {
		t.Fatal("C-8 not inserted at version 1")
	}
	mustVerify(t, s, seq+1)
}

// testCaseUnknownArrival inserts a case into an arrival that does not exist.
func testCaseUnknownArrival(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a := newArrival("A1", "IT", 1)
	register(t, s, "", a, newCase("C-1", a, "F1", 1))
	seq, hash := head(t, s)
	ghost := newArrival("A-ghost", "IT", 2)
	c := newCase("C-2", ghost, "F2", 2)
	out, _, err := s.AppendCase(ctx, "", eventEntry(t, "open", "registered", c),
		&solidarity.CaseWrite{Insert: []*solidarity.CaseRecord{c}}, nil)
	wantRefused(t, s, out, err, solidarity.ENOTFOUND, seq, hash)
	wantCaseMissing(t, s, "C-2")
}

// testCaseUpdate moves a case along: each update replaces the mutable fields, keeps
// the others, and bumps the version, stored and on the record.
func testCaseUpdate(t *testing.T, s CaseStore) {
	a := newArrival("A1", "IT", 1)
	c1, c2 := newCase("C-1", a, "F1", 1), newCase("C-2", a, "F1", 2)
	register(t, s, "", a, c1, c2)
	orig := getCase(t, s, "C-1")

	upd := getCase(t, s, "C-1")
	upd.Allocated, upd.Responsible, upd.State = "DE", "IT", "relocation_pending"
	upd.Flow = []byte(`{"state":"relocation_pending", "history":[{"to":"relocation_pending"}]}`)
	upd.NextDue = day(40)
	// The fields an update does not replace: sent changed, stored as they were.
	upd.Arrival, upd.Family, upd.Benefitting, upd.Opened = "A-other", "F-other", "MT", day(99)
	mustAppendCase(t, s, "", eventEntry(t, "allocate", upd.State, upd), &solidarity.CaseWrite{Update: []*solidarity.CaseRecord{upd}})
	if upd.Version != 2 {
		t.Fatalf("record Version %d after an update, want 2", upd.Version)
	}
	want := clone(upd)
	want.Arrival, want.Family, want.Benefitting, want.Opened = orig.Arrival, orig.Family, orig.Benefitting, orig.Opened
	sameCase(t, "after the update", getCase(t, s, "C-1"), want)

	// Close and erase: times set, the next due date and the personal record cleared,
	// in one append with an update of the other case of the family.
	upd = getCase(t, s, "C-1")
	upd.State, upd.NextDue, upd.Closed, upd.Erased, upd.Personal = "closed_transferred", time.Time{}, day(50), day(60), ""
	other := getCase(t, s, "C-2")
	other.State = "withdrawn"
	mustAppendCase(t, s, "", eventEntry(t, "close", upd.State, upd, other),
		&solidarity.CaseWrite{Update: []*solidarity.CaseRecord{upd, other}})
	if upd.Version != 3 || other.Version != 2 {
		t.Fatalf("record versions %d %d, want 3 2", upd.Version, other.Version)
	}
	sameCase(t, "after closing", getCase(t, s, "C-1"), upd)
	sameCase(t, "the other case", getCase(t, s, "C-2"), other)

	// A relocation delivered with the cases' transfer (DeliveryPayload.Transfer): the
	// totals and the case move together.
	other = getCase(t, s, "C-2")
	other.State, other.Allocated = "transferred", "DE"
	p := solidarity.DeliveryPayload{Relocations: 1, Reference: "T-1", Transfer: &solidarity.CaseEventPayload{
		Event: "transferred", Article: "Art. 68 AMMR", At: day(70), Steps: []solidarity.CaseStep{{Case: "C-2", From: "withdrawn", To: "transferred"}},
	}}
	e := &solidarity.Entry{Cycle: cycle, Type: solidarity.RelocationDelivered, State: "DE", Actor: "officer-DE",
		At: day(70), LegalBasis: "Arts. 67-68", Payload: payload(t, p)}
	mustAppendCase(t, s, "", e, &solidarity.CaseWrite{Update: []*solidarity.CaseRecord{other}})
	if ts := totals(t, s, cycle); len(ts) != 1 || ts[0].State != "DE" || ts[0].Delivered.Of(solidarity.RelocationDelivered) != 1 {
		t.Fatalf("totals %+v after the transfer", ts)
	}
	if c := getCase(t, s, "C-2"); c.Version != 3 || c.State != "transferred" {
		t.Fatalf("C-2 after the transfer: %+v", c)
	}
	mustVerify(t, s, 4)
}

// testCaseStale updates a case from a version that is no longer the stored one:
// ECONFLICT, and nothing of the append is written (entry, totals, other rows).
func testCaseStale(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a := newArrival("A1", "IT", 1)
	register(t, s, "", a, newCase("C-1", a, "F1", 1))
	read := getCase(t, s, "C-1") // version 1

	first := clone(read)
	first.State = "relocation_pending"
	mustAppendCase(t, s, "", eventEntry(t, "allocate", first.State, first), &solidarity.CaseWrite{Update: []*solidarity.CaseRecord{first}})
	seq, hash := head(t, s)

	stale := clone(read)
	stale.State = "withdrawn"
	out, _, err := s.AppendCase(ctx, "stale", eventEntry(t, "withdraw", stale.State, stale),
		&solidarity.CaseWrite{Update: []*solidarity.CaseRecord{stale}}, nil)
	wantRefused(t, s, out, err, solidarity.ECONFLICT, seq, hash)
	if stale.Version != 1 {
		t.Fatalf("a refused update set the record's Version to %d", stale.Version)
	}

	// With a delivery and a new case in the same append: neither is written.
	c2 := newCase("C-2", a, "F2", 2)
	e := delivery(t, cycle, "DE", solidarity.RelocationDelivered, 5, 1)
	out, _, err = s.AppendCase(ctx, "stale", e,
		&solidarity.CaseWrite{Insert: []*solidarity.CaseRecord{c2}, Update: []*solidarity.CaseRecord{stale}}, nil)
	wantRefused(t, s, out, err, solidarity.ECONFLICT, seq, hash)
	wantCaseMissing(t, s, "C-2")
	if ts := totals(t, s, cycle); len(ts) != 0 {
		t.Fatalf("totals %+v after a refused delivery", ts)
	}
	sameCase(t, "after the refusals", getCase(t, s, "C-1"), first)

	// Read again, the update goes through (and the key was not used up).
	fresh := getCase(t, s, "C-1")
	fresh.State = "withdrawn"
	out, replayed, err := s.AppendCase(ctx, "stale", eventEntry(t, "withdraw", fresh.State, fresh),
		&solidarity.CaseWrite{Update: []*solidarity.CaseRecord{fresh}}, nil)
	if err != nil || replayed || out.Seq != seq+1 || fresh.Version != 3 {
		t.Fatalf("update from the fresh version = %+v, replayed %v, %v (version %d)", out, replayed, err, fresh.Version)
	}
	mustVerify(t, s, seq+1)
}

// testCaseUnknown updates a case that does not exist: ENOTFOUND, nothing written.
func testCaseUnknown(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a := newArrival("A1", "IT", 1)
	c1 := newCase("C-1", a, "F1", 1)
	register(t, s, "", a, c1)
	seq, hash := head(t, s)
	ghost := newCase("C-ghost", a, "F1", 2)
	ghost.Version = 1
	known := getCase(t, s, "C-1")
	known.State = "relocation_pending"
	out, _, err := s.AppendCase(ctx, "", eventEntry(t, "allocate", "relocation_pending", known, ghost),
		&solidarity.CaseWrite{Update: []*solidarity.CaseRecord{known, ghost}}, nil)
	wantRefused(t, s, out, err, solidarity.ENOTFOUND, seq, hash)
	wantCaseMissing(t, s, "C-ghost")
	if c := getCase(t, s, "C-1"); c.Version != 1 || c.State != "registered" {
		t.Fatalf("the known case was updated: %+v", c)
	}
}

// testCaseCheckFails refuses a registration in its check: the check's error, and
// nothing written.
func testCaseCheckFails(t *testing.T, s CaseStore) {
	ctx := context.Background()
	refused := errors.New("refused")
	a := newArrival("A1", "IT", 1)
	c1 := newCase("C-1", a, "F1", 1)
	out, replayed, err := s.AppendCase(ctx, "k", arrivalEntry(t, a, c1),
		&solidarity.CaseWrite{Arrival: a, Insert: []*solidarity.CaseRecord{c1}},
		func(solidarity.View) error { return refused })
	if err != refused || out != nil || replayed {
		t.Fatalf("AppendCase = %+v, %v, %v; want the check's error", out, replayed, err)
	}
	if seq, _ := head(t, s); seq != 0 {
		t.Fatalf("Head = %d after a refused registration", seq)
	}
	wantArrivalMissing(t, s, "A1")
	wantCaseMissing(t, s, "C-1")
	if c1.Version != 0 {
		t.Fatalf("a refused registration set Version %d", c1.Version)
	}
	// The key is not used up.
	register(t, s, "k", a, c1)
	mustVerify(t, s, 1)
}

// testCaseInvalidWrite sends writes that name no case or the same case twice:
// EINVALID, nothing written.
func testCaseInvalidWrite(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a := newArrival("A1", "IT", 1)
	register(t, s, "", a, newCase("C-1", a, "F1", 1))
	seq, hash := head(t, s)
	c1 := getCase(t, s, "C-1")
	a2 := newArrival("A2", "IT", 2)
	for name, w := range map[string]*solidarity.CaseWrite{
		"insert twice":      {Arrival: a2, Insert: []*solidarity.CaseRecord{newCase("C-2", a2, "F", 2), newCase("C-2", a2, "F", 2)}},
		"insert, update":    {Arrival: a2, Insert: []*solidarity.CaseRecord{newCase("C-1", a2, "F", 2)}, Update: []*solidarity.CaseRecord{clone(c1)}},
		"update twice":      {Update: []*solidarity.CaseRecord{clone(c1), clone(c1)}},
		"no ID":             {Arrival: a2, Insert: []*solidarity.CaseRecord{newCase("", a2, "F", 2)}},
		"nil record":        {Update: []*solidarity.CaseRecord{nil}},
		"arrival no ID":     {Arrival: &solidarity.Arrival{Benefitting: "IT", At: day(1), Registered: day(1)}},
		"update without ID": {Update: []*solidarity.CaseRecord{{Version: 1}}},
	} {
		out, _, err := s.AppendCase(ctx, "", eventEntry(t, "x", "y"), w, nil)
		if solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("%s: %v, want EINVALID", name, err)
		}
		wantRefused(t, s, out, err, solidarity.EINVALID, seq, hash)
	}
	wantArrivalMissing(t, s, "A2")
	wantCaseMissing(t, s, "C-2")
	if c := getCase(t, s, "C-1"); c.Version != 1 {
		t.Fatalf("C-1 at version %d", c.Version)
	}
}

func testAccessLog(t *testing.T, s CaseStore) {
	ctx := context.Background()
	if l, err := s.AccessLog(ctx, solidarity.AccessFilter{}); err != nil || len(l) != 0 {
		t.Fatalf("AccessLog of none = %v, %v", l, err)
	}
	if err := s.RecordAccess(ctx); err != nil {
		t.Fatalf("RecordAccess of nothing: %v", err)
	}
	mk := func(i int, actor string, c solidarity.CaseID, purpose string) *solidarity.Access {
		return &solidarity.Access{At: base.Add(time.Duration(i) * time.Minute), Actor: actor, Role: "officer",
			State: "IT", Case: c, Purpose: purpose}
	}
	first := []*solidarity.Access{mk(0, "ana", "C-1", "view"), mk(1, "ana", "C-2", "view"), mk(2, "bo", "C-1", "determination")}
	if err := s.RecordAccess(ctx, first...); err != nil {
		t.Fatal(err)
	}
	second := mk(3, "cy", "C-1", "export")
	second.Role, second.State = "coordinator", ""
	if err := s.RecordAccess(ctx, second); err != nil {
		t.Fatal(err)
	}
	logged := append(slices.Clone(first), second)
	for i, a := range logged {
		if a.Seq == 0 || (i > 0 && a.Seq <= logged[i-1].Seq) {
			t.Fatalf("seqs %d then %d: not increasing", logged[max(i-1, 0)].Seq, a.Seq)
		}
	}

	// A record without an actor, a case or a time is refused, with its whole call.
	for _, bad := range []*solidarity.Access{
		{At: base, Case: "C-1", Purpose: "view"},
		{At: base, Actor: "ana", Purpose: "view"},
		{Actor: "ana", Case: "C-1", Purpose: "view"},
		nil,
	} {
		if err := s.RecordAccess(ctx, mk(9, "dee", "C-9", "view"), bad); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("RecordAccess(%+v): %v, want EINVALID", bad, err)
		}
	}

	c1, ana := solidarity.CaseID("C-1"), "ana"
	for _, c := range []struct {
		f    solidarity.AccessFilter
		want []*solidarity.Access
	}{
		{solidarity.AccessFilter{}, []*solidarity.Access{logged[3], logged[2], logged[1], logged[0]}},
		{solidarity.AccessFilter{Case: &c1}, []*solidarity.Access{logged[3], logged[2], logged[0]}},
		{solidarity.AccessFilter{Actor: &ana}, []*solidarity.Access{logged[1], logged[0]}},
		{solidarity.AccessFilter{Actor: &ana, Case: &c1}, []*solidarity.Access{logged[0]}},
		{solidarity.AccessFilter{Limit: 2}, []*solidarity.Access{logged[3], logged[2]}},
	} {
		got, err := s.AccessLog(ctx, c.f)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(c.want) {
			t.Fatalf("AccessLog(%+v): %d records, want %d", c.f, len(got), len(c.want))
		}
		for i := range got {
			g, w := *got[i], *c.want[i]
			if !g.At.Equal(w.At) {
				t.Fatalf("AccessLog(%+v)[%d] at %v, want %v", c.f, i, g.At, w.At)
			}
			g.At, w.At = time.Time{}, time.Time{}
			if g != w {
				t.Fatalf("AccessLog(%+v)[%d] = %+v, want %+v", c.f, i, g, w)
			}
		}
	}
	for _, n := range []int{-1, 1001} {
		if _, err := s.AccessLog(ctx, solidarity.AccessFilter{Limit: n}); solidarity.ErrorCode(err) != solidarity.EINVALID {
			t.Fatalf("AccessLog with limit %d: %v, want EINVALID", n, err)
		}
	}
}

// updateRace updates case id from the version read, from n goroutines at once, each to
// a state of its own, and checks that exactly one succeeds and the others conflict.
// It returns the winner's record.
func updateRace(t *testing.T, s CaseStore, id solidarity.CaseID, n int, start func()) *solidarity.CaseRecord {
	t.Helper()
	ctx := context.Background()
	read := getCase(t, s, id)
	recs := make([]*solidarity.CaseRecord, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		rec := clone(read)
		rec.State = state.State(fmt.Sprintf("state-%d-%d", read.Version, i))
		rec.NextDue = day(100 + i)
		recs[i] = rec
		wg.Go(func() {
			_, _, errs[i] = s.AppendCase(ctx, "", eventEntry(t, "race", rec.State, rec),
				&solidarity.CaseWrite{Update: []*solidarity.CaseRecord{rec}}, nil)
		})
		if start != nil {
			time.Sleep(queueDelay / time.Duration(n))
		}
	}
	if start != nil {
		time.Sleep(queueDelay)
		start()
	}
	wg.Wait()
	var winner *solidarity.CaseRecord
	for i, err := range errs {
		switch {
		case err == nil:
			if winner != nil {
				t.Fatalf("two updates from version %d both succeeded", read.Version)
			}
			winner = recs[i]
			if winner.Version != read.Version+1 {
				t.Fatalf("the winner's record has version %d, want %d", winner.Version, read.Version+1)
			}
		case solidarity.ErrorCode(err) == solidarity.ECONFLICT:
			if recs[i].Version != read.Version {
				t.Fatalf("a refused update set version %d", recs[i].Version)
			}
		default:
			t.Fatalf("update %d: %v, want ECONFLICT or success", i, err)
		}
	}
	if winner == nil {
		t.Fatalf("none of %d updates from version %d succeeded", n, read.Version)
	}
	sameCase(t, "the winner", getCase(t, s, id), winner)
	return winner
}

// testCaseConcurrentUpdate races updates of one case from one version: exactly one
// is written, entry included.
func testCaseConcurrentUpdate(t *testing.T, s CaseStore) {
	a := newArrival("A1", "IT", 1)
	register(t, s, "", a, newCase("C-1", a, "F1", 1))
	const n = 16
	for round := range 3 {
		updateRace(t, s, "C-1", n, nil)
		if seq, _ := head(t, s); seq != int64(round+2) {
			t.Fatalf("round %d: Head %d: a refused update wrote its entry", round, seq)
		}
	}
	mustVerify(t, s, 4)
}

// testCaseBatchUpdate queues, behind the gate (so that a store that commits in groups
// puts them in one transaction), updates of one case from one version, registrations
// of new cases and of one that exists: each is decided as if they ran one after the
// other, and the chain is dense.
func testCaseBatchUpdate(t *testing.T, s CaseStore) {
	ctx := context.Background()
	a := newArrival("A1", "IT", 1)
	register(t, s, "", a, newCase("C-1", a, "F1", 1))
	release, wait := gate(t, s)

	var wg sync.WaitGroup
	newErrs := make([]error, 4)
	for i := range newErrs {
		wg.Go(func() {
			ai := newArrival(fmt.Sprintf("B%d", i), "ES", i)
			ci := newCase(fmt.Sprintf("D-%d", i), ai, "F", i)
			if i == 3 { // a case that exists: refused, with its arrival
				ci.ID = "C-1"
			}
			_, _, newErrs[i] = s.AppendCase(ctx, "", arrivalEntry(t, ai, ci),
				&solidarity.CaseWrite{Arrival: ai, Insert: []*solidarity.CaseRecord{ci}}, nil)
		})
	}
	updateRace(t, s, "C-1", 8, release)
	wg.Wait()
	wait()
	for i, err := range newErrs {
		if i == 3 {
			wantCode(t, err, solidarity.ECONFLICT)
			wantArrivalMissing(t, s, "B3")
			continue
		}
		if err != nil {
			t.Fatalf("registration %d in the batch: %v", i, err)
		}
		if c := getCase(t, s, solidarity.CaseID(fmt.Sprintf("D-%d", i))); c.Version != 1 {
			t.Fatalf("case D-%d at version %d", i, c.Version)
		}
	}
	// The registration, the gate, three registrations and one update.
	checkDense(t, s, 6, cycle)
	updateRace(t, s, "C-1", 4, nil)
}
