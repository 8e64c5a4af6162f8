// Package i18n holds the user interface's messages in the EU's 24 official languages
// and formats numbers and dates the way each writes them.
//
// A message is keyed by its English text (gettext style), with fmt verbs for what it
// is given: T("%d days overdue", n). The catalogues are JSON files embedded from
// catalog/, one per language; a test in internal/web fails when a key a template or
// the code uses is missing in any of them, or when a translation's verbs differ from
// its key's. Numbers given to T are formatted for the locale by x/text/message (German
// 1.234,5; French 1 234,5).
package i18n

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"golang.org/x/text/language"
	"golang.org/x/text/message"
	"golang.org/x/text/message/catalog"
	"golang.org/x/text/number"
)

// A Language is one of the UI's languages.
type Language struct {
	Code       string // BCP 47, as in lang="…": "de"
	Name       string // its name in itself: "Deutsch"
	DateLayout string // a day, as a Go time layout
	// Reviewed: a native speaker has checked the catalogue. An unreviewed catalogue
	// is machine-made and every page in it says so.
	Reviewed bool
	tag      language.Tag
	messages map[string]string
}

// A file is one catalogue on disk.
type file struct {
	Language string `json:"language"`
	// Reviewed names who reviewed the translation; empty while nobody has.
	Reviewed string            `json:"reviewed_by"`
	Messages map[string]string `json:"messages"`
}

//go:embed catalog
var catalogFS embed.FS

var (
	byCode  = map[string]*Language{}
	tags    []language.Tag
	matcher language.Matcher
	cat     *catalog.Builder
)

func init() {
	if err := load(catalogFS); err != nil {
		panic(err) // the embedded catalogues are tested; a broken one is a build defect
	}
}

func load(fsys fs.FS) error {
	cat = catalog.NewBuilder(catalog.Fallback(language.English))
	tags = tags[:0]
	for i := range languages {
		l := &languages[i]
		l.tag = language.MustParse(l.Code)
		byCode[l.Code] = l
		tags = append(tags, l.tag)
		if l.Code == Source {
			l.Reviewed = true
			continue
		}
		b, err := fs.ReadFile(fsys, path.Join("catalog", l.Code+".json"))
		if err != nil {
			continue // no catalogue yet: Missing reports every key
		}
		var f file
		if err := json.Unmarshal(b, &f); err != nil {
			return fmt.Errorf("i18n: catalog/%s.json: %w", l.Code, err)
		}
		if f.Language != l.Code {
			return fmt.Errorf("i18n: catalog/%s.json: language %q", l.Code, f.Language)
		}
		l.Reviewed = f.Reviewed != ""
		l.messages = f.Messages
		for k, v := range f.Messages {
			if err := cat.SetString(l.tag, k, v); err != nil {
				return fmt.Errorf("i18n: catalog/%s.json: %q: %w", l.Code, k, err)
			}
		}
	}
	// English first: it is what a browser that names no EU language gets.
	en := slices.IndexFunc(tags, func(t language.Tag) bool { return t == language.English })
	tags[0], tags[en] = tags[en], tags[0]
	matcher = language.NewMatcher(tags)
	return nil
}

// Languages returns the 24 languages in the order of their codes.
func Languages() []Language { return slices.Clone(languages) }

// Lookup returns the language of a code, or false.
func Lookup(code string) (*Language, bool) {
	l, ok := byCode[code]
	return l, ok
}

// Missing returns, per language, the keys that its catalogue lacks, sorted.
func Missing(keys []string) map[string][]string {
	out := map[string][]string{}
	for _, l := range languages {
		if l.Code == Source {
			continue
		}
		for _, k := range keys {
			if _, ok := l.messages[k]; !ok {
				out[l.Code] = append(out[l.Code], k)
			}
		}
		slices.Sort(out[l.Code])
	}
	return out
}

// Extra returns, per language, the catalogue keys that are not in keys: messages no
// page uses any more.
func Extra(keys []string) map[string][]string {
	known := map[string]bool{}
	for _, k := range keys {
		known[k] = true
	}
	out := map[string][]string{}
	for _, l := range languages {
		for k := range l.messages {
			if !known[k] {
				out[l.Code] = append(out[l.Code], k)
			}
		}
		slices.Sort(out[l.Code])
	}
	return out
}

