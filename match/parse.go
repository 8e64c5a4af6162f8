package match

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"solidarity"
	"solidarity/internal/bound"
)

// MaxProblemSize is the largest problem file ParseProblem reads.
const MaxProblemSize = 64 << 20

// problemLimits bound a problem file before it is decoded (internal/bound): it nests 4
// levels deep, and no name or score needs more than the default string and number
// lengths. The number of values is bounded by the size alone: an EU-scale problem has
// millions, and decoding costs time linear in them.
var problemLimits = bound.Limits{Bytes: MaxProblemSize, Values: MaxProblemSize}

// ParseProblem reads a problem file (JSON, docs/match-problem.md) strictly: an unknown
// field, a wrong type, trailing data or a file over MaxProblemSize is an EINVALID
// *solidarity.Error naming the file (name), the line and the JSON path. It checks the
// syntax only: Compile checks the content.
func ParseProblem(name string, r io.Reader) (*Problem, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxProblemSize+1))
	if err != nil {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: "cannot read: " + err.Error()}
	}
	if len(data) > MaxProblemSize {
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: fmt.Sprintf("larger than %d MiB", MaxProblemSize>>20)}
	}
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	if err := bound.JSON(name, data, problemLimits); err != nil {
		return nil, err
	}
	var p Problem
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return nil, jsonError(name, data, err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		rest := bytes.TrimLeft(data[end:], " \t\r\n")
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: lineAt(data, int64(len(data)-len(rest))),
			Message: "data after the problem (a file holds one JSON object)"}
	}
	return &p, nil
}

// jsonError turns a decoding error into an *solidarity.Error with a line and a path.
func jsonError(name string, data []byte, err error) error {
	e := &solidarity.Error{Code: solidarity.EINVALID, File: name}
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		e.Line = lineAt(data, se.Offset)
		e.Message = "malformed JSON: " + se.Error()
		return e
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		e.Line = lineAt(data, te.Offset)
		e.Path, _ = locate(data, func(path []string, end int64, key string) bool { return key == "" && end >= te.Offset })
		if e.Path == "" {
			e.Path = te.Field
		}
		e.Message = fmt.Sprintf("want %s, got JSON %s", jsonKind(te.Type), te.Value)
		return e
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		f, _ = strconv.Unquote(f)
		var off int64
		e.Path, off = locate(data, func(path []string, end int64, key string) bool {
			return key == f && !knownField(reflect.TypeFor[Problem](), path, key)
		})
		if off > 0 {
			e.Line = lineAt(data, off)
		}
		e.Field, e.Message = f, "unknown field"
		return e
	}
	if errors.Is(err, io.EOF) {
		e.Message = "empty file"
		return e
	}
	if errors.Is(err, io.ErrUnexpectedEOF) {
		e.Message = "malformed JSON: unexpected end of file"
		return e
	}
	e.Message = strings.TrimPrefix(err.Error(), "json: ")
	return e
}

func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Int64, reflect.Int:
		return "an integer"
	case reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Slice:
		return "an array"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	}
	return t.String()
}

func lineAt(data []byte, off int64) int {
	return 1 + bytes.Count(data[:min(max(off, 0), int64(len(data)))], []byte("\n"))
}

