package casesvc_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/arrival"
	"solidarity/cases"
	"solidarity/internal/app"
	"solidarity/internal/casesvc"
	"solidarity/internal/keyring"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/pgtest"
)

// env is a ledger with the shipped cycles, a case service on the same store, and a
// clock the test moves.
type env struct {
	t      *testing.T
	ledger *ledgersvc.Service
	svc    *casesvc.Service
	now    time.Time
}

func (e *env) as(u *solidarity.User) context.Context {
	return solidarity.NewContextWithUser(context.Background(), u)
}

var (
	coordinator = &solidarity.User{Name: "coord", Role: solidarity.Coordinator}
	auditor     = &solidarity.User{Name: "aud", Role: solidarity.Auditor}
	officerIT   = &solidarity.User{Name: "off-it", Role: solidarity.Officer, State: "IT"}
	officerDE   = &solidarity.User{Name: "off-de", Role: solidarity.Officer, State: "DE"}
	officerFR   = &solidarity.User{Name: "off-fr", Role: solidarity.Officer, State: "FR"}
)

func newEnv(t *testing.T, dsn string) *env {
	t.Helper()
	ctx := context.Background()
	l, err := app.Service(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Store.Close() })
	e := &env{t: t, ledger: l, now: time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)}
	l.Now = func() time.Time { return e.now }
	if _, err := app.Seed(ctx, l, false); err != nil {
		t.Fatal(err)
	}
	k, err := keyring.Parse("test", strings.NewReader(key1))
	if err != nil {
		t.Fatal(err)
	}
	if e.svc, err = app.Cases(l, k); err != nil {
		t.Fatal(err)
	}
	return e
}

// stores runs f on SQLite and on PostgreSQL (when configured).
func stores(t *testing.T, f func(t *testing.T, dsn string)) {
	t.Run("sqlite", func(t *testing.T) { f(t, filepath.Join(t.TempDir(), "c.db")) })
	t.Run("postgres", func(t *testing.T) { f(t, pgtest.Schema(t)) })
}

const knownName = "Zelotta Qwimbrane"

// key1 and key2 are the test's keys (ID:BASE64 lines).
var key1, key2 = keyring.NewKey(1), keyring.NewKey(2)

// shipList is a small landing at Lampedusa: a mother and child, and a man alone.
func shipList(at time.Time) *arrival.List {
	born := func(y int) time.Time { return time.Date(y, 3, 1, 0, 0, 0, 0, time.UTC) }
	return &arrival.List{
		Arrival: solidarity.Arrival{Vessel: "Test Vessel", Port: "Lampedusa", At: at, SAR: true, Benefitting: "IT"},
		Persons: []arrival.Person{
			{Ref: "P1", Family: "K1", Name: knownName, BirthDate: born(1990), Sex: arrival.Female, Nationality: "ER", Languages: []string{"ti"}, Preferences: []solidarity.MemberState{"DE"}},
			{Ref: "P2", Family: "K1", Name: "Tamsel Qwimbrane", BirthDate: born(2018), Sex: arrival.Male, Nationality: "ER"},
			{Ref: "P3", Name: "Oberon Fakename", BirthDate: born(1995), Sex: arrival.Male, Nationality: "SY"},
		},
	}
}

// register registers the list as officer IT and takes every case to REGISTERED.
func (e *env) register() *casesvc.Registered {
	e.t.Helper()
	at := e.now.Add(-72 * time.Hour)
	r, err := e.svc.Register(e.as(officerIT), shipList(at), "")
	if err != nil {
		e.t.Fatal(err)
	}
	ids := []solidarity.CaseID{r.Cases[0].ID, r.Cases[1].ID, r.Cases[2].ID}
	for i, ev := range []cases.Event{cases.ScreeningStarted, cases.Applied, cases.Registration} {
		if _, err := e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: ids[0], Also: ids[1:], Event: ev,
			At: at.Add(time.Duration(i+1) * 12 * time.Hour)}, ""); err != nil {
			e.t.Fatal(err)
		}
	}
	return r
}

func code(err error) string { return solidarity.ErrorCode(err) }

func mustCode(t *testing.T, what string, err error, want string) {
	t.Helper()
	if got := code(err); got != want {
		t.Errorf("%s: error %v (code %q), want code %q", what, err, got, want)
	}
}

