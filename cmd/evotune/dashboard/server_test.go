package dashboard

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"html"
	"io"
	"io/fs"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/evotune/evotune/cmd/evotune/sprtfile"
	"github.com/evotune/evotune/engine"
	"github.com/evotune/evotune/internal/english"
	"github.com/evotune/evotune/internal/plot"
)

// snapshot is every file under dir with its size, mode, time and
// contents' hash, so a test can tell that nothing was written.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(path)
		if err != nil {
			return err
		}
		sum := ""
		if fi.Mode().IsRegular() {
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			h := sha256.Sum256(data)
			sum = hex.EncodeToString(h[:])
		}
		out[path] = fi.Mode().String() + " " + fi.ModTime().String() + " " + sum
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestEveryPageOnlyReads: every page, fragment, stream and asset is
// served to GET, every other method is refused, and after all of them
// the runs' files are as they were: nothing written, no lock taken.
func TestEveryPageOnlyReads(t *testing.T) {
	runs := t.TempDir()
	finishedRun(t, runs, "a", liteConfig)
	finishedRun(t, runs, "b", strings.Replace(liteConfig, "seed: 1", "seed: 2", 1))
	if err := sprtfile.Write(filepath.Join(runs, "t.sprt.json"), sprtState(os.Getpid(), sprtfile.InProgress, 0.5)); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, runs)
	ts, s := serve(t, "", runs)
	s.Poll = 10 * time.Millisecond
	for _, path := range []string{"/", "/run?r=0/a", "/fragment/run?r=0/a", "/fragment/list", "/compare?r=0/a&r=0/b",
		"/sprt?t=0/t.sprt.json", "/fragment/sprt?t=0/t.sprt.json", "/assets/app.js", "/assets/style.css"} {
		if status, body := get(t, ts, path); status != http.StatusOK {
			t.Errorf("GET %s: %d %s", path, status, clipText(body))
		}
		for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch} {
			req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader("x=1"))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: %d, want 405", method, path, res.StatusCode)
			}
		}
	}
	// An event stream says the run's (the test's) version at once.
	for _, q := range []string{"r=0/a", "t=0/t.sprt.json"} {
		res, err := http.Get(ts.URL + "/events?" + q)
		if err != nil {
			t.Fatal(err)
		}
		line := readEvent(t, res)
		res.Body.Close()
		if !strings.HasPrefix(line, "data: ") {
			t.Errorf("the event stream of %s began %q", q, line)
		}
	}
	if after := snapshot(t, runs); len(after) != len(before) {
		t.Errorf("%d files before, %d after", len(before), len(after))
	} else {
		for path, was := range before {
			if after[path] != was {
				t.Errorf("%s changed: %s, was %s", path, after[path], was)
			}
		}
	}
}

// readEvent reads an event stream up to its first data line.
func readEvent(t testing.TB, res *http.Response) string {
	t.Helper()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "data: ") {
			return sc.Text()
		}
	}
	t.Fatalf("the stream ended: %v", sc.Err())
	return ""
}

// TestEventsFollowTheRun: a live page's stream sends a new version when
// a checkpoint lands, and none while nothing changes.
func TestEventsFollowTheRun(t *testing.T) {
	runs := t.TempDir()
	dir, _ := finishedRun(t, runs, "a", liteConfig)
	ts, s := serve(t, "", runs)
	s.Poll = 5 * time.Millisecond
	res, err := (&http.Client{Timeout: 30 * time.Second}).Get(ts.URL + "/events?r=0/a")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	next := func() string {
		for sc.Scan() {
			if strings.HasPrefix(sc.Text(), "data: ") {
				return sc.Text()
			}
		}
		t.Fatalf("the stream ended: %v", sc.Err())
		return ""
	}
	first := next()
	// A checkpoint written atomically, as the run writes it: a new file
	// renamed over the old one.
	data, err := os.ReadFile(filepath.Join(dir, "checkpoint.json"))
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, ".checkpoint.json.tmp-1")
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, "checkpoint.json")); err != nil {
		t.Fatal(err)
	}
	if second := next(); second == first {
		t.Errorf("the version did not change: %s", second)
	}
}

