package eurostat

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/bound"
)

// jsonStat is the part of a JSON-stat 2.0 dataset response that Parse reads.
type jsonStat struct {
	Class     string                     `json:"class"`
	Label     string                     `json:"label"`
	Updated   string                     `json:"updated"`
	Value     json.RawMessage            `json:"value"`
	Status    json.RawMessage            `json:"status"`
	ID        []string                   `json:"id"`
	Size      []json.Number              `json:"size"`
	Dimension map[string]json.RawMessage `json:"dimension"`
	Extension struct {
		DatasetID string `json:"datasetId"`
		ID        string `json:"id"`
	} `json:"extension"`
	// Eurostat answers a bad query with {"error": [{"status":..., "label": ...}]}.
	Error json.RawMessage `json:"error"`
}

type jsonDim struct {
	Category struct {
		Index json.RawMessage   `json:"index"`
		Label map[string]string `json:"label"`
	} `json:"category"`
}

// maxJSONStat bounds a JSON-stat file, which is decoded whole (unlike the CSV and TSV
// formats, read row by row). Eurostat's API answers a dataset filtered to one indicator
// in a few megabytes; the whole of demo_pjan would be a few hundred.
const maxJSONStat = 512 << 20

// parseJSONStat reads a JSON-stat 2.0 dataset. Values sit in one flat array in
// row-major order over the dimensions listed in id, with sizes in size; Eurostat sends
// value and status as sparse objects keyed by that flat index, and leaves a missing
// value out. Numbers are decoded as text (json.Number) so that figures stay exact.
func (p *parser) parseJSONStat(r io.Reader) error {
	doc, err := p.readJSONStat(r)
	if err != nil {
		return err
	}
	c, values, status := doc.c, doc.values, doc.status
	if err := p.identify(doc.js, c); err != nil {
		return err
	}
	geoDim, timeDim, base, err := p.slice(c)
	if err != nil {
		return err
	}
	timePath := indexPath(c.ids[timeDim])
	for g, geo := range c.cats[geoDim] {
		state, member := solidarity.ParseMemberState(geo)
		if !member {
			continue
		}
		for t, tc := range c.cats[timeDim] {
			idx := base + int64(g)*c.strides[geoDim] + int64(t)*c.strides[timeDim]
			at := loc{path: values.path(idx)}
			if err := p.add(state, tc, values.get(idx), status.flag(idx), doc.js.Updated, "", at, loc{path: timePath + jsonKey(tc)}); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonDoc is a JSON-stat dataset as parseJSONStat and appParser.parseJSONStat read it:
// the document, its shape, and its values and their statuses by flat index.
type jsonDoc struct {
	js             *jsonStat
	c              *jsonCube
	values, status *cellMap
}

// readJSONStat decodes a JSON-stat 2.0 dataset and checks its shape, values and
// statuses.
func (p *parser) readJSONStat(r io.Reader) (*jsonDoc, error) {
	p.format = "JSON-stat 2.0"
	js, err := p.decodeJSONStat(r)
	if err != nil {
		return nil, err
	}
	c, err := p.cube(js)
	if err != nil {
		return nil, err
	}
	values, err := p.cells("$.value", js.Value, c.total, true)
	if err != nil {
		return nil, err
	}
	status, err := p.cells("$.status", js.Status, c.total, false)
	if err != nil {
		return nil, err
	}
	return &jsonDoc{js: js, c: c, values: values, status: status}, nil
}

// datasetID returns the dataset code the document's extension names, as written, and
// its path; "" when it names none.
func datasetID(js *jsonStat) (id, path string) {
	switch {
	case js.Extension.DatasetID != "":
		return js.Extension.DatasetID, "$.extension.datasetId"
	case js.Extension.ID != "":
		return js.Extension.ID, "$.extension.id"
	}
	return "", ""
}

// decodeJSONStat reads and decodes the document, within its bounds, and checks that it
// is one JSON-stat dataset (not an error answer, not another class) with a size for
// each dimension.
func (p *parser) decodeJSONStat(r io.Reader) (*jsonStat, error) {
	// The decoder holds the whole document and what it decodes: read at most
	// maxJSONStat, so that a huge file is refused rather than exhausting memory.
	data, err := io.ReadAll(io.LimitReader(r, maxJSONStat+1))
	if err == nil && len(data) > maxJSONStat {
		return nil, p.errPath("$", "a JSON-stat file of more than %d MiB, the limit (download a filtered dataset)", maxJSONStat>>20)
	}
	if err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, p.errPath("$", "the file ends in the middle (a truncated or interrupted download?): %s", err.Error())
		}
		return nil, p.errPath("$", "reading: %s", err.Error())
	}
	if err := bound.JSON(p.name, data, Limits); err != nil {
		return nil, err
	}
	var js jsonStat
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&js); err != nil {
		return nil, p.jsonErr(data, err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, p.err(loc{path: "$", line: lineAt(data, dec.InputOffset())}, "unexpected data after the JSON object")
	}
	if len(js.Error) > 0 && string(js.Error) != "null" {
		return nil, p.errPath("$.error", "Eurostat returned an error instead of data: %s", compact(js.Error))
	}
	if js.Class != "" && js.Class != "dataset" {
		return nil, p.errPath("$.class", "class %q: only a JSON-stat dataset can be read", js.Class)
	}
	if len(js.ID) == 0 {
		return nil, p.errPath("$.id", "missing: not a JSON-stat 2.0 dataset")
	}
	if len(js.Size) != len(js.ID) {
		return nil, p.errPath("$.size", "has %d entries, $.id has %d", len(js.Size), len(js.ID))
	}
	return &js, nil
}

// jsonCube is the shape of a JSON-stat dataset: its dimensions, the categories of each
// in index order, and the strides of the flat, row-major index.
type jsonCube struct {
	ids     []string
	pos     map[string]int // dimension -> its place in ids
	cats    [][]string
	strides []int64
	total   int64 // cells
}

func (c *jsonCube) has(dim string) bool { _, ok := c.pos[dim]; return ok }

// place returns the position, among the categories of dimension i, of the cell at flat
// index idx.
func (c *jsonCube) place(idx int64, i int) int {
	return int((idx / c.strides[i]) % int64(len(c.cats[i])))
}

// timeDim returns the place of the time dimension (time, or TIME_PERIOD in any case;
// the last when there are several), -1 when there is none.
func (c *jsonCube) timeDim() int {
	t := -1
	for i, id := range c.ids {
		if isTimeDim(id) {
			t = i
		}
	}
	return t
}

// isTimeDim reports whether a dimension id names the time dimension.
func isTimeDim(id string) bool {
	return strings.EqualFold(id, "time") || strings.EqualFold(id, "TIME_PERIOD")
}

// indexPath is the JSON path of a dimension's category index.
func indexPath(id string) string { return "$.dimension" + jsonKey(id) + ".category.index" }

// fix places each dimension that free does not take on one category: the one want
// names for it, or else the only one it has (more would read as duplicates). It
// returns the position of each dimension of want.
func (p *parser) fix(c *jsonCube, free func(id string) bool, want map[string]string) (map[int]int, error) {
	fixed := make(map[int]int)
	for i, id := range c.ids {
		if free(id) {
			continue
		}
		if code, ok := want[id]; ok {
			pos := indexOf(c.cats[i], code)
			if pos < 0 {
				return nil, p.errPath(indexPath(id), "no category %s: the file does not hold %s=%s", code, id, code)
			}
			fixed[i] = pos
			continue
		}
		if len(c.cats[i]) != 1 {
			return nil, p.errPath(indexPath(id), "%d categories of %s: download a single one", len(c.cats[i]), id)
		}
	}
	return fixed, nil
}

// cube reads the dimensions: distinct, each with as many categories as its size, and a
// number of cells that fits an int64.
func (p *parser) cube(js *jsonStat) (*jsonCube, error) {
	c := &jsonCube{ids: js.ID, pos: make(map[string]int), cats: make([][]string, len(js.ID))}
	sizes := make([]int64, len(js.ID))
	for i, id := range js.ID {
		if _, dup := c.pos[id]; dup {
			return nil, p.errPath(fmt.Sprintf("$.id[%d]", i), "dimension %s appears twice", id)
		}
		c.pos[id] = i
		n, err := strconv.ParseInt(js.Size[i].String(), 10, 64)
		if err != nil || n < 0 {
			return nil, p.errPath(fmt.Sprintf("$.size[%d]", i), "size %s is not a non-negative integer", js.Size[i])
		}
		sizes[i] = n
		raw, ok := js.Dimension[id]
		if !ok {
			return nil, p.errPath("$.dimension"+jsonKey(id), "missing: $.id lists dimension %s", id)
		}
		cats, err := p.categories(id, raw)
		if err != nil {
			return nil, err
		}
		if int64(len(cats)) != n {
			return nil, p.errPath("$.dimension"+jsonKey(id)+".category.index", "has %d categories, $.size[%d] says %d", len(cats), i, n)
		}
		c.cats[i] = cats
	}
	c.total = 1
	for i, n := range sizes {
		if n != 0 && c.total > math.MaxInt64/n {
			return nil, p.errPath(fmt.Sprintf("$.size[%d]", i), "the product of the sizes is too large")
		}
		c.total *= n
	}
	c.strides = make([]int64, len(sizes))
	stride := int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		c.strides[i] = stride
		stride *= sizes[i]
	}
	return c, nil
}

