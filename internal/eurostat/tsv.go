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
	line := 0
	next := func() (string, bool, error) {
		s, err := r.ReadString('\n')
		if err != nil && err != io.EOF {
			if e, ok := errors.AsType[*solidarity.Error](err); ok {
				return "", false, e // a bound, or a read error, already located (bound.CSVReader)
			}
			return "", false, p.errLine(line+1, "", "reading: %s", err.Error())
		}
		if s == "" && err == io.EOF {
			return "", false, nil
		}
		line++
		return strings.TrimRight(s, "\r\n"), true, nil
	}

	head, ok, err := next()
	if err != nil {
		return err
	}
	if !ok {
		return p.errLine(1, "", "empty file")
	}
	header := strings.Split(head, "\t")
	first := strings.TrimSpace(header[0])
	dimList, timeName, ok := strings.Cut(first, `\`)
	if !ok || !strings.EqualFold(timeName, "TIME_PERIOD") && !strings.EqualFold(timeName, "time") {
		return p.errLine(1, first, `first header cell must end in \TIME_PERIOD`)
	}
	dims := strings.Split(dimList, ",")
	dimCol := make(map[string]int)
	for i, d := range dims {
		d = strings.ToLower(strings.TrimSpace(d))
		if d == "" {
			return p.errLine(1, first, "empty dimension name")
		}
		if _, dup := dimCol[d]; dup {
			return p.errLine(1, first, "dimension %s appears twice", d)
		}
		dimCol[d] = i
	}
	geoCol, ok := dimCol["geo"]
	if !ok {
		return p.errLine(1, first, "no geo dimension")
	}
	times := make([]string, len(header))
	seen := make(map[string]bool)
	for j := 1; j < len(header); j++ {
		t := strings.TrimSpace(header[j])
		if t == "" {
			return p.errLine(1, "", "empty period in column %d of the header", j+1)
		}
		if seen[t] {
			return p.errLine(1, t, "period %s appears twice in the header", t)
		}
		seen[t] = true
		times[j] = t
	}
	has := func(dim string) bool { _, ok := dimCol[dim]; return ok }
	if p.ds = datasetByFileName(p.name); p.ds == nil {
		p.ds = datasetByDims(has)
	}
	if p.ds == nil {
		return p.errLine(1, first, "cannot tell which dataset this is: name the file after it (%s)", knownCodes())
	}
	for _, f := range p.ds.filter {
		if !has(f.dim) {
			return p.errLine(1, first, "no %s dimension, needed to select %s=%s of %s", f.dim, f.dim, f.code, p.ds.code)
		}
	}

	for {
		s, ok, err := next()
		if err != nil {
			return err
		}
		if !ok {
			break
		}
		if strings.TrimSpace(s) == "" {
			continue
		}
		cells := strings.Split(s, "\t")
		if len(cells) != len(header) {
			return p.errLine(line, "", "row has %d cells, the header has %d", len(cells), len(header))
		}
		key := strings.Split(cells[0], ",")
		if len(key) != len(dims) {
			return p.errLine(line, first, "row key %q has %d parts, the header names %d dimensions", cells[0], len(key), len(dims))
		}
		code := func(dim string) string { return strings.TrimSpace(key[dimCol[dim]]) }
		keep := !has("freq") || code("freq") == "A"
		for _, f := range p.ds.filter {
			if code(f.dim) != f.code {
				keep = false
			}
		}
		state, member := solidarity.ParseMemberState(strings.TrimSpace(key[geoCol]))
		if !keep || !member {
			continue
		}
		for j := 1; j < len(cells); j++ {
			at := loc{line: line, field: times[j]}
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
			if err := p.add(state, times[j], value, flag, "", "", at, loc{line: 1, field: times[j]}); err != nil {
				return err
			}
		}
	}
	return nil
}
