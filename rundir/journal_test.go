package rundir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// entryLine is a journal line for batch with results and its sum, padded
// with spaces inside the object to pad bytes more.
func entryLine(batch int, results []float64, pad int) string {
	return entryLineSum(batch, results, entrySum(batch, results, nil), pad)
}

func entryLineSum(batch int, results []float64, sum uint32, pad int) string {
	var b strings.Builder
	fmt.Fprintf(&b, `{"batch":%d,%s"results":[`, batch, strings.Repeat(" ", pad))
	for i, x := range results {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, x)
	}
	fmt.Fprintf(&b, `],"sum":%d}`+"\n", sum)
	return b.String()
}

// TestJournalReadKeepsOnlyWholeEntries: a journal is read back only
// under its own header, and only its whole, valid entries are kept:
// batch indices from 0 to Games-1, 1 to BatchGames results, the right
// sum, lines up to 64+32*BatchGames bytes; everything else is counted as
// ignored, and reading goes on after it.
func TestJournalReadKeepsOnlyWholeEntries(t *testing.T) {
	hdr := JournalHeader{Journal: JournalFormat, Run: "r", Generation: 2, Games: 10, BatchGames: 4, Genomes: "p"}
	header := func(h JournalHeader) string {
		var b bytes.Buffer
		writeLine(&b, h)
		return b.String()
	}
	maxLine := 64 + 32*hdr.BatchGames
	exactly := func(batch int, results []float64, n int) string {
		line := entryLine(batch, results, 0)
		return entryLine(batch, results, n-len(line))
	}
	four := []float64{1, 0, 0.5, 1}
	other := hdr
	other.Generation = 1
	tests := []struct {
		name    string
		text    string
		kept    []int // batches kept, in order
		ignored int
	}{
		{"no journal", "", nil, 0},
		{"whole entries", header(hdr) + entryLine(0, four, 0) + entryLine(9, []float64{0.25}, 0), []int{0, 9}, 0},
		{"another generation", header(other) + entryLine(0, four, 0), nil, 0},
		{"another batch size", strings.Replace(header(hdr), `"batch_games":4`, `"batch_games":8`, 1) + entryLine(0, four, 0), nil, 0},
		{"a header too long", strings.Replace(header(hdr), `"run":"r"`, `"run":"r`+strings.Repeat(" ", 4100)+`"`, 1) + entryLine(0, four, 0), nil, 0},
		{"batch indices out of range", header(hdr) + entryLine(-1, four, 0) + entryLine(10, four, 0) + entryLine(3, four, 0), []int{3}, 2},
		{"results of 0 and of more than a batch", header(hdr) + entryLine(1, nil, 0) + entryLine(2, []float64{1, 1, 1, 1, 1}, 0) + entryLine(4, four, 0), []int{4}, 2},
		{"wrong sum", header(hdr) + entryLineSum(1, four, entrySum(1, four, nil)+1, 0) + entryLine(2, four, 0), []int{2}, 1},
		{"sum of another batch", header(hdr) + entryLineSum(1, four, entrySum(2, four, nil), 0) + entryLine(2, four, 0), []int{2}, 1},
		{"garbage", header(hdr) + "{\n" + entryLine(5, four, 0), []int{5}, 1},
		{"torn last line", header(hdr) + entryLine(5, four, 0) + strings.TrimSuffix(entryLine(6, four, 0), "\n"), []int{5}, 1},
		{"line of the longest length", header(hdr) + exactly(7, four, maxLine), []int{7}, 0},
		{"line one byte longer", header(hdr) + exactly(7, four, maxLine+1) + entryLine(8, four, 0), []int{8}, 1},
		{"line longer than the reader's buffer", header(hdr) + exactly(7, four, 70000) + entryLine(8, four, 0), []int{8}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), JournalFile)
			if tc.text != "" {
				if err := os.WriteFile(path, []byte(tc.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			j := &Journal{path: path, hdr: hdr, have: map[int][]float64{}, notes: map[int]json.RawMessage{}}
			ignored, err := j.read()
			if err != nil {
				t.Fatal(err)
			}
			var kept []int
			for b := range j.have {
				kept = append(kept, b)
			}
			slices.Sort(kept)
			if !slices.Equal(kept, tc.kept) || ignored != tc.ignored {
				t.Fatalf("kept %v, ignored %d; want %v, %d", kept, ignored, tc.kept, tc.ignored)
			}
			if slices.Contains(kept, 0) && !slices.Equal(j.have[0], four) {
				t.Fatalf("batch 0 read back as %v", j.have[0])
			}
		})
	}
}

