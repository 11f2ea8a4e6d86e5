package dashboard

import (
	"bytes"
	"html/template"
	"maps"
	"os"
	"path/filepath"
	"slices"

	"github.com/evotune/evotune/fitness"
	"github.com/evotune/evotune/rundir"
)

// faultsTemplate draws the games a run's players lost to faults, by
// generation, player and kind, and the files of the games it kept.
var faultsTemplate = template.Must(template.New("faults").Parse(`<table class="faults" id="faults">
<thead><tr><th class="num">generation</th><th>player</th>{{range .Kinds}}<th class="num">{{.}}</th>{{end}}</tr></thead>
<tbody>{{range .Rows}}<tr><td class="num">{{.Generation}}</td><td>{{.Player}}</td>{{range .Counts}}<td class="num">{{if .}}{{.}}{{end}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{if .Records}}<p class="note">kept games (a fault's, and the record: share of the rest), each replayed by <code>evotune replay FILE --game N</code>:</p>
<ul class="records">{{range .Records}}<li><code>{{.}}</code></li>{{end}}</ul>{{end}}`))

type faultRow struct {
	Generation int
	Player     string
	Counts     []int
}

// faultsPanel shows the games lost to faults (a run of engines or bots),
// from the checkpoint's history: none, no panel.
func faultsPanel(s *Server, r *run) (panel, bool) {
	if r.Ins == nil || r.Ins.Checkpoint == nil {
		return panel{}, false
	}
	var data struct {
		Kinds   []string
		Rows    []faultRow
		Records []string
	}
	for _, k := range fitness.Faults() {
		data.Kinds = append(data.Kinds, k.String())
	}
	total := 0
	for _, h := range r.Ins.Checkpoint.History {
		for _, p := range slices.Sorted(maps.Keys(h.Faults)) {
			row := faultRow{Generation: h.Generation, Player: p}
			for _, k := range data.Kinds {
				row.Counts = append(row.Counts, h.Faults[p][k])
				total += h.Faults[p][k]
			}
			data.Rows = append(data.Rows, row)
		}
	}
	if entries, err := os.ReadDir(r.dir); err == nil {
		for _, e := range entries {
			if e.Type().IsRegular() && rundir.IsRecordFile(e.Name()) {
				data.Records = append(data.Records, filepath.Join(r.dir, e.Name()))
			}
		}
	}
	if total == 0 && len(data.Records) == 0 {
		return panel{}, false
	}
	var b bytes.Buffer
	if err := faultsTemplate.Execute(&b, data); err != nil {
		return panel{}, false
	}
	return panel{ID: "faults-panel", Title: "games lost to faults", Note: "each a loss for the player that faulted, by kind",
		Body: template.HTML(b.String())}, true // html/template escaped it
}
