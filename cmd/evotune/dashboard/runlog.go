package dashboard

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/evotune/evotune/engine/config"
)

// logLimit is how much of run.log's end is read: about 20,000 generation
// lines, far more than a chart shows.
const logLimit = 4 << 20

// runLog is what the dashboard reads of run.log: the lines the engine
// writes per generation and per start, and the coordinator's worker
// status lines.
type runLog struct {
	Cut    bool         // the log was longer than logLimit: its start is not read
	Gens   []logGen     // per generation, the latest line for it (main species)
	Budget int          // the budget of the latest start or resume; 0 if none read
	Events []logEvent   // start, resume, stop, finish, abandon
	Finish bool         // the latest event is "finished"
	Work   []workerLine // worker status lines, oldest first
}

type logGen struct {
	Gen     int
	At      time.Time
	Games   int
	Seconds float64
	Rate    float64 // games per second
}

type logEvent struct {
	At   time.Time
	Text string
}

// workerLine is one status line of a coordinator's pool (cli's
// poolStatus): "workers: 2 connected; batches: 5 in flight, 59 of 64 done,
// 3 redelivered".
type workerLine struct {
	At          time.Time
	Connected   int // -1 when not known
	InFlight    int
	Done, Total int
	Redelivered int // -1 when not recorded
}

var (
	genLine = regexp.MustCompile(`^generation (\d+)/(\d+)(?: \([a-z]+\))?: best .* (\d+) games in ([0-9.]+)s \(([0-9.]+) games/s\)$`)
	// The rivals' lines carry their label; the dashboard's rates are the
	// main species' (both are the same games).
	rivalsLine = regexp.MustCompile(`^generation \d+/\d+ \(`)
	startLine  = regexp.MustCompile(`^start .*, (\d+) generations?, \d+ workers?$`)
	resumeLine = regexp.MustCompile(`^resume .* at generation \d+ of (\d+), `)
	workLine   = regexp.MustCompile(`^workers: (\d+|unknown) connected; batches: (\d+) in flight, (\d+) of (\d+) done(?:, (\d+) redelivered)?`)
)

// parseLog reads the lines of data (the end of run.log): complete lines
// only, so a line being appended is not read half; when cut, the first
// line, which may be a partial one, is dropped too.
func parseLog(data []byte, cut bool) runLog {
	l := runLog{Cut: cut}
	if i := bytes.LastIndexByte(data, '\n'); i >= 0 {
		data = data[:i+1]
	} else {
		data = nil
	}
	lines := strings.Split(string(data), "\n")
	if cut && len(lines) > 0 {
		lines = lines[1:]
	}
	index := map[int]int{}
	for _, line := range lines {
		stamp, text, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		at, err := time.Parse(time.RFC3339, stamp)
		if err != nil {
			continue
		}
		switch {
		case genLine.MatchString(text):
			if rivalsLine.MatchString(text) {
				continue
			}
			m := genLine.FindStringSubmatch(text)
			g := logGen{At: at}
			var err error
			if g.Gen, err = strconv.Atoi(m[1]); err != nil || g.Gen < 1 || g.Gen > config.MaxGenerations {
				continue // not a line evotune wrote
			}
			g.Games, _ = strconv.Atoi(m[3])
			g.Seconds, _ = strconv.ParseFloat(m[4], 64)
			g.Rate, _ = strconv.ParseFloat(m[5], 64)
			if i, seen := index[g.Gen]; seen {
				l.Gens[i] = g // a generation played again after a resume
			} else {
				index[g.Gen] = len(l.Gens)
				l.Gens = append(l.Gens, g)
			}
		case startLine.MatchString(text):
			l.Budget = budget(startLine.FindStringSubmatch(text)[1])
			l.event(at, text)
		case resumeLine.MatchString(text):
			l.Budget = budget(resumeLine.FindStringSubmatch(text)[1])
			l.event(at, text)
		case strings.HasPrefix(text, "finished "), strings.HasPrefix(text, "stopped after"), strings.Contains(text, " abandoned: "):
			l.event(at, text)
		case workLine.MatchString(text):
			m := workLine.FindStringSubmatch(text)
			w := workerLine{At: at, Connected: -1, Redelivered: -1}
			if m[1] != "unknown" {
				w.Connected, _ = strconv.Atoi(m[1])
			}
			w.InFlight, _ = strconv.Atoi(m[2])
			w.Done, _ = strconv.Atoi(m[3])
			w.Total, _ = strconv.Atoi(m[4])
			if m[5] != "" {
				w.Redelivered, _ = strconv.Atoi(m[5])
			}
			l.Work = append(l.Work, w)
		}
	}
	return l
}

// budget reads a generation budget, 0 when it is not one evotune allows.
func budget(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > config.MaxGenerations {
		return 0
	}
	return n
}

func (l *runLog) event(at time.Time, text string) {
	l.Events = append(l.Events, logEvent{At: at, Text: text})
	l.Finish = strings.HasPrefix(text, "finished ")
}
