package solidarity

import (
	"slices"
	"strings"
)

// MemberState is a Member State of the European Union by its Eurostat country code.
// Eurostat writes Greece EL (ISO 3166 GR); solidarity uses Eurostat's codes throughout
// because the reference data comes from Eurostat (Art. 66).
type MemberState string

// memberStates lists the EU-27 in Eurostat's protocol order with English names and
// ISO 3166-1 numeric codes (used to join Natural Earth shapes).
var memberStates = []struct {
	Code    MemberState
	Name    string
	ISO2    string
	Numeric string
}{
	{"BE", "Belgium", "BE", "056"}, {"BG", "Bulgaria", "BG", "100"}, {"CZ", "Czechia", "CZ", "203"},
	{"DK", "Denmark", "DK", "208"}, {"DE", "Germany", "DE", "276"}, {"EE", "Estonia", "EE", "233"},
	{"IE", "Ireland", "IE", "372"}, {"EL", "Greece", "GR", "300"}, {"ES", "Spain", "ES", "724"},
	{"FR", "France", "FR", "250"}, {"HR", "Croatia", "HR", "191"}, {"IT", "Italy", "IT", "380"},
	{"CY", "Cyprus", "CY", "196"}, {"LV", "Latvia", "LV", "428"}, {"LT", "Lithuania", "LT", "440"},
	{"LU", "Luxembourg", "LU", "442"}, {"HU", "Hungary", "HU", "348"}, {"MT", "Malta", "MT", "470"},
	{"NL", "Netherlands", "NL", "528"}, {"AT", "Austria", "AT", "040"}, {"PL", "Poland", "PL", "616"},
	{"PT", "Portugal", "PT", "620"}, {"RO", "Romania", "RO", "642"}, {"SI", "Slovenia", "SI", "705"},
	{"SK", "Slovakia", "SK", "703"}, {"FI", "Finland", "FI", "246"}, {"SE", "Sweden", "SE", "752"},
}

// MemberStates returns the 27 Member States in Eurostat's protocol order.
func MemberStates() []MemberState {
	out := make([]MemberState, len(memberStates))
	for i, m := range memberStates {
		out[i] = m.Code
	}
	return out
}

// PartIV returns the Member States bound by Part IV of Regulation (EU) 2024/1351:
// the EU-27 without Denmark, which is not bound (Protocol No 22; spec
// solidarity-mechanism.md §2.9 rule 52, tag R). It is the default participating set
// of the reference key; a cycle file may name another.
func PartIV() []MemberState {
	return slices.DeleteFunc(MemberStates(), func(m MemberState) bool { return m == "DK" })
}

// ParseMemberState accepts a Eurostat code in any case, and the ISO code GR for Greece.
// It reports ok=false for anything that is not an EU Member State (aggregates such as
// EU27_2020, EA20 and non-members such as NO or CH included).
func ParseMemberState(s string) (MemberState, bool) {
	s = strings.ToUpper(strings.TrimSpace(s))
	if s == "GR" {
		s = "EL"
	}
	for _, m := range memberStates {
		if string(m.Code) == s {
			return m.Code, true
		}
	}
	return "", false
}

// Valid reports whether m is one of the 27 Member States.
func (m MemberState) Valid() bool { return m.Index() >= 0 }

// Name returns the English short name of m, or the code itself when unknown.
func (m MemberState) Name() string {
	for _, s := range memberStates {
		if s.Code == m {
			return s.Name
		}
	}
	return string(m)
}

// ISO2 returns the ISO 3166-1 alpha-2 code of m (GR for Greece).
func (m MemberState) ISO2() string {
	for _, s := range memberStates {
		if s.Code == m {
			return s.ISO2
		}
	}
	return ""
}

// ISONumeric returns the ISO 3166-1 numeric code of m as three digits ("276").
func (m MemberState) ISONumeric() string {
	for _, s := range memberStates {
		if s.Code == m {
			return s.Numeric
		}
	}
	return ""
}

// Index returns m's position in Eurostat's protocol order, or -1. Tables sort by it.
func (m MemberState) Index() int {
	for i, s := range memberStates {
		if s.Code == m {
			return i
		}
	}
	return -1
}

// ParseParticipating reads a participating set as users write it: "part-iv" (or ""),
// "eu27", or comma-separated codes. The result is in protocol order, so that nothing
// computed from it depends on the order the user typed.
func ParseParticipating(s string) ([]MemberState, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "", "part-iv":
		return PartIV(), nil
	case "eu27", "eu-27":
		return MemberStates(), nil
	}
	seen := map[MemberState]bool{}
	for _, c := range strings.Split(s, ",") {
		m, ok := ParseMemberState(c)
		if !ok {
			return nil, &Error{Code: EINVALID, Field: "participating", Message: "\"" + strings.TrimSpace(c) + "\" is not an EU Member State"}
		}
		if seen[m] {
			return nil, &Error{Code: EINVALID, Field: "participating", Message: string(m) + " is listed twice"}
		}
		seen[m] = true
	}
	return slices.DeleteFunc(MemberStates(), func(m MemberState) bool { return !seen[m] }), nil
}
