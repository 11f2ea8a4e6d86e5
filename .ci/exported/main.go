// Command exported counts the exported names of a Go package directory as
// the issues measure a package's surface: its exported top-level types,
// functions, constants and variables, and the exported methods of its
// exported types (a method of an unexported type is not reachable by
// name). Test files are left out.
//
//	go run ./.ci/exported engine        # the count
//	go run ./.ci/exported -v engine     # the names, then the count
package main

import (
	"flag"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"sort"
	"strings"
)

func main() {
	verbose := flag.Bool("v", false, "list the names")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go run ./.ci/exported [-v] DIR")
		os.Exit(2)
	}
	names, err := exported(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "exported:", err)
		os.Exit(1)
	}
	if *verbose {
		for _, n := range names {
			fmt.Println(n)
		}
	}
	fmt.Println(len(names))
}

// exported lists the exported names of the package in dir, sorted.
func exported(dir string) ([]string, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				switch d := d.(type) {
				case *ast.FuncDecl:
					if !d.Name.IsExported() {
						continue
					}
					if d.Recv == nil {
						names = append(names, "func "+d.Name.Name)
						continue
					}
					t := d.Recv.List[0].Type
					if s, ok := t.(*ast.StarExpr); ok {
						t = s.X
					}
					if id, ok := t.(*ast.Ident); ok && id.IsExported() {
						names = append(names, "method "+id.Name+"."+d.Name.Name)
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
	}
	sort.Strings(names)
	return names, nil
}
