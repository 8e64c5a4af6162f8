package arrival_test

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"pgregory.net/rapid"

	"solidarity"
	"solidarity/arrival"
)

// hidden are characters that change how a name displays or hide text: the bidi
// embeddings, overrides, isolates and marks, zero-width spaces, the byte order mark,
// separators, controls, private use and noncharacters. ValidText refuses each.
var hidden = []rune{
	'\u202A', '\u202B', '\u202C', '\u202D', '\u202E', // embeddings, overrides, pop
	'\u2066', '\u2067', '\u2068', '\u2069', // isolates
	'\u200E', '\u200F', '\u061C', // LRM, RLM, ALM
	'\u200B', '\u2060', '\uFEFF', '\u00AD', '\u180E', // zero width, word joiner, BOM, soft hyphen, Mongolian vowel separator
	'\u2028', '\u2029', // line and paragraph separators
	'\u0000', '\u0007', '\t', '\n', '\r', '\u001B', '\u007F', '\u0085', '\u009B', // C0, C1, DEL
	'\uE000', '\U000F0000', // private use
	'\uFDD0', '\uFFFE', '\uFFFF', '\U0010FFFF', // noncharacters
	'\U000E0001', '\U000E0041', // language tag, tag letters
}

// names are real-world spellings in several scripts that ValidText accepts,
// including the zero-width non-joiner and joiner of Persian and Indic spelling.
var names = []string{
	"Ada Sample", "Zoë O'Brien-Núñez", "Ασπασία", "Анна Петрова", "ሰላም ተስፋይ", "محمد عبد الله",
	"مهر\u200Cناز", "क्\u200Dष", "李小龍", "Nguyễn Thị Minh Khai", "Ōtsuka Ayşe", "Ifeoma Ọnụọha",
}

// TestValidTextTable: the hidden characters are refused in a name, a vessel and a
// port, each with an error naming the field and the code point (never the text),
// and the names of many scripts pass.
func TestValidTextTable(t *testing.T) {
	for _, n := range names {
		if !arrival.ValidText(n) || arrival.TextProblem(n) != "" {
			t.Errorf("%q refused: %s", n, arrival.TextProblem(n))
		}
	}
	for _, r := range hidden {
		s := "Ada" + string(r) + "Sample"
		if arrival.ValidText(s) {
			t.Errorf("U+%04X accepted", r)
			continue
		}
		if p := arrival.TextProblem(s); !strings.Contains(p, fmt.Sprintf("U+%04X at character 4", r)) || strings.Contains(p, "Sample") {
			t.Errorf("U+%04X: problem %q", r, p)
		}
		for _, field := range []string{"name", "vessel", "port", "other_vulnerability"} {
			l := validList()
			switch field {
			case "name":
				l.Persons[1].Name = s
			case "vessel":
				l.Arrival.Vessel = s
			case "port":
				l.Arrival.Port = s
			case "other_vulnerability":
				l.Persons[1].OtherVulnerability = s
			}
			err := l.Validate()
			e, ok := err.(*solidarity.Error)
			want := "persons[1]." + field
			if field == "vessel" || field == "port" {
				want = "arrival." + field
			}
			if !ok || e.Code != solidarity.EINVALID || e.Field != want || !strings.Contains(e.Message, fmt.Sprintf("U+%04X", r)) {
				t.Errorf("U+%04X in %s: %v (field %q)", r, field, err, fieldOf(err))
			}
		}
	}
	// In a CSV file the error names the line and the column.
	bad := edit(t, "Lia Sample", "Lia \u202Eelpmas")
	_, err := arrival.ParseCSV("ship.csv", strings.NewReader(bad))
	if e, ok := err.(*solidarity.Error); !ok || e.Line != 8 || e.Field != "name" || !strings.Contains(e.Message, "U+202E") {
		t.Errorf("bidi override in a CSV name: %v", err)
	}
}

func fieldOf(err error) string {
	if e, ok := err.(*solidarity.Error); ok {
		return e.Field
	}
	return ""
}

// validList is a small valid list.
func validList() *arrival.List {
	at := time.Date(2026, 8, 17, 8, 30, 0, 0, time.UTC)
	return &arrival.List{
		Arrival: solidarity.Arrival{Vessel: "Test Star", Port: "Pozzallo", At: at, SAR: true, Benefitting: "IT"},
		Persons: []arrival.Person{
			{Ref: "P1", Family: "K1", Name: "Ada Sample", AssessedAge: 30, Sex: arrival.Female},
			{Ref: "P2", Family: "K2", Name: "Lia Sample", AssessedAge: 20, Sex: arrival.Female},
		},
	}
}

