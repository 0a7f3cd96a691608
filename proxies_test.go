package weblink

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/weblinking/weblink/internal/proctest"
	"golang.org/x/net/http2"
)

// The reverse proxies TestProxies runs, as Debian packages them. .ci/run
// installs the packages when the binaries are missing.
const proxyInstall = "apt-get install nginx-light apache2 caddy (as .ci/run does)"

// proxyPage is the body of the page behind the proxies.
const proxyPage = "the page behind the proxy\n"

// proxyBinary returns the path of a proxy's program, or skips the test when
// it is missing and CI is not set; in CI a missing proxy fails. Debian puts
// nginx and apache2 in /usr/sbin, which a user's PATH may lack.
func proxyBinary(t *testing.T, name string) string {
	t.Helper()
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	if p := filepath.Join("/usr/sbin", name); isExecutable(p) {
		return p
	}
	msg := fmt.Sprintf("no %s binary in PATH or /usr/sbin: %s", name, proxyInstall)
	if os.Getenv("CI") != "" {
		t.Fatal(msg + "; CI is set, so the real-proxy test must run")
	}
	t.Skip(msg)
	return ""
}

func isExecutable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}

// proxyVersion runs a proxy's version command and returns its first line
// (nginx writes it to standard error).
func proxyVersion(t *testing.T, bin string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", bin, strings.Join(args, " "), err, out)
	}
	line, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	return line
}

// proxy is a running reverse proxy in front of the test's backend.
type proxy struct {
	name    string // nginx, apache, caddy
	version string // what its version command says
	h1      string // base URL for HTTP/1.1 clients
	h2c     string // base URL for HTTP/2 clients with prior knowledge (h2c)
	// hops are the path prefixes the proxy forwards to the backend, each
	// with the protocol of that hop: nginx forwards /h10/ with
	// proxy_http_version 1.0 and /h11/ with 1.1; Apache and Caddy talk
	// HTTP/1.1 to the backend.
	hops []proxyHop
	log  string // its error log, for failures
}

type proxyHop struct {
	prefix string // "/h10/"
	proto  string // "HTTP/1.0"
}

// startNginx runs nginx in the foreground, as one process (master_process
// off, so that it never switches user), with its pid file, logs and
// temporary files in a directory of the test. One port speaks HTTP/1.x,
// the other HTTP/2 with prior knowledge (listen ... http2 without ssl).
func startNginx(t *testing.T, backend string) proxy {
	bin := proxyBinary(t, "nginx")
	p := proxy{name: "nginx", version: proxyVersion(t, bin, "-v")}
	dir := t.TempDir()
	h1, h2 := proctest.FreePort(t), proctest.FreePort(t)
	conf := fmt.Sprintf(`pid %[1]s/nginx.pid;
error_log %[1]s/error.log info;
master_process off;
events { worker_connections 64; }
http {
	access_log off;
	client_body_temp_path %[1]s/body;
	proxy_temp_path %[1]s/proxy;
	fastcgi_temp_path %[1]s/fastcgi;
	server {
		listen 127.0.0.1:%[2]d;
		listen 127.0.0.1:%[3]d http2;
		# nginx's default: HTTP/1.0 to the upstream.
		location /h10/ {
			proxy_pass http://%[4]s;
		}
		# The usual setting, for keep-alive upstream connections. The
		# read timeout is 60 s by default: that is how long a client
		# waits for the broken page before nginx gives up.
		location /h11/ {
			proxy_pass http://%[4]s;
			proxy_http_version 1.1;
			proxy_set_header Connection "";
			proxy_read_timeout 3s;
		}
	}
}
`, dir, h1, h2, backend)
	confFile := filepath.Join(dir, "nginx.conf")
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	p.log = filepath.Join(dir, "error.log")
	cmd := exec.Command(bin, "-p", dir, "-e", p.log, "-c", confFile, "-g", "daemon off;")
	proctest.Run(t, "nginx", cmd, p.log, h1, h2)
	p.h1 = fmt.Sprintf("http://127.0.0.1:%d", h1)
	p.h2c = fmt.Sprintf("http://127.0.0.1:%d", h2)
	p.hops = []proxyHop{{"/h10/", "HTTP/1.0"}, {"/h11/", "HTTP/1.1"}}
	return p
}

