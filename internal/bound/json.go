package bound

// JSON checks src against l before a JSON decoder sees it: size, nesting depth of
// arrays and objects, number of values, length of strings and of number literals.
// It does not check that src is valid JSON: the decoder does that, and names the fault.
// encoding/json allows 10 000 levels and unbounded literals; a number of a million
// digits decoded into a json.Number or big.Rat costs what a "1e-1000000" does.
func JSON(name string, src []byte, l Limits) error {
	l = l.with()
	if len(src) > l.Bytes {
		return tooLarge(name, len(src), l.Bytes)
	}
	line, depth, values := 1, 0, 0
	for i := 0; i < len(src); i++ {
		c := src[i]
		switch {
		case c == '\n':
			line++
		case c == '"':
			start, startLine := i, line
			i++
			for i < len(src) && src[i] != '"' {
				if src[i] == '\\' {
					i++
				} else if src[i] == '\n' {
					line++
				}
				i++
			}
			if i-start-1 > l.Field {
				return Error(name, startLine, "", "a string of %d bytes is longer than the limit of %d bytes", i-start-1, l.Field)
			}
			values++
		case c == '[' || c == '{':
			depth++
			values++
			if depth > l.Depth {
				return Error(name, line, "", "nesting deeper than the limit of %d levels", l.Depth)
			}
		case c == ']' || c == '}':
			depth--
		case c == '-' || c >= '0' && c <= '9':
			start := i
			for i+1 < len(src) && isNumByte(src[i+1]) {
				i++
			}
			if i-start+1 > l.Number {
				return Error(name, line, "", "a number of %d characters is longer than the limit of %d", i-start+1, l.Number)
			}
			values++
		case c == 't' || c == 'f' || c == 'n':
			values++
		}
		if values > l.Values {
			return Error(name, line, "", "more than the limit of %d values", l.Values)
		}
	}
	return nil
}

func isNumByte(c byte) bool {
	return c >= '0' && c <= '9' || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-'
}
