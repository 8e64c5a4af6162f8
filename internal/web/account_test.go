package web_test

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"solidarity"
	"solidarity/internal/ledgersvc"
)

// useClock makes the service run on the fixture's settable clock.
func (f *fixture) useClock() { f.svc.Now = f.clock.Now }

func formBody(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		v.Set(kv[i], kv[i+1])
	}
	return v.Encode()
}

const formType = "application/x-www-form-urlencoded"

// TestTokenLifecycle: tokens expire (a default lifetime, or the ttl asked for), are
// listed without their secrets and are revoked at once (issue 12: tokens never
// expired and could not be revoked).
func TestTokenLifecycle(t *testing.T) {
	f := newFixture(t, fixtureOpts{})
	f.useClock()
	res, body := f.do(req{method: "POST", path: "/api/v1/tokens", as: "coord", body: `{"name":"de","label":"ci","ttl":"48h"}`})
	if res.StatusCode != 201 {
		t.Fatalf("create: %d %s", res.StatusCode, body)
	}
	var created struct {
		Token   string    `json:"token"`
		ID      string    `json:"id"`
		Expires time.Time `json:"expires_at"`
	}
	if err := json.Unmarshal([]byte(body), &created); err != nil || created.Token == "" || len(created.ID) != solidarity.TokenIDLength {
		t.Fatalf("create: %s (%v)", body, err)
	}
	if want := f.clock.Now().Add(48 * time.Hour); !created.Expires.Equal(want) {
		t.Fatalf("expires %v, want %v", created.Expires, want)
	}
	bearer := map[string]string{"Authorization": "Bearer " + created.Token}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", header: bearer}); res.StatusCode != 200 {
		t.Fatalf("the new token: %d", res.StatusCode)
	}
	// The default lifetime applies to a token created without ttl.
	res, body = f.do(req{method: "POST", path: "/api/v1/tokens", as: "coord", body: `{"name":"de"}`})
	var def struct {
		Expires time.Time `json:"expires_at"`
	}
	json.Unmarshal([]byte(body), &def)
	if res.StatusCode != 201 || !def.Expires.Equal(f.clock.Now().Add(ledgersvc.DefaultTokenLifetime)) {
		t.Fatalf("default lifetime: %d %s", res.StatusCode, body)
	}
	for _, bad := range []string{`"0s"`, `"-1h"`, `"400d"`, `"soon"`} {
		if res, body := f.do(req{method: "POST", path: "/api/v1/tokens", as: "coord", body: `{"name":"de","ttl":` + bad + `}`}); res.StatusCode != 400 || apiErr(t, body).Field != "ttl" {
			t.Errorf("ttl %s: %d %s", bad, res.StatusCode, body)
		}
	}

	// Listing: an officer sees its own tokens, the coordinator everyone's; no secrets.
	_, body = f.do(req{method: "GET", path: "/api/v1/tokens", as: "de"})
	if strings.Contains(body, created.Token) || strings.Contains(body, `"fr"`) || !strings.Contains(body, created.ID) {
		t.Fatalf("officer's list: %s", body)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens?user=fr", as: "de"}); res.StatusCode != 403 {
		t.Fatalf("an officer listing another's tokens: %d", res.StatusCode)
	}
	if _, body := f.do(req{method: "GET", path: "/api/v1/tokens", as: "coord"}); !strings.Contains(body, `"user": "fr"`) {
		t.Fatalf("coordinator's list: %s", body)
	}

	// Expiry.
	f.clock.Add(48 * time.Hour)
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", header: bearer}); res.StatusCode != 401 {
		t.Fatalf("an expired token: %d", res.StatusCode)
	}

	// Revocation: another's token is not found for an officer; its own goes at once.
	_, body = f.do(req{method: "GET", path: "/api/v1/tokens?user=fr", as: "coord"})
	var frList struct{ Tokens []solidarity.Token }
	json.Unmarshal([]byte(body), &frList)
	if len(frList.Tokens) != 1 {
		t.Fatalf("fr's tokens: %s", body)
	}
	if res, _ := f.do(req{method: "DELETE", path: "/api/v1/tokens/" + frList.Tokens[0].ID, as: "de"}); res.StatusCode != 404 {
		t.Fatalf("an officer revoking another's token: %d", res.StatusCode)
	}
	if res, body := f.do(req{method: "DELETE", path: "/api/v1/tokens/" + frList.Tokens[0].ID, as: "fr"}); res.StatusCode != 200 {
		t.Fatalf("revoke own: %d %s", res.StatusCode, body)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", as: "fr"}); res.StatusCode != 401 {
		t.Fatalf("a revoked token: %d", res.StatusCode)
	}

	// The admin log has it all, and no secret.
	_, body = f.do(req{method: "GET", path: "/api/v1/admin-log", as: "audit"})
	for _, want := range []string{`"action": "token.create"`, `"action": "token.revoke"`, `"actor": "coord"`, `"actor": "fr"`, created.ID} {
		if !strings.Contains(body, want) {
			t.Errorf("admin log lacks %s:\n%s", want, body)
		}
	}
	if strings.Contains(body, created.Token) {
		t.Error("the admin log holds a token secret")
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/admin-log", as: "de"}); res.StatusCode != 403 {
		t.Errorf("an officer reading the admin log: %d", res.StatusCode)
	}
}

