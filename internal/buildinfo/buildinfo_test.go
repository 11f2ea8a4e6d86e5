package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
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
			if len(got.Settings) != 16 {
				t.Fatalf("settings digest %q", got.Settings)
			}
			got.Settings = ""
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

// TestSettingsDigest: the digest of the build settings changes with what
// can change results (flags, tags, the architecture's level) and not with
// the VCS fields, -trimpath or their order.
func TestSettingsDigest(t *testing.T) {
	base := []debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "GOARCH", Value: "amd64"}, {Key: "GOOS", Value: "linux"}, {Key: "GOAMD64", Value: "v1"}}
	digest := func(settings ...debug.BuildSetting) string {
		return fromBuildInfo(&debug.BuildInfo{GoVersion: "go1.26.8", Settings: settings}).Settings
	}
	want := digest(base...)
	same := [][]debug.BuildSetting{
		{base[3], base[2], base[1], base[0]},
		append(base[:4:4], debug.BuildSetting{Key: "vcs.revision", Value: "abc"}, debug.BuildSetting{Key: "vcs.modified", Value: "true"}),
		append(base[:4:4], debug.BuildSetting{Key: "-trimpath", Value: "true"}),
	}
	for i, set := range same {
		if got := digest(set...); got != want {
			t.Errorf("same %d: %s, want %s", i, got, want)
		}
	}
	other := [][]debug.BuildSetting{
		append(base[:4:4], debug.BuildSetting{Key: "-gcflags", Value: "-N -l"}),
		append(base[:4:4], debug.BuildSetting{Key: "-tags", Value: "purego"}),
		{base[0], base[1], base[2], {Key: "GOAMD64", Value: "v3"}},
		append(base[:4:4], debug.BuildSetting{Key: "-ldflags", Value: "-X main.salt=1"}),
	}
	for i, set := range other {
		if got := digest(set...); got == want {
			t.Errorf("other %d: the digest of %v is the base's", i, set)
		}
	}
}

