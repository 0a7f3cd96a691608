package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// curlVerbose is curl -v -L output as `curl -v -L URL 2>&1` pipes it: the
// progress meter (curl's output is not a terminal) with its carriage
// returns, information ("* "), the requests ("> "), a redirect whose
// Location moves the base, then the final response ("< ") and a data
// marker ("{ ") before the body.
const curlVerbose = "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n" +
	"                                 Dload  Upload   Total   Spent    Left  Speed\n" +
	"\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0*   Trying 127.0.0.1:8765...\n" +
	"* Connected to api.example.com (127.0.0.1) port 80 (#0)\n" +
	"> GET /items HTTP/1.1\r\n" +
	"> Host: api.example.com\r\n" +
	"> Link: <request>; rel=next\r\n" +
	"> \r\n" +
	"< HTTP/1.1 301 Moved Permanently\r\n" +
	"< Location: /v2/items\r\n" +
	"< Link: <old>; rel=next\r\n" +
	"< \r\n" +
	"{ [5 bytes data]\n" +
	"* Issue another request to this URL: 'http://api.example.com/v2/items'\n" +
	"> GET /v2/items HTTP/1.1\r\n" +
	"> \r\n" +
	"\r  0     0    0     0    0     0      0      0 --:--:--  0:00:01 --:--:--     0< HTTP/1.1 200 OK\r\n" +
	"< Content-Type: application/json\r\n" +
	"< link: <?page=2>; rel=\"next\",\r\n" +
	"<  <?page=9>; rel=\"last\"\r\n" +
	"< \r\n" +
	"{ [14519 bytes data]\n"

// TestCurlVerboseStdin: curl -v output on standard input is read by its
// response lines ("< "), as response heads are: the last head counts, a
// redirect's Location moves -base, and the body after it is not read.
// Before, it was read as link values: "link-value must start with "<""
// for the progress meter, then "no links found".
func TestCurlVerboseStdin(t *testing.T) {
	in := io.MultiReader(strings.NewReader(curlVerbose), bodyReader{t})
	runWith(t, in, nil, "-rel", "next", "-base", "http://api.example.com/items").
		want(t, exitOK, "http://api.example.com/v2/items?page=2\n")
	// Without the progress meter (curl -sv), with HTTP/2's "<" alone for
	// the blank line, and with 103 Early Hints (shown as such).
	in2 := "* Connected to h (127.0.0.1) port 443 (#0)\n> GET / HTTP/2\n>\n" +
		"< HTTP/2 103\n< link: </s.css>; rel=preload; as=style\n<\n" +
		"< HTTP/2 200\n< link: </a>; rel=alternate\n<\n{ [5 bytes data]\n< HTTP/2 200\n< link: </body>; rel=x\n"
	runCmd(t, in2, "-format").want(t, exitOK, "</a>; rel=\"alternate\"\n")
	r := runCmd(t, in2)
	r.want(t, exitOK, "FROM   REL        TARGET  ATTRIBUTES\n103    preload    /s.css  as=style\nfinal  alternate  /a\n")
	// A -check position is the line of the input.
	r = runCmd(t, "* x\n< HTTP/1.1 200 OK\n> y\n< Link: <a>; rel=next; rel=prev\n<\n", "-check")
	if !strings.Contains(r.stdout, "line 4") {
		t.Errorf("-check: stdout %q, want it to name line 4", r.stdout)
	}
	// curl -i as 2>&1 pipes it: the progress meter, then the heads, an
	// update before the first; the body is not read, "< " lines in it
	// neither (before, the meter gave syntax errors).
	in3 := "  % Total    % Received % Xferd  Average Speed   Time    Time     Time  Current\n" +
		"                                 Dload  Upload   Total   Spent    Left  Speed\n" +
		"\r  0     0    0     0    0     0      0      0 --:--:-- --:--:-- --:--:--     0HTTP/1.1 301 Moved\r\n" +
		"Location: /b\r\n\r\nHTTP/1.1 200 OK\r\nLink: <c>; rel=next\r\n\r\n< HTTP/1.1 200\n< Link: <body>; rel=next\n"
	runCmd(t, in3, "-rel", "next", "-base", "http://h/a").want(t, exitOK, "http://h/c\n")
	// A link-value that starts with "<" and a space is not curl -v's.
	runCmd(t, "< https://a.example/2>; rel=\"next\"\n", "-rel", "next").want(t, exitOK, "https://a.example/2\n")
	// Nor is a linkset+json document that starts with "{ ".
	runCmd(t, "{ \"linkset\": [{\"anchor\": \"https://a.example/\", \"next\": [{\"href\": \"/2\"}]}] }", "-rel", "next").
		want(t, exitOK, "/2\n")
	// curl's output without a response head.
	r = runCmd(t, "* Could not resolve host: nowhere.example\n* Closing connection 0\n")
	r.want(t, exitNone, "")
	r.wantErr(t, "curl -v output without a response head")
}

// TestRealCurl pipes the output of the real curl (Debian's; .ci/run
// installs it) into the command, as README and -h tell users to: curl -sI,
// curl -i and curl -v 2>&1 of a server that redirects once and then sends
// a 103 Early Hints head before the final one. Each gives the final
// head's next link, resolved against the URL the redirect led to, and a
// table with the 103's link (the synthetic forms of these outputs are in curl_test.go).
func TestRealCurl(t *testing.T) {
	curl, err := exec.LookPath("curl")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("CI needs curl: %v", err)
		}
		t.Skip(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/items" {
			w.Header().Set("Link", `<old>; rel="next"`)
			http.Redirect(w, r, "/v2/items", http.StatusMovedPermanently)
			return
		}
		w.Header().Set("Link", `</s.css>; rel=preload; as=style`)
		w.WriteHeader(http.StatusEarlyHints)
		w.Header().Set("Link", `<?page=2>; rel="next", <?page=9>; rel="last"`)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`[{"id": 1}]` + "\n< Link: <body>; rel=next\n"))
	}))
	defer srv.Close()
	want := srv.URL + "/v2/items?page=2\n"
	for _, args := range [][]string{
		{"-sIL"},
		{"-siL"},
		{"-svL"},
		{"-vL"}, // with the progress meter: stderr is not a terminal
	} {
		t.Run(args[0], func(t *testing.T) {
			out, err := exec.Command(curl, append(args, srv.URL+"/items")...).CombinedOutput()
			if err != nil {
				t.Fatalf("curl %s: %v\n%s", args[0], err, out)
			}
			runCmd(t, string(out), "-rel", "next", "-base", srv.URL+"/items").want(t, exitOK, want)
			// The 103's link is in the table, marked as such.
			if r := runCmd(t, string(out)); !strings.Contains(r.stdout, "\n103    preload  /s.css   as=style\nfinal  next") {
				t.Errorf("table %q, want the 103's preload", r.stdout)
			}
		})
	}
}
