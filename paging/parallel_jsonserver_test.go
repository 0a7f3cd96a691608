package paging_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/weblinking/weblink/paging"
)

// jsonServerInstall is how .ci/run installs json-server, which
// TestParallelJSONServer runs.
const jsonServerInstall = "npm install --prefix ~/.cache/weblink-ci json-server@0.17.4"

// jsonServer returns the json-server command: $WEBLINK_JSON_SERVER, which
// .ci/run sets, or where .ci/run installs it. Without it the test skips,
// unless CI is set.
func jsonServer(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("WEBLINK_JSON_SERVER")
	if bin == "" {
		cache, err := os.UserCacheDir()
		if err == nil {
			bin = filepath.Join(cache, "weblink-ci", "node_modules", ".bin", "json-server")
		}
	}
	if _, err := os.Stat(bin); bin == "" || err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("json-server not found (%q); .ci/run installs it with %s", bin, jsonServerInstall)
		}
		t.Skipf("json-server not found (%q); install it with %s, or run .ci/run", bin, jsonServerInstall)
	}
	return bin
}

// inFlight is a RoundTripper that counts the requests it has in flight.
type inFlight struct {
	now, max atomic.Int64
	rt       http.RoundTripper
}

func (f *inFlight) RoundTrip(req *http.Request) (*http.Response, error) {
	n := f.now.Add(1)
	defer f.now.Add(-1)
	for m := f.max.Load(); n > m && !f.max.CompareAndSwap(m, n); m = f.max.Load() {
	}
	return f.rt.RoundTrip(req)
}

// jsonItem is an item of the collection that startJSONServer serves.
type jsonItem struct {
	ID   int    `json:"id"`
	Name string `json:"name"`
}

// startJSONServer starts json-server on a loopback port with a database
// of n items at /items, and returns its base URL and the items. It is
// stopped when the test ends.
func startJSONServer(t *testing.T, n int) (string, []jsonItem) {
	t.Helper()
	bin := jsonServer(t)
	var db struct {
		Items []jsonItem `json:"items"`
	}
	for i := 1; i <= n; i++ {
		db.Items = append(db.Items, jsonItem{ID: i, Name: "item " + strconv.Itoa(i)})
	}
	dir := t.TempDir()
	data, err := json.Marshal(db)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "db.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	base := startNode(t, nil, "/items?_page=1&_limit=1", bin, []string{"--host", "127.0.0.1", "--port"}, "--quiet", filepath.Join(dir, "db.json"))
	return base, db.Items
}

// TestParallelJSONServer pages a real page-number API, json-server 0.17.4,
// which sends Link first, prev, next and last with _page and _limit: with
// Parallel(4), Items yields the same items in the same order as one page
// at a time, with more than one request in flight.
func TestParallelJSONServer(t *testing.T) {
	base, want := startJSONServer(t, 103)
	tr := &http.Transport{MaxIdleConnsPerHost: 8}
	defer noLeak(t, tr)()
	counter := &inFlight{rt: tr}
	client := &http.Client{Transport: counter}
	items := func(opts ...paging.Option) []jsonItem {
		req, err := http.NewRequest(http.MethodGet, base+"/items?_page=1&_limit=7", nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []jsonItem
		for it, err := range paging.Items(context.Background(), client, req, paging.JSONItems[jsonItem], opts...) {
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, it)
		}
		return out
	}
	sequential := items()
	if m := counter.max.Swap(0); m != 1 {
		t.Errorf("one page at a time: %d requests in flight", m)
	}
	parallel := items(paging.Parallel(4))
	if !slices.Equal(parallel, sequential) || !slices.Equal(sequential, want) {
		t.Errorf("Parallel(4) gave %d items, one at a time %d, want the %d of the database in order", len(parallel), len(sequential), len(want))
	}
	if m := counter.max.Load(); m < 2 || m > 4 {
		t.Errorf("Parallel(4): %d requests in flight, want 2 to 4", m)
	}
}
