// Package bound holds the limits on outside input that every parser of solidarity
// applies before it builds anything, and the cheap scanners that enforce them.
//
// Why: the parsers we use are correct but not frugal. BurntSushi/toml spends time and
// memory quadratic in nesting depth (8 000 nested inline tables in 32 KB took 48 s and
// 5.2 GB; 8 000 dotted key parts in 16 KB, 2.5 GB), and math/big parses "1e-1000000"
// into a million-digit denominator (32 ms and 0.7 MB for 35 bytes). Issue 12 sets the
// budget: no input of up to 1 MiB may cost more than 1 s of CPU or 64 MiB. The scanners
// here are linear, allocate nothing per byte, and refuse input beyond a named bound with
// an EINVALID error that names the file, the line and the bound, so that the parser
// behind them only ever sees input whose cost is bounded.
package bound

import (
	"fmt"

	"solidarity"
)

// Limits bounds one input. A zero field means the corresponding Default value.
type Limits struct {
	// Bytes is the largest input. 1 MiB is the HTTP body limit (internal/web maxBody).
	Bytes int
	// Depth is the deepest nesting of arrays, tables and objects, counting each part of
	// a dotted TOML key as one level. No input format of solidarity nests deeper than 6.
	Depth int
	// Values is the most values (JSON or TOML values, CSV fields) in one input.
	Values int
	// Lines is the most lines (CSV rows) in one input.
	Lines int
	// Columns is the most fields of one CSV row.
	Columns int
	// Field is the longest string or field, in bytes.
	Field int
	// Number is the longest number literal, in bytes (a JSON or TOML number).
	Number int
}

// Default are the limits of every input unless a parser says otherwise. Each is far
// above what a real cycle file (about 300 values), ship's list (a few thousand rows)
// or Eurostat download (a few thousand rows) holds, and low enough that the parsers
// behind them stay within issue 12's budget on 1 MiB of adversarial input (see
// budget_test.go).
var Default = Limits{
	Bytes:   1 << 20,
	Depth:   32,
	Values:  200_000,
	Lines:   200_000,
	Columns: 256,
	Field:   64 << 10,
	Number:  100,
}

func (l Limits) with() Limits {
	d := Default
	if l.Bytes > 0 {
		d.Bytes = l.Bytes
	}
	if l.Depth > 0 {
		d.Depth = l.Depth
	}
	if l.Values > 0 {
		d.Values = l.Values
	}
	if l.Lines > 0 {
		d.Lines = l.Lines
	}
	if l.Columns > 0 {
		d.Columns = l.Columns
	}
	if l.Field > 0 {
		d.Field = l.Field
	}
	if l.Number > 0 {
		d.Number = l.Number
	}
	return d
}

// Error is the refusal of input beyond a bound: EINVALID, naming where and which bound.
func Error(name string, line int, field, format string, args ...any) *solidarity.Error {
	return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: field, Message: fmt.Sprintf(format, args...)}
}

func tooLarge(name string, n, max int) error {
	return Error(name, 0, "", "input of %d bytes is larger than the limit of %d bytes", n, max)
}

// Size checks only the size of an input.
func Size(name string, src []byte, l Limits) error {
	l = l.with()
	if len(src) > l.Bytes {
		return tooLarge(name, len(src), l.Bytes)
	}
	return nil
}