// identify sets p.ds, the dataset the document holds: the one its extension names, or
// else the one its label, its file name or its dimensions tell.
func (p *parser) identify(js *jsonStat, c *jsonCube) error {
	if id, path := datasetID(js); id != "" {
		if p.ds = datasetByCode(id); p.ds == nil {
			return p.errPath(path, "dataset %s is not one the reference key uses (%s)", id, knownCodes())
		}
		return nil
	}
	p.ds = datasetByLabel(js.Label)
	if p.ds == nil {
		p.ds = datasetByFileName(p.name)
	}
	if p.ds == nil {
		p.ds = datasetByDims(c.has)
	}
	if p.ds == nil {
		return p.errPath("$", "cannot tell which dataset this is: expected %s", knownCodes())
	}
	return nil
}

// slice fixes every dimension but geo and time to one category: the filter's, annual
// frequency, or the only one there is. It returns the places of geo and time in the
// dimensions and the flat index of the fixed categories.
func (p *parser) slice(c *jsonCube) (geoDim, timeDim int, base int64, err error) {
	want := map[string]string{"freq": "A"}
	for _, f := range p.ds.filter {
		want[f.dim] = f.code
		if !c.has(f.dim) {
			return 0, 0, 0, p.errPath("$.id", "no %s dimension, needed to select %s=%s of %s", f.dim, f.dim, f.code, p.ds.code)
		}
	}
	fixed, err := p.fix(c, func(id string) bool { return id == "geo" || isTimeDim(id) }, want)
	if err != nil {
		return 0, 0, 0, err
	}
	geoDim, ok := c.pos["geo"]
	if !ok {
		return 0, 0, 0, p.errPath("$.id", "no geo dimension")
	}
	if timeDim = c.timeDim(); timeDim < 0 {
		return 0, 0, 0, p.errPath("$.id", "no time dimension")
	}
	for i, pos := range fixed {
		base += int64(pos) * c.strides[i]
	}
	return geoDim, timeDim, base, nil
}

