package buildinfo

import (
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func TestFromBuildInfo(t *testing.T) {
	tests := []struct {
		name     string
		settings []debug.BuildSetting
		version  string
		want     Info
		text     string
	}{
		{
			name:    "a clean checkout",
			version: "v0.0.0-20261127012858-e0c603446023",
			settings: []debug.BuildSetting{
				{Key: "GOARCH", Value: "amd64"}, {Key: "GOOS", Value: "linux"}, {Key: "GOAMD64", Value: "v1"},
				{Key: "vcs.revision", Value: "e0c60344602303d147d87cd6774019422bc3378e"},
				{Key: "vcs.time", Value: "2026-11-27T01:28:58Z"}, {Key: "vcs.modified", Value: "false"},
			},
			want: Info{Module: "github.com/evotune/evotune", Version: "v0.0.0-20261127012858-e0c603446023",
				Revision: "e0c60344602303d147d87cd6774019422bc3378e", Time: "2026-11-27T01:28:58Z",
				Go: "go1.26.8", OS: "linux", Arch: "amd64", ArchLevel: "GOAMD64=v1"},
			text: "evotune v0.0.0-20261127012858-e0c603446023\ncommit:   e0c603446023 of 2026-11-27\ngo:       go1.26.8\nplatform: linux/amd64\n",
		},
		{
			name:    "uncommitted changes, another level",
			version: "(devel)",
			settings: []debug.BuildSetting{
				{Key: "GOARCH", Value: "amd64"}, {Key: "GOOS", Value: "darwin"}, {Key: "GOAMD64", Value: "v3"},
				{Key: "vcs.revision", Value: "e0c60344602303d147d87cd6774019422bc3378e"},
				{Key: "vcs.time", Value: "2026-11-27T01:28:58Z"}, {Key: "vcs.modified", Value: "true"},
			},
			want: Info{Module: "github.com/evotune/evotune", Version: "(devel)",
				Revision: "e0c60344602303d147d87cd6774019422bc3378e", Time: "2026-11-27T01:28:58Z", Modified: true,
				Go: "go1.26.8", OS: "darwin", Arch: "amd64", ArchLevel: "GOAMD64=v3"},
			text: "evotune (devel)\ncommit:   e0c603446023 of 2026-11-27, with uncommitted changes\ngo:       go1.26.8\nplatform: darwin/amd64 (GOAMD64=v3)\n",
		},
		{
			name:     "no VCS stamping",
			settings: []debug.BuildSetting{{Key: "GOARCH", Value: "arm64"}, {Key: "GOOS", Value: "linux"}, {Key: "GOARM64", Value: "v8.0"}},
			want:     Info{Module: "github.com/evotune/evotune", Version: "(devel)", Go: "go1.26.8", OS: "linux", Arch: "arm64", ArchLevel: "GOARM64=v8.0"},
			text:     "evotune (devel)\ncommit:   unknown (built without VCS information)\ngo:       go1.26.8\nplatform: linux/arm64\n",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Path: "github.com/evotune/evotune", Version: tc.version}, Settings: tc.settings}
			got := fromBuildInfo(bi)
			if got != tc.want {
				t.Fatalf("got  %+v\nwant %+v", got, tc.want)
			}
			if s := got.String(); s != tc.text {
				t.Fatalf("text %q, want %q", s, tc.text)
			}
		})
	}
}

// TestReadIsThisBinary: the running binary's own build, as the runtime
// knows it.
func TestReadIsThisBinary(t *testing.T) {
	in := Read()
	if in.Go != runtime.Version() || in.OS != runtime.GOOS || in.Arch != runtime.GOARCH {
		t.Fatalf("%+v; want %s %s/%s", in, runtime.Version(), runtime.GOOS, runtime.GOARCH)
	}
	if !strings.HasPrefix(in.String(), "evotune ") {
		t.Fatalf("%q", in.String())
	}
}
