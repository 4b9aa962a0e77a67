package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// raceIdent is the constant this repository's race_on_test.go and
// race_off_test.go files define: a test that reads it skips or shrinks
// under -race.
const raceIdent = "raceEnabled"

// selectTests returns the names of the tests among one package's test files
// (one package clause: the internal or the external test package) that reach,
// directly or through helpers declared in those files, a call to
// testing.AllocsPerRun or the raceEnabled constant. files maps a file name
// to its source.
func selectTests(files map[string][]byte) ([]string, error) {
	fset := token.NewFileSet()
	g := graph{refs: map[string]map[string]bool{}, hits: map[string]bool{}}
	var tests []string
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		f, err := parser.ParseFile(fset, name, files[name], parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		testing := importName(f, "testing")
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				key := funcKey(d)
				g.add(key, d, testing)
				if isTest(d, testing) {
					tests = append(tests, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if vs, ok := s.(*ast.ValueSpec); ok {
						for _, n := range vs.Names {
							g.add(n.Name, vs, testing)
						}
					}
				}
			}
		}
	}
	var out []string
	for _, t := range tests {
		if g.reaches(t, map[string]bool{}) {
			out = append(out, t)
		}
	}
	sort.Strings(out)
	return out, nil
}

// graph links each top-level declaration of the test files to the names it
// mentions; hits marks the ones that mention AllocsPerRun or raceEnabled
// themselves. Methods are keyed ".Name" and linked from any selector of that
// name: an over-approximation, which at worst runs one more test.
type graph struct {
	refs map[string]map[string]bool
	hits map[string]bool
}

func (g *graph) add(key string, n ast.Node, testing string) {
	refs := g.refs[key]
	if refs == nil {
		refs = map[string]bool{}
		g.refs[key] = refs
	}
	ast.Inspect(n, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.SelectorExpr:
			if x, ok := n.X.(*ast.Ident); ok && testing != "" && x.Name == testing && n.Sel.Name == "AllocsPerRun" {
				g.hits[key] = true
			}
			refs["."+n.Sel.Name] = true
		case *ast.Ident:
			if n.Name == raceIdent {
				g.hits[key] = true
			}
			refs[n.Name] = true
		}
		return true
	})
}

func (g *graph) reaches(key string, seen map[string]bool) bool {
	if seen[key] {
		return false
	}
	seen[key] = true
	if g.hits[key] {
		return true
	}
	for r := range g.refs[key] {
		if _, declared := g.refs[r]; declared && g.reaches(r, seen) {
			return true
		}
	}
	return false
}

func funcKey(d *ast.FuncDecl) string {
	if d.Recv != nil {
		return "." + d.Name.Name
	}
	return d.Name.Name
}

// isTest: func TestXxx(t *testing.T), as go test finds them.
func isTest(d *ast.FuncDecl, testing string) bool {
	name := d.Name.Name
	if d.Recv != nil || !strings.HasPrefix(name, "Test") || name == "TestMain" {
		return false
	}
	if r, _ := utf8.DecodeRuneInString(name[4:]); unicode.IsLower(r) {
		return false // Testify is not a test
	}
	ps := d.Type.Params.List
	if len(ps) != 1 || len(ps[0].Names) > 1 {
		return false
	}
	star, ok := ps[0].Type.(*ast.StarExpr)
	if !ok {
		return false
	}
	sel, ok := star.X.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == testing && sel.Sel.Name == "T"
}

// importName is the name under which f imports path ("" if it does not).
func importName(f *ast.File, path string) string {
	for _, is := range f.Imports {
		if strings.Trim(is.Path.Value, `"`) != path {
			continue
		}
		if is.Name != nil {
			return is.Name.Name
		}
		return path[strings.LastIndex(path, "/")+1:]
	}
	return ""
}
