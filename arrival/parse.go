package arrival

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"time"

	"solidarity"
	"solidarity/internal/bound"
)

// ParseList reads a ship's list as JSON (ParseJSON) when its first byte other than
// white space is '{', and as CSV (ParseCSV) otherwise. name is the file name, used in
// errors.
//
// Errors are *solidarity.Error of code EINVALID naming the file, and the line and
// column (CSV) or the JSON path (JSON) of the first problem. On any error the list is
// nil: nothing of a bad file is half-read. See FORMAT.md for both formats.
func ParseList(name string, r io.Reader) (*List, error) {
	data, err := readAll(name, r)
	if err != nil {
		return nil, err
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '{' {
		return parseJSON(name, data)
	}
	return parseCSV(name, data)
}

// ParseJSON reads a ship's list as JSON:
//
//	{"arrival": {"vessel": "...", "port": "...", "at": "2018-08-20T06:30:00+02:00",
//	             "sar": true, "benefitting_state": "IT"},
//	 "persons": [{"ref": "P001", "name": "...", "sex": "F", ...}, ...]}
//
// Persons have the fields of Person's JSON. The parser is strict: a field the format
// does not have, a field given twice, a value of the wrong type or data after the
// object is an error naming its JSON path ("persons[3].birth_date"). Arrival fields
// set at registration (id, persons, families, unaccompanied_minors, registered,
// actor) and a person's case must be absent or empty.
//
// Text is trimmed of surrounding white space, dates are taken as the calendar date
// they name in their own zone (stored as midnight UTC), a person without a family
// gets the family "F-" + ref, and the list is then checked with Validate. The list is
// at most MaxBytes long and holds at most MaxPersons persons.
func ParseJSON(name string, r io.Reader) (*List, error) {
	data, err := readAll(name, r)
	if err != nil {
		return nil, err
	}
	return parseJSON(name, data)
}

// jsonLimits bound a JSON list before it is decoded (internal/bound): a list nests
// 4 levels deep (persons[i].relatives[j].state) and holds a few dozen values a person;
// encoding/json alone would take 10 000 levels and numbers and strings of any length.
var jsonLimits = bound.Limits{Bytes: MaxBytes, Values: MaxPersons * 100}

// readAll reads at most MaxBytes and drops a byte-order mark.
func readAll(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "cannot read: " + err.Error()}
	}
	if len(data) > MaxBytes {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: fmt.Sprintf("larger than %d MiB, the limit of one list", MaxBytes>>20)}
	}
	return bytes.TrimPrefix(data, []byte("\ufeff")), nil
}

func parseJSON(name string, data []byte) (*List, error) {
	fail := func(line int, path, format string, args ...any) error {
		return &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: line, Field: path, Message: fmt.Sprintf(format, args...)}
	}
	if err := bound.JSON(name, data, jsonLimits); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		if se, ok := errors.AsType[*json.SyntaxError](err); ok {
			return nil, fail(lineAt(data, se.Offset), "", "malformed JSON: %v", se)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fail(lineAt(data, int64(len(data))), "", "malformed JSON: unexpected end of the file")
		}
		return nil, fail(0, "", "malformed JSON: %v", err)
	}
	if off := dec.InputOffset(); len(bytes.TrimLeft(data[off:], " \t\r\n")) > 0 {
		rest := int64(len(data) - len(bytes.TrimLeft(data[off:], " \t\r\n")))
		return nil, fail(lineAt(data, rest), "", "data after the JSON object")
	}
	l := new(List)
	if err := decodeStrict(raw, "", reflect.ValueOf(l).Elem()); err != nil {
		return nil, fail(0, err.path, "%s", err.msg)
	}
	a := l.Arrival
	for _, f := range []struct {
		key string
		set bool
	}{{"id", a.ID != ""}, {"persons", a.Persons != 0}, {"families", a.Families != 0},
		{"unaccompanied_minors", a.Minors != 0}, {"registered", !a.Registered.IsZero()}, {"actor", a.Actor != ""}} {
		if f.set {
			return nil, fail(0, "arrival."+f.key, "%s is set at registration, not in a list", f.key)
		}
	}
	for i := range l.Persons {
		if l.Persons[i].Case != "" {
			return nil, fail(0, fmt.Sprintf("persons[%d].case", i), "person %d: case IDs are given at registration, not in a list", i+1)
		}
		if len(l.Persons[i].Notes) > 0 {
			return nil, fail(0, fmt.Sprintf("persons[%d].notes", i), "person %d: notes are recorded with events on the case, not in a list", i+1)
		}
	}
	l.normalize()
	src := &source{name: name}
	if err := assignFamilies(l, src); err != nil {
		return nil, err
	}
	if err := l.validate(src); err != nil {
		return nil, err
	}
	return l, nil
}

