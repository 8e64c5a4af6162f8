package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"

	"solidarity"
)

// Answering an API request: writeJSON for a result, apiError for any error (the one
// error body, APIError, with the status of its code) and serviceError for a service's
// refusal (401 for the public, who may log in first).

// serviceError answers a service error. A refusal of the public is 401 (log in
// first); of a known user 403.
func (s *Server) serviceError(w http.ResponseWriter, r *http.Request, err error) {
	if solidarity.ErrorCode(err) == solidarity.EUNAUTHORIZED && solidarity.UserFromContext(r.Context()) == nil {
		s.unauthenticated(w, r, errUnauthenticated("authentication required: send Authorization: Bearer <token>, or log in"))
		return
	}
	s.apiError(w, r, err)
}

// HTTPStatus maps an error code to an HTTP status.
func HTTPStatus(code string) int {
	switch code {
	case solidarity.EINVALID:
		return http.StatusBadRequest
	case solidarity.ENOTFOUND:
		return http.StatusNotFound
	case solidarity.ECONFLICT:
		return http.StatusConflict
	case solidarity.EUNAUTHORIZED:
		return http.StatusForbidden
	case solidarity.EUNAUTHENTICATED:
		return http.StatusUnauthorized
	}
	return http.StatusInternalServerError
}

// APIError is the JSON body of every API error.
type APIError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Path    string `json:"path,omitempty"`
	Field   string `json:"field,omitempty"`
	Article string `json:"article,omitempty"`
}

func (s *Server) apiError(w http.ResponseWriter, r *http.Request, err error) {
	code := solidarity.ErrorCode(err)
	body := APIError{Code: code, Message: solidarity.ErrorMessage(err)}
	if e, ok := errors.AsType[*solidarity.Error](err); ok {
		body.Message, body.File, body.Line, body.Path, body.Field, body.Article = e.Message, e.File, e.Line, e.Path, e.Field, e.Article
	}
	if code == solidarity.EINTERNAL {
		s.Logger.Error("internal error", slog.String("path", r.URL.Path), slog.Any("err", err))
	}
	writeJSON(w, HTTPStatus(code), map[string]APIError{"error": body})
}

// writeJSON encodes v before it writes the status: a value that cannot be encoded (a
// NaN, an infinity) is then an internal error, not a 200 with half a body.
func writeJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"error": {"code": "` + solidarity.EINTERNAL + `", "message": "the answer could not be encoded"}}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}