// apacheModules are the modules the Apache configuration loads, from
// Debian's module directory: the event MPM, mod_proxy with mod_proxy_http,
// and mod_http2 for h2c.
var apacheModules = []string{"mpm_event", "authz_core", "proxy", "proxy_http", "http2"}

// startApache runs apache2 in the foreground as one process (-X) with its
// own ServerRoot and configuration in a directory of the test: mod_proxy
// to the backend, h2c and HTTP/1.1 on one port, H2EarlyHints on.
func startApache(t *testing.T, backend string) proxy {
	bin := proxyBinary(t, "apache2")
	p := proxy{name: "apache", version: proxyVersion(t, bin, "-v")}
	dir := t.TempDir()
	port := proctest.FreePort(t)
	var conf strings.Builder
	fmt.Fprintf(&conf, "ServerRoot %s\nServerName 127.0.0.1\nDefaultRuntimeDir %[1]s\nPidFile %[1]s/apache2.pid\nErrorLog %[1]s/error.log\nLogLevel warn\n", dir)
	for _, m := range apacheModules {
		fmt.Fprintf(&conf, "LoadModule %s_module /usr/lib/apache2/modules/mod_%[1]s.so\n", m)
	}
	if os.Geteuid() == 0 {
		// Apache will not keep running as root.
		conf.WriteString("User nobody\nGroup nogroup\n")
	}
	fmt.Fprintf(&conf, `Listen 127.0.0.1:%d
Protocols h2c http/1.1
H2EarlyHints on
ProxyPass "/" "http://%s/"
`, port, backend)
	confFile := filepath.Join(dir, "apache2.conf")
	if err := os.WriteFile(confFile, []byte(conf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	p.log = filepath.Join(dir, "error.log")
	cmd := exec.Command(bin, "-d", dir, "-f", confFile, "-X", "-DFOREGROUND")
	proctest.Run(t, "apache2", cmd, p.log, port)
	p.h1 = fmt.Sprintf("http://127.0.0.1:%d", port)
	p.h2c = p.h1
	p.hops = []proxyHop{{"/h11/", "HTTP/1.1"}}
	return p
}

// startCaddy runs caddy with a JSON configuration (admin endpoint off,
// automatic HTTPS off, HTTP/1.1 and h2c on one port) and its data and
// configuration directories in a directory of the test.
func startCaddy(t *testing.T, backend string) proxy {
	bin := proxyBinary(t, "caddy")
	p := proxy{name: "caddy", version: "caddy " + proxyVersion(t, bin, "version")}
	dir := t.TempDir()
	port := proctest.FreePort(t)
	conf := fmt.Sprintf(`{
	"admin": {"disabled": true},
	"logging": {"logs": {"default": {"writer": {"output": "file", "filename": %[1]q}, "level": "WARN"}}},
	"storage": {"module": "file_system", "root": %[2]q},
	"apps": {"http": {"servers": {"test": {
		"listen": ["127.0.0.1:%[3]d"],
		"protocols": ["h1", "h2c"],
		"automatic_https": {"disable": true},
		"routes": [{"handle": [{"handler": "reverse_proxy", "upstreams": [{"dial": %[4]q}]}]}]
	}}}}
}`, filepath.Join(dir, "caddy.log"), filepath.Join(dir, "data"), port, backend)
	confFile := filepath.Join(dir, "caddy.json")
	if err := os.WriteFile(confFile, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	p.log = filepath.Join(dir, "caddy.log")
	cmd := exec.Command(bin, "run", "--config", confFile, "--pidfile", filepath.Join(dir, "caddy.pid"))
	cmd.Env = append(os.Environ(), "HOME="+dir, "XDG_DATA_HOME="+dir, "XDG_CONFIG_HOME="+dir)
	proctest.Run(t, "caddy", cmd, p.log, port)
	p.h1 = fmt.Sprintf("http://127.0.0.1:%d", port)
	p.h2c = p.h1
	p.hops = []proxyHop{{"/h11/", "HTTP/1.1"}}
	return p
}

// proxyBackend is the Go server behind the proxies: a page under
// EarlyHintsMiddleware, which hints the stylesheet, at any path; under
// .../http1/... the middleware is wrapped in EarlyHintsHTTP1. It counts the
// 103s it sends.
type proxyBackend struct {
	srv   *httptest.Server
	hints atomic.Int64
	proto atomic.Value // the protocol of the last request
}

func newProxyBackend(t *testing.T) *proxyBackend {
	b := &proxyBackend{}
	page := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		io.WriteString(w, proxyPage)
	})
	hinted := EarlyHintsMiddleware(styleLink, schemaLink)(page)
	http1 := EarlyHintsHTTP1(hinted)
	big := Middleware(bigLinks()...)(page)
	budget4000 := MaxLinkBytes(4000, nil)(big)
	budget3500 := MaxLinkBytes(3500, nil)(big)
	b.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b.proto.Store(r.Proto)
		w = hintCounter{w, &b.hints}
		switch path := r.URL.Path; {
		case strings.Contains(path, "/http1/"):
			http1.ServeHTTP(w, r)
		case strings.Contains(path, "/big/4000/"):
			budget4000.ServeHTTP(w, r)
		case strings.Contains(path, "/big/3500/"):
			budget3500.ServeHTTP(w, r)
		case strings.Contains(path, "/big/"):
			big.ServeHTTP(w, r)
		case strings.Contains(path, "/exact/"):
			n, _ := strconv.Atoi(strings.Split(path[strings.Index(path, "/exact/"):], "/")[2])
			w.Header().Set("Link", exactLink(n))
			page.ServeHTTP(w, r)
		default:
			hinted.ServeHTTP(w, r)
		}
	}))
	t.Cleanup(b.srv.Close)
	return b
}