// TestNextLine: lines up to limit bytes, the newline counted, are read
// whole; a longer one is skipped to its end and comes back empty; a last
// line without its newline is not ok.
func TestNextLine(t *testing.T) {
	type read struct {
		line string
		ok   bool
	}
	for _, tc := range []struct {
		name  string
		text  string
		limit int
		want  []read
	}{
		{"at the limit", "abcd\nxy\n", 5, []read{{"abcd", true}, {"xy", true}, {"", false}}},
		{"over the limit", "abcde\nxy\n", 5, []read{{"", true}, {"xy", true}, {"", false}}},
		{"torn", "abcd\nxy", 5, []read{{"abcd", true}, {"xy", false}}},
		{"over the limit and the buffer", strings.Repeat("z", 100) + "\nxy\n", 5, []read{{"", true}, {"xy", true}}},
		{"over the limit, torn", strings.Repeat("z", 100), 5, []read{{"", false}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rd := bufio.NewReaderSize(strings.NewReader(tc.text), 16)
			for i, w := range tc.want {
				line, ok := nextLine(rd, tc.limit)
				if string(line) != w.line || ok != w.ok {
					t.Fatalf("read %d: %q, %v; want %q, %v", i, line, ok, w.line, w.ok)
				}
			}
		})
	}
}

// TestJournalAppendSkipsNonFinite: a batch with a result that is not a
// finite number is not journaled (the generation fails on it); the
// others are, and a closed journal takes nothing more.
func TestJournalAppendSkipsNonFinite(t *testing.T) {
	path := filepath.Join(t.TempDir(), JournalFile)
	hdr := JournalHeader{Run: "r", Games: 10, BatchGames: 4}
	j, _, err := OpenJournal(path, hdr)
	if err != nil {
		t.Fatal(err)
	}
	inf := math.Inf(1)
	j.Append(0, []float64{1, 0})
	j.Append(1, []float64{1, inf})
	j.Append(2, []float64{-inf})
	j.Append(3, []float64{math.NaN()})
	j.Append(4, []float64{0.5})
	j.Close()
	j.Append(5, []float64{0.5})
	if err := j.Failure(); err != nil {
		t.Fatal(err)
	}
	again, _, err := OpenJournal(path, hdr)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if got := len(again.have); got != 2 {
		t.Fatalf("%d batches journaled, want 2 (0 and 4)", got)
	}
	for _, b := range []int{0, 4} {
		if _, ok := again.Lookup(b, len(again.have[b])); !ok {
			t.Errorf("batch %d not read back", b)
		}
	}
	if _, ok := again.Lookup(0, 3); ok {
		t.Error("batch 0 read back for a batch of another size")
	}
}

// TestEntrySumCoversEveryBit: an entry's sum changes when any one bit of
// its batch index or of any of its results does, so no single garbled
// bit passes for a result.
func TestEntrySumCoversEveryBit(t *testing.T) {
	results := []float64{0.5, 1, 0, 0.25, 0.75}
	const batch = 12345
	base := entrySum(batch, results, nil)
	for bit := range 64 {
		if entrySum(batch^(1<<bit), results, nil) == base {
			t.Fatalf("bit %d of the batch index is not covered", bit)
		}
		for i := range results {
			flipped := slices.Clone(results)
			flipped[i] = math.Float64frombits(math.Float64bits(flipped[i]) ^ 1<<bit)
			if entrySum(batch, flipped, nil) == base {
				t.Fatalf("bit %d of result %d is not covered", bit, i)
			}
		}
	}
}

// TestJournalWriteFailure: a journal whose writes fail reports it (the
// generation then fails rather than go on unjournaled); the first
// failure is the one reported.
func TestJournalWriteFailure(t *testing.T) {
	j, _, err := OpenJournal(filepath.Join(t.TempDir(), JournalFile), JournalHeader{Games: 10, BatchGames: 4})
	if err != nil {
		t.Fatal(err)
	}
	if err := j.Failure(); err != nil {
		t.Fatalf("a fresh journal: %v", err)
	}
	j.f.Close() // every write fails from here on
	j.Append(0, []float64{1})
	j.Close()
	err = j.Failure()
	if err == nil || !strings.HasPrefix(err.Error(), "rundir: journal "+j.path+": ") || !strings.Contains(err.Error(), "closed") {
		t.Fatalf("Failure() = %v, want the write's error", err)
	}
}

