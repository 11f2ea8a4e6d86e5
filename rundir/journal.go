package rundir

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/evotune/evotune/internal/fileio"
)

// The match journal (Journal, games.journal) holds the results of every
// finished batch of the generation in flight, so a run killed in the
// middle of a generation loses only the games that were being played.

// JournalFormat is the version of the journal's lines.
const JournalFormat = 1

// JournalHeader is the journal's first line: which generation, of which
// run and population, its batches belong to. A journal whose header is
// not the generation being played is another generation's, and is
// replaced.
type JournalHeader struct {
	Journal    int    `json:"journal"`
	Run        string `json:"run"`
	Generation int    `json:"generation"`
	Games      int    `json:"games"`
	BatchGames int    `json:"batch_games"`
	Genomes    string `json:"pools"` // sha256 of the genomes that play, so a journal never feeds another population
}

// journalEntry is one finished batch: a line of its own, appended and
// fsynced. Sum covers the index and the results' bits, so a line that a
// crash garbled is not mistaken for results.
type journalEntry struct {
	Batch   int       `json:"batch"`
	Results []float64 `json:"results"`
	// Notes are what the games' referee said beyond their results (the
	// engine's notes: faults, records), opaque here; absent for none, so
	// a line without notes is as it was before notes.
	Notes json.RawMessage `json:"notes,omitempty"`
	Sum   uint32          `json:"sum"`
}

// MaxNotes bounds a batch's notes in the journal: a line longer than its
// results and this is not one of ours.
const MaxNotes = 16 << 20

// EntryLine is the journal's line of batch index with results, for tests
// that forge one.
func EntryLine(index int, results []float64) []byte {
	var b bytes.Buffer
	writeLine(&b, journalEntry{Batch: index, Results: results, Sum: entrySum(index, results, nil)})
	return b.Bytes()
}

// entrySum covers the batch's index, its results' bits and its notes'
// bytes (none: the sum of a line before notes).
func entrySum(batch int, results []float64, notes []byte) uint32 {
	buf := make([]byte, 8*(1+len(results)), 8*(1+len(results))+len(notes))
	binary.LittleEndian.PutUint64(buf, uint64(batch))
	for i, x := range results {
		binary.LittleEndian.PutUint64(buf[8*(i+1):], math.Float64bits(x))
	}
	return crc32.ChecksumIEEE(append(buf, notes...))
}

// Journal is the open match journal of a run. Its zero value journals
// nothing: it holds no batches and drops what it is given.
type Journal struct {
	path  string
	hdr   JournalHeader
	have  map[int][]float64       // batches read back from a previous process
	notes map[int]json.RawMessage // and their notes, where they have some

	mu      sync.Mutex // guards pending, err, closing and waiting
	pending []byte     // lines not yet written
	// drained wakes Appends waiting for pending to fall below
	// maxPending; waiting counts them.
	drained    *sync.Cond
	waiting    int
	maxPending int
	err        error
	wake       chan struct{} // a line is pending, or the journal closes
	closing    bool
	done       chan struct{} // closed when the writer has written and synced all
	f          JournalWriter
}

// JournalWriter is what the journal appends to: an *os.File, or in tests
// one that records its writes and syncs.
type JournalWriter interface {
	io.Writer
	Sync() error
	Close() error
}

// OpenJournalAppend opens the journal at path for appending; tests
// replace it.
var OpenJournalAppend = func(path string) (JournalWriter, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// OpenJournal opens the journal at path for the generation hdr names: it
// keeps the batches of a journal with the same header (a resume after a
// kill) and replaces any other. ignored counts the damaged lines it
// dropped (a kill during a write).
func OpenJournal(path string, hdr JournalHeader) (j *Journal, ignored int, err error) {
	hdr.Journal = JournalFormat
	j = &Journal{path: path, hdr: hdr, have: map[int][]float64{}, notes: map[int]json.RawMessage{}}
	if ignored, err = j.read(); err != nil {
		return nil, 0, err
	}
	// Rewrite it with what is kept: appending after a torn line would
	// glue the next entry to it.
	var b bytes.Buffer
	writeLine(&b, hdr)
	for _, i := range slices.Sorted(maps.Keys(j.have)) {
		res, notes := j.have[i], j.notes[i]
		writeLine(&b, journalEntry{Batch: i, Results: res, Notes: notes, Sum: entrySum(i, res, notes)})
	}
	// The journal bypasses the file system of crash tests, which follow
	// the result files.
	if err := WriteAtomic(OS, j.path, b.Bytes()); err != nil {
		return nil, 0, fmt.Errorf("rundir: journal: %w", err)
	}
	f, err := OpenJournalAppend(j.path)
	if err != nil {
		return nil, 0, fmt.Errorf("rundir: journal: %w", fileio.Cause(err))
	}
	j.f, j.wake, j.done = f, make(chan struct{}, 1), make(chan struct{})
	j.drained, j.maxPending = sync.NewCond(&j.mu), MaxPendingJournal
	go j.writer()
	return j, ignored, nil
}

// MaxPendingJournal is the most bytes of lines the journal holds for
// its writer: an Append beyond it waits for the disk. Without a bound, a
// slow fsync on a busy machine let a generation of 10^7 games pile up
// hundreds of megabytes of lines.
const MaxPendingJournal = 4 << 20

// writer writes the pending lines and fsyncs them, over and over, until
// the journal closes: the games wait for the disk only when
// MaxPendingJournal bytes are pending, and one fsync covers every batch
// that finished while the last one ran.
func (j *Journal) writer() {
	defer close(j.done)
	for range j.wake {
		j.mu.Lock()
		lines, closing := j.pending, j.closing
		j.pending = nil
		j.drained.Broadcast()
		j.mu.Unlock()
		if len(lines) > 0 {
			_, err := j.f.Write(lines)
			if err == nil {
				err = j.f.Sync()
			}
			if err != nil {
				j.mu.Lock()
				if j.err == nil {
					j.err = err
				}
				j.drained.Broadcast()
				j.mu.Unlock()
			}
		}
		if closing {
			return
		}
	}
}

func writeLine(b *bytes.Buffer, v any) {
	data, _ := json.Marshal(v) // headers and entries of finite numbers always encode
	b.Write(data)
	b.WriteByte('\n')
}

// read loads the batches of a journal with j's header, stopping at the
// first line that is not a whole, valid entry; it returns how many lines
// it ignored.
func (j *Journal) read() (ignored int, err error) {
	f, err := fileio.Open(j.path) // a FIFO planted there must not hang resume
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("rundir: journal: %w", fileio.Cause(err))
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 1<<16)
	line, ok := nextLine(rd, 4096)
	var hdr JournalHeader
	if !ok || json.Unmarshal(line, &hdr) != nil || hdr != j.hdr {
		return 0, nil // another generation's journal, or none worth keeping
	}
	// A racing generation ends each round with a partial batch, so a
	// batch holds 1 to per games and there are at most Games batches;
	// lookup checks a batch's length against the batch played.
	per := j.hdr.BatchGames
	nBatches := j.hdr.Games
	// A line is its results' bound long at most, and its notes' more.
	maxResults := 64 + 32*per
	maxLine := maxResults + MaxNotes
	for {
		line, ok := nextLine(rd, maxLine)
		if !ok {
			if len(line) > 0 {
				ignored++
			}
			return ignored, nil
		}
		var e journalEntry
		if json.Unmarshal(line, &e) != nil || e.Batch < 0 || e.Batch >= nBatches ||
			len(e.Results) < 1 || len(e.Results) > per || len(line)+1-len(e.Notes) > maxResults || e.Sum != entrySum(e.Batch, e.Results, e.Notes) {
			ignored++
			continue
		}
		j.have[e.Batch] = e.Results
		if len(e.Notes) > 0 {
			j.notes[e.Batch] = e.Notes
		}
	}
}