// categories returns a dimension's category codes in index order. category.index is
// an object {code: position} or an array of codes; it may be left out when there is a
// single category, which is then the one label names.
func (p *parser) categories(id string, raw json.RawMessage) ([]string, error) {
	path := "$.dimension" + jsonKey(id)
	var d jsonDim
	if err := json.Unmarshal(raw, &d); err != nil {
		return nil, p.errPath(path, "not a JSON-stat dimension: %s", err.Error())
	}
	path += ".category.index"
	idx := bytes.TrimSpace(d.Category.Index)
	switch {
	case len(idx) == 0 || string(idx) == "null":
		if len(d.Category.Label) == 1 {
			for code := range d.Category.Label {
				return []string{code}, nil
			}
		}
		return nil, p.errPath(path, "missing")
	case idx[0] == '[':
		var codes []string
		if err := json.Unmarshal(idx, &codes); err != nil {
			return nil, p.errPath(path, "not an array of codes")
		}
		seen := make(map[string]bool)
		for i, c := range codes {
			if seen[c] {
				return nil, p.errPath(fmt.Sprintf("%s[%d]", path, i), "category %s appears twice", c)
			}
			seen[c] = true
		}
		return codes, nil
	case idx[0] == '{':
		pos, err := orderedObject(idx)
		if err != nil {
			return nil, p.errPath(path, "%s", err.Error())
		}
		codes := make([]string, len(pos))
		for _, kv := range pos {
			n, err := strconv.Atoi(kv.value)
			if err != nil || n < 0 || n >= len(pos) {
				return nil, p.errPath(path+jsonKey(kv.key), "position %s is not between 0 and %d", kv.value, len(pos)-1)
			}
			if codes[n] != "" {
				return nil, p.errPath(path+jsonKey(kv.key), "position %d is also given to %s", n, codes[n])
			}
			codes[n] = kv.key
		}
		return codes, nil
	}
	return nil, p.errPath(path, "must be an object or an array")
}

type keyValue struct{ key, value string }

// orderedObject decodes a flat JSON object of numbers, rejecting repeated keys, which
// encoding/json would otherwise merge without a word.
func orderedObject(data []byte) ([]keyValue, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	var out []keyValue
	seen := make(map[string]bool)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if seen[key] {
			return nil, fmt.Errorf("key %q appears twice", key)
		}
		seen[key] = true
		var n json.Number
		if err := dec.Decode(&n); err != nil {
			return nil, fmt.Errorf("position of %q is not a number", key)
		}
		out = append(out, keyValue{key, n.String()})
	}
	return out, nil
}

// cellMap holds value or status: a dense array, a sparse object keyed by flat index,
// or (status only) one string for every cell.
type cellMap struct {
	name   string
	dense  []string
	sparse map[int64]string
	all    string
	isMap  bool
}