// bigLinks returns the stylesheet's link and enough modulepreloads after it
// for a Link field of about 5 KiB: more than nginx's default proxy buffer.
func bigLinks() Links {
	links := Links{styleLink}
	for i := 0; len(links.String()) < 5000; i++ {
		links = append(links, Link{Target: fmt.Sprintf("/assets/chunk-%04d.js", i), Rel: []string{RelModulePreload}})
	}
	return links
}

// exactLink returns a Link field value of n bytes holding the
// stylesheet's link.
func exactLink(n int) string {
	prefix := styleLink.String() + ", </"
	return prefix + strings.Repeat("a", n-len(prefix)-1) + ">"
}

// hintCounter counts the 103 responses written through it.
type hintCounter struct {
	http.ResponseWriter
	n *atomic.Int64
}

func (c hintCounter) WriteHeader(code int) {
	if code == http.StatusEarlyHints {
		c.n.Add(1)
	}
	c.ResponseWriter.WriteHeader(code)
}

func (c hintCounter) Unwrap() http.ResponseWriter { return c.ResponseWriter }

// proxyResult is what a client got for one request through a proxy.
type proxyResult struct {
	hints  int    // 103 responses whose Link field holds the stylesheet
	other  []int  // other 1xx codes
	status int    // of the final response
	linked bool   // the final response has the stylesheet's link
	body   string // of the final response
	err    error
}

// intact reports whether the client got the page as the backend wrote it.
func (r proxyResult) intact() bool {
	return r.err == nil && r.status == http.StatusOK && r.linked && r.body == proxyPage
}

func (r proxyResult) String() string {
	page := "page intact"
	if !r.intact() {
		page = fmt.Sprintf("page BROKEN (status %d, link %v, body %q, error %v)", r.status, r.linked, r.body, r.err)
	}
	s := fmt.Sprintf("%d 103 at the client, %s", r.hints, page)
	if len(r.other) > 0 {
		s += fmt.Sprintf(", other 1xx %v", r.other)
	}
	return s
}

// h2cTransport speaks HTTP/2 with prior knowledge over plain TCP.
func h2cTransport() *http2.Transport {
	return &http2.Transport{
		AllowHTTP: true,
		DialTLSContext: func(ctx context.Context, network, addr string, _ *tls.Config) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, network, addr)
		},
	}
}

// fetch GETs url with rt, recording the 1xx responses on the way.
func fetch(rt http.RoundTripper, url string) proxyResult {
	var res proxyResult
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	trace := &httptrace.ClientTrace{
		Got1xxResponse: func(code int, h textproto.MIMEHeader) error {
			if code == http.StatusEarlyHints && strings.Contains(strings.Join(h["Link"], ","), "</style.css>") {
				res.hints++
			} else {
				res.other = append(res.other, code)
			}
			return nil
		},
	}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodGet, url, nil)
	if err != nil {
		res.err = err
		return res
	}
	resp, err := rt.RoundTrip(req)
	if err != nil {
		res.err = err
		return res
	}
	defer resp.Body.Close()
	res.status = resp.StatusCode
	res.linked = strings.Contains(strings.Join(resp.Header["Link"], ","), "</style.css>")
	body, err := io.ReadAll(resp.Body)
	res.body, res.err = string(body), err
	return res
}

