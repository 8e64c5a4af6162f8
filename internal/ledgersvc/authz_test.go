package ledgersvc_test

import (
	"context"
	"testing"
	"time"

	"solidarity"
)

// The authorisation matrix: every service operation × every role, asserting allow or
// deny. "Own" is the officer of the state the operation concerns (DE), "other" the
// officer of another state (FR). Allowed operations must also succeed, so the test
// cannot pass by refusing everything.
func TestAuthorizationMatrix(t *testing.T) {
	type op struct {
		name string
		run  func(f *fixture, ctx context.Context, i int) error
	}
	key := func(i int, s string) string { return s + "-" + string(rune('a'+i)) }
	ops := []op{
		{"amend cycle", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.AmendCycle(ctx, testCycle, "")
			return err
		}},
		{"set status", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.SetStatus(ctx, 2027, "DE", solidarity.StatusPayload{AtRisk: true}, "")
			return err
		}},
		{"pledge", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.Pledge(ctx, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 100}, "")
			return err
		}},
		{"request deduction", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.RequestDeduction(ctx, 2027, "DE", solidarity.DeductionPayload{Article: "Art. 61", Full: true}, "")
			return err
		}},
		{"assess deduction", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.AssessDeduction(ctx, 2027, "DED-2027-DE-1", solidarity.AssessmentPayload{}, "")
			return err
		}},
		{"decide deduction", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.DecideDeduction(ctx, 2027, "DED-2027-DE-1", solidarity.DeductionPayload{Act: "CID"}, "")
			return err
		}},
		{"deliver", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.Deliver(ctx, 2027, "DE", solidarity.PaymentMade, solidarity.DeliveryPayload{EURCents: 1}, key(i, "pay"))
			return err
		}},
		{"reply offset", func(f *fixture, ctx context.Context, i int) error {
			_, _, err := f.svc.ReplyOffset(ctx, 2027, "OFF-2027-IT-1", solidarity.ReplyPayload{Accepted: 1}, "")
			return err
		}},
		{"read ledger", func(f *fixture, ctx context.Context, i int) error {
			_, err := f.svc.Entries(ctx, solidarity.EntryFilter{})
			return err
		}},
		{"verify ledger", func(f *fixture, ctx context.Context, i int) error {
			_, err := f.svc.Verify(ctx)
			return err
		}},
		{"balances", func(f *fixture, ctx context.Context, i int) error {
			_, err := reported(f.svc.Balances(ctx, 2027, time.Time{}))
			return err
		}},
		{"add user", func(f *fixture, ctx context.Context, i int) error {
			return f.svc.AddUser(ctx, &solidarity.User{Name: key(i, "user"), Role: solidarity.Auditor}, "")
		}},
	}
	roles := []struct {
		name string
		user *solidarity.User
	}{{"coordinator", coordinator}, {"own officer", officerDE}, {"other officer", officerFR}, {"auditor", auditor}, {"public", nil}}
	// allowed[op][role], in the order of ops and roles.
	allowed := map[string][5]bool{
		"amend cycle":       {true, false, false, false, false},
		"set status":        {true, false, false, false, false},
		"pledge":            {true, true, false, false, false},
		"request deduction": {true, true, false, false, false},
		"assess deduction":  {true, false, false, false, false},
		"decide deduction":  {true, false, false, false, false},
		"deliver":           {true, true, false, false, false},
		"reply offset":      {true, true, false, false, false},
		"read ledger":       {true, true, true, true, false}, // officers: their own state's entries
		"verify ledger":     {true, false, false, true, false},
		"balances":          {true, true, true, true, true},
		"add user":          {true, false, false, false, false},
	}
	for _, o := range ops {
		for ri, r := range roles {
			t.Run(o.name+"/"+r.name, func(t *testing.T) {
				f := newFixture(t)
				setupMatrix(t, f)
				err := o.run(f, solidarity.NewContextWithUser(context.Background(), r.user), ri)
				want := allowed[o.name][ri]
				if got := solidarity.ErrorCode(err) != solidarity.EUNAUTHORIZED; got != want {
					t.Fatalf("allowed=%v, want %v (err %v)", got, want, err)
				}
				if want && err != nil {
					t.Fatalf("allowed but failed: %v", err)
				}
			})
		}
	}
}

// setupMatrix makes every operation possible: DE pledged money, requested a deduction,
// and IT asked DE for offsets once the Art. 63(1) threshold was met.
func setupMatrix(t *testing.T, f *fixture) {
	t.Helper()
	must := func(_ *solidarity.Entry, _ bool, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.svc.Pledge(f.coord, 2027, "DE", solidarity.PledgePayload{Type: solidarity.Financial, EURCents: 1_000_000}, ""))
	must(f.svc.Pledge(f.coord, 2027, "FR", solidarity.PledgePayload{Type: solidarity.RelocationApplicants, Relocations: 15000}, ""))
	must(f.svc.RequestDeduction(f.coord, 2027, "DE", solidarity.DeductionPayload{Article: "Art. 61", Fraction: "1/10"}, ""))
	must(f.svc.RequestOffset(f.coord, 2027, "IT", solidarity.OffsetPayload{Counterpart: "DE", Applications: 5}, ""))
}
