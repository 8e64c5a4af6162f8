package solidarity

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file is the one convention for the legal bases solidarity writes: into a ledger
// entry (Entry.LegalBasis, CaseEventPayload.Article), into an Error (Error.Article),
// into the case flow's transitions and the time limits.
//
// A legal basis is one provision or a list of them, separated by "; ". One provision
// is written
//
//	Art. N[(paragraph)[–(paragraph)]][(point)[–(point)]][, Kth subpara.|, Kth sentence] ACT
//
// for example "Art. 57(1) AMMR", "Art. 68(1)–(3) AMMR", "Art. 36(1)(b)–(c) AMMR",
// "Art. 39(1), 4th subpara. AMMR", "Art. 43 APR". The act is always named by its
// short name (Act), so that "Art. 67 AMMR" (relocation) and "Art. 67 APR" (the right
// to an effective remedy) never read alike. A range of articles is not written "Arts.
// 67–68": each article of the range is listed ("Art. 67 AMMR; Art. 68 AMMR"), so that
// `grep 'Art. 68'` finds it; a range of paragraphs or points stays a range, the
// article number being written. A list of paragraphs of one article is a list of
// provisions ("Art. 35(2) APR; Art. 35(5) APR").
//
// A recital and an annex are provisions of their own, written "recital 15 AMMR" and
// "Annex I AMMR" (the annex's number in Roman numerals), listed beside the articles
// they explain or complete: "Art. 12(2) AMMR; recital 15 AMMR", "Art. 66 AMMR; Annex I
// AMMR". They have no paragraphs.
//
// Entries recorded before this convention keep their legal basis as written: the
// ledger is append-only and its history is not rewritten. ParseLegalBases accepts only
// the convention; it is for what the code writes, not for reading old entries.

// Act is the short name of an act a legal basis cites.
type Act string

// The acts solidarity cites, by short name.
const (
	AMMR            Act = "AMMR"             // Regulation (EU) 2024/1351, asylum and migration management
	APR             Act = "APR"              // Regulation (EU) 2024/1348, asylum procedure
	SR              Act = "SR"               // Regulation (EU) 2024/1356, screening
	ED              Act = "ED"               // Regulation (EU) 2024/1358, Eurodac
	CR              Act = "CR"               // Regulation (EU) 2024/1359, crisis and force majeure
	RBPR            Act = "RBPR"             // Regulation (EU) 2024/1349, return border procedure
	DublinIII       Act = "Dublin III"       // Regulation (EU) No 604/2013
	GDPR            Act = "GDPR"             // Regulation (EU) 2016/679, data protection
	ReturnDirective Act = "Return Directive" // Directive 2008/115/EC
)

// acts is the table of the acts solidarity cites: the only place their full titles
// are written.
var acts = []struct {
	act   Act
	title string
}{
	{AMMR, "Regulation (EU) 2024/1351"},
	{APR, "Regulation (EU) 2024/1348"},
	{SR, "Regulation (EU) 2024/1356"},
	{ED, "Regulation (EU) 2024/1358"},
	{CR, "Regulation (EU) 2024/1359"},
	{RBPR, "Regulation (EU) 2024/1349"},
	{DublinIII, "Regulation (EU) No 604/2013"},
	{GDPR, "Regulation (EU) 2016/679"},
	{ReturnDirective, "Directive 2008/115/EC"},
}

// Acts returns the acts solidarity cites, in a fixed order.
func Acts() []Act {
	out := make([]Act, len(acts))
	for i, a := range acts {
		out[i] = a.act
	}
	return out
}

// Title returns the act's official number ("Regulation (EU) 2024/1351"), or "" for an
// act solidarity does not know.
func (a Act) Title() string {
	for _, x := range acts {
		if x.act == a {
			return x.title
		}
	}
	return ""
}

// Valid reports whether a is one of the acts solidarity cites.
func (a Act) Valid() bool { return a.Title() != "" }

// Art returns the provision Art. article of a, with the paragraph when one is given:
// AMMR.Art(57, 1) is "Art. 57(1) AMMR".
func (a Act) Art(article int, paragraph ...int) LegalBasis {
	b := LegalBasis{Act: a, Article: article}
	if len(paragraph) > 0 {
		b.Paragraph = paragraph[0]
	}
	return b
}

// Arts returns the provisions Art. from to Art. to of a, each listed (the convention
// writes no range of articles).
func (a Act) Arts(from, to int) LegalBases {
	var out LegalBases
	for n := from; n <= to; n++ {
		out = append(out, a.Art(n))
	}
	return out
}