// rawHTTP1 sends a GET for path over HTTP/1.1 on a plain connection and
// returns the first bytes of what comes back within a few seconds, for the
// log of a broken page.
func rawHTTP1(base, path string) string {
	conn, err := net.Dial("tcp", strings.TrimPrefix(base, "http://"))
	if err != nil {
		return err.Error()
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(3 * time.Second))
	fmt.Fprintf(conn, "GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", path)
	b, err := io.ReadAll(io.LimitReader(conn, 1<<10))
	s := string(b)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		s += "\n[... no more within 3 s, connection still open]"
	}
	return s
}

// nginxKnows1xx reports whether an nginx version line ("nginx version:
// nginx/1.22.1") is 1.29 or later: nginx 1.29.0 learned to pass 1xx
// responses from upstreams on.
func nginxKnows1xx(version string) bool {
	_, v, ok := strings.Cut(version, "nginx/")
	if !ok {
		return false
	}
	major, rest, _ := strings.Cut(v, ".")
	minor, _, _ := strings.Cut(rest, ".")
	ma, err1 := strconv.Atoi(major)
	mi, err2 := strconv.Atoi(minor)
	return err1 == nil && err2 == nil && (ma > 1 || ma == 1 && mi >= 29)
}

// proxyMode is how the backend is configured for a request: the path
// segment that selects it.
type proxyMode struct {
	name, segment string
}

var proxyModes = []proxyMode{
	{"default", ""},
	{"EarlyHintsHTTP1", "http1/"},
	{"5 KiB Link", "big/"},
	{"MaxLinkBytes(4000)", "big/4000/"},
	{"MaxLinkBytes(3500)", "big/3500/"},
	// With the rest of the backend's head (status line, Content-Length,
	// Content-Type, Date and the blank line: 125 bytes), a Link field of
	// 3970 bytes makes a head of 4095 bytes, the most that nginx's default
	// buffer passes intact; 3971, a head of exactly 4096, comes out as a
	// 200 whose body never arrives; 3972 is a 502.
	{"3970-byte Link", "exact/3970/"},
	{"3971-byte Link", "exact/3971/"},
	{"3972-byte Link", "exact/3972/"},
}

// proxyExpect returns what is wrong with res, a request through p's hop
// in mode (rule 25), or "".
func proxyExpect(p proxy, hop proxyHop, mode proxyMode, sent int64, res proxyResult) string {
	switch {
	case p.name == "nginx" && (mode.segment == "big/" || mode.segment == "big/4000/" || mode.segment == "exact/3972/"):
		// nginx's default proxy_buffer_size, one memory page, holds the
		// whole head: with 4000 bytes of Link field, the status line,
		// Date, Content-Type and Content-Length take it past 4096.
		if res.err != nil || res.status != http.StatusBadGateway {
			return "want a 502 from nginx: the head is larger than its default proxy buffer (4 KiB)"
		}
	case p.name == "nginx" && mode.segment == "exact/3971/":
		// A head that fills the buffer to its last byte: nginx 1.22.1
		// answers 200 and then drops the connection without the body.
		if res.intact() {
			return "want the page broken: a head of exactly 4096 bytes fills nginx's default proxy buffer"
		}
	case strings.HasPrefix(mode.segment, "big/") || strings.HasPrefix(mode.segment, "exact/"):
		if sent != 0 || !res.intact() {
			return "want the page intact"
		}
	case mode.segment == "" || hop.proto == "HTTP/1.0":
		// The middleware sends no 103 over HTTP/1.x by default, and none
		// to HTTP/1.0 ever: every proxy delivers the page.
		if sent != 0 || res.hints != 0 || !res.intact() {
			return "want no 103 sent and the page intact"
		}
	case p.name == "nginx":
		if nginxKnows1xx(p.version) {
			return fmt.Sprintf("%s is 1.29 or later, which passes 1xx responses from upstreams on: "+
				"the hazard that docs/serving.md, EarlyHintsHTTP1's doc comment and this test describe "+
				"(nginx before 1.29 takes the 103 for the final response) does not hold for it; "+
				"measure it and update them (measured: %v)", p.version, res)
		}
		// The documented hazard: nginx before 1.29 behind
		// proxy_http_version 1.1 takes the 103 for the final response.
		if sent != 1 || res.intact() {
			return "want the 103 sent and the page broken: nginx before 1.29 does not know 1xx responses " +
				"from upstreams; if this nginx does, update docs/serving.md and EarlyHintsHTTP1's doc comment"
		}
	default:
		// Apache and Caddy pass the 103 on.
		if sent != 1 || res.hints != 1 || !res.intact() {
			return "want the 103 passed on to the client and the page intact"
		}
	}
	return ""
}

