package paging_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
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
	for _, err := range paging.Items(ctx, nil, req, paging.JSONItems[int]) {
		var se *paging.StatusError
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

// ExampleItems_resume goes on with a run that stopped, from its checkpoint:
// the URL of the next page in BeforeNext, which runs once the loop body has
// taken every item of the page before. The page under way when the run
// stopped is requested again whole: item 3 is seen twice.
func ExampleItems_resume() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		weblink.Add(w.Header(), weblink.PageLinks(r.URL, "page", page, 3)...)
		fmt.Fprintf(w, "[%d, %d]", 2*page-1, 2*page)
	}))
	defer srv.Close()

	ctx := context.Background()
	checkpoint := srv.URL + "/items?page=1" // store it with what the run has done
	run := func(crashAt int) error {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, checkpoint, nil)
		if err != nil {
			return err
		}
		save := paging.BeforeNext(func(_ *http.Response, next *http.Request) error {
			checkpoint = next.URL.String() // every item before it is done
			return nil
		})
		for item, err := range paging.Items(ctx, nil, req, paging.JSONItems[int], save) {
			if err != nil {
				return err
			}
			if item == crashAt {
				return errors.New("crashed")
			}
			fmt.Println("item", item)
		}
		checkpoint = "" // finished
		return nil
	}
	fmt.Println(run(4))
	fmt.Println("resume at", strings.TrimPrefix(checkpoint, srv.URL))
	fmt.Println(run(0))
	// Output:
	// item 1
	// item 2
	// item 3
	// crashed
	// resume at /items?page=2
	// item 3
	// item 4
	// item 5
	// item 6
	// <nil>
}