// LegalBasis is one provision of an act: an article, and where it is that precise, a
// paragraph (or a range of paragraphs), a point (or a range of points) and a
// subparagraph or sentence; or a recital, or an annex.
type LegalBasis struct {
	Act          Act
	Article      int
	Recital      int    // "recital 15": a recital instead of an article
	Annex        int    // "Annex I": an annex instead of an article, written in Roman numerals
	Paragraph    int    // 0: the article as a whole
	ParagraphTo  int    // the last paragraph of a range "(1)–(3)"; 0: no range
	Point        string // "a"; "": none
	PointTo      string // the last point of a range "(b)–(c)"; "": no range
	Subparagraph int    // ", 2nd subpara."; 0: none
	Sentence     int    // ", 2nd sentence"; 0: none
}

// Recital returns recital n of a: AMMR.Recital(15) is "recital 15 AMMR".
func (a Act) Recital(n int) LegalBasis { return LegalBasis{Act: a, Recital: n} }

// Annex returns Annex n of a: AMMR.Annex(1) is "Annex I AMMR".
func (a Act) Annex(n int) LegalBasis { return LegalBasis{Act: a, Annex: n} }

// String writes b in the convention: "Art. 39(1), 2nd subpara. AMMR".
func (b LegalBasis) String() string {
	switch {
	case b.Recital != 0:
		return "recital " + strconv.Itoa(b.Recital) + " " + string(b.Act)
	case b.Annex != 0:
		return "Annex " + roman(b.Annex) + " " + string(b.Act)
	}
	var s strings.Builder
	s.WriteString("Art. ")
	s.WriteString(strconv.Itoa(b.Article))
	if b.Paragraph > 0 {
		fmt.Fprintf(&s, "(%d)", b.Paragraph)
		if b.ParagraphTo > 0 {
			fmt.Fprintf(&s, "–(%d)", b.ParagraphTo)
		}
	}
	if b.Point != "" {
		fmt.Fprintf(&s, "(%s)", b.Point)
		if b.PointTo != "" {
			fmt.Fprintf(&s, "–(%s)", b.PointTo)
		}
	}
	if b.Subparagraph > 0 {
		fmt.Fprintf(&s, ", %s subpara.", ordinal(b.Subparagraph))
	}
	if b.Sentence > 0 {
		fmt.Fprintf(&s, ", %s sentence", ordinal(b.Sentence))
	}
	s.WriteByte(' ')
	s.WriteString(string(b.Act))
	return s.String()
}

// Validate reports whether b can be written in the convention: a known act, an
// article, ranges that go forward, a point only with a paragraph, a subparagraph or a
// sentence but not both. The error is EINVALID.
func (b LegalBasis) Validate() error {
	bad := func(format string, args ...any) error {
		return &Error{Code: EINVALID, Field: "legal_basis", Message: fmt.Sprintf(format, args...)}
	}
	switch {
	case !b.Act.Valid():
		return bad("unknown act %q (one of %v)", b.Act, Acts())
	case b.Recital != 0 || b.Annex != 0:
		switch {
		case b.Recital < 0 || b.Annex < 0 || b.Recital > 0 && b.Annex > 0 || b.Article != 0:
			return bad("one provision is an article, a recital or an annex")
		case b.Annex > maxAnnex:
			return bad("annex %d: at most %d", b.Annex, maxAnnex)
		case b != LegalBasis{Act: b.Act, Recital: b.Recital, Annex: b.Annex}:
			return bad("%s: a recital or an annex has no paragraph, point, subparagraph or sentence", b)
		}
		return nil
	case b.Article <= 0:
		return bad("article %d: must be positive", b.Article)
	case b.Paragraph < 0, b.ParagraphTo < 0, b.Subparagraph < 0, b.Sentence < 0:
		return bad("%s: negative number", b)
	case b.ParagraphTo > 0 && (b.Paragraph == 0 || b.ParagraphTo <= b.Paragraph):
		return bad("%s: a range of paragraphs goes from one paragraph to a later one", b)
	case b.Point != "" && b.Paragraph == 0 || b.Point != "" && b.ParagraphTo > 0:
		return bad("%s: a point belongs to one paragraph", b)
	case !lowerLetters(b.Point) || !lowerLetters(b.PointTo):
		return bad("points are lower-case letters, not %q, %q", b.Point, b.PointTo)
	case b.PointTo != "" && (b.Point == "" || b.PointTo <= b.Point || len(b.PointTo) != len(b.Point)):
		return bad("%s: a range of points goes from one point to a later one", b)
	case b.Subparagraph > 0 && b.Sentence > 0:
		return bad("%s: a subparagraph or a sentence, not both", b)
	}
	return nil
}

