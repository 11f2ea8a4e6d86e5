package engine

import (
	"encoding/json"
	"slices"
	"testing"
)

func TestProgramChangesNameWhatChanged(t *testing.T) {
	desc := func(s string) json.RawMessage { return json.RawMessage(s) }
	base := &ProgramRecord{
		Argv:        []string{"python3", "pig.py"},
		Description: desc(`{"game":"pig","players":[{"name":"tuned","role":"mover","params":[{"name":"hold","max":60}]},{"name":"hold20","role":"mover","params":[]}]}`),
		Files:       map[string]string{"python3": "aa", "pig.py": "bb"},
	}
	tests := []struct {
		name string
		now  ProgramRecord
		want []string
	}{
		{"same, spaced differently", ProgramRecord{Description: desc(`{"game": "pig", "players": [{"name": "tuned", "role": "mover", "params": [{"name": "hold", "max": 60}]}, {"name":"hold20","role":"mover","params":[]}]}`),
			Files: map[string]string{"python3": "aa", "pig.py": "bb"}}, nil},
		{"script edited", ProgramRecord{Description: base.Description, Files: map[string]string{"python3": "aa", "pig.py": "cc"}},
			[]string{"file pig.py was edited"}},
		{"script gone, another new", ProgramRecord{Description: base.Description, Files: map[string]string{"python3": "aa", "bot.py": "bb"}},
			[]string{"file pig.py is gone", "file bot.py is new"}},
		{"schema widened", ProgramRecord{Description: desc(`{"game":"pig","players":[{"name":"tuned","role":"mover","params":[{"name":"hold","max":90}]},{"name":"hold20","role":"mover","params":[]}]}`),
			Files: base.Files}, []string{"the announced description: players (mover tuned)"}},
		{"game renamed", ProgramRecord{Description: desc(`{"game":"pig2","players":[{"name":"tuned","role":"mover","params":[{"name":"hold","max":60}]},{"name":"hold20","role":"mover","params":[]}]}`),
			Files: base.Files}, []string{"the announced description: game"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := programChanges(base, &tc.now); !slices.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
