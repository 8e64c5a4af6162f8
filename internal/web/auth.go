package web

import (
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"solidarity"
	"solidarity/internal/ledgersvc"
)

// SessionCookie is the name of the browser session cookie.
const SessionCookie = "solidarity_session"

// errUnauthenticated is the answer to missing, bad or expired credentials.
func errUnauthenticated(msg string) error {
	return &solidarity.Error{Code: solidarity.EUNAUTHENTICATED, Message: msg}
}

func isAPI(r *http.Request) bool { return strings.HasPrefix(r.URL.Path, "/api/") }

// lenientPath reports whether a stale session cookie is simply dropped on path instead
// of refused: the login and logout pages (else a user with an expired session could
// neither log in again nor out), the session endpoint, the stylesheet and the probes.
func lenientPath(p string) bool {
	switch p {
	case "/login", "/logout", "/api/v1/session", "/healthz", "/readyz", "/metrics":
		return true
	}
	return strings.HasPrefix(p, "/static/")
}

// authenticate puts the user of the request's credentials into its context: an API
// token (Authorization: Bearer) or the session cookie. No credentials is the public.
// Bad or expired credentials get 401 on the API and a redirect to /login on pages.
func (s *Server) authenticate(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if s.ledger == nil {
			next.ServeHTTP(w, r)
			return
		}
		var u *solidarity.User
		var err error
		fromCookie := false
		if h := r.Header.Get("Authorization"); h != "" {
			scheme, token, _ := strings.Cut(h, " ")
			if !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
				err = errUnauthenticated("the Authorization header must be Bearer <token>")
			} else {
				u, err = s.ledger.Authenticate(r.Context(), ledgersvc.KindToken, strings.TrimSpace(token))
			}
		} else if c, cerr := r.Cookie(SessionCookie); cerr == nil && c.Value != "" {
			fromCookie = true
			u, err = s.ledger.Authenticate(r.Context(), ledgersvc.KindSession, c.Value)
		}
		if err != nil {
			switch solidarity.ErrorCode(err) {
			case solidarity.EUNAUTHORIZED, solidarity.ENOTFOUND, solidarity.EUNAUTHENTICATED:
				err = errUnauthenticated("invalid or expired credentials")
			}
			switch {
			case solidarity.ErrorCode(err) != solidarity.EUNAUTHENTICATED:
				// The store failed: not the client's fault.
				if isAPI(r) {
					s.apiError(w, r, err)
				} else {
					s.pageError(w, r, err)
				}
				return
			case fromCookie && lenientPath(r.URL.Path):
				s.clearSessionCookie(w, r)
				u = nil
			case isAPI(r):
				if fromCookie {
					s.clearSessionCookie(w, r)
				}
				s.unauthenticated(w, r, err)
				return
			default:
				s.clearSessionCookie(w, r)
				s.toLogin(w, r)
				return
			}
		}
		if u != nil {
			info(r).user = u
			r = r.WithContext(solidarity.NewContextWithUser(r.Context(), u))
		}
		next.ServeHTTP(w, r)
	})
}

// unauthenticated answers 401 with the challenge of RFC 6750.
func (s *Server) unauthenticated(w http.ResponseWriter, r *http.Request, err error) {
	w.Header().Set("WWW-Authenticate", `Bearer realm="solidarity"`)
	s.apiError(w, r, err)
}

// toLogin redirects a page request to the login page, which comes back here after.
func (s *Server) toLogin(w http.ResponseWriter, r *http.Request) {
	next := r.URL.Path
	if r.Method != http.MethodGet {
		// After a refused form post, come back to the page the form was on.
		for _, suffix := range []string{"/pledges", "/deliveries", "/events", "/allocation", "/apply"} {
			next = strings.TrimSuffix(next, suffix)
		}
	} else if r.URL.RawQuery != "" {
		next += "?" + r.URL.RawQuery
	}
	http.Redirect(w, r, "/login?next="+url.QueryEscape(next), http.StatusSeeOther)
}

