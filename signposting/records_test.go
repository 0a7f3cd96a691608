package signposting

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink"
)

// record is a platform's landing page and linkset, from its fixtures in
// testdata/records (see the README there).
type record struct {
	name     string
	origin   string // the base URL written in the files
	landing  string // path and query of the landing page
	header   string // file with the Link header, "" for header lines
	lines    []string
	linkset  string // path of the linkset
	file     string // its file
	ctype    string // its Content-Type
	level    int
	codes    []string
	problems string // what they are, for the report
}

var records = []record{
	{
		name: "InvenioRDM", origin: "https://127.0.0.1:5000", landing: "/records/12345-abcde",
		header: "inveniordm/header.txt", linkset: "/api/records/12345-abcde", file: "inveniordm/linkset.json", ctype: weblink.LinksetJSONType,
		level: 0, codes: []string{"L1 E5", "L2 E5", "L2 W18"},
		problems: "five license links in the header and six in the linkset (rule 5); profile as a string (rule 18); the fifteen describedby links to one URL differ in type and are fine",
	},
	{
		name: "Dataverse before 5.14", origin: "https://demo.dataverse.org", landing: "/dataset.xhtml?persistentId=doi:10.5072/FK2/YD5QDG",
		header: "dataverse/header.txt", linkset: "/api/datasets/:persistentId/versions/1.0/linkset", file: "dataverse/linkset-5.13.json", ctype: "application/json",
		level: 1, codes: []string{"L2 E16", "L2 E19"},
		problems: "the {\"data\": ...} envelope (rule 19); no item link in the linkset (rule 16)",
	},
	{
		name: "DSpace", origin: "http://localhost:4000", landing: "/entities/publication/f5c7c0f2-6b7e-4f5e-9a57-1b6ad1c2a001",
		lines: []string{
			`<http://localhost:4000/handle/123456789/5> ; rel="cite-as"`,
			`<http://localhost:4000/bitstreams/2a8b5e39-0c4d-4b0e-8d1f-3c5e7a9b0002/download> ; rel="item" ; type="text/plain"`,
			`<https://schema.org/AboutPage> ; rel="type"`,
			`<http://localhost:4000/signposting/linksets/f5c7c0f2-6b7e-4f5e-9a57-1b6ad1c2a001> ; rel="linkset" ; type="application/linkset"`,
			`<http://localhost:4000/signposting/describedby/f5c7c0f2-6b7e-4f5e-9a57-1b6ad1c2a001> ; rel="describedby" ; type="application/vnd.datacite.datacite+xml"`,
		},
		linkset: "/signposting/linksets/f5c7c0f2-6b7e-4f5e-9a57-1b6ad1c2a001", file: "dspace/linkset.txt", ctype: weblink.LinksetType + ";charset=UTF-8",
		level: 2, codes: []string{"L1 W12", "L2 W12"},
		problems: "the handle as a URL of the repository itself for cite-as (rule 12)",
	},
}

// TestRecords reads the Signposting of InvenioRDM, Dataverse and DSpace as
// their own fixtures write it, quirks included, and checks the problems
// the rules find.
func TestRecords(t *testing.T) {
	for _, rc := range records {
		t.Run(rc.name, func(t *testing.T) {
			s := fetchRecord(t, rc)
			ps := s.Check()
			if got := codes(ps); !slices.Equal(got, rc.codes) || s.Level() != rc.level {
				t.Errorf("level %d, problems %v; want %d, %v (%s)", s.Level(), got, rc.level, rc.codes, rc.problems)
				for _, p := range ps {
					t.Logf("  %d %v %s %v", p.Level, p.Warning, p.Msg, p.Link)
				}
			}
			if len(s.CiteAs) != 1 || len(s.Level2) == 0 {
				t.Errorf("CiteAs %v, %d Level 2 links: the record was not read whole", s.CiteAs, len(s.Level2))
			}
		})
	}
}

// fetchRecord serves rc and fetches its landing page.
func fetchRecord(t *testing.T, rc record) *Signposts {
	t.Helper()
	var base string
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "records", name))
		if err != nil {
			t.Fatal(err)
		}
		return strings.ReplaceAll(strings.TrimSpace(string(b)), rc.origin, base)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case strings.Split(rc.landing, "?")[0]:
			if rc.header != "" {
				w.Header().Set("Link", read(rc.header))
			}
			for _, l := range rc.lines {
				w.Header().Add("Link", strings.ReplaceAll(l, rc.origin, base))
			}
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<!doctype html><title>record</title>"))
		case rc.linkset:
			w.Header().Set("Content-Type", rc.ctype)
			w.Write([]byte(read(rc.file)))
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	base = srv.URL
	req, _ := http.NewRequest(http.MethodGet, base+rc.landing, nil)
	s, err := Fetch(context.Background(), nil, req)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
