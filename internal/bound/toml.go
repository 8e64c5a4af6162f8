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
	// frame is one open [ or {: the depth of the values inside it, whether it holds
	// keys (an inline table, or a table header's name) and whether it is a header.
	type frame struct {
		depth  int
		keys   bool
		header bool
	}
	var stack []frame
	line, values := 1, 0
	table := 0    // depth of the current [table] (its header's parts)
	inKey := true // reading a key: at the start of a line, or after { or , in an inline table
	dots := 0     // dotted parts of the key being read
	base := func() int {
		if len(stack) == 0 {
			return table
		}
		return stack[len(stack)-1].depth
	}
	keyed := func() bool { return len(stack) == 0 || stack[len(stack)-1].keys }
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch c {
		case '\n':
			line++
			if len(stack) == 0 {
				inKey, dots = true, 0
			}
		case '#':
			for i+1 < len(src) && src[i+1] != '\n' {
				i++
			}
		case '"', '\'':
			start, startLine := i, line
			multi := bytes.HasPrefix(src[i:], []byte{c, c, c})
			if multi {
				i += 3
				for i < len(src) && !bytes.HasPrefix(src[i:], []byte{c, c, c}) {
					if c == '"' && src[i] == '\\' {
						i++
					}
					if i < len(src) && src[i] == '\n' {
						line++
					}
					i++
				}
				i += 2
				// a multi-line string may end in up to two more quotes: """a"""""
				for i+1 < len(src) && src[i+1] == c {
					i++
				}
			} else {
				i++
				for i < len(src) && src[i] != c && src[i] != '\n' {
					if c == '"' && src[i] == '\\' {
						i++
					}
					i++
				}
				if i < len(src) && src[i] == '\n' {
					i-- // let the loop count the line; the decoder reports the open string
				}
			}
			if n := min(i, len(src)) - start; n > l.Field {
				return Error(name, startLine, "", "a string of %d bytes is longer than the limit of %d bytes", n, l.Field)
			}
			if !inKey {
				values++
			}
		case '.':
			if inKey {
				dots++
				d := base() + dots + 1
				if len(stack) > 0 && stack[len(stack)-1].header {
					d = 2 * (dots + 1)
				}
				if d > l.Depth {
					return Error(name, line, "", "key nested deeper than the limit of %d levels", l.Depth)
				}
			}
		case '=':
			if keyed() {
				inKey = false
			}
		case ',':
			if len(stack) > 0 && stack[len(stack)-1].keys {
				inKey, dots = true, 0
			}
		case '[', '{':
			f := frame{keys: c == '{'}
			switch {
			case len(stack) == 0 && inKey && c == '[':
				// A table header, [name] or [[name]]: each of its parts may be an array
				// of tables (defined by an earlier [[part]]) and a table in it, two levels.
				f.header, f.keys, f.depth = true, true, 2
				if i+1 < len(src) && src[i+1] == '[' {
					i++
				}
				dots = 0
			case keyed():
				f.depth = base() + dots + 1
			default:
				f.depth = base() + 1
			}
			if f.depth > l.Depth {
				return Error(name, line, "", "nesting deeper than the limit of %d levels", l.Depth)
			}
			stack = append(stack, f)
			inKey = f.keys
			if !f.header {
				dots = 0
			}
			values++ // a table header builds a table too
		case ']', '}':
			if len(stack) == 0 {
				break
			}
			f := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if f.header {
				table = 2 * (1 + dots)
				if i+1 < len(src) && src[i+1] == ']' {
					i++
				}
				inKey, dots = true, 0
			} else {
				inKey = false
			}
		default:
			if !inKey && (c == '+' || c == '-' || c >= '0' && c <= '9') {
				start := i
				for i+1 < len(src) && isTOMLNumByte(src[i+1]) {
					i++
				}
				if n := i - start + 1; n > l.Number {
					return Error(name, line, "", "a number of %d characters is longer than the limit of %d", n, l.Number)
				}
				values++
			} else if !inKey && (c == 't' || c == 'f') {
				values++
				for i+1 < len(src) && src[i+1] >= 'a' && src[i+1] <= 'z' {
					i++
				}
			}
		}
		if values > l.Values {
			return Error(name, line, "", "more than the limit of %d values", l.Values)
		}
	}
	return nil
}

// isTOMLNumByte reports whether c may continue a TOML number, date or time literal.
func isTOMLNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '_' || c == '+' || c == '-' || c == ':'
}
