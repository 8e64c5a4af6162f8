package web

import (
	"errors"
	"fmt"
	"math"
	"net/http"
	"solidarity/internal/i18n"
	"strconv"
	"strings"
	"time"

	"solidarity"
)

// Accounts (issue 12): a user's own page (/account: change the password, see and
// revoke one's tokens), the coordinator's users page (/users: disable, enable, reset a
// password, revoke any token, the admin log), and the same under /api/v1.

func init() {
	pages = append(pages, "account.html", "users.html")
}

// accountRoutes registers the account pages and API.
func (s *Server) accountRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /account", s.pages(s.handleAccountPage))
	mux.HandleFunc("POST /account/password", s.pages(s.handlePasswordForm))
	mux.HandleFunc("POST /account/tokens/{id}/revoke", s.pages(s.handleRevokeForm))
	mux.HandleFunc("GET /users", s.pages(s.handleUsersPage))
	mux.HandleFunc("POST /users/{name}/disable", s.pages(s.handleDisableForm(true)))
	mux.HandleFunc("POST /users/{name}/enable", s.pages(s.handleDisableForm(false)))
	mux.HandleFunc("POST /users/{name}/password", s.pages(s.handleResetForm))

	mux.HandleFunc("GET /api/v1/tokens", s.authed(s.handleTokens))
	mux.HandleFunc("DELETE /api/v1/tokens/{id}", s.authed(s.handleRevokeToken))
	mux.HandleFunc("POST /api/v1/users/{name}/disable", s.authed(s.handleSetDisabled(true)))
	mux.HandleFunc("POST /api/v1/users/{name}/enable", s.authed(s.handleSetDisabled(false)))
	mux.HandleFunc("POST /api/v1/users/{name}/password", s.authed(s.handleResetPassword))
	mux.HandleFunc("POST /api/v1/account/password", s.authed(s.handleChangePassword))
	mux.HandleFunc("GET /api/v1/admin-log", s.authed(s.handleAdminLog))
}

// changePassword runs the service's password change under the login throttle: a
// session (or token) is not a free oracle for guessing the current password. wait
// is set when the throttle refuses.
func (s *Server) changePassword(r *http.Request, current, next string) (wait time.Duration, err error) {
	u, addr := solidarity.UserFromContext(r.Context()), s.clientIP(r)
	if ok, wait := s.logins.Allow(u.Name, addr); !ok {
		s.metrics.loginFailures.WithLabelValues("rate_limited").Inc()
		return wait, nil
	}
	err = s.ledger.ChangePassword(r.Context(), current, next, sessionSecret(r))
	if e, ok := errors.AsType[*solidarity.Error](err); ok && e.Code == solidarity.EUNAUTHORIZED && e.Field == "current" {
		s.logins.Fail(u.Name, addr)
		s.metrics.loginFailures.WithLabelValues("password").Inc()
	}
	return 0, err
}

// sessionSecret is the request's session cookie, or "".
func sessionSecret(r *http.Request) string {
	if c, err := r.Cookie(SessionCookie); err == nil {
		return c.Value
	}
	return ""
}

// --- pages ---

type accountPage struct {
	base
	Tokens  []*solidarity.Token
	Message string // a success
	Error   string // a refusal, shown with the form
	Field   string
	// ErrorLang is "en" when Error is the service's message, which is not translated
	// (marked so for screen readers: WCAG 3.1.2).
	ErrorLang string
}

func (s *Server) renderAccount(w http.ResponseWriter, r *http.Request, status int, msg, errMsg, field string) {
	s.renderAccountPage(w, r, status, accountPage{Message: msg, Error: errMsg, Field: field})
}

// renderAccountRefusal shows the service's refusal, which is English, with the form.
func (s *Server) renderAccountRefusal(w http.ResponseWriter, r *http.Request, status int, errMsg, field string) {
	s.renderAccountPage(w, r, status, accountPage{Error: errMsg, Field: field, ErrorLang: "en"})
}

func (s *Server) renderAccountPage(w http.ResponseWriter, r *http.Request, status int, p accountPage) {
	u := solidarity.UserFromContext(r.Context())
	toks, err := s.ledger.Tokens(r.Context(), u.Name)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	p.base, p.Tokens = s.base(r, "Your account"), toks
	s.render(w, r, status, "account.html", p)
}

