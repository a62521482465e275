package harness_test

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/doc/comment"
	"go/format"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/keyfirst/keyfirst/integration"
)

// A snippet is one Go code block of the README or of a package doc.
type snippet struct {
	source string // README.md, or the file of the package doc (shard/doc.go)
	doc    string // the doc it belongs to: readme, keyfirst (the root package), shard, examples_orders...
	line   int    // the line of the block's first line in source
	code   string
}

func (s snippet) String() string { return fmt.Sprintf("%s:%d", s.source, s.line) }

// notGo are the code blocks of package docs that are text, not Go: an
// import graph, a shell command, a formula, a table. Each is named by its
// package's folder and its first line, and must still be in that doc.
var notGo = []struct{ dir, first string }{
	{".", "examples      runnable programs, one per access pattern"},
	{"examples/orders", "make example"},
	{"internal/benchratio", "go run ./internal/benchratio [-rounds 10] [-bench regexp] [-benchtime 1s] [packages]"},
	{"shard", "shard = FNV-1a-32(UTF-8 bytes of the field) mod Shards"},
	{"sparse", "the item enters the index (gains its key attributes)    +1 write"},
}

// drivers run a snippet against DynamoDB Local: the test file of
// testdata/snippets is compiled into the package of the snippet of doc
// that declares name.
var drivers = []struct{ doc, name, file string }{
	{"shard", "openOrders", "shard_run_test.go"},
}

// configVersion is the version of the SDK's config module (the README's
// config.LoadDefaultConfig) that the snippets' module requires: one that
// requires no newer SDK than keyfirst does, so that nothing else is
// fetched; go mod tidy fetches this one once.
const configVersion = "v1.33.19"

// knownImports are the packages a fragment may use without importing
// them: a fragment's file imports those of them that it names.
var knownImports = map[string]string{
	"context":     "context",
	"os":          "os",
	"testing":     "testing",
	"time":        "time",
	"strings":     "strings",
	"slog":        "log/slog",
	"types":       "github.com/aws/aws-sdk-go-v2/service/dynamodb/types",
	"aws":         "github.com/aws/aws-sdk-go-v2/aws",
	"config":      "github.com/aws/aws-sdk-go-v2/config",
	"dynamodb":    "github.com/aws/aws-sdk-go-v2/service/dynamodb",
	"keyfirst":    "github.com/keyfirst/keyfirst",
	"integration": "github.com/keyfirst/keyfirst/integration",
	"keys":        "github.com/keyfirst/keyfirst/keys",
	"migrate":     "github.com/keyfirst/keyfirst/migrate",
	"query":       "github.com/keyfirst/keyfirst/query",
	"shard":       "github.com/keyfirst/keyfirst/shard",
	"sparse":      "github.com/keyfirst/keyfirst/sparse",
	"txn":         "github.com/keyfirst/keyfirst/txn",
}

// TestDocSnippets: every ```go block of README.md and every code block of
// every package doc of the module (but the text of notGo) compiles, and
// passes go vet, in a fresh module that requires keyfirst (this checkout,
// by a replace directive), as a user who copies it would build it; a
// snippet with a driver also runs, against DynamoDB Local. A block is
// compiled as what it is, with a fixed set of wrappers:
//
//   - a whole file (it starts with a package clause): as it is;
//   - declarations: in a file of package snippet, beside the doc's
//     prelude (testdata/snippets/<doc>.go: what the doc's prose
//     presupposes, the Order type, a context, a client), less the
//     prelude's declarations of the names the snippet declares;
//   - statements: the body of a function of that file, followed by
//     `_ = name` for each variable the block declares (the rest of the
//     function, which would use them).
//
// Each file imports the packages of knownImports that it names. A
// compile error points at the block's line in the README or doc.go.
func TestDocSnippets(t *testing.T) {
	if testing.Short() {
		t.Skip("builds another module (and runs a snippet against DynamoDB Local)")
	}
	t.Parallel()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	snippets := append(readmeSnippets(t, root), packageDocSnippets(t, root)...)
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module example.com/snippets\n\ngo 1.24\n\nrequire (\n\tgithub.com/keyfirst/keyfirst v0.0.0\n\tgithub.com/aws/aws-sdk-go-v2/config "+configVersion+
		"\n)\n\nreplace github.com/keyfirst/keyfirst => "+root+"\n")
	var runs []string
	for _, s := range snippets {
		pkg := regexp.MustCompile(`[^A-Za-z0-9]+`).ReplaceAllString(s.source, "_") + "_" + strconv.Itoa(s.line)
		name, text, declared := compilable(t, s)
		write(filepath.Join(pkg, name), text)
		for _, d := range drivers {
			if d.doc == s.doc && slices.Contains(declared, d.name) {
				driver, err := os.ReadFile(filepath.Join("testdata", "snippets", d.file))
				if err != nil {
					t.Fatal(err)
				}
				write(filepath.Join(pkg, d.file), string(driver))
				runs = append(runs, "./"+pkg)
			}
		}
	}
	if len(runs) != len(drivers) {
		t.Fatalf("%d of the %d drivers found their snippet: %v", len(runs), len(drivers), runs)
	}
	local := integration.Shared(t)
	ctx, cancel := integration.Context(t)
	defer cancel()
	for _, args := range [][]string{{"mod", "tidy"}, {"vet", "./..."}, append([]string{"test", "-count=1"}, runs...)} {
		cmd := exec.CommandContext(ctx, "go", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "DYNAMODB_ENDPOINT="+local.Endpoint, "GOFLAGS=-mod=mod")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("go %s of the docs' %d snippets: %v\n%s", strings.Join(args, " "), len(snippets), err, out)
		}
	}
	t.Logf("%d snippets compile, %d run", len(snippets), len(runs))
}

