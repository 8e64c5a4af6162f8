package solidarity_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The limits of the house (issue 13): a file a newcomer can read and a function a
// newcomer can follow. They hold for every non-test Go file of the module, including
// the test-suite helpers that are not _test.go files (internal/storetest).
const (
	maxFileLines  = 800
	maxComplexity = 40
)

// TestHouseLimits keeps the limits once reached: a file over maxFileLines lines or a
// function whose cyclomatic complexity is above maxComplexity fails here, named with
// its place, so that it is split by meaning before it lands.
func TestHouseLimits(t *testing.T) {
	fset := token.NewFileSet()
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" || d.Name() == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if n := strings.Count(string(src), "\n"); n > maxFileLines {
			t.Errorf("%s: %d lines, more than %d: split it by meaning", path, n, maxFileLines)
		}
		f, err := parser.ParseFile(fset, path, src, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			if c := complexity(fn); c > maxComplexity {
				t.Errorf("%s: %s has cyclomatic complexity %d, more than %d", fset.Position(fn.Pos()), fn.Name.Name, c, maxComplexity)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// complexity is McCabe's count as gocyclo takes it: one, plus one for each if, for,
// range, non-default case of a switch or select, and each && and ||.
func complexity(fn *ast.FuncDecl) int {
	c := 1
	ast.Inspect(fn, func(n ast.Node) bool {
		switch x := n.(type) {
		case *ast.IfStmt, *ast.ForStmt, *ast.RangeStmt:
			c++
		case *ast.CaseClause:
			if x.List != nil {
				c++
			}
		case *ast.CommClause:
			if x.Comm != nil {
				c++
			}
		case *ast.BinaryExpr:
			if x.Op == token.LAND || x.Op == token.LOR {
				c++
			}
		}
		return true
	})
	return c
}

// TestComplexityCount pins the count on small functions, so that the limit above
// measures what it says.
func TestComplexityCount(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want int
	}{
		{"func f() {}", 1},
		{"func f(a bool) { if a {} }", 2},
		{"func f(a, b bool) { if a && b || a {} }", 4},
		{"func f(x int) { switch x { case 1: case 2, 3: default: } }", 3},
		{"func f(xs []int) { for range xs {}; for i := 0; i < 1; i++ {} }", 3},
		{"func f(c chan int) { select { case <-c: default: } }", 2},
	} {
		f, err := parser.ParseFile(token.NewFileSet(), "x.go", "package p\n"+tc.src, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := complexity(f.Decls[0].(*ast.FuncDecl)); got != tc.want {
			t.Errorf("%s: complexity %d, want %d", tc.src, got, tc.want)
		}
	}
}