// lineAt returns the 1-based line of byte offset off.
func lineAt(data []byte, off int64) int {
	return 1 + bytes.Count(data[:min(max(off, 0), int64(len(data)))], []byte("\n"))
}

// normalize trims text, makes dates civil and empty lists nil, as the CSV parser
// reads them, so that a list reads the same from either format.
func (l *List) normalize() {
	l.Arrival.Vessel = strings.TrimSpace(l.Arrival.Vessel)
	l.Arrival.Port = strings.TrimSpace(l.Arrival.Port)
	for i := range l.Persons {
		p := &l.Persons[i]
		p.Ref = strings.TrimSpace(p.Ref)
		p.Family = solidarity.FamilyID(strings.TrimSpace(string(p.Family)))
		p.Name = strings.TrimSpace(p.Name)
		p.BirthDate = civil(p.BirthDate)
		p.Nationality = strings.TrimSpace(p.Nationality)
		for j := range p.Languages {
			p.Languages[j] = strings.TrimSpace(p.Languages[j])
		}
		for j := range p.Relatives {
			p.Relatives[j].BirthDate = civil(p.Relatives[j].BirthDate)
		}
		for j := range p.Documents {
			d := &p.Documents[j]
			d.ValidFrom, d.ValidTo, d.Withdrawn = civil(d.ValidFrom), civil(d.ValidTo), civil(d.Withdrawn)
		}
		for j := range p.Diplomas {
			p.Diplomas[j].Issued = civil(p.Diplomas[j].Issued)
		}
		for j := range p.PriorStays {
			s := &p.PriorStays[j]
			s.From, s.To = civil(s.From), civil(s.To)
		}
		p.OtherVulnerability = strings.TrimSpace(p.OtherVulnerability)
		p.Languages = nilIfEmpty(p.Languages)
		p.Relatives = nilIfEmpty(p.Relatives)
		p.Documents = nilIfEmpty(p.Documents)
		p.Diplomas = nilIfEmpty(p.Diplomas)
		p.PriorStays = nilIfEmpty(p.PriorStays)
		p.Preferences = nilIfEmpty(p.Preferences)
	}
}

func nilIfEmpty[S ~[]E, E any](s S) S {
	if len(s) == 0 {
		return nil
	}
	return s
}

// assignFamilies gives each person without a family value the family "F-" + ref,
// refusing a list where another person names that family explicitly (the two would
// merge by accident).
func assignFamilies(l *List, src *source) error {
	given := make(map[solidarity.FamilyID]int)
	for i, p := range l.Persons {
		if _, ok := given[p.Family]; !ok && p.Family != "" {
			given[p.Family] = i
		}
	}
	for i := range l.Persons {
		p := &l.Persons[i]
		if p.Family != "" || p.Ref == "" {
			continue
		}
		id := solidarity.FamilyID("F-" + p.Ref)
		if j, ok := given[id]; ok {
			return personError(src, j, l.Persons[j].Ref, "family", fmt.Sprintf(
				"family %s is the family of one given to %s, which has no family value: name it otherwise", id, quoteRef(p.Ref)))
		}
		p.Family = id
	}
	return nil
}

// pathError is a problem found while decoding, at a JSON path.
type pathError struct{ path, msg string }

var (
	timeType        = reflect.TypeFor[time.Time]()
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
)

