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
	s := reCapNeed.ReplaceAllStringFunc(reason, func(m string) string {
		g := reCapNeed.FindStringSubmatch(m)
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
	s = reInDim.ReplaceAllStringFunc(s, func(m string) string {
		return "in " + idx.dimName(reInDim.FindStringSubmatch(m)[1])
	})
	s = reFamList.ReplaceAllStringFunc(s, func(m string) string {
		g := reFamList.FindStringSubmatch(m)
		return g[1] + " (" + idx.familyList(g[2]) + ")"
	})
	s = reMin.ReplaceAllStringFunc(s, func(m string) string {
		g := reMin.FindStringSubmatch(m)
		i, err := strconv.Atoi(g[1])
		if err != nil || i >= len(idx.Mins) {
			return m
		}
		return "the minimum intake of " + string(idx.Mins[i].State) + g[2]
	})
	return reRef.ReplaceAllStringFunc(s, func(m string) string {
		g := reRef.FindStringSubmatch(m)
		if g[1] == "dimension" {
			return idx.dimName(g[2])
		}
		return idx.rowName(g[1], g[2])
	})
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
