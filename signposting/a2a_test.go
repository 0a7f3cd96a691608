package signposting

import (
	"context"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/weblinking/weblink/internal/proctest"
)

// a2aInstall is how to get Apache, as .ci/run does.
const a2aInstall = "apt-get install apache2 (as .ci/run does)"

// apacheBinary returns the path of Debian's apache2, or skips the test
// when it is missing and CI is not set; in CI a missing apache2 fails.
func apacheBinary(t *testing.T) string {
	t.Helper()
	if p, err := exec.LookPath("apache2"); err == nil {
		return p
	}
	if fi, err := os.Stat("/usr/sbin/apache2"); err == nil && fi.Mode()&0o111 != 0 {
		return "/usr/sbin/apache2"
	}
	msg := "no apache2 in PATH or /usr/sbin: " + a2aInstall
	if os.Getenv("CI") != "" {
		t.Fatal(msg + "; CI is set, so the A2A benchmark must run")
	}
	t.Skip(msg)
	return ""
}

// a2aModules are the Apache modules the benchmark's .htaccess files use.
var a2aModules = []string{"mpm_event", "authz_core", "mime", "headers", "alias", "rewrite", "negotiation", "dir", "autoindex"}

// startA2A copies the benchmark into a document root with its base URL,
// https://s11.no/, rewritten to a loopback port, runs apache2 in the
// foreground as one process on that port, and returns the URL of the
// benchmark's directory.
func startA2A(t *testing.T) string {
	bin := apacheBinary(t)
	port := proctest.FreePort(t)
	base := "http://127.0.0.1:" + strconv.Itoa(port)
	dir, err := os.MkdirTemp("", "a2a")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	root := filepath.Join(dir, "htdocs", "2022", "a2a-fair-metrics")
	src := filepath.Join("testdata", "a2a", "benchmark")
	err = filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		b = []byte(strings.ReplaceAll(string(b), "https://s11.no/", base+"/"))
		return os.WriteFile(filepath.Join(root, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	// Apache drops root for nobody, who must read the tree.
	for _, d := range []string{dir, filepath.Join(dir, "htdocs"), filepath.Join(dir, "htdocs", "2022")} {
		os.Chmod(d, 0o755)
	}
	var conf strings.Builder
	fmt.Fprintf(&conf, "ServerRoot %s\nServerName 127.0.0.1\nDefaultRuntimeDir %[1]s\nPidFile %[1]s/apache2.pid\nErrorLog %[1]s/error.log\nLogLevel warn\n", dir)
	for _, m := range a2aModules {
		fmt.Fprintf(&conf, "LoadModule %s_module /usr/lib/apache2/modules/mod_%[1]s.so\n", m)
	}
	if os.Geteuid() == 0 {
		conf.WriteString("User nobody\nGroup nogroup\n")
	}
	fmt.Fprintf(&conf, `Listen 127.0.0.1:%d
TypesConfig /etc/mime.types
DocumentRoot %s/htdocs
DirectoryIndex index.html
<Directory %[2]s/htdocs>
	AllowOverride All
	Require all granted
</Directory>
`, port, dir)
	confFile := filepath.Join(dir, "apache2.conf")
	if err := os.WriteFile(confFile, []byte(conf.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-d", dir, "-f", confFile, "-X", "-DFOREGROUND")
	proctest.Run(t, "apache2", cmd, filepath.Join(dir, "error.log"), port)
	return base + "/2022/a2a-fair-metrics/"
}

// a2aCases are the expectations of TestA2A, one per case of the benchmark,
// written from the case's .htaccess and files: the status, Level() (-1
// for an error of Fetch), the Level 1 signposts by relation type and
// count, how many Level 2 links, the problems as "L<level> <E|W><rule>",
// and why. The profile's cardinalities are MUSTs here, so a landing page
// without a type link is Level 0, as are most cases: the benchmark tests
// one signpost at a time.
var a2aCases = []struct {
	name   string
	status int
	level  int
	rels   string
	level2 int
	codes  []string
	why    string
}{
	{"01-http-describedby-only", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E3", "L1 E6", "L2 E17"}, "header: one describedby without type; no cite-as, no type link, no linkset"},
	{"02-html-full", 200, 1, "cite-as:1 describedby:2 item:1 author:2 license:1 type:2", 0, []string{"L2 E17"}, "HTML <link> only: cite-as, 2 type, 2 author, license, item and 2 describedby with types (schema.DC/DCTERMS are not signposts); Level 1, no linkset"},
	{"03-http-citeas-only", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "header: cite-as only"},
	{"04-http-describedby-iri", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "header: describedby with type to another host (the IRI of s11.no in punycode); no cite-as"},
	{"05-http-describedby-citeas", 200, 0, "cite-as:1 describedby:1", 0, []string{"L1 E6", "L2 E17"}, "header: describedby with type and cite-as; no type link"},
	{"06-http-citeas-describedby-item", 200, 0, "cite-as:1 describedby:1 item:1", 0, []string{"L1 E6", "L2 E17"}, "header: cite-as, describedby, item, all typed; no type link"},
	{"07-http-describedby-citeas-linkset-json", 200, 0, "cite-as:1 describedby:1 linkset:1", 3, []string{"L1 E6", "L2 E6"}, "as 06 minus item, plus a JSON linkset whose landing context has cite-as, item, describedby but no type link"},
	{"08-http-describedby-citeas-linkset-txt", 200, 0, "cite-as:1 describedby:1 linkset:1", 3, []string{"L1 E6", "L2 E6"}, "as 07 with the linkset as application/linkset text"},
	{"09-http-describedby-citeas-linkset-json-txt", 200, 0, "cite-as:1 describedby:1 linkset:2", 3, []string{"L1 E6", "L2 E6"}, "both linksets, the same links in each (counted once, not a duplicate: two documents); no type link at either level"},
	{"10-http-citeas-not-perma", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as on example.org (not a PID resolver, which Check cannot know)"},
	{"11-http-describedby-iri-wrong-type", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby typed text/html for Turtle: a valid media type, wrong only in meaning"},
	{"12-http-item-does-not-resolve", 200, 0, "item:1", 0, []string{"L1 E1", "L1 E3", "L1 E4", "L1 E6", "L2 E17"}, "one item without type (rule 4); nothing else"},
	{"13-http-describedby-with-type", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby with type, no cite-as"},
	{"14-http-describedby-citeas-linkset-json-txt-conneg", 200, 0, "cite-as:1 describedby:1 linkset:2", 3, []string{"L1 E6", "L2 E6"}, "two linkset links to one URL served by content negotiation (MultiViews): read once as JSON"},
	{"15-http-describedby-no-conneg", 200, 0, "describedby:2", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "two describedby, two URLs, two types"},
	{"16-http-describedby-conneg", 200, 0, "describedby:2", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "two describedby to one URL with two types: not a duplicate"},
	{"17-http-citeas-multiple-rels", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as written among three relation types in one rel"},
	{"18-html-citeas-only", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as in HTML only"},
	{"19-html-citeas-multiple-rels", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as in HTML among several relation types"},
	{"20-http-html-citeas-same", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "the same cite-as in header and HTML: counted once, no problem"},
	{"21-http-html-citeas-differ", 200, 0, "cite-as:2", 0, []string{"L1 E2", "L1 E3", "L1 E6", "L2 E17"}, "header and HTML cite-as differ (#different): rule 2"},
	{"22-http-html-citeas-describedby-mixed", 200, 0, "cite-as:1 describedby:1", 0, []string{"L1 E6", "L2 E17"}, "cite-as in the header, describedby in the HTML: combined"},
	{"23-http-citeas-describedby-item-license-type-author", 200, 1, "cite-as:1 describedby:1 item:1 author:1 license:1 type:1", 0, []string{"L2 E17"}, "complete Level 1 in the header (cite-as, describedby, item, license, type, author); no linkset"},
	{"24-http-citeas-204-no-content", 204, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "204 No Content with a cite-as header: read, status 204"},
	{"25-http-citeas-author-410-gone", 410, 0, "cite-as:1 author:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "410 Gone tombstone with cite-as and author headers: read like a 200, status 410"},
	{"26-http-citeas-203-non-authorative", 203, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "203 Non-Authoritative with a cite-as: read like a 200"},
	{"27-http-linkset-json-only", 200, 0, "linkset:1", 3, []string{"L1 E1", "L1 E3", "L1 E6", "L2 E6"}, "only a linkset link; its linkset has cite-as, item, describedby but no type"},
	{"28-http-linkset-txt-only", 200, 0, "linkset:1", 3, []string{"L1 E1", "L1 E3", "L1 E6", "L2 E6"}, "as 27, linkset as text"},
	{"29-http-500-server-error", 500, -1, "", 0, nil, "500 Internal Server Error: Fetch's error, with the status"},
	{"30-http-citeas-describedby-item-license-type-author-joint", 200, 1, "cite-as:1 describedby:1 item:1 author:1 license:1 type:1", 0, []string{"L2 E17"}, "23's links in one header line, unquoted rel values"},
	{"31-http-describedby-profile", 200, 0, "describedby:2", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "two describedby with profile attributes"},
	{"32-http-describedby-profile-conneg", 200, 0, "describedby:3", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "three describedby to one URL (conneg by type and profile): none a duplicate"},
	{"33-http-item-profile", 200, 0, "item:1", 0, []string{"L1 E1", "L1 E3", "L1 E6", "L2 E17"}, "one item with type and profile; no cite-as, no describedby"},
	{"34-http-item-rocrate", 200, 0, "cite-as:1 describedby:3 item:1", 0, []string{"L1 E6", "L2 E17"}, "RO-Crate: cite-as, three describedby, a zip item; no type link"},
	{"35-rda-f2-01m-t1-dc", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby to Dublin Core Turtle; no cite-as"},
	{"36-rda-f2-01m-t1-schema", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby to schema.org Turtle; no cite-as"},
	{"37-rda-f2-01m-t1-dct", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby to DC Terms Turtle; no cite-as"},
	{"38-rda-f2-01m-t1-schema-https", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby to case 36's metadata; no cite-as"},
	{"39-rda-f2-01m-t1-dcat", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby to DCAT Turtle; no cite-as"},
	{"40-rda-f2-01m-t2-dc-wrong-type", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby typed application/n-quads for Turtle: valid syntax"},
	{"41-rda-f2-01m-t2-dct-attributes", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "describedby to an old path that redirects; no cite-as"},
	{"42-rda-f2-01m-t1-schema-attributes", 200, 0, "describedby:1", 0, []string{"L1 E1", "L1 E6", "L2 E17"}, "as 41"},
	{"43-rda-f3-01m-t1-one-item", 200, 0, "cite-as:1 describedby:1 item:1", 0, []string{"L1 E6", "L2 E17"}, "cite-as, describedby, one item; no type link"},
	{"44-rda-f3-01m-t1-one-item-dct-identifier", 200, 0, "cite-as:1 describedby:1 item:1", 0, []string{"L1 E6", "L2 E17"}, "as 43"},
	{"45-rda-f3-01m-t1-one-item-schema-datadownload", 200, 0, "cite-as:1 describedby:1 item:1", 0, []string{"L1 E6", "L2 E17"}, "as 43"},
	{"46-rda-f3-01m-t1-one-item-dcat-datadownload", 200, 0, "cite-as:1 describedby:1 item:1", 0, []string{"L1 E6", "L2 E17"}, "as 43 with DCAT metadata"},
	{"47-rda-f3-01m-t1-multiple-item-dcat-datadownload", 200, 0, "cite-as:1 describedby:1 item:2", 0, []string{"L1 E6", "L2 E17"}, "as 46 with two items"},
	{"48-rda-f3-01m-t1-multiple-item-dcat-datadownload-split", 200, 0, "cite-as:1 describedby:3 item:2", 0, []string{"L1 E6", "L2 E17"}, "three describedby, two items; no type link"},
	{"50-rda-f1-01m-t1-metadata-pid", 200, 0, "cite-as:1 describedby:1", 0, []string{"L1 E6", "L2 E17"}, "cite-as and a describedby on w3id.org; no type link"},
	{"51-rda-f1-01m-t1-metadata-no-pid", 200, 0, "cite-as:1 describedby:1", 0, []string{"L1 E6", "L2 E17"}, "cite-as and describedby; no type link"},
	{"52-rda-f1-01d-t1-data-pid", 200, 0, "cite-as:1 item:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as and one typed item; no describedby, no type link"},
	{"53-rda-f1-01d-t1-data-no-pid", 200, 0, "cite-as:1 item:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "as 52, the item redirects"},
	{"54-rda-r1-01m-t4-type", 200, 0, "cite-as:1 type:1", 0, []string{"L1 E3", "L2 E17"}, "cite-as and one type link; no describedby"},
	{"55-rda-r1-01m-t5-type-unresolve", 200, 0, "cite-as:1 type:3", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "three type links (rule 6); no describedby"},
	{"56-rda-r1-01m-t6-unfair", 200, 0, "cite-as:1 type:1", 0, []string{"L1 E3", "L2 E17"}, "cite-as and a type link with a fragment; no describedby"},
	{"57-rda-r1-01m-t7-type-and-about", 200, 0, "cite-as:1 item:1 type:2", 0, []string{"L1 E3", "L2 E17"}, "cite-as, two type links, one item; no describedby"},
	{"58-rda-r1-01m-t7-type-and-no-about", 200, 0, "cite-as:1 item:1 type:1", 0, []string{"L1 E3", "L2 E17"}, "as 57 with one type link"},
	{"59-rda-r1-01m-t8-type-and-only-about", 200, 0, "cite-as:1 item:1 type:1", 0, []string{"L1 E3", "L2 E17"}, "as 58 with AboutPage as the type"},
	{"60-rda-f1-01md-t1-citeas-pid", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as only (a w3id.org PID)"},
	{"61-rda-f1-01md-t1-citeas-no-pid", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L1 W12", "L2 E17"}, "cite-as is the landing page's own URL: rule 12 warning"},
	{"65-rda-r1-01m-t1-item-type", 200, 0, "cite-as:1 item:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as and a typed item; no describedby, no type link"},
	{"66-rda-r1-01m-t1-multiple-item-type", 200, 0, "cite-as:1 item:2", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "as 65 with two items"},
	{"67-rda-r1-01m-t1-no-item", 200, 0, "cite-as:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "cite-as only"},
	{"68-rda-r1-01m-t1-some-item-type", 200, 0, "cite-as:1 item:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "as 65"},
	{"69-rda-r1-01m-t2-wrong-type", 200, 0, "cite-as:1 item:1", 0, []string{"L1 E10", "L1 E3", "L1 E6", "L2 E17"}, "item type=\"csv\": not a media type (rule 10)"},
	{"70-rda-r1-01m-t2-type-charset", 200, 0, "cite-as:1 item:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "item type text/csv;charset=UTF-8: a media type with a parameter, valid"},
	{"71-rda-r1-01m-t3-type-registered", 200, 0, "cite-as:1 item:2", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "two typed items"},
	{"72-rda-r1-01m-t4-type-unregistered", 200, 0, "cite-as:1 item:1", 0, []string{"L1 E3", "L1 E6", "L2 E17"}, "an item of a vendor media type: valid"},
	{"75-rda-r1-1-01m-t1-license", 200, 0, "license:1", 0, []string{"L1 E1", "L1 E3", "L1 E6", "L2 E17"}, "license only"},
}

// TestA2A serves the A2A FAIR metrics benchmark with Apache and reads
// every case with Fetch.
func TestA2A(t *testing.T) {
	base := startA2A(t)
	entries, err := os.ReadDir(filepath.Join("testdata", "a2a", "benchmark"))
	if err != nil {
		t.Fatal(err)
	}
	var dirs []string
	for _, e := range entries {
		if e.IsDir() {
			dirs = append(dirs, e.Name())
		}
	}
	if len(dirs) != len(a2aCases) {
		t.Fatalf("%d cases in testdata, %d expectations", len(dirs), len(a2aCases))
	}
	perLevel := map[int]int{}
	for i, tc := range a2aCases {
		t.Run(tc.name, func(t *testing.T) {
			if dirs[i] != tc.name {
				t.Fatalf("case %d is %s in testdata", i, dirs[i])
			}
			req, _ := http.NewRequest(http.MethodGet, base+tc.name+"/", nil)
			s, err := Fetch(context.Background(), nil, req)
			if tc.level < 0 {
				if err == nil || s == nil || s.StatusCode != tc.status {
					t.Fatalf("Fetch = %v, %v; want an error and status %d (%s)", s, err, tc.status, tc.why)
				}
				perLevel[-1]++
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v (%s)", err, tc.why)
			}
			var rels []string
			for _, rel := range relations {
				if n := len(*s.relField(rel)); n > 0 {
					rels = append(rels, fmt.Sprintf("%s:%d", rel, n))
				}
			}
			ps := s.Check()
			if got := strings.Join(rels, " "); got != tc.rels || s.StatusCode != tc.status || len(s.Level2) != tc.level2 || s.Level() != tc.level || !slices.Equal(codes(ps), sorted(tc.codes)) {
				t.Errorf("got status %d, level %d, %q, %d Level 2 links, %v\nwant status %d, level %d, %q, %d, %v\n(%s)",
					s.StatusCode, s.Level(), got, len(s.Level2), codes(ps), tc.status, tc.level, tc.rels, tc.level2, tc.codes, tc.why)
			}
			perLevel[s.Level()]++
		})
	}
	t.Logf("cases per level: 2: %d, 1: %d, 0: %d, error: %d", perLevel[2], perLevel[1], perLevel[0], perLevel[-1])
}

// sorted returns a sorted copy of s.
func sorted(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}

// TestA2ADump prints what Fetch reads of each case (go test -run
// TestA2ADump -v), to write the expectations of TestA2A.
func TestA2ADump(t *testing.T) {
	if os.Getenv("A2A_DUMP") == "" {
		t.Skip("set A2A_DUMP=1")
	}
	base := startA2A(t)
	entries, _ := os.ReadDir(filepath.Join("testdata", "a2a", "benchmark"))
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		req, _ := http.NewRequest(http.MethodGet, base+e.Name()+"/", nil)
		s, err := Fetch(context.Background(), nil, req)
		if err != nil {
			t.Logf("%s: error %v", e.Name(), err)
			continue
		}
		var rels []string
		for _, rel := range relations {
			if n := len(*s.relField(rel)); n > 0 {
				rels = append(rels, fmt.Sprintf("%s:%d", rel, n))
			}
		}
		c := codes(s.Check())
		slices.Sort(c)
		t.Logf("%s: %d status %d L2=%d %v %v", e.Name(), s.Level(), s.StatusCode, len(s.Level2), rels, c)
		for _, p := range s.Check() {
			t.Logf("      %d %v %s", p.Level, p.Warning, p.Msg)
		}
	}
}
