package evotune

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// exported lists the exported names of the package in dir, as the
// issues measure a package's surface: its exported top-level types,
// functions, constants and variables, and the exported methods of its
// exported types (a method of an unexported type is not reachable by
// name); test files are left out.
func exported(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				switch {
				case !d.Name.IsExported():
				case d.Recv == nil:
					names = append(names, "func "+d.Name.Name)
				default:
					recv := d.Recv.List[0].Type
					if s, ok := recv.(*ast.StarExpr); ok {
						recv = s.X
					}
					if id, ok := recv.(*ast.Ident); ok && id.IsExported() {
						names = append(names, "method "+id.Name+"."+d.Name.Name)
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							names = append(names, "type "+s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								names = append(names, d.Tok.String()+" "+n.Name)
							}
						}
					}
				}
			}
		}
	}
	sort.Strings(names)
	return names
}

// TestEngineSurface holds engine to at most 90 exported names (146
// before the config, the readers of a run and the worker's wire left
// it); `go test -run TestEngineSurface -v .` lists them and the counts
// of engine's packages. A name more is a choice to make, here.
func TestEngineSurface(t *testing.T) {
	for _, dir := range []string{"engine", "engine/config", "engine/runs", "engine/model"} {
		names := exported(t, dir)
		t.Logf("%s exports %d names", dir, len(names))
		if dir == "engine" {
			t.Logf("%s", strings.Join(names, "\n"))
			if len(names) > 90 {
				t.Errorf("engine exports %d names, more than 90", len(names))
			}
		}
	}
}
