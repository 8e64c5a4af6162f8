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
	for {
		s, ok, err := lr.next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		if err := p.tsvRow(h, lr.line, s); err != nil {
			return err
		}
	}
	return nil
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
	geoCol int
	times  []string // times[j] is the period of column j (j >= 1)
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
	if h.geoCol, ok = h.dimCol["geo"]; !ok {
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

// tsvRow reads one row: its key selects it (annual, the dataset's filter, a Member
// State) or not, and each of its cells is one period's figure.
func (p *parser) tsvRow(h *tsvHead, line int, s string) error {
	cells := strings.Split(s, "\t")
	if len(cells) != h.cells {
		return p.errLine(line, "", "row has %d cells, the header has %d", len(cells), h.cells)
	}
	key := strings.Split(cells[0], ",")
	if len(key) != len(h.dims) {
		return p.errLine(line, h.first, "row key %q has %d parts, the header names %d dimensions", cells[0], len(key), len(h.dims))
	}
	code := func(dim string) string { return strings.TrimSpace(key[h.dimCol[dim]]) }
	keep := !h.has("freq") || code("freq") == "A"
	for _, f := range p.ds.filter {
		if code(f.dim) != f.code {
			keep = false
		}
	}
	state, member := solidarity.ParseMemberState(strings.TrimSpace(key[h.geoCol]))
	if !keep || !member {
		return nil
	}
	for j := 1; j < len(cells); j++ {
		at := loc{line: line, field: h.times[j]}
		fields := strings.Fields(cells[j])
		value, flag := "", ""
		switch len(fields) {
		case 0:
		case 1:
			value = fields[0]
		case 2:
			value, flag = fields[0], fields[1]
		default:
			return p.err(at, "cell %q is not a figure with an optional flag", strings.TrimSpace(cells[j]))
		}
		if err := p.add(state, h.times[j], value, flag, "", "", at, loc{line: 1, field: h.times[j]}); err != nil {
			return err
		}
	}
	return nil
}
