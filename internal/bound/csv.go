package bound

// CSV checks a delimited text (CSV with comma or semicolon, Eurostat's TSV with tab)
// against l before a reader sees it: size, rows, fields per row, field length and
// fields in all. Quoting follows RFC 4180 as encoding/csv reads it: a quote opens a
// quoted field only at the start of a field, and "" inside one is a quote; separators
// and line ends inside quotes do not count. encoding/csv itself bounds none of these:
// one line of a million separators is a million strings, a million short lines a
// million records.
func CSV(name string, src []byte, sep byte, l Limits) error {
	l = l.with()
	if len(src) > l.Bytes {
		return tooLarge(name, len(src), l.Bytes)
	}
	line, rows, cols, values := 1, 0, 0, 0
	fieldStart, fieldLine := 0, 1
	inQuote, atStart, empty := false, true, true
	endField := func(i int) error {
		if n := i - fieldStart; n > l.Field {
			return Error(name, fieldLine, "", "a field of %d bytes is longer than the limit of %d bytes", n, l.Field)
		}
		cols++
		values++
		if cols > l.Columns {
			return Error(name, fieldLine, "", "a row of more than the limit of %d fields", l.Columns)
		}
		if values > l.Values {
			return Error(name, fieldLine, "", "more than the limit of %d fields", l.Values)
		}
		return nil
	}
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inQuote {
			if c == '\n' {
				line++
			}
			if c == '"' {
				if i+1 < len(src) && src[i+1] == '"' {
					i++
				} else {
					inQuote = false
				}
			}
			continue
		}
		switch {
		case c == '"' && atStart:
			inQuote, atStart, empty = true, false, false
		case c == sep:
			if err := endField(i); err != nil {
				return err
			}
			fieldStart, fieldLine, atStart = i+1, line, true
		case c == '\n':
			if !empty || cols > 0 {
				if err := endField(i); err != nil {
					return err
				}
				rows++
				if rows > l.Lines {
					return Error(name, line, "", "more than the limit of %d rows", l.Lines)
				}
			}
			line++
			cols, fieldStart, fieldLine, atStart, empty = 0, i+1, line, true, true
		case c == '\r':
		default:
			atStart, empty = false, false
		}
	}
	if inQuote || !empty || cols > 0 {
		if err := endField(len(src)); err != nil {
			return err
		}
		if rows+1 > l.Lines {
			return Error(name, line, "", "more than the limit of %d rows", l.Lines)
		}
	}
	return nil
}