func lowerLetters(s string) bool {
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// maxAnnex bounds the number of an annex (the acts cited have at most a few).
const maxAnnex = 39

// roman writes n (1 to maxAnnex) in Roman numerals.
func roman(n int) string {
	var s strings.Builder
	for _, d := range []struct {
		v int
		s string
	}{{10, "X"}, {9, "IX"}, {5, "V"}, {4, "IV"}, {1, "I"}} {
		for ; n >= d.v; n -= d.v {
			s.WriteString(d.s)
		}
	}
	return s.String()
}

func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return strconv.Itoa(n) + suffix
}

// LegalBases is a legal basis of several provisions, written in order, "; " between
// them.
type LegalBases []LegalBasis

// String writes bs in the convention: "Art. 56(2) AMMR; Art. 57(1) AMMR".
func (bs LegalBases) String() string {
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.String()
	}
	return strings.Join(parts, "; ")
}

// Validate reports whether every provision of bs is valid, and that there is one.
func (bs LegalBases) Validate() error {
	if len(bs) == 0 {
		return &Error{Code: EINVALID, Field: "legal_basis", Message: "no provision"}
	}
	for _, b := range bs {
		if err := b.Validate(); err != nil {
			return err
		}
	}
	return nil
}

// Join returns bs followed by the provisions of more that bs does not have yet.
func (bs LegalBases) Join(more ...LegalBasis) LegalBases {
	out := slices.Clone(bs)
	for _, b := range more {
		if !slices.Contains(out, b) {
			out = append(out, b)
		}
	}
	return out
}

// MaxLegalBasis bounds the length of a legal basis ParseLegalBases reads.
const MaxLegalBasis = 1024

// ParseLegalBases reads a legal basis written in the convention and returns its
// provisions. Anything else is EINVALID naming what is wrong: another style ("Arts.
// 67–68", "Art. 57(1) Regulation (EU) 2024/1351", "Art. 11" without its act), an
// unknown act, or a form that does not write back as it was read.
func ParseLegalBases(s string) (LegalBases, error) {
	if len(s) > MaxLegalBasis {
		return nil, &Error{Code: EINVALID, Field: "legal_basis", Message: fmt.Sprintf("longer than %d bytes", MaxLegalBasis)}
	}
	var out LegalBases
	for _, part := range strings.Split(s, "; ") {
		b, err := ParseLegalBasis(part)
		if err != nil {
			return nil, err
		}
		out = append(out, b)
	}
	return out, nil
}

// ParseLegalBasis reads one provision written in the convention ("Art. 57(1) AMMR").
func ParseLegalBasis(s string) (LegalBasis, error) {
	bad := func(why string) (LegalBasis, error) {
		return LegalBasis{}, &Error{Code: EINVALID, Field: "legal_basis",
			Message: fmt.Sprintf("%q is not a legal basis in the convention (\"Art. 57(1) AMMR\", \"Art. 39(1), 2nd subpara. AMMR\"; several joined by \"; \"): %s", s, why)}
	}
	if len(s) > MaxLegalBasis {
		return bad(fmt.Sprintf("longer than %d bytes", MaxLegalBasis))
	}
	var b LegalBasis
	rest, ok := strings.CutPrefix(s, "Art. ")
	if !ok {
		if strings.HasPrefix(s, "Arts. ") {
			return bad("a range of articles is written as a list, each article named (\"Art. 67 AMMR; Art. 68 AMMR\")")
		}
		if r, ok := strings.CutPrefix(s, "recital "); ok {
			return parseOther(s, r, bad, func(b *LegalBasis, r string) string {
				n, r := leadingInt(r)
				b.Recital = n
				return r
			})
		}
		if r, ok := strings.CutPrefix(s, "Annex "); ok {
			return parseOther(s, r, bad, func(b *LegalBasis, r string) string {
				i := 0
				for i < len(r) && i < 8 && strings.IndexByte("IVX", r[i]) >= 0 {
					i++
				}
				b.Annex = fromRoman(r[:i])
				return r[i:]
			})
		}
		return bad("it does not start with \"Art. \", \"recital \" or \"Annex \"")
	}
	// The act is what follows the last provision part: find it among the known acts.
	if b.Act, rest, ok = cutAct(rest); !ok {
		return bad("it does not end with the short name of a known act (" + actList() + ")")
	}
	n, rest := leadingInt(rest)
	if n <= 0 {
		return bad("no article number")
	}
	b.Article = n
	if p, r, ok := parenInt(rest); ok {
		b.Paragraph, rest = p, r
		if after, ok := strings.CutPrefix(rest, "–"); ok {
			p, r, ok := parenInt(after)
			if !ok {
				return bad("a range of paragraphs needs its last paragraph")
			}
			b.ParagraphTo, rest = p, r
		}
	}
	if pt, r, ok := parenLetters(rest); ok {
		b.Point, rest = pt, r
		if after, ok := strings.CutPrefix(rest, "–"); ok {
			pt, r, ok := parenLetters(after)
			if !ok {
				return bad("a range of points needs its last point")
			}
			b.PointTo, rest = pt, r
		}
	}
	if after, ok := strings.CutPrefix(rest, ", "); ok {
		k, r := leadingInt(after)
		if k <= 0 || len(r) < 2 || r[:2] != ordinal(k)[len(strconv.Itoa(k)):] {
			return bad("a subparagraph or sentence is written \", 2nd subpara.\" or \", 2nd sentence\"")
		}
		switch r[2:] {
		case " subpara.":
			b.Subparagraph = k
		case " sentence":
			b.Sentence = k
		default:
			return bad("a subparagraph or sentence is written \", 2nd subpara.\" or \", 2nd sentence\"")
		}
		rest = ""
	}
	return finish(b, s, rest, "the article", bad)
}

