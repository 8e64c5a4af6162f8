package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/bound"
)

// Reading a request, for every API handler alike: the body (within the server's 1 MiB,
// bounded before it is decoded), the Idempotency-Key header and the {year} and
// {state} of a path. Each returns a *solidarity.Error naming what is wrong, for
// apiError to answer.

// readBody reads a request body within the 1 MiB limit of the server.
func readBody(r *http.Request) ([]byte, error) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: "request body larger than 1 MiB"}
		}
		return nil, &solidarity.Error{Code: solidarity.EINVALID, Message: "cannot read request body"}
	}
	return bytes.TrimPrefix(body, []byte("\ufeff")), nil
}

// decodeJSON decodes exactly one JSON object into v; unknown fields are refused, so
// that a misspelt field is an error and not a silently ignored default. It is the one
// way a handler reads a JSON body: the body is checked against bound.Default (depth,
// values, string and number length) before encoding/json sees it (issue 12).
func decodeJSON(r *http.Request, v any) error {
	body, err := readBody(r)
	if err != nil {
		return err
	}
	if err := bound.JSON("request body", body, bound.Limits{}); err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		e := &solidarity.Error{Code: solidarity.EINVALID, File: "request body"}
		var syn *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.Is(err, io.EOF):
			e.Message = "empty request body: want a JSON object"
		case errors.As(err, &syn):
			e.Message = fmt.Sprintf("malformed JSON at byte %d", syn.Offset)
		case errors.As(err, &typ):
			e.Field = typ.Field
			e.Message = fmt.Sprintf("want %s, got JSON %s", typ.Type, typ.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			e.Field, _ = strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			e.Message = "unknown field"
		default:
			e.Message = "malformed JSON: " + strings.TrimPrefix(err.Error(), "json: ")
		}
		return e
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return &solidarity.Error{Code: solidarity.EINVALID, File: "request body", Message: "the body holds more than one JSON value"}
	}
	return nil
}

// idempotencyKey returns the request's Idempotency-Key ("" for none): 1 to 255
// visible ASCII characters.
func idempotencyKey(r *http.Request) (string, error) {
	k := r.Header.Get("Idempotency-Key")
	return k, checkKey(k)
}

func checkKey(k string) error {
	bad := len(k) > 255
	for i := 0; i < len(k) && !bad; i++ {
		bad = k[i] < 0x21 || k[i] > 0x7e
	}
	if bad {
		return &solidarity.Error{Code: solidarity.EINVALID, Field: "Idempotency-Key", Message: "an idempotency key is 1 to 255 visible ASCII characters"}
	}
	return nil
}

func pathYear(r *http.Request) (int, error) {
	y, err := strconv.Atoi(r.PathValue("year"))
	if err != nil {
		return 0, &solidarity.Error{Code: solidarity.ENOTFOUND, Field: "year", Message: fmt.Sprintf("%q is not a cycle year", r.PathValue("year"))}
	}
	return y, nil
}

func pathState(r *http.Request) (solidarity.MemberState, error) {
	m, ok := solidarity.ParseMemberState(r.PathValue("state"))
	if !ok {
		return "", &solidarity.Error{Code: solidarity.EINVALID, Field: "state", Message: fmt.Sprintf("%q is not a Member State code", r.PathValue("state"))}
	}
	return m, nil
}
