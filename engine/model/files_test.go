package model

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEachModelIsOneFile holds the package's promise for the real models:
// each row of Models has a file of its own, named after it, which holds
// its settings type and every method of it; and no file of the engine
// or the CLI names a model. So adding a model is one file and one row.
func TestEachModelIsOneFile(t *testing.T) {
	fset := token.NewFileSet()
	methods := map[string]map[string]bool{} // settings type -> files declaring it or its methods
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		note := func(typ string) {
			if methods[typ] == nil {
				methods[typ] = map[string]bool{}
			}
			methods[typ][file] = true
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv != nil {
					typ := d.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					if id, ok := typ.(*ast.Ident); ok {
						note(id.Name)
					}
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok {
						note(ts.Name.Name)
					}
				}
			}
		}
	}
	for _, m := range Models {
		file := strings.ReplaceAll(m.Name, "-", "") + ".go"
		typ := reflect.TypeOf(m.Settings())
		if typ.Kind() == reflect.Pointer {
			typ = typ.Elem()
		}
		got := methods[typ.Name()]
		if len(got) != 1 || !got[file] {
			t.Errorf("model %s: its settings %s are declared in %v, want %s alone", m.Name, typ.Name(), keys(got), file)
		}
	}
	for _, dir := range []string{"..", "../../cmd/evotune/cli"} {
		outside, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, file := range outside {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range Models {
				if strings.Contains(string(data), `"`+m.Name+`"`) {
					t.Errorf("%s names model %s: the engine and the CLI know models only through this package", file, m.Name)
				}
			}
		}
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
