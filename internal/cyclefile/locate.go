package cyclefile

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
)

// locator maps TOML key paths to the line they are written on, so that validation
// errors found after decoding can still name a line. It understands the subset of
// TOML that cycle files use: [table], [[array]] headers and key = value lines.
// Paths carry array indices: "pledge[2].eur", "status.EL.benefitting".
type locator struct {
	lines map[string]int
	// order keeps de-indexed paths in document order, to find the line of the n-th
	// occurrence of a key the decoder did not recognise.
	order []struct {
		plain string
		line  int
	}
}

func newLocator(src []byte) *locator {
	l := &locator{lines: map[string]int{}}
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
			l.add(join(table, k), join(plainTable, k), n)
		}
	}
	return l
}

func (l *locator) add(path, plain string, line int) {
	if _, dup := l.lines[path]; !dup {
		l.lines[path] = line
	}
	l.order = append(l.order, struct {
		plain string
		line  int
	}{plain, line})
}

// line returns the line of path, or 0.
func (l *locator) line(path string) int { return l.lines[path] }

// nth returns the line of the n-th (0-based) occurrence of a de-indexed path.
func (l *locator) nth(plain string, n int) int {
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

func join(table, key string) string {
	if table == "" {
		return key
	}
	return table + "." + key
}