// localPath returns p if it is a path on this site, else "/": the login form's next
// must not send anyone elsewhere. It normalises as a browser would read the Location
// header (WHATWG URL: tabs and newlines are dropped anywhere, a backslash is a slash,
// http.Redirect cleans the path), then accepts only a path that starts with a single
// "/" and has no scheme or host. Control characters are stripped, not kept.
func localPath(p string) string {
	p = strings.Map(func(r rune) rune {
		switch {
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError:
			return -1
		case r == '\\':
			return '/'
		}
		return r
	}, p)
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") {
		return "/"
	}
	u, err := url.Parse(p)
	if err != nil || u.Scheme != "" || u.Host != "" || u.User != nil || u.Opaque != "" || !strings.HasPrefix(u.Path, "/") {
		return "/"
	}
	// What http.Redirect sends: the path cleaned (path.Clean never leaves "//"), and
	// the query and fragment as given.
	clean := path.Clean(u.Path)
	if strings.HasSuffix(u.Path, "/") && clean != "/" {
		clean += "/"
	}
	if strings.HasPrefix(clean, "//") {
		return "/"
	}
	u.Path, u.RawPath = clean, ""
	out := u.EscapedPath()
	if u.RawQuery != "" || u.ForceQuery {
		out += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		out += "#" + u.EscapedFragment()
	}
	return out
}

func (s *Server) setSessionCookie(w http.ResponseWriter, r *http.Request, secret string) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: secret, Path: "/", HttpOnly: true, Secure: s.secure(r),
		SameSite: http.SameSiteLaxMode, MaxAge: int(ledgersvc.SessionLifetime / time.Second)})
}

func (s *Server) clearSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: SessionCookie, Value: "", Path: "/", HttpOnly: true, Secure: s.secure(r),
		SameSite: http.SameSiteLaxMode, MaxAge: -1})
}

// errRateLimited is the error code of a 429 (a transport matter, not a domain one).
const errRateLimited = "rate_limited"

// login checks the rate limit and the password and opens a session. A refusal by the
// limit returns the time to wait.
func (s *Server) login(r *http.Request, name, password string) (*solidarity.User, string, time.Duration, error) {
	addr := s.clientIP(r)
	if ok, wait := s.logins.Allow(name, addr); !ok {
		s.metrics.loginFailures.WithLabelValues("rate_limited").Inc()
		s.Logger.Warn("login rate limited", slog.String("ip", addr))
		return nil, "", wait, nil
	}
	u, secret, err := s.ledger.Login(r.Context(), name, password)
	if err != nil {
		if solidarity.ErrorCode(err) == solidarity.EUNAUTHENTICATED {
			s.logins.Fail(name, addr)
			s.metrics.loginFailures.WithLabelValues("password").Inc()
			s.Logger.Info("login failed", slog.String("ip", addr))
			return nil, "", 0, errUnauthenticated("wrong user name or password")
		}
		return nil, "", 0, err
	}
	s.logins.Succeed(name, addr)
	info(r).user = u
	return u, secret, 0, nil
}

func retryAfter(w http.ResponseWriter, wait time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(int(math.Ceil(wait.Seconds()))))
}

// --- pages ---

type loginPage struct {
	base
	Next    string
	Name    string
	Message string
}

func (s *Server) handleLoginPage(w http.ResponseWriter, r *http.Request) {
	s.render(w, r, http.StatusOK, "login.html", loginPage{base: s.base(r, "Log in"), Next: localPath(r.URL.Query().Get("next"))})
}

func (s *Server) handleLogin(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read the form"})
		return
	}
	name, next := strings.TrimSpace(r.PostForm.Get("name")), localPath(r.PostForm.Get("next"))
	page := loginPage{base: s.base(r, "Log in"), Next: next, Name: name}
	_, secret, wait, err := s.login(r, name, r.PostForm.Get("password"))
	switch {
	case wait > 0:
		retryAfter(w, wait)
		page.Message = page.L.T("Too many failed logins. Try again in %d seconds.", int(math.Ceil(wait.Seconds())))
		s.render(w, r, http.StatusTooManyRequests, "login.html", page)
		return
	case solidarity.ErrorCode(err) == solidarity.EUNAUTHENTICATED:
		page.Message = page.L.T("Wrong user name or password.")
		s.render(w, r, http.StatusUnauthorized, "login.html", page)
		return
	case err != nil:
		s.pageError(w, r, err)
		return
	}
	s.setSessionCookie(w, r, secret)
	http.Redirect(w, r, next, http.StatusSeeOther)
}