// TestVisibility is the per-role visibility matrix of the case flow, on both stores:
// who sees which cases, who may read a person (and that each read is logged), and how
// allocation opens a family's cases, and only those, to the state of relocation.
func TestVisibility(t *testing.T) {
	stores(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn)
		r := e.register()
		mother, child, single := r.Cases[0].ID, r.Cases[1].ID, r.Cases[2].ID

		seen := func(u *solidarity.User) int {
			cs, err := e.svc.Cases(e.as(u), solidarity.CaseFilter{})
			if err != nil {
				return -1
			}
			return len(cs)
		}
		for _, c := range []struct {
			u    *solidarity.User
			want int
		}{{coordinator, 3}, {auditor, 3}, {officerIT, 3}, {officerDE, 0}, {officerFR, 0}, {nil, -1}} {
			if got := seen(c.u); got != c.want {
				t.Errorf("%v sees %d cases, want %d", c.u, got, c.want)
			}
		}
		de := solidarity.MemberState("DE")
		_, err := e.svc.Cases(e.as(officerFR), solidarity.CaseFilter{Involving: &de})
		mustCode(t, "FR asks for DE's cases", err, solidarity.EUNAUTHORIZED)
		// A case an officer may not see answers exactly as one that does not exist, so
		// that its ID cannot be probed (review of issue 14: the messages differed).
		_, hidden := e.svc.Case(e.as(officerDE), mother)
		_, missing := e.svc.Case(e.as(officerDE), solidarity.CaseID(string(mother)+"X"))
		if hidden == nil || missing == nil || solidarity.ErrorMessage(hidden) != strings.Replace(solidarity.ErrorMessage(missing), string(mother)+"X", string(mother), 1) {
			t.Errorf("hidden case: %v; missing case: %v: want the same answer", hidden, missing)
		}

		// Person reads: allowed ones are logged, refused ones are not.
		reads := func() int {
			log, err := e.svc.AccessLog(e.as(auditor), solidarity.AccessFilter{Case: &mother})
			if err != nil {
				t.Fatal(err)
			}
			return len(log)
		}
		for _, c := range []struct {
			u    *solidarity.User
			want string
		}{{coordinator, ""}, {officerIT, ""}, {auditor, solidarity.EUNAUTHORIZED},
			{officerDE, solidarity.ENOTFOUND}, {officerFR, solidarity.ENOTFOUND}, {nil, solidarity.EUNAUTHENTICATED}} {
			before := reads()
			p, err := e.svc.Person(e.as(c.u), mother, "view")
			if c.u == nil && err != nil && code(err) == solidarity.ENOTFOUND {
				err = &solidarity.Error{Code: solidarity.EUNAUTHENTICATED}
			}
			if c.want == "" {
				if err != nil || p.Name != knownName {
					t.Errorf("%v reading the person: %v", c.u, err)
				}
				if reads() != before+1 {
					t.Errorf("%v's read was not logged", c.u)
				}
				continue
			}
			if code(err) != c.want && !(c.u == nil && err != nil) {
				t.Errorf("%v reading the person: %v, want %s", c.u, err, c.want)
			}
			if p != nil {
				t.Errorf("%v got the person", c.u)
			}
			if reads() != before {
				t.Errorf("%v's refused read was logged", c.u)
			}
		}
		if _, err := e.svc.AccessLog(e.as(officerIT), solidarity.AccessFilter{}); code(err) != solidarity.EUNAUTHORIZED {
			t.Errorf("an officer read the access log: %v", err)
		}

		// Relocation: candidates, cleared, allocated to DE (which pledged 5 places).
		if _, _, err := e.ledger.Pledge(e.as(solidarity.System), 2026, "DE",
			solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 5}, ""); err != nil {
			t.Fatal(err)
		}
		e.now = e.now.Add(24 * time.Hour)
		for _, ev := range []cases.Event{cases.RelocationCandidate, cases.RelocationCleared} {
			a, err := e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: mother, Event: ev}, "")
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Cases) != 2 {
				t.Fatalf("%s moved %d cases, want the family's 2", ev, len(a.Cases))
			}
		}
		_, err = e.svc.Assign(e.as(officerIT), mother, "DE", "")
		mustCode(t, "an officer allocates", err, solidarity.EUNAUTHORIZED)
		_, err = e.svc.Assign(e.as(coordinator), mother, "FR", "")
		mustCode(t, "allocation to a state without relocation pledge", err, solidarity.ECONFLICT)
		if _, err := e.svc.Assign(e.as(coordinator), mother, "DE", ""); err != nil {
			t.Fatal(err)
		}
		if got := seen(officerDE); got != 2 {
			t.Errorf("after allocation DE sees %d cases, want the family's 2", got)
		}
		// The arrivals each role lists: DE now sees the arrival its family came from,
		// FR still none, and neither may ask for Italy's.
		for _, c := range []struct {
			u    *solidarity.User
			want int
		}{{coordinator, 1}, {auditor, 1}, {officerIT, 1}, {officerDE, 1}, {officerFR, 0}} {
			as, err := e.svc.Arrivals(e.as(c.u), solidarity.ArrivalFilter{})
			if err != nil || len(as) != c.want || c.want == 1 && as[0].ID != r.Arrival.ID {
				t.Errorf("arrivals of %s: %v %v, want %d", c.u.Name, as, err, c.want)
			}
		}
		it := solidarity.MemberState("IT")
		for _, u := range []*solidarity.User{officerDE, officerFR} {
			_, err := e.svc.Arrivals(e.as(u), solidarity.ArrivalFilter{Benefitting: &it})
			mustCode(t, u.Name+" lists Italy's arrivals", err, solidarity.EUNAUTHORIZED)
		}
		if _, err := e.svc.Person(e.as(officerDE), child, "relocation"); err != nil {
			t.Errorf("DE cannot read an allocated person: %v", err)
		}
		_, err = e.svc.Person(e.as(officerDE), single, "view")
		mustCode(t, "DE reads a person not allocated to it", err, solidarity.ENOTFOUND)
		_, err = e.svc.Person(e.as(officerFR), mother, "view")
		mustCode(t, "FR reads an allocated person", err, solidarity.ENOTFOUND)

		// Who acts: the benefitting state sends the information, the state of
		// relocation confirms.
		_, err = e.svc.Apply(e.as(officerDE), casesvc.EventRequest{Case: mother, Event: cases.RelocationInfo}, "")
		mustCode(t, "DE sends IT's information", err, solidarity.EUNAUTHORIZED)
		if _, err := e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: mother, Event: cases.RelocationInfo}, ""); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: mother, Event: cases.RelocationConfirmation}, "")
		mustCode(t, "IT confirms for DE", err, solidarity.EUNAUTHORIZED)
		if _, err := e.svc.Apply(e.as(officerDE), casesvc.EventRequest{Case: mother, Event: cases.RelocationConfirmation}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: mother, Event: cases.TransferDecision}, ""); err != nil {
			t.Fatal(err)
		}
		// The transfer is DE's relocation delivery of 2, in one entry with the move.
		a, err := e.svc.Apply(e.as(officerIT), casesvc.EventRequest{Case: mother, Event: cases.Transferred}, "")
		if err != nil {
			t.Fatal(err)
		}
		if a.Entry.Type != solidarity.RelocationDelivered || a.Entry.State != "DE" || len(a.Cases) != 2 {
			t.Fatalf("transfer entry %s for %s moving %d cases", a.Entry.Type, a.Entry.State, len(a.Cases))
		}
		var d solidarity.DeliveryPayload
		json.Unmarshal(a.Entry.Payload, &d)
		if d.Relocations != 2 || d.OverDelivery || d.Transfer == nil || len(d.Transfer.Steps) != 2 {
			t.Errorf("delivery payload %+v", d)
		}
		b, err := e.ledger.Balances(e.as(nil), 2026, e.now)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range b.States {
			if n := s.Delivered.Totals.Of(solidarity.RelocationDelivered); s.State == "DE" && n != 2 {
				t.Errorf("DE delivered %d relocations, want 2", n)
			}
		}
		if _, err := e.svc.Apply(e.as(officerDE), casesvc.EventRequest{Case: mother, Event: cases.ArrivalNotified}, ""); err != nil {
			t.Fatal(err)
		}
		// Responsibility was not determined before the relocation: the state of
		// relocation determines it now (Art. 68(2)), so none is recorded yet.
		v, err := e.svc.Case(e.as(officerDE), child)
		if err != nil || v.Record.Responsible != "" || v.Record.Allocated != "DE" || v.Record.Closed.IsZero() {
			t.Errorf("after the arrival notice: responsible %q allocated %q closed %v (%v); want none, DE, closed",
				v.Record.Responsible, v.Record.Allocated, v.Record.Closed, err)
		}
		ver, err := e.ledger.Verify(e.as(auditor))
		if err != nil || !ver.OK {
			t.Fatalf("verify: %+v %v", ver, err)
		}
	})
}

