package bound

import "bytes"

// TOML checks src against l before a TOML decoder sees it: size, nesting depth, number
// of values, length of strings and of number literals.
//
// Depth counts every level the decoder builds: each [ and { of a value, each part of a
// dotted key (x.a.a = 1 nests as deeply as x = {a={a=1}}), added to the depth of the
// table or inline table the key is in, and two for each part of a table header (any
// part may name an array of tables: [[a]] [[a.b]] nests a, a[i], b, b[j]). BurntSushi/toml's cost
// grows with the square of that depth (see the package comment), so it is refused
// before decoding. Strings (basic, literal, both multi-line forms) and comments are
// skipped, so that brackets, dots and quotes inside them count for nothing.
// It does not check that src is valid TOML: the decoder does that, and names the fault.
func TOML(name string, src []byte, l Limits) error {
	l = l.with()
	if len(src) > l.Bytes {
		return tooLarge(name, len(src), l.Bytes)
	}
	s := &tomlScanner{name: name, src: src, l: l, line: 1, inKey: true}
	for ; s.i < len(src); s.i++ {
		if err := s.step(src[s.i]); err != nil {
			return err
		}
		if s.values > l.Values {
			return Error(name, s.line, "", "more than the limit of %d values", l.Values)
		}
	}
	return nil
}

// tomlFrame is one open [ or {: the depth of the values inside it, whether it holds
// keys (an inline table, or a table header's name) and whether it is a header.
type tomlFrame struct {
	depth  int
	keys   bool
	header bool
}

// tomlScanner is the state of one TOML scan; src[i] is the byte being read. Each
// method reads one kind of token starting at i and leaves i on its last byte.
type tomlScanner struct {
	name   string
	src    []byte
	l      Limits
	i      int
	line   int
	values int
	stack  []tomlFrame
	table  int  // depth of the current [table] (its header's parts)
	inKey  bool // reading a key: at the start of a line, or after { or , in an inline table
	dots   int  // dotted parts of the key being read
}

// step reads the token that starts with c.
func (s *tomlScanner) step(c byte) error {
	switch c {
	case '\n':
		s.line++
		if len(s.stack) == 0 {
			s.inKey, s.dots = true, 0
		}
	case '#':
		for s.i+1 < len(s.src) && s.src[s.i+1] != '\n' {
			s.i++
		}
	case '"', '\'':
		return s.str(c)
	case '.':
		return s.dot()
	case '=':
		if s.keyed() {
			s.inKey = false
		}
	case ',':
		if len(s.stack) > 0 && s.top().keys {
			s.inKey, s.dots = true, 0
		}
	case '[', '{':
		return s.open(c)
	case ']', '}':
		s.close()
	default:
		return s.bare(c)
	}
	return nil
}

func (s *tomlScanner) top() tomlFrame { return s.stack[len(s.stack)-1] }

// base is the depth of the table or inline table a key is in.
func (s *tomlScanner) base() int {
	if len(s.stack) == 0 {
		return s.table
	}
	return s.top().depth
}

// keyed reports whether the innermost level holds keys (a table or an inline table).
func (s *tomlScanner) keyed() bool { return len(s.stack) == 0 || s.top().keys }

// str skips a string quoted by c, of any of the four forms, and bounds its length.
func (s *tomlScanner) str(c byte) error {
	start, startLine := s.i, s.line
	if bytes.HasPrefix(s.src[s.i:], []byte{c, c, c}) {
		s.multiLine(c)
	} else {
		s.singleLine(c)
	}
	if n := min(s.i, len(s.src)) - start; n > s.l.Field {
		return Error(s.name, startLine, "", "a string of %d bytes is longer than the limit of %d bytes", n, s.l.Field)
	}
	if !s.inKey {
		s.values++
	}
	return nil
}

