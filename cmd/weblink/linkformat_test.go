package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// rdExtended is the extended discovery answer of RFC 9176 Appendix B.2, as
// the RFC prints it, with its line breaks.
const rdExtended = `</sensors/temp>;rt=temperature;ct=0,
</sensors/light>;rt=light-lux;ct=0,
</t>;anchor="/sensors/temp";rel=alternate,
<http://www.example.com/sensors/t123>;anchor="/sensors/temp";
    rel=describedby
`

func TestLinkFormatStdin(t *testing.T) {
	// Resolved by RFC 6690 §2.1: the context in the anchor, hosts by
	// default, relative targets against their anchor; -format writes
	// link-format.
	base := "coap://[2001:db8:f0::1]/.well-known/core"
	runCmd(t, rdExtended, "-linkformat", "-base", base, "-format").want(t, exitOK, ""+
		`<coap://[2001:db8:f0::1]/sensors/temp>;rel="hosts";anchor="coap://[2001:db8:f0::1]/";rt="temperature";ct=0`+"\n"+
		`<coap://[2001:db8:f0::1]/sensors/light>;rel="hosts";anchor="coap://[2001:db8:f0::1]/";rt="light-lux";ct=0`+"\n"+
		`<coap://[2001:db8:f0::1]/t>;rel="alternate";anchor="coap://[2001:db8:f0::1]/sensors/temp"`+"\n"+
		`<http://www.example.com/sensors/t123>;rel="describedby";anchor="coap://[2001:db8:f0::1]/sensors/temp"`+"\n")
	runCmd(t, rdExtended, "-linkformat", "-base", base, "-rel", "hosts").want(t, exitOK,
		"coap://[2001:db8:f0::1]/sensors/temp\ncoap://[2001:db8:f0::1]/sensors/light\n")

	// Without -linkformat the same text is Link field values, resolved by
	// RFC 8288: </t> against the base, not its anchor, and no hosts.
	runCmd(t, rdExtended, "-base", base, "-rel", "alternate").want(t, exitOK, "coap://[2001:db8:f0::1]/t\n")
	runCmd(t, "</a/b>;anchor=\"/x/y\";rel=alternate,<c>;anchor=\"/x/y\";rel=alternate", "-linkformat", "-base", "coap://h/q/r", "-rel", "alternate").
		want(t, exitOK, "coap://h/a/b\ncoap://h/x/c\n")

	// Without a base, the links stay as written.
	runCmd(t, "</a>;rt=x", "-linkformat", "-format").want(t, exitOK, "</a>;rt=\"x\"\n")
}

func TestLinkFormatStdinProblems(t *testing.T) {
	r := runCmd(t, "</a>;rel=memento,\nbroken;x,\n</c>", "-linkformat", "-rel", "hosts", "-base", "coap://h/")
	r.want(t, exitOK, "coap://h/c\n")
	r.wantErr(t, `line 2, byte 18: link-value must start with "<"`)
}

// linkFormatServer serves a /.well-known/core as application/link-format,
// a TimeMap as text/plain, and records the methods of the requests.
type linkFormatServer struct {
	mu      sync.Mutex
	methods []string
}

func (s *linkFormatServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	s.methods = append(s.methods, r.Method+" "+r.URL.Path)
	s.mu.Unlock()
	switch r.URL.Path {
	case "/.well-known/core":
		w.Header().Set("Content-Type", "application/link-format; charset=utf-8")
		w.Header().Set("Link", `<ignored>; rel=next`)
		fmt.Fprint(w, "</sensors/temp>;rt=\"temperature\";ct=0,\n</temperature/Malmö>;rel=live-environment-data")
	case "/timemap":
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, `<http://a.example/>;rel="original",
</web/20000620180259/http://a.example/>;rel="first memento";datetime="Tue, 20 Jun 2000 18:02:59 GMT",
</web/20091027204954/http://a.example/>;rel="last memento";datetime="Tue, 27 Oct 2009 20:49:54 GMT",
`)
	case "/missing":
		w.Header().Set("Content-Type", "application/link-format")
		http.Error(w, "", http.StatusNotFound)
	}
}

func TestLinkFormatURL(t *testing.T) {
	s := &linkFormatServer{}
	srv := httptest.NewServer(s)
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")

	// Detected by its Content-Type: HEAD, then GET for the body; the
	// body's links, not the header's.
	r := runCmd(t, "", "-url", srv.URL+"/.well-known/core", "-format")
	r.want(t, exitOK, ""+
		`<http://`+host+`/sensors/temp>;rel="hosts";anchor="http://`+host+`/";rt="temperature";ct=0`+"\n"+
		`<http://`+host+`/temperature/Malmö>;rel="live-environment-data";anchor="http://`+host+`/"`+"\n")
	if got := strings.Join(s.methods, ", "); got != "HEAD /.well-known/core, GET /.well-known/core" {
		t.Errorf("requests: %s", got)
	}

	// -linkformat reads the body whatever its Content-Type, with one GET.
	s.methods = nil
	runCmd(t, "", "-url", srv.URL+"/timemap", "-linkformat", "-rel", "memento").want(t, exitOK, ""+
		"http://"+host+"/web/20000620180259/http://a.example/\n"+
		"http://"+host+"/web/20091027204954/http://a.example/\n")
	if got := strings.Join(s.methods, ", "); got != "GET /timemap" {
		t.Errorf("requests: %s", got)
	}

	// A status other than 2xx fails as -url does.
	r = runCmd(t, "", "-url", srv.URL+"/missing", "-linkformat")
	r.want(t, exitNone, "")
	r.wantErr(t, "answered 404")
}

func TestLinkFormatUsage(t *testing.T) {
	for _, args := range [][]string{
		{"-linkformat", "-check"},
		{"-linkformat", "-url", "http://example.com/", "-all"},
		{"-linkformat", "-url", "http://example.com/", "-discover"},
		{"-linkformat", "</a>"},
	} {
		r := runCmd(t, "", args...)
		r.want(t, exitProblem, "")
		r.wantErr(t, "-linkformat reads standard input or the body of -url")
	}
}
