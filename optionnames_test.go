package keyfirst_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// optionPackages are the packages a program imports side by side.
var optionPackages = []string{".", "query", "sparse", "shard", "txn", "migrate"}

// An option function (an exported func returning a func of one pointer, or
// a named option type) has one name in all of keyfirst's packages. Two
// packages with a WithCapacity each, of two option types, made
// txn.Write(..., keyfirst.WithCapacity(&c)) fail to compile with a message
// about func types instead of the option the caller meant; so did
// query.WithNext passed to a shard read and keyfirst.CreateOnly passed to a
// transaction's action.
func TestOptionNamesAreUnique(t *testing.T) {
	t.Parallel()
	seen := map[string][]string{}
	for _, dir := range optionPackages {
		for name := range optionFuncs(t, dir) {
			seen[name] = append(seen[name], dir)
		}
	}
	if len(seen) < 10 {
		t.Fatalf("found %d option functions: the parser missed them", len(seen))
	}
	for name, dirs := range seen {
		if len(dirs) > 1 {
			slices.Sort(dirs)
			t.Errorf("option %s is declared in %s: give each a name of its own", name, strings.Join(dirs, ", "))
		}
	}
}

// optionFuncs are the option functions declared in dir's non-test files.
func optionFuncs(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || !fn.Name.IsExported() || fn.Type.Results == nil || len(fn.Type.Results.List) != 1 {
				continue
			}
			if isOption(fn.Type.Results.List[0].Type) {
				out[fn.Name.Name] = true
			}
		}
	}
	return out
}

// isOption reports whether a result type is an option: func(*X), or a type
// named ...Option.
func isOption(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.FuncType:
		if e.Results != nil || len(e.Params.List) != 1 || len(e.Params.List[0].Names) > 1 {
			return false
		}
		_, ptr := e.Params.List[0].Type.(*ast.StarExpr)
		return ptr
	case *ast.Ident:
		return strings.HasSuffix(e.Name, "Option")
	}
	return false
}