// TestFlowRules: refused transitions change nothing; request events need their target;
// missed time limits have their consequence applied; retention erases closed cases'
// persons only; a registration retried under its key is a replay.
func TestFlowRules(t *testing.T) {
	stores(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn)
		r := e.register()
		single := r.Cases[2].ID
		ctx := e.as(officerIT)
		head, _, _ := e.ledger.Store.Head(context.Background())

		_, err := e.svc.Apply(ctx, casesvc.EventRequest{Case: single, Event: cases.Transferred}, "")
		mustCode(t, "transfer from REGISTERED", err, solidarity.ECONFLICT)
		if err != nil && !strings.Contains(err.Error(), "regular-procedure-applied") {
			t.Errorf("the refusal does not list the allowed events: %v", err)
		}
		_, err = e.svc.Apply(ctx, casesvc.EventRequest{Case: single, Event: "teleported"}, "")
		mustCode(t, "unknown event", err, solidarity.EINVALID)
		_, err = e.svc.Apply(ctx, casesvc.EventRequest{Case: single, Event: cases.RegularTrack, At: e.now.Add(time.Hour)}, "")
		mustCode(t, "event in the future", err, solidarity.EINVALID)
		if h, _, _ := e.ledger.Store.Head(context.Background()); h != head {
			t.Fatalf("refused events wrote entries: head %d -> %d", head, h)
		}

		if _, err := e.svc.Apply(ctx, casesvc.EventRequest{Case: single, Event: cases.RegularTrack}, ""); err != nil {
			t.Fatal(err)
		}
		_, err = e.svc.Apply(ctx, casesvc.EventRequest{Case: single, Event: cases.TakeChargeRequestSent}, "")
		mustCode(t, "request without target", err, solidarity.EINVALID)
		if _, err := e.svc.Apply(ctx, casesvc.EventRequest{Case: single, Event: cases.TakeChargeRequestSent, Target: "NL"}, ""); err != nil {
			t.Fatal(err)
		}
		// The mother is granted protection now: her case closes.
		mother := r.Cases[0].ID
		if _, err := e.svc.Apply(ctx, casesvc.EventRequest{Case: mother, Event: cases.RegularTrack}, ""); err != nil {
			t.Fatal(err)
		}
		for _, ev := range []cases.Event{cases.CriteriaDesignateSelf, cases.ExamineNormal, cases.Granted} {
			if _, err := e.svc.Apply(ctx, casesvc.EventRequest{Case: mother, Event: ev}, ""); err != nil {
				t.Fatal(err)
			}
		}
		// NL does not reply: two months later the request is tacitly accepted (Art. 40
		// AMMR) and NL is responsible.
		e.now = e.now.AddDate(0, 3, 0)
		rows, err := e.svc.Deadlines(e.as(coordinator), 0, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		overdue := false
		for _, row := range rows {
			if row.Case == single && row.Overdue {
				overdue = true
			}
		}
		if !overdue {
			t.Fatalf("no overdue limit for %s in the deadline view: %+v", single, rows)
		}
		// The view says when it is cut: complete with room to spare, not with one row.
		if all, complete, err := e.svc.DeadlineView(e.as(coordinator), 0, nil, 0); err != nil || !complete || len(all) != len(rows) {
			t.Fatalf("DeadlineView: %d rows, complete %v, %v; want the %d rows, complete", len(all), complete, err, len(rows))
		}
		if len(rows) > 1 {
			if one, complete, err := e.svc.DeadlineView(e.as(coordinator), 0, nil, 1); err != nil || complete || len(one) != 1 {
				t.Fatalf("DeadlineView(limit 1) of %d rows: %d rows, complete %v, %v", len(rows), len(one), complete, err)
			}
		}
		_, err = e.svc.ApplyMissed(ctx)
		mustCode(t, "an officer applies consequences", err, solidarity.EUNAUTHORIZED)
		cons, err := e.svc.ApplyMissed(e.as(coordinator))
		if err != nil {
			t.Fatal(err)
		}
		applied := false
		for _, c := range cons {
			if c.Case == single && c.Event == cases.TacitAcceptance && c.Entry > 0 {
				applied = true
			}
		}
		v, err := e.svc.Case(ctx, single)
		if err != nil {
			t.Fatal(err)
		}
		if !applied || v.Flow.State != cases.TransferAgreed || v.Record.Responsible != "NL" {
			t.Fatalf("tacit acceptance not applied: %+v; case %s responsible %q", cons, v.Flow.State, v.Record.Responsible)
		}

		_, err = e.svc.Erase(ctx, time.Hour)
		mustCode(t, "an officer erases", err, solidarity.EUNAUTHORIZED)
		// Retention: only closed cases, and only once the period has run.
		res, err := e.svc.Erase(e.as(coordinator), 365*24*time.Hour)
		if err != nil || len(res.Cases) != 0 {
			t.Fatalf("erased %v (%v) before the period ran", res, err)
		}
		before, err := e.ledger.Store.(solidarity.CaseStore).Case(context.Background(), mother)
		if err != nil || len(before.Personal) < 64 {
			t.Fatalf("the sealed record before erasure: %v", err)
		}
		res, err = e.svc.Erase(e.as(coordinator), 24*time.Hour)
		if err != nil || len(res.Cases) != 1 || res.Cases[0] != mother {
			t.Fatalf("erase: %+v %v, want the granted case only", res, err)
		}
		if !strings.Contains(dsn, "://") {
			// On SQLite, grep the raw files (database, write-ahead log, shared
			// memory) for the erased ciphertext while the store is open.
			files, _ := filepath.Glob(dsn + "*")
			if len(files) < 2 {
				t.Fatalf("database files %v", files)
			}
			for _, f := range files {
				raw, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if bytes.Contains(raw, []byte(before.Personal[len(before.Personal)-48:])) {
					t.Errorf("%s still holds the erased personal record", filepath.Base(f))
				}
				if strings.HasSuffix(f, "-wal") && len(raw) != 0 {
					t.Errorf("the write-ahead log holds %d bytes after the erasure", len(raw))
				}
			}
		}
		_, err = e.svc.Person(e.as(coordinator), mother, "view")
		mustCode(t, "reading an erased person", err, solidarity.ENOTFOUND)
		if _, err := e.svc.Person(e.as(coordinator), single, "view"); err != nil {
			t.Errorf("an open case's person was erased: %v", err)
		}
		if v, err := e.svc.Case(ctx, mother); err != nil || v.Flow.State != cases.ProtectionGranted {
			t.Errorf("the erased case's flow is gone: %v", err)
		}

		// A registration retried under its key is recognised.
		l := shipList(e.now.Add(-time.Hour))
		first, err := e.svc.Register(ctx, l, "ship-2")
		if err != nil {
			t.Fatal(err)
		}
		again, err := e.svc.Register(ctx, l, "ship-2")
		if err != nil || !again.Replayed || again.Arrival.ID != first.Arrival.ID || len(again.Cases) != 3 {
			t.Fatalf("retry: %+v %v", again, err)
		}
		_, err = e.svc.Register(e.as(officerDE), l, "")
		mustCode(t, "DE registers an Italian landing", err, solidarity.EUNAUTHORIZED)
		bad := shipList(e.now)
		bad.Persons[1].BirthDate = e.now.AddDate(1, 0, 0)
		_, err = e.svc.Register(ctx, bad, "")
		mustCode(t, "birth after arrival", err, solidarity.EINVALID)
		ver, err := e.ledger.Verify(e.as(auditor))
		if err != nil || !ver.OK {
			t.Fatalf("verify: %+v %v", ver, err)
		}
	})
}

