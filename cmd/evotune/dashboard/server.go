// Package dashboard is evotune's dashboard: an HTTP server that lists the runs
// under the directories it is given and shows each run's figures as they
// land, and two or more runs of one game side by side. It only reads: no
// request writes a file, takes a run's lock, plays a game or starts a
// program. Every asset is embedded; the pages load nothing from the
// network. Paths outside the given directories (by "..", an absolute
// path or a link that leads out) are refused, and a directory that is
// garbage, half-written or huge is a message on its page.
package dashboard

import (
	"bytes"
	"crypto/sha256"
	"crypto/subtle"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/evotune/evotune/engine/model"
	"github.com/evotune/evotune/rundir"
)

//go:embed assets templates
var files embed.FS

// Server serves the dashboard.
type Server struct {
	roots []root
	token string
	// Poll is how often a live page's event stream looks for a change.
	Poll    time.Duration
	reader  *reader
	spreads *spreads
	tmpl    *template.Template
	streams chan struct{} // event streams open at once
	done    chan struct{} // closed by Close: the event streams end
	once    sync.Once
	// hosts are the Host headers accepted without a token: the loopback
	// names, against DNS rebinding (a page of another site that resolves
	// its name to 127.0.0.1 would send its own name).
	hosts []string
	// base is where the pages are: "/" without a token; with one, a path
	// of its own (basePath), which the token's cookie is limited to.
	base string
}

// maxStreams bounds the event streams open at once.
const maxStreams = 64

// New serves the runs under dirs. A non-empty token is then asked of every
// request (as ?token=, then a cookie, or an Authorization: Bearer header);
// without one, only requests naming a loopback host are served.
func New(dirs []string, token string) (*Server, error) {
	roots, err := newRoots(dirs)
	if err != nil {
		return nil, err
	}
	base := "/"
	if token != "" {
		base = basePath(token)
	}
	tmpl, err := template.New("").Funcs(template.FuncMap{"lower": strings.ToLower, "base": func() string { return base }, "inc": func(i int) int { return i + 1 }}).ParseFS(files, "templates/*.html")
	if err != nil {
		return nil, fmt.Errorf("ui: templates: %w", err)
	}
	return &Server{roots: roots, token: token, Poll: time.Second, reader: newReader(), spreads: newSpreads(), tmpl: tmpl,
		streams: make(chan struct{}, maxStreams), done: make(chan struct{}), hosts: []string{"localhost", "127.0.0.1", "::1"}, base: base}, nil
}

// basePath is where a dashboard with token serves its pages:
// /t/HASH/, HASH a digest of the token. A browser sends a cookie to
// every port of a host (cookies do not isolate ports), so a cookie of
// path / would go to any server another local user runs on 127.0.0.1;
// limited to this path, it goes only where the address names it, which
// no one without the token can guess. Two dashboards of two tokens keep
// two cookies; two of one token share one, which serves both.
func basePath(token string) string {
	sum := sha256.Sum256([]byte("evotune ui pages\x00" + token))
	return "/t/" + hex.EncodeToString(sum[:16]) + "/"
}

// tokenCookie is the name of the cookie that carries the token.
const tokenCookie = "evotune_token"

// Base is where the pages are served: "/" without a token, else a path
// of the token's own (its cookie is limited to it).
func (s *Server) Base() string { return s.base }

// Close ends the live pages' event streams, which otherwise last as long
// as their pages: call it before shutting the HTTP server down.
func (s *Server) Close() { s.once.Do(func() { close(s.done) }) }

// AllowHost accepts requests naming host (the address listened on)
// without a token.
func (s *Server) AllowHost(host string) { s.hosts = append(s.hosts, host) }

// Handler is the dashboard's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.list)
	mux.HandleFunc("GET /run", s.runPageHandler)
	mux.HandleFunc("GET /fragment/run", s.runFragment)
	mux.HandleFunc("GET /fragment/list", s.listFragment)
	mux.HandleFunc("GET /events", s.events)
	mux.HandleFunc("GET /compare", s.compare)
	mux.HandleFunc("GET /sprt", s.testPageHandler)
	mux.HandleFunc("GET /fragment/sprt", s.testFragment)
	assets, _ := fs.Sub(files, "assets")
	mux.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServer(http.FS(assets))))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			s.fail(w, http.StatusMethodNotAllowed, "this dashboard only reads: "+r.Method+" is not served")
			return
		}
		s.fail(w, http.StatusNotFound, "no such page")
	})
	return s.guard(mux)
}