// TestPathsOutsideAreRefused: a run is named by the index of a directory
// given and a path below it; "..", absolute paths, other indices and
// links that lead out of it are refused, a link that stays inside is
// followed.
func TestPathsOutsideAreRefused(t *testing.T) {
	base := t.TempDir()
	runs := filepath.Join(base, "runs")
	if err := os.Mkdir(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	finishedRun(t, runs, "a", liteConfig)
	outside := filepath.Join(base, "secret")
	finishedRun(t, base, "secret", liteConfig)
	if err := os.Symlink(outside, filepath.Join(runs, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(runs, "a"), filepath.Join(runs, "alias")); err != nil {
		t.Fatal(err)
	}
	// A run beside the root whose path extends the root's ("runs2"
	// begins with "runs"), behind a link: outside all the same.
	finishedRun(t, base, "runs2", liteConfig)
	if err := os.Symlink(filepath.Join(base, "runs2"), filepath.Join(runs, "sib")); err != nil {
		t.Fatal(err)
	}
	// A run inside whose name begins with "..": inside all the same.
	finishedRun(t, runs, "..a", liteConfig)
	// A link to the root's parent: a path of exactly "..", outside.
	if err := os.Symlink(base, filepath.Join(runs, "up")); err != nil {
		t.Fatal(err)
	}
	ts, _ := serve(t, "", runs)
	for _, tc := range []struct {
		id   string
		want int
	}{
		{"0/a", 200},
		{"0/alias", 200},
		{"0/out", 403},
		{"0/../secret", 403},
		{"0/a/../../secret", 403},
		{"0/" + outside, 403},
		{"0//etc", 403},
		{"1/a", 403},
		{"-1/a", 403},
		{"00/a", 403},
		{"0/a\x00", 403},
		{"0/./a", 403},
		{"0/missing", 404},
		{"", 403},
		{"0/sib", 403},
		{"0/up", 403},
		{"0/..a", 200},
		{"+0/a", 403},
		{" 0/a", 403},
		{"0/a/", 403},
		{"0/a/..", 403},
		{"0/a\\..\\..\\secret", 403},
		{"0", 403},
	} {
		for _, page := range []string{"/run?r=", "/fragment/run?r=", "/events?r="} {
			if page == "/events?r=" && tc.want == 200 {
				continue // a stream does not end
			}
			status, body := get(t, ts, page+urlQuery(tc.id))
			if status != tc.want {
				t.Errorf("%s%q: %d, want %d", page, tc.id, status, tc.want)
			}
			if tc.want != 200 && strings.Contains(body, "battleship") {
				t.Errorf("%s%q: the refusal shows the run", page, tc.id)
			}
		}
	}
	if status, _ := get(t, ts, "/compare?r=0/a&r=0/out"); status != 403 {
		t.Errorf("a comparison with a run outside: %d", status)
	}
	if status, _ := get(t, ts, "/assets/../../../etc/passwd"); status == 200 {
		t.Error("an asset path led out")
	}
	// The list does not follow the link out either, nor look into a
	// hidden directory (..a begins with a dot), which its address still
	// reaches (above).
	// (The list's links escape the slash: run?r=0%2fa.)
	_, body := get(t, ts, "/")
	listed := func(id string) bool { return strings.Contains(body, `run?r=`+strings.ReplaceAll(id, "/", "%2f")+`"`) }
	if !listed("0/a") {
		t.Fatalf("the list does not show the run a:\n%s", body)
	}
	if listed("0/out") || listed("0/sib") || listed("0/up") {
		t.Error("the list shows a run behind a link out")
	}
	if listed("0/..a") {
		t.Error("the list shows the run ..a, in a hidden directory")
	}
}

func urlQuery(s string) string {
	r := strings.NewReplacer("%", "%25", "&", "%26", "+", "%2B", "#", "%23", "\x00", "%00", " ", "%20")
	return r.Replace(s)
}

// TestTokenIsRequired: with a token, a request without it, or with a
// wrong one, is refused; the right one in the address sets a cookie and
// leaves the address for the pages' own path; the cookie there, or a
// bearer header anywhere, then serves. Without a token, only loopback
// host names are served (a rebinding page sends its own). Each check
// refuses the nearest wrong input too: a token one character short or
// long, a cookie at another path, a bearer of another scheme, a host
// name that extends a loopback one.
func TestTokenIsRequired(t *testing.T) {
	runs := t.TempDir()
	finishedRun(t, runs, "a", liteConfig)
	ts, srv := serve(t, "s3cret", runs)
	base := srv.Base()
	if !strings.HasPrefix(base, "/t/") || len(base) != len("/t/")+32+1 || strings.Contains(base, "s3cret") {
		t.Fatalf("the pages' path %q: want /t/ and 32 hex digits of the token's digest", base)
	}
	cookie := func(v string) func(*http.Request) {
		return func(r *http.Request) { r.AddCookie(&http.Cookie{Name: "evotune_token", Value: v}) }
	}
	bearer := func(v string) func(*http.Request) { return func(r *http.Request) { r.Header.Set("Authorization", v) } }
	for _, tc := range []struct {
		name string
		path string
		mod  func(*http.Request)
		want int
	}{
		{"none", "/", nil, 401},
		{"none, the pages' path", base, nil, 401},
		{"none, a run", base + "run?r=0/a", nil, 401},
		{"wrong", "/?token=nope", nil, 401},
		{"one character short", "/?token=s3cre", nil, 401},
		{"one character long", "/?token=s3crett", nil, 401},
		{"empty", "/?token=", nil, 401},
		{"right, in the address", "/run?r=0/a&token=s3cret", nil, 303},
		{"right, in the address under the pages' path", base + "run?r=0/a&token=s3cret", nil, 303},
		{"cookie", base + "run?r=0/a", cookie("s3cret"), 200},
		{"cookie, the list", base, cookie("s3cret"), 200},
		{"cookie, the pages' path without its slash", strings.TrimSuffix(base, "/"), cookie("s3cret"), 303},
		{"cookie at the plain path", "/run?r=0/a", cookie("s3cret"), 401},
		{"cookie under another dashboard's path", "/t/" + strings.Repeat("0", 32) + "/run?r=0/a", cookie("s3cret"), 401},
		{"cookie under a path that extends the pages' path", strings.TrimSuffix(base, "/") + "x/run?r=0/a", cookie("s3cret"), 401},
		{"wrong cookie", base + "run?r=0/a", cookie("s3cre"), 401},
		{"cookie one character long", base + "run?r=0/a", cookie("s3crett"), 401},
		{"bearer", "/run?r=0/a", bearer("Bearer s3cret"), 200},
		{"bearer under the pages' path", base + "run?r=0/a", bearer("Bearer s3cret"), 200},
		{"bearer one character short", "/run?r=0/a", bearer("Bearer s3cre"), 401},
		{"bearer of another scheme", "/run?r=0/a", bearer("Basic s3cret"), 401},
		{"bearer without its space", "/run?r=0/a", bearer("Bearers3cret"), 401},
		{"bearer, lower case", "/run?r=0/a", bearer("bearer s3cret"), 401},
		{"assets too", "/assets/app.js", nil, 401},
		{"assets too, under the pages' path", base + "assets/app.js", nil, 401},
		{"assets with the cookie", base + "assets/app.js", cookie("s3cret"), 200},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mods []func(*http.Request)
			if tc.mod != nil {
				mods = append(mods, tc.mod)
			}
			status, body := get(t, ts, tc.path, mods...)
			if status != tc.want {
				t.Fatalf("%d, want %d: %s", status, tc.want, clipText(body))
			}
			if status == 401 && strings.Contains(body, "battleship") {
				t.Error("a refused request shows the run")
			}
		})
	}
	// The redirect drops the token from the address and leads to the
	// pages' path; the cookie is limited to that path.
	for _, from := range []string{"/run?r=0/a&token=s3cret", base + "run?token=s3cret&r=0/a"} {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+from, nil)
		res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc := res.Header.Get("Location"); loc != base+"run?r=0%2Fa" {
			t.Errorf("%s: redirected to %q, want %q", from, loc, base+"run?r=0%2Fa")
		}
		cs := res.Cookies()
		if len(cs) != 1 || cs[0].Name != "evotune_token" || cs[0].Value != "s3cret" || cs[0].Path != base || !cs[0].HttpOnly || cs[0].SameSite != http.SameSiteStrictMode {
			t.Errorf("%s: cookies %+v; want the token, HttpOnly, SameSite=Strict, for %s only", from, cs, base)
		}
	}
	// A page under the pages' path links there, so the cookie goes along.
	if _, body := get(t, ts, base, cookie("s3cret")); !strings.Contains(body, `href="`+base+`run?r=0%2fa"`) ||
		!strings.Contains(body, `href="`+base+`assets/style.css"`) || !strings.Contains(body, `data-base="`+base+`"`) {
		t.Errorf("the list does not link under %s:\n%s", base, clipText(body))
	}
	// Another token, another path: two dashboards keep two cookies.
	_, other := serve(t, "s3cret2", runs)
	if other.Base() == base {
		t.Error("two tokens share the pages' path")
	}

	open, _ := serve(t, "", runs)
	for host, want := range map[string]int{
		"127.0.0.1": 200, "localhost": 200, "[::1]:80": 200, "127.0.0.1:8080": 200, "localhost:1": 200, "[::1]": 200,
		"evil.example": 403, "10.0.0.1": 403,
		// Names that extend a loopback one, or that it extends: a
		// rebinding page's own name may be any of these.
		"127.0.0.1.evil.example": 403, "localhost.evil.example": 403, "localhost.": 403, "evil-localhost": 403,
		"localhostx": 403, "xlocalhost": 403, "127.0.0.10": 403, "127.0.0.1x:80": 403, "[::1].evil.example": 403,
		"::1.evil.example": 403, "[::10]": 403, "0.0.0.0": 403,
	} {
		if status, _ := get(t, open, "/", func(r *http.Request) { r.Host = host }); status != want {
			t.Errorf("Host %q: %d, want %d", host, status, want)
		}
	}
}

