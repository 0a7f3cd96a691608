package weblink_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/weblinking/weblink"
)

// ExampleStatusError_items reads what the server said about a refused page
// from the error of Items, which has closed the page's body.
func ExampleStatusError_items() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-GitHub-Request-Id", "C0DE:42")
		w.WriteHeader(http.StatusUnprocessableEntity)
		fmt.Fprint(w, `{"message": "Validation Failed"}`)
	}))
	defer srv.Close()

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/issues", nil)
	if err != nil {
		log.Fatal(err)
	}
	for _, err := range weblink.Items(ctx, nil, req, weblink.JSONItems[int]) {
		var se *weblink.StatusError
		if errors.As(err, &se) {
			var msg struct{ Message string }
			_ = json.Unmarshal(se.Body, &msg) // the first 2 KiB of the body at most
			fmt.Println(se.StatusCode, msg.Message, se.Header.Get("X-GitHub-Request-Id"))
			break
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// 422 Validation Failed C0DE:42
}
