package web

import (
	"net/http"

	"solidarity/internal/i18n"
)

// handleLanguage keeps the language a user chose with the switcher (?lang=de) in a
// cookie for a year and returns to the page they were on (?next=, a local path only).
// An unknown language is a 400: the switcher offers only the 24.
func (s *Server) handleLanguage(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	code := q.Get("lang")
	if _, ok := i18n.Lookup(code); !ok {
		http.Error(w, "unknown language: the lang parameter is one of the EU's 24 official languages (bg … sv)", http.StatusBadRequest)
		return
	}
	http.SetCookie(w, &http.Cookie{Name: i18n.CookieName, Value: code, Path: "/", MaxAge: 365 * 24 * 3600,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
	http.Redirect(w, r, localPath(q.Get("next")), http.StatusSeeOther)
}

// languageOption is one entry of the switcher.
type languageOption struct {
	Code, Name string
}

// languageOptions are the switcher's entries, each in its own language.
var languageOptions = func() []languageOption {
	var out []languageOption
	for _, l := range i18n.Languages() {
		out = append(out, languageOption{l.Code, l.Name})
	}
	return out
}()
