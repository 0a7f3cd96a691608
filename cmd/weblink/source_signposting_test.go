package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// signpostSite serves /good, a landing page at Level 2; /warned, the same
// with its type link twice (a warning of rule 9 of package signposting);
// /tombstone, the same answering 410 Gone; /bad, one whose item has
// type="csv" and whose cite-as holds an escape sequence; and /gone, a
// 500.
func signpostSite(t *testing.T) string {
	var base string
	// good writes the Link header of a Level 2 page; its linkset, at
	// /ls/page, has page as its anchor.
	good := func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `<https://doi.org/10.1/x>; rel="cite-as", <`+base+`/m.json>; rel="describedby"; type="application/json", <`+base+`/d.csv>; rel="item"; type="text/csv", <https://schema.org/Dataset>; rel="type", <`+base+`/ls`+r.URL.Path+`>; rel="linkset"; type="application/linkset+json"`)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/good", func(w http.ResponseWriter, r *http.Request) { good(w, r) })
	mux.HandleFunc("/warned", func(w http.ResponseWriter, r *http.Request) {
		good(w, r)
		w.Header().Add("Link", `<https://schema.org/Dataset>; rel="type"`)
	})
	mux.HandleFunc("/tombstone", func(w http.ResponseWriter, r *http.Request) {
		good(w, r)
		w.WriteHeader(http.StatusGone)
	})
	mux.HandleFunc("/ls/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/linkset+json")
		fmt.Fprintf(w, `{"linkset":[{"anchor":"%[1]s%[2]s","cite-as":[{"href":"https://doi.org/10.1/x"}],"describedby":[{"href":"%[1]s/m.json","type":"application/json"}],"item":[{"href":"%[1]s/d.csv","type":"text/csv"}],"type":[{"href":"https://schema.org/Dataset"}]}]}`, base, strings.TrimPrefix(r.URL.Path, "/ls"))
	})
	mux.HandleFunc("/bad", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Link", `<https://doi.org/10.1/x>; rel="cite-as", <`+base+`/d.csv>; rel="item"; type="csv"`)
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<link rel=cite-as href=\"https://doi.org/\x1b[31mred\">")
	})
	mux.HandleFunc("/gone", func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(500) })
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	base = srv.URL
	return base
}

// TestSignposting runs weblink -signposting: the table, -json, and the
// exit status, 0 when clean, with warnings only or for a 410 tombstone,
// and 2 on a broken rule or a failed fetch.
func TestSignposting(t *testing.T) {
	base := signpostSite(t)
	r := runCmd(t, "", "-url", base+"/good", "-signposting")
	if r.code != 0 || !strings.Contains(r.stdout, "level 2\n") || !strings.Contains(r.stdout, "cite-as      https://doi.org/10.1/x\n") {
		t.Errorf("good: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "", "-url", base+"/warned", "-signposting")
	if r.code != 0 || !strings.Contains(r.stdout, "level 2\n") || !strings.Contains(r.stdout, "level 1 warning: the same type link is written twice; it counts once: write it once (rule 9)\n") || strings.Contains(r.stdout, " error: ") {
		t.Errorf("warnings only: exit %d, want 0 with the warning\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "", "-url", base+"/warned", "-signposting", "-json")
	var warned struct {
		Level    int
		Problems []struct{ Warning bool }
	}
	if err := json.Unmarshal([]byte(r.stdout), &warned); err != nil || r.code != 0 || warned.Level != 2 || len(warned.Problems) != 1 || !warned.Problems[0].Warning {
		t.Errorf("warnings only, -json: exit %d, %v, %+v; want 0, level 2 and one warning\n%s", r.code, err, warned, r.stdout)
	}
	r = runCmd(t, "", "-url", base+"/tombstone", "-signposting")
	if r.code != 0 || !strings.Contains(r.stdout, "(status 410): level 2\n") || !strings.Contains(r.stdout, "cite-as      https://doi.org/10.1/x\n") {
		t.Errorf("410 tombstone: exit %d, want 0 at level 2\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "", "-url", base+"/bad", "-signposting")
	if r.code != 2 || !strings.Contains(r.stdout, `level 1 error: type="csv" is not a media type`) || !strings.Contains(r.stdout, "level 1 error: the HTML's cite-as differs") {
		t.Errorf("bad: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if strings.Contains(r.stdout, "\x1b") {
		t.Errorf("an escape sequence reached the terminal:\n%q", r.stdout)
	}
	r = runCmd(t, "", "-url", base+"/bad", "-signposting", "-json")
	var out struct {
		Level     int
		Signposts struct{ Linkset []map[string]any }
		Problems  []struct {
			Level   int
			Warning bool
			Msg     string
			Link    string
		}
	}
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || r.code != 2 || out.Level != 0 || len(out.Problems) == 0 || len(out.Signposts.Linkset) != 1 {
		t.Errorf("-json: exit %d, %v, %+v\n%s", r.code, err, out, r.stdout)
	}
	r = runCmd(t, "", "-url", base+"/gone", "-signposting")
	if r.code != 2 || !strings.Contains(r.stderr, "500") {
		t.Errorf("500: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = runCmd(t, "", "-url", base+"/good", "-signposting", "-check")
	if r.code != 2 || !strings.Contains(r.stderr, "-signposting needs -url") {
		t.Errorf("-check: exit %d\n%s", r.code, r.stderr)
	}
}
