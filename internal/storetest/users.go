package storetest

import (
	"context"
	"strings"
	"testing"
	"time"

	"solidarity"
)

// testIdempotentPerActor: an idempotency key is its actor's own (issue 12: one
// global namespace let a user's retry answer 409 with another user's entry number).
// Two actors using the same key both write; each one's replay is still recognised,
// and the same key with another body is still a conflict for its actor. The same
// holds for the case flow's appends.
func testIdempotentPerActor(t *testing.T, h Harness) {
	ctx := context.Background()
	s := h.Store
	de := delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1)
	fr := delivery(t, cycle, "FR", solidarity.PaymentMade, 700, 2)
	if de.Actor == fr.Actor {
		t.Fatal("the fixture needs two actors")
	}
	first := mustAppend(t, s, "shared-key", de)
	second := mustAppend(t, s, "shared-key", fr)
	if second.Seq != first.Seq+1 {
		t.Fatalf("seqs %d, %d", first.Seq, second.Seq)
	}
	for _, tc := range []struct {
		e    *solidarity.Entry
		want *solidarity.Entry
	}{
		{delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1), first},
		{delivery(t, cycle, "FR", solidarity.PaymentMade, 700, 2), second},
	} {
		out, replayed, err := s.Append(ctx, "shared-key", tc.e, nil)
		if err != nil || !replayed || !sameStored(out, tc.want) {
			t.Fatalf("replay by %s: %+v replayed=%v %v, want seq %d", tc.e.Actor, out, replayed, err, tc.want.Seq)
		}
	}
	_, _, err := s.Append(ctx, "shared-key", delivery(t, cycle, "DE", solidarity.PaymentMade, 501, 1), nil)
	wantCode(t, err, solidarity.ECONFLICT)
	// A third actor's first use of the key, in one batch with the others' replays.
	it := delivery(t, cycle, "IT", solidarity.PaymentMade, 900, 3)
	results := make(chan error, 3)
	for _, e := range []*solidarity.Entry{delivery(t, cycle, "DE", solidarity.PaymentMade, 500, 1), it, delivery(t, cycle, "FR", solidarity.PaymentMade, 700, 2)} {
		go func() {
			out, replayed, err := s.Append(ctx, "shared-key", e, nil)
			if err == nil && replayed != (e.Actor != it.Actor) {
				err = solidarity.Errorf(solidarity.EINTERNAL, "%s: replayed=%v (seq %d)", e.Actor, replayed, out.Seq)
			}
			results <- err
		}()
	}
	for range 3 {
		if err := <-results; err != nil {
			t.Fatal(err)
		}
	}
	mustVerify(t, s, 3)

	cs, ok := s.(CaseStore)
	if !ok {
		return
	}
	a1, a2 := newArrival("ARR-K1", "IT", 1), newArrival("ARR-K2", "EL", 2)
	c1, c2 := newCase("C-K1", a1, "", 1), newCase("C-K2", a2, "", 2)
	e1 := mustAppendCase(t, cs, "landing", arrivalEntry(t, a1, c1), &solidarity.CaseWrite{Arrival: a1, Insert: []*solidarity.CaseRecord{c1}})
	mustAppendCase(t, cs, "landing", arrivalEntry(t, a2, c2), &solidarity.CaseWrite{Arrival: a2, Insert: []*solidarity.CaseRecord{c2}})
	a1r, c1r := newArrival("ARR-K1", "IT", 1), newCase("C-K1", a1, "", 1)
	out, replayed, err := cs.AppendCase(ctx, "landing", arrivalEntry(t, a1r, c1r), &solidarity.CaseWrite{Arrival: a1r, Insert: []*solidarity.CaseRecord{c1r}}, nil)
	if err != nil || !replayed || out.Seq != e1.Seq {
		t.Fatalf("case replay: seq %v replayed=%v %v, want seq %d", out, replayed, err, e1.Seq)
	}
	mustVerify(t, s, 5)
}

