package solidarity_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"solidarity"
	"solidarity/cases"
	"solidarity/deadline"
)

// basisPackages are the packages that write legal bases into ledger entries
// (Entry.LegalBasis, CaseEventPayload.Article, the note of a missed time limit) or
// into Error.Article, and the tables they take them from; and the packages that read
// outside input and write none today (internal/eurostat, internal/refdata), so that
// one they write is checked. The criteria of rules (Finding.Article, "Art. 29(2) with
// Art. 29(4) AMMR") are citations shown to an officer beside the explanation and keep
// their own form; match and arrival have helpers named invalid of their own and write
// no legal basis.
var basisPackages = []string{".", "internal/ledgersvc", "internal/casesvc", "cases", "internal/web", "deadline", "procedure",
	"pool", "internal/cyclefile", "key", "internal/app", "internal/report", "internal/eurostat", "internal/refdata"}

// literalBases returns every legal basis written as a string literal in the non-test
// Go files of dir, with where it is: the value of an Article or LegalBasis field, the
// article argument of the services' invalid and conflict helpers, of procedure's say
// and of the cycle file's fail and numbers, and a constant or variable named article (or …Article). A basis built from a
// variable is not a literal: it is built with the typed LegalBasis.
func literalBases(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() && path != dir {
			if d != nil && d.IsDir() {
				return filepath.SkipDir // sub-packages are listed on their own
			}
			return err
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		// A basis built from a variable and a literal: the literal must continue a
		// basis in the convention, "; Art. 67 AMMR" after one, "(1) AMMR" after an
		// article ("Art. 61", checked where it is read).
		addTail := func(e ast.Expr) {
			b, ok := e.(*ast.BinaryExpr)
			if !ok || b.Op != token.ADD {
				return
			}
			if _, lit := constString(b.X); lit {
				return
			}
			tail, ok := constString(b.Y)
			if !ok {
				return
			}
			where := fset.Position(b.Y.Pos()).String()
			switch {
			case strings.HasPrefix(tail, "; "):
				out[tail[2:]] = where
			case strings.HasPrefix(tail, "("):
				out["Art. 1"+tail] = where
			default:
				out[tail] = where // fails unless it is a basis itself
			}
		}
		add := func(e ast.Expr) {
			addTail(e)
			// A national act (deadline's Irish appeal periods) is outside the
			// convention; TestLegalBasesTheCodeWrites checks it never reaches the
			// ledger. So are the sources of the 2015 relocation key (a Commission
			// communication and a Council decision of 2015, before the Pact), which
			// describe a historical replay's key and are never written into the
			// ledger or an error.
			if s, ok := constString(e); ok && s != "" && !strings.HasPrefix(s, "IE ") && !strings.HasPrefix(s, "COM(2015) 240 ") {
				out[s] = fset.Position(e.Pos()).String()
			}
		}
		named := func(id *ast.Ident) bool {
			return id.Name == "article" || strings.HasSuffix(id.Name, "Article")
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.KeyValueExpr:
				if k, ok := n.Key.(*ast.Ident); ok && (k.Name == "Article" || k.Name == "LegalBasis") {
					add(n.Value)
				}
			case *ast.CallExpr:
				var name string
				var arg map[string]int
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name, arg = fn.Name, map[string]int{"invalid": 1, "conflict": 0, "say": 0}
				case *ast.SelectorExpr: // the cycle file's v.fail and v.numbers
					name, arg = fn.Sel.Name, map[string]int{"fail": 2, "numbers": 2}
				}
				if i, ok := arg[name]; ok && len(n.Args) > i {
					add(n.Args[i])
				}
			case *ast.ValueSpec:
				for i, id := range n.Names {
					if named(id) && i < len(n.Values) {
						add(n.Values[i])
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if id, ok := l.(*ast.Ident); ok && named(id) && i < len(n.Rhs) {
						add(n.Rhs[i])
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// constString evaluates a string literal or a concatenation of string literals.
func constString(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		l, ok1 := constString(e.X)
		r, ok2 := constString(e.Y)
		return l + r, ok1 && ok2
	case *ast.ParenExpr:
		return constString(e.X)
	}
	return "", false
}

// TestLegalBasesTheCodeWrites walks every legal basis the code can write, from the
// tables (the case flow's events and transitions, the time limits) and from the
// literals of the packages that write them, and checks each follows the convention
// of legalbasis.go.
func TestLegalBasesTheCodeWrites(t *testing.T) {
	all := map[string]string{} // basis → where
	for _, e := range cases.Events() {
		all[e.Article()] = "cases event " + string(e)
	}
	for _, r := range cases.Table() {
		all[r.Article] = "cases transition " + string(r.From) + " --" + string(r.Event) + "-->"
	}
	for _, l := range deadline.Limits() {
		// A national act (the Irish Act that implements the APR's appeal periods) is
		// shown beside its limit but has no consequence, so it never reaches the
		// ledger; every other limit's article may (the note of a missed limit).
		if strings.HasPrefix(l.Article, "IE ") {
			if l.Then != "" {
				t.Errorf("deadline %s: %q has a consequence and is not in the convention", l.Name, l.Article)
			}
			continue
		}
		all[l.Article] = "deadline limit " + l.Name
	}
	for _, p := range basisPackages {
		for s, where := range literalBases(t, p) {
			all[s] = where
		}
	}
	keys := make([]string, 0, len(all))
	for s := range all {
		keys = append(keys, s)
	}
	slices.Sort(keys)
	for _, s := range keys {
		if _, err := solidarity.ParseLegalBases(s); err != nil {
			t.Errorf("%s: %v", all[s], err)
		}
	}
	if len(keys) < 100 {
		t.Errorf("only %d legal bases found: the walk misses some", len(keys))
	}
}

// fullTitleBasis is a provision cited with the act's official number instead of its
// short name ("Art. 57(1) Regulation (EU) 2024/1351").
// A fragment appended to an article ("(1) Regulation (EU) 2024/1351", " Regulation
// (EU) 2024/1351") is one too.
var fullTitleBasis = regexp.MustCompile(`Arts?\. [0-9][^"]*(Regulation|Directive) \((EU|EC|EEC)|^(\([0-9]+\))? (Regulation|Directive) \((EU|EC|EEC)`)

// TestNoFullTitleBases: outside the table of acts in legalbasis.go, no string in the
// non-test Go code cites a provision by the act's official number.
func TestNoFullTitleBases(t *testing.T) {
	allowed := map[string]bool{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") && path != "." {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") || path == "legalbasis.go" || allowed[filepath.ToSlash(path)] {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if l, ok := n.(*ast.BasicLit); ok && l.Kind == token.STRING {
				if s, err := strconv.Unquote(l.Value); err == nil && fullTitleBasis.MatchString(s) {
					t.Errorf("%s: %q cites an act by its number: write the short name (solidarity.Act)", fset.Position(l.Pos()), s)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
