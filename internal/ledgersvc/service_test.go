package ledgersvc_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/cyclefile"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/pgtest"
	"solidarity/internal/postgres"
	"solidarity/internal/report"
	"solidarity/internal/sqlite"
)

// A cycle small enough to reason about: the 2027 illustrative file with statuses.
const testCycle = `year = 2027
title = "test pool"
pool_start = 2027-01-01
deadline = 2027-12-31
method = "largest-remainder"

[proposal]
relocations = 30000
eur = 600_000_000

[reference]
relocations = 30000
eur = 600_000_000

[status.IT]
under_pressure = true
benefitting = true
`

type fixture struct {
	svc   *ledgersvc.Service
	now   time.Time
	coord context.Context
}

func as(u *solidarity.User) context.Context {
	return solidarity.NewContextWithUser(context.Background(), u)
}

var (
	coordinator = &solidarity.User{ID: 1, Name: "coord", Role: solidarity.Coordinator}
	officerDE   = &solidarity.User{ID: 2, Name: "de", Role: solidarity.Officer, State: "DE"}
	officerFR   = &solidarity.User{ID: 3, Name: "fr", Role: solidarity.Officer, State: "FR"}
	officerIT   = &solidarity.User{ID: 4, Name: "it", Role: solidarity.Officer, State: "IT"}
	auditor     = &solidarity.User{ID: 5, Name: "audit", Role: solidarity.Auditor}
)

// backend is the store the service tests run on: "sqlite" by default; TestMain runs
// the whole package again on PostgreSQL (SOLIDARITY_LEDGERSVC_BACKEND=postgres) when a
// test server is configured.
var backend = os.Getenv("SOLIDARITY_LEDGERSVC_BACKEND")

func openStore(t testing.TB) solidarity.Store {
	t.Helper()
	if backend == "postgres" {
		st, err := postgres.Open(context.Background(), pgtest.WithParams(pgtest.Schema(t), "pool_max_conns", "4"))
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	st, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "test.db"))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// TestMain runs the package's tests on SQLite, then once more on PostgreSQL in a
// child process when SOLIDARITY_TEST_POSTGRES is set: one suite, both databases.
func TestMain(m *testing.M) {
	code := m.Run()
	if code == 0 && backend == "" && os.Getenv("SOLIDARITY_TEST_POSTGRES") != "" {
		args := append([]string{}, os.Args[1:]...)
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), "SOLIDARITY_LEDGERSVC_BACKEND=postgres")
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			fmt.Fprintln(os.Stderr, "ledgersvc tests on PostgreSQL failed:", err)
			code = 1
		}
	}
	os.Exit(code)
}

func newFixture(t *testing.T) *fixture { return newBenchFixture(t) }

// newBenchFixture builds the fixture for a test or a benchmark.
func newBenchFixture(t testing.TB) *fixture {
	t.Helper()
	st := openStore(t)
	t.Cleanup(func() { st.Close() })
	f := &fixture{now: time.Date(2027, 3, 1, 12, 0, 0, 0, time.UTC), coord: as(coordinator)}
	f.svc = ledgersvc.New(st, nil)
	f.svc.Now = func() time.Time { return f.now }
	if _, _, err := f.svc.CreateCycle(f.coord, testCycle, ""); err != nil {
		t.Fatal(err)
	}
	return f
}

func code(err error) string { return solidarity.ErrorCode(err) }

// reported is the report of the balances b (as the API and the pages show them), or err.
func reported(b *ledgersvc.Balances, err error) (*report.Balances, error) {
	if err != nil {
		return nil, err
	}
	return report.FromBalances(b), nil
}

