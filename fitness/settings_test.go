package fitness_test

import (
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/evotune/evotune/fitness"
)

func TestSplitSpec(t *testing.T) {
	for _, tc := range []struct {
		spec string
		want fitness.Spec
		err  string
	}{
		{spec: "aenigma", want: fitness.Spec{Name: "aenigma"}},
		{spec: "tuned:best.yaml", want: fitness.Spec{Name: "tuned", File: "best.yaml", HasFile: true}},
		{spec: "tuned:", want: fitness.Spec{Name: "tuned", HasFile: true}},
		{spec: "aenigma@depth=6", want: fitness.Spec{Name: "aenigma", Settings: fitness.Settings{"depth": "6"}}},
		{spec: "tuned@depth=3, nodes = 500:runs/a@b:c.yaml",
			want: fitness.Spec{Name: "tuned", Settings: fitness.Settings{"depth": "3", "nodes": "500"}, File: "runs/a@b:c.yaml", HasFile: true}},
		{spec: "tuned:my@file.yaml", want: fitness.Spec{Name: "tuned", File: "my@file.yaml", HasFile: true}},
		{spec: "aenigma@", err: `player spec "aenigma@": no settings after @; want aenigma@KEY=VALUE, such as aenigma@depth=4`},
		{spec: "aenigma@depth", err: `player spec "aenigma@depth": setting "depth": want KEY=VALUE, such as depth=4`},
		{spec: "aenigma@=4", err: `player spec "aenigma@=4": setting "=4": want KEY=VALUE`},
		{spec: "aenigma@depth=", err: `player spec "aenigma@depth=": setting "depth=": want KEY=VALUE`},
		{spec: "aenigma@depth=3,,nodes=2", err: `setting "": want KEY=VALUE`},
		{spec: "aenigma@depth=3,depth=4", err: `player spec "aenigma@depth=3,depth=4": setting depth given twice`},
		// The nearest wrong ones, and the nearest right.
		{spec: "aenigma@depth=3, depth =4", err: `setting depth given twice`},
		{spec: "aenigma@depth=3,", err: `setting "": want KEY=VALUE`},
		{spec: "aenigma@,depth=3", err: `setting "": want KEY=VALUE`},
		{spec: "aenigma@depth= ", err: `setting "depth= ": want KEY=VALUE`},
		{spec: "aenigma@ =3", err: `setting " =3": want KEY=VALUE`},
		{spec: "aenigma@ depth = 3 ", want: fitness.Spec{Name: "aenigma", Settings: fitness.Settings{"depth": "3"}}},
		{spec: "tuned@depth=3:", want: fitness.Spec{Name: "tuned", Settings: fitness.Settings{"depth": "3"}, HasFile: true}},
		// A guest's name holds its kind's colon; the next colon is the file's.
		{spec: "uci:dev", want: fitness.Spec{Name: "uci:dev"}},
		{spec: "bot:mine", want: fitness.Spec{Name: "bot:mine"}},
		{spec: "uci:dev@nodes=4000", want: fitness.Spec{Name: "uci:dev", Settings: fitness.Settings{"nodes": "4000"}}},
		{spec: "uci:dev:best.yaml", want: fitness.Spec{Name: "uci:dev", File: "best.yaml", HasFile: true}},
		{spec: "uci:dev@depth=3:runs/a:b.yaml",
			want: fitness.Spec{Name: "uci:dev", Settings: fitness.Settings{"depth": "3"}, File: "runs/a:b.yaml", HasFile: true}},
		{spec: "uci:", err: `player spec "uci:": no name after uci:; want uci:NAME`},
		{spec: "uci:@nodes=1", err: `no name after uci:`},
		// Near misses: a kind not at the start, or another word, is a name and a file.
		{spec: "ucix:dev", want: fitness.Spec{Name: "ucix", File: "dev", HasFile: true}},
		{spec: "uc:dev", want: fitness.Spec{Name: "uc", File: "dev", HasFile: true}},
		{spec: "tuned:uci:dev", want: fitness.Spec{Name: "tuned", File: "uci:dev", HasFile: true}},
		{spec: "UCI:dev", want: fitness.Spec{Name: "UCI", File: "dev", HasFile: true}},
	} {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := fitness.SplitSpec(tc.spec)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || got.Name != tc.want.Name || got.File != tc.want.File || got.HasFile != tc.want.HasFile ||
				!maps.Equal(got.Settings, tc.want.Settings) {
				t.Fatalf("got %+v, %v; want %+v", got, err, tc.want)
			}
		})
	}
}

// FuzzSplitSpec: no spec panics the splitter, and a spec it accepts
// writes back (Spec.String) to one that splits the same.
func FuzzSplitSpec(f *testing.F) {
	for _, s := range []string{"aenigma", "tuned@depth=3,nodes=500:best.yaml", "a@b=c@d:e@f", "x@=", "@depth=2:f", ":", "uci:dev@nodes=5:f", "bot:x:y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		sp, err := fitness.SplitSpec(spec)
		if err != nil {
			return
		}
		again, err := fitness.SplitSpec(sp.String())
		if err != nil {
			t.Fatalf("%q split as %+v, written back as %q, which fails: %v", spec, sp, sp.String(), err)
		}
		if again.Name != sp.Name || again.File != sp.File || again.HasFile != sp.HasFile || !maps.Equal(again.Settings, sp.Settings) {
			t.Fatalf("%q: %+v, then %+v", spec, sp, again)
		}
	})
}

func ExampleSplitSpec() {
	sp, err := fitness.SplitSpec("tuned@depth=3,nodes=50000:runs/hadron/best.yaml")
	if err != nil {
		panic(err)
	}
	fmt.Println(sp.Name, sp.Settings["depth"], sp.Settings["nodes"], sp.File)
	fmt.Println(sp)
	// Output:
	// tuned 3 50000 runs/hadron/best.yaml
	// tuned@depth=3,nodes=50000:runs/hadron/best.yaml
}
