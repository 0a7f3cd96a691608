package weblink

import (
	"context"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
)

// Parallel makes [Pages] (and [Items]) request up to n pages at a time when
// the API numbers its pages, and still yield them one at a time, in page
// order (rules 45 to 49). An n below 2 means one page at a time, the same
// as not giving Parallel.
//
// Paging by links is sequential by nature: each page names the next. But
// many APIs that send Link headers number their pages and also send a
// rel="last" link (GitHub, GitLab, json-server): once the first page is in,
// the URLs of all the others are known. When the first page's next and last
// links differ only in the decimal value of one query parameter, and the
// next link's value is one more than the first page's own (a first URL
// without that parameter is page 1), Pages requests the pages from next to
// last with at most n requests in flight, and yields them in order. When no
// such pair of links is there (cursor paging, or a last link that is not a
// page number of the same series), paging is sequential, as without
// Parallel.
//
// Every predicted page is checked as a followed next link is (scheme,
// origin, credentials, loops, [MaxPages]), and its own next link must be
// the one predicted: when it is not (items were added or removed while
// paging, and the server's links moved), the pages requested after it are
// discarded unread (their requests cancelled, their bodies closed) and
// paging goes on from that page's own next link, one page at a time.
// MaxPages(m) counts yielded pages: no page beyond m is requested.
//
// With [WaitRateLimits] or a [RateLimiter], a page refused by a rate limit
// (or a page saying that none is left) pauses every request not yet sent
// until the time the server gave; the waits of the iteration are the time
// it was paused, in all, within maxWait. With a RateLimiter the pause is
// shared with the other iterations given its PageOption.
//
// Parallel runs up to n goroutines of its own, one for each request in
// flight, which the caller asks for by giving it; they end before the
// iteration does (also when the loop body breaks, which cancels the
// requests in flight). At most n responses wait to be yielded; their
// bodies are not read until then, so each holds its connection: give the
// client's transport a MaxIdleConnsPerHost of at least n (net/http's
// default is 2) to reuse them.
//
// [BeforeNext] runs, in the goroutine ranging over the sequence, for each
// request before it is sent, which is ahead of the loop body: its prev is
// the latest page received in order, whose body the loop body may not have
// read yet (BeforeNext must not read it). To resume an iteration that
// stopped, use as the checkpoint [NextURL] of the last page the loop body
// finished, not the latest request BeforeNext saw.
//
// Many APIs ask clients not to send concurrent requests with one
// credential (GitHub's REST API does, and counts them against a secondary
// rate limit); see docs/pagination.md for when n requests at a time is rude.
func Parallel(n int) PageOption {
	return func(c *pageConfig) { c.parallel = n }
}

// pageSeries is a series of numbered pages predicted from a page's next
// and last links: the URL of page k is that of the next link with k as the
// value of the page parameter (rule 45).
type pageSeries struct {
	base           url.URL // the next link
	prefix, suffix string  // of base's RawQuery, around the page number
	next, last     int     // the pages to request
}

// url returns the URL of page k of s.
func (s *pageSeries) url(k int) *url.URL {
	u := s.base
	u.RawQuery = s.prefix + strconv.Itoa(k) + s.suffix
	return &u
}

// is reports whether u is the URL of page k of s, as written: a server
// that writes it otherwise is taken at its word, one page at a time. It
// allocates nothing.
func (s *pageSeries) is(u *url.URL, k int) bool {
	v := *u
	v.RawQuery, v.User = s.base.RawQuery, s.base.User
	if v != s.base || (u.User == nil) != (s.base.User == nil) || u.User != nil && *u.User != *s.base.User {
		return false
	}
	var buf [20]byte
	num, q := strconv.AppendInt(buf[:0], int64(k), 10), u.RawQuery
	return len(q) == len(s.prefix)+len(num)+len(s.suffix) && strings.HasPrefix(q, s.prefix) &&
		strings.HasSuffix(q, s.suffix) && q[len(s.prefix):len(q)-len(s.suffix)] == string(num)
}

// predictSeries returns the series of pages from next to last when they
// are numbered (rule 45): next and last are the same URL but for the value
// of one query parameter, both decimal integers, next's is at most last's,
// and next's is one more than that of page, the URL of the current page
// (which is page 1 without that parameter).
func predictSeries(page, next, last *url.URL) (pageSeries, bool) {
	var s pageSeries
	if next == nil || last == nil || !sameButQuery(next, last) {
		return s, false
	}
	d, ok := differingValue(next.RawQuery, last.RawQuery)
	if !ok {
		return s, false
	}
	_, once := queryValue(next.RawQuery, d.name)
	current, ok := queryValue(page.RawQuery, d.name)
	if !once || !ok || d.a != current+1 || d.a > d.b {
		return s, false
	}
	s.base = *next
	s.prefix, s.suffix = next.RawQuery[:d.start], next.RawQuery[d.end:]
	s.next, s.last = d.a, d.b
	return s, true
}

