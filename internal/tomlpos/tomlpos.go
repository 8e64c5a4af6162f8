// Package tomlpos finds the line a TOML key is written on, so that errors found after
// decoding (a value out of range, an unknown key) can still name a line: the decoder
// keeps no positions of keys. The cycle files and the scenario files use it.
package tomlpos

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/BurntSushi/toml"

	"solidarity"
)

// Locator maps TOML key paths to the line they are written on, so that validation
// errors found after decoding can still name a line. It understands the subset of
// TOML that cycle and scenario files use: [table], [[array]] headers and key = value lines.
// Paths carry array indices: "pledge[2].eur", "status.EL.benefitting".
type Locator struct {
	lines map[string]int
	// order keeps de-indexed paths in document order, to find the line of the n-th
	// occurrence of a key the decoder did not recognise.
	order []struct {
		plain string
		line  int
	}
}

func New(src []byte) *Locator {
	l := &Locator{lines: map[string]int{}}
	counts := map[string]int{}
	table, plainTable := "", ""
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		s := strings.TrimSpace(sc.Text())
		switch {
		case s == "" || s[0] == '#':
			continue
		case strings.HasPrefix(s, "[["):
			name := strings.TrimSpace(strings.Trim(cut(s), "[]"))
			table = fmt.Sprintf("%s[%d]", name, counts[name])
			plainTable = name
			counts[name]++
			l.add(table, plainTable, n)
		case strings.HasPrefix(s, "["):
			name := strings.TrimSpace(strings.Trim(cut(s), "[]"))
			table, plainTable = name, name
			l.add(table, plainTable, n)
		default:
			k, _, ok := strings.Cut(s, "=")
			if !ok {
				continue
			}
			k = strings.Trim(strings.TrimSpace(k), `"'`)
			l.add(Join(table, k), Join(plainTable, k), n)
		}
	}
	return l
}

func (l *Locator) add(path, plain string, line int) {
	if _, dup := l.lines[path]; !dup {
		l.lines[path] = line
	}
	l.order = append(l.order, struct {
		plain string
		line  int
	}{plain, line})
}

// Line returns the line of path, or 0.
func (l *Locator) Line(path string) int { return l.lines[path] }

// Nth returns the line of the n-th (0-based) occurrence of a de-indexed path.
func (l *Locator) Nth(plain string, n int) int {
	for _, o := range l.order {
		if o.plain == plain {
			if n == 0 {
				return o.line
			}
			n--
		}
	}
	return 0
}

// cut drops a trailing comment from a header line.
func cut(s string) string {
	if i := strings.LastIndex(s, "]"); i >= 0 {
		return s[:i+1]
	}
	return s
}

// Join is the path of key inside table.
func Join(table, key string) string {
	if table == "" {
		return key
	}
	return table + "." + key
}

// typeError is the decoder's text for a value of the wrong type.
var typeError = regexp.MustCompile(`^toml: line (\d+) \(last key "([^"]*)"\): (.*)$`)

// Decode decodes src strictly into v: a syntax error names its line, and the first
// key v has no field for is an error naming its line and path, with doc (the file
// format's reference) as the place to check the spelling. name is the file's name
// in errors. It returns the locator for the errors found after decoding.
func Decode(name string, src []byte, v any, doc string) (*Locator, error) {
	loc := New(src)
	md, err := toml.NewDecoder(bytes.NewReader(src)).Decode(v)
	if err != nil {
		e := &solidarity.Error{Code: solidarity.EINVALID, File: name, Message: err.Error()}
		if pe, ok := errors.AsType[toml.ParseError](err); ok {
			e.Line, e.Message = pe.Position.Line, pe.Message
			if pe.LastKey != "" {
				e.Field = pe.LastKey
			}
		} else if m := typeError.FindStringSubmatch(err.Error()); m != nil {
			// A value of the wrong type comes as text only: take its line and key.
			e.Line, _ = strconv.Atoi(m[1])
			e.Field, e.Message = m[2], m[3]
		}
		return nil, e
	}
	if und := md.Undecoded(); len(und) > 0 {
		k := und[0]
		plain := k.String()
		n := 0
		for _, x := range md.Keys() {
			if slices.Equal(x, k) {
				break
			}
			if x.String() == plain {
				n++
			}
		}
		return nil, &solidarity.Error{Code: solidarity.EINVALID, File: name, Line: loc.Nth(plain, n), Field: k.String(),
			Message: "unknown key (check its spelling against the reference in " + doc + ")"}
	}
	return loc, nil
}