// nextLine reads a line of at most limit bytes; ok is false at the end of
// the file, for a last line without its newline (torn), and for a line
// too long to be one of ours.
func nextLine(rd *bufio.Reader, limit int) (line []byte, ok bool) {
	var buf []byte
	for {
		part, err := rd.ReadSlice('\n')
		buf = append(buf, part...)
		if len(buf) > limit {
			// Skip the rest of an overlong line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = rd.ReadSlice('\n')
			}
			return buf[:0:0], err == nil
		}
		switch {
		case err == nil:
			return buf[:len(buf)-1], true
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return buf, false
		default:
			return buf, false
		}
	}
}

// Lookup returns batch index's results if the journal holds them for a
// batch of games games.
func (j *Journal) Lookup(index, games int) ([]float64, bool) {
	if j == nil {
		return nil, false
	}
	res, ok := j.have[index]
	if !ok || len(res) != games {
		return nil, false
	}
	return res, true
}

// Notes returns the notes the journal holds for batch index (Lookup's
// results'), nil for none.
func (j *Journal) Notes(index int) json.RawMessage {
	if j == nil {
		return nil
	}
	return j.notes[index]
}

// Append records batch index's results: the writer appends and fsyncs
// them soon after (a kill before that loses only that batch's games). A
// failure is kept for Failure.
func (j *Journal) Append(index int, results []float64) { j.AppendNotes(index, results, nil) }

// AppendNotes is Append with the batch's notes (JSON; nil for none).
// Notes past MaxNotes are not journaled: the batch is played again on
// resume.
func (j *Journal) AppendNotes(index int, results []float64, notes json.RawMessage) {
	if j == nil || len(notes) > MaxNotes {
		return
	}
	for _, x := range results {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return // the generation fails on it anyway
		}
	}
	var buf bytes.Buffer
	writeLine(&buf, journalEntry{Batch: index, Results: results, Notes: notes, Sum: entrySum(index, results, notes)})
	j.mu.Lock()
	defer j.mu.Unlock()
	for j.wake != nil && !j.closing && j.err == nil && len(j.pending) >= j.maxPending {
		j.waiting++
		j.drained.Wait()
		j.waiting--
	}
	if j.wake == nil || j.closing {
		return
	}
	j.pending = append(j.pending, buf.Bytes()...)
	select {
	case j.wake <- struct{}{}:
	default: // the writer is already called
	}
}

// Failure is the first error writing the journal.
func (j *Journal) Failure() error {
	if j == nil {
		return nil
	}
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return fmt.Errorf("rundir: journal %s: %w", j.path, fileio.Cause(j.err))
	}
	return nil
}

// Close writes and fsyncs what is pending and closes the file.
func (j *Journal) Close() {
	if j == nil {
		return
	}
	j.mu.Lock()
	if j.wake == nil || j.closing {
		j.mu.Unlock()
		return
	}
	j.closing = true
	j.drained.Broadcast()
	select {
	case j.wake <- struct{}{}:
	default:
	}
	j.mu.Unlock()
	<-j.done
	j.f.Close()
}

// RemoveJournal deletes the journal of a finished run in dir, closing j
// (which may be nil) first: it holds nothing a resume needs.
func RemoveJournal(dir string, j *Journal) {
	j.Close()
	os.Remove(filepath.Join(dir, JournalFile))
}
