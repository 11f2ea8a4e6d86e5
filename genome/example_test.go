package genome_test

import (
	"fmt"
	"log"
	"math/rand/v2"

	"github.com/evotune/evotune/genome"
	"gopkg.in/yaml.v3"
)

// A player declares its knobs; the config narrows them and names a known
// good parameter set; the engine draws, decodes, mutates and crosses
// genomes of the resulting space.
func Example() {
	schema := genome.Schema{
		{Name: "edge", Kind: genome.Float, Min: 0, Max: 10, Default: genome.Value{Num: 1}},
		{Name: "depth", Kind: genome.Int, Min: 1, Max: 8, Default: genome.Value{Num: 3}},
		{Name: "style", Kind: genome.Choice, Choices: []string{"greedy", "parity", "random"},
			Default: genome.Value{Str: "greedy"}},
		{Name: "weights", Kind: genome.Grid, Rows: 3, Cols: 3, Min: -1, Max: 1,
			Symmetry: genome.Full, Default: genome.Value{Cells: make([]float64, 9)}},
	}
	const config = `
space:
  edge: {min: 0.5, max: 5, log: true}
  style: {fix: parity}
  weights: {symmetry: dihedral}
seeds:
  - {edge: 1.5, depth: 4}
`
	var doc struct {
		Space yaml.Node `yaml:"space"`
		Seeds yaml.Node `yaml:"seeds"`
	}
	if err := yaml.Unmarshal([]byte(config), &doc); err != nil {
		log.Fatal(err)
	}
	space, err := genome.NewSpace(schema, &doc.Space)
	if err != nil {
		log.Fatal(err) // the caller prefixes the file name: "x.yaml: line 3: space.edge.min: ..."
	}
	fmt.Println("genes:", space.Genes())

	seeds, err := space.ParseSeeds(&doc.Seeds)
	if err != nil {
		log.Fatal(err)
	}
	v, _ := space.Decode(seeds[0])
	fmt.Println("seed:", v.Float("edge"), v.Int("depth"), v.Choice("style"), v.Grid("weights"))

	rng := rand.New(rand.NewPCG(1, 2)) // in the engine: derived from (seed, generation, purpose, index)
	a, b := space.Random(rng), seeds[0]
	space.Cross(genome.Blend, genome.DefaultAlpha, a, b, rng)
	space.Mutate(a, genome.Mutation{Sigma: 0.1, Rate: 0.5}, rng)
	child, err := space.Decode(a)
	fmt.Println("child decodes:", err == nil, child.Choice("style"))

	_, err = genome.NewSpace(schema, node("edge: {min: -1}\ndepth: {fix: 9}\n"))
	fmt.Println(err)
	// Output:
	// genes: [edge depth weights[0] weights[1] weights[2]]
	// seed: 1.5 4 parity [0 0 0 0 0 0 0 0 0]
	// child decodes: true parity
	// line 1: space.edge.min: -1 is below the declared minimum 0
	// line 2: space.depth.fix: 9 is above the declared maximum 8
}

func node(text string) *yaml.Node {
	var n yaml.Node
	if err := yaml.Unmarshal([]byte(text), &n); err != nil {
		log.Fatal(err)
	}
	return &n
}

// A player file's values are read as a seed's are, each problem at its
// line and under the parameter's name.
func ExampleSchema_ParseValues() {
	schema := genome.Schema{
		{Name: "edge", Kind: genome.Float, Min: 0, Max: 10, Default: genome.Value{Num: 1}},
		{Name: "depth", Kind: genome.Int, Min: 1, Max: 8, Default: genome.Value{Num: 3}},
	}
	v, err := schema.ParseValues(node("edge: 2.5\n"))
	fmt.Println(v.Float("edge"), v.Int("depth"), err)

	_, err = schema.ParseValues(node("edge: 12\ndepth: 2.5\nwidth: 3\n"))
	fmt.Println(err)
	// Output:
	// 2.5 3 <nil>
	// line 1: edge: 12 is above the maximum 10
	// line 2: depth: want an integer, got 2.5
	// line 3: width: unknown parameter; want one of edge, depth
}