// sameButQuery reports whether a and b are the same URL but for their
// queries.
func sameButQuery(a, b *url.URL) bool {
	x, y := *a, *b
	x.RawQuery, y.RawQuery = "", ""
	return x.String() == y.String()
}

// queryDiff is the one query element in which two queries differ.
type queryDiff struct {
	name       string // the parameter, as written
	a, b       int    // its page numbers in the first query and the second
	start, end int    // where the first query's value is
}

// differingValue compares two raw queries element by element ("&"
// separated) and returns the one element in which they differ, when they
// have as many elements and differ in exactly one, with the same name
// ("name=value") and page numbers as values.
func differingValue(a, b string) (queryDiff, bool) {
	var d queryDiff
	found := false
	for i, j := 0, 0; i < len(a) || j < len(b); {
		ea, eb := element(a[i:]), element(b[j:])
		if ea != eb {
			name, va, _ := strings.Cut(ea, "=")
			nameB, vb, _ := strings.Cut(eb, "=")
			var okA, okB bool
			d.a, okA = pageNumber(va)
			d.b, okB = pageNumber(vb)
			if found || name != nameB || !okA || !okB || len(name) == len(ea) {
				return d, false
			}
			found, d.name, d.start, d.end = true, name, i+len(name)+1, i+len(ea)
		}
		i, j = min(i+len(ea)+1, len(a)), min(j+len(eb)+1, len(b))
		if (i == len(a)) != (j == len(b)) {
			return d, false // not as many elements
		}
	}
	return d, found
}

// element returns the query element at the start of q, up to the next "&".
func element(q string) string {
	if i := strings.IndexByte(q, '&'); i >= 0 {
		return q[:i]
	}
	return q
}

// queryValue returns the page number that the raw query q gives to the
// parameter key: 1 when it has none, and false when it has the parameter
// more than once or not as a page number.
func queryValue(q, key string) (int, bool) {
	n, seen := 1, false
	for q != "" {
		e := element(q)
		q = q[min(len(e)+1, len(q)):]
		name, v, _ := strings.Cut(e, "=")
		if name != key {
			continue
		}
		var ok bool
		if n, ok = pageNumber(v); !ok || seen {
			return 0, false
		}
		seen = true
	}
	return n, true
}