// TestKeyRotation: after a second key is added, Reseal re-encrypts every record with
// it, in ledger-recorded batches, so that the first key can be retired.
func TestKeyRotation(t *testing.T) {
	stores(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn)
		r := e.register()
		old := e.svc.Keys
		both, err := keyring.Parse("both", strings.NewReader(key1+"\n"+key2))
		if err != nil {
			t.Fatal(err)
		}
		e.svc.Keys = both
		_, err = e.svc.Reseal(e.as(officerIT))
		mustCode(t, "an officer reseals", err, solidarity.EUNAUTHORIZED)
		res, err := e.svc.Reseal(e.as(coordinator))
		if err != nil || len(res.Cases) != 3 || res.Key != 2 || len(res.Entries) != 1 {
			t.Fatalf("reseal: %+v %v", res, err)
		}
		if res, err := e.svc.Reseal(e.as(coordinator)); err != nil || len(res.Cases) != 0 {
			t.Fatalf("a second reseal did something: %+v %v", res, err)
		}
		// Only key 2 is needed now; key 1 alone opens nothing.
		only2, _ := keyring.Parse("two", strings.NewReader(key2))
		e.svc.Keys = only2
		if p, err := e.svc.Person(e.as(coordinator), r.Cases[0].ID, "view"); err != nil || p.Name != knownName {
			t.Fatalf("key 2 alone: %v", err)
		}
		e.svc.Keys = old
		if _, err := e.svc.Person(e.as(coordinator), r.Cases[0].ID, "view"); err == nil {
			t.Fatal("the retired key still opens the record")
		}
	})
}

