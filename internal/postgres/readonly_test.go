package postgres_test

import (
	"context"
	"testing"

	"solidarity"
	"solidarity/internal/ledgersvc"
	"solidarity/internal/pgtest"
	"solidarity/internal/postgres"
)

// A store opened ReadOnly reads and verifies the ledger, totals included, and writes
// nothing: every session is read-only in the server, and no migration runs.
func TestReadOnlyVerifies(t *testing.T) {
	ctx := context.Background()
	dsn := pgtest.Schema(t)
	rw, err := postgres.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	sys := solidarity.NewContextWithUser(ctx, solidarity.System)
	svc := ledgersvc.New(rw, nil)
	e := &solidarity.Entry{Cycle: 2027, Type: solidarity.PaymentMade, State: "DE", Actor: "x", Payload: []byte(`{"eur_cents":5}`)}
	if _, _, err := rw.Append(ctx, "", e, nil); err != nil {
		t.Fatal(err)
	}
	rw.Close()

	ro, err := postgres.Open(ctx, dsn, postgres.ReadOnly)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	svc = ledgersvc.New(ro, nil)
	v, err := svc.Verify(sys)
	if err != nil || !v.OK || v.Entries != 1 {
		t.Fatalf("verify read-only: %+v, %v", v, err)
	}
	if _, _, err := ro.Append(ctx, "", &solidarity.Entry{Cycle: 2027, Type: solidarity.PaymentMade, State: "DE", Actor: "x", Payload: []byte(`{"eur_cents":5}`)}, nil); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Fatalf("append on a read-only store: %v", err)
	}
	if err := ro.CreateUser(ctx, &solidarity.User{Name: "u", Role: solidarity.Auditor}, ""); err == nil {
		t.Fatal("a read-only store created a user")
	}
	// A database without the schema is refused, not migrated.
	if _, err := postgres.Open(ctx, pgtest.Schema(t), postgres.ReadOnly); solidarity.ErrorCode(err) != solidarity.EINVALID {
		t.Fatalf("read-only open of an empty schema: %v", err)
	}
}
