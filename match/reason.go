package match

import (
	"regexp"
	"strconv"
	"strings"
)

// The solvers work in indices and say why a model is infeasible in indices ("family 0
// must be placed but no place has room: place 1 dimension 0 capacity 0 < need 1"):
// they know nothing else. Their reasons reach users (Result.Reason, an explanation's
// next-best place), so the index that compiled the model puts the names back here,
// in one place, rather than teaching every solver the problem's IDs.

var (
	// "place 1 dimension 0 capacity 0 < need 1" (prob.go's tooBig, RowName without
	// the need): the capacity row first, so that it reads as a sentence.
	reCapNeed = regexp.MustCompile(`\b(place|group) (\d+)(?: \(with place (\d+)\))? dimension (\d+) capacity (-?[\d.e+]+)(?: < need (\d+))?`)
	// "in dimension 0" at the end of a pin or minimum reason.
	reInDim = regexp.MustCompile(`\bin dimension (\d+)`)
	// The lists of families (solver.ListInts) after "must go there" / "to its places".
	reFamList = regexp.MustCompile(`(must go (?:there|to its places)) \(([^)]*)\)`)
	// A minimum row by index: "minimum 0:" or "minimum 0 (" (not "< minimum 5 in").
	reMin = regexp.MustCompile(`\bminimum (\d+)([:(]| \()`)
	// The remaining references: "family 3", "place 2", "group 1", "dimension 0".
	reRef = regexp.MustCompile(`\b(family|place|group|dimension) (\d+)\b`)
)

// Names rewrites a solver's reason, in the indices of the model idx compiled, with
// the problem's IDs: families and places by ID (a place with its Member State),
// groups by ID, dimensions by name, minimum rows by their state. An index out of
// range is left as it is. "" stays "".
func (idx *Index) Names(reason string) string {
	if reason == "" || idx == nil {
		return reason
	}
	// Each pass rewrites only text no pass has written yet: what a pass writes holds
	// IDs, which may be numbers ("place 2" for a place whose ID is "2" must not be
	// read again as place index 2).
	s := replaceOutside(reCapNeed, reason, func(g []string) string {
		var b strings.Builder
		b.WriteString("the capacity of ")
		b.WriteString(idx.rowName(g[1], g[2]))
		if g[3] != "" {
			b.WriteString(" (with " + idx.rowName("place", g[3]) + ")")
		}
		b.WriteString(" in " + idx.dimName(g[4]) + " is " + g[5])
		if g[6] != "" {
			b.WriteString(", the family needs " + g[6])
		}
		return b.String()
	})
	s = replaceOutside(reInDim, s, func(g []string) string { return "in " + idx.dimName(g[1]) })
	s = replaceOutside(reFamList, s, func(g []string) string { return g[1] + " (" + idx.familyList(g[2]) + ")" })
	s = replaceOutside(reMin, s, func(g []string) string {
		i, err := strconv.Atoi(g[1])
		if err != nil || i >= len(idx.Mins) {
			return g[0]
		}
		return "the minimum intake of " + string(idx.Mins[i].State) + g[2]
	})
	s = replaceOutside(reRef, s, func(g []string) string {
		if g[1] == "dimension" {
			return idx.dimName(g[2])
		}
		return idx.rowName(g[1], g[2])
	})
	return strings.NewReplacer(written, "", done, "").Replace(s)
}

// written and done enclose what Names has written, for the passes after it; neither
// occurs in a solver's reason.
const written, done = "\x01", "\x02"

// replaceOutside replaces re's matches in s outside what earlier passes wrote, and
// encloses each replacement so that later passes leave it too.
func replaceOutside(re *regexp.Regexp, s string, f func(groups []string) string) string {
	var b strings.Builder
	for s != "" {
		i := strings.Index(s, written)
		head, rest := s, ""
		if i >= 0 {
			head, rest = s[:i], s[i:]
		}
		b.WriteString(re.ReplaceAllStringFunc(head, func(m string) string {
			return written + f(re.FindStringSubmatch(m)) + done
		}))
		if rest == "" {
			break
		}
		j := strings.Index(rest, done)
		if j < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:j+len(done)])
		s = rest[j+len(done):]
	}
	return b.String()
}

// rowName names family, place or group i (decimal text) by ID, with its kind.
func (idx *Index) rowName(kind, i string) string {
	n, err := strconv.Atoi(i)
	var ids []string
	switch kind {
	case "family":
		ids = idx.Families
	case "place":
		ids = idx.Places
	case "group":
		ids = idx.Groups
	}
	if err != nil || n < 0 || n >= len(ids) {
		return kind + " " + i
	}
	if kind == "place" && n < len(idx.States) {
		return "place " + placeName(ids[n], idx.States[n])
	}
	return kind + " " + ids[n]
}

// dimName names dimension d (decimal text): its name, or "dimension d".
func (idx *Index) dimName(d string) string {
	n, err := strconv.Atoi(d)
	if err != nil || n < 0 || n >= len(idx.Dimensions) {
		return "dimension " + d
	}
	return idx.Dimensions[n]
}

// familyList rewrites a list of family indices ("0, 3, … 9 in all") with their IDs.
func (idx *Index) familyList(list string) string {
	parts := strings.Split(list, ", ")
	for i, p := range parts {
		if n, err := strconv.Atoi(p); err == nil && n >= 0 && n < len(idx.Families) {
			parts[i] = idx.Families[n]
		}
	}
	return strings.Join(parts, ", ")
}