// forbidden is the oracle of the property test, written from the classes ValidText
// documents rather than from its code.
func forbidden(r rune) bool {
	if r == '\u200C' || r == '\u200D' {
		return false
	}
	return unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Co, unicode.Bidi_Control) ||
		r >= 0xFDD0 && r <= 0xFDEF || r&0xFFFE == 0xFFFE || r == utf8.RuneError
}

// TestValidTextProperty: for any string of runes from anywhere in Unicode, ValidText
// accepts it exactly when it is valid UTF-8 holding none of the forbidden classes,
// TextProblem is "" exactly then, and a refused name is refused by Validate on the
// person's name field.
func TestValidTextProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var b strings.Builder
		for range rapid.IntRange(0, 12).Draw(t, "len") {
			switch rapid.IntRange(0, 3).Draw(t, "kind") {
			case 0:
				b.WriteRune(rapid.SampledFrom(hidden).Draw(t, "hidden"))
			case 1:
				b.WriteString(rapid.SampledFrom(names).Draw(t, "name"))
			default:
				b.WriteRune(rapid.RuneFrom(nil, unicode.Latin, unicode.Arabic, unicode.Han, unicode.Cf, unicode.Cc, unicode.Co, unicode.Zs).Draw(t, "rune"))
			}
		}
		s := b.String()
		want := utf8.ValidString(s) && strings.IndexFunc(s, forbidden) < 0
		if got := arrival.ValidText(s); got != want {
			t.Fatalf("ValidText(%+q) = %v, want %v", s, got, want)
		}
		if (arrival.TextProblem(s) == "") != want {
			t.Fatalf("TextProblem(%+q) = %q", s, arrival.TextProblem(s))
		}
		if strings.TrimSpace(s) == "" || utf8.RuneCountInString(s) > 200 {
			return
		}
		l := validList()
		l.Persons[0].Name = s
		err := l.Validate()
		if want != (err == nil) {
			t.Fatalf("Validate with name %+q: %v", s, err)
		}
		if err != nil && fieldOf(err) != "persons[0].name" {
			t.Fatalf("Validate with name %+q: field %q", s, fieldOf(err))
		}
	})
}

// FuzzValidText: ValidText and TextProblem agree, and an accepted string holds no
// forbidden character.
func FuzzValidText(f *testing.F) {
	for _, s := range append(slicesOf(names), "a\u202Eb", "\u2066x\u2069", "x\u200By", "\xff", "") {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ok := arrival.ValidText(s)
		if ok != (arrival.TextProblem(s) == "") {
			t.Fatalf("ValidText %v, TextProblem %q", ok, arrival.TextProblem(s))
		}
		if ok && (!utf8.ValidString(s) || strings.IndexFunc(s, forbidden) >= 0) {
			t.Fatalf("%+q accepted", s)
		}
	})
}

func slicesOf(s []string) []string { return append([]string(nil), s...) }

// TestTimeProblem is the table of the one time check of arrivals and events.
func TestTimeProblem(t *testing.T) {
	now := time.Date(2026, 9, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		t    time.Time
		want string // "" for accepted, else a word of the problem
	}{
		{time.Time{}, "missing"},
		{time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC), "missing"}, // 0001-01-01 is the zero time: never now
		{time.Date(1900, 1, 1, 0, 0, 0, 0, time.UTC), "before 1990-06-15"},
		{time.Date(1990, 6, 14, 23, 59, 59, 0, time.UTC), "before"},
		{arrival.MinTime, ""},
		{now.Add(-time.Hour), ""},
		{now.Add(arrival.MaxClockSkew), ""},
		{now.Add(arrival.MaxClockSkew + time.Second), "future"},
		{time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC), "future"},
	} {
		got := arrival.TimeProblem(c.t, now)
		if (got == "") != (c.want == "") || !strings.Contains(got, c.want) {
			t.Errorf("TimeProblem(%v) = %q, want %q", c.t, got, c.want)
		}
	}
	// An arrival dated 2100 passes Validate (no clock) but not ValidateAt; one of the
	// year 1 passes neither.
	l := validList()
	l.Arrival.At = time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC)
	if err := l.ValidateAt(now); fieldOf(err) != "arrival.at" || !strings.Contains(err.Error(), "future") {
		t.Errorf("an arrival in 2100: %v", err)
	}
	l.Arrival.At = time.Date(1, 1, 1, 0, 0, 0, 1, time.UTC)
	for _, err := range []error{l.Validate(), l.ValidateAt(now)} {
		if fieldOf(err) != "arrival.at" {
			t.Errorf("an arrival in the year 1: %v", err)
		}
	}
	if err := validList().ValidateAt(now); err != nil {
		t.Errorf("a valid list: %v", err)
	}
}
