// Package keyinput reads the inputs of the 2015 relocation key from a CSV file:
//
//	state,population,gdp_meur,asylum_per_million,unemployment_rate
//	DE,81197537,2915650,1000.5,5.0
//
// solidarity ships no such inputs: the Commission's 2015 figures were not found in a
// source we could cite (historical-data.md §1.3), and a key is never computed on
// invented numbers. Users who have them pass them with `solidarity key --key 2015`.
package keyinput

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math/big"
	"strings"

	"solidarity"
	"solidarity/internal/bound"
	"solidarity/key"
)

var header = []string{"state", "population", "gdp_meur", "asylum_per_million", "unemployment_rate"}

// Parse reads a 2015 key input file. name is used in error messages.
func Parse(name string, r io.Reader) ([]key.Input2015, error) {
	// The file has one row per Member State: bound it (internal/bound) before
	// encoding/csv, which would hold a line or field of any length whole.
	cr := csv.NewReader(bound.CSVReader(name, r, ',', bound.Limits{Lines: 1000, Columns: 64, Field: 1024}))
	cr.FieldsPerRecord = -1
	fail := func(line int, field, format string, args ...any) error {
		return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: field, Message: fmt.Sprintf(format, args...)}
	}
	head, err := cr.Read()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, fail(1, "", "empty file; want the header %s", strings.Join(header, ","))
		}
		return nil, csvErr(name, err)
	}
	if len(head) > 0 {
		head[0] = strings.TrimPrefix(head[0], "\ufeff")
	}
	if len(head) != len(header) {
		return nil, fail(1, "", "header has %d columns; want %s", len(head), strings.Join(header, ","))
	}
	for i, h := range head {
		if strings.TrimSpace(strings.ToLower(h)) != header[i] {
			return nil, fail(1, h, "column %d is %q; want %q", i+1, h, header[i])
		}
	}
	var out []key.Input2015
	seen := map[solidarity.MemberState]int{}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvErr(name, err)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return nil, fail(line, "", "row has %d fields; want %d", len(rec), len(header))
		}
		m, ok := solidarity.ParseMemberState(rec[0])
		if !ok {
			return nil, fail(line, "state", "%q is not an EU Member State", rec[0])
		}
		if prev, dup := seen[m]; dup {
			return nil, fail(line, "state", "%s already given on line %d", m, prev)
		}
		seen[m] = line
		vals := make([]*big.Rat, 4)
		for i := range vals {
			s := strings.TrimSpace(rec[i+1])
			if s == "" || strings.ContainsAny(s, "/eE") {
				return nil, fail(line, header[i+1], "%q is not a decimal number", rec[i+1])
			}
			v, err := bound.Rat("", s, false, bound.Numbers{})
			if err != nil {
				return nil, fail(line, header[i+1], "%s", solidarity.ErrorMessage(err))
			}
			if v.Sign() <= 0 {
				return nil, fail(line, header[i+1], "must be positive, got %s", s)
			}
			vals[i] = v
		}
		out = append(out, key.Input2015{State: m, Population: vals[0], GDP: vals[1], AsylumPerMillion: vals[2], Unemployment: vals[3]})
	}
	if len(out) == 0 {
		return nil, fail(2, "", "no rows")
	}
	return out, nil
}

func csvErr(name string, err error) error {
	if e, ok := errors.AsType[*solidarity.Error](err); ok {
		return e // a bound, or a read error, already located (bound.CSVReader)
	}
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: pe.Line, Message: pe.Err.Error()}
	}
	return &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
}
