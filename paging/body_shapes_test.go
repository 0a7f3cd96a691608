package paging_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// shapePage is a page of a shape: served at uri (after the request URI
// of the page before it has been followed), the body of file in
// testdata/bodies (or body, written by the test), and the identifiers of
// its items.
type shapePage struct {
	uri, file, body string
	ids             []string
}

// readShape returns the body of file in testdata/bodies with each of
// origins, the origins the spec or the recording wrote its links with,
// replaced by "{base}", which newBodyAPI serves as its own URL.
func readShape(t *testing.T, file string, origins []string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "bodies", file))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	for _, o := range origins {
		s = strings.ReplaceAll(s, o, "{base}")
	}
	return s
}

// itemID returns the string at path (member names) in the JSON object
// item.
func itemID(item json.RawMessage, path []string) string {
	var v any
	if json.Unmarshal(item, &v) != nil {
		return "(not JSON)"
	}
	for _, name := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return "(no " + strings.Join(path, "/") + ")"
		}
		v = m[name]
	}
	return fmt.Sprint(v)
}

// TestNextInBodyShapes pages through the examples of the specifications
// of JSON:API 1.1, HAL, OData 4.0 and 4.01 and Microsoft Graph, pages that
// Azure Key Vault sent, recorded in the Azure SDK's tests, the last page
// of the Microsoft Graph Go SDK's page iterator tests, and two pages that
// the JSON:API adapter of Rails' active_model_serializers writes in its
// own tests, the second the last (origins in
// testdata/bodies/README.md), each served with its links rewritten to the
// test server and followed by a last page: NextInBody follows the link at
// the pointer of the shape (rules 29 and 31) and JSONItemsAt decodes the
// items of each page at theirs (rule 34), every page read from its first
// byte (rule 30).
func TestNextInBodyShapes(t *testing.T) {
	for _, tc := range []struct {
		name       string
		next       string   // NextInBody's pointer
		items      string   // JSONItemsAt's pointer
		id         []string // the path of an item's identifier
		origins    []string // rewritten to the test server
		pages      []shapePage
		err        error  // after the last page; nil: none
		msg        string // in the error
		itemsError string // in the error of JSONItemsAt on the first page
	}{
		{name: "JSON:API front page", next: "/links/next", items: "/data", id: []string{"id"},
			origins: []string{"http://example.com"},
			pages: []shapePage{
				{uri: "/articles", file: "jsonapi-home.json", ids: []string{"1"}},
				{uri: "/articles?page[offset]=2", body: `{"links": {"next": null}, "data": [{"type": "articles", "id": "2"}]}`, ids: []string{"2"}},
			}},
		{name: "JSON:API pagination example", next: "/links/next", items: "/data", id: []string{"id"},
			origins: []string{"http://example.com"},
			pages: []shapePage{
				{uri: "/articles?page[number]=3&page[size]=1", file: "jsonapi-examples-pagination.json", ids: []string{"3"}},
				{uri: "/articles?page[number]=4&page[size]=1", body: `{"data": [{"type": "articles", "id": "4"}], "links": {"prev": "/articles?page[number]=3&page[size]=1"}}`, ids: []string{"4"}},
			}},
		{name: "JSON:API cursor pagination profile", next: "/links/next", items: "/data", id: []string{"id"},
			pages: []shapePage{
				{uri: "/example-data?page[after]=abcde&page[before]=xxx", file: "jsonapi-cursor-profile-range.json", ids: []string{"7", "8"}},
				{uri: "/example-data?page[after]=zzz", body: `{"links": {"prev": "/example-data?page[before]=zzz"}, "data": []}`, ids: []string{}},
			}},
		{name: "JSON:API server, active_model_serializers", next: "/links/next", items: "/data", id: []string{"id"},
			origins: []string{"http://example.com"},
			pages: []shapePage{
				{uri: "/?page%5Bnumber%5D=2&page%5Bsize%5D=2", file: "ams-jsonapi-page-2.json", ids: []string{"3", "4"}},
				{uri: "/?page%5Bnumber%5D=3&page%5Bsize%5D=2", file: "ams-jsonapi-last-page.json", ids: []string{"5"}},
			}},
		{name: "JSON:API link object", next: "/links/next", items: "/data", id: []string{"id"},
			pages: []shapePage{
				{uri: "/articles", body: `{"links": {"next": {"href": "/articles?page[cursor]=x", "meta": {"count": 1}}}, "data": [{"type": "articles", "id": "1"}]}`, ids: []string{"1"}},
				{uri: "/articles?page[cursor]=x", body: `{"links": {"next": null}, "data": []}`, ids: []string{}},
			}},
		{name: "HAL specification", next: "/_links/next/href", items: "/_embedded/ea:order", id: []string{"_links", "self", "href"},
			pages: []shapePage{
				{uri: "/orders", file: "hal-specification.json", ids: []string{"/orders/123", "/orders/124"}},
				{uri: "/orders?page=2", body: `{"_links": {"self": {"href": "/orders?page=2"}}, "_embedded": {"ea:order": [{"_links": {"self": {"href": "/orders/125"}}}]}}`, ids: []string{"/orders/125"}},
			}},
		{name: "OData 4.01", next: "/@nextLink", items: "/value", id: []string{"ID"},
			origins: []string{"http://host"},
			pages: []shapePage{
				{uri: "/service/Customers", file: "odata-4.01-collection.json", ids: []string{"ALFKI", "ANATR", "ANTON"}},
				{uri: "/service/Customers?$skiptoken=342r89", body: `{"@context": "{base}/service/$metadata#Customers", "value": [{"ID": "AROUT"}]}`, ids: []string{"AROUT"}},
			}},
		{name: "OData 4.0", next: "/@odata.nextLink", items: "/value", id: []string{"ID"},
			origins: []string{"http://host"},
			pages: []shapePage{
				{uri: "/service/Customers", file: "odata-4.0-collection.json", ids: []string{"ALFKI", "ANATR", "ANTON"}},
				{uri: "/service/Customers?$skiptoken=342r89", body: `{"@odata.context": "{base}/service/$metadata#Customers", "value": [{"ID": "AROUT"}]}`, ids: []string{"AROUT"}},
			}},
		{name: "Microsoft Graph", next: "/@odata.nextLink", items: "/value", id: []string{"id"},
			origins: []string{"https://graph.microsoft.com"},
			pages: []shapePage{
				{uri: "/v1.0/users?$top=5", file: "graph-paging-users.json", ids: []string{"1", "2", "3", "4", "5"}},
				{uri: "/v1.0/users?$top=5&$skiptoken=X%2744537076633B900000000000000000000%27", file: "msgraph-sdk-go-core-last-page.json", ids: []string{"10"}},
			}},
		// The docs elide the middle of the link with " ... ": the spaces
		// are percent-encoded, as in a link of a Link header (rule 31).
		{name: "Microsoft Graph docs, elided link", next: "/@odata.nextLink", items: "/value", id: []string{"id"},
			origins: []string{"https://graph.microsoft.com"},
			pages: []shapePage{
				{uri: "/v1.0/users?$top=5", file: "graph-paging-docs-verbatim.json", ids: []string{}},
				{uri: "/v1.0/users?$top=5&$skiptoken=X%274453707%20...%206633B900000000000000000000%27", body: `{"value": []}`, ids: []string{}},
			}},
		{name: "HAL, not an array of items", next: "/_links/next/href", items: "/_links/next",
			pages: []shapePage{
				{uri: "/orders", file: "hal-specification.json"},
				{uri: "/orders?page=2", body: `{"_links": {"next": null}}`},
			},
			itemsError: "cannot unmarshal object"},
		{name: "Azure Key Vault, recorded", next: "/nextLink", items: "/value", id: []string{"recoveryId"},
			origins: []string{"https://keyvault_name.vault.azure.net:443", "https://keyvault_name.vault.azure.net"},
			pages: []shapePage{
				{uri: "/deletedkeys?api-version=7.1-preview", file: "azure-keyvault-deletedkeys-1.json", ids: []string{}},
				{uri: "/deletedkeys?api-version=7.1-preview&$skiptoken=eyJOZXh0TWFya2VyIjoiMiEyNDQhTURBd01UTTVJV3RsZVM5RFNFRk1URVZPUjBWQlZWUklRMFZTVkVsR1NVTkJWRVZPUVUxRkxVOU9RMFZCVlZSSVJVNVVTVU5CVkVWRVRrVlhVa1ZSVlVWVFZGTlRTRTlWVEVST1QxUkJWVlJJUlU1VVNVTkJWRVZCUjBGSlRpMDROemcyTnpjMk9EYzVNemM0T1RJMkxURXZRa0ZDT1Rnd09EUTNSVGhDTkRJMVJUbEdOekpETlRGRk56QkVNekEyUmtFaE1EQXdNREk0SVRrNU9Ua3RNVEl0TXpGVU1qTTZOVGs2TlRrdU9UazVPVGs1T1ZvaCIsIlRhcmdldExvY2F0aW9uIjowfQ",
					file: "azure-keyvault-deletedkeys-2.json", ids: []string{
						"{base}/deletedkeys/challengeAuthKeyName-Authenticationshouldworkforparallelrequests-16149549216697756-1",
						"{base}/deletedkeys/challengeAuthKeyName-Authenticationshouldworkforparallelrequests-16814512386480018-0",
						"{base}/deletedkeys/challengeAuthKeyName-Authenticationshouldworkforparallelrequests-9345955924083531-1",
					}},
				{uri: "/deletedkeys?api-version=7.1-preview&$skiptoken=eyJOZXh0TWFya2VyIjoiMiExOTIhTURBd01EazVJV3RsZVM5RFNFRk1URVZPUjBWQlZWUklTMFZaVGtGTlJTMVBUa05GUVZWVVNFVk9WRWxEUVZSRlJFNUZWMUpGVVZWRlUxUlRVMGhQVlV4RVRrOVVRVlZVU0VWT1ZFbERRVlJGUVVkQlNVNHRNVE00TVRFMk56QTVPRFF5TnpVM01UVXRNU0V3TURBd01qZ2hPVGs1T1MweE1pMHpNVlF5TXpvMU9UbzFPUzQ1T1RrNU9UazVXaUUtIiwiVGFyZ2V0TG9jYXRpb24iOjB9",
					file: "azure-keyvault-deletedsecrets-last.json", ids: []string{
						"{base}/deletedsecrets/listSecretName-canlistdeletedsecretsbypage-0",
						"{base}/deletedsecrets/listSecretName-canlistdeletedsecretsbypage-1",
					}},
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			served := map[string]bodyPage{}
			var want []string
			for _, p := range tc.pages {
				body := p.body
				if p.file != "" {
					body = readShape(t, p.file, tc.origins)
				}
				served[p.uri] = bodyPage{body: body}
				want = append(want, p.uri)
			}
			a := newBodyAPI(t, served)
			decode := paging.JSONItemsAt[json.RawMessage](tc.items)
			req, _ := http.NewRequest(http.MethodGet, a.URL+want[0], nil)
			var got []string
			var err error
			for resp, perr := range paging.Pages(context.Background(), a.Client(), req, paging.NextInBody(tc.next)) {
				if perr != nil {
					err = perr
					break
				}
				uri := resp.Request.URL.RequestURI()
				got = append(got, uri)
				i := slices.IndexFunc(tc.pages, func(p shapePage) bool { return p.uri == uri })
				if i < 0 {
					t.Fatalf("page %s was not served", uri)
				}
				items, derr := decode(resp)
				if tc.itemsError != "" {
					if len(got) == 1 && (derr == nil || !strings.Contains(derr.Error(), tc.itemsError)) {
						t.Errorf("page %s: JSONItemsAt(%q) error %v, want one saying %q", uri, tc.items, derr, tc.itemsError)
					}
					continue
				}
				if derr != nil {
					t.Fatalf("page %s: JSONItemsAt(%q): %v", uri, tc.items, derr)
				}
				ids := []string{}
				for _, item := range items {
					ids = append(ids, strings.ReplaceAll(itemID(item, tc.id), a.URL, "{base}"))
				}
				if wantIDs := tc.pages[i].ids; !slices.Equal(ids, wantIDs) {
					t.Errorf("page %s: items %q, want %q", uri, ids, wantIDs)
				}
				if rest, _ := io.ReadAll(resp.Body); len(rest) != 0 {
					t.Errorf("page %s: %d bytes left after JSONItemsAt", uri, len(rest))
				}
			}
			if !slices.Equal(got, want) {
				t.Errorf("pages %q, want %q", got, want)
			}
			switch {
			case tc.err == nil && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.err != nil && !errors.Is(err, tc.err):
				t.Errorf("error %v, want %v", err, tc.err)
			case tc.msg != "" && (err == nil || !strings.Contains(err.Error(), tc.msg)):
				t.Errorf("error %v, want one saying %q", err, tc.msg)
			}
		})
	}
}
