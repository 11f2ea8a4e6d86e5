package dashboard

import (
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/internal/plot"
)

// test is a sequential test's state file (evotune sprt --output) as the
// dashboard read it.
type test struct {
	entry
	St  *sprtfile.State
	Err error
	// State is the file's, but a test "in progress" whose process has
	// ended is "stopped": it was killed before it could say so.
	State   string
	Ended   bool // the process the file names is gone
	Updated time.Time
}

// Class is the state's badge class: a test in progress looks like a run
// running.
func (t *test) Class() string { return stateClass(t.State) }

func stateClass(state string) string {
	if state == sprtfile.InProgress {
		return string(Running)
	}
	return state
}

// readTest reads the test e.
func readTest(e entry) *test {
	t := &test{entry: e}
	t.St, t.Err = sprtfile.Read(e.abs)
	if fi, err := os.Lstat(e.abs); err == nil {
		t.Updated = fi.ModTime()
	}
	if t.St == nil {
		t.State = "unreadable"
		return t
	}
	t.State = t.St.State
	if t.State == sprtfile.InProgress && !sprtfile.Alive(t.St.PID) {
		t.State, t.Ended = sprtfile.Stopped, true
	}
	return t
}

// testVersion changes when the file is replaced or its process ends.
func testVersion(e entry) string {
	v := identity(e.abs)
	if st, err := sprtfile.Read(e.abs); err == nil && st.State == sprtfile.InProgress {
		v += fmt.Sprint("|", sprtfile.Alive(st.PID))
	}
	return v
}

// testRow is a test in the list.
type testRow struct {
	ID, Label, Game, Players, State, Class, PID string
	Games, LLR, Estimate                        string
	Updated, UpdatedISO, Problem                string
}

func testRowOf(t *test) testRow {
	row := testRow{ID: t.id, Label: t.name, State: t.State, Class: t.Class()}
	if !t.Updated.IsZero() {
		row.Updated = t.Updated.Format("2006-01-02 15:04:05")
		row.UpdatedISO = t.Updated.UTC().Format(time.RFC3339)
	}
	if t.Err != nil {
		row.Problem = cleanText(t.Err.Error())
	}
	st := t.St
	if st == nil {
		return row
	}
	row.Game, row.Players = cleanText(st.Game), cleanText(st.A+" vs "+st.B)
	if t.State == sprtfile.InProgress {
		row.PID = fmt.Sprint(st.PID)
	}
	row.Games = grouped(st.Games)
	row.LLR = fmt.Sprintf("%+.2f [%.2f, %.2f]", st.LLR, st.Bounds[0], st.Bounds[1])
	row.Estimate = estimateText(st)
	return row
}

func estimateText(st *sprtfile.State) string {
	if e := st.Estimate; e != nil {
		return fmt.Sprintf("%s [%s, %s] %s", plot.Num(e.Value), plot.Num(e.CI95[0]), plot.Num(e.CI95[1]), cleanText(st.Unit))
	}
	return ""
}

// testPage is a test's page.
type testPage struct {
	Test     *test
	Title    string
	Subtitle string
	Problem  string
	Cards    []card
	Panels   []panel
}