// parseOther reads a recital or an annex: rest is s after "recital " or "Annex ",
// number reads the number into b and returns what follows it.
func parseOther(s, rest string, bad func(string) (LegalBasis, error), number func(*LegalBasis, string) string) (LegalBasis, error) {
	var b LegalBasis
	var ok bool
	if b.Act, rest, ok = cutAct(rest); !ok {
		return bad("it does not end with the short name of a known act (" + actList() + ")")
	}
	if rest = number(&b, rest); b.Recital <= 0 && b.Annex <= 0 {
		return bad("no recital or annex number")
	}
	return finish(b, s, rest, "the number", bad)
}

// cutAct takes the short name of a known act off the end of rest.
func cutAct(rest string) (Act, string, bool) {
	for _, a := range acts {
		if head, found := strings.CutSuffix(rest, " "+string(a.act)); found {
			return a.act, head, true
		}
	}
	return "", rest, false
}

// finish accepts b, read from s, when nothing is left after what was read, b is
// valid, and the convention writes it back as s.
func finish(b LegalBasis, s, rest, after string, bad func(string) (LegalBasis, error)) (LegalBasis, error) {
	if rest != "" {
		return bad(fmt.Sprintf("%q left over after %s", rest, after))
	}
	if err := b.Validate(); err != nil {
		return bad(err.(*Error).Message)
	}
	if b.String() != s {
		return bad("it is not written as the convention writes it (" + b.String() + ")")
	}
	return b, nil
}

// fromRoman reads Roman numerals (I, V, X) up to maxAnnex; 0 for anything else. A
// non-canonical form ("IIII") reads as its value and fails the write-back check.
func fromRoman(s string) int {
	val := map[byte]int{'I': 1, 'V': 5, 'X': 10}
	n := 0
	for i := 0; i < len(s); i++ {
		v := val[s[i]]
		if i+1 < len(s) && val[s[i+1]] > v {
			n -= v
		} else {
			n += v
		}
	}
	if n <= 0 || n > maxAnnex {
		return 0
	}
	return n
}

// MustLegalBases is ParseLegalBases for a legal basis written in the code: it panics
// on one that does not follow the convention, so that a wrong one fails at start-up
// and in every test.
func MustLegalBases(s string) LegalBases {
	bs, err := ParseLegalBases(s)
	if err != nil {
		panic(err)
	}
	return bs
}

func actList() string {
	names := make([]string, len(acts))
	for i, a := range acts {
		names[i] = string(a.act)
	}
	return strings.Join(names, ", ")
}

// leadingInt reads the decimal number s starts with (no sign, no leading zero, at
// most 4 digits): 0 when there is none.
func leadingInt(s string) (int, string) {
	i := 0
	for i < len(s) && i < 5 && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 4 || s[0] == '0' {
		return 0, s
	}
	n, _ := strconv.Atoi(s[:i])
	return n, s[i:]
}

func parenInt(s string) (int, string, bool) {
	if !strings.HasPrefix(s, "(") {
		return 0, s, false
	}
	n, r := leadingInt(s[1:])
	if n <= 0 || !strings.HasPrefix(r, ")") {
		return 0, s, false
	}
	return n, r[1:], true
}

func parenLetters(s string) (string, string, bool) {
	if !strings.HasPrefix(s, "(") {
		return "", s, false
	}
	i := 1
	for i < len(s) && i < 4 && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	if i == 1 || i >= len(s) || s[i] != ')' {
		return "", s, false
	}
	return s[1:i], s[i+1:], true
}