// TestDamagedRunsAreMessages: garbage, half-written, oversized, special
// and linked files in run directories, and a directory of many entries,
// are each a message on the list and on the run's page; the server
// answers every request and goes on serving.
func TestDamagedRunsAreMessages(t *testing.T) {
	runs := t.TempDir()
	good, _ := finishedRun(t, runs, "good", liteConfig)
	data, err := os.ReadFile(filepath.Join(good, "checkpoint.json"))
	if err != nil {
		t.Fatal(err)
	}
	mk := func(name string, write func(dir string) error) {
		t.Helper()
		dir := filepath.Join(runs, name)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := write(dir); err != nil {
			t.Fatal(err)
		}
	}
	file := func(name string, content []byte) func(string) error {
		return func(dir string) error { return os.WriteFile(filepath.Join(dir, name), content, 0o644) }
	}
	want := map[string]string{
		"garbage":      "corrupt checkpoint",
		"half":         "corrupt checkpoint",
		"huge":         "too large",
		"fifo":         "not a regular file",
		"dir":          "not a regular file",
		"link":         "symbolic link",
		"badconfig":    "no longer loads",
		"starting":     "no checkpoint yet",
		"lockonly":     "no checkpoint",
		"control":      `\x1b`,
		"bad-log":      "",
		"bad-journal":  "",
		"fifo-log":     "",
		"fifo-journal": "",
		"huge-log":     "",
		"name\x1b[2J<img src=x onerror=alert(1)>": "",
	}
	mk("garbage", file("checkpoint.json", []byte("\x00\x01not json")))
	mk("half", file("checkpoint.json", data[:len(data)/2]))
	mk("huge", func(dir string) error {
		f, err := os.Create(filepath.Join(dir, "checkpoint.json"))
		if err != nil {
			return err
		}
		defer f.Close()
		return f.Truncate(300 << 20) // sparse: 300 MiB on paper
	})
	mk("fifo", func(dir string) error { return syscall.Mkfifo(filepath.Join(dir, "checkpoint.json"), 0o644) })
	mk("dir", func(dir string) error { return os.Mkdir(filepath.Join(dir, "checkpoint.json"), 0o755) })
	mk("link", func(dir string) error {
		return os.Symlink(filepath.Join(good, "checkpoint.json"), filepath.Join(dir, "checkpoint.json"))
	})
	mk("badconfig", file("checkpoint.json", []byte(strings.Replace(string(data), `game: battleship`, `game: nosuchgame`, 1))))
	mk("starting", func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, ".evotune.lock"), nil, 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(liteConfig), 0o644)
	})
	mk("lockonly", file(".evotune.lock", []byte("123\n")))
	mk("control", file("checkpoint.json", []byte("{\"format\": 1, \"x\": \"\x1b[31m\"}")))
	mk("bad-log", func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, "checkpoint.json"), data, 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "run.log"), []byte("garbage\x00\nnot a time generation 1/2: x\n2026-01-01T00:00:00Z generation 9999999999999999999/1: best x, mean y; 1 games in 1s (1 games/s)\n2026-01-01T00:00:00Z generation 1/2: best 1"), 0o644)
	})
	mk("bad-journal", func(dir string) error {
		if err := os.WriteFile(filepath.Join(dir, "checkpoint.json"), data, 0o644); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, "games.journal"), []byte("{\"journal\":1,\"generation\":3,\"games\":0,\"batch_games\":0}\n{garbage\n"), 0o644)
	})
	// Another user who can write in the runs' directory leaves a FIFO
	// (a read of it would wait for a writer forever) or a file of a
	// gigabyte where run.log and the journal belong.
	withGood := func(name string, make func(path string) error) func(string) error {
		return func(dir string) error {
			if err := os.WriteFile(filepath.Join(dir, "checkpoint.json"), data, 0o644); err != nil {
				return err
			}
			return make(filepath.Join(dir, name))
		}
	}
	fifo := func(path string) error { return syscall.Mkfifo(path, 0o644) }
	mk("name\x1b[2J<img src=x onerror=alert(1)>", file("checkpoint.json", data))
	mk("fifo-log", withGood("run.log", fifo))
	mk("fifo-journal", withGood("games.journal", fifo))
	mk("huge-log", withGood("run.log", func(path string) error {
		f, err := os.Create(path)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := f.Truncate(1 << 30); err != nil { // sparse: a gigabyte on paper
			return err
		}
		_, err = f.WriteAt([]byte("\n2026-01-01T00:00:00Z generation 1/6: best 1, mean 2, best so far 1 over 10 games; 10 games in 1s (10 games/s)\n"), 1<<30)
		return err
	}))
	// A directory of many entries: the search for runs is bounded.
	many := filepath.Join(runs, "many")
	for i := range 300 {
		if err := os.MkdirAll(filepath.Join(many, strings.Repeat("d", 1+i%7)+string(rune('a'+i%26)), "x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ts, _ := serve(t, "", runs)
	status, list := get(t, ts, "/")
	if status != 200 {
		t.Fatalf("the list: %d", status)
	}
	// An id in an attribute (the address of the run) keeps the name's
	// bytes, HTML-escaped; the text shown has its control characters
	// escaped too.
	shown := regexp.MustCompile(`="[^"]*"`).ReplaceAllString(list, "")
	if strings.Contains(list, "<img") || strings.Contains(shown, "\x1b") {
		t.Error("a run's name reached the list unescaped")
	}
	for name, msg := range want {
		id := url.QueryEscape("0/" + name)
		if !strings.Contains(list, "r="+id+`"`) && !strings.Contains(list, `value="0/`+html.EscapeString(name)+`"`) {
			t.Errorf("%q is not listed", name)
		}
		status, page := get(t, ts, "/run?r="+id)
		if status != 200 {
			t.Errorf("%s: status %d", name, status)
			continue
		}
		if msg != "" && !strings.Contains(page, msg) {
			t.Errorf("%s: the page does not say %q:\n%s", name, msg, clipText(page))
		}
		if strings.Contains(regexp.MustCompile(`="[^"]*"`).ReplaceAllString(page, ""), "\x1b") || strings.Contains(page, "<img") {
			t.Errorf("%s: a control character reached the page", name)
		}
	}
	// Still serving.
	if status, _ := get(t, ts, "/run?r=0/good"); status != 200 {
		t.Errorf("after the damaged runs, a good one: %d", status)
	}
}

// TestParseLog reads run.log's generation lines, the latest try of each
// generation, the budget of the latest start or resume, and only
// complete lines.
func TestParseLog(t *testing.T) {
	log := `2026-01-01T00:00:00Z start q: game battleship, player tuned, model generational, population 20, 25 generations, 2 workers
2026-01-01T00:00:01Z generation 1/25: best 44.886, mean 60.8, best so far 44.886 over 1000 games; 20000 games in 2.00s (10000 games/s)
2026-01-01T00:00:02Z generation 2/25: best 45, mean 55, best so far 44.886 over 1000 games; 20000 games in 1.00s (20000 games/s)
2026-01-01T00:00:02Z generation 2/25 (rivals): best 45, mean 55, best so far 44.886 over 1000 games; 20000 games in 1.00s (20000 games/s)
2026-01-01T00:00:03Z stopped after generation 2 on request
2026-01-01T00:01:00Z resume q at generation 1 of 30, 2 workers
2026-01-01T00:01:02Z generation 2/30: best 45, mean 55, best so far 44.886 over 1000 games; 20000 games in 4.00s (5000 games/s)
2026-01-01T00:01:03Z workers: 2 connected; batches: 5 in flight, 59 of 64 done
2026-01-01T00:01:04Z workers: unknown connected; batches: 0 in flight, 64 of 64 done, 3 redelivered
2026-01-01T00:01:05Z generation 3/30: best 44, mean 50, best so far 44 over 1000 games; 20000 games in 1.00s (20000 games/s)`
	l := parseLog([]byte(log), false)
	if l.Budget != 30 || len(l.Gens) != 2 || l.Gens[1].Rate != 5000 || l.Gens[0].Rate != 10000 {
		t.Errorf("budget %d, generations %+v", l.Budget, l.Gens)
	}
	if l.Finish || len(l.Events) != 3 {
		t.Errorf("finish %v, events %+v", l.Finish, l.Events)
	}
	if len(l.Work) != 2 || l.Work[0].Connected != 2 || l.Work[0].Redelivered != -1 || l.Work[1].Connected != -1 || l.Work[1].Redelivered != 3 {
		t.Errorf("worker lines %+v", l.Work)
	}
	// Cut: the first line, maybe partial, is dropped.
	cut := parseLog([]byte(log[20:]), true)
	if cut.Budget != 30 || len(cut.Gens) != 2 {
		t.Errorf("cut: budget %d, generations %+v", cut.Budget, cut.Gens)
	}
	if got := parseLog([]byte(log+"\n2026-01-01T00:01:06Z finished 30 generations\n"), false); !got.Finish || len(got.Gens) != 3 {
		t.Errorf("finished: %v, %d generations", got.Finish, len(got.Gens))
	}
}

// TestRacingAndThroughputPanels: a racing run's page shows the games its
// generations played and saved, totalled as its checkpoint counts them,
// and a chart of games per second with a point for every generation
// run.log timed; a run without racing has no racing panel.
func TestRacingAndThroughputPanels(t *testing.T) {
	runs := t.TempDir()
	text := strings.Replace(liteConfig, "remeasure:", "racing: {}\nremeasure:", 1)
	_, ck := finishedRun(t, runs, "raced", text)
	finishedRun(t, runs, "plain", liteConfig)
	played, saved := 0, 0
	for _, h := range ck.History {
		played += h.Games
		saved += h.Saved
	}
	if saved == 0 {
		t.Fatal("racing saved no games: the test shows nothing")
	}
	ts, _ := serve(t, "", runs)
	_, page := get(t, ts, "/run?r=0/raced")
	if want := fmt.Sprintf(">%d played, %d saved (", played, saved); !strings.Contains(page, `id="s0-racing-panel"`) || !strings.Contains(page, want) {
		t.Errorf("the racing panel does not say %q", want)
	}
	m := regexp.MustCompile(`(?s)id="throughput"[^>]* data-n="(\d+)".*?<polyline class="line" data-name="by generation \(run.log\)" points="([^"]*)"`).FindStringSubmatch(page)
	if m == nil || m[1] != strconv.Itoa(len(ck.History)) || len(strings.Fields(m[2])) != len(ck.History) {
		t.Errorf("the throughput chart is not a point a generation for %d generations: %q", len(ck.History), m)
	}
	if _, page := get(t, ts, "/run?r=0/plain"); strings.Contains(page, `id="s0-racing-panel"`) {
		t.Error("a run without racing has a racing panel")
	}
}

// ratedConfig is a small run of players of four in a row on a 5x5
// board, rated by Bradley-Terry on their population games (on a 3x3
// board every game is drawn and every rating is 0).
const ratedConfig = `name: rated
seed: 1
game: mnk
rules: {m: 5, n: 5, k: 4}
player: tuned
fitness:
  objective: score
  baselines:
    opponents: [random]
    games: 10
  population:
    opponents: 3
    games: 4
    rating: bradley-terry
evolution:
  population: 8
  generations: 2
  elitism: 1
  tournament-size: 2
`

// TestHallOfFameShowsRatings: a rated run's hall of fame shows each
// member's rating and its 95% interval, in Elo, as its checkpoint has
// them, row by row; a run without ratings has no rating column.
func TestHallOfFameShowsRatings(t *testing.T) {
	runs := t.TempDir()
	_, ck := finishedRun(t, runs, "rated", ratedConfig)
	finishedRun(t, runs, "plain", liteConfig)
	elo := func(x float64) string { return strconv.FormatFloat(x, 'f', 0, 64) }
	var want [][2]string
	for i, m := range ck.HallOfFame {
		if m.Rating == nil {
			t.Fatalf("hall of fame %d has no rating: the test shows nothing", i+1)
		}
		want = append(want, [2]string{elo(m.Rating.Elo), "[" + elo(m.Rating.CI95[0]) + ", " + elo(m.Rating.CI95[1]) + "]"})
	}
	if len(want) < 2 || want[0][0] == want[len(want)-1][0] {
		t.Fatalf("the hall of fame's ratings %v do not tell its members apart: the test shows little", want)
	}
	ts, _ := serve(t, "", runs)
	_, page := get(t, ts, "/run?r=0/rated")
	table := regexp.MustCompile(`(?s)<table class="hof" id="s0-hof">.*?</table>`).FindString(page)
	if !strings.Contains(table, `<th class="num">rating (Elo)</th><th class="num">95% interval</th>`) {
		t.Errorf("the hall of fame has no rating column: %s", clipText(table))
	}
	var got [][2]string
	for _, m := range regexp.MustCompile(`<td class="num rating">([^<]*)</td><td class="num rating-ci">([^<]*)</td>`).FindAllStringSubmatch(table, -1) {
		got = append(got, [2]string{m[1], html.UnescapeString(m[2])})
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("the hall of fame's ratings are %v, the checkpoint's %v", got, want)
	}
	if _, page := get(t, ts, "/run?r=0/plain"); strings.Contains(page, "rating (Elo)") || strings.Contains(page, `class="num rating"`) {
		t.Error("a run without ratings has a rating column")
	}
}

func TestGrouped(t *testing.T) {
	for n, want := range map[int]string{0: "0", 999: "999", 1000: "1,000", 500000: "500,000", 1234567: "1,234,567", -1234: "-1,234"} {
		if got := grouped(n); got != want {
			t.Errorf("grouped(%d) = %q, want %q", n, got, want)
		}
	}
}

// spsaConfig is a small spsa run whose final theta wins its remeasure
// (seed 3: TestSummaryNamesTheModelsPick's run).
const spsaConfig = "seed: 3\ngame: battleship\nplayer: tuned\nfitness:\n  baselines: {games: 12}\n" +
	"evolution:\n  model: spsa\n  population: 6\n  generations: 4\n  spsa-r-end: 0.05\nremeasure: {top: 2, games: 40}\n"

// TestHallOfFameShowsTheModelsPick: where the remeasure played the
// model's own recommendation (spsa's theta), the hall of fame lists it
// after its members with its remeasured figure and no selection figure,
// starred when it is the recommended best, and the card says whose it is.
func TestHallOfFameShowsTheModelsPick(t *testing.T) {
	runs := t.TempDir()
	_, ck := finishedRun(t, runs, "spsa", spsaConfig)
	if ck.Verdict == nil || ck.Verdict.Rank != 0 {
		t.Fatalf("verdict %+v: theta did not win, so the test shows less than it says", ck.Verdict)
	}
	var pick engine.Remeasured
	for _, m := range ck.Remeasured {
		if m.Rank == 0 {
			pick = m
		}
	}
	ts, _ := serve(t, "", runs)
	_, page := get(t, ts, "/run?r=0/spsa")
	table := regexp.MustCompile(`(?s)<table class="hof" id="s0-hof">.*?</table>`).FindString(page)
	rows := regexp.MustCompile(`(?s)<tr[ >].*?</tr>`).FindAllString(table, -1)
	if len(rows) != len(ck.HallOfFame)+2 { // the head, the members, theta
		t.Fatalf("%d rows for %d members and theta: %s", len(rows), len(ck.HallOfFame), clipText(table))
	}
	last := rows[len(rows)-1]
	for _, want := range []string{`class="recommended"`, ">model spsa<", "not played by selection", ">" + plot.Num(pick.Fitness) + "<"} {
		if !strings.Contains(last, want) {
			t.Errorf("theta's row lacks %q: %s", want, clipText(last))
		}
	}
	if n := strings.Count(table, `class="recommended"`); n != 1 {
		t.Errorf("%d rows starred, want theta's alone", n)
	}
	if !strings.Contains(page, ">recommended best, as remeasured</div>") || !strings.Contains(page, "model spsa&#39;s own recommendation, over 40 games on fresh deals, which ranked it") {
		t.Errorf("the recommended card does not say whose it is, and which figure: %s", clipText(page))
	}
	// Compared with a run whose best selection chose, each says which
	// figure it shows.
	finishedRun(t, runs, "plain", liteConfig)
	_, cmp := get(t, ts, "/compare?r=0/spsa&r=0/plain")
	cells := regexp.MustCompile(`<td class="num selected" title="([^"]*)">([^<]*?) ?(<span class="small">([^<]*)</span>)?</td>`).FindAllStringSubmatch(cmp, -1)
	if len(cells) != 2 || cells[0][2] != english.Interval(pick.Fitness, pick.CI95, false) || cells[0][4] != "as remeasured" || cells[1][4] != "" ||
		!strings.Contains(cells[0][1], "which ranked it") || !strings.Contains(cells[1][1], "the figure that chose it") {
		t.Errorf("the compare page's chosen figures: %q, want theta's as remeasured, then one as selected: %s", cells, clipText(cmp))
	}
}

// TestTokenCookieStaysWithItsDashboard: cookies do not isolate ports, so
// a cookie of path / went with every request to 127.0.0.1, another local
// user's web server on another port included, and a second dashboard's
// cookie replaced the first's. A client that keeps cookies as browsers
// do (RFC 6265: by host and path, not port) follows each dashboard's
// address: another server on the loopback gets no token at any path but
// the pages' own, which it cannot guess, and each dashboard keeps
// serving.
func TestTokenCookieStaysWithItsDashboard(t *testing.T) {
	runs := t.TempDir()
	finishedRun(t, runs, "a", liteConfig)
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Jar: jar, Timeout: 30 * time.Second}
	var mu sync.Mutex
	var seen []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.URL.Path+": "+r.Header.Get("Cookie"))
		mu.Unlock()
	}))
	defer other.Close()
	first, s1 := serve(t, "first-token", runs)
	second, s2 := serve(t, "second-token", runs)
	for _, d := range []struct {
		ts    *httptest.Server
		token string
	}{{first, "first-token"}, {second, "second-token"}} {
		res, err := client.Get(d.ts.URL + "/?token=" + d.token)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !strings.Contains(string(body), "battleship") {
			t.Fatalf("the address with the token: %d\n%s", res.StatusCode, clipText(string(body)))
		}
	}
	for _, path := range []string{"/", "/run?r=0/a", "/t/", "/t/x/", "/assets/app.js"} {
		if res, err := client.Get(other.URL + path); err == nil {
			res.Body.Close()
		}
	}
	mu.Lock()
	for _, s := range seen {
		if strings.Contains(s, "token") {
			t.Errorf("another server on the loopback was sent a token: %s", s)
		}
	}
	mu.Unlock()
	// Each dashboard still serves the client, its own cookie intact.
	for _, d := range []struct {
		ts   *httptest.Server
		base string
	}{{first, s1.Base()}, {second, s2.Base()}} {
		res, err := client.Get(d.ts.URL + d.base + "run?r=0/a")
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("%s after both dashboards' addresses: %d, want 200", d.ts.URL+d.base, res.StatusCode)
		}
	}
}