func TestRulesRefuseAndWriteNothing(t *testing.T) {
	f := newFixture(t)
	ctx := context.Background()
	de := as(officerDE)
	if _, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 100}, ""); err != nil {
		t.Fatal(err)
	}
	head := func() int64 { s, _, _ := f.svc.Store.Head(ctx); return s }
	before := head()
	for _, tc := range []struct {
		name, want string
		run        func() error
	}{
		{"pledge for a state outside the cycle", solidarity.EINVALID, func() error {
			_, _, err := f.svc.Pledge(f.coord, 2027, "DK", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, "")
			return err
		}},
		{"pledge for a cycle that does not exist", solidarity.ENOTFOUND, func() error {
			_, _, err := f.svc.Pledge(f.coord, 2031, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, "")
			return err
		}},
		{"delivery above the pledge without the flag", solidarity.ECONFLICT, func() error {
			_, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 101}, "")
			return err
		}},
		{"a transfer recorded as a delivery by hand", solidarity.EINVALID, func() error {
			_, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 1,
				Transfer: &solidarity.CaseEventPayload{Event: "transferred"}}, "")
			return err
		}},
		{"payment with no financial pledge", solidarity.ECONFLICT, func() error {
			_, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.PaymentMade, solidarity.DeliveryPayload{EURCents: 1}, "")
			return err
		}},
		{"deduction decision without a request", solidarity.ECONFLICT, func() error {
			_, _, err := f.svc.DecideDeduction(f.coord, 2027, "DED-2027-DE-1", solidarity.DeductionPayload{Granted: true, Full: true, Act: "CID 1"}, "")
			return err
		}},
		{"officer acting for another state", solidarity.EUNAUTHORIZED, func() error {
			_, _, err := f.svc.Pledge(de, 2027, "FR", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, "")
			return err
		}},
		{"auditor writing", solidarity.EUNAUTHORIZED, func() error {
			_, _, err := f.svc.Pledge(as(auditor), 2027, "FR", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, "")
			return err
		}},
		{"public writing", solidarity.EUNAUTHORIZED, func() error {
			_, _, err := f.svc.Pledge(ctx, 2027, "FR", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, "")
			return err
		}},
		{"negative pledge", solidarity.EINVALID, func() error {
			_, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: -1}, "")
			return err
		}},
		{"deduction under the wrong article", solidarity.EINVALID, func() error {
			_, _, err := f.svc.RequestDeduction(de, 2027, "DE", solidarity.DeductionPayload{Article: "Art. 12", Full: true}, "")
			return err
		}},
		{"second cycle for the same year", solidarity.ECONFLICT, func() error {
			_, _, err := f.svc.CreateCycle(f.coord, testCycle, "")
			return err
		}},
		{"offset request below the Art. 63(1) threshold", solidarity.ECONFLICT, func() error {
			_, _, err := f.svc.RequestOffset(as(officerIT), 2027, "IT", solidarity.OffsetPayload{Counterpart: "DE", Applications: 10}, "")
			return err
		}},
	} {
		err := tc.run()
		if code(err) != tc.want {
			t.Errorf("%s: got %v, want %s", tc.name, err, tc.want)
		}
		if head() != before {
			t.Fatalf("%s: the refused operation wrote an entry", tc.name)
		}
	}
	// With the flag, over-delivery is recorded.
	if _, _, err := f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 101, OverDelivery: true}, ""); err != nil {
		t.Fatal(err)
	}
}

