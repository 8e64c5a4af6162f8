package eurostat

import (
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"time"

	"solidarity"
)

// parseCSV reads SDMX-CSV 2.1 (first columns DATAFLOW, LAST UPDATE) and SDMX 3.0 CSV
// (first columns STRUCTURE, STRUCTURE_ID, optional STRUCTURE_NAME). Both have one column
// per dimension, then TIME_PERIOD, OBS_VALUE and the attributes OBS_FLAG, CONF_STATUS.
// With labels=both every header is "id: Label" and every code cell "CODE: Label";
// both are reduced to the code.
func (p *parser) parseCSV(r io.Reader) error {
	var t *csvTable
	header := func(table *csvTable) error { t = table; return nil }
	first := func(flow string, r *csvRow) error { return p.detect(flow, t.has, r.at("dataflow")) }
	return p.readCSV(r, []string{"geo", "TIME_PERIOD", "OBS_VALUE"}, header, first, p.readCSVRow)
}

// readCSVRow selects a row (annual, the dataset's filter, a Member State) or not, and
// keeps its figure.
func (p *parser) readCSVRow(r *csvRow) error {
	state, ok := p.selectRow(r.t.has, r.code)
	if !ok {
		return nil // another series, an aggregate or a non-member
	}
	value, _ := r.cell("obs_value")
	vintage, _ := r.cell("last update")
	note := ""
	if c := r.code("conf_status"); c != "" && c != "F" {
		note = "confidentiality status " + c
	}
	return p.add(state, r.code("time_period"), value, r.code("obs_flag"), lastUpdate(vintage), note, r.at("obs_value"), r.at("time_period"))
}

// csvTable is the header of an SDMX-CSV file: each column's lower-case id mapped to
// its index, the dataflow column (DATAFLOW in 2.1, STRUCTURE_ID in 3.0) entered as
// "dataflow" too.
type csvTable struct {
	header []string
	cols   map[string]int
}

func (t *csvTable) has(col string) bool { _, ok := t.cols[col]; return ok }

// csvRow is one data row of an SDMX-CSV file, as many fields as the header has.
type csvRow struct {
	t    *csvTable
	cr   *csv.Reader
	rec  []string
	line int
}

// cell returns a column's text, trimmed, and false when the file has no such column.
func (r *csvRow) cell(col string) (string, bool) {
	i, ok := r.t.cols[col]
	if !ok {
		return "", false
	}
	return strings.TrimSpace(r.rec[i]), true
}

// code returns a column's code, the label of a labelled cell cut off, "" when the file
// has no such column.
func (r *csvRow) code(col string) string {
	v, _ := r.cell(col)
	return codeOf(v)
}

// at locates a column's field in the row.
func (r *csvRow) at(col string) loc {
	l, _ := r.cr.FieldPos(r.t.cols[col])
	return loc{line: l, field: headerID(r.t.header[r.t.cols[col]])}
}

// readCSV reads an SDMX-CSV file for parseCSV and appParser.parseCSV. The header must
// have the columns need (ids, any case); header then checks it. first takes the
// dataflow the first data row names (every later row must name the same), and row
// takes each data row.
func (p *parser) readCSV(r io.Reader, need []string, header func(*csvTable) error, first func(flow string, r *csvRow) error, row func(*csvRow) error) error {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // ragged rows get our own error, naming the line
	rec, err := cr.Read()
	if err != nil {
		return p.csvErr(err, 1)
	}
	t, err := p.csvHeader(rec, need)
	if err != nil {
		return err
	}
	if err := header(t); err != nil {
		return err
	}
	flowCol := t.cols["dataflow"]
	flow := "" // the dataflow named by the first data row
	for n := 0; ; n++ {
		rec, err := cr.Read()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return p.csvErr(err, 0)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(t.header) {
			return p.errLine(line, "", "row has %d fields, the header has %d", len(rec), len(t.header))
		}
		r := &csvRow{t: t, cr: cr, rec: rec, line: line}
		if f := strings.TrimSpace(rec[flowCol]); n == 0 {
			flow = f
			if err := first(flow, r); err != nil {
				return err
			}
		} else if f != flow {
			return p.errLine(line, headerID(t.header[flowCol]), "dataflow %q differs from %q on the first row: one file, one dataset", f, flow)
		}
		if err := row(r); err != nil {
			return err
		}
	}
}