func (c *cellMap) get(i int64) string {
	switch {
	case c.dense != nil:
		return c.dense[i]
	case c.sparse != nil:
		return c.sparse[i]
	}
	return c.all
}

// flag returns the status of cell i as an observation flag. Eurostat's ":" (not
// available) is dropped: the absence of the value says it.
func (c *cellMap) flag(i int64) string {
	if f := c.get(i); f != ":" {
		return f
	}
	return ""
}

// written returns, in order, the flat indexes of the cells the file writes: those of a
// dense array that are not null, every key of a sparse object.
func (c *cellMap) written() []int64 {
	if c.dense == nil {
		return slices.Sorted(maps.Keys(c.sparse))
	}
	var idxs []int64
	for i, v := range c.dense {
		if v != "" {
			idxs = append(idxs, int64(i))
		}
	}
	return idxs
}

func (c *cellMap) path(i int64) string {
	if c.isMap {
		return fmt.Sprintf("%s[%q]", c.name, strconv.FormatInt(i, 10))
	}
	return fmt.Sprintf("%s[%d]", c.name, i)
}

// cells decodes value (numbers, as text; null for missing) or status (strings).
func (p *parser) cells(path string, raw json.RawMessage, total int64, numbers bool) (*cellMap, error) {
	c := &cellMap{name: path}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		c.isMap = true
		c.sparse = map[int64]string{}
		return c, nil
	}
	check := func(at string, v any) (string, error) {
		switch v := v.(type) {
		case nil:
			return "", nil
		case json.Number:
			if numbers {
				return v.String(), nil
			}
		case string:
			if !numbers {
				return v, nil
			}
		}
		if numbers {
			return "", p.errPath(at, "value is not a number")
		}
		return "", p.errPath(at, "status is not a string")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	switch raw[0] {
	case '[':
		var arr []any
		if err := dec.Decode(&arr); err != nil {
			return nil, p.errPath(path, "not an array")
		}
		if int64(len(arr)) != total {
			return nil, p.errPath(path, "has %d entries, the product of $.size is %d", len(arr), total)
		}
		c.dense = make([]string, len(arr))
		for i, v := range arr {
			s, err := check(fmt.Sprintf("%s[%d]", path, i), v)
			if err != nil {
				return nil, err
			}
			c.dense[i] = s
		}
	case '{':
		c.isMap = true
		var obj map[string]any
		if err := dec.Decode(&obj); err != nil {
			return nil, p.errPath(path, "not an object")
		}
		c.sparse = make(map[int64]string, len(obj))
		for k, v := range obj {
			at := fmt.Sprintf("%s[%q]", path, k)
			i, err := strconv.ParseInt(k, 10, 64)
			if err != nil || strconv.FormatInt(i, 10) != k || i < 0 || i >= total {
				return nil, p.errPath(at, "key is not a flat index below %d, the product of $.size", total)
			}
			s, err := check(at, v)
			if err != nil {
				return nil, err
			}
			c.sparse[i] = s
		}
	case '"':
		if numbers {
			return nil, p.errPath(path, "must be an array or an object")
		}
		if err := dec.Decode(&c.all); err != nil {
			return nil, p.errPath(path, "not a string")
		}
	default:
		return nil, p.errPath(path, "must be an array or an object")
	}
	return c, nil
}

// jsonErr locates a decoding error: syntax errors by line, type errors by JSON path.
func (p *parser) jsonErr(data []byte, err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return p.err(loc{path: "$", line: lineAt(data, se.Offset)}, "bad JSON: %s", se.Error())
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		path := "$"
		if te.Field != "" {
			path += "." + te.Field
		}
		return p.err(loc{path: path, line: lineAt(data, te.Offset)}, "expected %s, found JSON %s", te.Type, te.Value)
	}
	if err == io.EOF {
		return p.errPath("$", "empty file")
	}
	if err == io.ErrUnexpectedEOF {
		return p.err(loc{path: "$", line: lineAt(data, int64(len(data)))}, "bad JSON: unexpected end of file")
	}
	return p.errPath("$", "bad JSON: %s", err.Error())
}

// lineAt returns the 1-based line of a byte offset.
func lineAt(data []byte, off int64) int {
	off = min(max(off, 0), int64(len(data)))
	return bytes.Count(data[:off], []byte("\n")) + 1
}

var identRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// jsonKey renders an object key as a JSON path step: .geo, or ["2024"] when the key is
// not an identifier.
func jsonKey(k string) string {
	if identRE.MatchString(k) {
		return "." + k
	}
	return fmt.Sprintf("[%q]", k)
}

func indexOf(list []string, s string) int {
	for i, v := range list {
		if v == s {
			return i
		}
	}
	return -1
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	s := b.String()
	if len(s) > 300 {
		s = s[:300] + "..."
	}
	return s
}