func TestDeductionFlowChangesObligation(t *testing.T) {
	f := newFixture(t)
	fr := as(officerFR)
	e, _, err := f.svc.RequestDeduction(fr, 2027, "FR", solidarity.DeductionPayload{Article: "Art. 62", Fraction: "1/2", Reason: "reception capacity reached"}, "")
	if err != nil {
		t.Fatal(err)
	}
	if e.Ref != "DED-2027-FR-1" {
		t.Fatalf("ref %q", e.Ref)
	}
	// Officers do not assess or decide: those are the Commission's and the Council's acts.
	if _, _, err := f.svc.DecideDeduction(fr, 2027, e.Ref, solidarity.DeductionPayload{Granted: true, Full: true, Act: "x"}, ""); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("officer decided: %v", err)
	}
	if _, _, err := f.svc.AssessDeduction(f.coord, 2027, e.Ref, solidarity.AssessmentPayload{Favourable: true}, ""); err != nil {
		t.Fatal(err)
	}
	before, _ := reported(f.svc.Balances(f.coord, 2027, time.Time{}))
	f.now = f.now.Add(10 * 24 * time.Hour)
	if _, _, err := f.svc.DecideDeduction(f.coord, 2027, e.Ref, solidarity.DeductionPayload{Granted: true, Fraction: "1/2", Act: "Council Implementing Decision (EU) 2027/1"}, ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := f.svc.DecideDeduction(f.coord, 2027, e.Ref, solidarity.DeductionPayload{Granted: true, Fraction: "1/2", Act: "again"}, ""); code(err) != solidarity.ECONFLICT {
		t.Fatalf("second decision: %v", err)
	}
	after, _ := reported(f.svc.Balances(f.coord, 2027, time.Time{}))
	b, _ := before.Pool.State("FR")
	a, _ := after.Pool.State("FR")
	if string(*b.Obligation) == string(*a.Obligation) || string(*a.Deducted) == "0.00" {
		t.Fatalf("obligation %s → %s", *b.Obligation, *a.Obligation)
	}
	// As of a day before the decision, the deduction does not count yet.
	asOf, _ := reported(f.svc.Balances(f.coord, 2027, f.now.Add(-24*time.Hour)))
	o, _ := asOf.Pool.State("FR")
	if string(*o.Obligation) != string(*b.Obligation) {
		t.Fatalf("as of the day before: %s, want %s", *o.Obligation, *b.Obligation)
	}
}

func TestOffsetReplyDeadline(t *testing.T) {
	f := newFixture(t)
	// Reach the Art. 63(1) threshold: 15 000 relocation pledges (50 % of 30 000).
	if _, _, err := f.svc.Pledge(f.coord, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 15000}, ""); err != nil {
		t.Fatal(err)
	}
	it := as(officerIT)
	req, _, err := f.svc.RequestOffset(it, 2027, "IT", solidarity.OffsetPayload{Counterpart: "DE", Applications: 50}, "")
	if err != nil {
		t.Fatalf("offset request with the threshold met: %v", err)
	}
	// Only the counterpart replies.
	if _, _, err := f.svc.ReplyOffset(as(officerFR), 2027, req.Ref, solidarity.ReplyPayload{Accepted: 10}, ""); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("FR replied to a request to DE: %v", err)
	}
	if _, _, err := f.svc.ReplyOffset(as(officerDE), 2027, req.Ref, solidarity.ReplyPayload{Accepted: 51}, ""); code(err) != solidarity.EINVALID {
		t.Fatalf("accepted more than asked: %v", err)
	}
	f.now = f.now.Add(31 * 24 * time.Hour)
	if _, _, err := f.svc.ReplyOffset(as(officerDE), 2027, req.Ref, solidarity.ReplyPayload{Accepted: 40}, ""); code(err) != solidarity.ECONFLICT || !strings.Contains(err.Error(), "Art. 69(2)") {
		t.Fatalf("reply after 31 days: %v", err)
	}
	f.now = f.now.Add(-2 * 24 * time.Hour)
	if _, _, err := f.svc.ReplyOffset(as(officerDE), 2027, req.Ref, solidarity.ReplyPayload{Accepted: 40}, ""); err != nil {
		t.Fatalf("reply on day 29: %v", err)
	}
	b, _ := reported(f.svc.Balances(f.coord, 2027, time.Time{}))
	for _, s := range b.States {
		if s.State == "DE" && s.Delivered.OffsetsAccepted != 40 {
			t.Errorf("DE accepted offsets %d", s.Delivered.OffsetsAccepted)
		}
	}
}