// Verbs returns the fmt verbs of a message in order ("%d", "%s", "%[2]d" …), for the
// test that a translation takes what its key takes. A translation may reorder its
// arguments with explicit indexes; the multiset of verbs must match.
func Verbs(msg string) []string {
	var vs []string
	for i := 0; i < len(msg); i++ {
		if msg[i] != '%' {
			continue
		}
		j := i + 1
		for j < len(msg) && strings.IndexByte("+-# 0123456789.[]", msg[j]) >= 0 {
			j++
		}
		if j < len(msg) {
			if msg[j] != '%' {
				v := msg[i : j+1]
				if k := strings.IndexByte(v, ']'); k >= 0 {
					v = "%" + v[k+1:]
				}
				vs = append(vs, v)
			}
			i = j
		}
	}
	slices.Sort(vs)
	return vs
}

// Translations returns a language's messages, for tests.
func (l *Language) Translations() map[string]string { return l.messages }

// A Locale writes the UI in one language: its messages, numbers and dates.
type Locale struct {
	Lang *Language
	p    *message.Printer
}

// New returns the locale of a language code; an unknown code is English.
func New(code string) *Locale {
	l, ok := byCode[code]
	if !ok {
		l = byCode[Source]
	}
	return &Locale{Lang: l, p: message.NewPrinter(l.tag, message.Catalog(cat))}
}

// CookieName is the cookie that keeps a user's choice of language.
const CookieName = "lang"

// FromRequest chooses the language of a request: the user's choice (the lang cookie
// set by the switcher), then the browser's Accept-Language, then English.
func FromRequest(r *http.Request) *Locale { return New(CodeOf(r)) }

// CodeOf is the code of the language FromRequest chooses, for what must vary by it
// (a cache of pages).
func CodeOf(r *http.Request) string {
	if c, err := r.Cookie(CookieName); err == nil {
		if _, ok := byCode[c.Value]; ok {
			return c.Value
		}
	}
	h := r.Header.Get("Accept-Language")
	if h == "" || len(h) > 512 { // bounded before it is parsed
		return Source
	}
	prefs, _, err := language.ParseAcceptLanguage(h)
	if err != nil || len(prefs) == 0 {
		return Source
	}
	_, i, conf := matcher.Match(prefs...)
	if conf == language.No {
		return Source
	}
	return tagCode(tags[i])
}

func tagCode(t language.Tag) string {
	b, _ := t.Base()
	return b.String()
}

// Code is the language's code, for lang="…".
func (l *Locale) Code() string { return l.Lang.Code }

// T translates a message and formats its arguments for the locale.
func (l *Locale) T(key string, args ...any) string { return l.p.Sprintf(key, args...) }

// Int writes an integer with the locale's digit groups: 1,234 (en), 1.234 (de).
func (l *Locale) Int(v int64) string { return l.p.Sprintf("%d", v) }

// Dec writes a decimal given as text ("4558.5", "-12", the report's exact numbers)
// with places decimals, rounded half away from zero, in the locale's form: 4,558.50
// (en), 4.558,50 (de). Text that is not a number is returned as it is.
func (l *Locale) Dec(s string, places int) string {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return s
	}
	return l.p.Sprintf("%v", number.Decimal(f, number.Scale(places)))
}

// Float writes f with places decimals in the locale's form.
func (l *Locale) Float(f float64, places int) string {
	return l.p.Sprintf("%v", number.Decimal(f, number.Scale(places)))
}

// Pct writes a fraction (0.25) as a percentage with one decimal: 25.0 % (en), 25,0 % (de).
func (l *Locale) Pct(f float64) string {
	return l.Float(f*100, 1) + "\u00a0%"
}

// Date writes a day the locale's way; the zero time is "—".
func (l *Locale) Date(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.Format(l.Lang.DateLayout)
}

// DateTime writes an instant as the locale's day and a 24-hour UTC time.
func (l *Locale) DateTime(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	t = t.UTC()
	return t.Format(l.Lang.DateLayout) + " " + t.Format("15:04") + " UTC"
}
