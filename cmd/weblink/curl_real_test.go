package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"testing"
)

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