func (s *Server) handleAccountPage(w http.ResponseWriter, r *http.Request) {
	if solidarity.UserFromContext(r.Context()) == nil {
		s.toLogin(w, r)
		return
	}
	s.renderAccount(w, r, http.StatusOK, "", "", "")
}

func (s *Server) handlePasswordForm(w http.ResponseWriter, r *http.Request) {
	if solidarity.UserFromContext(r.Context()) == nil {
		s.toLogin(w, r)
		return
	}
	if err := r.ParseForm(); err != nil {
		s.pageError(w, r, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read the form"})
		return
	}
	l := i18n.FromRequest(r)
	next := r.PostForm.Get("new")
	if next != r.PostForm.Get("confirm") {
		s.renderAccount(w, r, http.StatusBadRequest, "", l.T("The new password and its confirmation differ."), "confirm")
		return
	}
	wait, err := s.changePassword(r, r.PostForm.Get("current"), next)
	if wait > 0 {
		retryAfter(w, wait)
		s.renderAccount(w, r, http.StatusTooManyRequests, "", l.T("Too many wrong passwords. Try again in %d seconds.", int(math.Ceil(wait.Seconds()))), "current")
		return
	}
	switch code := solidarity.ErrorCode(err); code {
	case "":
		s.renderAccount(w, r, http.StatusOK, l.T("Your password is changed. Your other sessions have ended."), "", "")
	case solidarity.EINVALID, solidarity.EUNAUTHORIZED:
		field := ""
		if e, ok := errors.AsType[*solidarity.Error](err); ok {
			field = e.Field
		}
		s.renderAccountRefusal(w, r, HTTPStatus(code), solidarity.ErrorMessage(err)+".", field)
	default:
		s.pageServiceError(w, r, err)
	}
}

func (s *Server) handleRevokeForm(w http.ResponseWriter, r *http.Request) {
	if solidarity.UserFromContext(r.Context()) == nil {
		s.toLogin(w, r)
		return
	}
	if _, err := s.ledger.RevokeToken(r.Context(), r.PathValue("id")); err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	back := "/account"
	if r.URL.Query().Get("from") == "users" {
		back = "/users"
	}
	http.Redirect(w, r, back, http.StatusSeeOther)
}

type usersPage struct {
	base
	Users    []*solidarity.User
	Tokens   []*solidarity.Token
	Log      []*solidarity.AdminEvent
	Message  string
	Password string // a generated password, shown once
	For      string
}

func (s *Server) renderUsers(w http.ResponseWriter, r *http.Request, msg, password, forUser string) {
	if solidarity.UserFromContext(r.Context()) == nil {
		s.toLogin(w, r)
		return
	}
	us, err := s.ledger.Users(r.Context())
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	toks, err := s.ledger.Tokens(r.Context(), "")
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	log, err := s.ledger.AdminLog(r.Context(), 0, 50)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	s.render(w, r, http.StatusOK, "users.html", usersPage{base: s.base(r, "Users"), Users: us, Tokens: toks, Log: log,
		Message: msg, Password: password, For: forUser})
}

func (s *Server) handleUsersPage(w http.ResponseWriter, r *http.Request) {
	s.renderUsers(w, r, "", "", "")
}

func (s *Server) handleDisableForm(disabled bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if solidarity.UserFromContext(r.Context()) == nil {
			s.toLogin(w, r)
			return
		}
		name := r.PathValue("name")
		if _, err := s.ledger.SetDisabled(r.Context(), name, disabled); err != nil {
			s.pageServiceError(w, r, err)
			return
		}
		l := i18n.FromRequest(r)
		msg := l.T("%s is enabled again.", name)
		if disabled {
			msg = l.T("%s is disabled: its sessions have ended and its tokens do not work.", name)
		}
		s.renderUsers(w, r, msg, "", "")
	}
}

func (s *Server) handleResetForm(w http.ResponseWriter, r *http.Request) {
	if solidarity.UserFromContext(r.Context()) == nil {
		s.toLogin(w, r)
		return
	}
	name := r.PathValue("name")
	pw, err := s.ledger.ResetPassword(r.Context(), name, "")
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	s.renderUsers(w, r, "", pw, name)
}

// --- API ---