// decodeStrict decodes the JSON value raw into v, naming the JSON path of the first
// problem: an object key that is not a field's JSON name (exactly, not in another
// case), a key given twice, a value of the wrong type, an array longer than
// MaxPersons. null leaves v as it is, as encoding/json does.
func decodeStrict(raw []byte, path string, v reflect.Value) *pathError {
	raw = bytes.TrimSpace(raw)
	if string(raw) == "null" {
		return nil
	}
	t := v.Type()
	switch {
	case reflect.PointerTo(t).Implements(unmarshalerType) || (t.Kind() != reflect.Struct && t.Kind() != reflect.Slice):
		if err := json.Unmarshal(raw, v.Addr().Interface()); err != nil {
			return &pathError{path, fmt.Sprintf("want %s, got %s", describe(t), snippet(raw))}
		}
		return nil
	case t.Kind() == reflect.Slice:
		if raw[0] != '[' {
			return &pathError{path, fmt.Sprintf("want an array, got %s", snippet(raw))}
		}
		var elems []json.RawMessage
		if err := json.Unmarshal(raw, &elems); err != nil {
			return &pathError{path, "malformed array: " + err.Error()}
		}
		if len(elems) > MaxPersons {
			what := "items"
			if path == "persons" {
				what = "persons"
			}
			return &pathError{path, fmt.Sprintf("more than %d %s, the limit of one list", MaxPersons, what)}
		}
		s := reflect.MakeSlice(t, len(elems), len(elems))
		for i, e := range elems {
			if err := decodeStrict(e, fmt.Sprintf("%s[%d]", path, i), s.Index(i)); err != nil {
				return err
			}
		}
		v.Set(s)
		return nil
	}
	if raw[0] != '{' {
		return &pathError{path, fmt.Sprintf("want an object, got %s", snippet(raw))}
	}
	fields := jsonFields(t)
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // {
		return &pathError{path, "malformed object: " + err.Error()}
	}
	seen := make(map[string]bool)
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return &pathError{path, "malformed object: " + err.Error()}
		}
		key, _ := tok.(string)
		var val json.RawMessage
		if err := dec.Decode(&val); err != nil {
			return &pathError{path, "malformed object: " + err.Error()}
		}
		p := key
		if path != "" {
			p = path + "." + key
		}
		idx, ok := fields[key]
		switch {
		case !ok:
			return &pathError{p, "unknown field"}
		case seen[key]:
			return &pathError{p, "field given twice"}
		}
		seen[key] = true
		if err := decodeStrict(val, p, v.Field(idx)); err != nil {
			return err
		}
	}
	return nil
}

// jsonFields maps the JSON names of t's exported fields to their index.
func jsonFields(t reflect.Type) map[string]int {
	m := make(map[string]int, t.NumField())
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch name {
		case "-":
			continue
		case "":
			name = f.Name
		}
		m[name] = i
	}
	return m
}

func describe(t reflect.Type) string {
	switch {
	case t == timeType:
		return "an RFC 3339 time such as \"2018-08-20T06:30:00+02:00\""
	case t.Kind() == reflect.String:
		return "a string"
	case t.Kind() == reflect.Bool:
		return "true or false"
	case t.Kind() == reflect.Int:
		return "a whole number"
	}
	return t.String()
}

// snippet shows the start of a JSON value in a message.
func snippet(raw []byte) string {
	const n = 40
	if len(raw) > n {
		return string(raw[:n]) + "..."
	}
	return string(raw)
}

// importArrival is the arrival as a list gives it: the fields set at registration left
// out.
type importArrival struct {
	Vessel      string                 `json:"vessel"`
	Port        string                 `json:"port"`
	At          time.Time              `json:"at"`
	SAR         bool                   `json:"sar"`
	Benefitting solidarity.MemberState `json:"benefitting_state"`
}

// WriteJSON writes the list in the import form ParseJSON reads, indented: the
// arrival's vessel, port, at, sar and benefitting_state, and the persons without their
// case IDs (both are set at registration). A list that does not pass Validate is not
// written: its error is returned.
func (l *List) WriteJSON(w io.Writer) error {
	if err := l.Validate(); err != nil {
		return err
	}
	out := struct {
		Arrival importArrival `json:"arrival"`
		Persons []Person      `json:"persons"`
	}{
		Arrival: importArrival{l.Arrival.Vessel, l.Arrival.Port, l.Arrival.At, l.Arrival.SAR, l.Arrival.Benefitting},
		Persons: make([]Person, len(l.Persons)),
	}
	for i, p := range l.Persons {
		p.Case, p.Notes = "", nil
		out.Persons[i] = p
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