// csvHeader reads the header: distinct column ids, a dataflow column, which tells
// SDMX-CSV 2.1 from SDMX 3.0 CSV, and the columns need.
func (p *parser) csvHeader(header, need []string) (*csvTable, error) {
	cols := make(map[string]int)
	for i, h := range header {
		id := headerID(h)
		if id == "" {
			return nil, p.errLine(1, h, "empty column name in header")
		}
		key := strings.ToLower(id)
		if _, dup := cols[key]; dup {
			return nil, p.errLine(1, id, "column %s appears twice", id)
		}
		cols[key] = i
	}
	p.format = "SDMX-CSV 2.1"
	if _, ok := cols["dataflow"]; !ok {
		p.format = "SDMX 3.0 CSV"
		i, ok := cols["structure_id"]
		if !ok {
			return nil, p.errLine(1, "STRUCTURE_ID", "missing column STRUCTURE_ID")
		}
		cols["dataflow"] = i
	}
	for _, c := range need {
		if _, ok := cols[strings.ToLower(c)]; !ok {
			return nil, p.errLine(1, c, "missing column %s", c)
		}
	}
	return &csvTable{header: header, cols: cols}, nil
}

// detect finds the dataset from the dataflow cell, else from the file name, else from
// the dimensions, and checks that the columns its filter needs are there.
func (p *parser) detect(flow string, has func(string) bool, flowLoc loc) error {
	if flow != "" {
		code := dataflowCode(flow)
		p.ds = datasetByCode(code)
		if p.ds == nil {
			return p.err(flowLoc, "dataset %s is not one the reference key uses (%s)", code, knownCodes())
		}
	} else if p.ds = datasetByFileName(p.name); p.ds == nil {
		p.ds = datasetByDims(has)
	}
	if p.ds == nil {
		return p.errLine(1, "", "cannot tell which dataset this is: expected %s", knownCodes())
	}
	for _, f := range p.ds.filter {
		if !has(f.dim) {
			return p.errLine(1, f.dim, "missing column %s, needed to select %s=%s of %s", f.dim, f.dim, f.code, p.ds.code)
		}
	}
	return nil
}

func (p *parser) csvErr(err error, line int) error {
	if e, ok := errors.AsType[*solidarity.Error](err); ok {
		return e // a bound, or a read error, already located (bound.CSVReader)
	}
	if pe, ok := errors.AsType[*csv.ParseError](err); ok {
		return p.errLine(pe.Line, "", "%s", pe.Err.Error())
	}
	if err == io.EOF {
		return p.errLine(1, "", "empty file")
	}
	return p.errLine(line, "", "reading: %s", err.Error())
}

// headerID reduces a labelled header ("geo: Geopolitical entity (reporting)") to its id.
func headerID(h string) string {
	id, _, _ := strings.Cut(h, ":")
	return strings.TrimSpace(id)
}

// codeOf reduces a labelled cell ("AT: Austria", "AT:Austria") to its code.
func codeOf(cell string) string {
	code, _, _ := strings.Cut(cell, ":")
	return strings.TrimSpace(code)
}

// lastUpdate turns SDMX-CSV 2.1's LAST UPDATE (dd/mm/yy hh:mm:ss) into ISO 8601 so that
// it reads like JSON-stat's "updated"; text in any other shape is kept as written.
func lastUpdate(s string) string {
	for _, layout := range []string{"02/01/06 15:04:05", "02/01/06 15:04", "02/01/06"} {
		if t, err := time.Parse(layout, s); err == nil {
			if layout == "02/01/06" {
				return t.Format("2006-01-02")
			}
			return t.Format("2006-01-02T15:04:05")
		}
	}
	return s
}