// TestRetries: an event or an allocation retried under its idempotency key is a replay
// even after the case moved on; the same key for another request is refused.
func TestRetries(t *testing.T) {
	stores(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn)
		r := e.register()
		mother := r.Cases[0].ID
		ctx := e.as(officerIT)
		req := casesvc.EventRequest{Case: mother, Event: cases.RelocationCandidate}
		first, err := e.svc.Apply(ctx, req, "ev-1")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Apply(ctx, casesvc.EventRequest{Case: mother, Event: cases.RelocationCleared}, "ev-2"); err != nil {
			t.Fatal(err)
		}
		e.now = e.now.Add(time.Hour) // a retry comes later
		again, err := e.svc.Apply(ctx, req, "ev-1")
		if err != nil || !again.Replayed || again.Entry.Seq != first.Entry.Seq {
			t.Fatalf("retry after the case moved on: %+v %v", again, err)
		}
		_, err = e.svc.Apply(ctx, casesvc.EventRequest{Case: mother, Event: cases.SecurityThreat}, "ev-1")
		mustCode(t, "another event under a used key", err, solidarity.ECONFLICT)
		_, err = e.svc.Apply(e.as(officerDE), req, "ev-1")
		mustCode(t, "another user's retry", err, solidarity.ENOTFOUND)

		if _, _, err := e.ledger.Pledge(e.as(solidarity.System), 2026, "DE",
			solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 5}, ""); err != nil {
			t.Fatal(err)
		}
		al, err := e.svc.Assign(e.as(coordinator), mother, "DE", "al-1")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Apply(ctx, casesvc.EventRequest{Case: mother, Event: cases.RelocationInfo}, ""); err != nil {
			t.Fatal(err)
		}
		again, err = e.svc.Assign(e.as(coordinator), mother, "DE", "al-1")
		if err != nil || !again.Replayed || again.Entry.Seq != al.Entry.Seq {
			t.Fatalf("allocation retried after the information was sent: %+v %v", again, err)
		}
		_, err = e.svc.Assign(e.as(coordinator), mother, "PT", "al-1")
		mustCode(t, "another allocation under a used key", err, solidarity.ECONFLICT)
	})
}

