package engine

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
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

// fileJournal is the match journal of a run directory: the results of
// every finished batch of the generation in flight, so a run killed in
// the middle of a generation loses only the games that were being played.
const fileJournal = "games.journal"

// journalFormat is the version of the journal's lines.
const journalFormat = 1

// journalHeader is the journal's first line: which generation, of which
// run and population, its batches belong to. A journal whose header is
// not the generation being played is another generation's, and is
// replaced.
type journalHeader struct {
	Journal    int    `json:"journal"`
	Run        string `json:"run"`
	Generation int    `json:"generation"`
	Games      int    `json:"games"`
	BatchGames int    `json:"batch_games"`
	Pools      string `json:"pools"` // sha256 of the genomes that play, so a journal never feeds another population
}

// journalEntry is one finished batch: a line of its own, appended and
// fsynced. Sum covers the index and the results' bits, so a line that a
// crash garbled is not mistaken for results.
type journalEntry struct {
	Batch   int       `json:"batch"`
	Results []float64 `json:"results"`
	Sum     uint32    `json:"sum"`
}

func entrySum(batch int, results []float64) uint32 {
	buf := make([]byte, 8*(1+len(results)))
	binary.LittleEndian.PutUint64(buf, uint64(batch))
	for i, x := range results {
		binary.LittleEndian.PutUint64(buf[8*(i+1):], math.Float64bits(x))
	}
	return crc32.ChecksumIEEE(buf)
}

// journal is the open match journal of a run.
type journal struct {
	path string
	hdr  journalHeader
	have map[int][]float64 // batches read back from a previous process

	mu      sync.Mutex // guards pending, err and closing
	pending []byte     // lines not yet written
	err     error
	wake    chan struct{} // a line is pending, or the journal closes
	closing bool
	done    chan struct{} // closed when the writer has written and synced all
	f       journalFile
}

// journalFile is what the journal appends to: an *os.File, or in tests
// one that records its writes and syncs.
type journalFile interface {
	io.Writer
	Sync() error
	Close() error
}

// openJournalAppend opens the journal at path for appending.
var openJournalAppend = func(path string) (journalFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	return f, nil
}

// begin opens the journal for generation gen: it keeps the batches of a
// journal of the same generation and population (a resume after a kill)
// and replaces any other.
func (j *journal) begin(r *runner, gen int, pools [][][]float64, hof [][]Member, games int) error {
	j.close()
	hdr := journalHeader{Journal: journalFormat, Run: r.runID(), Generation: gen, Games: games,
		BatchGames: r.batchGames, Pools: poolsDigest(pools, hof, r.cfg.Fitness.HallOfFame.Members)}
	*j = journal{path: filepath.Join(r.dir, fileJournal), hdr: hdr, have: map[int][]float64{}}
	torn, err := j.read()
	if err != nil {
		return err
	}
	if torn > 0 {
		r.logf("generation %d: %d damaged journal lines ignored (a kill during a write)", gen+1, torn)
	}
	// Rewrite it with what is kept: appending after a torn line would
	// glue the next entry to it.
	var b bytes.Buffer
	writeLine(&b, hdr)
	kept := slices.Sorted(maps.Keys(j.have))
	for _, i := range kept {
		res := j.have[i]
		writeLine(&b, journalEntry{Batch: i, Results: res, Sum: entrySum(i, res)})
	}
	// The journal bypasses the disk of crash tests, which follow the
	// result files.
	if err := writeAtomicOn(osFS{}, j.path, b.Bytes()); err != nil {
		return fmt.Errorf("engine: journal: %w", err)
	}
	f, err := openJournalAppend(j.path)
	if err != nil {
		return fmt.Errorf("engine: journal: %w", fileio.Cause(err))
	}
	j.f, j.wake, j.done = f, make(chan struct{}, 1), make(chan struct{})
	go j.writer()
	return nil
}

