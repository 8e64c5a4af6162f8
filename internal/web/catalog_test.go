package web

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"html/template"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"text/template/parse"
	"unicode"

	"solidarity/internal/i18n"
)

// allMessages returns every key the UI may translate: the templates' literals, the
// literals of this package's T, base and msg calls, and the tables of messageSources.
func allMessages(t *testing.T) []string {
	t.Helper()
	var trees []*parse.Tree
	for _, page := range pages {
		tm, err := template.New("layout.html").Funcs(funcs).ParseFS(templateFS, "templates/layout.html", "templates/"+page)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range tm.Templates() {
			trees = append(trees, x.Tree)
		}
	}
	keys := templateMessages(trees)
	keys = append(keys, goMessages(t)...)
	for _, src := range messageSources {
		keys = append(keys, src()...)
	}
	// A key of verbs and punctuation only ("%s — %s") needs no translation.
	keys = slices.DeleteFunc(keys, func(k string) bool {
		return !strings.ContainsFunc(strings.NewReplacer("%s", "", "%d", "", "%v", "").Replace(k), unicode.IsLetter)
	})
	slices.Sort(keys)
	return slices.Compact(keys)
}

// goMessages reads this package's source for T("…"), base(r, "…") and msg("…").
func goMessages(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			arg := -1
			switch fn := call.Fun.(type) {
			case *ast.SelectorExpr:
				switch fn.Sel.Name {
				case "T":
					arg = 0
				case "base":
					arg = 1
				}
			case *ast.Ident:
				if fn.Name == "msg" {
					arg = 0
				}
			}
			if arg < 0 || len(call.Args) <= arg {
				return true
			}
			if lit, ok := call.Args[arg].(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
				}
				out = append(out, s)
			}
			return true
		})
	}
	return out
}

// TestCatalogues: every message of the UI is in each of the 23 catalogues besides
// English, takes the same verbs there, and no catalogue keeps a message nobody uses.
//
// With SOLIDARITY_MESSAGES=FILE it also writes the keys, and per language the missing
// ones, to FILE as JSON: what a translator is given.
func TestCatalogues(t *testing.T) {
	keys := allMessages(t)
	if out := os.Getenv("SOLIDARITY_MESSAGES"); out != "" {
		b, err := json.MarshalIndent(map[string]any{"keys": keys, "missing": i18n.Missing(keys)}, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(out, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if len(keys) < 50 {
		t.Fatalf("found only %d messages: is the extraction broken?", len(keys))
	}
	for lang, miss := range i18n.Missing(keys) {
		if len(miss) > 0 {
			t.Errorf("catalog/%s.json lacks %d of %d messages, first %q", lang, len(miss), len(keys), miss[0])
		}
	}
	for lang, extra := range i18n.Extra(keys) {
		if len(extra) > 0 {
			t.Errorf("catalog/%s.json has %d messages no page uses, first %q", lang, len(extra), extra[0])
		}
	}
	for _, l := range i18n.Languages() {
		lang, _ := i18n.Lookup(l.Code)
		for k, v := range lang.Translations() {
			if !slices.Equal(i18n.Verbs(k), i18n.Verbs(v)) {
				t.Errorf("catalog/%s.json: %q takes %v, its translation %q takes %v", l.Code, k, i18n.Verbs(k), v, i18n.Verbs(v))
			}
			if strings.TrimSpace(v) == "" {
				t.Errorf("catalog/%s.json: %q is empty", l.Code, k)
			}
		}
	}
}

// TestTemplateMessages: the extraction finds the layout's literals, in a range and
// in a nested with, so that a key cannot hide from the catalogue test.
func TestTemplateMessages(t *testing.T) {
	tm := template.Must(template.New("x").Parse(`{{$.L.T "a"}}{{range .X}}{{$.L.T "b %d" 1}}{{with .Y}}{{.L.T "c"}}{{end}}{{end}}{{if .Z}}{{$.L.T (print .R)}}{{end}}`))
	got := templateMessages([]*parse.Tree{tm.Tree})
	if want := []string{"a", "b %d", "c"}; !slices.Equal(got, want) {
		t.Fatalf("templateMessages = %q, want %q", got, want)
	}
}
