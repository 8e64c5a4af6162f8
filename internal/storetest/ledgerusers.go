package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"solidarity"
)

func testUsers(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	if us, err := s.Users(ctx); err != nil || len(us) != 0 {
		t.Fatalf("Users of an empty store = %v, %v", us, err)
	}
	es := &solidarity.User{Name: "officer-es", Role: solidarity.Officer, State: "ES"}
	if err := s.CreateUser(ctx, es, "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$aGFzaA"); err != nil {
		t.Fatal(err)
	}
	aud := &solidarity.User{Name: "auditor", Role: solidarity.Auditor}
	if err := s.CreateUser(ctx, aud, ""); err != nil {
		t.Fatal(err)
	}
	if es.ID == 0 || aud.ID == 0 || es.ID == aud.ID {
		t.Fatalf("user ids %d and %d", es.ID, aud.ID)
	}
	wantCode(t, s.CreateUser(ctx, &solidarity.User{Name: "officer-es", Role: solidarity.Coordinator}, ""), solidarity.ECONFLICT)
	wantCode(t, s.CreateUser(ctx, &solidarity.User{Role: solidarity.Coordinator}, ""), solidarity.EINVALID)

	u, hash, err := s.UserByName(ctx, "officer-es")
	if err != nil {
		t.Fatal(err)
	}
	if *u != *es || hash != "$argon2id$v=19$m=65536,t=1,p=2$c2FsdA$aGFzaA" {
		t.Fatalf("UserByName = %+v %q", u, hash)
	}
	if u, hash, err := s.UserByName(ctx, "auditor"); err != nil || *u != *aud || hash != "" {
		t.Fatalf("UserByName(auditor) = %+v %q %v", u, hash, err)
	}
	_, _, err = s.UserByName(ctx, "nobody")
	wantCode(t, err, solidarity.ENOTFOUND)
	_, _, err = s.UserByName(ctx, "OFFICER-ES")
	wantCode(t, err, solidarity.ENOTFOUND)

	us, err := s.Users(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(us) != 2 || *us[0] != *es || *us[1] != *aud {
		t.Fatalf("Users = %+v", us)
	}
}

func testCredentials(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	u := &solidarity.User{Name: "coordinator", Role: solidarity.Coordinator}
	if err := s.CreateUser(ctx, u, ""); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)
	expires := now.Add(time.Hour)
	token := solidarity.Credential{Kind: "token", Hash: strings.Repeat("ab", 32), UserID: u.ID, Label: "ci"}
	session := solidarity.Credential{Kind: "session", Hash: strings.Repeat("cd", 32), UserID: u.ID, Expires: expires}
	for _, c := range []solidarity.Credential{token, session} {
		if err := s.CreateCredential(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	wantCode(t, s.CreateCredential(ctx, token), solidarity.ECONFLICT)
	wantCode(t, s.CreateCredential(ctx, solidarity.Credential{Kind: "token", Hash: "ef", UserID: u.ID + 1000}), solidarity.ENOTFOUND)

	found := func(kind, hash string, at time.Time) error {
		got, err := s.UserByCredential(ctx, kind, hash, at)
		if err == nil && *got != *u {
			t.Fatalf("UserByCredential(%s) = %+v, want %+v", kind, got, u)
		}
		return err
	}
	for _, at := range []time.Time{now, now.AddDate(50, 0, 0)} {
		if err := found("token", token.Hash, at); err != nil {
			t.Fatalf("token without expiry at %v: %v", at, err)
		}
	}
	if err := found("session", session.Hash, expires.Add(-time.Microsecond)); err != nil {
		t.Fatalf("session before expiry: %v", err)
	}
	for _, at := range []time.Time{expires, expires.Add(time.Second), now.AddDate(1, 0, 0)} {
		wantCode(t, found("session", session.Hash, at), solidarity.ENOTFOUND)
	}
	// The kind is part of the credential.
	wantCode(t, found("session", token.Hash, now), solidarity.ENOTFOUND)
	wantCode(t, found("token", "00", now), solidarity.ENOTFOUND)

	if err := s.DeleteCredential(ctx, "session", session.Hash); err != nil {
		t.Fatal(err)
	}
	wantCode(t, found("session", session.Hash, now), solidarity.ENOTFOUND)
	wantCode(t, s.DeleteCredential(ctx, "session", session.Hash), solidarity.ENOTFOUND)
	if err := found("token", token.Hash, now); err != nil {
		t.Fatalf("token after deleting the session: %v", err)
	}
}