// guard sets the headers every answer carries, refuses methods that
// could change anything, and asks for the token.
func (s *Server) guard(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			// A page that fails on a file nobody foresaw is a message, and
			// the server goes on serving the others.
			if p := recover(); p != nil {
				if p == http.ErrAbortHandler {
					panic(p)
				}
				s.fail(w, http.StatusInternalServerError, fmt.Sprintf("the dashboard failed on this page: %v", p))
			}
		}()
		h := w.Header()
		h.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'")
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			s.fail(w, http.StatusMethodNotAllowed, "this dashboard only reads: "+r.Method+" is not served")
			return
		}
		if s.token == "" {
			host, _, err := net.SplitHostPort(r.Host)
			if err != nil {
				host = r.Host
			}
			if !slices.Contains(s.hosts, strings.Trim(host, "[]")) {
				s.fail(w, http.StatusForbidden, "this dashboard answers requests for "+strings.Join(s.hosts, ", ")+" only (give --token to serve others)")
				return
			}
			next.ServeHTTP(w, r)
			return
		}
		page, under := strings.CutPrefix(r.URL.Path, s.base)
		if q := r.URL.Query(); q.Has("token") {
			if !s.tokenOK(q.Get("token")) {
				s.fail(w, http.StatusUnauthorized, "wrong token: open the address 'evotune ui' printed")
				return
			}
			// The cookie carries it from now on, to the pages' own path
			// only; the address drops it, so it does not stay in the
			// history or get copied with a link.
			http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: s.token, Path: s.base, HttpOnly: true, SameSite: http.SameSiteStrictMode})
			q.Del("token")
			if !under {
				page = strings.TrimPrefix(r.URL.Path, "/")
			}
			u := url.URL{Path: s.base + page, RawQuery: q.Encode()}
			http.Redirect(w, r, u.RequestURI(), http.StatusSeeOther)
			return
		}
		if r.URL.Path == strings.TrimSuffix(s.base, "/") {
			http.Redirect(w, r, s.base, http.StatusSeeOther)
			return
		}
		bearer := false
		if a := r.Header.Get("Authorization"); strings.HasPrefix(a, "Bearer ") && s.tokenOK(strings.TrimPrefix(a, "Bearer ")) {
			bearer = true
		}
		cookie := false
		if c, err := r.Cookie(tokenCookie); err == nil && under && s.tokenOK(c.Value) {
			cookie = true
		}
		switch {
		case under && (cookie || bearer):
			http.StripPrefix(strings.TrimSuffix(s.base, "/"), next).ServeHTTP(w, r)
		case bearer:
			next.ServeHTTP(w, r) // a client that sends the token itself, at the pages' plain paths
		default:
			s.fail(w, http.StatusUnauthorized, "this dashboard needs its token: open the address 'evotune ui' printed")
		}
	})
}

func (s *Server) tokenOK(t string) bool {
	a, b := sha256.Sum256([]byte(t)), sha256.Sum256([]byte(s.token))
	return subtle.ConstantTimeCompare(a[:], b[:]) == 1
}

// layout is what every page's frame needs.
type layout struct {
	Title   string
	Content template.HTML
	Live    string // the event stream's query when the page updates itself
	Frag    string // the fragment's address it reloads from
	Version string
}