func TestIdempotency(t *testing.T) {
	f := newFixture(t)
	de := as(officerDE)
	p := solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100_000_00}
	a, replayed, err := f.svc.Pledge(de, 2027, "DE", p, "key-1")
	if err != nil || replayed {
		t.Fatal(err, replayed)
	}
	b, replayed, err := f.svc.Pledge(de, 2027, "DE", p, "key-1")
	if err != nil || !replayed || b.Seq != a.Seq || b.Hash != a.Hash {
		t.Fatalf("retry: %v %v %+v", err, replayed, b)
	}
	if _, _, err := f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 5}, "key-1"); code(err) != solidarity.ECONFLICT {
		t.Fatalf("another body under the same key: %v", err)
	}
}

func TestBalancesAndPace(t *testing.T) {
	f := newFixture(t)
	de := as(officerDE)
	f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 1000}, "")
	f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 20_000_000_00}, "") // 1 000 units
	f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 100}, "")
	f.svc.Deliver(de, 2027, "DE", solidarity.PaymentMade, solidarity.DeliveryPayload{EURCents: 2_000_000_00}, "") // 100 units
	f.now = time.Date(2027, 7, 2, 12, 0, 0, 0, time.UTC)                                                          // about half the year
	b, err := reported(f.svc.Balances(context.Background(), 2027, time.Time{}))
	if err != nil {
		t.Fatal(err)
	}
	var de2 report.StateBalance
	for _, s := range b.States {
		if s.State == "DE" {
			de2 = s
		}
	}
	if de2.Delivered.Relocations != 100 || string(de2.Delivered.Units) != "200.00" || string(*de2.PledgedUnits) != "2000.00" {
		t.Fatalf("DE delivered %+v pledged %v", de2.Delivered, *de2.PledgedUnits)
	}
	// Pace counts the 1 000 relocations only (Art. 60(3) exempts money): ~500 expected.
	if string(de2.Pace.NonFinancialPledged) != "1000.00" || !de2.Pace.Behind {
		t.Fatalf("pace %+v", de2.Pace)
	}
	if !de2.Pace.Known {
		t.Fatal("DE pledged: its pace is known")
	}
	// FR pledged nothing anyone reported: its pace is unknown, never "on pace".
	for _, s := range b.States {
		if s.State == "FR" && (s.Pace.Known || s.Pace.Behind) {
			t.Fatalf("FR pace %+v", s.Pace)
		}
	}
	ob := string(*de2.Obligation)
	if de2.Outstanding == nil || fmt.Sprint(*de2.Outstanding) == ob {
		t.Fatalf("outstanding %v obligation %s", de2.Outstanding, ob)
	}
}

func TestVerifyAndEntriesVisibility(t *testing.T) {
	f := newFixture(t)
	f.svc.Pledge(as(officerDE), 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1}, "")
	f.svc.Pledge(as(officerFR), 2027, "FR", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1}, "")
	v, err := f.svc.Verify(as(auditor))
	if err != nil || !v.OK || v.Entries != 3 {
		t.Fatalf("verify %+v %v", v, err)
	}
	if _, err := f.svc.Verify(as(officerDE)); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("officer verified: %v", err)
	}
	es, err := f.svc.Entries(as(officerDE), solidarity.EntryFilter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range es {
		if e.State != "DE" {
			t.Fatalf("officer of DE saw an entry of %q", e.State)
		}
	}
	fr := solidarity.MemberState("FR")
	if _, err := f.svc.Entries(as(officerDE), solidarity.EntryFilter{State: &fr}); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("officer of DE read FR: %v", err)
	}
	if _, err := f.svc.Entries(context.Background(), solidarity.EntryFilter{}); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("public read the ledger: %v", err)
	}
}

func TestShippedCyclesLoadIntoTheLedger(t *testing.T) {
	f := newFixture(t)
	src, _ := cyclefile.ShippedSource(2026)
	if _, _, err := f.svc.CreateCycle(f.coord, string(src), ""); err != nil {
		t.Fatal(err)
	}
	b, err := reported(f.svc.Balances(context.Background(), 2026, time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)))
	if err != nil {
		t.Fatal(err)
	}
	if len(b.States) != 26 || b.Pool.Union.Reference.Relocations != 21000 {
		t.Fatalf("2026 balances: %d states", len(b.States))
	}
}