// TestRelocationRules: allocations cannot together exceed a pledge; a family is never
// split; leaving relocation by the security gate ends the allocation; the state of
// relocation's acts need an allocation; officers' notes stay out of the ledger.
func TestRelocationRules(t *testing.T) {
	stores(t, func(t *testing.T, dsn string) {
		e := newEnv(t, dsn)
		r := e.register()
		mother, child, single := r.Cases[0].ID, r.Cases[1].ID, r.Cases[2].ID
		it, coord := e.as(officerIT), e.as(coordinator)

		// A family is not split: the child is moved on alone first, then the
		// mother's relocation step is refused, naming the child.
		if _, err := e.svc.Apply(it, casesvc.EventRequest{Case: child, Event: cases.RegularTrack}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Apply(it, casesvc.EventRequest{Case: child, Event: cases.CriteriaDesignateSelf}, ""); err != nil {
			t.Fatal(err)
		}
		if _, err := e.svc.Apply(it, casesvc.EventRequest{Case: child, Event: cases.ExamineNormal}, ""); err != nil {
			t.Fatal(err)
		}
		_, err := e.svc.Apply(it, casesvc.EventRequest{Case: mother, Event: cases.RelocationCandidate}, "")
		mustCode(t, "relocating a family with a member elsewhere", err, solidarity.ECONFLICT)
		if err == nil || !strings.Contains(err.Error(), string(child)) {
			t.Errorf("the refusal does not name the member: %v", err)
		}

		// The state of relocation's acts need one.
		_, err = e.svc.Apply(coord, casesvc.EventRequest{Case: single, Event: cases.RelocationConfirmation}, "")
		mustCode(t, "confirmation without allocation", err, solidarity.ECONFLICT)

		// Notes go to the sealed record, not to the ledger.
		const note = "Spoke with Zelotta about her sister"
		a, err := e.svc.Apply(it, casesvc.EventRequest{Case: single, Event: cases.RelocationCandidate, Note: note}, "")
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(a.Entry.Payload), "sister") {
			t.Errorf("the note reached the ledger: %s", a.Entry.Payload)
		}
		p, err := e.svc.Person(coord, single, "view")
		if err != nil || len(p.Notes) != 1 || p.Notes[0].Text != note {
			t.Errorf("the note is not in the sealed record: %+v %v", p, err)
		}
		if _, err := e.svc.Apply(it, casesvc.EventRequest{Case: single, Event: cases.RelocationCleared}, ""); err != nil {
			t.Fatal(err)
		}

		// Two allocations racing for DE's last place: at most one wins.
		if _, _, err := e.ledger.Pledge(e.as(solidarity.System), 2026, "DE",
			solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 1}, ""); err != nil {
			t.Fatal(err)
		}
		r2, err := e.svc.Register(it, shipList(e.now.Add(-time.Hour)), "")
		if err != nil {
			t.Fatal(err)
		}
		other := r2.Cases[2].ID
		for _, ev := range []cases.Event{cases.ScreeningStarted, cases.Applied, cases.Registration, cases.RelocationCandidate, cases.RelocationCleared} {
			if _, err := e.svc.Apply(it, casesvc.EventRequest{Case: other, Event: ev}, ""); err != nil {
				t.Fatal(err)
			}
		}
		errs := make(chan error, 2)
		for _, id := range []solidarity.CaseID{single, other} {
			go func() { _, err := e.svc.Assign(coord, id, "DE", ""); errs <- err }()
		}
		won := 0
		for range 2 {
			if err := <-errs; err == nil {
				won++
			} else {
				mustCode(t, "the losing allocation", err, solidarity.ECONFLICT)
			}
		}
		if won != 1 {
			t.Fatalf("%d allocations to DE's single place succeeded, want 1", won)
		}

		// Leaving relocation through the security gate ends the allocation.
		allocated := single
		if v, _ := e.svc.Case(coord, single); v.Record.Allocated != "DE" {
			allocated = other
		}
		if _, err := e.svc.Apply(it, casesvc.EventRequest{Case: allocated, Event: cases.SecurityThreat}, ""); err != nil {
			t.Fatal(err)
		}
		v, err := e.svc.Case(coord, allocated)
		if err != nil || v.Record.Allocated != "" || v.Flow.State != cases.SecurityResponsible {
			t.Fatalf("after the security gate: allocated %q, state %s (%v)", v.Record.Allocated, v.Flow.State, err)
		}
		_, err = e.svc.Person(e.as(officerDE), allocated, "view")
		mustCode(t, "DE reads a person excluded from relocation", err, solidarity.ENOTFOUND)
	})
}