// pageNumber reads a page number: decimal digits without a sign or a
// leading zero (so that writing it back gives the same text), small enough
// for an int.
func pageNumber(v string) (int, bool) {
	if v == "" || v[0] == '0' && len(v) > 1 {
		return 0, false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(v)
	return n, err == nil
}

// lastLink returns the target of resp's first rel="last" link whose
// context is the page itself, resolved as its next link is, or nil.
func lastLink(resp *http.Response) *url.URL {
	links, _ := ParseHeader(resp.Header) // the malformed parts are dropped; the series is checked page by page
	f := nextFinder{page: pageURL(resp.Request)}
	for i := range links {
		if f.usable(links[i].HasRel(RelLast), links[i].Anchor) {
			u, err := f.resolveTarget(resp, links[i].Target)
			if err != nil {
				return nil
			}
			return u
		}
	}
	return nil
}

// predict returns the series of pages after first, the first page, that
// Parallel requests ahead (rule 45), within MaxPages (rule 48).
func (p *pager) predict(first *http.Response) (pageSeries, bool) {
	next, _ := nextLink(first)
	s, ok := predictSeries(first.Request.URL, next, lastLink(first))
	if p.cfg.maxPages >= 1 {
		s.last = min(s.last, p.cfg.maxPages)
	}
	return s, ok && s.next <= s.last
}

// parallel yields first, the first page, already fetched and 2xx, and the
// pages after it that Parallel predicts (rules 45 to 49). It returns the
// last page it yielded, that page's number, and whether paging goes on, one
// page at a time, from that page's own next link.
func (p *pager) parallel(yield func(*http.Response, error) bool, first *http.Response) (*http.Response, int, bool) {
	s, ok := p.predict(first)
	if !ok {
		return first, 1, p.yieldPage(yield, first, nil)
	}
	r := p.startParallel(s)
	defer r.stop()
	return r.run(yield, first)
}

// parallelRun is the state of the pages that Parallel requests ahead: a
// window of n slots, page k in slots[k%n], each with the goroutine that
// fetches it (rule 46).
type parallelRun struct {
	p      *pager
	s      pageSeries
	ctx    context.Context // of the requests ahead; cancelled to discard them
	cancel context.CancelFunc
	wg     sync.WaitGroup
	slots  []parallelSlot
	sent   int  // the last page whose request was launched (or failed)
	taken  int  // the last page taken from its slot
	closed bool // no more requests are launched
}

// parallelSlot fetches one page at a time with a copy of the pager of its
// own, so that the goroutines share nothing but the client, the limiter
// and the wait budget, which are safe for concurrent use.
type parallelSlot struct {
	w   pager
	res chan pageResult // buffered: a goroutine never waits to hand its page over
}

// pageResult is what fetching a page gave, as pager.fetch returns it.
type pageResult struct {
	resp *http.Response
	err  error
}

// startParallel prepares the run of s, a predicted series.
func (p *pager) startParallel(s pageSeries) *parallelRun {
	n := min(p.cfg.parallel, s.last-s.next+1)
	r := &parallelRun{p: p, s: s, slots: make([]parallelSlot, n), sent: s.next - 1, taken: s.next - 1}
	r.ctx, r.cancel = context.WithCancel(p.ctx)
	for i := range r.slots {
		sl := &r.slots[i]
		sl.w = *p
		sl.w.ctx = r.ctx
		sl.w.renewRequestContext()
		sl.w.visited = make(map[string]bool) // the worker's redirects; the run records them
		sl.res = make(chan pageResult, 1)
	}
	return r
}

// run yields first and the pages of the series in order, keeping the window
// full (rules 46 and 47).
func (r *parallelRun) run(yield func(*http.Response, error) bool, first *http.Response) (*http.Response, int, bool) {
	p := r.p
	for range r.slots {
		r.launch(first)
	}
	if !p.yieldPage(yield, first, nil) {
		return first, 1, false
	}
	for k := r.s.next; ; k++ {
		res := r.take(k)
		if res.resp == nil {
			r.discard()
			yield(nil, res.err)
			return nil, k, false
		}
		for key := range r.slots[k%len(r.slots)].w.visited {
			p.visited[key] = true // where a redirect led
		}
		ahead := res.err == nil && k < r.s.last && r.predicted(res.resp, k+1)
		if ahead {
			r.launch(res.resp)
		} else {
			r.discard()
		}
		if !p.yieldPage(yield, res.resp, res.err) || res.err != nil {
			return res.resp, k, false
		}
		if !ahead {
			return res.resp, k, true // on from its own next link
		}
	}
}

// launch starts the request for the next page of the series not yet
// requested, if any, with prev the latest page received in order. A check
// or BeforeNext refusing it puts the error in its slot, to be yielded in
// order, and ends the launches.
func (r *parallelRun) launch(prev *http.Response) {
	if r.closed || r.sent >= r.s.last {
		return
	}
	k := r.sent + 1
	sl := &r.slots[k%len(r.slots)]
	req, err := r.p.linkRequest(sl.w.reqCtx, prev, k-1, r.s.url(k))
	if err == nil {
		err = r.p.beforeNext(prev, req)
	}
	// Page k counts as sent only now: when BeforeNext panics, discard
	// must not wait for a page that has no result coming.
	r.sent = k
	if err != nil {
		sl.res <- pageResult{err: err}
		r.closed = true
		return
	}
	clear(sl.w.visited)
	r.wg.Add(1)
	go r.fetch(sl, req, k)
}

// fetch fetches page k in its own goroutine and hands it to its slot. The
// copy of the pager it fetches with shares the iteration's limiter and
// wait budget: a page refused by a rate limit, or saying that it is spent,
// pauses every request not yet sent (rule 48).
func (r *parallelRun) fetch(sl *parallelSlot, req *http.Request, k int) {
	defer r.wg.Done()
	resp, err := sl.w.fetch(req, k)
	sl.res <- pageResult{resp, err}
}

// take waits for page k and takes it from its slot.
func (r *parallelRun) take(k int) pageResult {
	r.taken = k
	return <-r.slots[k%len(r.slots)].res
}

// predicted reports whether the next link of resp, page k-1, is the URL
// predicted for page k.
func (r *parallelRun) predicted(resp *http.Response, k int) bool {
	u, _ := nextLink(resp)
	return u != nil && r.s.is(u, k)
}

// discard ends the launches and discards the pages requested and not
// taken: their requests are cancelled and their bodies closed unread, and
// they no longer count as visited (rule 47). It returns when every
// goroutine of the run has ended.
func (r *parallelRun) discard() {
	r.closed = true
	r.cancel()
	for k := r.taken + 1; k <= r.sent; k++ {
		res := r.take(k)
		if res.resp != nil {
			res.resp.Body.Close()
		}
		delete(r.p.visited, visitKey(r.s.url(k)))
	}
	r.wg.Wait()
}

// stop discards what is left of the run.
func (r *parallelRun) stop() {
	r.discard()
	for i := range r.slots {
		r.slots[i].w.cancelReq()
	}
}