// testAccounts: disabling a user stops its sessions and tokens at once, tokens are
// listed and revoked by ID, sessions end when idle, and every change is in the admin
// log, written in the same transaction (issue 12). Each sub-test is one of these
// promises, on the state the ones before it left; the first that fails ends the case.
func testAccounts(t *testing.T, h Harness) {
	a := &accounts{ctx: context.Background(), s: h.Store, now: time.Date(2026, 5, 1, 12, 0, 0, 0, time.UTC)}
	for _, step := range []struct {
		name string
		run  func(t *testing.T)
	}{
		{"AddUser", a.addUser},
		{"Credentials", a.credentials},
		{"ExpiryAndTouch", a.expiry},
		{"DisableEnable", a.disable},
		{"PasswordChange", a.passwordChange},
		{"Tokens", a.tokens},
		{"AdminLog", a.adminLog},
		{"ProbeWrite", a.probeWrite},
	} {
		if !t.Run(step.name, step.run) {
			return
		}
	}
}

// accounts is what testAccounts' steps share: the store, the clock, one officer and
// its token and two sessions.
type accounts struct {
	ctx              context.Context
	s                solidarity.Store
	now              time.Time
	u                *solidarity.User
	tok, sess, other solidarity.Credential
}

// ev is an admin log line by the coordinator, now.
func (a *accounts) ev(action, user, detail string) solidarity.AdminEvent {
	return solidarity.AdminEvent{At: a.now, Actor: "coordinator", Action: action, User: user, Detail: detail}
}

// works reports whether c still signs in the officer at time at.
func (a *accounts) works(t *testing.T, c solidarity.Credential, at time.Time) error {
	t.Helper()
	gu, gc, err := a.s.CredentialUser(a.ctx, c.Kind, c.Hash, at)
	if err == nil && (gu.ID != a.u.ID || gc.UserID != a.u.ID || !gc.Expires.Equal(c.Expires) || !gc.IdleUntil.Equal(c.IdleUntil)) {
		t.Fatalf("CredentialUser(%s) = %+v %+v", c.Kind, gu, gc)
	}
	return err
}

// addUser: a user is added with a log line; a refused change writes none.
func (a *accounts) addUser(t *testing.T) {
	s, ctx := a.s, a.ctx
	a.u = &solidarity.User{Name: "officer-pt", Role: solidarity.Officer, State: "PT"}
	if err := s.AddUser(ctx, a.u, "hash-1", a.ev(solidarity.AdminUserAdd, "officer-pt", "officer PT")); err != nil {
		t.Fatal(err)
	}
	// A refused change writes no log line.
	wantCode(t, s.AddUser(ctx, &solidarity.User{Name: "officer-pt", Role: solidarity.Auditor}, "", a.ev(solidarity.AdminUserAdd, "officer-pt", "")), solidarity.ECONFLICT)
}

