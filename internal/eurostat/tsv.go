package eurostat

import (
	"bufio"
	"errors"
	"io"
	"strings"

	"solidarity"
)

// parseTSV reads Eurostat's bulk download: tab-separated, the first header cell lists
// the dimension ids comma-separated followed by `\TIME_PERIOD` (`\time` in files made
// before 2023), then one column per period. A cell is a figure and an optional flag
// separated by a space ("494087.6 p"), or ":" when not available (": c" with a flag);
// Eurostat pads cells with stray spaces. The file names no dataset: it is detected from
// the file name, else from the dimensions.
func (p *parser) parseTSV(r *bufio.Reader) error {
	header := func(h *tsvHead) error {
		if p.ds = datasetByFileName(p.name); p.ds == nil {
			p.ds = datasetByDims(h.has)
		}
		if p.ds == nil {
			return p.errLine(1, h.first, "cannot tell which dataset this is: name the file after it (%s)", knownCodes())
		}
		for _, f := range p.ds.filter {
			if !h.has(f.dim) {
				return p.errLine(1, h.first, "no %s dimension, needed to select %s=%s of %s", f.dim, f.dim, f.code, p.ds.code)
			}
		}
		return nil
	}
	return p.readTSV(r, header, p.readTSVRow)
}

// readTSV reads a bulk TSV file for parseTSV and appParser.parseTSV: header checks the
// header's dimensions once it is read, and row takes each data row that is not blank,
// with its cell count and key already checked against the header.
func (p *parser) readTSV(r *bufio.Reader, header func(*tsvHead) error, row func(*tsvRow) error) error {
	p.format = "bulk TSV"
	lr := &tsvLines{p: p, r: r}
	head, ok, err := lr.next()
	if err != nil {
		return err
	}
	if !ok {
		return p.errLine(1, "", "empty file")
	}
	h, err := p.tsvHeader(head)
	if err != nil {
		return err
	}
	if err := header(h); err != nil {
		return err
	}
	for {
		s, ok, err := lr.next()
		if err != nil {
			return err
		}
		if !ok {
			return nil
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		tr, err := p.splitTSVRow(h, lr.line, s)
		if err != nil {
			return err
		}
		if err := row(tr); err != nil {
			return err
		}
	}
}

// tsvLines reads a file line by line, counting the lines.
type tsvLines struct {
	p    *parser
	r    *bufio.Reader
	line int
}

// next returns the next line without its line break, and false at the end of the file.
func (l *tsvLines) next() (string, bool, error) {
	s, err := l.r.ReadString('\n')
	if err != nil && err != io.EOF {
		if e, ok := errors.AsType[*solidarity.Error](err); ok {
			return "", false, e // a bound, or a read error, already located (bound.CSVReader)
		}
		return "", false, l.p.errLine(l.line+1, "", "reading: %s", err.Error())
	}
	if s == "" && err == io.EOF {
		return "", false, nil
	}
	l.line++
	return strings.TrimRight(s, "\r\n"), true, nil
}

// tsvHead is the header line of a bulk TSV file: the dimensions of the row keys and
// the period of each column.
type tsvHead struct {
	first  string // the first cell, "freq,unit,geo\TIME_PERIOD"
	cells  int
	dims   []string
	dimCol map[string]int // dimension -> its place in a row key
	times  []string       // times[j] is the period of column j (j >= 1)
}

func (h *tsvHead) has(dim string) bool { _, ok := h.dimCol[dim]; return ok }

// tsvHeader reads the header: distinct dimensions including geo, then distinct periods.
func (p *parser) tsvHeader(head string) (*tsvHead, error) {
	header := strings.Split(head, "\t")
	h := &tsvHead{first: strings.TrimSpace(header[0]), cells: len(header), dimCol: make(map[string]int)}
	dimList, timeName, ok := strings.Cut(h.first, `\`)
	if !ok || !strings.EqualFold(timeName, "TIME_PERIOD") && !strings.EqualFold(timeName, "time") {
		return nil, p.errLine(1, h.first, `first header cell must end in \TIME_PERIOD`)
	}
	h.dims = strings.Split(dimList, ",")
	for i, d := range h.dims {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "" {
			return nil, p.errLine(1, h.first, "empty dimension name")
		}
		if _, dup := h.dimCol[d]; dup {
			return nil, p.errLine(1, h.first, "dimension %s appears twice", d)
		}
		h.dimCol[d] = i
	}
	if !h.has("geo") {
		return nil, p.errLine(1, h.first, "no geo dimension")
	}
	h.times = make([]string, len(header))
	seen := make(map[string]bool)
	for j := 1; j < len(header); j++ {
		t := strings.TrimSpace(header[j])
		if t == "" {
			return nil, p.errLine(1, "", "empty period in column %d of the header", j+1)
		}
		if seen[t] {
			return nil, p.errLine(1, t, "period %s appears twice in the header", t)
		}
		seen[t] = true
		h.times[j] = t
	}
	return h, nil
}

// tsvRow is one data row of a bulk TSV file: its key, one code a dimension, and its
// cells, one a period (cells[0] is the key).
type tsvRow struct {
	h     *tsvHead
	line  int
	key   []string
	cells []string
}

// code returns the row's code of a dimension, "" when the file has no such dimension.
func (r *tsvRow) code(dim string) string {
	if i, ok := r.h.dimCol[dim]; ok {
		return strings.TrimSpace(r.key[i])
	}
	return ""
}

// splitTSVRow splits a data row into its key and cells, as many as the header has.
func (p *parser) splitTSVRow(h *tsvHead, line int, s string) (*tsvRow, error) {
	cells := strings.Split(s, "\t")
	if len(cells) != h.cells {
		return nil, p.errLine(line, "", "row has %d cells, the header has %d", len(cells), h.cells)
	}
	key := strings.Split(cells[0], ",")
	if len(key) != len(h.dims) {
		return nil, p.errLine(line, h.first, "row key %q has %d parts, the header names %d dimensions", cells[0], len(key), len(h.dims))
	}
	return &tsvRow{h: h, line: line, key: key, cells: cells}, nil
}

// figures reads each of a row's cells, a figure and an optional flag separated by a
// space ("494087.6 p", ": c"), and hands it to add with the period of its column,
// where the cell is and where its period is named.
func (p *parser) figures(r *tsvRow, add func(time, value, flag string, at, timeAt loc) error) error {
	for j := 1; j < len(r.cells); j++ {
		t := r.h.times[j]
		at := loc{line: r.line, field: t}
		fields := strings.Fields(r.cells[j])
		value, flag := "", ""
		switch len(fields) {
		case 0:
		case 1:
			value = fields[0]
		case 2:
			value, flag = fields[0], fields[1]
		default:
			return p.err(at, "cell %q is not a figure with an optional flag", strings.TrimSpace(r.cells[j]))
		}
		if err := add(t, value, flag, at, loc{line: 1, field: t}); err != nil {
			return err
		}
	}
	return nil
}

// readTSVRow selects a row by its key (annual, the dataset's filter, a Member State)
// or not; each of its cells is one period's figure.
func (p *parser) readTSVRow(r *tsvRow) error {
	state, ok := p.selectRow(r.h.has, r.code)
	if !ok {
		return nil // another series, an aggregate or a non-member
	}
	return p.figures(r, func(time, value, flag string, at, timeAt loc) error {
		return p.add(state, time, value, flag, "", "", at, timeAt)
	})
}
