package weblink_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/weblinking/weblink"
)

// lastPage and itemsOn are what the README's server recipe leaves to its
// reader: a collection of three pages.
const lastPage = 3

func itemsOn(page int) []string { return []string{"item " + strconv.Itoa(page)} }

// items is the README's server recipe, as the README prints it
// (TestReadmeServerRecipe compares the text).
func items(w http.ResponseWriter, r *http.Request) {
	page, _ := strconv.Atoi(r.URL.Query().Get("page"))
	page = max(page, 1) // no ?page= (or a bad one): the first page
	weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, lastPage)...)
	json.NewEncoder(w).Encode(itemsOn(page))
}

// funcText returns the text of "func items(" to the first "\n}\n" in s.
func funcText(t *testing.T, file, s string) string {
	t.Helper()
	i := strings.Index(s, "func items(")
	if i < 0 {
		t.Fatalf("%s: no func items", file)
	}
	j := strings.Index(s[i:], "\n}\n")
	if j < 0 {
		t.Fatalf("%s: func items has no end", file)
	}
	return s[i : i+j+3]
}

// TestReadmeServerRecipe: the README's server recipe serves the page its
// links say. Before, a request without ?page= got page 0's items while
// its links (first, next) said it was page 1.
func TestReadmeServerRecipe(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.ReadFile("readme_test.go")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := funcText(t, "README.md", string(readme)), funcText(t, "readme_test.go", string(self)); got != want {
		t.Fatalf("the README's recipe differs from the one tested here:\n%s\nwant\n%s", got, want)
	}
	for _, tt := range []struct {
		target string
		page   int
		links  string
	}{
		{"/items", 1, `</items?page=1>; rel="first", </items?page=2>; rel="next", </items?page=3>; rel="last"`},
		{"/items?page=x", 1, `</items?page=1>; rel="first", </items?page=2>; rel="next", </items?page=3>; rel="last"`},
		{"/items?page=2", 2, `</items?page=1>; rel="first", </items?page=1>; rel="prev", </items?page=3>; rel="next", </items?page=3>; rel="last"`},
		{"/items?page=3", 3, `</items?page=1>; rel="first", </items?page=2>; rel="prev", </items?page=3>; rel="last"`},
	} {
		w := httptest.NewRecorder()
		items(w, httptest.NewRequest("GET", tt.target, nil))
		var got []string
		if err := json.NewDecoder(w.Body).Decode(&got); err != nil || len(got) != 1 || got[0] != itemsOn(tt.page)[0] {
			t.Errorf("GET %s: items %q, %v; want those of page %d", tt.target, got, err, tt.page)
		}
		if link := w.Header().Get("Link"); link != tt.links {
			t.Errorf("GET %s: Link %s\nwant %s", tt.target, link, tt.links)
		}
	}
}
