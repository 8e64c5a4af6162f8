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
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // ragged rows get our own error, naming the line
	header, err := cr.Read()
	if err != nil {
		return p.csvErr(err, 1)
	}
	cols := make(map[string]int) // lower-case column id → index
	for i, h := range header {
		id := headerID(h)
		if id == "" {
			return p.errLine(1, h, "empty column name in header")
		}
		key := strings.ToLower(id)
		if _, dup := cols[key]; dup {
			return p.errLine(1, id, "column %s appears twice", id)
		}
		cols[key] = i
	}
	flowCol, ok := cols["dataflow"]
	p.format = "SDMX-CSV 2.1"
	if !ok {
		p.format = "SDMX 3.0 CSV"
		if flowCol, ok = cols["structure_id"]; !ok {
			return p.errLine(1, "STRUCTURE_ID", "missing column STRUCTURE_ID")
		}
	}
	for _, need := range []string{"geo", "TIME_PERIOD", "OBS_VALUE"} {
		if _, ok := cols[strings.ToLower(need)]; !ok {
			return p.errLine(1, need, "missing column %s", need)
		}
	}
	has := func(dim string) bool { _, ok := cols[dim]; return ok }
	cell := func(rec []string, col string) (string, bool) {
		i, ok := cols[col]
		if !ok {
			return "", false
		}
		return strings.TrimSpace(rec[i]), true
	}

	flow := "" // the dataflow named by the first data row
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p.csvErr(err, 0)
		}
		line, _ := cr.FieldPos(0)
		if len(rec) != len(header) {
			return p.errLine(line, "", "row has %d fields, the header has %d", len(rec), len(header))
		}
		at := func(col string) loc {
			l, _ := cr.FieldPos(cols[col])
			return loc{line: l, field: headerID(header[cols[col]])}
		}
		if p.ds == nil {
			flow = strings.TrimSpace(rec[flowCol])
			if err := p.detect(flow, has, at(strings.ToLower(headerID(header[flowCol])))); err != nil {
				return err
			}
		} else if f := strings.TrimSpace(rec[flowCol]); f != flow {
			return p.errLine(line, headerID(header[flowCol]), "dataflow %q differs from %q on the first row: one file, one dataset", f, flow)
		}

		keep := true
		if v, ok := cell(rec, "freq"); ok && codeOf(v) != "A" {
			keep = false
		}
		for _, f := range p.ds.filter {
			v, _ := cell(rec, f.dim)
			if codeOf(v) != f.code {
				keep = false
			}
		}
		geo, _ := cell(rec, "geo")
		state, member := solidarity.ParseMemberState(codeOf(geo))
		if !keep || !member {
			continue // another series, an aggregate or a non-member
		}
		t, _ := cell(rec, "time_period")
		value, _ := cell(rec, "obs_value")
		flag, _ := cell(rec, "obs_flag")
		vintage, _ := cell(rec, "last update")
		note := ""
		if c, _ := cell(rec, "conf_status"); codeOf(c) != "" && codeOf(c) != "F" {
			note = "confidentiality status " + codeOf(c)
		}
		if err := p.add(state, codeOf(t), value, codeOf(flag), lastUpdate(vintage), note, at("obs_value"), at("time_period")); err != nil {
			return err
		}
	}
	return nil
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
