package genome

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
)

var errLine = regexp.MustCompile(`^(line [0-9]+: )?(space|seeds)(\.|\[|:)`)

// FuzzNewSpace feeds arbitrary YAML to the space and seeds parsers, with
// and without a declared schema. They must never panic, must fail only
// with line-numbered errors (or ErrEmptySpace), and what they accept must
// work: random genomes decode to legal values, seeds decode, and mutation
// and crossover keep genomes valid.
//
//	go test ./genome -run '^$' -fuzz FuzzNewSpace -fuzztime 60s
func FuzzNewSpace(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.yaml"))
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("space: [{name: a, type: grid, rows: 2, cols: 2, min: 0, max: 1, fix: [[1, 0], [0, 1]]}]"))
	f.Add([]byte("space: {a: &x {type: int, min: 1, max: 3}, b: *x}\nseeds: [{a: 2, b: 3}, ~]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var doc yaml.Node
		if yaml.Unmarshal(data, &doc) != nil {
			return
		}
		var spaceNode, seedsNode *yaml.Node
		if root := yamlcheck.Resolve(&doc); root != nil && root.Kind == yaml.MappingNode {
			for i := 0; i+1 < len(root.Content); i += 2 {
				switch root.Content[i].Value {
				case "space":
					spaceNode = root.Content[i+1]
				case "seeds":
					seedsNode = root.Content[i+1]
				}
			}
		} else {
			spaceNode = &doc
		}
		for _, schema := range []Schema{testSchema(), nil} {
			s, err := NewSpace(schema, spaceNode)
			if err != nil {
				checkConfigError(t, err)
				continue
			}
			checkSpace(t, s, seedsNode)
		}
	})
}

func checkConfigError(t *testing.T, err error) {
	t.Helper()
	var errs yamlcheck.Errors
	if !errors.As(err, &errs) {
		if !errors.Is(err, ErrEmptySpace) {
			t.Fatalf("error %q (%T) is neither yamlcheck.Errors nor ErrEmptySpace", err, err)
		}
		return
	}
	if len(errs) == 0 {
		t.Fatal("empty yamlcheck.Errors")
	}
	for _, e := range errs {
		if !errLine.MatchString(e.Error()) {
			t.Fatalf("badly shaped error %q", e)
		}
	}
}

func checkSpace(t *testing.T, s *Space, seedsNode *yaml.Node) {
	t.Helper()
	if s.Len() == 0 {
		t.Fatal("an empty space was accepted")
	}
	if err := s.Schema().Validate(); err != nil {
		t.Fatalf("accepted space has a broken schema: %v", err)
	}
	rng := newRand(uint64(s.Len()))
	genomes := [][]float64{s.Random(rng), s.Random(rng)}
	seeds, err := s.ParseSeeds(seedsNode)
	if err != nil {
		checkConfigError(t, err)
	}
	genomes = append(genomes, seeds...)
	for _, genes := range genomes {
		v, err := s.Decode(genes)
		if err != nil {
			t.Fatalf("Decode: %v", err)
		}
		for i := range s.Schema() {
			if err := s.Schema()[i].Check(v.vals[i]); err != nil {
				t.Fatalf("decoded an illegal value: %v", err)
			}
		}
		again, err := s.Encode(v)
		if err != nil {
			t.Fatalf("Encode(Decode(g)): %v", err)
		}
		if err := s.Check(again); err != nil {
			t.Fatalf("Encode gave a bad genome: %v", err)
		}
	}
	a, b := slices.Clone(genomes[0]), slices.Clone(genomes[len(genomes)-1])
	s.Cross(Blend, DefaultAlpha, a, b, rng)
	s.Mutate(a, Mutation{Sigma: 0.3, Rate: 1, ChoiceRate: 1}, rng)
	if err := s.Check(a); err != nil {
		t.Fatalf("after crossover and mutation: %v", err)
	}
	if err := s.Check(b); err != nil {
		t.Fatalf("after crossover: %v", err)
	}
}