func TestUsersAndCredentials(t *testing.T) {
	f := newFixture(t)
	ctx := solidarity.NewContextWithUser(context.Background(), solidarity.System)
	if err := f.svc.AddUser(ctx, &solidarity.User{Name: "officer-de", Role: solidarity.Officer, State: "DE"}, "correct horse battery"); err != nil {
		t.Fatal(err)
	}
	if err := f.svc.AddUser(ctx, &solidarity.User{Name: "x", Role: solidarity.Officer}, "correct horse battery"); code(err) != solidarity.EINVALID {
		t.Fatalf("officer without a state: %v", err)
	}
	if err := f.svc.AddUser(as(officerDE), &solidarity.User{Name: "y", Role: solidarity.Coordinator}, "correct horse battery"); code(err) != solidarity.EUNAUTHORIZED {
		t.Fatalf("officer added a coordinator: %v", err)
	}
	if _, _, err := f.svc.Login(ctx, "nobody", "wrong password!"); code(err) != solidarity.EUNAUTHENTICATED {
		t.Fatalf("unknown user: %v", err)
	}
	if _, _, err := f.svc.Login(ctx, "officer-de", "wrong password!"); code(err) != solidarity.EUNAUTHENTICATED {
		t.Fatalf("wrong password: %v", err)
	}
	u, secret, err := f.svc.Login(ctx, "officer-de", "correct horse battery")
	if err != nil || u.State != "DE" {
		t.Fatal(err)
	}
	got, err := f.svc.Authenticate(ctx, ledgersvc.KindSession, secret)
	if err != nil || got.Name != "officer-de" {
		t.Fatalf("session: %v", err)
	}
	f.now = f.now.Add(ledgersvc.SessionLifetime + time.Minute)
	if _, err := f.svc.Authenticate(ctx, ledgersvc.KindSession, secret); code(err) != solidarity.EUNAUTHENTICATED {
		t.Fatalf("expired session accepted: %v", err)
	}
	tok, err := f.svc.CreateToken(ctx, "officer-de", "ci")
	if err != nil {
		t.Fatal(err)
	}
	if got, err := f.svc.Authenticate(ctx, ledgersvc.KindToken, tok); err != nil || got.State != "DE" {
		t.Fatalf("token: %v", err)
	}
	if _, err := f.svc.Authenticate(ctx, ledgersvc.KindSession, tok); code(err) != solidarity.EUNAUTHENTICATED {
		t.Fatalf("a token used as a session: %v", err)
	}
}

// TestDailyTotals: a state's deliveries per day of recording, in its cycle only,
// readable by the public.
func TestDailyTotals(t *testing.T) {
	f := newFixture(t)
	de := as(officerDE)
	f.svc.Pledge(de, 2027, "DE", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 1000}, "")
	f.now = time.Date(2027, 3, 1, 9, 0, 0, 0, time.UTC)
	f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 10}, "")
	f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 5}, "")
	f.now = time.Date(2027, 3, 4, 9, 0, 0, 0, time.UTC)
	f.svc.Deliver(de, 2027, "DE", solidarity.RelocationDelivered, solidarity.DeliveryPayload{Relocations: 7}, "")
	days, err := f.svc.DailyTotals(context.Background(), 2027, "DE")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range days {
		got = append(got, fmt.Sprintf("%s:%d", d.Day, d.Delivered.Of(solidarity.RelocationDelivered)))
	}
	if want := "[2027-03-01:15 2027-03-04:7]"; fmt.Sprint(got) != want {
		t.Fatalf("DE's days %v, want %s", got, want)
	}
	if days, err := f.svc.DailyTotals(context.Background(), 2027, "FR"); err != nil || len(days) != 0 {
		t.Fatalf("FR: %v %v, want none", days, err)
	}
}