// writer writes the pending lines and fsyncs them, over and over, until
// the journal closes: the games never wait for the disk, and one fsync
// covers every batch that finished while the last one ran.
func (j *journal) writer() {
	defer close(j.done)
	for range j.wake {
		j.mu.Lock()
		lines, closing := j.pending, j.closing
		j.pending = nil
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
func (j *journal) read() (ignored int, err error) {
	f, err := fileio.Open(j.path) // a FIFO planted there must not hang resume
	if errors.Is(err, os.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("engine: journal: %w", fileio.Cause(err))
	}
	defer f.Close()
	rd := bufio.NewReaderSize(f, 1<<16)
	line, ok := nextLine(rd, 4096)
	var hdr journalHeader
	if !ok || json.Unmarshal(line, &hdr) != nil || hdr != j.hdr {
		return 0, nil // another generation's journal, or none worth keeping
	}
	// A racing generation ends each round with a partial batch, so a
	// batch holds 1 to per games and there are at most Games batches;
	// lookup checks a batch's length against the batch played.
	per := j.hdr.BatchGames
	nBatches := j.hdr.Games
	maxLine := 64 + 32*per
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
			len(e.Results) < 1 || len(e.Results) > per || e.Sum != entrySum(e.Batch, e.Results) {
			ignored++
			continue
		}
		j.have[e.Batch] = e.Results
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

// lookup returns a batch's results if the journal holds them.
func (j *journal) lookup(b *Batch) ([]float64, bool) {
	res, ok := j.have[b.Index]
	if !ok || len(res) != len(b.jobs) {
		return nil, false
	}
	return res, true
}

// append records a finished batch: the writer appends and fsyncs it
// soon after (a kill before that loses only that batch's games). A
// failure is kept for failure.
func (j *journal) append(b *Batch, results []float64) {
	for _, x := range results {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return // the generation fails on it anyway
		}
	}
	var buf bytes.Buffer
	writeLine(&buf, journalEntry{Batch: b.Index, Results: results, Sum: entrySum(b.Index, results)})
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.wake == nil || j.closing {
		return
	}
	j.pending = append(j.pending, buf.Bytes()...)
	select {
	case j.wake <- struct{}{}:
	default: // the writer is already called
	}
}

// failure is the first error writing the journal.
func (j *journal) failure() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.err != nil {
		return fmt.Errorf("engine: journal %s: %w", j.path, fileio.Cause(j.err))
	}
	return nil
}

// close writes and fsyncs what is pending and closes the file.
func (j *journal) close() {
	j.mu.Lock()
	if j.wake == nil || j.closing {
		j.mu.Unlock()
		return
	}
	j.closing = true
	select {
	case j.wake <- struct{}{}:
	default:
	}
	j.mu.Unlock()
	<-j.done
	j.f.Close()
}

// remove deletes the journal of a finished run: it holds nothing a
// resume needs.
func (j *journal) remove() {
	j.close()
	if j.path != "" {
		os.Remove(j.path)
	}
}

// poolsDigest identifies the genomes a generation is played by.
func poolsDigest(pools [][][]float64, hof [][]Member, members int) string {
	h := sha256.New()
	var buf [8]byte
	put := func(x uint64) { binary.LittleEndian.PutUint64(buf[:], x); h.Write(buf[:]) }
	for s := range pools {
		put(uint64(len(pools[s])))
		for _, g := range pools[s] {
			put(uint64(len(g)))
			for _, x := range g {
				put(math.Float64bits(x))
			}
		}
		n := min(len(hof[s]), members)
		put(uint64(n))
		for _, m := range hof[s][:n] {
			put(uint64(len(m.Genes)))
			for _, x := range m.Genes {
				put(math.Float64bits(x))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// runID names the run in batch IDs: the config's hash and the batch size
// ("auto" when it is set per generation, whose number is in the ID), so
// batches of two runs, or of one run cut another way, never share one.
func (r *runner) runID() string {
	if r.id == "" {
		size := fmt.Sprint(r.batchGames)
		if r.autoBatch {
			size = "auto"
		}
		sum := sha256.Sum256(fmt.Appendf(nil, "%s/%s", r.cfg.Hash(), size))
		r.id = hex.EncodeToString(sum[:8])
	}
	return r.id
}

func (r *runner) batchID(gen, index int) string {
	return fmt.Sprintf("%s.%d.%d", r.runID(), gen, index)
}