func (s *Server) handleLogout(w http.ResponseWriter, r *http.Request) {
	s.endSession(r)
	s.clearSessionCookie(w, r)
	http.Redirect(w, r, "/", http.StatusSeeOther)
}

// endSession deletes the request's session, if it has one.
func (s *Server) endSession(r *http.Request) {
	c, err := r.Cookie(SessionCookie)
	if err != nil || c.Value == "" {
		return
	}
	if err := s.ledger.Logout(r.Context(), c.Value); err != nil && solidarity.ErrorCode(err) != solidarity.ENOTFOUND {
		s.Logger.Error("logout", slog.Any("err", err))
	}
}

// --- API ---

// SessionRequest is the body of POST /api/v1/session.
type SessionRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// Session is the answer of POST /api/v1/session; the secret is only in the cookie.
type Session struct {
	User    *solidarity.User `json:"user"`
	Expires time.Time        `json:"expires_at"`
}

func (s *Server) handleSessionCreate(w http.ResponseWriter, r *http.Request) {
	var req SessionRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	u, secret, wait, err := s.login(r, req.Name, req.Password)
	switch {
	case wait > 0:
		retryAfter(w, wait)
		writeJSON(w, http.StatusTooManyRequests, map[string]APIError{"error": {Code: errRateLimited,
			Message: fmt.Sprintf("too many failed logins; try again in %d seconds", int(math.Ceil(wait.Seconds())))}})
		return
	case solidarity.ErrorCode(err) == solidarity.EUNAUTHENTICATED:
		s.unauthenticated(w, r, err)
		return
	case err != nil:
		s.apiError(w, r, err)
		return
	}
	s.setSessionCookie(w, r, secret)
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, Session{User: u, Expires: s.now().Add(ledgersvc.SessionLifetime).UTC().Truncate(time.Second)})
}

func (s *Server) handleSessionDelete(w http.ResponseWriter, r *http.Request) {
	s.endSession(r)
	s.clearSessionCookie(w, r)
	w.WriteHeader(http.StatusNoContent)
}

// TokenRequest is the body of POST /api/v1/tokens. TTL is the token's lifetime, a
// duration like "720h" or days like "90d" (default ledgersvc.DefaultTokenLifetime).
type TokenRequest struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	TTL   string `json:"ttl,omitempty"`
}

func (s *Server) handleCreateToken(w http.ResponseWriter, r *http.Request) {
	var req TokenRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	ttl, err := parseTTL(req.TTL)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	token, t, err := s.ledger.CreateTokenTTL(r.Context(), req.Name, req.Label, ttl)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusCreated, map[string]any{"token": token, "id": t.ID, "expires_at": t.Expires})
}

// UserRequest is the body of POST /api/v1/users.
type UserRequest struct {
	Name     string                 `json:"name"`
	Role     solidarity.Role        `json:"role"`
	State    solidarity.MemberState `json:"state,omitempty"`
	Password string                 `json:"password,omitempty"`
}

func (s *Server) handleAddUser(w http.ResponseWriter, r *http.Request) {
	var req UserRequest
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	u := &solidarity.User{Name: req.Name, Role: req.Role, State: req.State}
	if m, ok := solidarity.ParseMemberState(string(req.State)); ok {
		u.State = m
	}
	if err := s.ledger.AddUser(r.Context(), u, req.Password); err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, u)
}

func (s *Server) handleUsers(w http.ResponseWriter, r *http.Request) {
	us, err := s.ledger.Users(r.Context())
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	page, next, total, err := pageSlice(r, "users", us, func(u *solidarity.User) string { return u.Name })
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	if page == nil {
		page = []*solidarity.User{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"users": page, "next_cursor": next, "total": total})
}
