// Package buildinfo says which build of evotune is running: the module
// version, the VCS revision it was built from and whether the tree had
// uncommitted changes, the Go version, the OS and architecture, and the
// SHA-256 of the binary. It reads what the Go toolchain recorded in the
// binary (runtime/debug.ReadBuildInfo), so it needs no build flags.
//
// A coordinator and its workers compare builds (Compatible): a worker
// counts only if its results are known to be the coordinator's, bit for
// bit. Go may compute a float expression differently on another
// architecture (it fuses a multiply and an add into one instruction, with
// one rounding instead of two, only where the architecture and its level
// have one), and any change to the code may change a result, so only the
// very binary, or a build of the same clean commit by the same Go for the
// same platform with the same settings, is known to agree.
package buildinfo

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
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
	// Settings is a digest of the build settings that can change what
	// the binary computes: compiler and linker flags, tags, cgo, the
	// platform (everything the toolchain records but the VCS fields and
	// -trimpath, which changes only the file names recorded).
	Settings string `json:"settings"`
	// Executable is the SHA-256 of the running binary (Own only; "" when
	// it cannot be read).
	Executable string `json:"executable,omitempty"`
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
	var relevant []string
	for _, s := range bi.Settings {
		if !strings.HasPrefix(s.Key, "vcs") && s.Key != "-trimpath" {
			relevant = append(relevant, s.Key+"="+s.Value)
		}
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
	slices.Sort(relevant)
	sum := sha256.Sum256([]byte(strings.Join(relevant, "\n")))
	in.Settings = hex.EncodeToString(sum[:8])
	return in
}

var own = sync.OnceValue(func() Info {
	in := Read()
	in.Executable = executableHash()
	return in
})

// Own is Read with the SHA-256 of the running binary: what a coordinator
// and its workers compare. The binary is read once, on the first call.
func Own() Info { return own() }

// executableHash is the SHA-256 of the running binary, "" if it cannot be
// read.
func executableHash() string {
	path, err := os.Executable()
	if err != nil {
		return ""
	}
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return ""
	}
	return hex.EncodeToString(h.Sum(nil))
}

// ErrOtherBuild is what a MismatchError is: builds whose results may
// differ.
var ErrOtherBuild = errors.New("another build")

// MismatchError says how a worker's build differs from its
// coordinator's, naming both.
type MismatchError struct {
	Why                 string // "another architecture", ...
	Worker, Coordinator Info
}

func (e *MismatchError) Error() string {
	return fmt.Sprintf("another build, %s: this worker is %s; the coordinator is %s", e.Why, e.Worker.Short(), e.Coordinator.Short())
}

func (e *MismatchError) Unwrap() error { return ErrOtherBuild }

// Compatible returns nil when a worker built as worker computes what the
// coordinator built as coordinator computes: it runs the very binary (the
// same SHA-256), or a build of the same commit, without uncommitted
// changes, by the same Go for the same OS, architecture and level, with
// the same build settings. Otherwise it returns a *MismatchError, which
// says how they differ and names both.
func Compatible(coordinator, worker Info) error {
	if coordinator.Executable != "" && coordinator.Executable == worker.Executable {
		return nil
	}
	var why string
	switch c, w := coordinator, worker; {
	case c.Go == "":
		why = "the coordinator's build is unknown"
	case w.Go == "":
		why = "the worker's build is unknown"
	case c.Arch != w.Arch || c.ArchLevel != w.ArchLevel:
		why = "another architecture"
	case c.OS != w.OS:
		why = "another operating system"
	case c.Go != w.Go:
		why = "another Go version"
	case c.Revision == "" || w.Revision == "":
		why = "another binary, of no known commit"
	case c.Revision != w.Revision:
		why = "another commit"
	case c.Modified || w.Modified:
		why = "another binary, built with uncommitted changes"
	case c.Settings != w.Settings:
		why = "other build settings"
	default:
		return nil
	}
	return &MismatchError{Why: why, Worker: worker, Coordinator: coordinator}
}

// Short names a build on one line: version, commit, Go, platform and,
// when known, the binary's SHA-256 (its first 12 hex digits). A build
// another process announced is text from the network: its control
// characters are escaped and its fields cut short.
func (in Info) Short() string {
	if in.Go == "" {
		return "unknown"
	}
	for _, f := range []*string{&in.Version, &in.Revision, &in.Go, &in.OS, &in.Arch, &in.ArchLevel, &in.Executable} {
		*f = printable(*f)
	}
	commit := "commit unknown"
	if in.Revision != "" {
		commit = "commit " + in.Revision[:min(12, len(in.Revision))]
		if in.Modified {
			commit += " (modified)"
		}
	}
	s := fmt.Sprintf("evotune %s, %s, %s %s", in.Version, commit, in.Go, in.Platform())
	if in.Executable != "" {
		s += ", binary " + in.Executable[:min(12, len(in.Executable))]
	}
	return s
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

// printable escapes s's control characters and cuts it to 80 bytes.
func printable(s string) string {
	if len(s) > 80 {
		s = s[:80]
	}
	q := strconv.QuoteToGraphic(s)
	return q[1 : len(q)-1]
}

// String is the text of 'evotune version'.
func (in Info) String() string {
	s := fmt.Sprintf("evotune %s\ncommit:   %s\ngo:       %s\nplatform: %s\n", in.Version, in.Commit(), in.Go, in.Platform())
	if in.Executable != "" {
		s += "binary:   sha256 " + in.Executable + "\n"
	}
	return s
}