// multiLine skips a """ or ”' string, counting its lines.
func (s *tomlScanner) multiLine(c byte) {
	src := s.src
	s.i += 3
	for s.i < len(src) && !bytes.HasPrefix(src[s.i:], []byte{c, c, c}) {
		if c == '"' && src[s.i] == '\\' {
			s.i++
		}
		if s.i < len(src) && src[s.i] == '\n' {
			s.line++
		}
		s.i++
	}
	s.i += 2
	// a multi-line string may end in up to two more quotes: """a"""""
	for s.i+1 < len(src) && src[s.i+1] == c {
		s.i++
	}
}

// singleLine skips a " or ' string, which ends at its quote or at the end of the line.
func (s *tomlScanner) singleLine(c byte) {
	src := s.src
	s.i++
	for s.i < len(src) && src[s.i] != c && src[s.i] != '\n' {
		if c == '"' && src[s.i] == '\\' {
			s.i++
		}
		s.i++
	}
	if s.i < len(src) && src[s.i] == '\n' {
		s.i-- // let the loop count the line; the decoder reports the open string
	}
}

// dot reads a dot: in a key, one more level (two in a table header).
func (s *tomlScanner) dot() error {
	if !s.inKey {
		return nil
	}
	s.dots++
	d := s.base() + s.dots + 1
	if len(s.stack) > 0 && s.top().header {
		d = 2 * (s.dots + 1)
	}
	if d > s.l.Depth {
		return Error(s.name, s.line, "", "key nested deeper than the limit of %d levels", s.l.Depth)
	}
	return nil
}

// open reads a [ or {: a table header, an array or an inline table.
func (s *tomlScanner) open(c byte) error {
	f := tomlFrame{keys: c == '{'}
	switch {
	case len(s.stack) == 0 && s.inKey && c == '[':
		// A table header, [name] or [[name]]: each of its parts may be an array
		// of tables (defined by an earlier [[part]]) and a table in it, two levels.
		f.header, f.keys, f.depth = true, true, 2
		if s.i+1 < len(s.src) && s.src[s.i+1] == '[' {
			s.i++
		}
		s.dots = 0
	case s.keyed():
		f.depth = s.base() + s.dots + 1
	default:
		f.depth = s.base() + 1
	}
	if f.depth > s.l.Depth {
		return Error(s.name, s.line, "", "nesting deeper than the limit of %d levels", s.l.Depth)
	}
	s.stack = append(s.stack, f)
	s.inKey = f.keys
	if !f.header {
		s.dots = 0
	}
	s.values++ // a table header builds a table too
	return nil
}

// close reads a ] or }; a header's sets the depth of the table it names.
func (s *tomlScanner) close() {
	if len(s.stack) == 0 {
		return
	}
	f := s.top()
	s.stack = s.stack[:len(s.stack)-1]
	if !f.header {
		s.inKey = false
		return
	}
	s.table = 2 * (1 + s.dots)
	if s.i+1 < len(s.src) && s.src[s.i+1] == ']' {
		s.i++
	}
	s.inKey, s.dots = true, 0
}

// bare reads any other byte: in a value, a number, date or boolean literal starts here.
func (s *tomlScanner) bare(c byte) error {
	if s.inKey {
		return nil
	}
	switch {
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		start := s.i
		for s.i+1 < len(s.src) && isTOMLNumByte(s.src[s.i+1]) {
			s.i++
		}
		if n := s.i - start + 1; n > s.l.Number {
			return Error(s.name, s.line, "", "a number of %d characters is longer than the limit of %d", n, s.l.Number)
		}
		s.values++
	case c == 't' || c == 'f':
		s.values++
		for s.i+1 < len(s.src) && s.src[s.i+1] >= 'a' && s.src[s.i+1] <= 'z' {
			s.i++
		}
	}
	return nil
}

// isTOMLNumByte reports whether c may continue a TOML number, date or time literal.
func isTOMLNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' || c == '+' || c == '-' || c == ':'
}
