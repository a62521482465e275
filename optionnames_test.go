package keyfirst_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// optionPackages are the packages a program imports side by side.
var optionPackages = []string{".", "query", "sparse", "shard", "txn", "migrate"}

// An option function (an exported func returning a func of one pointer, or
// a named option type) has one name in all of keyfirst's packages, and
// every package's option functions set the one keyfirst.Options (the
// root's Options; txn.If, an option of one action, aside), so that
// a concept has one option wherever it applies. Two packages with a
// WithCapacity each, of two option types, made
// txn.Write(..., keyfirst.WithCapacity(&c)) fail to compile with a message
// about func types instead of the option the caller meant; the cure was
// four names for the consumed capacity (keyfirst.WithCapacity,
// query.TotalCapacity, txn.Consumed, shard.WithCost), two for the attempts
// (keyfirst.WithMaxAttempts, txn.MaxAttempts), two for the cursor handed
// out (query.WithNext, shard.NextCursor).
func TestOptionNamesAreUnique(t *testing.T) {
	t.Parallel()
	seen := map[string][]string{}
	for _, dir := range optionPackages {
		want := "*keyfirst.Options"
		if dir == "." {
			want = "*Options"
		}
		for name, target := range optionFuncs(t, dir) {
			seen[name] = append(seen[name], dir)
			if target != want && target != "ActionOption" { // txn.If: an action's option, not a call's
				t.Errorf("option %s of %s sets %s: every call takes func(*keyfirst.Options)", name, dir, target)
			}
		}
	}
	for _, shared := range []string{"WithCapacity", "WithMaxAttempts", "WithCursorKey", "WithNext"} {
		if dirs := seen[shared]; !slices.Equal(dirs, []string{"."}) {
			t.Errorf("option %s is declared in %v, want the root only", shared, dirs)
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

// optionFuncs are the option functions declared in dir's non-test files,
// each with the type it sets (the pointer of its func, or its named type).
func optionFuncs(t *testing.T, dir string) map[string]string {
	t.Helper()
	fset := token.NewFileSet()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
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
			if target, ok := isOption(fn.Type.Results.List[0].Type); ok {
				out[fn.Name.Name] = target
			}
		}
	}
	return out
}

// isOption reports whether a result type is an option, func(*X) or a type
// named ...Option, and what it sets: *X, or the named type.
func isOption(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.FuncType:
		if e.Results != nil || len(e.Params.List) != 1 || len(e.Params.List[0].Names) > 1 {
			return "", false
		}
		star, ptr := e.Params.List[0].Type.(*ast.StarExpr)
		if !ptr {
			return "", false
		}
		return "*" + types.ExprString(star.X), true
	case *ast.Ident:
		return e.Name, strings.HasSuffix(e.Name, "Option")
	}
	return "", false
}
