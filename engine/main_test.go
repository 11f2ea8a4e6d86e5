package engine

import (
	"fmt"
	"os"
	"testing"
)

// TestMain keeps the default remeasure on in the package's many small
// runs, at 40 games a player instead of 1,000: the tests of the
// remeasure write theirs.
func TestMain(m *testing.M) {
	defaultRemeasureGames = 40
	os.Exit(m.Run())
}

// parse is Load of config text: config file's name and text, prepared
// for a run.
func parse(file string, text []byte) (*Setup, error) { return load(file, text, "", For{}) }

// export is what evotune export writes of the run in dir (runs.Export,
// which stands above engine): its best k, as JSON or YAML, of its rivals
// or its main species; and how many it wrote.
func export(dir string, k int, asJSON, rivals bool) ([]byte, int, error) {
	ck, s, err := ReadRun(dir)
	if err != nil {
		return nil, 0, err
	}
	defer s.Close()
	if rivals && ck.Rivals == nil {
		return nil, 0, fmt.Errorf("%s: no rivals", dir)
	}
	file, comment := s.ParamsFile(ck, rivals, k)
	if asJSON {
		data, err := file.JSON()
		return data, len(file.Players), err
	}
	data, err := file.YAML(comment)
	return data, len(file.Players), err
}
