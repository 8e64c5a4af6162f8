package web

import (
	"net/http"

	"solidarity"
)

// The access log page: who read which personal record, when and why.

type accessLogPage struct {
	base
	Rows        []*solidarity.Access
	Case, Actor string
	Limit       int
}

func (s *Server) handleAccessLogPage(w http.ResponseWriter, r *http.Request) {
	f, err := accessFilter(r)
	if err != nil {
		s.pageError(w, r, err)
		return
	}
	rows, err := s.cases.AccessLog(r.Context(), f)
	if err != nil {
		s.pageServiceError(w, r, err)
		return
	}
	q := r.URL.Query()
	s.render(w, r, http.StatusOK, "accesslog.html", accessLogPage{base: s.base(r, "Access log"), Rows: rows,
		Case: q.Get("case"), Actor: q.Get("actor"), Limit: f.Limit})
}