// TestJournalCloseWithoutBegin: closing or removing a journal that was
// never begun does nothing (a run that fails before its first
// generation).
func TestJournalCloseWithoutBegin(t *testing.T) {
	var j *Journal
	j.Close()
	RemoveJournal(t.TempDir(), j)
	j.Append(0, []float64{1})
	if err := j.Failure(); err != nil {
		t.Fatal(err)
	}
	if _, ok := j.Lookup(0, 1); ok {
		t.Fatal("a nil journal holds a batch")
	}
}

// syncRecorder is a journal file that records, in order, its writes ("w")
// and syncs ("s").
type syncRecorder struct {
	JournalWriter
	mu     *sync.Mutex
	events *[]string
}

func (r syncRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	*r.events = append(*r.events, "w")
	r.mu.Unlock()
	return r.JournalWriter.Write(p)
}

func (r syncRecorder) Sync() error {
	r.mu.Lock()
	*r.events = append(*r.events, "s")
	r.mu.Unlock()
	return r.JournalWriter.Sync()
}

// TestJournalSyncsEveryWrite: every write of finished batches to the
// journal is followed by an fsync before the next write or the close,
// so a kill -9 (or a power cut) after a batch is journalled cannot lose
// it.
func TestJournalSyncsEveryWrite(t *testing.T) {
	var mu sync.Mutex
	var events []string
	open := OpenJournalAppend
	t.Cleanup(func() { OpenJournalAppend = open })
	OpenJournalAppend = func(path string) (JournalWriter, error) {
		f, err := open(path)
		if err != nil {
			return nil, err
		}
		return syncRecorder{f, &mu, &events}, nil
	}
	j, _, err := OpenJournal(filepath.Join(t.TempDir(), JournalFile), JournalHeader{Games: 100, BatchGames: 4})
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for b := range 40 {
		wg.Go(func() { j.Append(b, []float64{1, 0.5}) })
	}
	wg.Wait()
	j.Close()
	mu.Lock()
	defer mu.Unlock()
	seq := strings.Join(events, "")
	if !strings.Contains(seq, "w") || strings.Contains(seq, "ww") || strings.HasSuffix(seq, "w") || strings.Contains(seq, "ss") {
		t.Fatalf("journal writes and syncs %q: want each write followed by one sync", seq)
	}
}

// blockedSync is a journal file whose Sync waits for release.
type blockedSync struct {
	JournalWriter
	syncing chan struct{} // a Sync began
	release chan struct{}
}

func (b blockedSync) Sync() error {
	b.syncing <- struct{}{}
	<-b.release
	return b.JournalWriter.Sync()
}

// TestJournalBoundsWhatItHolds: while the disk does not answer (an fsync
// that does not return), Append holds at most MaxPendingJournal bytes of
// lines and then waits, instead of piling a whole generation's results
// up in memory; once the disk answers, every batch is written, in order.
func TestJournalBoundsWhatItHolds(t *testing.T) {
	b := blockedSync{syncing: make(chan struct{}, 1), release: make(chan struct{})}
	open := OpenJournalAppend
	t.Cleanup(func() { OpenJournalAppend = open })
	OpenJournalAppend = func(path string) (JournalWriter, error) {
		f, err := open(path)
		if err != nil {
			return nil, err
		}
		b.JournalWriter = f
		return b, nil
	}
	path := filepath.Join(t.TempDir(), JournalFile)
	j, _, err := OpenJournal(path, JournalHeader{Games: 1 << 20, BatchGames: 1})
	if err != nil {
		t.Fatal(err)
	}
	j.maxPending = 1 << 10 // lines of about 60 bytes: some twenty fit
	j.Append(0, []float64{1})
	<-b.syncing // the writer holds batch 0 and waits on the disk
	const batches = 200
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 1; i < batches; i++ {
			j.Append(i, []float64{float64(i)})
		}
	}()
	for waited := false; !waited; {
		select {
		case <-done:
			t.Fatal("every Append returned while the disk held the first line: the journal holds all it is given")
		default:
		}
		j.mu.Lock()
		held := len(j.pending)
		waited = j.waiting == 1
		j.mu.Unlock()
		if held > j.maxPending+100 {
			t.Fatalf("the journal holds %d bytes, want at most about %d", held, j.maxPending)
		}
		runtime.Gosched()
	}
	go func() {
		for range b.syncing {
		}
	}()
	close(b.release)
	<-done
	j.Close()
	close(b.syncing)
	j2, _, err := OpenJournal(path, JournalHeader{Games: 1 << 20, BatchGames: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer j2.Close()
	for i := range batches {
		want := float64(i)
		if i == 0 {
			want = 1
		}
		if r, ok := j2.Lookup(i, 1); !ok || r[0] != want {
			t.Fatalf("batch %d: %v %v after the disk answered", i, r, ok)
		}
	}
}
