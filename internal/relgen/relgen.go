// Package relgen generates zrelations.go, the IANA "Link Relations" registry
// (RFC 8288 §4.2) as Go constants and a sorted table, from the JSON data
// file link-relations.json kept in this directory.
//
// The data file is a JSON array of objects with the fields "name",
// "description", "reference" and, for some entries, "notes" (not used). It is
// a transcription of https://www.iana.org/assignments/link-relations/. To
// update the registry, edit the data file and run "go generate" at the root
// of the module; the tests of package weblink fail until the generated files
// match the data.
package relgen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"go/token"
	"slices"
	"strconv"
	"strings"
)

// DataFile is the path of the registry data, relative to the module root.
const DataFile = "internal/relgen/link-relations.json"

// entry is one registration of the data file.
type entry struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Reference   string `json:"reference"`
	Notes       string `json:"notes"`
}

// Generate returns the source of zrelations.go and of zrelations_test.go for
// the registry data in data. Entries are sorted by name; names must be
// distinct, non-empty and lower-case, and their Go names (see GoName) must
// be distinct too.
func Generate(data []byte) (code, test []byte, err error) {
	entries, err := decode(data)
	if err != nil {
		return nil, nil, err
	}
	idents := make([]string, len(entries))
	seen := make(map[string]string, len(entries))
	for i, e := range entries {
		id := "Rel" + GoName(e.Name)
		if !token.IsIdentifier(id) || !token.IsExported(id) {
			return nil, nil, fmt.Errorf("relgen: %q gives the identifier %q, which is not valid", e.Name, id)
		}
		if other, ok := seen[id]; ok {
			return nil, nil, fmt.Errorf("relgen: %q and %q both give the identifier %s", other, e.Name, id)
		}
		seen[id] = e.Name
		idents[i] = id
	}
	code, err = genCode(entries, idents)
	if err != nil {
		return nil, nil, err
	}
	test, err = genTest(entries, idents)
	if err != nil {
		return nil, nil, err
	}
	return code, test, nil
}

// decode parses and checks the data file, returning its entries sorted by
// name.
func decode(data []byte) ([]entry, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var entries []entry
	if err := dec.Decode(&entries); err != nil {
		return nil, fmt.Errorf("relgen: decoding the data file: %w", err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("relgen: the data file has no entries")
	}
	slices.SortFunc(entries, func(a, b entry) int { return strings.Compare(a.Name, b.Name) })
	for i, e := range entries {
		if e.Name == "" {
			return nil, fmt.Errorf("relgen: entry %d has no name", i)
		}
		for j := 0; j < len(e.Name); j++ {
			c := e.Name[j]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_') {
				return nil, fmt.Errorf("relgen: name %q holds %q: names are lower-case letters, digits, '-', '.' and '_'", e.Name, c)
			}
		}
		if i > 0 && entries[i-1].Name == e.Name {
			return nil, fmt.Errorf("relgen: %q is registered twice", e.Name)
		}
	}
	return entries, nil
}

// initialisms are the parts of a name written in capitals in a Go name: the
// common initialisms of Go style plus those of the registry.
var initialisms = map[string]bool{
	"acl": true, "api": true, "ascii": true, "cpu": true, "css": true,
	"dns": true, "eof": true, "guid": true, "html": true, "http": true,
	"https": true, "id": true, "ip": true, "json": true, "rpc": true,
	"sql": true, "ssh": true, "tcp": true, "tls": true, "ttl": true,
	"udp": true, "ui": true, "uid": true, "uri": true, "url": true,
	"uuid": true, "xml": true, "xmpp": true,
	// From the registry.
	"amp": true, "c2pa": true, "ice": true, "lrdd": true, "restconf": true,
	"sip": true, "ugc": true,
}

// words splits the registry names that run words together, so that their
// Go names read as the specifications write them (TimeGate, DescribedBy).
// Each word is then capitalised or treated as an initialism.
var words = map[string]string{
	"amphtml":              "amp html",
	"convertedfrom":        "converted from",
	"describedby":          "described by",
	"intervalafter":        "interval after",
	"intervalbefore":       "interval before",
	"intervalcontains":     "interval contains",
	"intervaldisjoint":     "interval disjoint",
	"intervalduring":       "interval during",
	"intervalequals":       "interval equals",
	"intervalfinishedby":   "interval finished by",
	"intervalfinishes":     "interval finishes",
	"intervalin":           "interval in",
	"intervalmeets":        "interval meets",
	"intervalmetby":        "interval met by",
	"intervaloverlappedby": "interval overlapped by",
	"intervaloverlaps":     "interval overlaps",
	"intervalstartedby":    "interval started by",
	"intervalstarts":       "interval starts",
	"modulepreload":        "module preload",
	"nofollow":             "no follow",
	"noopener":             "no opener",
	"noreferrer":           "no referrer",
	"ruleinput":            "rule input",
	"timegate":             "time gate",
	"timemap":              "time map",
}

