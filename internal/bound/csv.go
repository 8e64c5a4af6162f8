package bound

import (
	"errors"
	"io"
)

// CSV checks a delimited text (CSV with comma or semicolon, Eurostat's TSV with tab)
// against l before a reader sees it: size, rows, fields per row, field length and
// fields in all. Quoting follows RFC 4180 as encoding/csv reads it: a quote opens a
// quoted field only at the start of a field, and "" inside one is a quote; separators
// and line ends inside quotes do not count. encoding/csv itself bounds none of these:
// one line of a million separators is a million strings, a million short lines a
// million records, and an unclosed quote one field as long as the file.
func CSV(name string, src []byte, sep byte, l Limits) error {
	l = l.with()
	if len(src) > l.Bytes {
		return tooLarge(name, len(src), l.Bytes)
	}
	s := newCSVScan(name, sep, l)
	if err := s.feed(src); err != nil {
		return err
	}
	return s.finish()
}

// CSVReader returns a reader of r that applies CSV's checks, except the size, to the
// text as it streams through it (a Eurostat download of hundreds of megabytes is never
// held whole), failing the read at the first row beyond a bound. It also names the line
// where r itself failed: a truncated .csv.gz ends in gzip's "unexpected EOF", which
// encoding/csv passes on without one. Errors are *solidarity.Error of code EINVALID.
func CSVReader(name string, r io.Reader, sep byte, l Limits) io.Reader {
	return &csvReader{r: r, s: newCSVScan(name, sep, l.with())}
}

type csvReader struct {
	r   io.Reader
	s   *csvScan
	err error
}

func (c *csvReader) Read(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.r.Read(p)
	if ferr := c.s.feed(p[:n]); ferr != nil {
		c.err = ferr
		return 0, ferr
	}
	switch {
	case errors.Is(err, io.EOF):
		if ferr := c.s.finish(); ferr != nil {
			c.err = ferr
			return n, nil
		}
	case err != nil:
		msg := err.Error()
		if errors.Is(err, io.ErrUnexpectedEOF) {
			msg = "the file ends in the middle (a truncated or interrupted download?): " + msg
		}
		c.err = Error(c.s.name, c.s.line, "", "%s", msg)
		return n, nil
	}
	return n, err
}

// csvScan is the state of the CSV scan, fed in chunks.
type csvScan struct {
	name                     string
	sep                      byte
	l                        Limits
	line, rows, cols, values int
	field, fieldLine         int // bytes of the current field, its line
	inQuote, atStart, empty  bool
	quotePending             bool // a quote inside a quoted field, at the end of a chunk
}

func newCSVScan(name string, sep byte, l Limits) *csvScan {
	return &csvScan{name: name, sep: sep, l: l, line: 1, fieldLine: 1, atStart: true, empty: true}
}

func (s *csvScan) endField() error {
	if s.field > s.l.Field {
		return Error(s.name, s.fieldLine, "", "a field of %d bytes is longer than the limit of %d bytes", s.field, s.l.Field)
	}
	s.cols++
	s.values++
	if s.cols > s.l.Columns {
		return Error(s.name, s.fieldLine, "", "a row of more than the limit of %d fields", s.l.Columns)
	}
	if s.values > s.l.Values {
		return Error(s.name, s.fieldLine, "", "more than the limit of %d fields", s.l.Values)
	}
	return nil
}

func (s *csvScan) feed(src []byte) error {
	for i := 0; i < len(src); i++ {
		c := src[i]
		s.field++
		if s.field > s.l.Field {
			return Error(s.name, s.fieldLine, "", "a field of more than the limit of %d bytes", s.l.Field)
		}
		if s.quotePending {
			s.quotePending = false
			if c == '"' {
				continue // "" inside a quoted field
			}
			s.inQuote = false
		}
		if s.inQuote {
			if c == '\n' {
				s.line++
			}
			if c == '"' {
				s.quotePending = true
			}
			continue
		}
		switch {
		case c == '"' && s.atStart:
			s.inQuote, s.atStart, s.empty = true, false, false
		case c == s.sep:
			s.field--
			if err := s.endField(); err != nil {
				return err
			}
			s.field, s.fieldLine, s.atStart = 0, s.line, true
		case c == '\n':
			s.field--
			if !s.empty || s.cols > 0 {
				if err := s.endField(); err != nil {
					return err
				}
				s.rows++
				if s.rows > s.l.Lines {
					return Error(s.name, s.line, "", "more than the limit of %d rows", s.l.Lines)
				}
			}
			s.line++
			s.cols, s.field, s.fieldLine, s.atStart, s.empty = 0, 0, s.line, true, true
		case c == '\r':
		default:
			s.atStart, s.empty = false, false
		}
	}
	return nil
}

func (s *csvScan) finish() error {
	if s.quotePending {
		s.quotePending, s.inQuote = false, false
	}
	if s.inQuote || !s.empty || s.cols > 0 {
		if err := s.endField(); err != nil {
			return err
		}
		if s.rows+1 > s.l.Lines {
			return Error(s.name, s.line, "", "more than the limit of %d rows", s.l.Lines)
		}
	}
	return nil
}