// credentials: a token (once per hash) and two sessions sign the officer in.
func (a *accounts) credentials(t *testing.T) {
	s, ctx, now, u := a.s, a.ctx, a.now, a.u
	a.tok = solidarity.Credential{Kind: "token", Hash: strings.Repeat("1a", 32), UserID: u.ID, Label: "ci", Expires: now.Add(48 * time.Hour)}
	got, err := s.CreateToken(ctx, a.tok, a.ev(solidarity.AdminTokenCreate, "officer-pt", "token 1a1a"))
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != strings.Repeat("1a", 8) || got.User != "officer-pt" || got.Label != "ci" || !got.Expires.Equal(a.tok.Expires) || got.Created.IsZero() {
		t.Fatalf("CreateToken = %+v", got)
	}
	wantCode(t, func() error { _, err := s.CreateToken(ctx, a.tok, solidarity.AdminEvent{}); return err }(), solidarity.ECONFLICT)
	a.sess = solidarity.Credential{Kind: "session", Hash: strings.Repeat("2b", 32), UserID: u.ID, Expires: now.Add(12 * time.Hour), IdleUntil: now.Add(30 * time.Minute)}
	a.other = solidarity.Credential{Kind: "session", Hash: strings.Repeat("3c", 32), UserID: u.ID, Expires: now.Add(12 * time.Hour)}
	for _, c := range []solidarity.Credential{a.sess, a.other} {
		if err := s.CreateCredential(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []solidarity.Credential{a.tok, a.sess, a.other} {
		if err := a.works(t, c, now); err != nil {
			t.Fatalf("%s: %v", c.Kind, err)
		}
	}
}

// expiry: a token ends at its Expires, a session at its idle limit; touching moves the
// idle limit, never past Expires.
func (a *accounts) expiry(t *testing.T) {
	s, ctx, now := a.s, a.ctx, a.now
	wantCode(t, a.works(t, a.tok, a.tok.Expires), solidarity.ENOTFOUND)
	wantCode(t, a.works(t, a.sess, a.sess.IdleUntil), solidarity.ENOTFOUND)
	if err := s.TouchSession(ctx, a.sess.Hash, now.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	a.sess.IdleUntil = now.Add(time.Hour)
	if err := a.works(t, a.sess, now.Add(45*time.Minute)); err != nil {
		t.Fatalf("touched session: %v", err)
	}
	if err := s.TouchSession(ctx, a.sess.Hash, now.Add(13*time.Hour)); err != nil {
		t.Fatal(err)
	}
	a.sess.IdleUntil = a.sess.Expires
	if err := a.works(t, a.sess, now); err != nil {
		t.Fatalf("session touched past its end: %v", err)
	}
}

// disable: everything stops at once; sessions are gone, tokens come back on enable.
func (a *accounts) disable(t *testing.T) {
	s, ctx, now := a.s, a.ctx, a.now
	yes, no := true, false
	du, err := s.UpdateUser(ctx, "officer-pt", solidarity.UserUpdate{Disabled: &yes, EndSessions: true}, a.ev(solidarity.AdminUserDisable, "officer-pt", ""))
	if err != nil || !du.Disabled {
		t.Fatalf("disable: %+v %v", du, err)
	}
	if bu, _, err := s.UserByName(ctx, "officer-pt"); err != nil || !bu.Disabled {
		t.Fatalf("UserByName after disable: %+v %v", bu, err)
	}
	for _, c := range []solidarity.Credential{a.tok, a.sess, a.other} {
		wantCode(t, a.works(t, c, now), solidarity.ENOTFOUND)
	}
	if eu, err := s.UpdateUser(ctx, "officer-pt", solidarity.UserUpdate{Disabled: &no}, a.ev(solidarity.AdminUserEnable, "officer-pt", "")); err != nil || eu.Disabled {
		t.Fatalf("enable: %+v %v", eu, err)
	}
	if err := a.works(t, a.tok, now); err != nil {
		t.Fatalf("token after enable: %v", err)
	}
	wantCode(t, a.works(t, a.sess, now), solidarity.ENOTFOUND)
}

// passwordChange: a password change ends the other sessions, keeping one; an unknown
// user is not found.
func (a *accounts) passwordChange(t *testing.T) {
	s, ctx, now := a.s, a.ctx, a.now
	for _, c := range []solidarity.Credential{a.sess, a.other} {
		if err := s.CreateCredential(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	h2 := "hash-2"
	if _, err := s.UpdateUser(ctx, "officer-pt", solidarity.UserUpdate{PasswordHash: &h2, EndSessions: true, KeepSession: a.sess.Hash},
		a.ev(solidarity.AdminPasswordChange, "officer-pt", "")); err != nil {
		t.Fatal(err)
	}
	if _, hash, err := s.UserByName(ctx, "officer-pt"); err != nil || hash != "hash-2" {
		t.Fatalf("password hash %q, %v", hash, err)
	}
	if err := a.works(t, a.sess, now); err != nil {
		t.Fatalf("the kept session: %v", err)
	}
	wantCode(t, a.works(t, a.other, now), solidarity.ENOTFOUND)
	yes := true
	_, err := s.UpdateUser(ctx, "nobody", solidarity.UserUpdate{Disabled: &yes}, a.ev(solidarity.AdminUserDisable, "nobody", ""))
	wantCode(t, err, solidarity.ENOTFOUND)
}

// tokens: listed without secrets, revoked by ID.
func (a *accounts) tokens(t *testing.T) {
	s, ctx, now := a.s, a.ctx, a.now
	aud := &solidarity.User{Name: "auditor", Role: solidarity.Auditor}
	if err := s.CreateUser(ctx, aud, ""); err != nil {
		t.Fatal(err)
	}
	tok2 := solidarity.Credential{Kind: "token", Hash: strings.Repeat("4d", 32), UserID: aud.ID}
	if _, err := s.CreateToken(ctx, tok2, solidarity.AdminEvent{}); err != nil {
		t.Fatal(err)
	}
	list := func(user string) string {
		t.Helper()
		ts, err := s.Tokens(ctx, user)
		if err != nil {
			t.Fatal(err)
		}
		var ids []string
		for _, x := range ts {
			ids = append(ids, x.User+":"+x.ID)
		}
		return strings.Join(ids, " ")
	}
	if got, want := list(""), "officer-pt:1a1a1a1a1a1a1a1a auditor:4d4d4d4d4d4d4d4d"; got != want {
		t.Fatalf("Tokens() = %s, want %s", got, want)
	}
	if got := list("auditor"); got != "auditor:4d4d4d4d4d4d4d4d" {
		t.Fatalf("Tokens(auditor) = %s", got)
	}
	rt, err := s.RevokeToken(ctx, "1a1a1a1a1a1a1a1a", a.ev(solidarity.AdminTokenRevoke, "", "token 1a1a1a1a1a1a1a1a"))
	if err != nil || rt.User != "officer-pt" || rt.Label != "ci" {
		t.Fatalf("RevokeToken = %+v, %v", rt, err)
	}
	wantCode(t, a.works(t, a.tok, now), solidarity.ENOTFOUND)
	_, err = s.RevokeToken(ctx, "1a1a1a1a1a1a1a1a", a.ev(solidarity.AdminTokenRevoke, "", ""))
	wantCode(t, err, solidarity.ENOTFOUND)
	_, err = s.RevokeToken(ctx, "1a", a.ev(solidarity.AdminTokenRevoke, "", ""))
	wantCode(t, err, solidarity.ENOTFOUND)
	if got := list(""); got != "auditor:4d4d4d4d4d4d4d4d" {
		t.Fatalf("Tokens after revoking = %s", got)
	}
}

// adminLog: every change above is one line, latest first, in the transaction that made
// it.
func (a *accounts) adminLog(t *testing.T) {
	s, ctx := a.s, a.ctx
	log, err := s.AdminLog(ctx, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range log {
		if !e.At.Equal(a.now) || e.Actor != "coordinator" || e.Seq == 0 {
			t.Errorf("admin log line %+v", e)
		}
		lines = append(lines, e.Action+" "+e.User)
	}
	want := "token.revoke officer-pt|password.change officer-pt|user.enable officer-pt|user.disable officer-pt|token.create officer-pt|user.add officer-pt"
	if got := strings.Join(lines, "|"); got != want {
		t.Fatalf("admin log, latest first:\n %s\nwant\n %s", got, want)
	}
	if l, err := s.AdminLog(ctx, 0, 2); err != nil || len(l) != 2 || l[0].Action != solidarity.AdminTokenRevoke {
		t.Fatalf("AdminLog(2) = %v, %v", l, err)
	}
	// Paged from before a sequence number: the events older than it, latest first,
	// and together the pages are the whole log.
	var paged []int64
	for before := int64(0); ; {
		l, err := s.AdminLog(ctx, before, 1)
		if err != nil {
			t.Fatal(err)
		}
		if len(l) == 0 {
			break
		}
		if before > 0 && l[0].Seq >= before {
			t.Fatalf("AdminLog(before %d) gave %d", before, l[0].Seq)
		}
		paged = append(paged, l[0].Seq)
		before = l[0].Seq
	}
	if len(paged) != len(log) {
		t.Fatalf("paged one at a time: %v, want the %d events", paged, len(log))
	}
	for i, ev := range log {
		if paged[i] != ev.Seq {
			t.Fatalf("paged %v, the log %v", paged, log)
		}
	}
}

// probeWrite: the health probe's write succeeds, again and again, after all of this.
func (a *accounts) probeWrite(t *testing.T) {
	for i := range 3 {
		if err := a.s.ProbeWrite(a.ctx); err != nil {
			t.Fatalf("ProbeWrite %d: %v", i, err)
		}
	}
}