// readmeSnippets returns the ```go blocks of README.md.
func readmeSnippets(t *testing.T, root string) []snippet {
	t.Helper()
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var out []snippet
	var cur *snippet
	for i, line := range strings.Split(string(readme), "\n") {
		switch {
		case cur == nil && line == "```go":
			cur = &snippet{source: "README.md", doc: "readme", line: i + 2}
		case cur != nil && line == "```":
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			cur.code += line + "\n"
		}
	}
	if cur != nil || len(out) == 0 {
		t.Fatalf("README.md: %d ```go blocks, the last one unclosed: %v", len(out), cur != nil)
	}
	return out
}

// packageDocSnippets returns the code blocks of the package docs of every
// package of the module, but those of notGo.
func packageDocSnippets(t *testing.T, root string) []snippet {
	t.Helper()
	var out []snippet
	found := make([]bool, len(notGo))
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		if path != root && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "_")) {
			return filepath.SkipDir
		}
		if _, err := os.Stat(filepath.Join(path, "go.mod")); path != root && err == nil {
			// A module of its own (integration/tclocal, which requires
			// testcontainers-go): its doc's snippet is its own test's
			// TestMain, built by its tests (make tclocal).
			return filepath.SkipDir
		}
		rel, _ := filepath.Rel(root, path)
		for _, s := range dirDocSnippets(t, root, rel) {
			first, _, _ := strings.Cut(s.code, "\n")
			text := slices.IndexFunc(notGo, func(n struct{ dir, first string }) bool { return n.dir == rel && n.first == first })
			if text >= 0 {
				found[text] = true
				continue
			}
			out = append(out, s)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, f := range found {
		if !f {
			t.Errorf("notGo lists %q of %s, which that package doc no longer has: drop it", notGo[i].first, notGo[i].dir)
		}
	}
	if len(out) == 0 {
		t.Fatal("no package doc has a Go code block")
	}
	return out
}

// dirDocSnippets returns the code blocks of the package doc of the
// package in dir (relative to root), each with its line in the file.
func dirDocSnippets(t *testing.T, root, dir string) []snippet {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var out []snippet
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, file, nil, parser.PackageClauseOnly|parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		if f.Doc == nil {
			continue
		}
		source := filepath.ToSlash(filepath.Join(dir, filepath.Base(file)))
		doc := strings.ReplaceAll(filepath.ToSlash(dir), "/", "_")
		if dir == "." {
			doc = "keyfirst"
		}
		// The comment's lines, as text, to find each block's line.
		var lines []string
		for _, c := range f.Doc.List {
			lines = append(lines, strings.TrimSpace(strings.TrimPrefix(c.Text, "//")))
		}
		var p comment.Parser
		for _, b := range p.Parse(f.Doc.Text()).Content {
			code, ok := b.(*comment.Code)
			if !ok {
				continue
			}
			block := strings.Split(strings.TrimSuffix(code.Text, "\n"), "\n")
			at := -1
			for k := 0; k+len(block) <= len(lines) && at < 0; k++ {
				at = k
				for i, l := range block {
					if lines[k+i] != strings.TrimSpace(l) {
						at = -1
						break
					}
				}
			}
			if at < 0 {
				t.Fatalf("%s: a code block not found in the comment: %q", source, block[0])
			}
			out = append(out, snippet{source: source, doc: doc, line: fset.Position(f.Doc.List[at].Slash).Line, code: code.Text})
		}
	}
	return out
}

