package web

import (
	"net/http"

	"solidarity"
)

// Answering an API request: a service error, 401 for the public and otherwise as
// apiError answers it (server.go).

// serviceError answers a service error. A refusal of the public is 401 (log in
// first); of a known user 403.
func (s *Server) serviceError(w http.ResponseWriter, r *http.Request, err error) {
	if solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED && solidarity.UserFromContext(r.Context()) == nil {
		s.unauthenticated(w, r, errUnauthenticated("authentication required: send Authorization: Bearer <token>, or log in"))
		return
	}
	s.apiError(w, r, err)
}