// spellings are the parts whose Go spelling no rule gives.
var spellings = map[string]string{
	"openid2": "OpenID2", // as OpenID writes it, with the ID initialism
	"p3pv1":   "P3Pv1",   // P3P version 1
}

// GoName returns the Go name of the relation type name, without the "Rel"
// prefix: each part between '-', '.' or '_' is capitalised, or upper-cased
// when it is a common initialism, and the parts are joined. Names that run
// words together are split first ("describedby" gives "DescribedBy").
func GoName(name string) string {
	var b strings.Builder
	parts := strings.FieldsFunc(name, func(r rune) bool { return r == '-' || r == '.' || r == '_' })
	for _, part := range parts {
		if s, ok := spellings[part]; ok {
			b.WriteString(s)
			continue
		}
		ws := []string{part}
		if s, ok := words[part]; ok {
			ws = strings.Fields(s)
		}
		for _, w := range ws {
			if initialisms[w] {
				b.WriteString(strings.ToUpper(w))
			} else {
				b.WriteString(strings.ToUpper(w[:1]) + w[1:])
			}
		}
	}
	return b.String()
}

// prologue starts each generated file.
const prologue = "// Code generated by relgen from " + DataFile + "; DO NOT EDIT.\n\npackage weblink\n\n"

// genCode writes the constants and the table.
func genCode(entries []entry, idents []string) ([]byte, error) {
	b := bytes.NewBufferString(prologue)
	b.WriteString("// The registered relation types of the IANA \"Link Relations\" registry\n")
	b.WriteString("// (RFC 8288 §2.1.1, §4.2), each with its registry description and reference.\n")
	b.WriteString("const (\n")
	for i, e := range entries {
		if i > 0 {
			b.WriteString("\n")
		}
		comment(b, idents[i]+" is the registered relation type "+strconv.Quote(e.Name)+". "+e.Description)
		b.WriteString("\t//\n")
		comment(b, "Reference: "+e.Reference)
		fmt.Fprintf(b, "\t%s = %s\n", idents[i], strconv.Quote(e.Name))
	}
	b.WriteString(")\n\n")
	b.WriteString("// relations is the registry, sorted by name, for LookupRelation and Relations.\n")
	b.WriteString("var relations = [...]Relation{\n")
	for i, e := range entries {
		fmt.Fprintf(b, "\t{Name: %s, Description: %s, Reference: %s},\n",
			idents[i], strconv.Quote(e.Description), strconv.Quote(e.Reference))
	}
	b.WriteString("}\n")
	return gofmt(b.Bytes())
}

// genTest writes a table of every constant, its identifier and its value,
// which the tests of package weblink compare with the data file.
func genTest(entries []entry, idents []string) ([]byte, error) {
	b := bytes.NewBufferString(prologue)
	b.WriteString("// relationConstants lists each generated constant by identifier and value.\n")
	b.WriteString("var relationConstants = []struct{ ident, value string }{\n")
	for i := range entries {
		fmt.Fprintf(b, "\t{%q, %s},\n", idents[i], idents[i])
	}
	b.WriteString("}\n")
	return gofmt(b.Bytes())
}

func gofmt(src []byte) ([]byte, error) {
	out, err := format.Source(src)
	if err != nil {
		return nil, fmt.Errorf("relgen: formatting the generated source: %w", err)
	}
	return out, nil
}

// comment writes text as a doc comment of a constant, wrapped to lines of
// about 80 columns. A line never starts with a word that go/doc would read
// as a list marker.
func comment(b *bytes.Buffer, text string) {
	const width = 72
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && len(line)+1+len(w) > width && !listMarker(w) {
			b.WriteString("\t// " + line + "\n")
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	b.WriteString("\t// " + line + "\n")
}

// listMarker reports whether a line starting with w would be a list item in
// a doc comment: "-", "*", "+" or "•", or a number followed by '.' or ')'.
func listMarker(w string) bool {
	switch w {
	case "-", "*", "+", "•":
		return true
	}
	if len(w) < 2 || (w[len(w)-1] != '.' && w[len(w)-1] != ')') {
		return false
	}
	for i := 0; i < len(w)-1; i++ {
		if w[i] < '0' || w[i] > '9' {
			return false
		}
	}
	return true
}
