package signposting

import (
	"context"
	"net/http"
	"strings"
	"testing"
)

// TestFetchArguments: a nil context, a nil request or one without a URL,
// and a method other than GET or HEAD are errors that start with the
// package name and say what to do, never a panic.
func TestFetchArguments(t *testing.T) {
	post, _ := http.NewRequest(http.MethodPost, "http://127.0.0.1:1/record", nil)
	get, _ := http.NewRequest(http.MethodGet, "http://127.0.0.1:1/record", nil)
	for _, tc := range []struct {
		name string
		ctx  context.Context
		req  *http.Request
		want string
	}{
		{"nil context", nil, get, "signposting: Fetch needs a non-nil context; use context.Background() if there is none"},
		{"nil request", context.Background(), nil, "signposting: Fetch needs a request with a URL; create it with http.NewRequestWithContext"},
		{"no URL", context.Background(), &http.Request{Method: http.MethodGet}, "signposting: Fetch needs a request with a URL; create it with http.NewRequestWithContext"},
		{"POST", context.Background(), post, `signposting: POST "http://127.0.0.1:1/record" not sent: Fetch sends GET or HEAD requests`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := Fetch(tc.ctx, nil, tc.req)
			if s != nil || err == nil || err.Error() != tc.want {
				t.Fatalf("Fetch = %v, %q; want nil, %q", s, err, tc.want)
			}
			if strings.Contains(err.Error(), "discover:") {
				t.Errorf("error names package discover, which the caller did not call: %q", err)
			}
		})
	}
}
