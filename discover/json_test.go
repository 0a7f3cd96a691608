package discover

import (
	"net/http/httptest"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLinksJSONResource: application/json is read as a linkset only when
// the document is one, an object whose sole member is "linkset" (rule 16);
// an ordinary JSON resource of an API gives its header links and no error.
func TestLinksJSONResource(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		want       []string
		wantErr    bool
	}{
		{"31/linkset", `{"linkset":[{"anchor":"/","ok":[{"href":"/fine"}]}]}`, []string{"next /p2", "ok /fine"}, false},
		{"31/linkset with spaces", " \n{ \"linkset\" : [] }\n", []string{"next /p2"}, false},
		{"31/broken linkset", `{"linkset": 1}`, []string{"next /p2"}, true},
		{"31/resource", `{"id": 1, "name": "weblink"}`, []string{"next /p2"}, false},
		{"31/resource with a linkset member", `{"linkset": [], "id": 1}`, []string{"next /p2"}, false},
		{"31/member after a linkset", `{"id": 1, "linkset": []}`, []string{"next /p2"}, false},
		{"31/array", `[{"linkset": []}]`, []string{"next /p2"}, false},
		{"31/string", `"linkset"`, []string{"next /p2"}, false},
		{"31/not JSON", `{"linkset": [`, []string{"next /p2"}, false},
		{"31/two documents", `{"linkset": []} {"linkset": []}`, []string{"next /p2"}, false},
		{"31/empty", ``, []string{"next /p2"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(respond(200, "application/json; charset=utf-8", tc.body, `</p2>; rel="next"`))
			defer srv.Close()
			links, err := get(t, srv.URL+"/")
			if got := summary(links, srv.URL); !cmp.Equal(got, tc.want) {
				t.Errorf("links %v, want %v", got, tc.want)
			}
			if (err != nil) != tc.wantErr {
				t.Errorf("error %v, want one: %v", err, tc.wantErr)
			}
		})
	}
}
