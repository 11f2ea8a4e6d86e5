// Package buildinfo says which build of evotune is running: the module
// version, the VCS revision it was built from and whether the tree had
// uncommitted changes, the Go version, and the OS and architecture. It
// reads what the Go toolchain recorded in the binary
// (runtime/debug.ReadBuildInfo), so it needs no build flags.
package buildinfo

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"
)

// Info is what a binary says of its build.
type Info struct {
	Module   string `json:"module"`   // the main module's path
	Version  string `json:"version"`  // the module version, "(devel)" when built in a checkout without VCS stamping
	Revision string `json:"revision"` // the VCS revision, "" when the build was not stamped
	Time     string `json:"time"`     // the revision's commit time (RFC 3339), "" when not stamped
	Modified bool   `json:"modified"` // the tree had uncommitted changes
	Go       string `json:"go"`       // the Go toolchain's version
	OS       string `json:"os"`
	Arch     string `json:"arch"`
	// ArchLevel is the architecture's feature level the build targets
	// (GOAMD64=v3, GOARM64=v8.0, ...), "" where the build records none.
	// It matters to results: the compiler fuses multiply-adds only where
	// the level provides the instruction.
	ArchLevel string `json:"arch_level,omitempty"`
}

// Read returns the running binary's build information. A binary without
// build information (never the case for the go command's builds) reports
// the runtime's Go version, OS and architecture only.
func Read() Info {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Info{Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	}
	return fromBuildInfo(bi)
}

// fromBuildInfo reads an Info out of the toolchain's record.
func fromBuildInfo(bi *debug.BuildInfo) Info {
	in := Info{Module: bi.Main.Path, Version: bi.Main.Version, Go: bi.GoVersion, OS: runtime.GOOS, Arch: runtime.GOARCH}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			in.Revision = s.Value
		case "vcs.time":
			in.Time = s.Value
		case "vcs.modified":
			in.Modified = s.Value == "true"
		case "GOOS":
			in.OS = s.Value
		case "GOARCH":
			in.Arch = s.Value
		}
	}
	for _, s := range bi.Settings {
		if s.Key == levelKey(in.Arch) {
			in.ArchLevel = s.Key + "=" + s.Value
		}
	}
	if in.Version == "" {
		in.Version = "(devel)"
	}
	return in
}

// levelKeys names, per architecture, the build setting that holds its
// feature level.
var levelKeys = map[string]string{
	"386": "GO386", "amd64": "GOAMD64", "arm": "GOARM", "arm64": "GOARM64",
	"mips": "GOMIPS", "mipsle": "GOMIPS", "mips64": "GOMIPS64", "mips64le": "GOMIPS64",
	"ppc64": "GOPPC64", "ppc64le": "GOPPC64", "riscv64": "GORISCV64",
}

// levelKey is the build setting that holds arch's feature level, "" if
// it has none.
func levelKey(arch string) string { return levelKeys[arch] }

// Platform is OS/arch, with the feature level when the build records one:
// "linux/amd64", "linux/amd64 (GOAMD64=v3)".
func (in Info) Platform() string {
	p := in.OS + "/" + in.Arch
	if in.ArchLevel != "" && !isDefaultLevel(in.ArchLevel) {
		p += " (" + in.ArchLevel + ")"
	}
	return p
}

// isDefaultLevel reports whether level is its architecture's default,
// which is not worth printing.
func isDefaultLevel(level string) bool {
	switch level {
	case "GOAMD64=v1", "GOARM64=v8.0", "GO386=sse2", "GOARM=7", "GOMIPS=hardfloat", "GOMIPS64=hardfloat", "GOPPC64=power8", "GORISCV64=rva20u64":
		return true
	}
	return false
}

// Commit is the revision as people read it: its first 12 characters, the
// commit time's date, and "modified" for a tree with uncommitted changes;
// "unknown" for a build without VCS stamping.
func (in Info) Commit() string {
	if in.Revision == "" {
		return "unknown (built without VCS information)"
	}
	s := in.Revision
	if len(s) > 12 {
		s = s[:12]
	}
	if d, _, ok := strings.Cut(in.Time, "T"); ok {
		s += " of " + d
	}
	if in.Modified {
		s += ", with uncommitted changes"
	}
	return s
}

// String is the text of 'evotune version'.
func (in Info) String() string {
	return fmt.Sprintf("evotune %s\ncommit:   %s\ngo:       %s\nplatform: %s\n", in.Version, in.Commit(), in.Go, in.Platform())
}