// compilable returns the name and text of the file that compiles s, and
// the names s declares (of the package or, for statements, of its
// function body).
func compilable(t *testing.T, s snippet) (name, text string, declared []string) {
	t.Helper()
	at := fmt.Sprintf("//line %s:%d\n", s.source, s.line)
	if f, err := parser.ParseFile(token.NewFileSet(), s.source, s.code, parser.PackageClauseOnly); err == nil {
		// A whole file.
		name = "snippet.go"
		if strings.HasSuffix(f.Name.Name, "_test") {
			name = "snippet_test.go"
		}
		return name, at + s.code, nil
	}
	prelude := preludeDecls(t, s.doc)
	var body string
	if f, err := parser.ParseFile(token.NewFileSet(), "", "package snippet\n"+s.code, 0); err == nil {
		// Declarations.
		for _, d := range f.Decls {
			declared = append(declared, declNames(d)...)
		}
		body = at + s.code
	} else if f, err2 := parser.ParseFile(token.NewFileSet(), "", "package snippet\nfunc _() {\n"+s.code+"\n}", 0); err2 == nil {
		// Statements, in a function body.
		for _, st := range f.Decls[0].(*ast.FuncDecl).Body.List {
			declared = append(declared, stmtNames(st)...)
		}
		uses := ""
		for _, n := range declared {
			uses += "\t_ = " + n + "\n"
		}
		body = "func _() {\n" + at + s.code + uses + "}\n"
		declared = nil // locals: the prelude's names stay
	} else {
		t.Fatalf("%s is neither a Go file, nor declarations, nor statements (add it to notGo if it is text):\nas declarations: %v\nas statements: %v\n%s", s, err, err2, s.code)
	}
	var kept []string
	for name, text := range prelude {
		if !slices.Contains(declared, name) {
			kept = append(kept, text)
		}
	}
	slices.Sort(kept)
	text = "package snippet\n\n" + body + "\n//line testdata/snippets/" + s.doc + ".go:1\n" + strings.Join(kept, "\n")
	// The packages of knownImports that the file names.
	f, err := parser.ParseFile(token.NewFileSet(), "", text, 0)
	if err != nil {
		t.Fatalf("%s with its prelude: %v", s, err)
	}
	var imports []string
	for _, id := range f.Unresolved {
		if path, ok := knownImports[id.Name]; ok && !slices.Contains(imports, strconv.Quote(path)) {
			imports = append(imports, strconv.Quote(path))
		}
	}
	slices.Sort(imports)
	pkg, rest, _ := strings.Cut(text, "\n")
	return "snippet.go", pkg + "\n\nimport (\n" + strings.Join(imports, "\n") + "\n)\n" + rest, declared
}

// preludeDecls returns the declarations of doc's prelude
// (testdata/snippets/<doc>.go), as text by the name each declares; none
// when the doc has no prelude.
func preludeDecls(t *testing.T, doc string) map[string]string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "snippets", doc+".go"))
	if os.IsNotExist(err) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, doc+".go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	add := func(name string, node any) {
		var b bytes.Buffer
		if err := format.Node(&b, fset, node); err != nil {
			t.Fatal(err)
		}
		out[name] = b.String() + "\n"
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			name := d.Name.Name
			if d.Recv != nil { // a method goes with its type: named after it
				typ := d.Recv.List[0].Type
				if star, ok := typ.(*ast.StarExpr); ok {
					typ = star.X
				}
				name = fmt.Sprint(typ) + "." + name
			}
			add(name, d)
		case *ast.GenDecl:
			if d.Tok == token.IMPORT {
				continue
			}
			for _, spec := range d.Specs {
				one := &ast.GenDecl{Tok: d.Tok, Specs: []ast.Spec{spec}}
				add(strings.Join(specNames(spec), ","), one)
			}
		}
	}
	// A method stays with its type: dropped with it.
	for name := range out {
		if typ, _, ok := strings.Cut(name, "."); ok {
			out[typ] += out[name]
			delete(out, name)
		}
	}
	return out
}

// declNames returns the names a top-level declaration declares.
func declNames(d ast.Decl) []string {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			return []string{d.Name.Name}
		}
	case *ast.GenDecl:
		var names []string
		for _, s := range d.Specs {
			names = append(names, specNames(s)...)
		}
		return names
	}
	return nil
}

func specNames(s ast.Spec) []string {
	switch s := s.(type) {
	case *ast.ValueSpec:
		var names []string
		for _, n := range s.Names {
			names = append(names, n.Name)
		}
		return names
	case *ast.TypeSpec:
		return []string{s.Name.Name}
	}
	return nil
}

// stmtNames returns the variables a statement of a function body
// declares (:= and var), but _.
func stmtNames(st ast.Stmt) []string {
	var names []string
	switch st := st.(type) {
	case *ast.AssignStmt:
		if st.Tok == token.DEFINE {
			for _, e := range st.Lhs {
				if id, ok := e.(*ast.Ident); ok && id.Name != "_" {
					names = append(names, id.Name)
				}
			}
		}
	case *ast.DeclStmt:
		if g := st.Decl.(*ast.GenDecl); g.Tok == token.VAR {
			for _, s := range g.Specs {
				names = append(names, specNames(s)...)
			}
		}
	}
	return slices.DeleteFunc(names, func(n string) bool { return n == "_" })
}