func (s *Server) page(w http.ResponseWriter, status int, l layout) {
	var b bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&b, "layout", l); err != nil {
		http.Error(w, "ui: "+err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.WriteHeader(status)
	w.Write(b.Bytes())
}

// fragment renders template name with data, for a panel's body or a
// fragment the page reloads.
func (s *Server) fragment(name string, data any) template.HTML {
	var b bytes.Buffer
	if err := s.tmpl.ExecuteTemplate(&b, name, data); err != nil {
		return template.HTML(`<p class="problem">` + template.HTMLEscapeString(err.Error()) + `</p>`)
	}
	return template.HTML(b.String()) // html/template escaped it
}

func (s *Server) fail(w http.ResponseWriter, status int, msg string) {
	s.page(w, status, layout{Title: http.StatusText(status), Content: s.fragment("error", struct{ Status, Message string }{http.StatusText(status), cleanText(msg)})})
}

// listData is the list of runs.
type listData struct {
	Roots []string
	Rows  []listRow
	Tests []testRow
	Notes []string
}

func (s *Server) listData() listData {
	entries, notes := discover(s.roots)
	d := listData{Notes: notes}
	for _, r := range s.roots {
		d.Roots = append(d.Roots, r.arg)
	}
	for _, e := range entries {
		if e.sprt {
			d.Tests = append(d.Tests, testRowOf(readTest(e)))
			continue
		}
		d.Rows = append(d.Rows, listRowOf(s.reader.read(e)))
	}
	return d
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	d := s.listData()
	s.page(w, http.StatusOK, layout{Title: "runs", Content: s.fragment("list", d), Live: "list", Frag: s.base + "fragment/list", Version: s.listVersion()})
}

func (s *Server) listFragment(w http.ResponseWriter, r *http.Request) {
	s.writeFragment(w, s.fragment("list", s.listData()), s.listVersion())
}

func (s *Server) writeFragment(w http.ResponseWriter, html template.HTML, version string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("X-Version", version)
	w.Write([]byte(html))
}

// entryOf finds the run directory id names, or answers why not: 403 for
// a path outside the directories served, 404 for one that is not there.
func (s *Server) entryOf(w http.ResponseWriter, id string) (entry, bool) {
	e, err := resolve(s.roots, id)
	if err != nil {
		status := http.StatusNotFound
		if errors.Is(err, errRefused) {
			status = http.StatusForbidden
		}
		s.fail(w, status, err.Error())
		return entry{}, false
	}
	return e, true
}

// runOf reads the run a request names (?r=ID), or says why not.
func (s *Server) runOf(w http.ResponseWriter, req *http.Request) (*run, bool) {
	e, ok := s.entryOf(w, req.URL.Query().Get("r"))
	if !ok {
		return nil, false
	}
	if e.sprt {
		s.fail(w, http.StatusNotFound, e.dir+": not a run directory")
		return nil, false
	}
	return s.reader.read(e), true
}

func (s *Server) runPageHandler(w http.ResponseWriter, req *http.Request) {
	r, ok := s.runOf(w, req)
	if !ok {
		return
	}
	p := s.runPage(r)
	s.page(w, http.StatusOK, layout{Title: p.Title, Content: s.fragment("run", p), Live: "r=" + url.QueryEscape(r.id),
		Frag: s.base + "fragment/run?r=" + url.QueryEscape(r.id), Version: digest(r.Version)})
}

func (s *Server) runFragment(w http.ResponseWriter, req *http.Request) {
	r, ok := s.runOf(w, req)
	if !ok {
		return
	}
	s.writeFragment(w, s.fragment("run", s.runPage(r)), digest(r.Version))
}

// digest is a version as the page sees it.
func digest(v string) string {
	sum := sha256.Sum256([]byte(v))
	return hex.EncodeToString(sum[:8])
}

func (s *Server) listVersion() string {
	entries, _ := discover(s.roots)
	var b strings.Builder
	for _, e := range entries {
		v := version(e.abs)
		if e.sprt {
			v = testVersion(e)
		}
		b.WriteString(e.abs + "=" + v + ";")
	}
	return digest(b.String())
}

// events streams a page's version (server-sent events) every time it
// changes, so the page reloads its content without a reload of its own.
func (s *Server) events(w http.ResponseWriter, req *http.Request) {
	q := req.URL.Query()
	var current func() string
	if q.Has("r") {
		e, ok := s.entryOf(w, q.Get("r"))
		if !ok {
			return
		}
		current = func() string { return digest(version(e.abs)) }
	} else if q.Has("t") {
		e, ok := s.entryOf(w, q.Get("t"))
		if !ok {
			return
		}
		current = func() string { return digest(testVersion(e)) }
	} else {
		current = s.listVersion
	}
	select {
	case s.streams <- struct{}{}:
		defer func() { <-s.streams }()
	default:
		s.fail(w, http.StatusServiceUnavailable, "too many live pages open at once")
		return
	}
	flusher, ok := w.(http.Flusher)
	if !ok {
		s.fail(w, http.StatusInternalServerError, "no streaming")
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)
	fmt.Fprintf(w, "retry: 2000\n\n")
	flusher.Flush()
	tick := time.NewTicker(s.Poll)
	defer tick.Stop()
	last, idle := "", 0
	for {
		if v := current(); v != last {
			fmt.Fprintf(w, "data: %s\n\n", v)
			last, idle = v, 0
			flusher.Flush()
		} else if idle++; idle*int(s.Poll/time.Millisecond) >= 15000 {
			fmt.Fprintf(w, ": still here\n\n") // keeps proxies from closing a quiet stream
			idle = 0
			flusher.Flush()
		}
		select {
		case <-req.Context().Done():
			return
		case <-s.done:
			return
		case <-tick.C:
		}
	}
}

// spreads keeps models' replays (engine.Setup.ModelSpread) by checkpoint
// version.
type spreads struct {
	mu   sync.Mutex
	done map[string]spreadResult
}

type spreadResult struct {
	s   model.Spread
	ok  bool
	err error
}

func newSpreads() *spreads { return &spreads{done: map[string]spreadResult{}} }

func (c *spreads) spread(r *run) (model.Spread, bool, error) {
	key := r.abs + "|" + identity(filepath.Join(r.abs, rundir.CheckpointFile))
	c.mu.Lock()
	defer c.mu.Unlock() // one replay at a time
	if res, ok := c.done[key]; ok {
		return res.s, res.ok, res.err
	}
	sp, ok, err := r.Ins.Setup.ModelSpread(r.Ins.Checkpoint)
	if len(c.done) > 64 {
		clear(c.done)
	}
	c.done[key] = spreadResult{sp, ok, err}
	return sp, ok, err
}

// Loopback reports whether host only reaches this machine.
func Loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