// TestCompatible: a worker is accepted when it runs the coordinator's
// very binary, or a build of the same clean commit, Go, platform and
// settings; otherwise refused with the difference and both builds named.
func TestCompatible(t *testing.T) {
	coord := Info{Version: "v0.1.0", Revision: "e0c60344602303d147d87cd6774019422bc3378e", Go: "go1.26.8", OS: "linux", Arch: "amd64",
		ArchLevel: "GOAMD64=v1", Settings: "0123456789abcdef", Executable: strings.Repeat("a", 64)}
	with := func(f func(*Info)) Info { w := coord; w.Executable = strings.Repeat("b", 64); f(&w); return w }
	unread := func(in Info) Info { in.Executable = ""; return in }
	tests := []struct {
		name   string
		c, w   Info
		refuse string // "" to accept
	}{
		{"the very binary", coord, coord, ""},
		{"the very binary, of no known commit", with(func(w *Info) { w.Revision = "" }), with(func(w *Info) { w.Revision = "" }), ""},
		{"a rebuild of the same clean commit", coord, with(func(*Info) {}), ""},
		{"a rebuild elsewhere, the binary unread", coord, with(func(w *Info) { w.Executable = "" }), ""},
		{"another architecture", coord, with(func(w *Info) { w.Arch, w.ArchLevel = "arm64", "GOARM64=v8.0" }), "another architecture"},
		{"another level", coord, with(func(w *Info) { w.ArchLevel = "GOAMD64=v3" }), "another architecture"},
		{"another operating system", coord, with(func(w *Info) { w.OS = "darwin" }), "another operating system"},
		{"another Go", coord, with(func(w *Info) { w.Go = "go1.26.9" }), "another Go version"},
		{"another commit", coord, with(func(w *Info) { w.Revision = strings.Repeat("f", 40) }), "another commit"},
		{"no known commit", coord, with(func(w *Info) { w.Revision = "" }), "of no known commit"},
		{"uncommitted changes", coord, with(func(w *Info) { w.Modified = true }), "uncommitted changes"},
		{"the coordinator's uncommitted changes", func() Info { c := coord; c.Modified = true; return c }(), with(func(*Info) {}), "uncommitted changes"},
		{"other settings", coord, with(func(w *Info) { w.Settings = "fedcba9876543210" }), "other build settings"},
		// Neither binary could be read: equal empty hashes say nothing,
		// and every other field must still agree.
		{"two binaries unread, of one clean commit", unread(coord), unread(with(func(*Info) {})), ""},
		{"two binaries unread, another commit", unread(coord), unread(with(func(w *Info) { w.Revision = strings.Repeat("f", 40) })), "another commit"},
		{"two binaries unread, another Go", unread(coord), unread(with(func(w *Info) { w.Go = "go1.26.9" })), "another Go version"},
		{"two binaries unread, another architecture", unread(coord), unread(with(func(w *Info) { w.Arch = "arm64" })), "another architecture"},
		{"two binaries unread, another level", unread(coord), unread(with(func(w *Info) { w.ArchLevel = "GOAMD64=v3" })), "another architecture"},
		{"two binaries unread, another system", unread(coord), unread(with(func(w *Info) { w.OS = "freebsd" })), "another operating system"},
		{"two binaries unread, uncommitted changes", unread(coord), unread(with(func(w *Info) { w.Modified = true })), "uncommitted changes"},
		{"two binaries unread, other settings", unread(coord), unread(with(func(w *Info) { w.Settings = "fedcba9876543210" })), "other build settings"},
		{"two binaries unread, of no known commit", unread(with(func(w *Info) { w.Revision = "" })), unread(with(func(w *Info) { w.Revision = "" })), "of no known commit"},
		{"the coordinator's binary unread, another commit", unread(coord), with(func(w *Info) { w.Revision = strings.Repeat("f", 40) }), "another commit"},
		{"the worker's binary unread, another Go", coord, unread(with(func(w *Info) { w.Go = "go1.26.9" })), "another Go version"},
		{"the very binary, another commit claimed", coord, func() Info { w := coord; w.Revision = strings.Repeat("f", 40); return w }(), ""},
		{"an unknown coordinator", Info{}, coord, "the coordinator's build is unknown"},
		{"an unknown worker", coord, Info{}, "the worker's build is unknown"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := Compatible(tc.c, tc.w)
			if tc.refuse == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !errors.Is(err, ErrOtherBuild) || !strings.Contains(err.Error(), tc.refuse) ||
				!strings.Contains(err.Error(), "this worker is "+tc.w.Short()) || !strings.Contains(err.Error(), "the coordinator is "+tc.c.Short()) {
				t.Fatalf("%v; want a refusal for %s naming both builds", err, tc.refuse)
			}
		})
	}
	if got := coord.Short(); got != "evotune v0.1.0, commit e0c603446023, go1.26.8 linux/amd64, binary aaaaaaaaaaaa" {
		t.Errorf("Short: %q", got)
	}
}

// TestOwnHashesTheBinary: Own's executable digest is the SHA-256 of the
// running binary's file, and version's text names it.
func TestOwnHashesTheBinary(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		t.Skip(err)
	}
	sum := sha256.Sum256(data)
	in := Own()
	if in.Executable != hex.EncodeToString(sum[:]) || !strings.Contains(in.String(), "\nbinary:   sha256 "+in.Executable+"\n") {
		t.Fatalf("%+v", in)
	}
	if Read().Executable != "" {
		t.Fatal("Read hashes the binary; only Own should")
	}
}

// TestShortEscapes: a build announced over the network is printed with
// its control characters escaped and its fields cut short.
func TestShortEscapes(t *testing.T) {
	in := Info{Version: "v1\x1b[2J", Revision: strings.Repeat("ab", 100), Go: "go1.26.8\n", OS: "linux", Arch: "amd64"}
	got := in.Short()
	if strings.ContainsAny(got, "\x1b\n") || !strings.Contains(got, `v1\x1b[2J`) || !strings.Contains(got, `go1.26.8\n`) {
		t.Fatalf("%q", got)
	}
}