// TestDisableUser: a disabled user's sessions and tokens stop at once and it cannot
// log in; enabled again, its tokens work and it logs in.
func TestDisableUser(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	cookie := f.session("de")
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", cookie: cookie}); res.StatusCode != 200 {
		t.Fatalf("before: %d", res.StatusCode)
	}
	if res, body := f.do(req{method: "POST", path: "/api/v1/users/de/disable", as: "de"}); res.StatusCode != 403 {
		t.Fatalf("an officer disabling: %d %s", res.StatusCode, body)
	}
	if res, body := f.do(req{method: "POST", path: "/api/v1/users/coord/disable", as: "coord"}); res.StatusCode != 400 {
		t.Fatalf("disabling oneself: %d %s", res.StatusCode, body)
	}
	res, body := f.do(req{method: "POST", path: "/api/v1/users/de/disable", as: "coord"})
	if res.StatusCode != 200 || !strings.Contains(body, `"disabled": true`) {
		t.Fatalf("disable: %d %s", res.StatusCode, body)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", as: "de"}); res.StatusCode != 401 {
		t.Fatalf("a disabled user's token: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", cookie: cookie}); res.StatusCode != 401 {
		t.Fatalf("a disabled user's session: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/ledger", cookie: cookie}); res.StatusCode != 303 {
		t.Fatalf("a disabled user's session on a page: %d", res.StatusCode)
	}
	login := `{"name":"de","password":"` + testPassword + `"}`
	if res, _ := f.do(req{method: "POST", path: "/api/v1/session", body: login}); res.StatusCode != 401 {
		t.Fatalf("a disabled user logging in: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "POST", path: "/api/v1/users/de/enable", as: "coord"}); res.StatusCode != 200 {
		t.Fatalf("enable: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", as: "de"}); res.StatusCode != 200 {
		t.Fatalf("the token of an enabled user: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", cookie: cookie}); res.StatusCode != 401 {
		t.Fatalf("the session ended by disabling came back: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "POST", path: "/api/v1/session", body: login}); res.StatusCode != 201 {
		t.Fatalf("an enabled user logging in: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "POST", path: "/api/v1/users/nobody/disable", as: "coord"}); res.StatusCode != 404 {
		t.Fatalf("an unknown user: %d", res.StatusCode)
	}
}

// TestPasswordChangeAndReset: a user changes its own password (knowing the current
// one), which ends its other sessions; a coordinator resets one, which ends them all.
func TestPasswordChangeAndReset(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	here, elsewhere := f.session("fr"), f.session("fr")
	const newPassword = "a new and longer passphrase"
	change := func(cookie *http.Cookie, current, next string) (*http.Response, string) {
		b, _ := json.Marshal(map[string]string{"current": current, "new": next})
		return f.do(req{method: "POST", path: "/api/v1/account/password", cookie: cookie, body: string(b)})
	}
	if res, body := change(here, "wrong password at all", newPassword); res.StatusCode != 403 || apiErr(t, body).Field != "current" {
		t.Fatalf("wrong current password: %d %s", res.StatusCode, body)
	}
	if res, body := change(here, testPassword, "short"); res.StatusCode != 400 || apiErr(t, body).Field != "new" {
		t.Fatalf("short new password: %d %s", res.StatusCode, body)
	}
	if res, body := change(here, testPassword, newPassword); res.StatusCode != 204 {
		t.Fatalf("change: %d %s", res.StatusCode, body)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", cookie: here}); res.StatusCode != 200 {
		t.Fatalf("the session that changed it: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", cookie: elsewhere}); res.StatusCode != 401 {
		t.Fatalf("another session after the change: %d", res.StatusCode)
	}
	if _, _, err := f.svc.Login(system(), "fr", testPassword); solidarity.ErrorCode(err) != solidarity.EUNAUTHENTICATED {
		t.Fatalf("the old password: %v", err)
	}
	if _, _, err := f.svc.Login(system(), "fr", newPassword); err != nil {
		t.Fatalf("the new password: %v", err)
	}

	// Reset by the coordinator: a generated password, all sessions end.
	if res, _ := f.do(req{method: "POST", path: "/api/v1/users/fr/password", as: "de"}); res.StatusCode != 403 {
		t.Fatalf("an officer resetting: %d", res.StatusCode)
	}
	res, body := f.do(req{method: "POST", path: "/api/v1/users/fr/password", as: "coord"})
	var reset struct{ Password string }
	json.Unmarshal([]byte(body), &reset)
	if res.StatusCode != 200 || len(reset.Password) < ledgersvc.MinPasswordLength || res.Header.Get("Cache-Control") != "no-store" {
		t.Fatalf("reset: %d %s", res.StatusCode, body)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", cookie: here}); res.StatusCode != 401 {
		t.Fatalf("a session after the reset: %d", res.StatusCode)
	}
	if _, _, err := f.svc.Login(system(), "fr", reset.Password); err != nil {
		t.Fatalf("the reset password: %v", err)
	}
	_, body = f.do(req{method: "GET", path: "/api/v1/admin-log", as: "coord"})
	for _, want := range []string{`"action": "password.change"`, `"action": "password.reset"`} {
		if !strings.Contains(body, want) {
			t.Errorf("admin log lacks %s", want)
		}
	}
	for _, secret := range []string{reset.Password, newPassword, testPassword, here.Value} {
		if strings.Contains(body, secret) || strings.Contains(f.logs.String(), secret) {
			t.Errorf("a secret in the admin log or the server log")
		}
	}
}

// TestSessionExpiry: a session ends after SessionIdle without use, and after
// SessionLifetime however much it is used.
func TestSessionExpiry(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	f.useClock()
	use := func(c *http.Cookie) int {
		t.Helper()
		res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", cookie: c})
		return res.StatusCode
	}
	idle := f.session("de")
	f.clock.Add(ledgersvc.SessionIdle)
	if c := use(idle); c != 401 {
		t.Fatalf("after %v idle: %d", ledgersvc.SessionIdle, c)
	}
	active := f.session("de")
	for elapsed := time.Duration(0); elapsed < ledgersvc.SessionLifetime-ledgersvc.SessionIdle/2; elapsed += ledgersvc.SessionIdle / 2 {
		if c := use(active); c != 200 {
			t.Fatalf("an active session after %v: %d", elapsed, c)
		}
		f.clock.Add(ledgersvc.SessionIdle / 2)
	}
	f.clock.Add(ledgersvc.SessionIdle / 2)
	if c := use(active); c != 401 {
		t.Fatalf("an active session after %v: %d", ledgersvc.SessionLifetime, c)
	}
}

// TestAccountPages: the account page changes the password; the coordinator's users
// page disables, enables and resets; others get no users page.
func TestAccountPages(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	de := f.session("de")
	res, body := f.do(req{method: "GET", path: "/account", cookie: de})
	if res.StatusCode != 200 || !strings.Contains(body, `id="password-form"`) || !strings.Contains(body, `id="nav-account"`) || strings.Contains(body, `id="nav-users"`) {
		t.Fatalf("account page: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/account"}); res.StatusCode != 303 {
		t.Fatalf("account page of the public: %d", res.StatusCode)
	}
	res, body = f.do(req{method: "POST", path: "/account/password", cookie: de, contentType: formType,
		body: formBody("current", testPassword, "new", "another long passphrase", "confirm", "another long passphrase!")})
	if res.StatusCode != 400 || !strings.Contains(body, `data-field="confirm"`) {
		t.Fatalf("confirmation differs: %d", res.StatusCode)
	}
	res, body = f.do(req{method: "POST", path: "/account/password", cookie: de, contentType: formType,
		body: formBody("current", "not my password", "new", "another long passphrase", "confirm", "another long passphrase")})
	if res.StatusCode != 403 || !strings.Contains(body, `data-field="current"`) {
		t.Fatalf("wrong current password: %d", res.StatusCode)
	}
	res, body = f.do(req{method: "POST", path: "/account/password", cookie: de, contentType: formType,
		body: formBody("current", testPassword, "new", "another long passphrase", "confirm", "another long passphrase")})
	if res.StatusCode != 200 || !strings.Contains(body, `id="account-message"`) {
		t.Fatalf("change: %d %s", res.StatusCode, body)
	}

	if res, _ := f.do(req{method: "GET", path: "/users", cookie: de}); res.StatusCode != 403 {
		t.Fatalf("users page of an officer: %d", res.StatusCode)
	}
	coord := f.session("coord")
	res, body = f.do(req{method: "GET", path: "/users", cookie: coord})
	if res.StatusCode != 200 || !strings.Contains(body, `<tr data-user="fr">`) || !strings.Contains(body, `id="nav-users"`) || !strings.Contains(body, "password.change") {
		t.Fatalf("users page: %d", res.StatusCode)
	}
	fr := f.session("fr")
	res, body = f.do(req{method: "POST", path: "/users/fr/disable", cookie: coord, contentType: formType})
	if res.StatusCode != 200 || !strings.Contains(body, "fr is disabled") {
		t.Fatalf("disable form: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/account", cookie: fr}); res.StatusCode != 303 {
		t.Fatalf("the disabled user's page: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "POST", path: "/users/fr/enable", cookie: coord, contentType: formType}); res.StatusCode != 200 {
		t.Fatalf("enable form: %d", res.StatusCode)
	}
	res, body = f.do(req{method: "POST", path: "/users/fr/password", cookie: coord, contentType: formType})
	if res.StatusCode != 200 || !strings.Contains(body, `id="reset-password"`) {
		t.Fatalf("reset form: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "POST", path: "/users/fr/disable", cookie: coord, contentType: formType,
		header: map[string]string{"Sec-Fetch-Site": "cross-site"}}); res.StatusCode != 403 {
		t.Fatalf("a cross-site form post: %d", res.StatusCode)
	}
	// Revoke a token from the account page.
	_, body = f.do(req{method: "GET", path: "/api/v1/tokens", as: "audit"})
	var list struct{ Tokens []solidarity.Token }
	json.Unmarshal([]byte(body), &list)
	audit := f.session("audit")
	if res, _ := f.do(req{method: "POST", path: "/account/tokens/" + list.Tokens[0].ID + "/revoke", cookie: audit, contentType: formType}); res.StatusCode != 303 {
		t.Fatalf("revoke form: %d", res.StatusCode)
	}
	if res, _ := f.do(req{method: "GET", path: "/api/v1/tokens", as: "audit"}); res.StatusCode != 401 {
		t.Fatalf("the revoked token: %d", res.StatusCode)
	}
}

// TestLoginNextStaysOnSite: the login form never sends the browser to another site.
func TestLoginNextStaysOnSite(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	for _, next := range []string{"/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example/", "/%09/evil.example"} {
		res, _ := f.do(req{method: "POST", path: "/login", contentType: formType,
			body: formBody("name", "de", "password", testPassword, "next", next)})
		loc := res.Header.Get("Location")
		u, err := url.Parse(loc)
		if res.StatusCode != 303 || err != nil || u.Host != "" || strings.HasPrefix(loc, "//") || strings.ContainsAny(loc, "\t\\") {
			t.Errorf("next %q: %d Location %q", next, res.StatusCode, loc)
		}
	}
	_, body := f.do(req{method: "GET", path: "/login?next=/%09/evil.example"})
	if !strings.Contains(body, `name="next" value="/"`) {
		t.Errorf("the login page keeps a foreign next")
	}
}

// TestPasswordChangeThrottled: a session is no free oracle for the current password:
// wrong ones count as failed logins of the user from that address.
func TestPasswordChangeThrottled(t *testing.T) {
	f := newFixture(t, fixtureOpts{passwords: true})
	c := f.session("it")
	for i := range 5 {
		res, body := f.do(req{method: "POST", path: "/api/v1/account/password", cookie: c,
			body: `{"current":"guess number ` + string(rune('a'+i)) + `","new":"a new long passphrase"}`})
		if res.StatusCode != 403 {
			t.Fatalf("guess %d: %d %s", i, res.StatusCode, body)
		}
	}
	res, _ := f.do(req{method: "POST", path: "/api/v1/account/password", cookie: c,
		body: `{"current":"` + testPassword + `","new":"a new long passphrase"}`})
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Fatalf("the sixth try: %d", res.StatusCode)
	}
	res, body := f.do(req{method: "POST", path: "/account/password", cookie: c, contentType: formType,
		body: formBody("current", testPassword, "new", "a new long passphrase", "confirm", "a new long passphrase")})
	if res.StatusCode != 429 || !strings.Contains(body, "Too many wrong passwords") {
		t.Fatalf("the form: %d", res.StatusCode)
	}
}
