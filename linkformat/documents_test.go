package linkformat_test

import (
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/linkformat"
)

// readDoc returns the document testdata/name (see testdata/README.md for
// where each comes from).
func readDoc(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// parseDoc parses testdata/name, which must parse without error, and
// checks that it has n links.
func parseDoc(t *testing.T, name string, n int) weblink.Links {
	t.Helper()
	ls, err := linkformat.Parse(readDoc(t, name))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(ls) != n {
		t.Fatalf("%s: %d links, want %d", name, len(ls), n)
	}
	return ls
}

// hostsLink is the resolved form of a link without anchor or rel.
func hostsLink(target, anchor string, params ...weblink.Param) weblink.Link {
	return weblink.Link{Target: target, Anchor: anchor, Rel: []string{"hosts"}, Params: params}
}

// TestRFC6690Examples checks every example of RFC 6690 §5: what they
// parse to, their resolution, and that Format writes back as the RFC
// prints them the ones whose parameters are in Format's order.
func TestRFC6690Examples(t *testing.T) {
	for _, tt := range []struct {
		file string
		n    int
	}{
		{"rfc6690-5-wellknown.wlnk", 2},
		{"rfc6690-5-oneline.wlnk", 2},
		{"rfc6690-5-index.wlnk", 1},
		{"rfc6690-5-sensors.wlnk", 2},
		{"rfc6690-5-rt-filter.wlnk", 1},
		{"rfc6690-5-rt-multi.wlnk", 1},
		{"rfc6690-5-firmware.wlnk", 1},
	} {
		ls := parseDoc(t, tt.file, tt.n)
		printed := strings.ReplaceAll(strings.TrimSpace(string(readDoc(t, tt.file))), "\n", "")
		if got := string(linkformat.Format(ls)); got != printed {
			t.Errorf("%s: Format =\n%s\nthe RFC prints\n%s", tt.file, got, printed)
		}
	}
	if v := linkformat.Values(parseDoc(t, "rfc6690-5-rt-filter.wlnk", 1)[0], "rt"); !cmp.Equal(v, []string{"light-lux"}) {
		t.Errorf("rt of the filtered link: %q", v)
	}
	if ct, err := linkformat.ContentFormats(parseDoc(t, "rfc6690-5-index.wlnk", 1)[0]); err != nil || !cmp.Equal(ct, []uint16{40}) {
		t.Errorf("ct of /sensors: %v %v", ct, err)
	}
	if sz := linkformat.Values(parseDoc(t, "rfc6690-5-firmware.wlnk", 1)[0], "sz"); !cmp.Equal(sz, []string{"262144"}) {
		t.Errorf("sz: %q", sz)
	}
	// "Without the linefeeds inserted here for readability, the format
	// actually looks as follows": Format writes the first response so.
	oneline := strings.TrimSuffix(string(readDoc(t, "rfc6690-5-oneline.wlnk")), "\n")
	if got := string(linkformat.Format(parseDoc(t, "rfc6690-5-wellknown.wlnk", 2))); got != oneline {
		t.Errorf("the first response without line breaks: Format =\n%s\nthe RFC prints\n%s", got, oneline)
	}
	// rt holds several values separated by spaces; a filter matches any one.
	if v := linkformat.Values(parseDoc(t, "rfc6690-5-rt-multi.wlnk", 1)[0], "rt"); !cmp.Equal(v, []string{"light-lux", "core.sen-light"}) {
		t.Errorf("rt of the link with two resource types: %q", v)
	}

	doc := mustURL(t, "coap://[2001:db8:f0::1]/.well-known/core")
	got := linkformat.Resolve(parseDoc(t, "rfc6690-5-full.wlnk", 5), doc)
	want := weblink.Links{
		{Target: "coap://[2001:db8:f0::1]/sensors", Anchor: "coap://[2001:db8:f0::1]/", Rel: []string{"hosts"}, Title: "Sensor Index", Params: []weblink.Param{{Name: "ct", Value: "40"}}},
		hostsLink("coap://[2001:db8:f0::1]/sensors/temp", "coap://[2001:db8:f0::1]/", weblink.Param{Name: "rt", Value: "temperature-c"}, weblink.Param{Name: "if", Value: "sensor"}),
		hostsLink("coap://[2001:db8:f0::1]/sensors/light", "coap://[2001:db8:f0::1]/", weblink.Param{Name: "rt", Value: "light-lux"}, weblink.Param{Name: "if", Value: "sensor"}),
		{Target: "http://www.example.com/sensors/t123", Anchor: "coap://[2001:db8:f0::1]/sensors/temp", Rel: []string{"describedby"}},
		{Target: "coap://[2001:db8:f0::1]/t", Anchor: "coap://[2001:db8:f0::1]/sensors/temp", Rel: []string{"alternate"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RFC 6690 §5, sixth response, resolved (-want +got):\n%s", diff)
	}

	// The seventh response, to ?anchor=/sensors/temp: the anchored links of
	// the sixth, except that the RFC names the description temp123 there.
	got = linkformat.Resolve(parseDoc(t, "rfc6690-5-anchor-filter.wlnk", 2), doc)
	want = weblink.Links{
		{Target: "http://www.example.com/sensors/temp123", Anchor: "coap://[2001:db8:f0::1]/sensors/temp", Rel: []string{"describedby"}},
		{Target: "coap://[2001:db8:f0::1]/t", Anchor: "coap://[2001:db8:f0::1]/sensors/temp", Rel: []string{"alternate"}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("RFC 6690 §5, seventh response, resolved (-want +got):\n%s", diff)
	}
}

// TestRFC9176Examples checks the examples of RFC 9176 Appendix B: direct
// discovery from the host and lookup at the resource directory resolve to
// the same statements.
func TestRFC9176Examples(t *testing.T) {
	host := mustURL(t, "coap://[2001:db8:f0::1]/.well-known/core") // B.1.1: built from the responding endpoint
	rd := mustURL(t, "coap://[2001:db8:f0::ff]/rd-lookup/res?rt=temperature")

	temp := hostsLink("coap://[2001:db8:f0::1]/sensors/temp", "coap://[2001:db8:f0::1]/", weblink.Param{Name: "rt", Value: "temperature"}, weblink.Param{Name: "ct", Value: "0"})
	if diff := cmp.Diff(weblink.Links{temp}, linkformat.Resolve(parseDoc(t, "rfc9176-b1-discovery.wlnk", 1), host)); diff != "" {
		t.Errorf("B.1 (-want +got):\n%s", diff)
	}
	// B.3: the lookup result is hosted by the endpoint, not by the RD.
	if diff := cmp.Diff(weblink.Links{temp}, linkformat.Resolve(parseDoc(t, "rfc9176-b3-lookup.wlnk", 1), rd)); diff != "" {
		t.Errorf("B.3 lookup (-want +got):\n%s", diff)
	}
	direct := linkformat.Resolve(parseDoc(t, "rfc9176-b2-extended.wlnk", 4), host)
	lookup := linkformat.Resolve(parseDoc(t, "rfc9176-b3-lookup-extended.wlnk", 4), rd)
	if diff := cmp.Diff(direct, lookup); diff != "" {
		t.Errorf("B.2 from the host and B.3 from the RD differ (-host +rd):\n%s", diff)
	}
	if l := direct[2]; l.Target != "coap://[2001:db8:f0::1]/t" || l.Anchor != "coap://[2001:db8:f0::1]/sensors/temp" || !l.HasRel("alternate") {
		t.Errorf("B.2 third record: %+v", l)
	}
	if l := direct[3]; l.Target != "http://www.example.com/sensors/t123" || l.Anchor != "coap://[2001:db8:f0::1]/sensors/temp" || !l.HasRel("describedby") {
		t.Errorf("B.2 fourth record: %+v", l)
	}
	base := linkformat.Resolve(parseDoc(t, "rfc9176-b3-lookup-base.wlnk", 1), rd)
	if base[0].Anchor != "coap+tcp://simple-host1.example.com/" {
		t.Errorf("B.3 with base=: anchor %q", base[0].Anchor)
	}

	// B.4: no percent-encoding in link-format; the Link header form has it.
	malmo := parseDoc(t, "rfc9176-b4-malmo.wlnk", 1)
	if r := linkformat.Resolve(malmo, host); r[0].Target != "coap://[2001:db8:f0::1]/temperature/Malmö" {
		t.Errorf("B.4 resolved: %q", r[0].Target)
	}
	if got := string(linkformat.Format(malmo)); got != `</temperature/Malmö>;rel="live-environment-data"` {
		t.Errorf("B.4 Format: %s", got)
	}
	if got := malmo.String(); !strings.Contains(got, "</temperature/Malm%C3%B6>") {
		t.Errorf("B.4 as a Link header: %s", got)
	}
}

// TestRFC7089Examples checks the TimeMaps of RFC 7089 §5.
func TestRFC7089Examples(t *testing.T) {
	tm, err := linkformat.ParseTimeMap(readDoc(t, "rfc7089-5-timemap.wlnk"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if tm.Original != "http://a.example.org" || tm.TimeGate != "http://arxiv.example.net/timegate/http://a.example.org" || tm.Self != "http://arxiv.example.net/timemap/http://a.example.org" {
		t.Errorf("original %q timegate %q self %q", tm.Original, tm.TimeGate, tm.Self)
	}
	if !tm.From.Equal(date(t, "Tue, 20 Jun 2000 18:02:59 GMT")) || !tm.Until.Equal(date(t, "Wed, 09 Apr 2008 20:30:51 GMT")) {
		t.Errorf("from %v until %v", tm.From, tm.Until)
	}
	wantDates := []string{"2000-06-20T18:02:59Z", "2009-10-27T20:49:54Z", "2000-06-21T01:17:31Z", "2000-06-21T04:41:56Z"}
	if len(tm.Mementos) != 4 || tm.Links != nil {
		t.Fatalf("%d mementos, %d other links", len(tm.Mementos), len(tm.Links))
	}
	for i, m := range tm.Mementos {
		if m.Datetime.Format(time.RFC3339) != wantDates[i] {
			t.Errorf("memento %d at %v, want %s (document order, not sorted)", i, m.Datetime, wantDates[i])
		}
		if p, ok := m.Param("license"); !ok || p.Value != "http://creativecommons.org/publicdomain/zero/1.0/" {
			t.Errorf("memento %d lost its license: %+v", i, m.Params)
		}
	}
	if !tm.Mementos[0].HasRel("first") || !tm.Mementos[1].HasRel("last") {
		t.Errorf("first/last: %q %q", tm.Mementos[0].Rel, tm.Mementos[1].Rel)
	}

	index, err := linkformat.ParseTimeMap(readDoc(t, "rfc7089-5-index.wlnk"), nil)
	if err != nil || index.Mementos != nil || len(index.Links) != 3 || !index.From.IsZero() {
		t.Fatalf("index TimeMap: %+v %v", index, err)
	}
	if p, _ := index.Links[1].Param("until"); index.Links[1].Target != "http://arxiv2.example.net/timemap/http://a.example.org" || p.Value != "Tue, 27 Oct 2009 20:49:54 GMT" {
		t.Errorf("second timemap link: %+v", index.Links[1])
	}

	// As printed, the paging example misses the comma after the third
	// timemap link: that link and the first memento after it are one
	// malformed element, dropped and reported at the memento's "<".
	doc := readDoc(t, "rfc7089-5-paging.wlnk")
	paging, err := linkformat.ParseTimeMap(doc, nil)
	at := strings.Index(string(doc), "<http://arxiv.example.net/web/20000620180259")
	if offs := offsets(err); !cmp.Equal(offs, []int{at}) {
		t.Errorf("paging TimeMap problems at %v, want [%d]: %v", offs, at, err)
	}
	if len(paging.Mementos) != 2 || len(paging.Links) != 1 || paging.Self != "http://arxiv.example.net/timemap/1/http://a.example.org" {
		t.Errorf("paging TimeMap: %d mementos, links %+v, self %q", len(paging.Mementos), paging.Links, paging.Self)
	}
}

// TestRealDocuments checks the /.well-known/core documents of deployed
// CoAP servers in testdata.
func TestRealDocuments(t *testing.T) {
	// Californium's serialiser: a trailing comma, a valueless attribute,
	// a space-separated value.
	cf := parseDoc(t, "californium-linkformattest.wlnk", 2)
	if v := linkformat.Values(cf[1], "bar"); !cmp.Equal(v, []string{"one", "two"}) {
		t.Errorf("Californium bar: %q", v)
	}
	if p, ok := cf[1].Param("foo"); !ok || p.Value != "" {
		t.Errorf("Californium foo: %+v %v", p, ok)
	}

	// Contiki's plugtest server quotes ct and sz; Format writes them bare.
	ct := parseDoc(t, "contiki-plugtest.wlnk", 20)
	byTarget := make(map[string]weblink.Link)
	for _, l := range ct {
		byTarget[l.Target] = l
	}
	if f, err := linkformat.ContentFormats(byTarget["/multi-format"]); err != nil || !cmp.Equal(f, []uint16{0, 41}) {
		t.Errorf("Contiki /multi-format ct: %v %v", f, err)
	}
	if f, err := linkformat.ContentFormats(byTarget["/path"]); err != nil || !cmp.Equal(f, []uint16{40}) {
		t.Errorf("Contiki /path ct: %v %v", f, err)
	}
	if v := linkformat.Values(byTarget["/link1"], "rt"); !cmp.Equal(v, []string{"Type1", "Type2"}) {
		t.Errorf("Contiki /link1 rt: %q", v)
	}
	if _, ok := byTarget["/obs"].Param("obs"); !ok {
		t.Error("Contiki /obs lost obs")
	}
	out := string(linkformat.Format(ct))
	for _, s := range []string{`</path>;title="Path test resource";ct=40,`, `;rt="block";sz=2012,`, `</obs>;title="Observable resource which changes every 5 seconds";obs,`} {
		if !strings.Contains(out, s) {
			t.Errorf("Contiki reformatted lacks %s", s)
		}
	}

	// An LwM2M registration, as Leshan's test reads it: the root carries
	// rt="oma.lwm2m" and ct=100; the object instances have no attribute.
	reg := linkformat.Resolve(parseDoc(t, "leshan-registration.wlnk", 5), mustURL(t, "coap://[2001:db8::7]:56830/rd?ep=dev1"))
	if f, err := linkformat.ContentFormats(reg[0]); err != nil || !cmp.Equal(f, []uint16{100}) || !cmp.Equal(linkformat.Values(reg[0], "rt"), []string{"oma.lwm2m"}) {
		t.Errorf("Leshan root: %+v", reg[0])
	}
	if reg[4].Target != "coap://[2001:db8::7]:56830/2/1" || reg[4].Anchor != "coap://[2001:db8::7]:56830/" || len(reg[4].Params) != 1 || reg[4].Params[0] != (weblink.Param{Name: "empty"}) {
		t.Errorf("Leshan /2/1: %+v", reg[4])
	}
	if got := string(linkformat.Format(reg[:1])); got != `<coap://[2001:db8::7]:56830/>;rel="hosts";anchor="coap://[2001:db8::7]:56830/";rt="oma.lwm2m";ct=100;qs=quoted_string;us=unquoted_string` {
		t.Errorf("Leshan root formatted: %s", got)
	}

	// libcoap's example server, resolved against the endpoint RIOT asked.
	lc := linkformat.Resolve(parseDoc(t, "libcoap-coap-server.wlnk", 3), mustURL(t, "coap://[fe80::d8b8:65ff:feee:121b]:5683/.well-known/core"))
	if lc[0].Target != "coap://[fe80::d8b8:65ff:feee:121b]:5683/" || lc[0].Title != "General Info" || !lc[0].HasRel("hosts") {
		t.Errorf("libcoap </>: %+v", lc[0])
	}
	if v := linkformat.Values(lc[1], "rt"); !cmp.Equal(v, []string{"Ticks"}) {
		t.Errorf("libcoap /time rt %q: the case is kept", v)
	}

	// coap.me, the public plugtest server, writes link-format as Format
	// does: one line, rt and if quoted, ct and sz bare. Its /blåbærsyltetøy
	// is percent-encoded in the target and UTF-8 in rt; both stay so.
	me := readDoc(t, "coapme-wellknown.wlnk")
	cm := parseDoc(t, "coapme-wellknown.wlnk", 28)
	if got := linkformat.Format(cm); string(got) != string(me) {
		t.Errorf("coap.me reformatted:\n%s\nserved:\n%s", got, me)
	}
	cm = linkformat.Resolve(cm, mustURL(t, "coap://coap.me/.well-known/core"))
	jam := hostsLink("coap://coap.me/bl%C3%A5b%C3%A6rsyltet%C3%B8y", "coap://coap.me/", weblink.Param{Name: "rt", Value: "blåbærsyltetøy"}, weblink.Param{Name: "ct", Value: "0"})
	if diff := cmp.Diff(jam, cm[3]); diff != "" {
		t.Errorf("coap.me fourth link (-want +got):\n%s", diff)
	}
	if rt, ifs := linkformat.Values(cm[8], "rt"), linkformat.Values(cm[8], "if"); cm[8].Target != "coap://coap.me/broken" || !cmp.Equal(rt, []string{"Type2", "Type1"}) || !cmp.Equal(ifs, []string{"If2", "If1"}) {
		t.Errorf("coap.me /broken: rt %q if %q", rt, ifs)
	}
	if sz := linkformat.Values(cm[6], "sz"); cm[6].Target != "coap://coap.me/large" || !cmp.Equal(sz, []string{"1700"}) {
		t.Errorf("coap.me /large sz %q", sz)
	}
	var formats []uint16
	for _, l := range cm {
		f, err := linkformat.ContentFormats(l)
		if err != nil || len(f) != 1 {
			t.Fatalf("coap.me %s ct: %v %v", l.Target, f, err)
		}
		formats = append(formats, f[0])
	}
	if want := append(make([]uint16, 21), 40, 40, 40, 0, 50, 50, 50); !cmp.Equal(formats, want) {
		t.Errorf("coap.me content formats %v, want %v", formats, want)
	}
}

// TestRealTimeMaps checks the TimeMaps of web archives in testdata.
func TestRealTimeMaps(t *testing.T) {
	pywb, err := linkformat.ParseTimeMap(readDoc(t, "pywb-timemap.wlnk"), nil)
	if err != nil || pywb.Self != "http://localhost:80/pywb/timemap/*/http://example.com?example=1" || pywb.Original != "http://example.com?example=1" ||
		!pywb.From.Equal(date(t, "Fri, 03 Jan 2014 03:03:21 GMT")) || !pywb.Until.IsZero() || len(pywb.Mementos) != 2 || pywb.Links != nil {
		t.Errorf("pywb: %+v %v", pywb, err)
	}

	// The Wayback Machine lists its first memento twice.
	wb, err := linkformat.ParseTimeMap(readDoc(t, "wayback-ogp.wlnk"), nil)
	if err != nil || wb.Original != "http://ogp.me:80/" || wb.TimeGate != "https://web.archive.org/web/http://ogp.me:80/" || len(wb.Mementos) != 4 {
		t.Fatalf("Wayback: %+v %v", wb, err)
	}
	if wb.Mementos[0].Target != wb.Mementos[1].Target || !wb.Mementos[0].HasRel("first") || wb.Mementos[1].HasRel("first") || !wb.Mementos[2].HasRel("next") {
		t.Errorf("Wayback mementos: %+v", wb.Mementos)
	}
	if len(wb.Links) != 1 || !wb.Links[0].HasRel("timemap") || wb.Links[0].Type != "application/link-format" {
		t.Errorf("Wayback other links: %+v", wb.Links)
	}

	pc, err := linkformat.ParseTimeMap(readDoc(t, "permacc-ogp.wlnk"), nil)
	if err != nil || len(pc.Mementos) != 1 || pc.Mementos[0].Target != "https://perma.cc/7YXW-UFQ3" || len(pc.Links) != 3 || pc.Links[2].Type != "text/html" {
		t.Errorf("perma.cc: %+v %v", pc, err)
	}

	at, err := linkformat.ParseTimeMap(readDoc(t, "archivetoday-sputnik.wlnk"), nil)
	if err != nil || len(at.Mementos) != 1 || !cmp.Equal(at.Mementos[0].Rel, []string{"first", "last", "memento"}) ||
		at.Self != "http://archive.md/timemap/https://twitter.com/SputnikNewsUS" || !at.From.Equal(at.Until) || at.From.IsZero() {
		t.Errorf("archive.today: %+v %v", at, err)
	}
}

// TestIoTRecipe runs the resource-directory recipe of docs/linkformat.md.
func TestIoTRecipe(t *testing.T) {
	payload := []byte(`<coap://[2001:db8:f0::1]/sensors/temp>;rt="temperature core.s";ct="0 110",
<coap://[2001:db8:f0::2]/t>;rt=temperature;ct=0,
</local>;rt=temperature;ct=110`)
	lookup := mustURL(t, "coap://[2001:db8:f0::ff]/rd-lookup/res?rt=temperature")
	links, err := linkformat.Parse(payload)
	if err != nil {
		t.Fatal(err)
	}
	var found []string
	for _, l := range linkformat.Resolve(links, lookup) {
		if !slices.Contains(linkformat.Values(l, "rt"), "temperature") {
			continue
		}
		if formats, _ := linkformat.ContentFormats(l); slices.Contains(formats, 110) {
			found = append(found, l.Target+" on "+l.Anchor)
		}
	}
	want := []string{
		"coap://[2001:db8:f0::1]/sensors/temp on coap://[2001:db8:f0::1]/",
		"coap://[2001:db8:f0::ff]/local on coap://[2001:db8:f0::ff]/",
	}
	if !cmp.Equal(found, want) {
		t.Errorf("found %q, want %q", found, want)
	}
}
