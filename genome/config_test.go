package genome

import (
	"errors"
	"github.com/evotune/evotune/internal/golden"
	"github.com/evotune/evotune/internal/yamlcheck"
	"gopkg.in/yaml.v3"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigGolden runs every config under testdata/declared (against
// testSchema) and testdata/free (no declared schema) and compares the
// resulting space, seeds or errors with the .golden file beside it.
// Run `go test ./genome -update` after an intended change.
func TestConfigGolden(t *testing.T) {
	for _, dir := range []string{"declared", "free"} {
		files, err := filepath.Glob(filepath.Join("testdata", dir, "*.yaml"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no fixtures in testdata/%s: %v", dir, err)
		}
		for _, file := range files {
			name := dir + "/" + strings.TrimSuffix(filepath.Base(file), ".yaml")
			t.Run(name, func(t *testing.T) {
				var schema Schema
				if dir == "declared" {
					schema = testSchema()
				}
				spaceNode, seedsNode := sections(t, file)
				got := runConfig(schema, spaceNode, seedsNode)
				if strings.HasPrefix(filepath.Base(file), "ok_") && strings.Contains(got, "error") {
					t.Errorf("an ok_ fixture failed:\n%s", got)
				}
				golden.Check(t, strings.TrimSuffix(file, ".yaml")+".golden", got, *update)
			})
		}
	}
}

func runConfig(schema Schema, spaceNode, seedsNode *yaml.Node) string {
	s, err := NewSpace(schema, spaceNode)
	if err != nil {
		return "error:\n" + err.Error() + "\n"
	}
	seeds, err := s.ParseSeeds(seedsNode)
	if err != nil {
		return render(s, nil) + "seeds error:\n" + err.Error() + "\n"
	}
	return render(s, seeds)
}

func TestNewSpaceErrorShape(t *testing.T) {
	tests := []struct {
		name   string
		schema Schema
		space  string
		want   []string // each yamlcheck.Error, in order
		empty  bool     // wraps ErrEmptySpace
	}{
		{
			name:   "below the declared minimum",
			schema: testSchema(),
			space:  "edge: {min: -3}\n",
			want:   []string{"line 1: space.edge.min: -3 is below the declared minimum 0"},
		},
		{
			name:   "all problems at once, in line order",
			schema: testSchema(),
			space:  "depth: {max: 9}\nedge: {max: 11, mni: 0}\n",
			want: []string{
				"line 1: space.depth.max: 9 is above the declared maximum 8",
				"line 2: space.edge.mni: unknown key; want one of type, min, max, log, fix",
				"line 2: space.edge.max: 11 is above the declared maximum 10",
			},
		},
		{
			name:   "every parameter fixed",
			schema: Schema{{Name: "x", Kind: Bool}},
			space:  "x: {fix: true}\n",
			want:   []string{"line 1: space: nothing left to search: every parameter is fixed"},
			empty:  true,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSpace(tc.schema, parseNode(t, tc.space))
			var errs yamlcheck.Errors
			if !errors.As(err, &errs) {
				t.Fatalf("error %v (%T), want yamlcheck.Errors", err, err)
			}
			var got []string
			for _, e := range errs {
				got = append(got, e.Error())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("errors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if errors.Is(err, ErrEmptySpace) != tc.empty {
				t.Errorf("errors.Is(err, ErrEmptySpace) = %v, want %v", !tc.empty, tc.empty)
			}
		})
	}
}

func TestNewSpaceNoParameters(t *testing.T) {
	_, err := NewSpace(nil, nil)
	if !errors.Is(err, ErrEmptySpace) {
		t.Fatalf("NewSpace(nil, nil) = %v, want ErrEmptySpace", err)
	}
	if !strings.HasPrefix(err.Error(), "genome: ") {
		t.Errorf("error %q lacks the genome: prefix", err)
	}
}

func TestNewSpaceBrokenSchema(t *testing.T) {
	_, err := NewSpace(Schema{{Name: "x", Kind: Float, Min: 2, Max: 1, Default: Value{Num: 1.5}}}, nil)
	if err == nil || !strings.HasPrefix(err.Error(), "genome: declared schema") {
		t.Fatalf("NewSpace of a broken schema = %v", err)
	}
}