// TestProxies puts EarlyHintsMiddleware behind the reverse proxies of
// Debian 12 (nginx, Apache with mod_proxy_http and mod_http2, Caddy), run
// as the test's own processes, and checks what a client gets through each
// over HTTP/1.1 and h2c (rule 25): by default no 103 reaches the backend's
// HTTP/1.x hop and every page arrives intact; through EarlyHintsHTTP1 the
// 103 reaches the client through Apache and Caddy, and breaks the page
// through nginx 1.22 with proxy_http_version 1.1 (the documented hazard).
// A Link field of 5 KiB is a 502 behind nginx, whose default proxy buffer
// (4 KiB) holds the whole head; MaxLinkBytes(4000) is not enough for it
// either, as the rest of the head takes it past 4096 bytes, and
// MaxLinkBytes(3500) is (rule 27); with the backend's 125 other bytes of
// head, 3970 bytes of Link field pass, 3971 (a head of exactly 4096 bytes)
// lose the body and 3972 are a 502. The measured table is logged (go test
// -v).
func TestProxies(t *testing.T) {
	backend := newProxyBackend(t)
	addr := backend.srv.Listener.Addr().String()
	starts := []func(*testing.T, string) proxy{startNginx, startApache, startCaddy}
	var table []string
	for _, start := range starts {
		p := start(t, addr)
		t.Logf("%s: %s", p.name, p.version)
		for _, hop := range p.hops {
			for _, mode := range proxyModes {
				for _, h2c := range []bool{false, true} {
					client, base, rt := "HTTP/1.1", p.h1, http.RoundTripper(&http.Transport{DisableKeepAlives: true})
					if h2c {
						client, base, rt = "h2c", p.h2c, h2cTransport()
					}
					path := hop.prefix + mode.segment + "page"
					t.Run(fmt.Sprintf("%s/%s_hop/%s/%s_client", p.name, hop.proto, mode.name, client), func(t *testing.T) {
						before := backend.hints.Load()
						res := fetch(rt, base+path)
						sent := backend.hints.Load() - before
						line := fmt.Sprintf("%-40s %-8s hop  %-18s  %-8s client: backend sent %d 103, %v",
							p.version, hop.proto, mode.name, client, sent, res)
						table = append(table, line)
						t.Log(line)
						if got := backend.proto.Load(); got != hop.proto {
							t.Errorf("the backend saw %v, want %s", got, hop.proto)
						}
						if problem := proxyExpect(p, hop, mode, sent, res); problem != "" {
							if !h2c && !res.intact() {
								t.Logf("raw HTTP/1.1 exchange:\n%s", rawHTTP1(base, path))
							}
							logged, _ := os.ReadFile(p.log)
							t.Errorf("%s %s through %s (%s to the backend): %v; %s\n%s log:\n%s",
								client, path, p.version, hop.proto, res, problem, p.name, logged)
						}
					})
				}
			}
		}
	}
	t.Logf("measured:\n%s", strings.Join(table, "\n"))
}

func TestNginxKnows1xx(t *testing.T) {
	tests := []struct {
		version string
		want    bool
	}{
		{"nginx version: nginx/1.22.1", false},
		{"nginx version: nginx/1.28.9", false},
		{"nginx version: nginx/1.29.0", true},
		{"nginx version: nginx/1.30.1 (Ubuntu)", true},
		{"nginx version: nginx/2.0.0", true},
		{"nginx version: nginx/1.9.15", false},
		{"nginx version: openresty/1.21.4.1", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := nginxKnows1xx(tt.version); got != tt.want {
			t.Errorf("nginxKnows1xx(%q) = %v, want %v", tt.version, got, tt.want)
		}
	}
}
