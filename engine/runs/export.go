package runs

import (
	"errors"
	"fmt"

	"github.com/evotune/evotune/engine"
)

// Format is an export file format.
type Format uint8

// The export formats.
const (
	YAML Format = iota + 1
	JSON
)

// ParseFormat reads "yaml" or "json".
func ParseFormat(s string) (Format, error) {
	switch s {
	case "yaml", "yml":
		return YAML, nil
	case "json":
		return JSON, nil
	}
	return 0, fmt.Errorf("unknown format %q (want yaml or json)", s)
}

// ErrNoRivals is returned when exporting rivals of a run without them.
var ErrNoRivals = errors.New("the run has no co-evolved rivals")

// Export renders the best k parameter sets of the run in dir, of its main
// species or of the co-evolved rivals, and returns how many it rendered:
// fewer than k when the hall of fame holds fewer.
func Export(dir string, k int, f Format, rivals bool) ([]byte, int, error) {
	ck, s, err := engine.ReadRun(dir)
	if err != nil {
		return nil, 0, err
	}
	defer s.Close()
	if k < 1 {
		return nil, 0, fmt.Errorf("runs: export: top %d: want at least 1", k)
	}
	if rivals && ck.Rivals == nil {
		return nil, 0, fmt.Errorf("%s: %w", dir, ErrNoRivals)
	}
	file, comment := s.ParamsFile(ck, rivals, k)
	var data []byte
	if f == JSON {
		data, err = file.JSON()
	} else {
		data, err = file.YAML(comment)
	}
	return data, len(file.Players), err
}
