package rundir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"github.com/evotune/evotune/internal/fileio"
)

// InFlight is the generation a run is playing, as its match journal
// says: the batches finished so far.
type InFlight struct {
	Generation int // from 1
	Games      int // the generation's games
	BatchGames int // games a batch (the last of a round may hold fewer)
	// Batches is the journal's complete entry lines after its header: the
	// batches finished and written. Counted is false when the journal was
	// larger than the limit given and they were not counted.
	Batches int
	Counted bool
}

// JournalProgress reads the match journal of the run directory dir as
// a reader outside the run does (the dashboard), following no link: its
// header, and its complete lines up to limit bytes (a line being
// appended is not counted). ok is false when there is no journal (no
// generation in flight, or a finished run) or its header does not read.
func JournalProgress(dir string, limit int64) (in InFlight, ok bool, err error) {
	f, err := fileio.OpenNoFollow(filepath.Join(dir, JournalFile))
	if errors.Is(err, fs.ErrNotExist) {
		return in, false, nil
	}
	if err != nil {
		return in, false, fmt.Errorf("rundir: journal: %w", err)
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 1<<16)
	line, whole := nextLine(rd, 4096)
	var hdr JournalHeader
	if !whole || json.Unmarshal(line, &hdr) != nil || hdr.Journal != JournalFormat || hdr.Games < 1 || hdr.BatchGames < 1 {
		return in, false, nil
	}
	in = InFlight{Generation: hdr.Generation + 1, Games: hdr.Games, BatchGames: hdr.BatchGames, Counted: true}
	buf := make([]byte, 1<<16)
	read := int64(len(line) + 1)
	for {
		n, rerr := rd.Read(buf)
		in.Batches += bytes.Count(buf[:n], []byte{'\n'})
		read += int64(n)
		if read > limit {
			in.Counted = false
			break
		}
		if rerr != nil {
			break
		}
	}
	return in, true, nil
}