func (s *Server) testPage(t *test) testPage {
	p := testPage{Test: t, Title: "sprt " + t.name}
	if t.Err != nil {
		p.Problem = cleanText(t.Err.Error())
	}
	st := t.St
	if st == nil {
		return p
	}
	p.Title = cleanText(fmt.Sprintf("sprt: %s vs %s", st.A, st.B))
	p.Subtitle = cleanText(fmt.Sprintf("%s · %s test · H0 %g, H1 %g %s · alpha %g, beta %g · seed %d", st.Game, st.Kind, st.H0, st.H1, st.Unit, st.Alpha, st.Beta, st.Seed))
	if t.Ended {
		p.Problem = fmt.Sprintf("the process that ran this test (pid %d) has ended without a verdict: it was killed or the machine stopped; run the same command again to test anew", st.PID)
	}
	count, quantity := "games", fmt.Sprintf("%s of A against B", st.Unit)
	if st.Kind == "paired difference" {
		count, quantity = "deals", fmt.Sprintf("mean of A - B, %s", st.Unit)
	}
	verdict, means := st.Verdict, ""
	switch verdict {
	case "":
		verdict = "none yet"
	case "H1 accepted":
		means = fmt.Sprintf("nearer %g (H1) than %g (H0)", st.H1, st.H0)
	case "H0 accepted":
		means = fmt.Sprintf("nearer %g (H0) than %g (H1)", st.H0, st.H1)
	}
	est := card{ID: "estimate", Label: cleanText(quantity), Value: "-", Note: "no batch yet"}
	if e := st.Estimate; e != nil {
		est.Value, est.Note = plot.Num(e.Value), fmt.Sprintf("95%% interval [%s, %s]", plot.Num(e.CI95[0]), plot.Num(e.CI95[1]))
	}
	p.Cards = []card{
		{ID: "llr", Label: "LLR", Value: fmt.Sprintf("%+.2f", st.LLR), Note: fmt.Sprintf("H0 accepted at %.2f, H1 at %.2f", st.Bounds[0], st.Bounds[1])},
		est,
		{ID: "games", Label: count, Value: grouped(st.Games), Note: "of at most " + grouped(st.MaxGames)},
		{ID: "verdict", Label: "verdict", Value: verdict, Note: means},
	}
	if st.Kind == "paired difference" {
		p.Cards[2].Note += ", each played by A and by B"
	}
	if st.Estimate == nil && st.Games > 0 {
		p.Cards[1].Value, p.Cards[1].Note = "not finite", "every pair went one way: Elo has no finite estimate yet"
	}
	llr := make([]float64, len(st.Batches))
	for i, b := range st.Batches {
		llr[i] = b.LLR
	}
	per := ""
	if len(st.Batches) > 0 {
		per = fmt.Sprintf(" of %d %s", st.Batches[0].Games, count)
	}
	ch := plot.Chart{Title: "log-likelihood ratio after each batch", YLabel: "LLR", XLabel: "batch" + per, ID: "llr", Width: 1180, Height: 360,
		Lines: []plot.Line{{Name: "LLR", Colour: plot.Series[0], Y: llr, Core: true}},
		Refs: []plot.Ref{
			{Name: fmt.Sprintf("H1 accepted above %.2f", st.Bounds[1]), Value: st.Bounds[1], Colour: plot.Series[2]},
			{Name: fmt.Sprintf("H0 accepted below %.2f", st.Bounds[0]), Value: st.Bounds[0], Colour: plot.Series[1]},
		}}
	p.Panels = append(p.Panels, panel{ID: "llr-panel", Title: "LLR against its bounds",
		Note: "the test stops when the LLR leaves the band between the bounds", Body: template.HTML(ch.SVG())})
	return p
}

// testOf reads the test a request names (?t=ID), or says why not.
func (s *Server) testOf(w http.ResponseWriter, req *http.Request) (*test, bool) {
	e, ok := s.entryOf(w, req.URL.Query().Get("t"))
	if !ok {
		return nil, false
	}
	if !e.sprt {
		s.fail(w, http.StatusNotFound, e.dir+": not an sprt state file")
		return nil, false
	}
	return readTest(e), true
}

func (s *Server) testPageHandler(w http.ResponseWriter, req *http.Request) {
	t, ok := s.testOf(w, req)
	if !ok {
		return
	}
	p := s.testPage(t)
	s.page(w, http.StatusOK, layout{Title: p.Title, Content: s.fragment("sprt", p), Live: "t=" + url.QueryEscape(t.id),
		Frag: s.base + "fragment/sprt?t=" + url.QueryEscape(t.id), Version: digest(testVersion(t.entry))})
}

func (s *Server) testFragment(w http.ResponseWriter, req *http.Request) {
	t, ok := s.testOf(w, req)
	if !ok {
		return
	}
	s.writeFragment(w, s.fragment("sprt", s.testPage(t)), digest(testVersion(t.entry)))
}
