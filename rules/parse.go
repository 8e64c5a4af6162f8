package rules

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/bound"
)

// ParseApplicant reads one applicant as JSON (the field names of Applicant's JSON
// tags), strictly: an unknown field, a wrong type or trailing data is an error naming
// the file and the field, and the applicant is then checked with Validate. name is used
// in errors.
func ParseApplicant(name string, r io.Reader) (Applicant, error) {
	var a Applicant
	data, err := io.ReadAll(io.LimitReader(r, 1<<20+1))
	if err != nil {
		return a, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "cannot read: " + err.Error()}
	}
	if len(data) > 1<<20 {
		return a, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "larger than 1 MiB"}
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if err := bound.JSON(name, data, bound.Limits{}); err != nil { // issue 12: depth and lengths before decoding
		return a, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&a); err != nil {
		e := &solidarity.Error{Code: solidarity.EINVALID, File: name}
		if se, ok := errors.AsType[*json.SyntaxError](err); ok {
			e.Line = 1 + bytes.Count(data[:min(int(se.Offset), len(data))], []byte("\n"))
			e.Message = "malformed JSON: " + se.Error()
		} else if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
			e.Path, e.Message = "$."+te.Field, fmt.Sprintf("want %s, got JSON %s", te.Type, te.Value)
		} else if strings.HasPrefix(err.Error(), "json: unknown field ") {
			f, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
			e.Field, e.Message = f, "unknown field"
		} else {
			e.Message = strings.TrimPrefix(err.Error(), "json: ")
		}
		return Applicant{}, e
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Applicant{}, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "more than one JSON value"}
	}
	if err := Validate(a); err != nil {
		return Applicant{}, solidarity.At(err, name)
	}
	return a, nil
}