// locate walks the JSON in data and returns the path ("families[3].needs") and end
// offset of the first value (key == "") or object key (key != "") that match accepts.
// path is the chain of keys and "[i]" indices down to the value or to the object
// holding the key.
func locate(data []byte, match func(path []string, end int64, key string) bool) (string, int64) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		array bool
		index int
		key   string // the pending key in an object
		want  bool   // an object waiting for a key (not a value)
	}
	var stack []frame
	var path []string
	render := func(extra string) string {
		var b strings.Builder
		for _, s := range path {
			if !strings.HasPrefix(s, "[") && b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		}
		if extra != "" {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(extra)
		}
		return b.String()
	}
	// enter pushes the current element's name onto path before a value.
	enter := func() {
		if len(stack) == 0 {
			return
		}
		top := &stack[len(stack)-1]
		if top.array {
			path = append(path, fmt.Sprintf("[%d]", top.index))
			top.index++
		} else {
			path = append(path, top.key)
			top.want = true
		}
	}
	leave := func() {
		if len(stack) > 0 {
			path = path[:len(path)-1]
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return "", 0
		}
		end := dec.InputOffset()
		if d, ok := tok.(json.Delim); ok {
			switch d {
			case '{', '[':
				enter()
				stack = append(stack, frame{array: d == '[', want: d == '{'})
			case '}', ']':
				stack = stack[:len(stack)-1]
				if match(path, end, "") {
					return render(""), end
				}
				leave()
			}
			continue
		}
		if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].want {
			k, _ := tok.(string)
			stack[n-1].key, stack[n-1].want = k, false
			if match(path, end, k) {
				return render(k), end
			}
			continue
		}
		enter()
		if match(path, end, "") {
			return render(""), end
		}
		leave()
	}
}

// knownField reports whether key is a field (matched as encoding/json does, ignoring
// case) of the object at path in a value of type t.
func knownField(t reflect.Type, path []string, key string) bool {
	for _, seg := range append(path, key) {
		for t.Kind() == reflect.Pointer {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Slice:
			t = t.Elem()
		case reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			f, ok := fieldByJSONName(t, seg)
			if !ok {
				return false
			}
			t = f
		default:
			return false
		}
	}
	return true
}

func fieldByJSONName(t reflect.Type, name string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			if ft, ok := fieldByJSONName(f.Type, name); ok {
				return ft, true
			}
			continue
		}
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" {
			tag = f.Name
		}
		if strings.EqualFold(tag, name) {
			return f.Type, true
		}
	}
	return nil, false
}

// WriteJSON writes the problem as a problem file: valid JSON with each family, place,
// group and pair on its own line, so that files diff well and stay small.
func (pr *Problem) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	field := func(name string, v any, last bool) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(bw, "  %q: %s", name, b)
		if !last {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
		return nil
	}
	list := func(name string, n int, item func(i int) any, last bool) error {
		fmt.Fprintf(bw, "  %q: [", name)
		for i := range n {
			b, err := json.Marshal(item(i))
			if err != nil {
				return err
			}
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n    ")
			bw.Write(b)
		}
		if n > 0 {
			bw.WriteString("\n  ")
		}
		bw.WriteByte(']')
		if !last {
			bw.WriteByte(',')
		}
		bw.WriteByte('\n')
		return nil
	}
	bw.WriteString("{\n")
	err := errors.Join(
		field("dimensions", pr.Dimensions, false),
		func() error {
			if pr.Weights == nil {
				return nil
			}
			return field("weights", pr.Weights, false)
		}(),
		func() error {
			if !pr.ExactlyOnce {
				return nil
			}
			return field("exactly_once", true, false)
		}(),
		list("families", len(pr.Families), func(i int) any { return pr.Families[i] }, false),
		list("places", len(pr.Places), func(i int) any { return pr.Places[i] }, false),
		func() error {
			if len(pr.Groups) == 0 {
				return nil
			}
			return list("groups", len(pr.Groups), func(i int) any { return pr.Groups[i] }, false)
		}(),
		func() error {
			if pr.Balance == nil {
				return nil
			}
			return field("balance", pr.Balance, false)
		}(),
		func() error {
			if len(pr.Revisions) == 0 {
				return nil
			}
			return list("revisions", len(pr.Revisions), func(i int) any { return pr.Revisions[i] }, false)
		}(),
		list("pairs", len(pr.Pairs), func(i int) any { return pr.Pairs[i] }, true),
	)
	if err != nil {
		return err
	}
	bw.WriteString("}\n")
	return bw.Flush()
}