func (s *Server) handleTokens(w http.ResponseWriter, r *http.Request) {
	toks, err := s.ledger.Tokens(r.Context(), r.URL.Query().Get("user"))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	page, next, total, err := pageSlice(r, "tokens", toks, func(t *solidarity.Token) string { return t.ID })
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	if page == nil {
		page = []*solidarity.Token{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"tokens": page, "next_cursor": next, "total": total})
}

func (s *Server) handleRevokeToken(w http.ResponseWriter, r *http.Request) {
	t, err := s.ledger.RevokeToken(r.Context(), r.PathValue("id"))
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, t)
}

func (s *Server) handleSetDisabled(disabled bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		u, err := s.ledger.SetDisabled(r.Context(), r.PathValue("name"), disabled)
		if err != nil {
			s.serviceError(w, r, err)
			return
		}
		writeJSON(w, http.StatusOK, u)
	}
}

// ResetRequest is the body of POST /api/v1/users/{name}/password: the new password,
// or none to have one generated.
type ResetRequest struct {
	Password string `json:"password,omitempty"`
}

func (s *Server) handleResetPassword(w http.ResponseWriter, r *http.Request) {
	var req ResetRequest
	if r.ContentLength != 0 {
		if err := decodeJSON(r, &req); err != nil {
			s.apiError(w, r, err)
			return
		}
	}
	pw, err := s.ledger.ResetPassword(r.Context(), r.PathValue("name"), req.Password)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	out := map[string]string{"user": r.PathValue("name")}
	if req.Password == "" {
		out["password"] = pw // generated: shown this once
	}
	writeJSON(w, http.StatusOK, out)
}

// PasswordChange is the body of POST /api/v1/account/password.
type PasswordChange struct {
	Current string `json:"current"`
	New     string `json:"new"`
}

func (s *Server) handleChangePassword(w http.ResponseWriter, r *http.Request) {
	var req PasswordChange
	if err := decodeJSON(r, &req); err != nil {
		s.apiError(w, r, err)
		return
	}
	wait, err := s.changePassword(r, req.Current, req.New)
	if wait > 0 {
		retryAfter(w, wait)
		writeJSON(w, http.StatusTooManyRequests, map[string]APIError{"error": {Code: errRateLimited,
			Message: fmt.Sprintf("too many wrong passwords; try again in %d seconds", int(math.Ceil(wait.Seconds())))}})
		return
	}
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) handleAdminLog(w http.ResponseWriter, r *http.Request) {
	limit, err := queryLimit(r, solidarity.DefaultPageLimit, solidarity.MaxPageLimit)
	if err != nil {
		s.apiError(w, r, err)
		return
	}
	var before int64
	if c := r.URL.Query().Get("cursor"); c != "" {
		if before, err = seqCursor("admin-log", c); err != nil {
			s.apiError(w, r, err)
			return
		}
	}
	evs, err := s.ledger.AdminLog(r.Context(), before, limit)
	if err != nil {
		s.serviceError(w, r, err)
		return
	}
	var next *string
	if len(evs) == limit { // a full page: is there an older event? (no count needed)
		last := evs[limit-1].Seq
		more, err := s.ledger.AdminLog(r.Context(), last, 1)
		if err != nil {
			s.serviceError(w, r, err)
			return
		}
		if len(more) > 0 {
			c := seqCursorText("admin-log", last)
			next = &c
		}
	}
	if evs == nil {
		evs = []*solidarity.AdminEvent{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"events": evs, "next_cursor": next})
}

// parseTTL reads a token lifetime: a Go duration ("720h") or a number of days ("90d").
func parseTTL(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	if d, ok := strings.CutSuffix(v, "d"); ok {
		n, err := strconv.Atoi(d)
		if err != nil || n < 1 || n > 100000 {
			return 0, &solidarity.Error{Code: solidarity.EINVALID, Field: "ttl", Message: "a lifetime is a duration like 720h or a number of days like 90d"}
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, &solidarity.Error{Code: solidarity.EINVALID, Field: "ttl", Message: "a lifetime is a duration like 720h or a number of days like 90d"}
	}
	return d, nil
}

// ParseTTL is parseTTL for the command line.
func ParseTTL(v string) (time.Duration, error) { return parseTTL(v) }
