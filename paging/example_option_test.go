package paging_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"time"

	"github.com/weblinking/weblink"
	"github.com/weblinking/weblink/paging"
)

// endless serves page n of a list that never ends: every page links to the
// next one.
func endless() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		page, _ := strconv.Atoi(r.URL.Query().Get("page"))
		weblink.Add(w.Header(), weblink.Link{Target: "?page=" + strconv.Itoa(page+1), Rel: []string{weblink.RelNext}})
		fmt.Fprintf(w, "page %d", page)
	}))
}

// ExampleMaxPages stops after three pages of a list whose every page has a
// next link: the third page is yielded, then ErrMaxPages instead of a fourth
// request.
func ExampleMaxPages() {
	srv := endless()
	defer srv.Close()

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/items?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for resp, err := range paging.Pages(ctx, nil, req, paging.MaxPages(3)) {
		if errors.Is(err, paging.ErrMaxPages) {
			fmt.Println("stopped at the page limit")
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.Request.URL.RawQuery)
	}
	// Output:
	// page=1
	// page=2
	// page=3
	// stopped at the page limit
}

// ExampleAllowCrossOrigin follows a next link from one server to another
// (another port is another origin). Without AllowCrossOrigin, Pages stops
// there with ErrCrossOrigin; with it, Pages goes on, but never sends the
// first request's Authorization header to the other origin.
func ExampleAllowCrossOrigin() {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Println("other origin: Authorization sent:", r.Header.Get("Authorization") != "")
	}))
	defer other.Close()
	first := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		weblink.Add(w.Header(), weblink.Link{Target: other.URL + "/page2", Rel: []string{weblink.RelNext}})
	}))
	defer first.Close()

	ctx := context.Background()
	for _, opts := range [][]paging.Option{nil, {paging.AllowCrossOrigin()}} {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, first.URL+"/page1", nil)
		if err != nil {
			log.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer secret")
		pages := 0
		for _, err := range paging.Pages(ctx, nil, req, opts...) {
			if err != nil {
				fmt.Println("error:", errors.Is(err, paging.ErrCrossOrigin))
				break
			}
			pages++
		}
		fmt.Println("pages:", pages)
	}
	// Output:
	// error: true
	// pages: 1
	// other origin: Authorization sent: false
	// pages: 2
}

// ExampleBeforeNext passes a cursor from each page's header to the request
// for the next page, and ends the iteration by returning an error once the
// cursor says so.
func ExampleBeforeNext() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.Header.Get("X-Cursor"))
		w.Header().Set("X-Cursor", strconv.Itoa(n+1))
		weblink.Add(w.Header(), weblink.Link{Target: "/items?after=" + strconv.Itoa(n+1), Rel: []string{weblink.RelNext}})
	}))
	defer srv.Close()

	errEnough := errors.New("enough")
	beforeNext := func(prev *http.Response, next *http.Request) error {
		cursor := prev.Header.Get("X-Cursor")
		if cursor == "3" {
			return errEnough
		}
		next.Header.Set("X-Cursor", cursor)
		return nil
	}
	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/items", nil)
	if err != nil {
		log.Fatal(err)
	}
	for resp, err := range paging.Pages(ctx, nil, req, paging.BeforeNext(beforeNext)) {
		if errors.Is(err, errEnough) {
			fmt.Println("done")
			break
		}
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(resp.Request.URL.RequestURI(), "cursor", resp.Header.Get("X-Cursor"))
	}
	// Output:
	// /items cursor 1
	// /items?after=1 cursor 2
	// /items?after=2 cursor 3
	// done
}

// ExamplePageOption builds the options of a Pages loop from a
// configuration, where a zero value means "no limit".
func ExampleOption() {
	srv := endless()
	defer srv.Close()

	config := struct {
		MaxPages int
		MaxWait  time.Duration
	}{MaxPages: 2}
	opts := []paging.Option{paging.MaxPages(config.MaxPages), paging.WaitRateLimits(config.MaxWait)}

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/items?page=1", nil)
	if err != nil {
		log.Fatal(err)
	}
	for resp, err := range paging.Pages(ctx, nil, req, opts...) {
		if err != nil {
			fmt.Println(errors.Is(err, paging.ErrMaxPages))
			break
		}
		fmt.Println(resp.Request.URL.RawQuery)
	}
	// Output:
	// page=1
	// page=2
	// true
}

// ExampleStatusError reads the body of a page that was not 2xx, which
// Pages yields with a *StatusError, and tells a missing page from a
// refusal.
func ExampleStatusError() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"message": "Bad credentials"}`, http.StatusUnauthorized)
	}))
	defer srv.Close()

	ctx := context.Background()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+"/items", nil)
	if err != nil {
		log.Fatal(err)
	}
	for resp, err := range paging.Pages(ctx, nil, req) {
		var se *paging.StatusError
		if errors.As(err, &se) {
			body, _ := io.ReadAll(resp.Body) // still open in the loop body
			fmt.Println(se.StatusCode, strings.TrimSpace(string(body)))
			break
		}
		if err != nil {
			log.Fatal(err)
		}
	}
	// Output:
	// 401 {"message": "Bad credentials"}
}
